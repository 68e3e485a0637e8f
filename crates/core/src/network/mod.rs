//! Checks that need the network: the one HTTP client, link checking, and
//! entries compared with their arXiv records.

pub mod arxiv;
pub mod http;
pub mod links;
pub mod verify;
