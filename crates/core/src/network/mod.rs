//! Checks that need the network: the one HTTP client, link checking,
//! entries compared with their arXiv records, and the status watch (arXiv
//! and OpenAlex).

pub mod address;
pub mod arxiv;
pub mod discover;
pub mod http;
pub mod links;
pub mod openalex;
pub mod progress;
pub mod verify;
pub mod watch;
