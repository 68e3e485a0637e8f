//! The metrics as a text table for the terminal.

use super::Metrics;

/// Render metrics as a comfy-table text table (comfy-table 7, default-features = false) fitting 80 columns.
pub fn metrics_table(m: &Metrics) -> String {
    use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
    // Up to 4 decimals, without trailing zeros: 12000, 0.1, 1.1429.
    let num = |x: f64| {
        let s = format!("{x:.4}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" {
            "0".to_string()
        } else {
            s.to_string()
        }
    };
    let join = |pairs: Vec<String>| {
        if pairs.is_empty() {
            "none".to_string()
        } else {
            pairs.join("\n")
        }
    };
    let mut rows: Vec<(String, String)> = vec![
        ("trace".into(), m.trace_id.clone()),
        ("task".into(), m.task_id.clone()),
        (
            "topology".into(),
            m.topology.clone().unwrap_or_else(|| "-".into()),
        ),
        ("events".into(), m.events.to_string()),
        ("edges".into(), m.edges.to_string()),
        (
            "events by type".into(),
            m.events_by_type
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        ("agents".into(), m.agents.to_string()),
        ("spawned agents".into(), m.spawned_agents.to_string()),
        ("spawn depth".into(), m.spawn_depth.to_string()),
        ("max fan-out".into(), m.max_fan_out.to_string()),
        ("makespan".into(), num(m.makespan)),
        ("critical steps".into(), m.critical_steps.to_string()),
        ("parallelism".into(), num(m.parallelism)),
        (
            "sub-decisions".into(),
            m.sub_decisions
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        (
            "rewards by family".into(),
            join(
                m.rewards_by_family
                    .iter()
                    .map(|(k, v)| format!("{k}: {}", num(*v)))
                    .collect(),
            ),
        ),
        (
            "unmapped rewards".into(),
            join(
                m.unmapped_rewards
                    .iter()
                    .map(|(k, v)| format!("{k}: {}", num(*v)))
                    .collect(),
            ),
        ),
        ("tokens".into(), num(m.tokens)),
        (
            "tokens / team reward".into(),
            m.tokens_per_team_reward.map_or("none".into(), num),
        ),
    ];
    const SHOWN: usize = 10;
    let mut pairs: Vec<String> = m
        .untrusted_pairs
        .iter()
        .take(SHOWN)
        .map(|p| format!("{} -> {}", p.untrusted, p.reaches))
        .collect();
    if m.untrusted_pair_count > pairs.len() {
        pairs.push(format!("… {} more", m.untrusted_pair_count - pairs.len()));
    }
    let lower = if m.untrusted_pairs_exact {
        ""
    } else {
        " (at least)"
    };
    rows.push((
        format!(
            "untrusted reaching\nreturn/aggregate: {}{lower}",
            m.untrusted_pair_count
        ),
        join(pairs),
    ));

    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(80)
        .set_header(vec!["metric", "value"]);
    for (k, v) in rows {
        table.add_row(vec![k, v]);
    }
    table.to_string()
}
