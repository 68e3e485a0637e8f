//! Interrupted and hostile writes: a killed run leaves temporary files that
//! `check` names and the next writing command removes; a write never goes
//! through a symlink below the root; keys are short enough to name a file.

use crate::common::{valid, Tree};
use std::path::Path;

/// Every temporary file of the tool below `root`, by path.
fn temp_files(root: &Path) -> Vec<String> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| corpus_io::files::is_temp_name(&e.file_name().to_string_lossy()))
        .map(|e| e.path().display().to_string())
        .collect()
}

/// The folders a build writes into, each with a planted leftover of a
/// killed run (the current name form and an earlier version's).
const LEFTOVERS: [&str; 6] = [
    ".corpus-tmp-0badf00d",
    ".README.md.tmp-4242-0",
    "stats/.corpus-tmp-12345678",
    "corpus/papers/.corpus-tmp-9abcdef0",
    "exclusions/.E001.yaml.tmp-77-3",
    ".cache/.corpus-tmp-deadbeef",
];

#[test]
fn leftovers_are_reported_by_check_and_removed_by_the_next_writing_command() {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    let clean = t.check(&[]);
    clean.assert_code(0);
    assert!(
        clean.of("leftover-temp-file").is_empty(),
        "{}",
        clean.stdout
    );
    for rel in LEFTOVERS {
        t.write(rel, "half a file");
    }
    let run = t.check(&[]);
    run.assert_code(0);
    let mut named: Vec<String> = run
        .of("leftover-temp-file")
        .into_iter()
        .map(|d| d.file)
        .collect();
    named.sort();
    let mut want: Vec<String> = LEFTOVERS.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(named, want, "{}", run.stdout);
    // They are not also reported as stray files, and they fail --strict.
    assert!(run.of("stray-file").is_empty(), "{}", run.stdout);
    t.check(&["--strict"]).assert_code(1);
    // Commands that only look leave them; the next build removes them all.
    t.corpus(&["fmt", "--check"]).assert_code(0);
    t.corpus(&["build", "--check"]).assert_code(0);
    assert_eq!(temp_files(t.root()).len(), LEFTOVERS.len());
    t.corpus(&["build"]).assert_code(0);
    assert_eq!(temp_files(t.root()), Vec::<String>::new());
    assert!(t.check(&[]).of("leftover-temp-file").is_empty());
}

#[test]
fn a_temporary_file_whose_writer_still_runs_is_neither_reported_nor_removed() {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    t.write("stats/.corpus-tmp-0000abcd", "being written");
    // The writer: a live process holding the file's lock.
    let f = std::fs::File::open(t.path("stats/.corpus-tmp-0000abcd")).unwrap();
    f.lock().unwrap();
    assert!(t.check(&[]).of("leftover-temp-file").is_empty());
    t.corpus(&["build"]).assert_code(0);
    assert!(t.path("stats/.corpus-tmp-0000abcd").is_file());
    drop(f);
    assert_eq!(t.check(&[]).of("leftover-temp-file").len(), 1);
}

#[cfg(unix)]
#[test]
fn two_hundred_kills_during_build_then_one_build_leave_no_temporary_file() {
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    // How long a build that writes takes here: the kills land in its second
    // half, where it writes.
    t.replace(valid::METHOD, "one_liner: ", "one_liner: Timed. ");
    let start = std::time::Instant::now();
    t.corpus(&["build"]).assert_code(0);
    let took = start.elapsed().as_micros() as u64;
    let mut left = 0;
    for round in 0..200u64 {
        // A change, so the build has files to write when it is killed.
        t.replace(
            valid::METHOD,
            "one_liner: ",
            &format!("one_liner: R{round} "),
        );
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("corpus"))
            .env("CORPUS_CACHE_DIR", crate::common::cache_dir())
            .env_remove("CI")
            .arg("--root")
            .arg(t.root())
            .arg("build")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start corpus");
        let at = took / 2 + (round * 7919) % (took / 2 + 1);
        std::thread::sleep(std::time::Duration::from_micros(at));
        let _ = child.kill();
        let _ = child.wait();
        left = left.max(temp_files(t.root()).len());
    }
    eprintln!("a build takes {took} µs; at most {left} temporary files were left at once");
    t.corpus(&["build"]).assert_code(0);
    assert_eq!(temp_files(t.root()), Vec::<String>::new());
    let check = t.check(&["--strict"]);
    check.assert_code(0);
}

#[cfg(unix)]
#[test]
fn no_write_goes_through_a_symlinked_folder_below_the_root() {
    let elsewhere = crate::common::scratch();
    // stats/ as a link to another folder: the build refuses before writing.
    let t = Tree::valid_with_templates();
    std::os::unix::fs::symlink(elsewhere.path(), t.path("stats")).unwrap();
    let run = t.corpus(&["build"]);
    run.assert_code(2);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
    // corpus/papers as a link: the entries are read, but `new` writes nothing there.
    let t = Tree::valid();
    let papers = crate::common::scratch();
    crate::common::copy_tree(&t.path("corpus/papers"), papers.path());
    std::fs::remove_dir_all(t.path("corpus/papers")).unwrap();
    std::os::unix::fs::symlink(papers.path(), t.path("corpus/papers")).unwrap();
    let before = std::fs::read_dir(papers.path()).unwrap().count();
    let run = t.corpus(&["new", "fresh-entry"]);
    run.assert_code(2);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    assert_eq!(std::fs::read_dir(papers.path()).unwrap().count(), before);
    // Without links, both work.
    let t = Tree::valid_with_templates();
    t.corpus(&["build"]).assert_code(0);
    t.corpus(&["new", "fresh-entry"]).assert_code(0);
}

#[test]
fn a_key_too_long_to_name_a_file_is_refused_everywhere() {
    let fits = "k".repeat(128);
    let too_long = "k".repeat(129);
    for (key, fails) in [(&fits, false), (&too_long, true)] {
        let t = Tree::valid();
        let rel = format!("corpus/papers/{key}.yaml");
        t.write(&rel, t.read(valid::INDUSTRY).replace("harbor-ops", key));
        t.remove(valid::INDUSTRY);
        let run = t.check(&[]);
        assert_eq!(
            !run.of("key-format").is_empty(),
            fails,
            "{} characters: {}",
            key.len(),
            run.stdout
        );
        let new = t.corpus(&["new", &format!("{key}-2")]);
        assert_eq!(
            new.code,
            Some(2),
            "a key of {} is too long for new",
            key.len() + 2
        );
    }
    let t = Tree::valid();
    let run = t.corpus(&["new", &"n".repeat(128)]);
    run.assert_code(0);
    let run = t.corpus(&["new", &"m".repeat(129)]);
    run.assert_code(2);
    assert!(run.stderr.contains("at most 128"), "{}", run.stderr);
}

#[test]
fn import_refuses_a_key_too_long_to_name_a_file() {
    let t = Tree::valid();
    let papers = t.corpus(&["export", "--format", "csv"]);
    let too_long = "k".repeat(129);
    t.write(
        "in/papers.csv",
        papers
            .stdout
            .replace("harbor-ops,", &format!("{too_long},")),
    );
    let run = t.corpus(&["import", "--papers", "in/papers.csv", "--force"]);
    run.assert_code(1);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(said.contains("at most 128"), "{said}");
    assert!(!t.path(&format!("corpus/papers/{too_long}.yaml")).exists());
    // At the limit the row imports.
    let fits = "k".repeat(128);
    t.write(
        "in/papers.csv",
        papers.stdout.replace("harbor-ops,", &format!("{fits},")),
    );
    t.corpus(&["import", "--papers", "in/papers.csv", "--force"])
        .assert_code(0);
    assert!(t.path(&format!("corpus/papers/{fits}.yaml")).is_file());
}
