//! Small traces built in code, so rule tests read as the rule they test.

use serde_json::{json, Value};

/// xorshift64*: a deterministic, dependency-free source for the robustness tests.
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A valid two-agent trace; tests mutate it to break one rule at a time.
pub fn base() -> Value {
    json!({
        "trace_id": "t-base",
        "task_id": "task-base",
        "topology": "centralized",
        "events": [
            {"id": "a", "t": 0, "type": "orchestrator_decision", "agent": "lead"},
            {"id": "b", "t": 1, "type": "spawn", "agent": "lead", "to": "worker"},
            {"id": "c", "t": 2, "type": "message", "agent": "lead", "from": "lead", "to": "worker"},
            {"id": "d", "t": 3, "type": "tool_call", "agent": "worker", "tool": "search"},
            {"id": "e", "t": 4, "type": "tool_result", "agent": "search", "trusted": false},
            {"id": "f", "t": 5, "type": "return", "agent": "worker", "from": "worker", "to": "lead"},
            {"id": "g", "t": 6, "type": "aggregate", "agent": "lead"}
        ],
        "edges": [
            {"src": "a", "dst": "b", "type": "spawn"},
            {"src": "b", "dst": "c", "type": "causal"},
            {"src": "c", "dst": "d", "type": "message"},
            {"src": "d", "dst": "e", "type": "tool_dependency"},
            {"src": "e", "dst": "f", "type": "causal"},
            {"src": "f", "dst": "g", "type": "aggregate"}
        ],
        "rewards": {"team": 1.0},
        "costs": {"tokens": 100, "wall_clock_s": 6, "tool_calls": 1, "messages": 1}
    })
}

/// Validates a JSON value and returns (rule, pointer) of every diagnostic.
pub fn problems(v: &Value) -> Vec<(String, String)> {
    let text = serde_json::to_string_pretty(v).expect("serializable");
    super::validate_bytes("t.json", text.as_bytes())
        .into_iter()
        .map(|d| (d.rule, d.field.unwrap_or_default()))
        .collect()
}

/// Whether any diagnostic has this rule.
pub fn has(v: &Value, rule: &str) -> bool {
    problems(v).iter().any(|(r, _)| r == rule)
}
