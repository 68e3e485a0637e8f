//! Writes synthetic OTLP JSON of about N GenAI spans (one trace), for the
//! import benchmark: `cargo run --release --example gen_otlp -- N OUT.jsonl`.
//!
//! The output is JSON Lines, one OTLP document of up to 1000 spans per line,
//! as the OpenTelemetry Collector's file exporter writes batches. The trace
//! is a chain of waves under one `invoke_agent` root: in each wave the
//! orchestrator makes a model call, creates and invokes 8 workers in
//! parallel (each makes a model call, runs a tool, makes another model
//! call), and then a model call that aggregates their returns. A wave is 42
//! spans; N is rounded down to whole waves plus the root.

use std::fs::File;
use std::io::{BufWriter, Write};

const FAN_OUT: u64 = 8;
const WAVE: u64 = 2 + 5 * FAN_OUT;
const BATCH: usize = 1000;
const T0: u64 = 1_767_225_600_000_000_000;
const SECOND: u64 = 1_000_000_000;
const TRACE: &str = "0123456789abcdef0123456789abcdef";

struct Gen<W: Write> {
    out: W,
    in_batch: usize,
    next_id: u64,
}

impl<W: Write> Gen<W> {
    /// Writes one span; returns its id.
    fn span(
        &mut self,
        parent: Option<u64>,
        name: &str,
        start: u64,
        end: u64,
        attrs: &[(&str, &str)],
    ) -> std::io::Result<u64> {
        self.next_id += 1;
        let id = self.next_id;
        if self.in_batch == 0 {
            write!(
                self.out,
                "{{\"resourceSpans\":[{{\"resource\":{{\"attributes\":[{{\"key\":\"service.name\",\"value\":{{\"stringValue\":\"bench\"}}}}]}},\"scopeSpans\":[{{\"scope\":{{\"name\":\"gen_otlp\"}},\"spans\":["
            )?;
        } else {
            write!(self.out, ",")?;
        }
        let parent = parent.map_or(String::new(), |p| format!(",\"parentSpanId\":\"{p:016x}\""));
        let attrs: Vec<String> = attrs
            .iter()
            .map(|(k, v)| {
                if k.starts_with("gen_ai.usage.") {
                    format!("{{\"key\":\"{k}\",\"value\":{{\"intValue\":\"{v}\"}}}}")
                } else {
                    format!("{{\"key\":\"{k}\",\"value\":{{\"stringValue\":\"{v}\"}}}}")
                }
            })
            .collect();
        write!(
            self.out,
            "{{\"traceId\":\"{TRACE}\",\"spanId\":\"{id:016x}\"{parent},\"name\":\"{name}\",\"kind\":1,\"startTimeUnixNano\":\"{}\",\"endTimeUnixNano\":\"{}\",\"attributes\":[{}],\"status\":{{}}}}",
            T0 + start,
            T0 + end,
            attrs.join(",")
        )?;
        self.in_batch += 1;
        if self.in_batch == BATCH {
            self.flush_batch()?;
        }
        Ok(id)
    }

    fn flush_batch(&mut self) -> std::io::Result<()> {
        if self.in_batch > 0 {
            writeln!(self.out, "]}}]}}]}}")?;
            self.in_batch = 0;
        }
        Ok(())
    }
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(n), Some(path)) = (args.get(1).and_then(|s| s.parse::<u64>().ok()), args.get(2))
    else {
        eprintln!("usage: gen_otlp N OUT.jsonl");
        std::process::exit(2);
    };
    let waves = n.saturating_sub(1) / WAVE;
    let mut g = Gen {
        out: BufWriter::new(File::create(path)?),
        in_batch: 0,
        next_id: 0,
    };
    let wave_len = 60 * SECOND;
    let total = waves * wave_len + SECOND;
    let op = "gen_ai.operation.name";
    let root = g.span(
        None,
        "invoke_agent lead",
        0,
        total,
        &[(op, "invoke_agent"), ("gen_ai.agent.name", "lead")],
    )?;
    let tokens = [
        ("gen_ai.usage.input_tokens", "900"),
        ("gen_ai.usage.output_tokens", "150"),
    ];
    for w in 0..waves {
        let t = w * wave_len + SECOND;
        let chat = [(op, "chat"), tokens[0], tokens[1]];
        g.span(Some(root), "chat", t, t + SECOND, &chat)?;
        for k in 0..FAN_OUT {
            let name = format!("worker-{k}");
            let s = t + 2 * SECOND + k * SECOND / 10;
            g.span(
                Some(root),
                &format!("create_agent {name}"),
                s,
                s + SECOND / 20,
                &[(op, "create_agent"), ("gen_ai.agent.name", &name)],
            )?;
            let inv = g.span(
                Some(root),
                &format!("invoke_agent {name}"),
                s + SECOND / 10,
                s + 40 * SECOND,
                &[(op, "invoke_agent"), ("gen_ai.agent.name", &name)],
            )?;
            let a = s + SECOND;
            g.span(Some(inv), "chat", a, a + 5 * SECOND, &chat)?;
            g.span(
                Some(inv),
                "execute_tool web_search",
                a + 5 * SECOND,
                a + 15 * SECOND,
                &[(op, "execute_tool"), ("gen_ai.tool.name", "web_search")],
            )?;
            g.span(Some(inv), "chat", a + 15 * SECOND, a + 30 * SECOND, &chat)?;
        }
        g.span(Some(root), "chat", t + 50 * SECOND, t + 55 * SECOND, &chat)?;
    }
    g.flush_batch()?;
    g.out.flush()?;
    eprintln!("{} spans in {} waves", 1 + waves * WAVE, waves);
    Ok(())
}
