//! Random damage to valid traces must give diagnostics, never a panic,
//! and metrics must survive every trace that parses.

use super::testutil::{base, Rng};
use super::*;
use serde_json::{json, Value};

fn iterations() -> usize {
    std::env::var("TRACE_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500)
}

fn seeds() -> Vec<Value> {
    let mut out = vec![base()];
    for text in [
        include_str!("../../../traces/examples/centralized.json"),
        include_str!("../../../traces/examples/swarm.json"),
        include_str!("../../../traces/examples/debate.json"),
    ] {
        out.push(serde_json::from_str(text).unwrap());
    }
    out
}

fn exercise(bytes: &[u8]) {
    let _ = validate_bytes("fuzz.json", bytes);
    if let Ok(trace) = parse("fuzz.json", bytes) {
        let families = [("team".to_string(), "R1".to_string())].into();
        let m = metrics(&trace, &families);
        let _ = metrics_table(&m);
        let _ = serde_json::to_string(&m).unwrap();
    }
}

#[test]
fn byte_damage_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let texts: Vec<Vec<u8>> = seeds()
        .iter()
        .map(|v| serde_json::to_vec_pretty(v).unwrap())
        .collect();
    const BYTES: &[u8] = b"{}[]\",:-0123456789.eE \n\\truefalsnul\xc3\xa9\xff";
    for _ in 0..iterations() {
        let mut t = texts[rng.below(texts.len())].clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(t.len());
            match rng.below(4) {
                0 => {
                    let end = (at + rng.below(20)).min(t.len());
                    t.drain(at..end);
                }
                1 => t.insert(at, BYTES[rng.below(BYTES.len())]),
                2 => {
                    if let Some(b) = t.get_mut(at) {
                        *b = BYTES[rng.below(BYTES.len())];
                    }
                }
                _ => {
                    let end = (at + rng.below(40)).min(t.len());
                    let chunk = t[at..end].to_vec();
                    let to = rng.below(t.len());
                    t.splice(to..to, chunk);
                }
            }
        }
        exercise(&t);
    }
}

fn random_value(rng: &mut Rng, names: &[String]) -> Value {
    match rng.below(9) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(rng.below(10)),
        3 => json!(-(rng.below(5) as i64)),
        4 => json!(rng.below(100) as f64 / 7.0),
        5 => json!(""),
        6 => json!([1, {"a": []}]),
        7 => json!({"x": 1}),
        _ => json!(names[rng.below(names.len())]),
    }
}

#[test]
fn structural_damage_never_panics() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let seeds = seeds();
    let keys = [
        "id", "t", "type", "agent", "from", "to", "trusted", "src", "dst",
    ];
    for _ in 0..iterations() {
        let mut v = seeds[rng.below(seeds.len())].clone();
        let mut names: Vec<String> = v["events"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|e| ["id", "agent"].map(|k| e[k].as_str().unwrap_or("").to_string()))
            .collect();
        names.extend(EventKind::ALL.iter().map(|k| k.as_str().to_string()));
        names.extend(EdgeKind::ALL.iter().map(|k| k.as_str().to_string()));
        for _ in 0..1 + rng.below(5) {
            let which = if rng.below(2) == 0 { "events" } else { "edges" };
            let len = v[which].as_array().map_or(0, Vec::len);
            match rng.below(6) {
                0 if len > 0 => {
                    let i = rng.below(len);
                    let k = keys[rng.below(keys.len())];
                    let value = random_value(&mut rng, &names);
                    if let Some(o) = v[which].get_mut(i).and_then(Value::as_object_mut) {
                        o.insert(k.to_string(), value);
                    }
                }
                1 if len > 0 => {
                    let i = rng.below(len);
                    let k = keys[rng.below(keys.len())];
                    if let Some(o) = v[which][i].as_object_mut() {
                        o.remove(k);
                    }
                }
                2 if len > 0 => {
                    let i = rng.below(len);
                    let item = v[which][i].clone();
                    if let Some(a) = v[which].as_array_mut() {
                        a.push(item);
                    }
                }
                3 => {
                    let (s, d) = (rng.below(names.len()), rng.below(names.len()));
                    let ty = EdgeKind::ALL[rng.below(8)].as_str();
                    if let Some(a) = v["edges"].as_array_mut() {
                        a.push(json!({"src": names[s], "dst": names[d], "type": ty}));
                    }
                }
                4 => {
                    let k = ["costs", "rewards", "trace_id", "events", "edges"][rng.below(5)];
                    v[k] = random_value(&mut rng, &names);
                }
                _ if len > 1 => {
                    let (i, j) = (rng.below(len), rng.below(len));
                    if let Some(a) = v[which].as_array_mut() {
                        a.swap(i, j);
                    }
                }
                _ => {}
            }
        }
        exercise(&serde_json::to_vec(&v).unwrap());
    }
}
