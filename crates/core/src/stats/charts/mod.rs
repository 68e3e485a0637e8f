//! SVG charts for the corpus statistics and README: horizontal bar charts, heat maps and the
//! PRISMA 2020 flow diagram.
//!
//! Every public function is pure: data in, one complete standalone SVG 1.1 document out. Nothing
//! is printed, nothing is read from disk, and no input (empty slices, zero counts, `u64::MAX`,
//! labels full of markup or control characters) makes a function panic.
//!
//! How odd input is shown rather than rejected:
//!
//! * Empty data draws the title and "No data" on a small card.
//! * Labels are cut to 34 characters (column labels 24, titles 64) with an ellipsis, and runs of
//!   whitespace or control characters become one space.
//! * In a heat map, cells missing from a ragged `cells` count as zero and extra ones are ignored,
//!   so the grid always matches `rows` x `cols`.
//! * In the PRISMA flow diagram a count the data does not hold is written "not reported", and
//!   box text is wrapped to the box (long words are cut) so nothing runs outside it.
//!
//! Why it is built the way it is:
//!
//! * Drawing goes through `plotters` with only its SVG backend. Without the `ttf`/`ab_glyph`
//!   features plotters uses a built-in size estimate instead of reading font files, and its SVG
//!   backend writes plain `<text>` elements that the viewer lays out with its own fonts, so no
//!   font is shipped, downloaded or looked up on the machine. The backend writes integer pixel
//!   coordinates, no ids and elements in drawing order, so output is byte-identical between runs.
//! * Layout is done here in pixel coordinates rather than with plotters' `ChartBuilder`: its
//!   segmented (category) axes add a spare category, and we need exact control over the label
//!   column, truncation and where counts sit. The flow diagram has no plotters equivalent at all,
//!   so it is laid out by hand from the same primitives; one writer keeps escaping and styling
//!   identical across all three charts.
//! * Plotters escapes `& < > " '` but passes other characters through, and XML 1.0 forbids most
//!   control characters, so every caller-supplied string goes through `clean` first.
//! * Widths of text are estimated at 0.6 em a character (no font metrics are available), which
//!   errs on the wide side for typical sans-serif fonts so labels do not collide with bars.
//! * Each chart sits on an opaque white card with a grey border and dark text, so it reads the
//!   same on GitHub's light and dark themes.

mod bar;
mod draw;
mod heat;
mod measure;
mod prisma;
mod style;
#[cfg(test)]
mod tests;

pub use bar::{bar_chart, bar_chart_apart};
pub use heat::heat_map;
pub use prisma::{prisma_desc, prisma_flow, studies, total_studies, Flow, FlowRound};

use measure::clean;

/// One bar: a label and a count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bar {
    /// Text shown to the left of the bar.
    pub label: String,
    /// Count that sets the bar's length and is printed at its end.
    pub value: u64,
}

/// The SVG with a `<title>` and a `<desc>` as its first children, so screen
/// readers and tooltips say what the chart shows.
pub fn described(svg: &str, title: &str, desc: &str) -> String {
    let esc = |t: &str| {
        clean(t, usize::MAX)
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let Some(open) = svg.find("<svg") else {
        return svg.to_string();
    };
    let Some(end) = svg[open..].find('>').map(|i| open + i + 1) else {
        return svg.to_string();
    };
    if svg[..end].ends_with("/>") {
        return svg.to_string(); // an empty document has no children to add
    }
    format!(
        "{}\n<title>{}</title>\n<desc>{}</desc>{}",
        &svg[..end],
        esc(title),
        esc(desc),
        &svg[end..]
    )
}
