//! Writing files safely: atomically (temporary file + rename) and never over
//! something the user wrote unless they said so.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary file in the same folder and a
/// rename, so a reader never sees a half-written file; a path that holds
/// anything but a regular file (a symlink, FIFO, device, folder) is refused.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // The rename would replace a symlink, FIFO or device node itself: refuse.
    if let Some(what) = not_regular(path) {
        return Err(std::io::Error::other(format!(
            "{} is {what}; only a regular file (or a new path) is written, so nothing was changed",
            path.display()
        )));
    }
    let tmp = stage(path, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Writes `bytes` to a temporary file beside `path` and returns its path;
/// renaming it onto `path` is left to the caller.
///
/// The temporary file is always a new file (`create_new`, i.e. `O_EXCL`):
/// whatever already has its name — a leftover of a killed run, or a symlink
/// planted in the folder — is skipped rather than written through, since a
/// symlink there could point at any file.
pub fn stage(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let pid = std::process::id();
    let mut attempt = 0u32;
    let (tmp, mut f) = loop {
        let tmp: PathBuf = dir.join(format!(".{name}.tmp-{pid}-{attempt}"));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
    };
    let result = f.write_all(bytes).and_then(|()| f.sync_all());
    match result {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
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
pub fn write_all(files: &[(PathBuf, String, &[u8])]) -> Result<Vec<String>, String> {
    let blocked: Vec<String> = files
        .iter()
        .filter_map(|(p, label, _)| not_regular(p).map(|what| (label, what)))
        .map(|(label, what)| format!("cannot write {label}: {what} is in the way"))
        .collect();
    if !blocked.is_empty() {
        return Err(format!("{}; nothing was changed", blocked.join("; ")));
    }
    let mut staged: Vec<(PathBuf, &Path, &str)> = Vec::new();
    for (path, label, bytes) in files {
        match stage(path, bytes) {
            Ok(tmp) => staged.push((tmp, path, label)),
            Err(e) => {
                for (tmp, _, _) in &staged {
                    let _ = std::fs::remove_file(tmp);
                }
                return Err(format!("cannot write {label}: {e}; nothing was changed"));
            }
        }
    }
    let mut done = Vec::new();
    let mut pending = staged.into_iter();
    for (tmp, path, label) in pending.by_ref() {
        if let Err(e) = std::fs::rename(&tmp, path) {
            let _ = std::fs::remove_file(&tmp);
            let rest: Vec<&str> = pending
                .map(|(t, _, l)| {
                    let _ = std::fs::remove_file(t);
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
pub fn write_new_files(files: &[(PathBuf, String)], force: bool) -> Result<usize, String> {
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
    let items: Vec<(PathBuf, String, &[u8])> = files
        .iter()
        .map(|(p, text)| (p.clone(), p.display().to_string(), text.as_bytes()))
        .collect();
    Ok(write_all(&items)?.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_content_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
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
        assert!(write_new_files(&files, false).is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "mine");
        assert!(!dir.path().join("b.yaml").exists());
        assert_eq!(write_new_files(&files, true).unwrap(), 2);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "theirs");
    }
}
