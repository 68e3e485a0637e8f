//! Writing files safely: atomically (temporary file + rename) and never over
//! something the user wrote unless they said so.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The start of every temporary file name the tool writes; the rest is a
/// fixed number of hex digits, so the name is short whatever the target's.
pub const TEMP_PREFIX: &str = ".corpus-tmp-";
/// Hex digits after [`TEMP_PREFIX`].
const TEMP_DIGITS: usize = 8;

/// Whether `name` is a temporary file of this tool: the current form, or
/// the `.NAME.tmp-PID-N` form of earlier versions.
pub fn is_temp_name(name: &str) -> bool {
    if let Some(rest) = name.strip_prefix(TEMP_PREFIX) {
        return rest.len() == TEMP_DIGITS && rest.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let Some((head, tail)) = name.rsplit_once(".tmp-") else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    head.starts_with('.')
        && head.len() > 1
        && tail
            .split_once('-')
            .is_some_and(|(pid, n)| digits(pid) && digits(n))
}

/// Refuses `path` when a component of it below `root` (the last one
/// included) is a symbolic link: a link planted in the tree could send a
/// write anywhere. Paths outside `root` are the caller's own choice and are
/// not inspected.
pub fn guard(root: &Path, path: &Path) -> std::io::Result<()> {
    let Ok(rest) = path.strip_prefix(root) else {
        return Ok(());
    };
    let mut at = root.to_path_buf();
    for part in rest.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(std::io::Error::other(format!(
                    "{} is a symbolic link; nothing is written through a link inside the corpus, so nothing was changed",
                    at.display()
                )))
            }
            Ok(_) => {}
            // Nothing there yet: nothing further down exists either.
            Err(_) => break,
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` (below `root`, see [`guard`]) through a
/// temporary file in the same folder and a rename, so a reader never sees a
/// half-written file; a path that holds anything but a regular file (a
/// symlink, FIFO, device, folder) is refused.
pub fn write_atomic(root: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    guard(root, path)?;
    // The rename would replace a symlink, FIFO or device node itself: refuse.
    if let Some(what) = not_regular(path) {
        return Err(std::io::Error::other(format!(
            "{} is {what}; only a regular file (or a new path) is written, so nothing was changed",
            path.display()
        )));
    }
    let staged = stage(path, bytes)?;
    staged.commit(path, Content::Bytes(bytes))
}

/// What a file to be written holds: bytes in memory, or a function that
/// writes them, so that a large file streams to its temporary file instead
/// of being held whole. The function may be called a second time (see
/// [`Staged::commit`]) and must then write the same bytes.
#[derive(Clone, Copy)]
pub enum Content<'a> {
    /// The bytes themselves.
    Bytes(&'a [u8]),
    /// Writes the bytes to the writer it is given.
    Written(&'a dyn Fn(&mut dyn Write) -> std::io::Result<()>),
}

impl<'a> From<&'a [u8]> for Content<'a> {
    fn from(bytes: &'a [u8]) -> Content<'a> {
        Content::Bytes(bytes)
    }
}

/// A temporary file written beside its target, locked while this process
/// holds it: a lock another run can take means its writer is gone, and
/// [`sweep`] may remove it.
pub struct Staged {
    /// Where the temporary file is.
    pub path: PathBuf,
    /// The open file, holding the lock.
    file: std::fs::File,
}

impl Staged {
    /// Renames the temporary file onto `target`. Should a concurrent
    /// [`sweep`] have taken the file in the instant before it was locked,
    /// `content` is staged once more.
    pub fn commit(self, target: &Path, content: Content) -> std::io::Result<()> {
        match std::fs::rename(&self.path, target) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !self.path.exists() => {
                drop(self);
                let again = stage_content(target, content)?;
                again.commit_once(target)
            }
            Err(e) => {
                self.discard();
                Err(e)
            }
        }
    }

    /// Renames without a second attempt.
    fn commit_once(self, target: &Path) -> std::io::Result<()> {
        std::fs::rename(&self.path, target).inspect_err(|_| {
            let _ = std::fs::remove_file(&self.path);
        })
    }

    /// Removes the temporary file.
    pub fn discard(self) {
        let _ = std::fs::remove_file(&self.path);
        drop(self.file);
    }
}

/// Writes `bytes` to a new temporary file beside `path` and returns it,
/// locked; renaming it onto `path` is left to the caller.
///
/// The temporary file is always a new file (`create_new`, i.e. `O_EXCL`):
/// whatever already has its name (a leftover, or a symlink planted in the
/// folder) is skipped rather than written through. Its name is
/// [`TEMP_PREFIX`] and eight hex digits whatever the target is called, so
/// it fits wherever the target's name fits.
pub fn stage(path: &Path, bytes: &[u8]) -> std::io::Result<Staged> {
    stage_content(path, Content::Bytes(bytes))
}

/// [`stage`] of any [`Content`]: a writing function writes through a buffer
/// straight into the temporary file.
pub fn stage_content(path: &Path, content: Content) -> std::io::Result<Staged> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let seed = std::process::id() as u64
        ^ std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
    let mut attempt = 0u64;
    let (tmp, mut f) = loop {
        let n = (seed ^ attempt.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xff51_afd7_ed55_8ccd);
        let tmp: PathBuf = dir.join(format!("{TEMP_PREFIX}{:08x}", (n >> 32) as u32));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => {
                if f.try_lock().is_ok() {
                    break (tmp, f);
                }
                // A sweeper holds it for the instant before removing it.
                let _ = std::fs::remove_file(&tmp);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {}
            Err(e) => return Err(e),
        }
        attempt += 1;
        if attempt > 100 {
            return Err(std::io::Error::other("no free temporary file name"));
        }
    };
    let result = match content {
        Content::Bytes(bytes) => f.write_all(bytes),
        Content::Written(write) => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut f);
            write(&mut out).and_then(|()| out.flush())
        }
    }
    .and_then(|()| f.sync_all());
    match result {
        Ok(()) => Ok(Staged { path: tmp, file: f }),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// The temporary files of this tool in `dir` whose writer is gone (their
/// lock can be taken), by name.
pub fn abandoned(dir: &Path) -> Vec<String> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = read
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| is_temp_name(n))
        .filter(|n| writer_gone(&dir.join(n)))
        .collect();
    names.sort();
    names
}

/// Removes the abandoned temporary files in `dir` (see [`abandoned`]);
/// returns the names removed.
pub fn sweep(dir: &Path) -> Vec<String> {
    abandoned(dir)
        .into_iter()
        .filter(|n| {
            let p = dir.join(n);
            // Only a regular file: a planted symlink is left for check to name.
            not_regular(&p).is_none() && std::fs::remove_file(p).is_ok()
        })
        .collect()
}

/// Whether no live writer holds the temporary file at `path`.
fn writer_gone(path: &Path) -> bool {
    if not_regular(path).is_some() {
        return true;
    }
    match std::fs::File::open(path) {
        Ok(f) => f.try_lock().is_ok(),
        Err(_) => false,
    }
}

/// What sits at `path` when it is something other than a regular file
/// (a symlink is described as one, whatever it points at), or None for a
/// regular file or nothing at all.
pub fn not_regular(path: &Path) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = std::fs::symlink_metadata(path).ok()?.file_type();
    Some(if t.is_file() {
        return None;
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a named pipe (FIFO)"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    })
}

/// Removes a regular file below `root` whose content the tool has moved
/// elsewhere (a screened candidate); a link on the way or anything but a
/// regular file at `path` is refused and left alone.
pub fn remove(root: &Path, path: &Path) -> std::io::Result<()> {
    guard(root, path)?;
    if let Some(kind) = not_regular(path) {
        return Err(std::io::Error::other(format!(
            "{} is {kind}, not removed",
            path.display()
        )));
    }
    std::fs::remove_file(path)
}

/// Whether something — a file, a folder, or a symlink even to nothing — is at `path`.
pub fn occupied(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Writes several files so that, as far as the file system allows, either all
/// of them are replaced or none is. Each item is (path, label for messages,
/// content); returns the labels written.
///
/// Renaming onto a folder fails only when it is tried, after earlier renames
/// have already replaced their targets. So every target is checked first (a
/// folder in the way is an error before anything is written), then every
/// content is staged beside its target, and only then are they renamed into
/// place. Should a rename still fail (the disk changed under us), the
/// remaining temporary files are removed and the error says which files were
/// already replaced.
pub fn write_all(root: &Path, files: &[(PathBuf, String, Content)]) -> Result<Vec<String>, String> {
    for (p, label, _) in files {
        guard(root, p).map_err(|e| format!("cannot write {label}: {e}"))?;
    }
    let blocked: Vec<String> = files
        .iter()
        .filter_map(|(p, label, _)| not_regular(p).map(|what| (label, what)))
        .map(|(label, what)| format!("cannot write {label}: {what} is in the way"))
        .collect();
    if !blocked.is_empty() {
        return Err(format!("{}; nothing was changed", blocked.join("; ")));
    }
    let mut staged: Vec<(Staged, &Path, &str, Content)> = Vec::new();
    for (path, label, content) in files {
        match stage_content(path, *content) {
            Ok(tmp) => staged.push((tmp, path, label, *content)),
            Err(e) => {
                for (tmp, _, _, _) in staged {
                    tmp.discard();
                }
                return Err(format!("cannot write {label}: {e}; nothing was changed"));
            }
        }
    }
    let mut done = Vec::new();
    let mut pending = staged.into_iter();
    for (tmp, path, label, content) in pending.by_ref() {
        if let Err(e) = tmp.commit(path, content) {
            let rest: Vec<&str> = pending
                .map(|(t, _, l, _)| {
                    t.discard();
                    l
                })
                .collect();
            let replaced = if done.is_empty() {
                "none".to_string()
            } else {
                done.join(", ")
            };
            let mut msg = format!("cannot replace {label}: {e}; already replaced: {replaced}");
            if !rest.is_empty() {
                msg.push_str(&format!("; left as they were: {}", rest.join(", ")));
            }
            return Err(msg);
        }
        done.push(label.to_string());
    }
    Ok(done)
}

/// Writes a set of files only when none exists yet (or `force`), and only when
/// every write can start: existing targets (a dangling symlink included) are
/// reported before anything is written, and the files are then written
/// together by [`write_all`].
pub fn write_new_files(
    root: &Path,
    files: &[(PathBuf, String)],
    force: bool,
) -> Result<usize, String> {
    // Even with `force`, only a regular file is replaced: renaming over a
    // symlink, a FIFO or a device would silently swap it for a plain file
    // (and a reader waiting on the FIFO would get nothing).
    let odd: Vec<String> = files
        .iter()
        .filter_map(|(p, _)| {
            let kind = not_regular(p)?;
            Some(format!("{} is {kind}", p.display()))
        })
        .collect();
    if !odd.is_empty() {
        return Err(format!(
            "{}; only a regular file (or a new path) is written, so nothing was changed",
            odd.join("; ")
        ));
    }
    if !force {
        let existing: Vec<String> = files
            .iter()
            .filter(|(p, _)| occupied(p))
            .map(|(p, _)| p.display().to_string())
            .collect();
        if !existing.is_empty() {
            let shown = existing
                .iter()
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            let more = if existing.len() > 10 {
                format!(" and {} more", existing.len() - 10)
            } else {
                String::new()
            };
            return Err(format!(
                "{} file(s) already exist and were left untouched: {shown}{more}; pass --force to overwrite",
                existing.len()
            ));
        }
    }
    let items: Vec<(PathBuf, String, Content)> = files
        .iter()
        .map(|(p, text)| (p.clone(), p.display().to_string(), text.as_bytes().into()))
        .collect();
    Ok(write_all(root, &items)?.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_content_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        write_atomic(dir.path(), &p, b"one").unwrap();
        write_atomic(dir.path(), &p, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn new_files_refuse_to_overwrite_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.yaml");
        std::fs::write(&p, "mine").unwrap();
        let files = vec![
            (p.clone(), "theirs".to_string()),
            (dir.path().join("b.yaml"), "b".into()),
        ];
        assert!(write_new_files(dir.path(), &files, false).is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "mine");
        assert!(!dir.path().join("b.yaml").exists());
        assert_eq!(write_new_files(dir.path(), &files, true).unwrap(), 2);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "theirs");
    }

    #[test]
    fn a_streamed_file_is_written_whole_and_a_failing_one_replaces_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.html"), dir.path().join("b.json"));
        std::fs::write(&a, "old a").unwrap();
        let big = |out: &mut dyn Write| (0..100_000).try_for_each(|i| writeln!(out, "{i}"));
        let items = [
            (a.clone(), "a".to_string(), Content::Written(&big)),
            (b.clone(), "b".to_string(), Content::Bytes(b"{}")),
        ];
        assert_eq!(write_all(dir.path(), &items).unwrap(), ["a", "b"]);
        let expected: String = (0..100_000).map(|i| format!("{i}\n")).collect();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), expected);
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "{}");

        // A writer that fails after writing part of its file: no file is
        // replaced, and no temporary file is left.
        let failing = |out: &mut dyn Write| {
            out.write_all(b"half")?;
            Err(std::io::Error::other("the template broke"))
        };
        let items = [
            (b.clone(), "b".to_string(), Content::Bytes(b"new b")),
            (a.clone(), "a".to_string(), Content::Written(&failing)),
        ];
        let err = write_all(dir.path(), &items).unwrap_err();
        assert!(err.contains("cannot write a: the template broke"), "{err}");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), expected);
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "{}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn temporary_names_are_short_whatever_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let long = "k".repeat(250);
        let staged = stage(&dir.path().join(&long), b"x").unwrap();
        let name = staged
            .path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        assert_eq!(name.len(), TEMP_PREFIX.len() + TEMP_DIGITS);
        assert!(is_temp_name(&name));
        // Held by this process: not abandoned, not swept.
        assert!(abandoned(dir.path()).is_empty());
        assert!(sweep(dir.path()).is_empty());
        drop(staged);
        assert_eq!(sweep(dir.path()), vec![name]);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn leftovers_of_earlier_versions_are_recognised() {
        assert!(is_temp_name(".README.md.tmp-1234-0"));
        assert!(is_temp_name(".corpus-tmp-0a1b2c3d"));
        assert!(!is_temp_name("README.md"));
        assert!(!is_temp_name(".corpus-tmp-xyz"));
        assert!(!is_temp_name("notes.tmp-1-2"));
    }

    #[test]
    fn a_symlinked_folder_below_the_root_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), root.path().join(".cache")).unwrap();
        let target = root.path().join(".cache/record");
        let err = write_atomic(root.path(), &target, b"x").unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
        // A real folder is fine.
        write_atomic(root.path(), &root.path().join("stats/a.md"), b"x").unwrap();
    }
}
