//! Everything `corpus build` writes: the generated files and the build
//! fingerprint, the README context with its provenance views and the
//! artifact's own tables, the JSON Schema of entries, the changelog, the
//! browsable site and its feeds of changes, the citation files of a release,
//! and where the project is published.

pub mod artifact_views;
pub mod changes;
pub mod chart_files;
pub mod citation;
pub mod engine;
pub mod entry_views;
pub mod feeds;
pub mod fingerprint;
pub mod generate;
pub mod markdown_layout;
pub mod on_disk;
pub mod page_data;
pub mod prisma;
pub mod provenance;
pub mod render;
pub mod repository;
pub(crate) mod row_loops;
pub mod schema;
pub mod site;
pub(crate) mod site_rows;
