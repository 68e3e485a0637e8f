//! The charts of stats/: which figures are drawn, with what labels, and the
//! sentence each chart's description and alt text gives.

use crate::model::corpus::Corpus;
use crate::model::fields;
use crate::stats::charts::{self, Bar, Flow};
use crate::stats::{self, Stats};

/// File name of the PRISMA 2020 flow diagram under stats/.
pub const PRISMA_CHART: &str = "chart_prisma_2020.svg";

/// One generated chart: its file name, the SVG, and a sentence saying what it
/// shows (the SVG's `<desc>` and the Layout::README's alt text).
#[derive(Debug, Clone)]
pub struct Chart {
    /// File name under stats/.
    pub file: String,
    /// The SVG document.
    pub svg: String,
    /// What the chart shows, with its figures.
    pub desc: String,
}

/// "label n, label n, …" for a description.
fn listing(rows: &[Bar]) -> String {
    rows.iter()
        .map(|b| format!("{} {}", b.label, b.value))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Bars of a tally with human labels; the NA row is returned apart.
fn bars(t: &stats::Tally, na: &str, label: impl Fn(&str) -> String) -> (Vec<Bar>, Vec<Bar>) {
    let mut main = Vec::new();
    let mut apart = Vec::new();
    for (value, n) in &t.rows {
        if value == na {
            apart.push(Bar {
                label: format!("{na} (not applicable)"),
                value: *n,
            });
        } else {
            main.push(Bar {
                label: label(value),
                value: *n,
            });
        }
    }
    (main, apart)
}

/// The SVG charts under stats/, the PRISMA diagram drawn from its counts `flow`
/// (`publish::prisma::flow`).
pub fn charts(corpus: &Corpus, st: &Stats, flow: &Flow) -> Vec<Chart> {
    let tax = &corpus.taxonomy;
    let na = tax.na.as_str();
    let family = |id: &str| {
        tax.reward_families
            .iter()
            .find(|f| f.id == id)
            .map_or_else(|| id.to_string(), |f| format!("{id} {}", f.label))
    };
    let plain = |id: &str| id.to_string();
    let mut out = Vec::new();
    type Labeller<'a> = &'a dyn Fn(&str) -> String;
    let tables: [(&str, &str, Labeller); 4] = [
        ("reward_family", "Entries per reward family", &family),
        (
            fields::CREDIT_GRANULARITY,
            "Entries per credit unit",
            &plain,
        ),
        (
            fields::ORCHESTRATION_FORM,
            "Entries per orchestration form",
            &plain,
        ),
        (
            fields::SUBDECISIONS,
            "Entries per orchestration sub-decision",
            &plain,
        ),
    ];
    for (name, title, label) in tables {
        if let Some(t) = st.count(name) {
            let (main, apart) = bars(t, na, label);
            let mut desc = format!("Bar chart of {}: {}.", title.to_lowercase(), listing(&main));
            if !apart.is_empty() {
                desc.push_str(&format!(" Shown apart, not to scale: {}.", listing(&apart)));
            }
            let svg = charts::bar_chart_apart(title, &main, &apart);
            out.push(Chart {
                file: format!("chart_{name}.svg"),
                svg: charts::described(&svg, title, &desc),
                desc,
            });
        }
    }
    if let Some(x) = st.crosstab("reward_type_x_credit_granularity") {
        let title = "Reward type x credit unit";
        let mut busiest: Vec<(u64, String)> = Vec::new();
        for (r, row) in x.rows.iter().enumerate() {
            for (c, col) in x.cols.iter().enumerate() {
                let n = x.cells.get(r).and_then(|v| v.get(c)).copied().unwrap_or(0);
                if n > 0 && row != na && col != na {
                    busiest.push((n, format!("{row} x {col} {n}")));
                }
            }
        }
        busiest.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let top: Vec<String> = busiest.iter().take(5).map(|(_, s)| s.clone()).collect();
        let desc = format!(
            "Heat map of entries by reward type (rows) and credit unit (columns); {} of {} tagged cells are non-zero; the largest: {}. Cells with {na} are grey and outside the colour scale.",
            busiest.len(),
            x.rows.iter().filter(|r| *r != na).count() * x.cols.iter().filter(|c| *c != na).count(),
            top.join(", ")
        );
        let svg = charts::heat_map(
            title,
            fields::REWARD_TYPE,
            fields::CREDIT_GRANULARITY,
            &x.rows,
            &x.cols,
            &x.cells,
            Some(na),
        );
        out.push(Chart {
            file: "chart_reward_x_credit.svg".to_string(),
            svg: charts::described(&svg, title, &desc),
            desc,
        });
    }
    // The screening as a PRISMA 2020 diagram for an updated review, with
    // what the log does not hold shown as not reported (publish::prisma).
    let title = "PRISMA 2020 flow diagram: previous review and new rounds";
    let desc = format!(
        "{} Counted from the entries' added_in and the exclusion log's stage and added_in; \
         searches and screening are not in the log, so their counts are not reported.",
        charts::prisma_desc(flow)
    );
    let svg = charts::prisma_flow(title, flow);
    out.push(Chart {
        file: PRISMA_CHART.to_string(),
        svg: charts::described(&svg, title, &desc),
        desc,
    });
    out
}
