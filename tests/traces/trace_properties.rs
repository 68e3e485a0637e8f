//! Any byte string as a trace file yields diagnostics or metrics, never a
//! panic; and mutations of a valid trace keep validation and replay total.

use proptest::prelude::*;
use std::collections::BTreeMap;

const VALID: &str = include_str!("../../traces/examples/centralized.json");

fn families() -> BTreeMap<String, String> {
    [("team", "R1"), ("tool", "R5"), ("orchestration", "R7")]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// Validates and, when the trace parses, replays it; both must return.
fn exercise(bytes: &[u8]) {
    let diags = corpus_trace::validate_bytes("t.json", bytes);
    for d in &diags {
        assert!(d.rule.starts_with("trace-"), "{d:?}");
        assert_eq!(d.file, "t.json");
    }
    if let Ok(t) = corpus_trace::parse("t.json", bytes) {
        let m = corpus_trace::metrics(&t, &families());
        assert_eq!(m.events, t.events.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        exercise(&bytes);
    }

    #[test]
    fn damaged_valid_traces_never_panic(
        cut in 0usize..VALID.len(),
        insert in proptest::collection::vec(any::<u8>(), 0..16),
        at in 0usize..VALID.len(),
    ) {
        let mut bytes = VALID.as_bytes().to_vec();
        bytes.truncate(cut.max(at));
        let pos = at.min(bytes.len());
        bytes.splice(pos..pos, insert);
        exercise(&bytes);
    }

    #[test]
    fn reshuffled_fields_of_a_valid_trace_never_panic(
        swaps in proptest::collection::vec((0usize..64, 0usize..64), 0..8),
    ) {
        // Swap whole tokens (ids, numbers, type names) to reach the graph rules, not just the parser.
        let mut tokens: Vec<String> = VALID.split('"').map(str::to_string).collect();
        let n = tokens.len();
        for (a, b) in swaps {
            tokens.swap((a * 2 + 1) % n, (b * 2 + 1) % n);
        }
        exercise(tokens.join("\"").as_bytes());
    }
}

#[test]
fn the_valid_example_has_no_diagnostics() {
    assert!(corpus_trace::validate_bytes("t.json", VALID.as_bytes()).is_empty());
}
