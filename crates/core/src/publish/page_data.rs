//! The site page's script data, and the page written as it renders: a
//! large list's data is most of its page, so each row's description is
//! made as the JSON is written, and the JSON goes straight to the file in
//! the place the template gives it, never held whole.

use crate::model::filter::{FieldValue, Fields};
use crate::publish::engine;
use crate::text::embed::write_script_json;
use serde::ser::SerializeSeq;
use serde::Serialize;
use std::io::Write;

/// What the script needs about one row: key, facet value indices and the
/// sort keys of the columns that do not sort by their text. (The search and
/// text columns read the rendered row, so the page does not carry them twice.)
/// The page's data is written straight from these types, and their fields
/// stand in the order of their names: the order the page has always had.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Item {
    /// The row's value of each field of [`ViewData::fields`] (text, or a
    /// list of texts), which the address's `where=` conditions test.
    pub f: Vec<serde_json::Value>,
    /// The key.
    pub k: String,
    /// Sort keys, one per column with `data-col` in the template.
    pub o: Vec<i64>,
    /// Per facet, the indices of the values the row holds.
    pub v: Vec<Vec<usize>>,
}

/// A sequence whose elements are made as it is serialized, never held all at once.
pub(crate) struct Lazy<'a, T> {
    /// How many elements.
    len: usize,
    /// Makes the element at an index.
    make: Box<dyn Fn(usize) -> T + Sync + 'a>,
    /// Whether the elements are made into JSON on every core, a block at a time.
    spread: bool,
}

impl<'a, T> Lazy<'a, T> {
    /// `len` elements, the one at `i` made by `make(i)` as it is written.
    pub fn new(len: usize, make: impl Fn(usize) -> T + Sync + 'a) -> Lazy<'a, T> {
        Lazy {
            len,
            make: Box::new(make),
            spread: false,
        }
    }

    /// [`Lazy::new`], the elements made into JSON text on every core a
    /// block at a time and written in order: for a list serialized as JSON
    /// whose elements are costly to make and to write (a BibTeX entry, a
    /// row's description), which one thread would otherwise do alone. Under
    /// any serializer but serde_json's each element is a raw JSON value.
    pub fn spread(len: usize, make: impl Fn(usize) -> T + Sync + 'a) -> Lazy<'a, T> {
        Lazy {
            spread: true,
            ..Lazy::new(len, make)
        }
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T: Serialize + Send> Serialize for Lazy<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len))?;
        if self.spread {
            let at: Vec<usize> = (0..self.len).collect();
            let made = crate::parallel::in_blocks(&at, |&i| {
                serde_json::value::to_raw_value(&(self.make)(i))
            });
            for element in made {
                let element = element.map_err(serde::ser::Error::custom)?;
                seq.serialize_element(&element)?;
            }
        } else {
            for i in 0..self.len {
                seq.serialize_element(&(self.make)(i))?;
            }
        }
        seq.end()
    }
}

/// What the script needs about one view (fields in the order of their names,
/// as [`Item`]'s).
#[derive(Serialize)]
pub(crate) struct ViewData<'a> {
    /// Per row, the text "Copy BibTeX" copies (entries only).
    #[serde(skip_serializing_if = "Lazy::is_empty")]
    pub bib: Lazy<'a, String>,
    /// Facet fields and their value ids, in the order of `Item::v`.
    pub facets: Vec<(String, Vec<String>)>,
    /// The fields a `where=` condition may name, as `list --where` knows them.
    pub fields: Vec<&'static str>,
    /// Rows in their default order.
    pub items: Lazy<'a, Item>,
}

/// Everything the page's script reads (fields in the order of their names).
#[derive(Serialize)]
pub(crate) struct PageData<'a> {
    /// The field aliases `where=` conditions accept.
    pub aliases: &'a [(&'a str, &'a str)],
    /// The exclusion log's view.
    pub exclusions: ViewData<'a>,
    /// The entries' view.
    pub papers: ViewData<'a>,
}

/// A row's values of `names`, as a filter reads them.
pub(crate) fn filter_values(row: &dyn Fields, names: &[&str]) -> Vec<serde_json::Value> {
    names
        .iter()
        .map(|n| match row.field(n) {
            Some(FieldValue::One(v)) => serde_json::Value::from(v.as_ref()),
            Some(FieldValue::Many(list)) => serde_json::Value::from(list.to_vec()),
            None => serde_json::Value::Null,
        })
        .collect()
}

/// The template's one way of placing the data, which the page streams.
pub(crate) const DATA_PLACE: &str = "{{ data_json | safe }}";
/// Stands in the rendered page where the data goes: NUL bytes around 128
/// bits drawn from the system's randomness for this run, so that no text a
/// corpus holds (a YAML escape can write a NUL) can be taken for it.
pub(crate) struct Mark(String);

impl Mark {
    /// A mark of its own for one page.
    pub(crate) fn new() -> Mark {
        use std::hash::{BuildHasher, Hasher};
        let bits = |n: u64| {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(n);
            h.finish()
        };
        Mark(format!(
            "\0corpus-site-data-{:016x}{:016x}\0",
            bits(1),
            bits(2)
        ))
    }

    /// The mark's text, the value `data_json` takes in the context.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// How a template gives the data a place: once, as [`DATA_PLACE`] (then
/// the data streams into that place), or otherwise (then the template gets
/// the whole JSON text as `data_json`, and does with it what it says).
pub(crate) fn streams_data(template: &str) -> bool {
    template.matches("data_json").count() == 1 && template.contains(DATA_PLACE)
}

/// Why a page could not be written.
#[derive(Debug)]
pub enum PageError {
    /// The template failed while rendering.
    Template(engine::TemplateError),
    /// The writer failed.
    Io(std::io::Error),
}

/// Renders `name` with `ctx` to `out`, the JSON of `data` in place of
/// `mark`; returns the bytes written.
pub(crate) fn render_to(
    tera: &tera::Tera,
    name: &str,
    ctx: &tera::Context,
    mark: &Mark,
    data: &PageData,
    out: &mut dyn Write,
) -> Result<u64, PageError> {
    render_with(|w| tera.render_to(name, ctx, w), mark, data, out)
}

/// What `render` writes, the JSON of `data` in place of `mark`, to `out`;
/// returns the bytes written.
pub(crate) fn render_with(
    render: impl FnOnce(&mut dyn Write) -> Result<(), tera::Error>,
    mark: &Mark,
    data: &PageData,
    out: &mut dyn Write,
) -> Result<u64, PageError> {
    let mut counted = Counted { out, n: 0 };
    let mut splice = Splice {
        out: &mut counted,
        mark: mark.0.as_bytes(),
        data,
        matched: 0,
        failed: None,
    };
    let rendered = render(&mut splice);
    if let Some(e) = splice.failed.take() {
        return Err(PageError::Io(e));
    }
    rendered.map_err(|e| PageError::Template(engine::TemplateError::of(&e)))?;
    splice.finish().map_err(PageError::Io)?;
    Ok(counted.n)
}

/// A writer that counts the bytes it passes on.
struct Counted<'o> {
    out: &'o mut dyn Write,
    n: u64,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.n += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Passes the rendered page on, writing the data's JSON where the mark is.
struct Splice<'o, 'd> {
    out: &'o mut dyn Write,
    /// The mark's bytes: its only NUL after the first byte is its last, so
    /// a broken partial mark never hides the start of another.
    mark: &'d [u8],
    data: &'d PageData<'d>,
    /// How many bytes of the mark the text written so far ends with: held
    /// back until the mark is complete or broken.
    matched: usize,
    /// The writer's own error, kept apart from the template's.
    failed: Option<std::io::Error>,
}

impl Splice<'_, '_> {
    fn pass(&mut self, buf: &[u8]) -> std::io::Result<()> {
        let mark = self.mark;
        let mut from = 0;
        for (i, &b) in buf.iter().enumerate() {
            if self.matched > 0 {
                if b == mark[self.matched] {
                    self.matched += 1;
                    if self.matched == mark.len() {
                        self.matched = 0;
                        write_script_json(self.out, self.data)?;
                        from = i + 1;
                    }
                    continue;
                }
                self.out
                    .write_all(&mark[..std::mem::take(&mut self.matched)])?;
                from = i;
            }
            if b == mark[0] {
                self.out.write_all(&buf[from..i])?;
                self.matched = 1;
                from = i + 1;
            }
        }
        if self.matched == 0 {
            self.out.write_all(&buf[from..])?;
        }
        Ok(())
    }

    /// Writes what is held back of a mark that never completed.
    fn finish(&mut self) -> std::io::Result<()> {
        let held = std::mem::take(&mut self.matched);
        self.out.write_all(&self.mark[..held])?;
        self.out.flush()
    }
}

impl Write for Splice<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.pass(buf) {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                let kind = e.kind();
                self.failed = Some(e);
                Err(std::io::Error::new(kind, "the page's writer failed"))
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_sequence_writes_the_json_of_one_made_in_order() {
        // Across a block's end, and short of the length spread over cores.
        use crate::parallel::BLOCK;
        for n in [0, 1, 63, 64, BLOCK - 1, BLOCK, BLOCK + 65] {
            let make = |i: usize| Item {
                f: vec![serde_json::Value::from(format!("<{i}>"))],
                k: format!("k{i}"),
                o: vec![i as i64, -1],
                v: vec![vec![i % 3], vec![]],
            };
            let one = serde_json::to_string(&Lazy::new(n, make)).unwrap();
            let spread = serde_json::to_string(&Lazy::spread(n, make)).unwrap();
            assert_eq!(spread, one, "{n} elements");
        }
    }

    fn data() -> PageData<'static> {
        let view = |n: usize| ViewData {
            bib: Lazy::new(n, |i| format!("@misc{{k{i}}}")),
            facets: vec![("year".into(), vec!["2025".into()])],
            fields: vec!["year"],
            items: Lazy::new(n, |i| Item {
                f: vec![serde_json::Value::from("</script>")],
                k: format!("k{i}"),
                o: vec![i as i64],
                v: vec![vec![0]],
            }),
        };
        PageData {
            aliases: &[("rl", "is_rl")],
            exclusions: view(0),
            papers: view(3),
        }
    }

    fn rendered(template: &str) -> String {
        let mut tera = tera::Tera::default();
        tera.add_raw_template("t", template).unwrap();
        let mut ctx = tera::Context::new();
        let mark = Mark::new();
        ctx.insert("data_json", mark.as_str());
        // A NUL and the words of a mark, as a corpus's text might hold them.
        ctx.insert("x", "a\0corpus-site-data-\0b");
        let mut out = Vec::new();
        let n = render_to(&tera, "t", &ctx, &mark, &data(), &mut out).unwrap();
        assert_eq!(n, out.len() as u64);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_data_goes_where_the_template_places_it_as_script_safe_json() {
        let page = rendered("<p>{{ x }}</p><script>{{ data_json | safe }}</script>");
        let expected = format!(
            "<p>a\0corpus-site-data-\0b</p><script>{}</script>",
            crate::text::embed::script_json(&data())
        );
        assert_eq!(page, expected);
        assert!(page.contains(r#""bib":["@misc{k0}","@misc{k1}","@misc{k2}"]"#));
        assert!(!page.contains(r#""exclusions":{"bib""#), "{page}");
        assert!(page.contains("\\u003c/script\\u003e"));
    }

    #[test]
    fn a_mark_cut_across_writes_is_found_and_a_broken_one_passed_on() {
        let mark = Mark::new();
        let mark = mark.as_str();
        let json = crate::text::embed::script_json(&data());
        let text = format!("a\0b{mark}\0cor{mark}\0");
        let expected = format!("a\0b{json}\0cor{json}\0");
        for cut in 0..=text.len() {
            for cut2 in cut..=text.len() {
                let mut out = Vec::new();
                let d = data();
                let mut splice = Splice {
                    out: &mut out,
                    mark: mark.as_bytes(),
                    data: &d,
                    matched: 0,
                    failed: None,
                };
                let b = text.as_bytes();
                splice.write_all(&b[..cut]).unwrap();
                splice.write_all(&b[cut..cut2]).unwrap();
                splice.write_all(&b[cut2..]).unwrap();
                splice.finish().unwrap();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    expected,
                    "cut at {cut}, {cut2}"
                );
            }
        }
    }

    #[test]
    fn only_one_plain_place_streams() {
        assert!(streams_data("<script>{{ data_json | safe }}</script>"));
        assert!(!streams_data("<script>{{ data_json }}</script>"));
        assert!(!streams_data(
            "{{ data_json | safe }}{{ data_json | length }}"
        ));
        assert!(!streams_data("no data"));
    }
}
