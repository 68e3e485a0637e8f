//! File access of the corpus tool: the one reader (regular files within a
//! size limit, typed errors), atomic writes that never replace what the user
//! wrote, and the digest of inputs used by the build fingerprint.

#![warn(missing_docs)]

pub mod digest;
pub mod files;
pub mod reader;
pub mod store;
