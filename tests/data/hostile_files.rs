//! Hostile files not covered by `check_cases.rs`: a 200 MB entry, files that
//! cannot be read (a dangling symlink, a FIFO, a device, a file without read
//! permission), a data folder that is a file, and nesting 100,000 levels deep.
//!
//! Each test builds the bad tree in a temporary directory, runs the binary
//! with a time limit, and asserts the exit code, a diagnostic naming the bad
//! file, and that the rest of the corpus was still checked: every tree also
//! carries two ordinary mistakes (an unknown tag in an entry, a screening date
//! after the cutoff in an exclusion record) that must be reported too.

use crate::common::{valid, Diag, Run, Tree};
use std::path::Path;
use std::time::{Duration, Instant};

/// A hang guard, not a speed claim (speed is measured in benches/): a run
/// that has not ended by then is stuck, and is killed so the suite reports
/// it rather than waiting forever. Far beyond any run on a loaded machine.
const TIME_LIMIT: Duration = Duration::from_secs(300);

/// `corpus --root <root> <global args> check --format json`, killed after
/// `TIME_LIMIT`; asserts it ended by itself within the limit.
fn check_within(t: &Tree, global: &[&str]) -> Run {
    let mut cmd = crate::common::corpus_cmd(t.root());
    cmd.args(global);
    cmd.args(["check", "--format", "json"]);
    cmd.timeout(TIME_LIMIT);
    let start = Instant::now();
    let out = cmd.output().expect("run corpus");
    let took = start.elapsed();
    let run = Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    };
    assert!(
        took < TIME_LIMIT && run.code.is_some(),
        "corpus check did not finish within {TIME_LIMIT:?} (killed: {:?})\nstdout:\n{}\nstderr:\n{}",
        out.status,
        run.stdout,
        run.stderr
    );
    run
}

/// The valid fixture with one ordinary mistake in an entry and one in an
/// exclusion record, to show the other files are still checked.
fn tree() -> Tree {
    let t = Tree::valid();
    t.set(valid::METHOD, "reward_type", "shard");
    t.set(valid::DOCS_RECORD, "date_screened", "\"2026-05-05\"");
    t
}

/// Asserts the two planted mistakes were reported.
#[track_caller]
fn assert_rest_was_checked(run: &Run) {
    let diags = run.diags();
    for (file, rule) in [
        (valid::METHOD, "unknown-value"),
        (valid::DOCS_RECORD, "date-after-cutoff"),
    ] {
        assert!(
            diags.iter().any(|d| d.file == file && d.rule == rule),
            "{rule} in {file} was not reported, so the rest of the corpus was not checked:\n{}",
            run.stdout
        );
    }
}

/// The diagnostics about one file; asserts there is at least one.
#[track_caller]
fn about(run: &Run, file: &str) -> Vec<Diag> {
    let d: Vec<Diag> = run.diags().into_iter().filter(|d| d.file == file).collect();
    assert!(!d.is_empty(), "no diagnostic names {file}:\n{}", run.stdout);
    d
}

/// The single diagnostic about one file.
#[track_caller]
fn only_about(run: &Run, file: &str) -> Diag {
    let d = about(run, file);
    assert_eq!(d.len(), 1, "one diagnostic expected for {file}: {d:#?}");
    d.into_iter().next().expect("one")
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("create parent");
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Whether this process can read a file whose permission bits forbid it
/// (root, or any process with CAP_DAC_OVERRIDE).
#[cfg(unix)]
fn permissions_do_not_bind() -> bool {
    use std::os::unix::fs::PermissionsExt;
    let dir = crate::common::scratch();
    let p = dir.path().join("probe");
    std::fs::write(&p, "x").expect("write probe");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).expect("chmod probe");
    std::fs::read(&p).is_ok()
}

// ---------------------------------------------------------------------------
// Size

const HUGE: &str = "corpus/papers/huge.yaml";
const TWO_HUNDRED_MB: u64 = 200 * 1024 * 1024;

/// A 200 MB file, sparse: creating it is instant and takes no disk space.
fn plant_huge(t: &Tree, rel: &str) {
    plant_sparse(t, rel, TWO_HUNDRED_MB);
}

/// A sparse file of `len` NUL bytes.
fn plant_sparse(t: &Tree, rel: &str, len: u64) {
    let f = std::fs::File::create(t.path(rel)).expect("create the large file");
    f.set_len(len).expect("set its length");
}

#[cfg(unix)]
#[test]
fn entry_of_200_mb_is_refused_by_size_without_being_read() {
    let t = tree();
    plant_huge(&t, HUGE);
    // Under a 150 MB address-space limit the process could not even hold the
    // file, so finishing cleanly proves it was refused before being read.
    let mut cmd = assert_cmd::Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -v 150000 && exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("corpus"))
        .env("CORPUS_CACHE_DIR", crate::common::cache_dir())
        .env_remove("CI")
        .arg("--root")
        .arg(t.root())
        .args(["check", "--format", "json"])
        .timeout(TIME_LIMIT);
    let out = cmd.output().expect("run corpus");
    let run = Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8"),
    };
    run.assert_code(1);
    let d = only_about(&run, HUGE);
    assert_eq!(d.rule, "file-unreadable");
    assert!(
        d.message.contains(&TWO_HUNDRED_MB.to_string()),
        "the message gives the size: {}",
        d.message
    );
    assert!(d.help.unwrap_or_default().contains("--max-file-size"));
    assert_rest_was_checked(&run);
}

#[test]
fn raising_max_file_size_past_a_file_over_the_default_reads_it() {
    // Just over the default limit: a larger file proves nothing more, and
    // the test binary's unoptimized scans would take seconds over 200 MB.
    let over_default = corpus_core::load::DEFAULT_MAX_FILE_BYTES + 1024 * 1024;
    let t = tree();
    plant_sparse(&t, HUGE, over_default);
    let without = check_within(&t, &[]);
    without.assert_code(1);
    assert_eq!(only_about(&without, HUGE).rule, "file-unreadable");
    let limit = (over_default + 1).to_string();
    let run = check_within(&t, &["--max-file-size", &limit]);
    run.assert_code(1);
    // Read this time: what is reported is its content (NUL bytes), not its size.
    let d = only_about(&run, HUGE);
    assert_eq!(d.rule, "yaml-syntax", "{d:#?}");
    assert_rest_was_checked(&run);
}

#[test]
fn exclusion_record_over_the_limit_is_refused_by_size() {
    let t = tree();
    plant_huge(&t, "exclusions/E900.yaml");
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(
        only_about(&run, "exclusions/E900.yaml").rule,
        "file-unreadable"
    );
    assert_rest_was_checked(&run);
}

#[test]
fn claims_ledger_over_the_limit_is_refused_by_size() {
    let t = tree();
    plant_huge(&t, "corpus/claims.yaml");
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(
        only_about(&run, "corpus/claims.yaml").rule,
        "file-unreadable"
    );
    assert_rest_was_checked(&run);
}

// ---------------------------------------------------------------------------
// Files that cannot be read

#[cfg(unix)]
#[test]
fn dangling_symlink_entry_is_unreadable_and_the_rest_is_checked() {
    let t = tree();
    std::os::unix::fs::symlink("moved-away.yaml", t.path("corpus/papers/gone.yaml")).unwrap();
    let run = check_within(&t, &[]);
    run.assert_code(1);
    let d = only_about(&run, "corpus/papers/gone.yaml");
    assert_eq!(d.rule, "file-unreadable");
    assert_rest_was_checked(&run);
}

#[cfg(unix)]
#[test]
fn dangling_symlink_exclusion_record_is_unreadable() {
    let t = tree();
    std::os::unix::fs::symlink("/nonexistent/E900.yaml", t.path("exclusions/E900.yaml")).unwrap();
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(
        only_about(&run, "exclusions/E900.yaml").rule,
        "file-unreadable"
    );
    assert_rest_was_checked(&run);
}

#[cfg(unix)]
#[test]
fn fifo_entry_does_not_hang_the_check() {
    let t = tree();
    // Opening a FIFO for reading blocks until a writer comes: the tool must
    // not open it at all.
    mkfifo(&t.path("corpus/papers/pipe.yaml"));
    let run = check_within(&t, &[]);
    run.assert_code(1);
    let d = only_about(&run, "corpus/papers/pipe.yaml");
    assert_eq!(d.rule, "file-unreadable");
    assert_rest_was_checked(&run);
}

#[cfg(unix)]
#[test]
fn fifo_exclusion_record_does_not_hang_the_check() {
    let t = tree();
    mkfifo(&t.path("exclusions/E900.yaml"));
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(
        only_about(&run, "exclusions/E900.yaml").rule,
        "file-unreadable"
    );
    assert_rest_was_checked(&run);
}

#[cfg(unix)]
#[test]
fn fifo_claims_ledger_does_not_hang_the_check() {
    let t = tree();
    mkfifo(&t.path("corpus/claims.yaml"));
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(
        only_about(&run, "corpus/claims.yaml").rule,
        "file-unreadable"
    );
    assert_rest_was_checked(&run);
}

#[cfg(unix)]
#[test]
fn fifo_taxonomy_is_no_root_rather_than_a_hang() {
    let t = tree();
    std::fs::remove_file(t.path("corpus/taxonomy.yaml")).unwrap();
    mkfifo(&t.path("corpus/taxonomy.yaml"));
    let run = check_within(&t, &[]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("corpus/taxonomy.yaml"),
        "{}",
        run.stderr
    );
}

#[cfg(unix)]
#[test]
fn entry_symlinked_to_an_endless_device_is_refused() {
    let t = tree();
    // /dev/zero never ends: reading it would eat the machine's memory.
    std::os::unix::fs::symlink("/dev/zero", t.path("corpus/papers/zero.yaml")).unwrap();
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(
        only_about(&run, "corpus/papers/zero.yaml").rule,
        "file-unreadable"
    );
    assert_rest_was_checked(&run);
}

#[cfg(unix)]
#[test]
fn entry_without_read_permission_is_unreadable_and_the_rest_is_checked() {
    use std::os::unix::fs::PermissionsExt;
    if permissions_do_not_bind() {
        eprintln!("skipped: running with privileges that ignore permission bits (root in CI)");
        return;
    }
    let t = tree();
    let p = t.path(valid::CLASSICAL);
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
    let run = check_within(&t, &[]);
    // Give the tempdir back its permissions before anything can fail.
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
    run.assert_code(1);
    let d = only_about(&run, valid::CLASSICAL);
    assert_eq!(d.rule, "file-unreadable");
    assert!(
        d.message.to_lowercase().contains("permission"),
        "{}",
        d.message
    );
    assert_rest_was_checked(&run);
}

#[test]
fn papers_folder_that_is_a_file_is_reported_and_exclusions_are_still_checked() {
    let t = tree();
    std::fs::remove_dir_all(t.path("corpus/papers")).unwrap();
    t.write("corpus/papers", "not a folder\n");
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(only_about(&run, "corpus/papers").rule, "file-unreadable");
    assert!(
        run.diags()
            .iter()
            .any(|d| d.file == valid::DOCS_RECORD && d.rule == "date-after-cutoff"),
        "{}",
        run.stdout
    );
}

// ---------------------------------------------------------------------------
// Nesting 100,000 levels deep

const DEEP: &str = "corpus/papers/deep.yaml";
const LEVELS: usize = 100_000;

#[test]
fn block_nesting_100000_levels_deep_ends_with_a_diagnostic() {
    let t = tree();
    // Block sequences nested on one line: `- - - … x`. (Nesting by
    // indentation cannot reach this depth within the size limit: 100,000
    // levels of growing indentation take 5 GB.)
    t.write(
        DEEP,
        format!("key: deep\nnotes:\n{}x\n", "- ".repeat(LEVELS)),
    );
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(only_about(&run, DEEP).rule, "yaml-syntax");
    assert_rest_was_checked(&run);
}

#[test]
fn indented_block_nesting_up_to_the_size_limit_ends_with_a_diagnostic() {
    let t = tree();
    // As deep as growing indentation gets under the default 4 MiB limit.
    let mut s = String::from("key: deep\nnotes:\n");
    let mut level = 1;
    while s.len() + level + 3 < 4 * 1024 * 1024 {
        s.push_str(&" ".repeat(level));
        s.push_str("n:\n");
        level += 1;
    }
    t.write(DEEP, s);
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(only_about(&run, DEEP).rule, "yaml-syntax");
    assert_rest_was_checked(&run);
}

// The YAML scanner (unsafe-libyaml, under serde_yaml) re-examines every open
// flow level for each token, so flow nesting costs time quadratic in its
// depth, and serde_yaml's recursion limit (128) applies only after the whole
// document has been scanned: 100,000 `[` once took 26 s in a release build.
// crates/core/src/load/mod.rs now refuses flow nesting deeper than that
// limit before parsing; these tests keep it that way.

#[test]
fn flow_sequence_nesting_100000_levels_deep_ends_quickly_with_a_diagnostic() {
    let t = tree();
    t.write(DEEP, format!("key: {}\n", "[".repeat(LEVELS)));
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(only_about(&run, DEEP).rule, "yaml-syntax");
    assert_rest_was_checked(&run);
}

#[test]
fn flow_mapping_nesting_100000_levels_deep_ends_quickly_with_a_diagnostic() {
    let t = tree();
    t.write(DEEP, format!("key: {}\n", "{a: ".repeat(LEVELS)));
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(only_about(&run, DEEP).rule, "yaml-syntax");
    assert_rest_was_checked(&run);
}

// ---------------------------------------------------------------------------
// Generated files and templates are read too (for the staleness check)

#[cfg(unix)]
#[test]
fn fifo_template_does_not_hang_the_check() {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    mkfifo(&t.path("templates/extra.md.tera"));
    let run = check_within(&t, &[]);
    assert!(run.code == Some(0) || run.code == Some(1));
}

#[cfg(unix)]
#[test]
fn fifo_in_place_of_a_generated_file_does_not_hang_the_check() {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    t.remove("README.md");
    mkfifo(&t.path("README.md"));
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(only_about(&run, "README.md").rule, "stale-generated");
}

#[cfg(unix)]
#[test]
fn fifo_in_place_of_the_stats_manifest_does_not_hang_the_check() {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    t.remove("stats/.generated");
    mkfifo(&t.path("stats/.generated"));
    let run = check_within(&t, &[]);
    run.assert_code(1);
    assert_eq!(only_about(&run, "stats/.generated").rule, "stale-generated");
}

#[cfg(unix)]
#[test]
fn device_in_place_of_an_entry_is_refused() {
    let t = tree();
    std::os::unix::fs::symlink("/dev/zero", t.path("corpus/papers/zero.yaml"))
        .expect("symlink to a device");
    let run = check_within(&t, &[]);
    run.assert_code(1);
    let d = only_about(&run, "corpus/papers/zero.yaml");
    assert_eq!(d.rule, "file-unreadable");
    assert_rest_was_checked(&run);
}
