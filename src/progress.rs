//! The progress bar of long work, drawn with indicatif on standard error,
//! and only when standard error is a terminal and `--quiet` is not given:
//! a log or a pipe never receives it. The library reports steps through
//! `corpus_core::network::progress::Progress`; this is the one drawer.

use corpus_core::network::progress::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;

/// A progress bar that draws, or does nothing when nobody watches.
#[derive(Debug, Default)]
pub struct Bar {
    /// Whether to draw at all.
    shown: bool,
    /// The bar of the work under way.
    bar: Mutex<Option<ProgressBar>>,
}

impl Bar {
    /// A bar drawn on standard error when `shown` (a terminal, not `--quiet`).
    pub fn new(shown: bool) -> Bar {
        Bar {
            shown,
            bar: Mutex::new(None),
        }
    }

    fn with(&self, f: impl FnOnce(&mut Option<ProgressBar>)) {
        if self.shown {
            f(&mut self.bar.lock().unwrap_or_else(|e| e.into_inner()));
        }
    }
}

impl Progress for Bar {
    fn start(&self, total: u64, what: &str) {
        self.with(|slot| {
            if let Some(old) = slot.take() {
                old.finish_and_clear();
            }
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.set_message(what.to_string());
            *slot = Some(bar);
        });
    }

    fn step(&self, n: u64) {
        self.with(|slot| {
            if let Some(b) = slot {
                b.inc(n);
            }
        });
    }

    fn finish(&self) {
        // The bar leaves no line behind: the report follows on a clean screen.
        self.with(|slot| {
            if let Some(b) = slot.take() {
                b.finish_and_clear();
            }
        });
    }
}
