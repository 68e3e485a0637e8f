//! The order-keeping parallel maps that read, parse and judge files, and make
//! the README's entry views, on every core.

/// How many items a part handed to each thread holds, when `len` items are
/// worth spreading over the cores; None when they stay on the calling thread
/// (one core, or fewer than `least` items: a list so short that starting
/// threads would cost more than it saves).
fn part_len(len: usize, least: usize) -> Option<usize> {
    let threads = threads();
    (threads >= 2 && len >= least.max(2)).then(|| len.div_ceil(threads))
}

/// How many threads the machine runs at once, asked once per process: the
/// standard library reads the control group's quota files on every call,
/// and a run maps dozens of lists.
fn threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// The shortest list of small items (a file, an entry) spread over the cores.
const SHORTEST: usize = 64;

/// Runs `f` over the items on every core, keeping the input order.
///
/// Reading, parsing and judging one file is independent of every other, and
/// on large corpora that is most of the time a check takes.
pub fn in_parallel<'a, I: Sync, T: Send>(items: &'a [I], f: impl Fn(&'a I) -> T + Sync) -> Vec<T> {
    spread_borrowed(items, SHORTEST, f)
}

/// How many items a block-wise map takes at once (see [`in_blocks`]): enough
/// to keep the cores busy, few enough that a block's results are a small
/// part of a large corpus.
pub const BLOCK: usize = 4096;

/// Runs `f` over the items on every core a block of [`BLOCK`] items at a
/// time, the results coming out in order as each block is done: for work
/// whose results are taken in one by one (files into the corpus, facts into
/// the rules across files, rows into a page), so that those of a whole large
/// list are never alive together.
pub fn in_blocks<'a, I: Sync, T: Send, F: Fn(&'a I) -> T + Sync>(
    items: &'a [I],
    f: F,
) -> impl Iterator<Item = T> + use<'a, I, T, F> {
    items
        .chunks(BLOCK)
        .flat_map(move |block| in_parallel(block, &f))
}

/// Runs `f` over a few items that are each a large piece of work (a chunk
/// of a page's rows), on every core as soon as there are two, keeping the
/// input order.
pub fn each_in_parallel<'a, I: Sync, T: Send>(
    items: &'a [I],
    f: impl Fn(&'a I) -> T + Sync,
) -> Vec<T> {
    spread_borrowed(items, 2, f)
}

/// Runs `aside` on a second thread while `here` runs on this one (both
/// here, one after the other, on a single core), and gives both results.
pub fn beside<A: Send, H>(aside: impl FnOnce() -> A + Send, here: impl FnOnce() -> H) -> (A, H) {
    if threads() < 2 {
        let h = here();
        return (aside(), h);
    }
    std::thread::scope(|s| {
        let a = s.spawn(aside);
        let h = here();
        let a = a.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        (a, h)
    })
}

/// [`spread`] of borrowed items; a list too short to spread is mapped
/// without the list of references the threads would share.
fn spread_borrowed<'a, I: Sync, T: Send>(
    items: &'a [I],
    least: usize,
    f: impl Fn(&'a I) -> T + Sync,
) -> Vec<T> {
    if part_len(items.len(), least).is_none() {
        return items.iter().map(&f).collect();
    }
    spread(items.iter().collect(), least, |_, item| f(item))
}

/// Runs `f` over the items on every core, taking each item by value with its
/// index, and keeping the input order.
///
/// For work that consumes what it maps (an entry let go once its view is
/// made), so the items and their results are never both held whole.
pub fn into_parallel<I: Send, T: Send>(items: Vec<I>, f: impl Fn(usize, I) -> T + Sync) -> Vec<T> {
    spread(items, SHORTEST, f)
}

/// [`into_parallel`] of lists of at least `least` items; shorter ones are
/// mapped on the calling thread.
fn spread<I: Send, T: Send>(
    items: Vec<I>,
    least: usize,
    f: impl Fn(usize, I) -> T + Sync,
) -> Vec<T> {
    let Some(chunk) = part_len(items.len(), least) else {
        return items
            .into_iter()
            .enumerate()
            .map(|(i, x)| f(i, x))
            .collect();
    };
    let len = items.len();
    // Cut from the back, so each cut moves only the part it cuts off.
    let mut parts: Vec<Vec<I>> = Vec::with_capacity(len.div_ceil(chunk));
    let mut rest = items;
    for k in (1..len.div_ceil(chunk)).rev() {
        parts.push(rest.split_off(k * chunk));
    }
    parts.push(rest);
    parts.reverse();
    // Each thread writes its results into its own part of one list made at
    // its final size, which then becomes the result in place: no list per
    // thread to be copied again, and no second list beside the first (on a
    // large corpus each would be as large as the parsed items themselves).
    let mut slots: Vec<Option<T>> = Vec::with_capacity(len);
    slots.resize_with(len, || None);
    std::thread::scope(|s| {
        let handles: Vec<_> = parts
            .into_iter()
            .zip(slots.chunks_mut(chunk))
            .enumerate()
            .map(|(p, (part, out))| {
                let f = &f;
                s.spawn(move || {
                    for (i, (item, slot)) in part.into_iter().zip(out).enumerate() {
                        *slot = Some(f(p * chunk + i, item));
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
    use super::{beside, each_in_parallel, in_parallel, into_parallel};

    #[test]
    fn work_beside_comes_back_with_the_work_here() {
        let items: Vec<usize> = (0..100).collect();
        let (sum, doubled) = beside(
            || items.iter().sum::<usize>(),
            || in_parallel(&items, |i| i * 2),
        );
        assert_eq!(sum, 4950);
        assert_eq!(doubled[99], 198);
    }

    #[test]
    fn every_result_comes_back_in_the_order_of_its_item() {
        for n in [0, 1, 63, 64, 65, 1000, 1001] {
            let items: Vec<usize> = (0..n).collect();
            let doubled = in_parallel(&items, |i| i * 2);
            assert_eq!(doubled, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_few_large_items_come_back_in_order() {
        for n in [0, 1, 2, 3, 8, 9] {
            let items: Vec<usize> = (0..n).collect();
            let out = each_in_parallel(&items, |i| i + 1);
            assert_eq!(out, (1..=n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn items_taken_by_value_come_back_in_order_with_their_index() {
        for n in [0, 1, 63, 64, 65, 1000, 1001] {
            let items: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            let out = into_parallel(items, |i, s| format!("{i}:{s}"));
            let want: Vec<String> = (0..n).map(|i| format!("{i}:{i}")).collect();
            assert_eq!(out, want);
        }
    }
}
