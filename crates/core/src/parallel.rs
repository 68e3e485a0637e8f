//! The order-keeping parallel map that reads, parses and judges files on every core.

/// Runs `f` over the items on every core, keeping the input order.
///
/// Reading, parsing and judging one file is independent of every other, and
/// on large corpora that is most of the time a check takes. Small lists stay
/// on the calling thread, where starting threads would cost more than it saves.
pub fn in_parallel<'a, I: Sync, T: Send>(items: &'a [I], f: impl Fn(&'a I) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    if threads < 2 || items.len() < 64 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    // Each thread writes its results into its own part of one list made at
    // its final size, which then becomes the result in place: no list per
    // thread to be copied again, and no second list beside the first (on a
    // large corpus each would be as large as the parsed items themselves).
    let mut slots: Vec<Option<T>> = Vec::with_capacity(items.len());
    slots.resize_with(items.len(), || None);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .zip(slots.chunks_mut(chunk))
            .map(|(part, out)| {
                let f = &f;
                s.spawn(move || {
                    for (item, slot) in part.iter().zip(out) {
                        *slot = Some(f(item));
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
    });
    // Every slot is filled once the threads are joined. (`filter_map`, not
    // `flatten`: the standard library collects it into the same list.)
    #[allow(clippy::filter_map_identity)]
    slots.into_iter().filter_map(|slot| slot).collect()
}

#[cfg(test)]
mod tests {
    use super::in_parallel;

    #[test]
    fn every_result_comes_back_in_the_order_of_its_item() {
        for n in [0, 1, 63, 64, 65, 1000, 1001] {
            let items: Vec<usize> = (0..n).collect();
            let doubled = in_parallel(&items, |i| i * 2);
            assert_eq!(doubled, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        }
    }
}
