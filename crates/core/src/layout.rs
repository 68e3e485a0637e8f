//! Every path of a corpus root, relative to it, named once.

/// The layout of a corpus root: where each input is read and each output
/// written, relative to the root.
pub struct Layout;

impl Layout {
    /// The vocabulary and rules.
    pub const TAXONOMY: &'static str = "corpus/taxonomy.yaml";
    /// The folder of entry files, one per paper.
    pub const PAPERS_DIR: &'static str = "corpus/papers";
    /// The folder of exclusion records.
    pub const EXCLUSIONS_DIR: &'static str = "exclusions";
    /// The claims ledger.
    pub const CLAIMS: &'static str = "corpus/claims.yaml";
    /// The survey's own facts.
    pub const SURVEY: &'static str = "corpus/survey.yaml";
    /// Where each judged value comes from: a place in the artifact or a reason.
    pub const LOCATORS: &'static str = "corpus/locators.yaml";
    /// The survey's search as data: query families and screening rules.
    pub const SEARCH: &'static str = "corpus/search.yaml";
    /// The queue of candidates `corpus discover` writes and `corpus screen` empties.
    pub const CANDIDATES_DIR: &'static str = "corpus/candidates";
    /// The answers cache of `corpus discover`, in the cache folder.
    pub const DISCOVER_CACHE: &'static str = "corpus-discover.json";
    /// The committed host exceptions of `corpus links`.
    pub const LINK_HOSTS: &'static str = "corpus/links.yaml";
    /// The generated JSON Schema of entry files (committed, read by editors).
    pub const ENTRY_SCHEMA: &'static str = "corpus/entry.schema.json";
    /// The example traces, validated and replayed into the README's metrics.
    pub const TRACE_EXAMPLES_DIR: &'static str = "traces/examples";
    /// The OTLP examples, each imported for the README.
    pub const OTLP_EXAMPLES_DIR: &'static str = "traces/otlp";
    /// Recorded runs of systems the corpus surveys, converted to the trace
    /// format: validated and classified for the entries that link them, but
    /// not the README's examples.
    pub const TRACE_RUNS_DIR: &'static str = "traces/runs";
    /// The folders below which an entry may link traces (`traces`): the
    /// trace folders the load stage reads, so the build fingerprint covers
    /// every linked trace and a link can name nothing else.
    pub const LINKABLE_TRACE_DIRS: [&'static str; 3] = [
        Self::TRACE_EXAMPLES_DIR,
        Self::OTLP_EXAMPLES_DIR,
        Self::TRACE_RUNS_DIR,
    ];
    /// The folder of templates.
    pub const TEMPLATES_DIR: &'static str = "templates";
    /// The README's template, in the templates folder.
    pub const README_TEMPLATE: &'static str = "README.md.tera";
    /// The template of stats/STATS.md, in the templates folder.
    pub const STATS_TEMPLATE: &'static str = "STATS.md.tera";
    /// The site's template, in the templates folder.
    pub const SITE_TEMPLATE: &'static str = "site.html.tera";
    /// The generated awesome list.
    pub const README: &'static str = "README.md";
    /// The folder of generated statistics.
    pub const STATS_DIR: &'static str = "stats";
    /// The list of files `build` generated under stats/, so it removes only its own.
    pub const MANIFEST: &'static str = "stats/.generated";
    /// The default output folder of `corpus site`.
    pub const SITE_DIR: &'static str = "site";
    /// The page's file name inside the site's output folder.
    pub const SITE_PAGE: &'static str = "index.html";
    /// The folder of local caches (git-ignored, never committed).
    pub const CACHE_DIR: &'static str = ".cache";
    /// The links results cache, in the cache folder.
    pub const LINKS_CACHE: &'static str = "corpus-links.json";
    /// The answers cache of `corpus watch`, in the cache folder.
    pub const WATCH_CACHE: &'static str = "corpus-watch.json";
    /// The status file: dated events of each paper, written by `corpus watch --write`.
    pub const STATUS: &'static str = "corpus/status.yaml";
    /// The releases file: each release's version, day and tags, written by `corpus release`.
    pub const RELEASES: &'static str = "corpus/releases.yaml";
    /// The folder of release snapshots (`releases/VERSION/`), written by `corpus release`.
    pub const RELEASES_DIR: &'static str = "releases";
    /// The changelog, written by `corpus build`.
    pub const CHANGELOG: &'static str = "CHANGELOG.md";
    /// The citation file of the list, written by `corpus release`.
    pub const CITATION: &'static str = "CITATION.cff";
    /// Zenodo's deposit metadata, written by `corpus release`.
    pub const ZENODO: &'static str = ".zenodo.json";

    /// The form of a linked trace's path (a regular expression, also the
    /// schema's): below one of [`Layout::LINKABLE_TRACE_DIRS`], ending in
    /// `.json`, forward slashes, no part empty or starting with a dot (so no
    /// `.` or `..`, nothing absolute).
    pub fn linked_trace_pattern() -> String {
        let dirs: Vec<String> = Self::LINKABLE_TRACE_DIRS
            .iter()
            .map(|d| regex::escape(d))
            .collect();
        let part = "[A-Za-z0-9_][A-Za-z0-9._-]*";
        format!("^({})/({part}/)*{part}\\.json$", dirs.join("|"))
    }

    /// Whether a linked trace's path has the form of [`Layout::linked_trace_pattern`].
    pub fn valid_trace_link(path: &str) -> bool {
        static R: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        R.get_or_init(|| regex::Regex::new(&Self::linked_trace_pattern()).expect("valid regex"))
            .is_match(path)
    }
}

#[cfg(test)]
mod tests {
    use super::Layout;

    #[test]
    fn a_trace_link_stays_below_the_example_folders() {
        for ok in [
            "traces/examples/run.json",
            "traces/otlp/team/run-1.json",
            "traces/runs/system-task.json",
        ] {
            assert!(Layout::valid_trace_link(ok), "{ok}");
        }
        for bad in [
            "/etc/passwd.json",
            "traces/examples/../../x.json",
            "traces/examples/./run.json",
            "traces/examples//run.json",
            "traces/examples/.hidden.json",
            "traces\\examples\\run.json",
            "traces/other/run.json",
            "traces/examples/run.yaml",
            "traces/examples/run.json/",
            "corpus/papers/a.json",
            "traces/examples/run.json\n",
        ] {
            assert!(!Layout::valid_trace_link(bad), "{bad}");
        }
    }
}
