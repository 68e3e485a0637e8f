//! `corpus check` end to end on small corpora: the valid fixture, each bad
//! input a contributor can produce (one mutation of the valid fixture per
//! case), hostile files, and bad usage.

use crate::common::{run_in, valid, Tree};

// ---------------------------------------------------------------------------
// The valid fixture

#[test]
fn valid_fixture_passes_strict_check_with_no_diagnostics() {
    let t = Tree::valid();
    let run = t.check_strict();
    run.assert_code(0);
    assert_eq!(run.stdout, "", "json format prints diagnostics only");
}

#[test]
fn valid_fixture_human_summary_counts_entries_and_records() {
    let t = Tree::valid();
    let run = t.corpus(&["check", "--strict"]);
    run.assert_code(0);
    assert!(
        run.stdout
            .contains("checked 3 entries and 2 exclusion records: 0 errors, 0 warnings"),
        "{}",
        run.stdout
    );
}

#[test]
fn root_is_found_from_a_subdirectory_without_root_flag() {
    let t = Tree::valid();
    let run = run_in(
        &t.path("corpus/papers"),
        None,
        &["check", "--format", "json"],
    );
    run.assert_code(0);
    t.set(valid::METHOD, "reward_type", "shard");
    let run = run_in(
        &t.path("corpus/papers"),
        None,
        &["check", "--format", "json"],
    );
    run.assert_code(1);
    assert_eq!(run.single().file, valid::METHOD);
}

// ---------------------------------------------------------------------------
// The bad inputs a contributor is known to produce, one mutation each

#[test]
fn value_outside_the_taxonomy_is_an_error_suggesting_the_closest_value() {
    let t = Tree::valid();
    t.set(valid::METHOD, "reward_type", "shard");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "unknown-value");
    assert_eq!(d.severity, "error");
    assert_eq!(d.file, valid::METHOD);
    assert_eq!(d.line, Some(t.line_of(valid::METHOD, "reward_type:")));
    assert_eq!(d.column, Some("reward_type: ".len() + 1));
    assert_eq!(d.field.as_deref(), Some("reward_type"));
    assert!(d.message.contains("shard"), "{}", d.message);
    assert!(
        d.help.as_deref().unwrap_or("").contains("`shared`"),
        "{:?}",
        d.help
    );
}

#[test]
fn value_far_from_every_allowed_value_lists_the_allowed_values() {
    let t = Tree::valid();
    t.set(valid::METHOD, "scenario", "underwater-basket-weaving");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "unknown-value");
    let help = d.help.unwrap_or_default();
    assert!(
        help.contains("coding") && help.contains("general"),
        "{help}"
    );
}

#[test]
fn missing_required_field_is_an_error_naming_the_field() {
    let t = Tree::valid();
    t.delete_field(valid::METHOD, "venue");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "missing-field");
    assert_eq!(d.file, valid::METHOD);
    assert_eq!(d.field.as_deref(), Some("venue"));
    let arxiv_line = t
        .read(valid::METHOD)
        .lines()
        .position(|l| l.starts_with("arxiv_id:"))
        .map(|i| i + 1);
    assert_eq!(
        d.line, arxiv_line,
        "a missing field is reported where it belongs: after the field before it"
    );
    assert!(d.help.unwrap_or_default().contains("after line"));
}

#[test]
fn missing_tag_field_help_mentions_na() {
    let t = Tree::valid();
    t.delete_field(valid::INDUSTRY, "credit_granularity");
    let run = t.check(&[]);
    run.assert_code(1);
    let missing = run.of("missing-field");
    assert_eq!(missing.len(), 1, "{}", run.stdout);
    assert_eq!(missing[0].field.as_deref(), Some("credit_granularity"));
    assert!(missing[0].help.clone().unwrap_or_default().contains("NA"));
}

#[test]
fn missing_tag_field_does_not_also_fire_cross_field_rules() {
    let t = Tree::valid();
    t.delete_field(valid::INDUSTRY, "credit_granularity");
    assert_eq!(t.check(&[]).rules(), ["missing-field"]);
}

#[test]
fn yaml_that_does_not_parse_reports_the_parser_line_and_column() {
    let t = Tree::valid();
    // An unquoted `: ` inside a plain scalar is a YAML syntax error.
    t.set(valid::INDUSTRY, "venue", "Company blog: engineering");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "yaml-syntax");
    assert_eq!(d.file, valid::INDUSTRY);
    assert_eq!(d.line, Some(t.line_of(valid::INDUSTRY, "venue:")));
    assert_eq!(d.column, Some("venue: Company blog:".len()));
}

#[test]
fn unclosed_flow_list_is_a_syntax_error_located_in_the_file() {
    let t = Tree::valid();
    t.set(valid::METHOD, "subdecisions", "[o2_delegate");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "yaml-syntax");
    let line = d.line.expect("a parse error has a line");
    assert!(line >= t.line_of(valid::METHOD, "subdecisions:"), "{d:?}");
    assert!(d.column.is_some());
}

#[test]
fn key_that_differs_from_the_file_name_is_an_error() {
    let t = Tree::valid();
    t.set(valid::INDUSTRY, "key", "harbour-ops");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "key-mismatch");
    assert_eq!(d.file, valid::INDUSTRY);
    assert_eq!(d.line, Some(t.line_of(valid::INDUSTRY, "key:")));
    assert_eq!(d.field.as_deref(), Some("key"));
    assert!(d.help.unwrap_or_default().contains("harbor-ops"));
}

#[test]
fn record_id_that_differs_from_the_file_name_is_an_error() {
    let t = Tree::valid();
    t.set(valid::DOCS_RECORD, "record_id", "E003");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "key-mismatch");
    assert_eq!(d.file, valid::DOCS_RECORD);
    assert_eq!(d.field.as_deref(), Some("record_id"));
}

#[test]
fn two_entries_with_the_same_arxiv_id_are_an_error_on_the_second() {
    let t = Tree::valid();
    // The industry entry claims the method entry's arXiv id and links to it.
    t.replace(
        valid::INDUSTRY,
        "venue:",
        "arxiv_id: \"2503.01230\"\nvenue:",
    );
    t.replace(
        valid::INDUSTRY,
        "  - https://harbor.example.com/blog/agent-platform",
        "  - https://harbor.example.com/blog/agent-platform\n  - https://arxiv.org/abs/2503.01230v2",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let dups = run.of("duplicate-arxiv");
    assert_eq!(dups.len(), 1, "{}", run.stdout);
    let d = &dups[0];
    // Files are compared in name order: harbor-ops < relay-credit2025.
    assert_eq!(d.file, valid::METHOD);
    assert_eq!(d.line, Some(t.line_of(valid::METHOD, "arxiv_id:")));
    assert_eq!(d.field.as_deref(), Some("arxiv_id"));
    assert!(d.message.contains(valid::INDUSTRY), "{}", d.message);
}

#[test]
fn two_entries_with_the_same_url_are_an_error() {
    let t = Tree::valid();
    t.replace(
        valid::CLASSICAL,
        "https://example.org/papers/grid-foraging.pdf",
        "https://harbor.example.com/blog/agent-platform",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "duplicate-url");
    assert_eq!(d.file, valid::INDUSTRY);
    assert_eq!(
        d.line,
        Some(t.line_of(valid::INDUSTRY, "  - https://harbor.example.com"))
    );
    assert_eq!(d.field.as_deref(), Some("urls"));
    assert!(d.message.contains(valid::CLASSICAL), "{}", d.message);
}

#[test]
fn urls_differing_only_in_scheme_www_and_trailing_slash_are_duplicates() {
    let t = Tree::valid();
    t.replace(
        valid::CLASSICAL,
        "https://example.org/papers/grid-foraging.pdf",
        "http://www.harbor.example.com/blog/agent-platform/",
    );
    assert_eq!(t.check(&[]).rules(), ["duplicate-url"]);
}

#[test]
fn unquoted_arxiv_id_is_an_error_whose_help_keeps_the_trailing_zero() {
    let t = Tree::valid();
    // 2503.01230 unquoted is the number 2503.0123: the trailing zero is lost.
    t.set(valid::METHOD, "arxiv_id", "2503.01230");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "arxiv-unquoted");
    assert_eq!(d.file, valid::METHOD);
    assert_eq!(d.line, Some(t.line_of(valid::METHOD, "arxiv_id:")));
    assert_eq!(d.field.as_deref(), Some("arxiv_id"));
    let help = d.help.unwrap_or_default();
    assert!(help.contains("quote"), "{help}");
    assert!(help.contains("\"2503.01230\""), "{help}");
}

#[test]
fn unquoted_arxiv_id_is_flagged_with_its_trailing_zero_kept_in_the_help() {
    let t = Tree::valid();
    t.set(valid::METHOD, "arxiv_id", "2510.20510");
    t.replace(
        valid::METHOD,
        "https://arxiv.org/abs/2503.01230",
        "https://arxiv.org/abs/2510.20510",
    );
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "arxiv-unquoted");
    assert!(d.help.unwrap_or_default().contains("\"2510.20510\""));
    assert!(d.message.contains("2510.2051"), "{}", d.message);
}

#[test]
fn excluded_record_that_is_also_retained_is_an_error_on_the_record() {
    let t = Tree::valid();
    t.set(valid::ARXIV_RECORD, "identifier", "arXiv:2503.01230");
    t.set(
        valid::ARXIV_RECORD,
        "url",
        "https://arxiv.org/abs/2503.01230",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "excluded-retained");
    assert_eq!(d.file, valid::ARXIV_RECORD);
    assert_eq!(d.line, Some(t.line_of(valid::ARXIV_RECORD, "identifier:")));
    assert_eq!(d.field.as_deref(), Some("identifier"));
    assert!(d.message.contains(valid::METHOD), "{}", d.message);
}

#[test]
fn excluded_record_matching_a_retained_title_is_caught_despite_case_and_punctuation() {
    let t = Tree::valid();
    t.set(
        valid::DOCS_RECORD,
        "title",
        "\"harbor ops - agent platform\"",
    );
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "excluded-retained");
    assert_eq!(d.field.as_deref(), Some("title"));
}

#[test]
fn url_that_is_not_http_is_an_error_on_its_list_item() {
    let t = Tree::valid();
    t.replace(
        valid::INDUSTRY,
        "https://harbor.example.com/blog/agent-platform",
        "ftp://harbor.example.com/agent-platform",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "url-scheme");
    assert_eq!(d.file, valid::INDUSTRY);
    assert_eq!(d.line, Some(t.line_of(valid::INDUSTRY, "  - ftp://")));
    assert_eq!(d.field.as_deref(), Some("urls"));
}

#[test]
fn javascript_url_on_an_exclusion_record_is_an_error() {
    let t = Tree::valid();
    t.set(valid::DOCS_RECORD, "url", "javascript:alert(1)");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "url-scheme");
    assert_eq!(d.file, valid::DOCS_RECORD);
    assert_eq!(d.field.as_deref(), Some("url"));
}

#[test]
fn screening_date_after_the_cutoff_is_an_error() {
    let t = Tree::valid();
    t.set(valid::DOCS_RECORD, "date_screened", "\"2026-05-05\"");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "date-after-cutoff");
    assert_eq!(d.file, valid::DOCS_RECORD);
    assert_eq!(
        d.line,
        Some(t.line_of(valid::DOCS_RECORD, "date_screened:"))
    );
    assert_eq!(d.field.as_deref(), Some("date_screened"));
    assert!(d.message.contains("2026-05-04"), "{}", d.message);
}

#[test]
fn misspelt_field_is_an_unknown_field_not_silently_ignored() {
    let t = Tree::valid();
    t.replace(valid::INDUSTRY, "\nvenue:", "\nvenu:");
    let run = t.check(&[]);
    run.assert_code(1);
    let unknown = run.of("unknown-field");
    assert_eq!(unknown.len(), 1, "{}", run.stdout);
    let d = &unknown[0];
    assert_eq!(d.file, valid::INDUSTRY);
    assert_eq!(d.line, Some(t.line_of(valid::INDUSTRY, "venu:")));
    assert_eq!(d.field.as_deref(), Some("venu"));
    assert!(d.help.as_deref().unwrap_or("").contains("`venue`"));
    // …and the field it was meant to be is then missing.
    assert_eq!(run.of("missing-field").len(), 1);
}

#[test]
fn unknown_field_on_an_exclusion_record_is_an_error() {
    let t = Tree::valid();
    t.append(valid::DOCS_RECORD, "reviewer: someone\n");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "unknown-field");
    assert_eq!(d.file, valid::DOCS_RECORD);
    assert_eq!(d.field.as_deref(), Some("reviewer"));
}

// ---------------------------------------------------------------------------
// Empty values of required fields

#[test]
fn blank_required_text_is_an_empty_field_error() {
    let t = Tree::valid();
    t.set(valid::CLASSICAL, "title", "\"   \"");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "empty-field");
    assert_eq!(d.field.as_deref(), Some("title"));
    assert_eq!(d.line, Some(t.line_of(valid::CLASSICAL, "title:")));
}

#[test]
fn required_field_without_a_value_is_a_missing_field_error() {
    let t = Tree::valid();
    t.set(valid::CLASSICAL, "title", "");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "missing-field");
    assert_eq!(d.field.as_deref(), Some("title"));
    assert_eq!(d.line, Some(t.line_of(valid::CLASSICAL, "title:")));
}

#[test]
fn empty_quoted_title_is_an_error() {
    let t = Tree::valid();
    t.set(valid::CLASSICAL, "title", "\"\"");
    let run = t.check(&[]);
    run.assert_code(1);
    assert_eq!(run.single().field.as_deref(), Some("title"));
}

#[test]
fn empty_quoted_key_is_an_error() {
    let t = Tree::valid();
    t.set(valid::CLASSICAL, "key", "\"\"");
    let run = t.check(&[]);
    run.assert_code(1);
    assert!(
        run.diags()
            .iter()
            .any(|d| d.field.as_deref() == Some("key")),
        "{}",
        run.stdout
    );
}

#[test]
fn blank_exclusion_reason_and_title_are_errors() {
    let t = Tree::valid();
    t.set(valid::DOCS_RECORD, "reason", "\"\"");
    t.set(valid::ARXIV_RECORD, "title", "\"   \"");
    let run = t.check(&[]);
    run.assert_code(1);
    let mut fields: Vec<String> = run.diags().into_iter().filter_map(|d| d.field).collect();
    fields.sort();
    assert_eq!(fields, ["reason", "title"]);
}

// ---------------------------------------------------------------------------
// Hostile and broken files

#[test]
fn empty_file_is_refused_cleanly() {
    let t = Tree::valid();
    t.write("corpus/papers/empty.yaml", "");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "file-unreadable");
    assert_eq!(d.file, "corpus/papers/empty.yaml");
}

#[test]
fn whitespace_only_file_is_refused_as_empty() {
    let t = Tree::valid();
    t.write("exclusions/E003.yaml", "\n   \n\n");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "file-unreadable");
    assert_eq!(d.file, "exclusions/E003.yaml");
}

#[test]
fn file_of_only_comments_is_refused() {
    let t = Tree::valid();
    t.write(
        "corpus/papers/todo.yaml",
        "# TODO: fill in this entry\n# key: todo\n",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "file-unreadable");
    assert_eq!(d.file, "corpus/papers/todo.yaml");
}

#[test]
fn binary_file_is_refused_as_invalid_utf8_with_its_line() {
    let t = Tree::valid();
    t.write(
        "corpus/papers/blob.yaml",
        b"key: blob\ntitle: \xff\xfe\x00\x01\x89PNG\n".as_slice(),
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "file-unreadable");
    assert_eq!(d.file, "corpus/papers/blob.yaml");
    assert_eq!(d.line, Some(2));
}

#[test]
fn file_over_max_file_size_is_refused_and_one_at_the_limit_is_read() {
    let t = Tree::valid();
    // The limit applies to every data file, the taxonomy included, so it is
    // set above the taxonomy's size.
    let limit = std::fs::metadata(t.path("corpus/taxonomy.yaml"))
        .unwrap()
        .len() as usize
        + 100;
    let limit_arg = limit.to_string();
    let entry = t.read(valid::CLASSICAL);
    let padded = |size: usize| format!("{entry}#{}\n", "x".repeat(size - entry.len() - 2));

    t.write(valid::CLASSICAL, padded(limit));
    let run = t.corpus(&[
        "--max-file-size",
        &limit_arg,
        "check",
        "--strict",
        "--format",
        "json",
    ]);
    run.assert_code(0);

    t.write(valid::CLASSICAL, padded(limit + 1));
    let run = t.corpus(&["--max-file-size", &limit_arg, "check", "--format", "json"]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "file-unreadable");
    assert_eq!(d.file, valid::CLASSICAL);
    assert!(d.help.unwrap_or_default().contains("--max-file-size"));
}

#[test]
fn file_over_the_default_four_mebibyte_limit_is_refused() {
    let t = Tree::valid();
    let mut big = t.read(valid::CLASSICAL);
    big.push('#');
    big.push_str(&"x".repeat(4 * 1024 * 1024));
    big.push('\n');
    t.write(valid::CLASSICAL, big);
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "file-unreadable");
    assert_eq!(d.file, valid::CLASSICAL);
}

#[test]
fn taxonomy_over_max_file_size_fails_the_check() {
    let t = Tree::valid();
    let run = t.corpus(&["--max-file-size", "100", "check", "--format", "json"]);
    // No usable taxonomy: the check could not run.
    run.assert_code(2);
    let d = run.single();
    assert_eq!(d.rule, "file-unreadable");
    assert_eq!(d.file, "corpus/taxonomy.yaml");
}

/// "Billion laughs": nine levels of nine aliases each expand to 9^9 strings.
fn alias_bomb() -> String {
    let mut s = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for w in names.windows(2) {
        let refs = vec![format!("*{}", w[0]); 9].join(",");
        s.push_str(&format!("{}: &{} [{refs}]\n", w[1], w[1]));
    }
    s
}

#[test]
fn yaml_alias_bomb_ends_with_a_diagnostic() {
    let t = Tree::valid();
    t.write("corpus/papers/lol.yaml", alias_bomb());
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "yaml-syntax");
    assert_eq!(d.file, "corpus/papers/lol.yaml");
}

#[test]
fn self_referencing_alias_is_a_syntax_error() {
    let t = Tree::valid();
    t.write("corpus/papers/ouroboros.yaml", "key: &k [*k]\n");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "yaml-syntax");
    assert_eq!(d.file, "corpus/papers/ouroboros.yaml");
}

#[test]
fn deep_nesting_ends_with_a_diagnostic() {
    let t = Tree::valid();
    t.write(
        "corpus/papers/deep.yaml",
        format!("key: {}\n", "[".repeat(10_000)),
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "yaml-syntax");
    assert_eq!(d.file, "corpus/papers/deep.yaml");
    assert_eq!(d.line, Some(1));
}

#[test]
fn deep_block_nesting_ends_with_a_diagnostic() {
    let t = Tree::valid();
    let mut s = String::from("key: deep\nnotes:\n");
    for i in 1..1_000 {
        s.push_str(&" ".repeat(i));
        s.push_str("n:\n");
    }
    t.write("corpus/papers/deep.yaml", s);
    let run = t.check(&[]);
    run.assert_code(1);
    assert!(
        run.diags()
            .iter()
            .all(|d| d.file == "corpus/papers/deep.yaml"),
        "{}",
        run.stdout
    );
    // Said as what it is: nesting, not anchors or aliases the file lacks.
    let d = run.single();
    assert!(d.message.contains("nest deeper than 128 levels"), "{d:?}");
    assert!(!d.message.contains("alias"), "{d:?}");
}

#[test]
fn tabs_for_indentation_are_a_syntax_error_with_help() {
    let t = Tree::valid();
    t.replace(
        valid::INDUSTRY,
        "  - https://harbor.example.com",
        "\t- https://harbor.example.com",
    );
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "yaml-syntax");
    assert_eq!(d.file, valid::INDUSTRY);
    assert_eq!(d.line, Some(t.line_of(valid::INDUSTRY, "\t- https://")));
    assert!(d.help.unwrap_or_default().contains("spaces"));
}

#[test]
fn duplicate_field_in_one_file_is_an_error_at_the_second_occurrence() {
    let t = Tree::valid();
    t.append(valid::INDUSTRY, "scenario: web\n");
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "duplicate-field");
    assert_eq!(d.file, valid::INDUSTRY);
    assert_eq!(d.field.as_deref(), Some("scenario"));
    let last = t.read(valid::INDUSTRY).lines().count();
    assert_eq!(d.line, Some(last));
}

#[test]
fn directory_named_like_an_entry_is_refused() {
    let t = Tree::valid();
    std::fs::create_dir(t.path("corpus/papers/x.yaml")).unwrap();
    let run = t.check(&[]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "file-unreadable");
    assert_eq!(d.file, "corpus/papers/x.yaml");
}

#[cfg(unix)]
#[test]
fn symlink_loop_is_refused() {
    let t = Tree::valid();
    std::os::unix::fs::symlink("loop.yaml", t.path("corpus/papers/loop.yaml")).unwrap();
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "file-unreadable");
    assert_eq!(d.file, "corpus/papers/loop.yaml");
}

#[test]
fn stray_non_yaml_file_is_a_warning_that_fails_only_under_strict() {
    let t = Tree::valid();
    t.write(
        "corpus/papers/notes.txt",
        "remember to add the 2026 papers\n",
    );
    let run = t.check(&[]);
    run.assert_code(0);
    let d = run.single();
    assert_eq!(d.rule, "stray-file");
    assert_eq!(d.severity, "warning");
    assert_eq!(d.file, "corpus/papers/notes.txt");
    t.check_strict().assert_code(1);
}

#[test]
fn yml_extension_is_a_stray_file_whose_help_says_rename() {
    let t = Tree::valid();
    t.rename(valid::CLASSICAL, "corpus/papers/grid-foraging1999.yml");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "stray-file");
    assert!(d
        .help
        .unwrap_or_default()
        .contains("grid-foraging1999.yaml"));
}

#[test]
fn utf8_bom_and_crlf_line_endings_are_accepted() {
    let t = Tree::valid();
    for rel in [valid::INDUSTRY, valid::DOCS_RECORD] {
        let text = t.read(rel).replace('\n', "\r\n");
        let mut bytes = vec![0xef, 0xbb, 0xbf];
        bytes.extend_from_slice(text.as_bytes());
        t.write(rel, bytes);
    }
    let run = t.check_strict();
    run.assert_code(0);
    assert_eq!(run.stdout, "");
}

#[test]
fn bom_and_crlf_file_still_reports_correct_lines() {
    let t = Tree::valid();
    let text = t
        .read(valid::METHOD)
        .replace("reward_type: shared", "reward_type: shard")
        .replace('\n', "\r\n");
    t.write(valid::METHOD, format!("\u{feff}{text}"));
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "unknown-value");
    assert_eq!(d.line, Some(t.line_of(valid::METHOD, "reward_type:")));
    assert_eq!(d.column, Some("reward_type: ".len() + 1));
}

#[test]
fn top_level_list_is_refused_as_not_a_mapping() {
    let t = Tree::valid();
    t.write("corpus/papers/list.yaml", "- key: list\n- title: A list\n");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "yaml-syntax");
    assert_eq!(d.file, "corpus/papers/list.yaml");
}

#[test]
fn several_yaml_documents_in_one_file_are_refused() {
    let t = Tree::valid();
    t.write("corpus/papers/two.yaml", "key: two\n---\nkey: three\n");
    let d = t.check(&[]).single();
    assert_eq!(d.rule, "yaml-syntax");
    assert_eq!(d.file, "corpus/papers/two.yaml");
}

#[test]
fn hidden_files_in_data_folders_are_ignored() {
    let t = Tree::valid();
    t.write("corpus/papers/.gitkeep", "");
    t.write("exclusions/.DS_Store", b"\x00\x01binary".as_slice());
    let run = t.check_strict();
    run.assert_code(0);
    assert_eq!(run.stdout, "");
}

#[test]
fn broken_files_do_not_hide_problems_in_other_files() {
    let t = Tree::valid();
    t.write("corpus/papers/empty.yaml", "");
    t.write("corpus/papers/lol.yaml", alias_bomb());
    t.set(valid::METHOD, "reward_type", "shard");
    t.set(valid::DOCS_RECORD, "date_screened", "\"2026-05-05\"");
    let run = t.check(&[]);
    run.assert_code(1);
    let mut got: Vec<(String, String)> =
        run.diags().into_iter().map(|d| (d.file, d.rule)).collect();
    got.sort();
    let want = [
        ("corpus/papers/empty.yaml", "file-unreadable"),
        ("corpus/papers/lol.yaml", "yaml-syntax"),
        (valid::METHOD, "unknown-value"),
        (valid::DOCS_RECORD, "date-after-cutoff"),
    ];
    let mut want: Vec<(String, String)> = want
        .iter()
        .map(|(f, r)| (f.to_string(), r.to_string()))
        .collect();
    want.sort();
    assert_eq!(got, want);
}

// ---------------------------------------------------------------------------
// Bad usage: exit 2, a message on stderr, nothing on stdout

#[test]
fn unknown_flag_exits_2() {
    let t = Tree::valid();
    let run = t.corpus(&["check", "--no-such-flag"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--no-such-flag"), "{}", run.stderr);
    assert_eq!(run.stdout, "");
}

#[test]
fn unknown_format_exits_2() {
    let t = Tree::valid();
    let run = t.corpus(&["check", "--format", "xml"]);
    run.assert_code(2);
    assert_eq!(run.stdout, "");
}

#[test]
fn root_that_does_not_exist_exits_2() {
    let t = Tree::empty();
    let missing = t.path("no-such-dir");
    let run = run_in(t.root(), Some(&missing), &["check"]);
    run.assert_code(2);
    assert!(run.stderr.contains("no-such-dir"), "{}", run.stderr);
    assert_eq!(run.stdout, "");
}

#[test]
fn root_without_a_taxonomy_exits_2() {
    let t = Tree::empty();
    t.write("corpus/papers/a.yaml", "key: a\n");
    let run = t.corpus(&["check"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("corpus/taxonomy.yaml"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
}

#[test]
fn no_root_found_from_the_working_directory_exits_2() {
    let t = Tree::empty();
    let run = run_in(t.root(), None, &["check"]);
    run.assert_code(2);
    assert!(run.stderr.contains("--root"), "{}", run.stderr);
}

#[test]
fn broken_taxonomy_fails_with_a_diagnostic_not_a_crash() {
    let t = Tree::valid();
    t.write("corpus/taxonomy.yaml", "na: NA\ncategory: [\n");
    let run = t.check(&[]);
    // Nothing can be checked without a taxonomy: the run could not happen.
    run.assert_code(2);
    let d = run.single();
    assert_eq!(d.rule, "yaml-syntax");
    assert_eq!(d.file, "corpus/taxonomy.yaml");
}
