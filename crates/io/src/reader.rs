//! The one reader: every file the tool reads comes through here.
//!
//! Only regular files are read, never more than a size limit, and the
//! answer is a typed [`ReadError`] rather than a hang: a FIFO, a device, a
//! socket or a folder at a path the tool reads is refused before it is
//! opened, and opened without blocking in case it was swapped in since.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// Nothing is at the path.
    Missing,
    /// Something other than a regular file is there (what, in words).
    NotRegular(&'static str),
    /// The file is larger than the limit (its size when known).
    TooLarge {
        /// Size in bytes, when the file system said.
        size: Option<u64>,
        /// The limit in bytes.
        max: u64,
    },
    /// The text is not UTF-8; the 1-based line of the first bad byte.
    NotUtf8 {
        /// Line of the first invalid byte.
        line: usize,
    },
    /// Any other failure of the operating system.
    Io(std::io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Missing => f.write_str("there is no such file"),
            ReadError::NotRegular(what) => write!(f, "it is {what}, not a regular file"),
            ReadError::TooLarge { size: Some(n), max } => {
                write!(f, "it is {n} bytes, over the {max}-byte limit")
            }
            ReadError::TooLarge { size: None, max } => {
                write!(f, "it is larger than the {max}-byte limit")
            }
            ReadError::NotUtf8 { line } => write!(f, "it is not valid UTF-8 (line {line})"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::NotFound {
            ReadError::Missing
        } else {
            ReadError::Io(e)
        }
    }
}

/// What a non-regular file is, in words.
fn kind(ft: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if ft.is_char_device() || ft.is_block_device() {
            return "a device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Opens a file for reading without waiting for a writer (a FIFO swapped in
/// after the type check would otherwise block `open` forever); with
/// `no_link`, a symbolic link at the path is refused rather than followed.
fn open(path: &Path, no_link: bool) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Regular files ignore O_NONBLOCK.
        o.custom_flags(libc::O_NONBLOCK | if no_link { libc::O_NOFOLLOW } else { 0 });
    }
    #[cfg(not(unix))]
    let _ = no_link;
    o.open(path)
}

/// A regular file no larger than `max`, opened for reading, and its length
/// when opened (one status call of the open file serves both the type check
/// and the caller, which on a large corpus is a system call per file saved).
fn open_limited(path: &Path, max: u64) -> Result<(std::fs::File, u64), ReadError> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind(meta.file_type())));
    }
    if meta.len() > max {
        return Err(ReadError::TooLarge {
            size: Some(meta.len()),
            max,
        });
    }
    opened_limited(open(path, false)?, max)
}

/// An opened file's length, when it is a regular file no larger than `max`.
fn opened_limited(file: std::fs::File, max: u64) -> Result<(std::fs::File, u64), ReadError> {
    let opened = file.metadata()?;
    if !opened.is_file() {
        return Err(ReadError::NotRegular(kind(opened.file_type())));
    }
    if opened.len() > max {
        return Err(ReadError::TooLarge {
            size: Some(opened.len()),
            max,
        });
    }
    Ok((file, opened.len()))
}

/// The bytes of a regular file no larger than `max`.
pub fn read_bytes(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    read_opened(open_limited(path, max)?, max)
}

/// The bytes of a file a folder's listing named, no larger than `max`. A
/// name listed as a regular file is opened without asking its type first
/// (on a large corpus, a path lookup per file saved): the link it might
/// have become since is refused by the open and then read as any path is,
/// and whatever the open finds is checked before a byte is read.
pub fn read_listed(entry: &Listed, max: u64) -> Result<Vec<u8>, ReadError> {
    if entry.regular {
        if let Ok(file) = open(&entry.path, true) {
            return read_opened(opened_limited(file, max)?, max);
        }
    }
    read_bytes(&entry.path, max)
}

/// The bytes of a file opened by [`open_limited`] or [`opened_limited`].
fn read_opened((file, size): (std::fs::File, u64), max: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::with_capacity(usize::try_from(size.min(max)).unwrap_or(0));
    // Capped too: a file growing while it is read cannot run away.
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge { size: None, max });
    }
    Ok(bytes)
}

/// Whether `path` is a regular file no larger than `max` holding exactly
/// `expected`. A file of another length is not read; one of the same
/// length is compared a buffer at a time, so a large generated file is
/// checked against its new text without a second copy of it in memory.
pub fn holds(path: &Path, expected: &[u8], max: u64) -> bool {
    let Ok((mut file, size)) = open_limited(path, max) else {
        return false;
    };
    if size != expected.len() as u64 {
        return false;
    }
    let mut buf = vec![0; STREAM_BUFFER.min(expected.len() + 1)];
    let mut rest = expected;
    loop {
        match file.read(&mut buf) {
            // The end: whatever the length said, every byte must have come.
            Ok(0) => return rest.is_empty(),
            // A file that grew while it was read holds more than expected.
            Ok(n) if n > rest.len() || buf[..n] != rest[..n] => return false,
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
}

/// Whether `path` is a regular file no larger than `max` in which the bytes
/// `needle` occur. It is read a buffer at a time and only as far as the
/// first occurrence, so a large generated file is known by a mark near its
/// top without being held. (For a mark of ASCII text this is what searching
/// the file's text would find: a byte that is not UTF-8 never joins or
/// breaks an ASCII match.)
pub fn contains(path: &Path, needle: &[u8], max: u64) -> bool {
    let Ok((mut file, _)) = open_limited(path, max) else {
        return false;
    };
    let Some(keep) = needle.len().checked_sub(1) else {
        return true;
    };
    // The last `keep` bytes of a buffer stay for the next, so a mark cut
    // across two reads is found.
    let mut buf = vec![0; STREAM_BUFFER + keep];
    let (mut held, mut total) = (0, 0u64);
    loop {
        match file.read(&mut buf[held..]) {
            Ok(0) => return false,
            Ok(n) => {
                total += n as u64;
                // A file that grew past the limit while it was read.
                if total > max {
                    return false;
                }
                let filled = held + n;
                if buf[..filled].windows(needle.len()).any(|w| w == needle) {
                    return true;
                }
                let from = filled.saturating_sub(keep);
                buf.copy_within(from..filled, 0);
                held = filled - from;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
}

/// A regular file no larger than `max`, read a buffer at a time: for inputs
/// too large to hold whole beside what is made of them. The same checks as
/// [`read_bytes`] apply when it is opened; a file that grows past `max`
/// while it is read gives an error of kind `InvalidData` at that point.
pub fn open_stream(path: &Path, max: u64) -> Result<Stream, ReadError> {
    let (file, _) = open_limited(path, max)?;
    Ok(Stream {
        inner: std::io::BufReader::with_capacity(STREAM_BUFFER, file),
        left: max,
        max,
    })
}

/// Bytes read from a file at once by [`Stream`].
const STREAM_BUFFER: usize = 1 << 16;

/// A file opened by [`open_stream`]: buffered, and capped at its limit.
pub struct Stream {
    inner: std::io::BufReader<std::fs::File>,
    /// Bytes that may still be read.
    left: u64,
    max: u64,
}

impl Stream {
    fn over(&self) -> std::io::Error {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("it grew past the {}-byte limit while it was read", self.max),
        )
    }
}

impl Read for Stream {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = std::io::BufRead::fill_buf(self)?.len().min(out.len());
        out[..n].copy_from_slice(&self.inner.buffer()[..n]);
        std::io::BufRead::consume(self, n);
        Ok(n)
    }
}

impl std::io::BufRead for Stream {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        let got = self.inner.fill_buf()?.len() as u64;
        if got > self.left {
            return Err(self.over());
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.left = self.left.saturating_sub(n as u64);
        self.inner.consume(n);
    }
}

/// Standard input, no more than `max` bytes (for a `-` argument).
pub fn read_stdin(max: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge { size: None, max });
    }
    Ok(bytes)
}

/// Bytes as UTF-8 text without a leading byte-order mark.
pub fn decode(bytes: Vec<u8>) -> Result<String, ReadError> {
    let text = String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        ReadError::NotUtf8 {
            line: upto.iter().filter(|b| **b == b'\n').count() + 1,
        }
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// The UTF-8 text of a regular file no larger than `max`, byte-order mark removed.
pub fn read_text(path: &Path, max: u64) -> Result<String, ReadError> {
    decode(read_bytes(path, max)?)
}

/// [`read_text`] of a file a folder's listing named (see [`read_listed`]).
pub fn read_listed_text(entry: &Listed, max: u64) -> Result<String, ReadError> {
    decode(read_listed(entry, max)?)
}

/// One name in a folder, as its listing gave it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Listed {
    /// The name (invalid UTF-8 shown with replacement characters).
    pub name: String,
    /// The folder joined with the name.
    pub path: PathBuf,
    /// Whether the listing said a regular file stands there (not a link,
    /// and not something the folder could not say the type of).
    pub regular: bool,
}

/// The entries of a folder, sorted by name; None when the folder does not exist.
pub fn list_dir(dir: &Path) -> std::io::Result<Option<Vec<Listed>>> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut names: Vec<Listed> = rd
        .filter_map(|e| e.ok())
        .map(|e| Listed {
            name: e.file_name().to_string_lossy().into_owned(),
            path: e.path(),
            // The type the folder itself records: on most file systems no
            // status call is made for it.
            regular: e.file_type().is_ok_and(|t| t.is_file()),
        })
        .collect();
    names.sort();
    Ok(Some(names))
}

/// The regular files below a folder (recursively, following links) whose
/// extension is `ext` in any case, sorted.
pub fn files_below(dir: &Path, ext: &str) -> Result<Vec<PathBuf>, walkdir::Error> {
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(true) {
        let entry = entry?;
        let matches = entry
            .path()
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case(ext));
        if entry.file_type().is_file() && matches {
            found.push(entry.into_path());
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_found_wherever_it_stands_even_across_reads() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("page.html");
        let mark = b"<meta name=\"generator\" content=\"corpus site\">";
        // Bytes that are not UTF-8 around it, as a page of another tool may hold.
        let filler: Vec<u8> = (0..3 * STREAM_BUFFER as u32)
            .map(|i| (i % 7) as u8 | 0x80)
            .collect();
        for at in [
            0,
            1,
            STREAM_BUFFER - 20,
            STREAM_BUFFER - 1,
            STREAM_BUFFER,
            2 * STREAM_BUFFER + 3,
            filler.len(),
        ] {
            let mut bytes = filler.clone();
            bytes.splice(at..at, mark.iter().copied());
            std::fs::write(&p, &bytes).unwrap();
            assert!(contains(&p, mark, 1 << 20), "mark at {at}");
            assert!(!contains(&p, mark, 1000), "past the limit, mark at {at}");
            let mut broken = bytes.clone();
            broken[at + mark.len() / 2] = b'x';
            std::fs::write(&p, &broken).unwrap();
            assert!(!contains(&p, mark, 1 << 20), "broken mark at {at}");
        }
        assert!(!contains(&dir.path().join("none"), mark, 1 << 20));
        assert!(
            !contains(dir.path(), mark, 1 << 20),
            "a folder holds nothing"
        );
        std::fs::write(&p, b"").unwrap();
        assert!(!contains(&p, mark, 10));
        assert!(contains(&p, b"", 10));
    }

    #[test]
    fn a_file_holds_exactly_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        // Longer than one buffer, so the comparison runs over several reads.
        let text: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&p, &text).unwrap();
        assert!(holds(&p, &text, 1 << 20));
        let mut changed = text.clone();
        changed[150_000] ^= 1;
        assert!(!holds(&p, &changed, 1 << 20));
        assert!(!holds(&p, &text[..text.len() - 1], 1 << 20));
        assert!(!holds(&p, &text, 1000), "past the limit");
        assert!(!holds(&dir.path().join("none"), b"", 10));
        assert!(!holds(dir.path(), b"", 10), "a folder holds nothing");
        std::fs::write(&p, b"").unwrap();
        assert!(holds(&p, b"", 10));
        assert!(!holds(&p, b"x", 10));
    }

    #[test]
    fn regular_files_are_read_within_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        std::fs::write(&p, "\u{feff}hello\n").unwrap();
        assert_eq!(read_text(&p, 100).unwrap(), "hello\n");
        assert!(matches!(
            read_bytes(&p, 3),
            Err(ReadError::TooLarge {
                size: Some(9),
                max: 3
            })
        ));
        assert!(matches!(
            read_bytes(&dir.path().join("none"), 3),
            Err(ReadError::Missing)
        ));
        assert!(matches!(
            read_bytes(dir.path(), 3),
            Err(ReadError::NotRegular("a folder"))
        ));
        std::fs::write(&p, b"ok\n\xff").unwrap();
        assert!(matches!(
            read_text(&p, 100),
            Err(ReadError::NotUtf8 { line: 2 })
        ));
    }

    #[test]
    fn streams_read_the_file_and_stop_at_the_limit() {
        use std::io::BufRead;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        std::fs::write(&p, "one\ntwo\n").unwrap();
        let lines: Vec<String> = open_stream(&p, 100)
            .unwrap()
            .lines()
            .map(Result::unwrap)
            .collect();
        assert_eq!(lines, ["one", "two"]);
        assert!(matches!(
            open_stream(&p, 3),
            Err(ReadError::TooLarge { size: Some(8), .. })
        ));
        assert!(matches!(
            open_stream(dir.path(), 100),
            Err(ReadError::NotRegular("a folder"))
        ));
        // A file that grows after it was opened is cut off with an error.
        let mut s = open_stream(&p, 8).unwrap();
        std::fs::write(&p, "one\ntwo\nthree\n").unwrap();
        let mut all = Vec::new();
        let e = s.read_to_end(&mut all).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    }

    #[cfg(unix)]
    #[test]
    fn fifos_and_devices_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo must work here");
        assert!(matches!(
            read_bytes(&fifo, 100),
            Err(ReadError::NotRegular("a named pipe (FIFO)"))
        ));
        assert!(matches!(
            read_bytes(Path::new("/dev/zero"), 100),
            Err(ReadError::NotRegular("a device"))
        ));
    }
    #[cfg(unix)]
    #[test]
    fn a_listed_name_is_read_by_what_stands_there_when_opened() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.yaml"), "a: 1\n").unwrap();
        std::fs::write(dir.path().join("big.yaml"), "b: 22\n").unwrap();
        std::os::unix::fs::symlink("a.yaml", dir.path().join("link.yaml")).unwrap();
        let listed = list_dir(dir.path()).unwrap().unwrap();
        let by_name = |n: &str| listed.iter().find(|l| l.name == n).unwrap().clone();
        let (a, big, link) = (by_name("a.yaml"), by_name("big.yaml"), by_name("link.yaml"));
        assert!(a.regular && big.regular && !link.regular);
        assert_eq!(read_listed_text(&a, 100).unwrap(), "a: 1\n");
        assert!(matches!(
            read_listed(&big, 3),
            Err(ReadError::TooLarge {
                size: Some(6),
                max: 3
            })
        ));
        // A link is followed as any path is, its target checked first; the
        // open that trusts the listing never follows one.
        assert_eq!(read_listed_text(&link, 100).unwrap(), "a: 1\n");
        assert!(open(&link.path, true).is_err());
        // Listed as a regular file, then replaced: by a link to a device
        // (refused by the open, then by the check of the path), by a FIFO
        // (found by the open without blocking), by nothing.
        let swapped = |to: &dyn Fn(&Path)| {
            std::fs::remove_file(&a.path).unwrap();
            to(&a.path);
            read_listed(&a, 100)
        };
        assert!(matches!(
            swapped(&|p| std::os::unix::fs::symlink("/dev/zero", p).unwrap()),
            Err(ReadError::NotRegular("a device"))
        ));
        let fifo = |p: &Path| {
            let made = std::process::Command::new("mkfifo").arg(p).status();
            assert!(made.is_ok_and(|s| s.success()), "mkfifo must work here");
        };
        assert!(matches!(
            swapped(&fifo),
            Err(ReadError::NotRegular("a named pipe (FIFO)"))
        ));
        assert!(matches!(swapped(&|_| {}), Err(ReadError::Missing)));
    }
}
