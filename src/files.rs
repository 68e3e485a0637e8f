//! Writing files safely: atomically (temporary file + rename) and never over
//! something the user wrote unless they said so.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary file in the same folder and a
/// rename, so a reader never sees a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = stage(path, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Writes `bytes` to a temporary file beside `path` and returns its path;
/// renaming it onto `path` is left to the caller.
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
    let tmp: PathBuf = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    })();
    match result {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Writes a set of files only when none exists yet (or `force`), and only when
/// every write can start: existing targets are reported before anything is written.
pub fn write_new_files(files: &[(PathBuf, String)], force: bool) -> Result<usize, String> {
    if !force {
        let existing: Vec<String> = files
            .iter()
            .filter(|(p, _)| p.exists())
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
    for (p, text) in files {
        write_atomic(p, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    Ok(files.len())
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
