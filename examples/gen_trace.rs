//! Writes a valid synthetic orchestration trace of exactly N events, for
//! benchmarks: `cargo run --release --example gen_trace -- N OUT.json`.
//!
//! The trace is a chain of waves. In each wave the orchestrator decides,
//! spawns 8 workers, briefs each; every worker calls a tool, gets an untrusted
//! result (screened by a safety event for 49 workers in 50), returns, and is
//! stopped after the aggregation; a safety checkpoint links the aggregate to
//! the next wave. That gives realistic event sizes, a long critical path, a
//! fan-out of 8 and a few untrusted flows, with cost linear in N. Leftover
//! events (fewer than a wave) are isolated human interventions.

use std::fs::File;
use std::io::{BufWriter, Write};

const FAN_OUT: usize = 8;
/// Events in one wave: decision, aggregate, checkpoint, and 7 per worker.
const WAVE: usize = 3 + 7 * FAN_OUT;

struct Gen<W: Write> {
    out: W,
    events: usize,
    first_event: bool,
    edges: Vec<(usize, usize, &'static str)>,
    tool_calls: usize,
    messages: usize,
}

impl<W: Write> Gen<W> {
    /// Writes one event line; returns its index (its id is `e{index}`).
    fn event(&mut self, t: usize, kind: &str, agent: &str, extra: &str) -> std::io::Result<usize> {
        let sep = if self.first_event { "" } else { ",\n" };
        self.first_event = false;
        let id = self.events;
        write!(
            self.out,
            "{sep}    {{\"id\": \"e{id}\", \"t\": {t}, \"type\": \"{kind}\", \"agent\": \"{agent}\"{extra}}}"
        )?;
        self.events += 1;
        match kind {
            "tool_call" => self.tool_calls += 1,
            "message" => self.messages += 1,
            _ => {}
        }
        Ok(id)
    }

    fn edge(&mut self, src: usize, dst: usize, kind: &'static str) {
        self.edges.push((src, dst, kind));
    }
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(n), Some(path)) = (
        args.first().and_then(|s| s.parse::<usize>().ok()),
        args.get(1),
    ) else {
        eprintln!("usage: gen_trace N OUT.json");
        std::process::exit(2);
    };
    let mut g = Gen {
        out: BufWriter::with_capacity(1 << 20, File::create(path)?),
        events: 0,
        first_event: true,
        edges: Vec::new(),
        tool_calls: 0,
        messages: 0,
    };
    writeln!(
        g.out,
        "{{\n  \"trace_id\": \"synthetic-{n}\",\n  \"task_id\": \"synthetic-task\",\n  \"system\": \"gen_trace\",\n  \"topology\": \"hierarchical\",\n  \"events\": ["
    )?;

    let mut wave = 0usize;
    let mut previous_checkpoint: Option<usize> = None;
    while g.events + WAVE <= n {
        let t0 = wave * 10;
        let decision = g.event(
            t0,
            "orchestrator_decision",
            "orchestrator",
            &format!(", \"role\": \"lead\", \"content_ref\": \"decide:wave-{wave}\""),
        )?;
        if let Some(c) = previous_checkpoint {
            g.edge(c, decision, "causal");
        }
        let mut returns = Vec::with_capacity(FAN_OUT);
        let mut workers = Vec::with_capacity(FAN_OUT);
        for w in 0..FAN_OUT {
            let worker = format!("worker_{wave}_{w}");
            let spawn = g.event(
                t0 + 1,
                "spawn",
                "orchestrator",
                &format!(", \"to\": \"{worker}\", \"role\": \"executor\""),
            )?;
            let brief = g.event(
                t0 + 2,
                "message",
                "orchestrator",
                &format!(", \"from\": \"orchestrator\", \"to\": \"{worker}\", \"content_ref\": \"sha256:brief-{wave}-{w}\", \"trusted\": true"),
            )?;
            let call = g.event(
                t0 + 3,
                "tool_call",
                &worker,
                &format!(
                    ", \"tool\": \"web.search\", \"content_ref\": \"sha256:query-{wave}-{w}\""
                ),
            )?;
            let result = g.event(
                t0 + 4,
                "tool_result",
                "web.search",
                &format!(", \"tool\": \"web.search\", \"content_ref\": \"sha256:page-{wave}-{w}\", \"trusted\": false"),
            )?;
            let guarded = !(wave * FAN_OUT + w).is_multiple_of(50);
            let screen = if guarded {
                g.event(
                    t0 + 5,
                    "safety_event",
                    "guard",
                    &format!(", \"content_ref\": \"scan:{wave}-{w}\""),
                )?
            } else {
                // An unscreened result: one of the untrusted flows the metrics report.
                g.event(
                    t0 + 5,
                    "human_intervention",
                    "reviewer",
                    ", \"content_ref\": \"note:skipped-scan\"",
                )?
            };
            let ret = g.event(
                t0 + 6,
                "return",
                &worker,
                &format!(", \"from\": \"{worker}\", \"to\": \"orchestrator\", \"content_ref\": \"sha256:summary-{wave}-{w}\""),
            )?;
            g.edge(decision, spawn, "spawn");
            g.edge(spawn, brief, "causal");
            g.edge(brief, call, "message");
            g.edge(call, result, "tool_dependency");
            if guarded {
                g.edge(result, screen, "safety_flow");
                g.edge(screen, ret, "causal");
            } else {
                g.edge(result, ret, "causal");
                g.edge(result, screen, "temporal");
            }
            returns.push(ret);
            workers.push(worker);
        }
        let aggregate = g.event(
            t0 + 7,
            "aggregate",
            "orchestrator",
            &format!(", \"content_ref\": \"sha256:merged-{wave}\""),
        )?;
        for r in returns {
            g.edge(r, aggregate, "aggregate");
        }
        for worker in &workers {
            let stop = g.event(
                t0 + 8,
                "despawn",
                "orchestrator",
                &format!(", \"to\": \"{worker}\""),
            )?;
            g.edge(aggregate, stop, "causal");
        }
        let checkpoint = g.event(
            t0 + 8,
            "safety_event",
            "guard",
            ", \"role\": \"output-check\"",
        )?;
        g.edge(aggregate, checkpoint, "safety_flow");
        previous_checkpoint = Some(checkpoint);
        wave += 1;
    }
    while g.events < n {
        let t = wave * 10 + 1;
        g.event(
            t,
            "human_intervention",
            "reviewer",
            ", \"content_ref\": \"note:idle\"",
        )?;
    }

    writeln!(g.out, "\n  ],\n  \"edges\": [")?;
    let edges = std::mem::take(&mut g.edges);
    for (i, (s, d, kind)) in edges.iter().enumerate() {
        let sep = if i + 1 < edges.len() { "," } else { "" };
        writeln!(
            g.out,
            "    {{\"src\": \"e{s}\", \"dst\": \"e{d}\", \"type\": \"{kind}\"}}{sep}"
        )?;
    }
    writeln!(
        g.out,
        "  ],\n  \"rewards\": {{\"team\": 1.0, \"tool\": 0.25, \"orchestration\": 0.5}},\n  \"costs\": {{\"tokens\": {}, \"wall_clock_s\": {}, \"tool_calls\": {}, \"messages\": {}}}\n}}",
        n * 350,
        wave * 10,
        g.tool_calls,
        g.messages
    )?;
    g.out.flush()
}
