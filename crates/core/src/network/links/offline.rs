//! Link problems no request changes: Layout::README anchors and files, URL syntax, arXiv id mismatch.

use super::{arxiv_id_of_url, Link, Status};
use crate::layout::Layout;
use std::path::Path;

/// The problem a link has that needs no network, if any.
pub(super) fn offline_problem(
    link: &Link,
    anchors: &std::collections::BTreeSet<String>,
    root: &Path,
) -> Option<(Status, String)> {
    if let Some(a) = link.url.strip_prefix('#') {
        return (!anchors.contains(a)).then(|| {
            (
                Status::Broken,
                format!("no heading or anchor `{a}` in {}", Layout::README),
            )
        });
    }
    if is_relative(link) {
        let path = link.url.split(['#', '?']).next().unwrap_or("");
        let inside = !path.starts_with('/') && !path.split('/').any(|c| c == "..");
        return (!inside || !root.join(path).exists()).then(|| {
            (
                Status::Broken,
                format!("no file `{path}` in the repository"),
            )
        });
    }
    if let Some(why) = crate::text::ids::url_problem(&link.url) {
        return Some((Status::Error, format!("not an absolute http(s) URL: {why}")));
    }
    if let Some(in_url) = arxiv_id_of_url(&link.url) {
        for id in link.arxiv_ids.iter().flatten() {
            if id.is_empty() {
                return Some((
                    Status::Error,
                    format!("links to arXiv {in_url}, but the entry has no arxiv_id"),
                ));
            }
            if crate::text::ids::strip_version(id) != in_url {
                return Some((
                    Status::Error,
                    format!("links to arXiv {in_url}, but the entry's arxiv_id is {id}"),
                ));
            }
        }
    }
    None
}

/// A Layout::README link to a file of the repository (no scheme, not an anchor).
pub(super) fn is_relative(link: &Link) -> bool {
    !link.url.contains(':')
        && !link.url.starts_with('#')
        && !link.url.is_empty()
        && link.places.iter().all(|p| p.file == Layout::README)
}
