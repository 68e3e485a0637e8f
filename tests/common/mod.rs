//! Helpers shared by the end-to-end tests: fixture trees copied into
//! temporary directories, the `corpus` binary run on them, and its JSON
//! diagnostics parsed back.
//!
//! Fixture trees under `tests/fixtures/` hold only entries and exclusion
//! records. The taxonomy is copied from the repository's own
//! `corpus/taxonomy.yaml` (found through `CARGO_MANIFEST_DIR`) when a tree is
//! set up, so the fixtures never drift from the vocabulary and rules the tool
//! ships with, and a rule added to the taxonomy is tested against the same
//! fixtures at once.
//!
//! Bad inputs are built as small, named mutations of the valid tree inside a
//! temporary directory rather than as committed files: a mutation shows the
//! one line that differs, stays valid when the entry format grows a field,
//! and can produce bytes git would not keep intact (invalid UTF-8, CRLF,
//! a byte-order mark, files of a given size).

#![allow(dead_code)]

pub mod server;

use assert_cmd::Command;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// The repository root (the package directory).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture directory under `tests/fixtures/`.
pub fn fixture_dir(name: &str) -> PathBuf {
    repo().join("tests/fixtures").join(name)
}

/// Copies a directory tree (files and folders only).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("create {}: {e}", to.display()));
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .unwrap_or_else(|e| panic!("list {}: {e}", from.display()))
        .map(|e| e.expect("directory entry"))
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let src = e.path();
        let dst = to.join(e.file_name());
        if src.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap_or_else(|err| panic!("copy {}: {err}", src.display()));
        }
    }
}

/// Every file below a directory, as (relative path, bytes), sorted.
pub fn snapshot_tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).expect("list directory") {
            let p = e.expect("directory entry").path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                let rel = p
                    .strip_prefix(base)
                    .expect("below base")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read(&p).expect("read file")));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The folder the tests' runs keep build records in, in place of the
/// user's cache folder: shared by every test (records are named by their
/// root, and each test's root is a new temporary folder), under the target
/// folder so no run of the suite touches the home folder.
pub fn cache_dir() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("corpus-test-cache"))
}

/// The `corpus` binary, with the tests' record folder and no CI setting
/// inherited (tests that are about CI set it themselves).
pub fn corpus_bin() -> Command {
    let mut c = Command::cargo_bin("corpus").expect("the corpus binary is built");
    c.env("CORPUS_CACHE_DIR", cache_dir()).env_remove("CI");
    c
}

/// The `corpus` binary with `--root ROOT`, for assert_cmd's assertions.
pub fn corpus_cmd(root: &Path) -> Command {
    let mut c = corpus_bin();
    c.arg("--root").arg(root);
    c
}

/// How many `.yaml` files a folder of the repository holds (for tests that
/// must follow the shipped data rather than pin its current size).
pub fn yaml_files(rel: &str) -> usize {
    std::fs::read_dir(repo().join(rel))
        .unwrap_or_else(|e| panic!("list {rel}: {e}"))
        .filter(|e| {
            e.as_ref()
                .expect("directory entry")
                .file_name()
                .to_string_lossy()
                .ends_with(".yaml")
        })
        .count()
}

/// A new temporary directory, removed when dropped: in a RAM-backed folder
/// (`/dev/shm`) when the machine has a roomy one and `TMPDIR` does not name
/// another place, else in the system's temporary folder.
///
/// The tests create and delete tens of thousands of small files; on a disk
/// file system the kernel's inode bookkeeping for them was a third of the
/// suites' system time, and the publish and data suites ran about a fifth
/// faster in memory. They hold under 10 MB there at once; a container's
/// small `/dev/shm` (64 MiB by default under Docker) is passed over all the same.
pub fn scratch() -> TempDir {
    static RAM: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let ram = RAM.get_or_init(|| {
        let shm = Path::new("/dev/shm");
        let usable = std::env::var_os("TMPDIR").is_none()
            && roomy_tmpfs(shm)
            && tempfile::tempdir_in(shm).is_ok();
        usable.then(|| shm.to_path_buf())
    });
    match ram {
        Some(dir) => tempfile::tempdir_in(dir),
        None => tempfile::tempdir(),
    }
    .expect("temporary directory")
}

/// Whether `mount_point` is a tmpfs of at least 1 GiB by the kernel's list of
/// mounts (a tmpfs mounted without a size may take half the memory).
fn roomy_tmpfs(mount_point: &Path) -> bool {
    let Ok(mounts) = std::fs::read_to_string("/proc/mounts") else {
        return false;
    };
    mounts.lines().any(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [_, at, "tmpfs", options, ..] = fields.as_slice() else {
            return false;
        };
        let size = options.split(',').find_map(|o| o.strip_prefix("size="));
        Path::new(at) == mount_point && size.is_none_or(|s| tmpfs_bytes(s) >= Some(1 << 30))
    })
}

/// A tmpfs `size=` option in bytes (`24683584k`, `64m`, `2g` or bytes); a
/// percentage of memory counts as roomy.
fn tmpfs_bytes(size: &str) -> Option<u64> {
    let (digits, unit) = size.split_at(
        size.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(size.len()),
    );
    let n: u64 = digits.parse().ok()?;
    match unit.to_ascii_lowercase().as_str() {
        "" => Some(n),
        "k" => Some(n << 10),
        "m" => Some(n << 20),
        "g" => Some(n << 30),
        "%" => Some(u64::MAX),
        _ => None,
    }
}

/// A corpus root in a temporary directory, removed when dropped.
pub struct Tree {
    dir: TempDir,
}

impl Tree {
    /// An empty temporary directory.
    pub fn empty() -> Tree {
        Tree { dir: scratch() }
    }

    /// A copy of `tests/fixtures/<name>` with the repository's taxonomy added.
    pub fn fixture(name: &str) -> Tree {
        let t = Tree::taxonomy_only();
        copy_tree(&fixture_dir(name), t.root());
        t
    }

    /// A root holding only the repository's taxonomy.
    pub fn taxonomy_only() -> Tree {
        let t = Tree::empty();
        std::fs::create_dir_all(t.path("corpus")).expect("corpus dir");
        std::fs::copy(
            repo().join("corpus/taxonomy.yaml"),
            t.path("corpus/taxonomy.yaml"),
        )
        .expect("copy taxonomy");
        t
    }

    /// A copy of the shipped data alone: corpus/, exclusions/ and the
    /// recorded runs entries link (traces/runs/).
    pub fn data_copy() -> Tree {
        let t = Tree::empty();
        for d in ["corpus", "exclusions", "traces/runs"] {
            copy_tree(&repo().join(d), &t.path(d));
        }
        t
    }

    /// The minimal valid corpus of `tests/fixtures/check/valid`.
    pub fn valid() -> Tree {
        Tree::fixture("check/valid")
    }

    /// The valid fixture plus the repository's templates, so README.md and
    /// stats/ are generated (and checked for staleness) on it.
    pub fn valid_with_templates() -> Tree {
        let t = Tree::valid();
        copy_tree(&repo().join("templates"), &t.path("templates"));
        t
    }

    /// A copy of the shipped data and generated files: corpus/, exclusions/,
    /// templates/, README.md, CHANGELOG.md and stats/.
    pub fn repo_copy() -> Tree {
        let t = Tree::empty();
        for d in ["corpus", "exclusions", "templates", "stats", "traces"] {
            copy_tree(&repo().join(d), &t.path(d));
        }
        for f in ["README.md", "CHANGELOG.md"] {
            std::fs::copy(repo().join(f), t.path(f)).unwrap_or_else(|e| panic!("copy {f}: {e}"));
        }
        t
    }

    /// Where this root's build record is kept, in the tests' record folder.
    pub fn record_path(&self) -> PathBuf {
        let store = corpus_io::store::Store::open(cache_dir()).expect("the tests' record folder");
        corpus_core::publish::fingerprint::path(&store, self.root()).expect("a record path")
    }

    /// The root directory.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// A path below the root.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// Reads a file below the root as text.
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
    }

    /// Writes a file below the root, creating folders.
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("create parent");
        std::fs::write(&p, content).unwrap_or_else(|e| panic!("write {rel}: {e}"));
    }

    /// Removes a file below the root.
    pub fn remove(&self, rel: &str) {
        std::fs::remove_file(self.path(rel)).unwrap_or_else(|e| panic!("remove {rel}: {e}"));
    }

    /// Replaces the one occurrence of `old` in a file (it must occur exactly once,
    /// so a fixture that drifts fails loudly instead of testing nothing).
    pub fn replace(&self, rel: &str, old: &str, new: &str) {
        let text = self.read(rel);
        assert_eq!(
            text.matches(old).count(),
            1,
            "`{old}` must occur exactly once in {rel}:\n{text}"
        );
        self.write(rel, text.replacen(old, new, 1));
    }

    /// Sets a top-level field: replaces the line `field: …` and its indented
    /// continuation lines with `field: value`. A flow list such as `[a, b]` is
    /// written in block style, the layout `corpus fmt` writes, so that an edit
    /// meant to be clean does not also trip `not-formatted`.
    pub fn set(&self, rel: &str, field: &str, value: &str) {
        let text = self.read(rel);
        let (before, after) = split_field(&text, field, rel);
        let mut out = before;
        out.push_str(&field_text(field, value));
        out.push_str(&after);
        self.write(rel, out);
    }

    /// Removes a top-level field: its line and its indented continuation lines.
    pub fn delete_field(&self, rel: &str, field: &str) {
        let text = self.read(rel);
        let (mut before, after) = split_field(&text, field, rel);
        before.push_str(&after);
        self.write(rel, before);
    }

    /// Inserts a top-level field right after another one (and that one's
    /// continuation lines), where `corpus fmt` would put it.
    pub fn insert_after(&self, rel: &str, after_field: &str, field: &str, value: &str) {
        let text = self.read(rel);
        let (before, after) = split_field(&text, after_field, rel);
        let kept = &text[before.len()..text.len() - after.len()];
        let mut out = before;
        out.push_str(kept);
        out.push_str(&field_text(field, value));
        out.push_str(&after);
        self.write(rel, out);
    }

    /// Appends text to a file.
    pub fn append(&self, rel: &str, more: &str) {
        let mut text = self.read(rel);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(more);
        self.write(rel, text);
    }

    /// Exports the entries and records as CSV and imports both files back
    /// over the tree (`--force`), as a curator round-tripping a spreadsheet.
    pub fn export_and_reimport_csv(&self) {
        let papers = self.corpus(&["export", "--format", "csv"]);
        let records = self.corpus(&["export", "--format", "csv", "--exclusions"]);
        self.write("in/papers.csv", &papers.stdout);
        self.write("in/excluded.csv", &records.stdout);
        self.corpus(&[
            "import",
            "--papers",
            "in/papers.csv",
            "--excluded",
            "in/excluded.csv",
            "--force",
        ])
        .assert_code(0);
    }

    /// Renames a file below the root.
    pub fn rename(&self, from: &str, to: &str) {
        std::fs::rename(self.path(from), self.path(to))
            .unwrap_or_else(|e| panic!("rename {from} -> {to}: {e}"));
    }

    /// The 1-based line of the first line starting with `prefix` in a file.
    pub fn line_of(&self, rel: &str, prefix: &str) -> usize {
        self.read(rel)
            .lines()
            .position(|l| l.trim_start_matches('\u{feff}').starts_with(prefix))
            .unwrap_or_else(|| panic!("no line starting with `{prefix}` in {rel}"))
            + 1
    }

    /// `corpus --root <root> <args>`.
    pub fn corpus(&self, args: &[&str]) -> Run {
        run_in(self.root(), Some(self.root()), args)
    }

    /// `corpus --root <root> <args>` run in this process through the
    /// library's command line (the same parsing and dispatch as the binary,
    /// without starting it): for tests of a rule rather than of the binary.
    pub fn corpus_in_process(&self, args: &[&str]) -> Run {
        use clap::Parser;
        let root = self.root().to_string_lossy().into_owned();
        let mut argv = vec!["corpus", "--root", root.as_str()];
        argv.extend(args);
        let cli = corpus::cli::Cli::try_parse_from(argv).expect("valid arguments");
        let store = (!cli.no_cache).then(|| cache_dir().to_path_buf());
        let out = corpus::cli::run_with_store(&cli, self.root(), store);
        Run {
            code: Some(out.code),
            stdout: out.stdout,
            stderr: out.stderr,
        }
    }

    /// `check --format json <args>` on this root, in process.
    pub fn check_in_process(&self, args: &[&str]) -> Run {
        let mut all = vec!["check", "--format", "json"];
        all.extend(args);
        self.corpus_in_process(&all)
    }

    /// `corpus --root <root> check --format json <args>`.
    pub fn check(&self, args: &[&str]) -> Run {
        let mut all = vec!["check", "--format", "json"];
        all.extend_from_slice(args);
        self.corpus(&all)
    }

    /// `corpus --root <root> check --strict --format json`.
    pub fn check_strict(&self) -> Run {
        self.check(&["--strict"])
    }
}

/// Paths of the valid fixture's files, named for what they hold.
pub mod valid {
    /// An RL method with an arXiv id, strict turn-level credit and a sub-decision.
    pub const METHOD: &str = "corpus/papers/relay-credit2025.yaml";
    /// An industry case study with no arXiv id.
    pub const INDUSTRY: &str = "corpus/papers/harbor-ops.yaml";
    /// A classical MARL paper with no orchestration form.
    pub const CLASSICAL: &str = "corpus/papers/grid-foraging1999.yaml";
    /// An exclusion record identified by an arXiv id.
    pub const ARXIV_RECORD: &str = "exclusions/E001.yaml";
    /// An exclusion record identified by an upper-case document id.
    pub const DOCS_RECORD: &str = "exclusions/E002.yaml";
}

/// One diagnostic as printed by `--format json`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Diag {
    pub rule: String,
    pub severity: String,
    pub file: String,
    #[serde(default)]
    pub line: Option<usize>,
    #[serde(default)]
    pub column: Option<usize>,
    #[serde(default)]
    pub field: Option<String>,
    pub message: String,
    #[serde(default)]
    pub help: Option<String>,
}

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    /// Exit code (None when killed by a signal).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The stdout lines parsed as JSON diagnostics (panics on any other line).
    pub fn diags(&self) -> Vec<Diag> {
        self.stdout
            .lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| {
                    panic!("not a JSON diagnostic ({e}): {l}\nstdout:\n{}", self.stdout)
                })
            })
            .collect()
    }

    /// The diagnostics of one rule.
    pub fn of(&self, rule: &str) -> Vec<Diag> {
        self.diags()
            .into_iter()
            .filter(|d| d.rule == rule)
            .collect()
    }

    /// The only diagnostic of the run; panics when there are none or several.
    pub fn single(&self) -> Diag {
        let d = self.diags();
        assert_eq!(
            d.len(),
            1,
            "expected exactly one diagnostic, got:\n{}",
            self.stdout
        );
        d.into_iter().next().expect("one")
    }

    /// The rule ids reported, in output order.
    pub fn rules(&self) -> Vec<String> {
        self.diags().into_iter().map(|d| d.rule).collect()
    }

    /// Asserts the exit code, showing the output when it differs.
    #[track_caller]
    pub fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code,
            Some(code),
            "exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        self
    }
}

/// Runs the `corpus` binary in `cwd`, with `--root` when given.
pub fn run_in(cwd: &Path, root: Option<&Path>, args: &[&str]) -> Run {
    let mut cmd = corpus_bin();
    cmd.current_dir(cwd);
    if let Some(r) = root {
        cmd.arg("--root").arg(r);
    }
    cmd.args(args);
    let out = cmd.output().expect("run corpus");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs git in `dir` with a fixed identity and no signing; fails the test when git does.
pub fn git(dir: &Path, args: &[&str]) {
    let st = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .status()
        .expect("git runs");
    assert!(st.success(), "git {args:?}");
}

/// The rules of the repository's taxonomy as (id, severity), in file order.
/// Read with serde_yaml directly, not through the library, so the suite's
/// list of rules does not depend on the code under test.
pub fn taxonomy_rules() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo().join("corpus/taxonomy.yaml")).expect("taxonomy");
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).expect("taxonomy parses");
    doc["rules"]
        .as_sequence()
        .expect("taxonomy has a `rules:` list")
        .iter()
        .map(|r| {
            (
                r["id"].as_str().expect("rule id").to_string(),
                r["severity"].as_str().expect("rule severity").to_string(),
            )
        })
        .collect()
}

/// The severity the taxonomy gives a rule.
pub fn severity_of(rule: &str) -> String {
    taxonomy_rules()
        .into_iter()
        .find(|(id, _)| id == rule)
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("rule `{rule}` is not in the taxonomy"))
}

/// A `corpus --root <root> <args>` command to run with chosen streams
/// (standard output to /dev/full, a pipe closed early, …).
pub fn raw_command(root: &Path, args: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_corpus"));
    cmd.current_dir(root).arg("--root").arg(root).args(args);
    cmd
}

/// Creates a named pipe (FIFO) at `path`.
pub fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Splits a YAML file around one top-level field (its line and the indented
/// or `- ` lines that continue it); the field must occur exactly once.
fn split_field(text: &str, field: &str, rel: &str) -> (String, String) {
    let prefix = format!("{field}:");
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let hits: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with(&prefix))
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "field `{field}` must occur once in {rel}:\n{text}"
    );
    let start = hits[0];
    let mut end = start + 1;
    while end < lines.len() && (lines[end].starts_with(' ') || lines[end].starts_with("- ")) {
        end += 1;
    }
    let mut after: String = lines[end..].concat();
    let mut before: String = lines[..start].concat();
    if !before.is_empty() && !before.ends_with('\n') {
        before.push('\n');
    }
    if !after.is_empty() && !after.ends_with('\n') {
        after.push('\n');
    }
    (before, after)
}

/// `field: value` as `corpus fmt` lays it out: a non-empty flow list in block style.
fn field_text(field: &str, value: &str) -> String {
    // A value on the lines below (`"\n  - a"`) follows the colon directly.
    if value.starts_with('\n') {
        return format!("{field}:{value}\n");
    }
    let v = value.trim();
    if let Some(inner) = v.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        if !inner.trim().is_empty() && !inner.contains(['[', '{', '"', '\'']) {
            let mut out = format!("{field}:\n");
            for item in inner.split(',') {
                out.push_str(&format!("  - {}\n", item.trim()));
            }
            return out;
        }
    }
    format!("{field}: {value}\n")
}
