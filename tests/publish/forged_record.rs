//! A pull request is an attacker: no file it carries can make `check` or
//! `build --check` pass on broken data. The build record is believed only
//! when this user's own store (outside the tree, keyed with its secret)
//! wrote it, and not at all under `CI=true` or `--no-cache`.

use crate::common::{copy_tree, corpus_cmd, repo, Tree};
use corpus_io::store::Store;

/// An entry of the shipped corpus.
const AN_ENTRY: &str = "corpus/papers/agent-lightning.yaml";

/// A copy of the shipped tree, built once, so the tests' store holds its record.
fn built() -> Tree {
    let t = Tree::repo_copy();
    t.corpus(&["build"]).assert_code(0);
    assert!(t.record_path().is_file());
    t
}

/// A record for `t` as it is now, forged with `store`'s secret: a copy of
/// `good`'s record (a clean build's) whose key is that of `t`'s inputs.
fn forged_record(store: &Store, t: &Tree, good: &str) -> String {
    let inputs =
        corpus_core::load::read_inputs(t.root(), corpus_core::load::LoadOptions::default());
    let key = corpus_core::publish::generate::fingerprint_key(
        store,
        &inputs,
        corpus_core::publish::generate::Part::All,
    )
    .expect("a key");
    let mut lines: Vec<String> = good.lines().map(str::to_string).collect();
    lines[1] = format!("key {key:032x}");
    lines.join("\n") + "\n"
}

/// `git init` and commit everything, the forged files included.
fn commit_all(t: &Tree) {
    for args in [
        &["init", "-q"][..],
        &["add", "-A", "-f"],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.org",
            "commit",
            "-qm",
            "a pull request",
        ],
    ] {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(t.root())
            .status()
            .expect("git runs")
            .success();
        assert!(ok, "git {args:?}");
    }
}

/// `corpus` on `t` with the record folder `cache` and the environment `env`.
fn run(t: &Tree, cache: &std::path::Path, env: &[(&str, &str)], args: &[&str]) -> (i32, String) {
    let mut cmd = corpus_cmd(t.root());
    cmd.env("CORPUS_CACHE_DIR", cache).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run corpus");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().expect("exit code"), text)
}

#[test]
fn a_committed_forged_record_does_not_make_broken_data_pass() {
    let good = built();
    let good_record = std::fs::read_to_string(good.record_path()).expect("a record");
    // The pull request: one broken entry, and records forged every way an
    // attacker could: with a secret of their own, committed where earlier
    // versions kept the record and as a whole store inside the tree.
    let pr = Tree::empty();
    copy_tree(good.root(), pr.root());
    pr.set(AN_ENTRY, "year", "1850");
    let own_secret = pr.path(".cache/corpus");
    let theirs = Store::open(&own_secret).expect("a store in the tree");
    let forged = forged_record(&theirs, &pr, &good_record);
    pr.write(".cache/corpus-build.fingerprint", &forged);
    let in_tree = corpus_core::publish::fingerprint::path(&theirs, pr.root());
    assert!(in_tree.is_none(), "a store inside the root names no record");
    let canonical = pr.root().canonicalize().expect("canonical root");
    let name =
        corpus_io::digest::Digest::of(theirs.key(), canonical.as_os_str().as_encoded_bytes());
    pr.write(&format!(".cache/corpus/builds/{name:032x}"), &forged);
    commit_all(&pr);

    let fresh_machine = crate::common::scratch();
    for cache in [
        fresh_machine.path(),
        crate::common::cache_dir(),
        own_secret.as_path(),
    ] {
        for args in [
            &["check", "--strict", "--format", "github"][..],
            &["check"],
            &["build", "--check"],
        ] {
            let (code, out) = run(&pr, cache, &[], args);
            assert_eq!(
                code,
                1,
                "{args:?} with the store {}: {out}",
                cache.display()
            );
            assert!(
                out.contains("year"),
                "{args:?} names the broken field: {out}"
            );
        }
    }
}

#[test]
fn under_ci_or_no_cache_even_a_valid_record_is_not_read_nor_written() {
    let t = built();
    // The user's own record, re-keyed for broken data: a run that read it
    // would pass. (Only this user's store could write it; here the test
    // plays a CI cache restored from an untrusted run.)
    let store = Store::open(crate::common::cache_dir()).expect("the tests' store");
    let good_record = std::fs::read_to_string(t.record_path()).expect("a record");
    t.set(AN_ENTRY, "year", "1850");
    std::fs::write(t.record_path(), forged_record(&store, &t, &good_record)).expect("write");
    let cache = crate::common::cache_dir();
    // Read as this user outside CI: believed (which is why only this user's store is trusted).
    assert_eq!(run(&t, cache, &[], &["check"]).0, 0);
    for (env, flags) in [
        (&[("CI", "true")][..], &[][..]),
        (&[("CI", "1")], &[]),
        (&[], &["--no-cache"]),
    ] {
        for args in [&["check"][..], &["build", "--check"]] {
            let all: Vec<&str> = flags.iter().chain(args).copied().collect();
            let (code, out) = run(&t, cache, env, &all);
            assert_eq!(code, 1, "{env:?} {all:?}: {out}");
        }
    }
    // Nor is a record written there.
    let fresh = crate::common::scratch();
    let u = Tree::repo_copy();
    let (code, _) = run(&u, fresh.path(), &[("CI", "true")], &["build"]);
    assert_eq!(code, 0);
    assert!(
        std::fs::read_dir(fresh.path())
            .expect("list")
            .next()
            .is_none(),
        "CI=true opens no store"
    );
    let (code, _) = run(&u, fresh.path(), &[("CI", "false")], &["build"]);
    assert_eq!(code, 0);
    assert!(fresh.path().join("secret").is_file(), "CI=false is not CI");
}

#[test]
fn the_workflow_checks_with_no_cache() {
    let workflow =
        std::fs::read_to_string(repo().join(".github/workflows/corpus.yml")).expect("the workflow");
    let runs: Vec<&str> = workflow
        .lines()
        .filter(|l| l.contains("/corpus "))
        .filter(|l| {
            l.split_whitespace()
                .any(|w| ["check", "build", "stats"].contains(&w))
        })
        .collect();
    assert!(runs.len() >= 2, "{runs:?}");
    for line in runs {
        assert!(line.contains("--no-cache"), "{line}");
    }
}
