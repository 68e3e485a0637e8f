//! Names checked as names: a data file whose name is not UTF-8 is reported
//! by every command that walks the data (`check` and `fmt`), and titles
//! that differ only in Unicode normalisation are duplicates.

use crate::common::{valid, Tree};

/// The valid tree plus a copy of an entry under a name that is not UTF-8
/// (`caf\xe9.yaml`, Latin-1 for "café").
#[cfg(unix)]
fn with_a_latin1_name() -> Tree {
    use std::os::unix::ffi::OsStrExt;
    let t = Tree::valid();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.yaml");
    std::fs::write(t.path("corpus/papers").join(name), t.read(valid::INDUSTRY)).unwrap();
    t
}

#[cfg(unix)]
#[test]
fn a_name_that_is_not_utf8_is_reported_by_check_and_fmt() {
    let t = with_a_latin1_name();
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.of("file-name-encoding");
    assert_eq!(d.len(), 1, "{}", run.stdout);
    assert!(d[0].file.starts_with("corpus/papers/caf"), "{}", d[0].file);
    // The file is not read as data, so it is not also a duplicate.
    assert!(run.of("duplicate-key").is_empty(), "{}", run.stdout);
    for args in [&["fmt", "--check"][..], &["fmt"]] {
        let run = t.corpus(args);
        run.assert_code(1);
        assert!(
            run.stderr.contains("not valid UTF-8"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            run.stdout.contains("1 could not be formatted"),
            "{}",
            run.stdout
        );
    }
}

#[test]
fn utf8_names_raise_no_encoding_problem() {
    let t = Tree::valid();
    t.write("corpus/papers/café.txt", "notes");
    let run = t.check(&[]);
    assert!(run.of("file-name-encoding").is_empty(), "{}", run.stdout);
    assert_eq!(run.of("stray-file").len(), 1, "{}", run.stdout);
    t.remove("corpus/papers/café.txt");
    t.corpus(&["fmt", "--check"]).assert_code(0);
}

#[test]
fn titles_in_two_unicode_normal_forms_are_duplicates() {
    let t = Tree::valid();
    let composed = "R\u{f6}le-Play Agents";
    let decomposed = "Ro\u{308}le-play agents";
    t.set(valid::INDUSTRY, "title", composed);
    t.set(valid::CLASSICAL, "title", decomposed);
    let run = t.check(&[]);
    assert_eq!(run.of("duplicate-title").len(), 1, "{}", run.stdout);
    // Other letters are another title.
    t.set(valid::CLASSICAL, "title", "Role-play agents");
    assert!(t.check(&[]).of("duplicate-title").is_empty());
}
