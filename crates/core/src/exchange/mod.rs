//! The corpus in and out: CSV, JSON and BibTeX export, CSV import, a second
//! annotator's tags, the difference between two corpora (a git revision
//! among them) with the edits of the checks themselves, the scaffold of a
//! new entry and the starter of a new list.

pub mod agreement;
pub mod diff;
pub mod export;
pub mod figures;
pub mod git;
pub mod import;
pub mod review;
pub mod rounds;
pub mod scaffold;
pub mod screen;
pub mod starter;
