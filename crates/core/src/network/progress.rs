//! How far long work has got, told to whoever draws it: the command line
//! draws a bar on a terminal; the library only counts steps, never prints.

/// Hears the steps of long work (link checks, API batches, paper lookups).
/// Implementations must be cheap: `step` is called from worker threads.
pub trait Progress: Sync {
    /// The work has `total` steps; `what` names them ("links", "papers").
    fn start(&self, total: u64, what: &str);
    /// `n` more steps are done.
    fn step(&self, n: u64);
    /// The work is over, finished or stopped early.
    fn finish(&self);
}

/// Progress that nobody watches: tests, pipes, `--quiet`.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Progress for Silent {
    fn start(&self, _: u64, _: &str) {}
    fn step(&self, _: u64) {}
    fn finish(&self) {}
}
