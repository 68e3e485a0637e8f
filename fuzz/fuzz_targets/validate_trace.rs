//! Any bytes as a trace: validation gives diagnostics, and a trace that
//! parses replays into metrics, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;

fuzz_target!(|data: &[u8]| {
    let _ = corpus_trace::validate_bytes("fuzz.json", data);
    if let Ok(t) = corpus_trace::parse("fuzz.json", data) {
        let families: BTreeMap<String, String> =
            [("team", "R1"), ("tool", "R5")].iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let _ = corpus_trace::metrics(&t, &families);
    }
});
