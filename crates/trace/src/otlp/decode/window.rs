//! A window onto an input read whole lines at a time, so that decoding holds
//! the document it reads rather than the whole input (a file of JSON Lines
//! may be far larger than anything made of it).
//!
//! The window always ends at a line break or at the end of the input. No
//! JSON token spans a line break, so a document cut short by the window's
//! end fails with an end-of-input error and nothing else: read more and try
//! again, and the result is the one the whole input would give.

use std::io::{self, BufRead};

/// Bytes of an input from some offset on, read a line at a time.
pub(super) struct Window<R> {
    r: R,
    buf: Vec<u8>,
    /// Offset in the input of `buf[0]`.
    base: usize,
    eof: bool,
}

impl<R: BufRead> Window<R> {
    pub(super) fn new(r: R) -> Self {
        Window {
            r,
            buf: Vec::new(),
            base: 0,
            eof: false,
        }
    }

    /// Whether the input has been read to its end.
    pub(super) fn at_end(&self) -> bool {
        self.eof
    }

    /// The byte at input offset `at`, reading on when it is past the window.
    pub(super) fn byte(&mut self, at: usize) -> io::Result<Option<u8>> {
        while at >= self.base + self.buf.len() {
            if !self.line()? {
                return Ok(None);
            }
        }
        Ok(self.buf.get(at - self.base).copied())
    }

    /// What is read from input offset `at` on (`at` must be in the window or at its end).
    pub(super) fn from(&self, at: usize) -> &[u8] {
        &self.buf[at - self.base..]
    }

    /// Reads one more line; false at the end of the input.
    pub(super) fn line(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.r.read_until(b'\n', &mut self.buf)? == 0 {
            self.eof = true;
            return Ok(false);
        }
        Ok(true)
    }

    /// Reads on until the window holds about twice as much (whole lines), so
    /// a document retried after each read costs at most twice its parse.
    pub(super) fn grow(&mut self) -> io::Result<()> {
        let want = self.buf.len().max(1 << 16) * 2;
        while self.buf.len() < want && self.line()? {}
        Ok(())
    }

    /// Forgets what comes before input offset `at`.
    pub(super) fn release(&mut self, at: usize) {
        let k = at.saturating_sub(self.base).min(self.buf.len());
        self.buf.drain(..k);
        self.base += k;
        // A document far larger than the next leaves its room behind otherwise.
        if self.buf.capacity() > (1 << 20) && self.buf.capacity() > 4 * self.buf.len() {
            self.buf.shrink_to(self.buf.len() * 2);
        }
    }
}

/// A document read again: the characters before it on its first line, and its bytes.
pub(crate) type Found = (usize, Vec<u8>);

/// The documents that start at the given input offsets (ascending), each
/// with the number of characters before it on its first line, for placing
/// problems in them; `None` where no document starts there.
pub(crate) fn documents_at<R: BufRead>(r: R, starts: &[usize]) -> io::Result<Vec<Option<Found>>> {
    let mut w = Window::new(r);
    let mut out = Vec::with_capacity(starts.len());
    for &start in starts {
        // Keep the window from the start of the line holding `start`.
        loop {
            if w.buf.is_empty() && !w.line()? {
                break;
            }
            match w.buf.iter().position(|&b| b == b'\n') {
                Some(nl) if w.base + nl < start => w.release(w.base + nl + 1),
                Some(_) => break,
                None if w.at_end() => break,
                None => {
                    w.line()?;
                }
            }
        }
        if start < w.base || start >= w.base + w.buf.len() {
            out.push(None);
            continue;
        }
        let lead = String::from_utf8_lossy(&w.buf[..start - w.base])
            .chars()
            .count();
        let len = loop {
            let mut stream = serde_json::Deserializer::from_slice(w.from(start))
                .into_iter::<serde::de::IgnoredAny>();
            match stream.next() {
                Some(Err(e)) if e.is_eof() && !w.at_end() => w.grow()?,
                Some(Ok(_)) => break stream.byte_offset(),
                _ => break w.from(start).len(),
            }
        };
        out.push(Some((lead, w.from(start)[..len].to_vec())));
    }
    Ok(out)
}

/// The text of an input with only the given (1-based) lines kept and every
/// other line empty, so that line `n` of the result is line `n` of the input;
/// `None` when the input is not UTF-8, as a whole text would be refused.
pub(crate) fn sparse_lines<R: BufRead>(
    mut r: R,
    lines: &std::collections::BTreeSet<usize>,
) -> io::Result<Option<String>> {
    let mut text = String::new();
    let mut line = Vec::new();
    let mut n = 0usize;
    let mut utf8 = true;
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        n += 1;
        let Ok(s) = std::str::from_utf8(&line) else {
            utf8 = false;
            continue;
        };
        if lines.contains(&n) {
            text.push_str(s.strip_suffix('\n').unwrap_or(s));
        }
        if n < lines.last().copied().unwrap_or(0) {
            text.push('\n');
        }
    }
    Ok(utf8.then_some(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_found_where_they_start() {
        let text = b"{\"a\":1}\n  {\"b\":\n[2]} {\"c\":3}\nnot json\n";
        let starts = [0, 10, 21, 29, 100];
        let got = documents_at(&text[..], &starts).unwrap();
        assert_eq!(got[0], Some((0, b"{\"a\":1}".to_vec())));
        assert_eq!(got[1], Some((2, b"{\"b\":\n[2]}".to_vec())));
        assert_eq!(got[2], Some((5, b"{\"c\":3}".to_vec())));
        assert_eq!(got[3], Some((0, b"not json\n".to_vec())));
        assert_eq!(got[4], None);
    }

    #[test]
    fn sparse_lines_keep_line_numbers() {
        let text = "a\nb\nc\nd\n";
        let want: std::collections::BTreeSet<usize> = [2, 3].into();
        let got = sparse_lines(text.as_bytes(), &want).unwrap().unwrap();
        assert_eq!(got.lines().nth(1), Some("b"));
        assert_eq!(got.lines().nth(2), Some("c"));
        assert_eq!(got.lines().next(), Some(""));
        assert_eq!(sparse_lines(&b"a\n\xff\n"[..], &want).unwrap(), None);
    }
}
