//! The syntax of names and links: entry keys, exclusion record ids, arXiv
//! ids, record identifiers and URLs. Each format is defined here once; the
//! checks, the JSON Schema, the scaffold and `import` all ask this module.

use regex::Regex;
use std::sync::OnceLock;

/// The pattern of an entry key (the file stem of corpus/papers/KEY.yaml).
pub const KEY_PATTERN: &str = r"^[a-z0-9]+(-[a-z0-9]+)*$";

/// The pattern of a citation key BibTeX reads as one key: ASCII letters,
/// digits and `-_:.+/` (no space, comma, brace, quote, `%`, `#` or `\`,
/// which end or break a key).
pub const CITE_KEY_PATTERN: &str = r"^[A-Za-z0-9_:.+/-]+$";

/// The pattern of an exclusion record id (the file stem of exclusions/ID.yaml).
pub const RECORD_ID_PATTERN: &str = r"^E[0-9]{3,}$";

/// The longest key or record id, in bytes. Each names a file (`KEY.yaml`),
/// and a file name may hold 255 bytes on every common file system; the
/// margin leaves room for any suffix the tool or an editor adds beside it.
pub const MAX_ID_LEN: usize = 128;

/// How a key is described to a contributor.
pub fn key_rule() -> String {
    format!("lowercase letters, digits and single dashes, at most {MAX_ID_LEN} characters")
}

/// How a record id is described to a contributor.
pub fn record_id_rule() -> String {
    format!("E followed by at least three digits, e.g. E033, at most {MAX_ID_LEN} characters")
}

fn regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("valid regex"))
}

/// Whether a key is lowercase letters, digits and single dashes, short
/// enough to name a file.
pub fn valid_key(k: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    k.len() <= MAX_ID_LEN && regex(&R, KEY_PATTERN).is_match(k)
}

/// Whether BibTeX reads a citation key as one key.
pub fn valid_cite_key(k: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    regex(&R, CITE_KEY_PATTERN).is_match(k)
}

/// Whether an exclusion record id has the form E001 and can name a file.
pub fn valid_record_id(id: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    id.len() <= MAX_ID_LEN && regex(&R, RECORD_ID_PATTERN).is_match(id)
}

/// A key built from arbitrary text: lowercase, runs of other characters as one dash.
pub fn suggest_key(k: &str) -> String {
    let mut s = String::new();
    for c in k.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    // Cut a key that would be too long at the last dash that fits.
    if s.len() > MAX_ID_LEN {
        let cut = s[..=MAX_ID_LEN]
            .rfind('-')
            .filter(|&i| i > 0)
            .unwrap_or(MAX_ID_LEN);
        s.truncate(cut);
    }
    s.trim_end_matches('-').to_string()
}

/// The (year, month) an arXiv id was issued, or None when malformed.
pub fn arxiv_year(id: &str) -> Option<(i64, u32)> {
    static NEW: OnceLock<Regex> = OnceLock::new();
    static OLD: OnceLock<Regex> = OnceLock::new();
    let (yy, mm) = if let Some(c) =
        regex(&NEW, r"^([0-9]{2})([0-9]{2})\.([0-9]{4,5})(v[0-9]+)?$").captures(id)
    {
        // Five-digit numbers started in January 2015; before that, four.
        let five = c[3].len() == 5;
        if five != (&c[1] >= "15") {
            return None;
        }
        (c[1].parse::<i64>().ok()?, c[2].parse::<u32>().ok()?)
    } else {
        let c = regex(
            &OLD,
            r"^[a-z][a-z\-]*(\.[A-Z]{2})?/([0-9]{2})([0-9]{2})[0-9]{3}(v[0-9]+)?$",
        )
        .captures(id)?;
        (c[2].parse::<i64>().ok()?, c[3].parse::<u32>().ok()?)
    };
    if !(1..=12).contains(&mm) {
        return None;
    }
    let year = if yy >= 91 { 1900 + yy } else { 2000 + yy };
    Some((year, mm))
}

/// An arXiv id without its version suffix (`2508.04652v2` → `2508.04652`).
pub fn strip_version(id: &str) -> &str {
    match id.rfind('v') {
        Some(i) if i > 0 && id[i + 1..].bytes().all(|b| b.is_ascii_digit()) && i + 1 < id.len() => {
            &id[..i]
        }
        _ => id,
    }
}

/// Whether an exclusion record's identifier has a recognised form.
pub fn valid_identifier(s: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    regex(
        &R,
        r"^(arXiv:\S+|OpenReview:\S+|ACL:\S+|github:[A-Za-z0-9_.\-]+/[A-Za-z0-9_.\-]+|[A-Z][A-Z0-9]*(-[A-Z0-9]+)*)$",
    )
    .is_match(s)
}

/// Whether text is an absolute http(s) URL with a host, written only in the
/// characters RFC 3986 allows.
pub fn is_http_url(u: &str) -> bool {
    url_problem(u).is_none()
}

/// Whether a character may stand in a URL as written (RFC 3986: unreserved,
/// reserved, and `%` that starts an escape).
fn url_char(c: char) -> bool {
    // A match, not a search of the set's string: every character of every URL passes here.
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            '-' | '.'
                | '_'
                | '~'
                | ':'
                | '/'
                | '?'
                | '#'
                | '['
                | ']'
                | '@'
                | '!'
                | '$'
                | '&'
                | '\''
                | '('
                | ')'
                | '*'
                | '+'
                | ','
                | ';'
                | '='
                | '%'
        )
}

/// What keeps text from being an absolute http(s) URL, in words; None when it is one.
///
/// Characters outside RFC 3986 (`<`, `>`, `"`, `|`, backticks, spaces,
/// control and non-ASCII characters) are refused: a URL holding them is
/// not one, and in a report it could close a link or a table cell.
pub fn url_problem(u: &str) -> Option<String> {
    let rest = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"));
    let Some(rest) = rest else {
        return Some("it does not start with https:// or http://".into());
    };
    if rest.is_empty() || rest.starts_with('/') {
        return Some("it names no host".into());
    }
    if let Some(c) = u.chars().find(|&c| !url_char(c)) {
        let shown = if c.is_ascii_graphic() {
            format!("`{c}`")
        } else {
            format!("U+{:04X}", c as u32)
        };
        return Some(format!(
            "it holds {shown}, a character a URL cannot hold unescaped (RFC 3986)"
        ));
    }
    let bytes = u.as_bytes();
    let bad_escape = bytes.iter().enumerate().any(|(i, &b)| {
        b == b'%'
            && !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
    });
    bad_escape.then(|| "it holds a `%` not followed by two hex digits".into())
}

/// Text with every character RFC 3986 does not allow percent-encoded (its
/// UTF-8 bytes), so that a URL a server sent is inert wherever it is shown.
pub fn percent_encode_outside_rfc3986(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if url_char(c) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// The arXiv id an arxiv.org link names (abs, pdf or html page, version
/// kept), or None for any other link.
pub fn arxiv_link_id(u: &str) -> Option<String> {
    let u = u.trim();
    let rest = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"))?;
    let (host, path) = rest.split_once('/')?;
    let host = host.to_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    if host != "arxiv.org" && host != "export.arxiv.org" {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or("");
    let (kind, id) = path.split_once('/')?;
    if !matches!(kind, "abs" | "pdf" | "html") {
        return None;
    }
    let id = id.trim_end_matches('/');
    let id = id.strip_suffix(".pdf").unwrap_or(id);
    (!id.is_empty()).then(|| id.to_string())
}

/// A URL reduced to what identifies the page (scheme, `www.`, case of the
/// host and trailing `/` ignored; an arXiv paper's abs, pdf and html pages
/// of any version are one page).
pub fn normalize_url(u: &str) -> String {
    match arxiv_link_id(u) {
        Some(id) => arxiv_page(&id),
        None => normalize_other_url(u),
    }
}

/// The one page of an arXiv paper, whatever version a link names.
fn arxiv_page(id: &str) -> String {
    format!("arxiv.org/abs/{}", strip_version(id))
}

fn normalize_other_url(u: &str) -> String {
    let u = u.trim();
    let rest = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"))
        .unwrap_or(u);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.to_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    format!("{host}/{}", path.trim_end_matches('/'))
}

/// What the syntax of one link tells, read once.
pub struct Link {
    /// The link as `normalize_url` reduces it.
    pub normalized: String,
    /// Why the link is not an http(s) URL, if it is not (`url_problem`).
    pub problem: Option<String>,
    /// The arXiv id the link names, as written and without its version.
    pub arxiv: Option<(String, String)>,
}

impl Link {
    /// Reads a link.
    pub fn read(u: &str) -> Link {
        let arxiv = arxiv_link_id(u);
        Link {
            normalized: arxiv
                .as_deref()
                .map_or_else(|| normalize_other_url(u), arxiv_page),
            problem: url_problem(u),
            arxiv: arxiv.map(|l| {
                let unversioned = strip_version(&l).to_string();
                (l, unversioned)
            }),
        }
    }

    /// The arXiv id the link names (as written) when it is another paper than `unversioned`.
    pub fn names_other_arxiv(&self, unversioned: &str) -> Option<&str> {
        self.arxiv
            .as_ref()
            .filter(|(_, own)| own != unversioned)
            .map(|(linked, _)| linked.as_str())
    }
}

/// What the syntax of an arXiv id as written tells, read once.
pub struct ArxivId {
    /// The year its number implies; none when it is no arXiv id.
    pub year: Option<i64>,
    /// The id without its version (`strip_version`).
    pub unversioned: String,
    /// The id alone, when it was written with a prefix and is valid without.
    pub bare: Option<String>,
}

impl ArxivId {
    /// Reads an arXiv id.
    pub fn read(id: &str) -> ArxivId {
        let year = arxiv_year(id).map(|(y, _)| y);
        let bare = year.is_none().then(|| {
            id.trim()
                .trim_start_matches("arXiv:")
                .trim_start_matches("arxiv:")
                .trim_start_matches("https://arxiv.org/abs/")
        });
        ArxivId {
            year,
            unversioned: strip_version(id).to_string(),
            bare: bare
                .filter(|b| *b != id && arxiv_year(b).is_some())
                .map(str::to_string),
        }
    }
}

/// An id (an entry's key, a record's id) beside the name of its file, which
/// it must equal; the names offered pass the id's rule themselves, as
/// renaming to an invalid name would trade one error for another.
pub struct IdForm {
    /// Whether the id is well formed.
    pub valid: bool,
    /// A well-formed id close to an ill-formed one, when there is one.
    pub suggestion: Option<String>,
    /// Whether the file's name would be a well-formed id.
    pub stem_valid: bool,
    /// A well-formed name for both, when the id and the file's name differ.
    pub fallback: String,
}

impl IdForm {
    /// An entry's key beside its file's name.
    pub fn key(key: &str, stem: &str) -> IdForm {
        let valid = valid_key(key);
        IdForm {
            valid,
            suggestion: (!valid).then(|| suggest_key(key)).filter(|k| valid_key(k)),
            stem_valid: valid_key(stem),
            fallback: if key == stem {
                String::new()
            } else {
                Some(suggest_key(stem))
                    .filter(|k| valid_key(k))
                    .unwrap_or_else(|| "new-entry".to_string())
            },
        }
    }

    /// An exclusion record's id beside its file's name.
    pub fn record_id(id: &str, stem: &str) -> IdForm {
        IdForm {
            valid: valid_record_id(id),
            suggestion: None,
            stem_valid: valid_record_id(stem),
            fallback: if id == stem {
                String::new()
            } else {
                record_id_like(id, stem)
            },
        }
    }
}

/// A valid record id close to what was written (`e9` -> `E009`): the
/// digits of the id or, failing that, of the file name, padded to three.
fn record_id_like(id: &str, stem: &str) -> String {
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    let d = [digits(id), digits(stem)]
        .into_iter()
        .find(|d| !d.is_empty())
        .unwrap_or_else(|| "33".to_string());
    let id = format!("E{d:0>3}");
    if valid_record_id(&id) {
        id
    } else {
        "E033".to_string()
    }
}

/// Lowercase alphanumeric words, for comparing titles and names: first
/// composed (NFC), so that the same letters typed as one code point or as a
/// letter and a combining accent compare equal, then case and punctuation
/// folded.
pub fn normalize_title(t: &str) -> String {
    if t.is_ascii() {
        return normalize_ascii_title(t);
    }
    normalize_any_title(t)
}

/// `normalize_title` of ASCII text in one pass over its bytes: an ASCII
/// text is already composed, and its letters and digits are its alphanumerics.
fn normalize_ascii_title(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut gap = false;
    for b in t.bytes() {
        if b.is_ascii_alphanumeric() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.push(char::from(b.to_ascii_lowercase()));
        } else {
            gap = true;
        }
    }
    out
}

/// `normalize_title` of any text, composed first.
fn normalize_any_title(t: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let composed: String = t.nfc().collect();
    composed
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A DOI as OpenAlex and the status file write it: lowercase, no resolver prefix.
pub fn normalize_doi(doi: &str) -> String {
    let d = doi.trim();
    let lower = d.to_lowercase();
    for prefix in [
        "https://doi.org/",
        "http://doi.org/",
        "https://dx.doi.org/",
        "http://dx.doi.org/",
        "doi:",
    ] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            return rest.to_string();
        }
    }
    lower
}

/// The DOI of a doi.org link, if it is one.
pub fn doi_of_url(url: &str) -> Option<String> {
    let d = normalize_doi(url);
    (d.starts_with("10.") && d.contains('/') && !d.contains("://")).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_record_ids() {
        assert!(valid_key("wideseek-r1-2026"));
        assert!(!valid_key("Bad Key") && !valid_key("a--b") && !valid_key("-a"));
        // Every file the tool names after a key fits a 255-byte file name.
        let longest = "a".repeat(MAX_ID_LEN);
        assert!(valid_key(&longest) && !valid_key(&format!("{longest}b")));
        assert!(format!("{longest}.yaml").len() <= 255);
        assert!(!valid_record_id(&format!("E{}", "1".repeat(MAX_ID_LEN))));
        let suggested = suggest_key(&"word ".repeat(100));
        assert!(valid_key(&suggested), "{suggested}");
        assert_eq!(suggest_key("Bad Key!"), "bad-key");
        assert!(valid_record_id("E001") && valid_record_id("E1234"));
        assert!(!valid_record_id("E1") && !valid_record_id("E01") && !valid_record_id("e001"));
    }

    #[test]
    fn a_link_read_once_normalizes_as_normalize_url_does() {
        for u in [
            "https://arxiv.org/pdf/2508.04652v2",
            "http://www.Example.org/paper/",
            "https://openreview.net/forum?id=abc",
            "not a link",
        ] {
            assert_eq!(Link::read(u).normalized, normalize_url(u), "{u}");
            assert_eq!(Link::read(u).problem, url_problem(u), "{u}");
        }
        let arxiv = Link::read("https://arxiv.org/abs/2508.04652v2").arxiv;
        assert_eq!(arxiv, Some(("2508.04652v2".into(), "2508.04652".into())));
    }

    #[test]
    fn an_arxiv_id_written_with_a_prefix_offers_the_id_alone() {
        let id = ArxivId::read("arXiv:2508.04652");
        assert_eq!((id.year, id.bare.as_deref()), (None, Some("2508.04652")));
        let id = ArxivId::read("2508.04652v3");
        assert_eq!(
            (id.year, id.bare, id.unversioned.as_str()),
            (Some(2025), None, "2508.04652")
        );
        assert_eq!(ArxivId::read("arXiv:nonsense").bare, None);
    }

    #[test]
    fn a_name_offered_for_a_mismatched_id_passes_the_id_rule() {
        let key = IdForm::key("Bad_Key!", "good-name");
        assert!(!key.valid && key.stem_valid);
        assert_eq!(key.suggestion.as_deref(), Some("bad-key"));
        assert!(valid_key(&key.fallback));
        assert_eq!(IdForm::key("same", "same").fallback, "");
        assert_eq!(IdForm::record_id("e9", "x").fallback, "E009");
        assert_eq!(IdForm::record_id("E009", "E009").fallback, "");
    }

    #[test]
    fn arxiv_ids_give_their_year() {
        assert_eq!(arxiv_year("2508.04652"), Some((2025, 8)));
        assert_eq!(arxiv_year("1706.02275v3"), Some((2017, 6)));
        assert_eq!(arxiv_year("cs/0701001"), Some((2007, 1)));
        assert_eq!(arxiv_year("hep-th/9901001"), Some((1999, 1)));
        assert_eq!(arxiv_year("2513.00001"), None);
        assert_eq!(arxiv_year("2508.0465"), None);
        assert_eq!(arxiv_year("arXiv:2508.04652"), None);
    }

    #[test]
    fn an_ascii_title_normalizes_as_any_title_does() {
        let every_ascii: String = (0u8..128).map(char::from).collect();
        for t in [
            "",
            "   ",
            "MARFT: Multi-Agent  RFT",
            " -- Leading and trailing -- ",
            "a_b-c.d/e'f\"g",
            "ALL CAPS 2025 v2.1",
            "\tTabs\nand\rbreaks\u{7f}",
            every_ascii.as_str(),
        ] {
            assert_eq!(normalize_ascii_title(t), normalize_any_title(t), "{t:?}");
        }
        for (i, c) in every_ascii.char_indices() {
            let t = format!("x{c}Y{i}");
            assert_eq!(normalize_ascii_title(&t), normalize_any_title(&t), "{t:?}");
        }
    }

    #[test]
    fn titles_in_either_unicode_normal_form_compare_equal() {
        let composed = "Caf\u{e9} Agents: R\u{f6}le Play";
        let decomposed = "Cafe\u{301} agents - Ro\u{308}le play";
        assert_ne!(composed.as_bytes(), decomposed.as_bytes());
        assert_eq!(normalize_title(composed), normalize_title(decomposed));
        assert_ne!(normalize_title("Café"), normalize_title("Cafe"));
    }

    #[test]
    fn normalisation_ignores_case_punctuation_scheme_and_slashes() {
        assert_eq!(
            normalize_title("MARFT: Multi-Agent  RFT"),
            normalize_title("marft multi agent rft")
        );
        assert_eq!(
            normalize_url("http://www.Example.org/a/"),
            normalize_url("https://example.org/a")
        );
        assert!(is_http_url("https://arxiv.org/abs/1"));
        assert!(!is_http_url("ftp://x.org"));
        assert!(!is_http_url("https://"));
        assert!(!is_http_url("https://a b"));
    }

    #[test]
    fn urls_hold_only_the_characters_rfc_3986_allows() {
        for ok in [
            "https://a.org/x_(y)?q=1&r=a%20b#f",
            "https://a.org/~u/p;v,w!$'*+=@:",
            "http://[::1]:8080/",
        ] {
            assert_eq!(url_problem(ok), None, "{ok}");
        }
        for (bad, why) in [
            ("https://example.org/x</a><h1>h</h1><img src=x>", "`<`"),
            ("https://a.org/a|b", "`|`"),
            ("https://a.org/`x`", "`` ` ``"),
            ("https://a.org/\"q", "`\"`"),
            ("https://a.org/\\", "`\\`"),
            ("https://a.org/{x}", "`{`"),
            ("https://a.org/é", "U+00E9"),
            ("https://a.org/\nx", "U+000A"),
            ("https://a.org/%zz", "two hex digits"),
            ("https://a.org/%4", "two hex digits"),
        ] {
            let got = url_problem(bad).unwrap_or_default();
            assert!(
                got.contains(why.trim_matches('`').trim()) || got.contains(why),
                "{bad}: {got}"
            );
        }
        assert_eq!(url_problem("https://a.org/%0A"), None);
    }

    #[test]
    fn what_a_server_sends_is_percent_encoded_outside_rfc_3986() {
        assert_eq!(
            percent_encode_outside_rfc3986("/x</a>|`é\n"),
            "/x%3C/a%3E%7C%60%C3%A9%0A"
        );
        assert_eq!(percent_encode_outside_rfc3986("/a?b=c#d"), "/a?b=c#d");
    }

    #[test]
    fn versions_are_ignored_when_comparing_arxiv_ids() {
        assert_eq!(strip_version("2508.04652v2"), "2508.04652");
        assert_eq!(strip_version("2508.04652"), "2508.04652");
        assert!(valid_identifier("arXiv:2305.14325") && valid_identifier("CREWAI-DOCS"));
        assert!(!valid_identifier("crewai docs"));
    }
}
