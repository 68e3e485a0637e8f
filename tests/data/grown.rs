//! The scale benchmark's realistic corpus: the shipped entries grown by
//! `examples/grow_corpus.rs` are clean data, so the benchmark measures the
//! path a contributor's corpus takes, not error reporting.

use crate::common::{corpus_cmd, repo};

#[path = "../../examples/grow_corpus.rs"]
mod grow_corpus;

#[test]
fn a_corpus_grown_from_the_shipped_entries_builds_and_checks_clean() {
    let dir = crate::common::scratch();
    let root = dir.path().join("grown");
    let shipped = crate::common::yaml_files("corpus/papers");
    // More than two copies of every shipped entry, and records to match.
    let n = shipped * 2 + 40;
    assert_eq!(grow_corpus::grow(&repo(), &root, n), n);
    let papers = std::fs::read_dir(root.join("corpus/papers"))
        .expect("papers")
        .count();
    assert_eq!(papers, n);
    let records = std::fs::read_dir(root.join("exclusions"))
        .expect("records")
        .count();
    assert!(
        records > crate::common::yaml_files("exclusions"),
        "{records}"
    );
    corpus_cmd(&root)
        .args(["--no-cache", "build"])
        .assert()
        .success();
    let out = corpus_cmd(&root)
        .args(["--no-cache", "check", "--strict"])
        .output()
        .expect("run check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(&format!("checked {n} entries"))
            && stdout.contains(": 0 errors, 0 warnings"),
        "{stdout}"
    );
}
