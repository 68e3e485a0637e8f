//! This user's store of build records: a folder outside every working tree
//! (the user's cache folder, chosen by the command line) holding the secret
//! that keys the records, and the records themselves.
//!
//! Why outside the tree and keyed: a record says "these inputs were checked
//! and found clean", so a later run may skip the work. A pull request can
//! carry any file of the tree, a forged record included; it cannot write
//! into a reviewer's or a runner's home folder, and without the secret it
//! cannot compute a key that a run would believe.

use crate::digest::Key;
use crate::files;
use crate::reader;
use std::path::{Path, PathBuf};

/// The secret's file name in the store.
const SECRET: &str = "secret";
/// The folder of build records in the store.
const RECORDS: &str = "builds";
/// The secret's length in bytes, written as hex.
const SECRET_BYTES: usize = 16;

/// An opened store: its folder and its secret.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    key: Key,
}

impl Store {
    /// Opens the store in `dir`, creating it and its secret on first use.
    /// Fails (and the caller takes the full path) when the folder or the
    /// secret cannot be made, is not a plain private file, or is malformed.
    pub fn open(dir: &Path) -> Result<Store, String> {
        create_private_dir(dir)?;
        let path = dir.join(SECRET);
        if !files::occupied(&path) {
            create_secret(dir, &path)?;
        }
        let key = read_secret(&path)?;
        Ok(Store {
            dir: dir.to_path_buf(),
            key,
        })
    }

    /// The secret key of this store.
    pub fn key(&self) -> &Key {
        &self.key
    }

    /// The folder the store lives in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the record called `name` lives (a plain file name).
    pub fn record_path(&self, name: &str) -> PathBuf {
        self.dir.join(RECORDS).join(name)
    }
}

/// Makes `dir` (and its parents), private to this user where it is new.
fn create_private_dir(dir: &Path) -> Result<(), String> {
    if let Some(what) = files::not_regular(dir).filter(|w| *w != "a folder") {
        return Err(format!("{} is {what}, not a folder", dir.display()));
    }
    std::fs::create_dir_all(dir.join(RECORDS)).map_err(|e| format!("{}: {e}", dir.display()))?;
    set_mode(dir, 0o700);
    Ok(())
}

/// Writes a fresh random secret to `path`; when another run made one first,
/// that one stands (a hard link never replaces an existing name).
fn create_secret(dir: &Path, path: &Path) -> Result<(), String> {
    let mut bytes = [0u8; SECRET_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random bytes for the secret: {e}"))?;
    let text: String = bytes.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n";
    let staged = files::stage(&dir.join(SECRET), text.as_bytes()).map_err(|e| e.to_string())?;
    set_mode(&staged.path, 0o600);
    let linked = std::fs::hard_link(&staged.path, path);
    let _ = std::fs::remove_file(&staged.path);
    match linked {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Reads the secret: a regular file, readable by this user alone, holding
/// exactly the hex of the key.
fn read_secret(path: &Path) -> Result<Key, String> {
    if let Some(what) = files::not_regular(path) {
        return Err(format!("{} is {what}", path.display()));
    }
    if others_can_read(path) {
        return Err(format!(
            "{} can be read by other users; remove it and a new secret is made",
            path.display()
        ));
    }
    let text = reader::read_text(path, 64).map_err(|e| format!("{}: {e}", path.display()))?;
    let hex = text.strip_suffix('\n').unwrap_or(&text);
    if hex.len() != SECRET_BYTES * 2 {
        return Err(format!("{} is malformed", path.display()));
    }
    let mut key = [0u8; SECRET_BYTES];
    for (i, b) in key.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)
            .map_err(|_| format!("{} is malformed", path.display()))?;
    }
    Ok(Key(key))
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode));
}

#[cfg(not(unix))]
fn set_mode(_: &Path, _: u32) {}

#[cfg(unix)]
fn others_can_read(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
}

#[cfg(not(unix))]
fn others_can_read(_: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_keeps_its_secret_and_another_store_has_another() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let ka = *Store::open(a.path()).unwrap().key();
        assert_eq!(*Store::open(a.path()).unwrap().key(), ka);
        assert_ne!(*Store::open(b.path()).unwrap().key(), ka);
    }

    #[test]
    fn a_secret_others_can_read_or_a_symlink_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let a = tempfile::tempdir().unwrap();
        Store::open(a.path()).unwrap();
        let secret = a.path().join(SECRET);
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(Store::open(a.path()).is_err());
        std::fs::remove_file(&secret).unwrap();
        std::os::unix::fs::symlink("/dev/null", &secret).unwrap();
        assert!(Store::open(a.path()).is_err());
    }

    #[test]
    fn a_malformed_secret_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let a = tempfile::tempdir().unwrap();
        let secret = a.path().join(SECRET);
        std::fs::write(&secret, "not hex at all, but long enough!\n").unwrap();
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(Store::open(a.path()).is_err());
    }
}
