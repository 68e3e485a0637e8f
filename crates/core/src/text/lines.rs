//! The lines of a text, as `str::lines` gives them, found with `memchr`.
//!
//! Data files are read line by line several times (the flat reader, the
//! layout verdict, the style check); their lines are short, and `str::lines`
//! sets up a character searcher for each that costs more than the scan.

/// The lines of `text`, exactly as `str::lines` splits them: at each `\n`,
/// with a `\r` just before it dropped, and no empty line after a final `\n`.
pub fn lines(text: &str) -> Lines<'_> {
    Lines { rest: text }
}

/// Where `byte` (an ASCII byte, so the index is a character boundary) first
/// occurs in `text`.
pub fn find_byte(text: &str, byte: u8) -> Option<usize> {
    debug_assert!(byte.is_ascii());
    memchr::memchr(byte, text.as_bytes())
}

/// The iterator of [`lines`].
#[derive(Clone)]
pub struct Lines<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        match find_byte(self.rest, b'\n') {
            Some(end) => {
                let line = &self.rest[..end];
                self.rest = &self.rest[end + 1..];
                Some(line.strip_suffix('\r').unwrap_or(line))
            }
            // The last line, without a line end: a `\r` there is kept.
            None => Some(std::mem::take(&mut self.rest)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_every_text_of_line_ends_as_str_lines_does() {
        // Every text of up to six characters drawn from line ends, a
        // carriage return, a letter and a two-byte letter.
        let alphabet = ['\n', '\r', 'a', 'é'];
        let mut texts = vec![String::new()];
        for _ in 0..6 {
            let longer: Vec<String> = texts
                .iter()
                .filter(|t| t.chars().count() == texts.last().map_or(0, |l| l.chars().count()))
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        assert_eq!(texts.len(), (0..=6).map(|n| 4usize.pow(n)).sum::<usize>());
        for t in &texts {
            assert_eq!(
                lines(t).collect::<Vec<_>>(),
                t.lines().collect::<Vec<_>>(),
                "{t:?}"
            );
        }
    }

    #[test]
    fn find_byte_finds_the_first_occurrence() {
        assert_eq!(find_byte("key: a: b", b':'), Some(3));
        assert_eq!(find_byte("é:x", b':'), Some(2));
        assert_eq!(find_byte("no colon", b':'), None);
    }
}
