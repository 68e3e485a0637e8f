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
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                let f = &f;
                s.spawn(move || part.iter().map(f).collect::<Vec<T>>())
            })
            .collect();
        // Sized once: growing by doubling would copy every result again at
        // each step and hold the old and new lists at once, on a large
        // corpus as much memory as the parsed items themselves.
        let mut out = Vec::with_capacity(items.len());
        for h in handles {
            out.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        out
    })
}
