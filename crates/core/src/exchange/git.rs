//! Git access for `corpus diff --base REV` (the corpus data of a revision
//! copied into a temporary root) and `corpus release` (whether the working
//! tree is clean), by running `git`. This and `reader` are the
//! only places the tool reads data from outside its own process.

use crate::layout::Layout;
use std::path::{Path, PathBuf};

/// A temporary copy of the corpus data at a git revision; removed on drop.
pub struct Snapshot {
    dir: tempfile::TempDir,
}

impl Snapshot {
    /// The root of the snapshot.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }
}

fn git(root: &Path, args: &[&str], input: Option<&[u8]>) -> Result<Vec<u8>, String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if let (Some(data), Some(mut stdin)) = (input, child.stdin.take()) {
        // Written from a thread so a large answer cannot deadlock against a full input pipe.
        let data = data.to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("git failed: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(out.stdout)
}

/// Whether git tracks `path` in the repository at `root`: such a file came
/// with the repository, so it may have come with a pull request. False when
/// git is missing or `root` is no repository.
pub fn tracks(root: &Path, path: &Path) -> bool {
    let Some(rel) = path.strip_prefix(root).ok().and_then(Path::to_str) else {
        return false;
    };
    git(root, &["ls-files", "--error-unmatch", "--", rel], None).is_ok()
}

/// What git reports changed or untracked (ignored files aside) in the
/// working tree of the repository holding `root`, one `git status
/// --porcelain` line each: empty for a clean tree. Err when git is missing
/// or `root` is in no repository.
pub fn uncommitted(root: &Path) -> Result<Vec<String>, String> {
    let out = git(
        root,
        &["status", "--porcelain", "--untracked-files=all"],
        None,
    )?;
    Ok(String::from_utf8_lossy(&out)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect())
}

/// Writes the corpus data (corpus/, exclusions/) and the templates of a git
/// revision into a temporary root.
pub fn snapshot_at(root: &Path, rev: &str) -> Result<Snapshot, String> {
    if rev.starts_with('-') {
        return Err(format!("`{rev}` is not a revision"));
    }
    let top = String::from_utf8_lossy(&git(root, &["rev-parse", "--show-toplevel"], None)?)
        .trim()
        .to_string();
    let prefix = String::from_utf8_lossy(&git(root, &["rev-parse", "--show-prefix"], None)?)
        .trim()
        .to_string();
    let spec = |d: &str| format!("{prefix}{d}");
    let listing = git(
        Path::new(&top),
        &[
            "ls-tree",
            "-r",
            "-z",
            "--name-only",
            rev,
            "--",
            &spec("corpus"),
            &spec("exclusions"),
            &spec(Layout::TEMPLATES_DIR),
        ],
        None,
    )?;
    let paths: Vec<String> = listing
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    let query: String = paths.iter().map(|p| format!("{rev}:{p}\n")).collect();
    let batch = git(
        Path::new(&top),
        &["cat-file", "--batch"],
        Some(query.as_bytes()),
    )?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let mut rest = &batch[..];
    for p in &paths {
        let nl = rest
            .iter()
            .position(|b| *b == b'\n')
            .ok_or("truncated git output")?;
        let header = String::from_utf8_lossy(&rest[..nl]).into_owned();
        let size: usize = header
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("unexpected git output `{header}`"))?;
        let body = rest
            .get(nl + 1..nl + 1 + size)
            .ok_or("truncated git output")?;
        rest = rest.get(nl + 2 + size..).unwrap_or(&[]);
        let rel = p.strip_prefix(&prefix).unwrap_or(p);
        if rel.split('/').any(|c| c == ".." || c.is_empty()) {
            continue;
        }
        let target: PathBuf = dir.path().join(rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(&target, body).map_err(|e| e.to_string())?;
    }
    if !dir.path().join(Layout::TAXONOMY).is_file() {
        return Err(format!("revision `{rev}` has no {}", Layout::TAXONOMY));
    }
    Ok(Snapshot { dir })
}

/// The commits up to `rev` that changed `path`, oldest first.
pub fn commits_of(repo: &Path, rev: &str, path: &str) -> Result<Vec<String>, String> {
    if rev.starts_with('-') || path.starts_with('-') {
        return Err(format!("`{rev}` is not a revision"));
    }
    let out = git(
        repo,
        &["log", "--reverse", "--format=%H", rev, "--", path],
        None,
    )?;
    Ok(String::from_utf8_lossy(&out)
        .lines()
        .map(str::to_string)
        .collect())
}

/// A file of a revision in the repository at `repo` (bare or not), and the
/// commit that last changed it up to that revision: `corpus survey figures`
/// reads the artifact's figures this way.
pub fn file_at(repo: &Path, rev: &str, path: &str) -> Result<(Vec<u8>, String), String> {
    if rev.starts_with('-') || path.starts_with('-') {
        return Err(format!("`{rev}:{path}` is not a revision's file"));
    }
    let bytes = git(repo, &["show", &format!("{rev}:{path}")], None)?;
    let commit = git(repo, &["log", "-1", "--format=%H", rev, "--", path], None)?;
    let commit = String::from_utf8_lossy(&commit).trim().to_string();
    if commit.is_empty() {
        return Err(format!("no commit of {rev} changed {path}"));
    }
    Ok((bytes, commit))
}
