//! `corpus verify` against arXiv's own recorded answers: a malformed id in a
//! batch (HTTP 400 with an Atom error entry) and withdrawal read from
//! arXiv's notice, not from a word in the comment.

use crate::common::server::{Reply, Request, Server};
use crate::common::{self, valid, Tree};
use crate::recorded::{self, fixture};

const BAD: &str = "hep-zz/0601001";

/// The fixture tree with its arXiv entry turned into arXiv 1605.08386 as
/// recorded, and a second entry whose id arXiv refuses.
fn tree() -> Tree {
    let t = Tree::valid();
    t.set(valid::METHOD, "arxiv_id", "\"1605.08386\"");
    t.set(
        valid::METHOD,
        "title",
        "Heat-bath random walks with Markov bases",
    );
    t.set(valid::METHOD, "first_author", "Stanley, Caprice");
    t.replace(
        valid::METHOD,
        "  - Okafor, Ada\n  - Quist, Ben",
        "  - Stanley, Caprice\n  - Windisch, Tobias",
    );
    t.set(valid::METHOD, "year", "2016");
    let second = t
        .read(valid::METHOD)
        .replace("relay-credit2025", "relay-two2025")
        .replace("\"1605.08386\"", &format!("\"{BAD}\""));
    t.write("corpus/papers/relay-two2025.yaml", second);
    t
}

fn verify(t: &Tree, server: &Server, more: &[&str]) -> common::Run {
    let api = server.url("/api/query");
    let mut args = vec!["verify", "--arxiv-api", &api, "--pause", "0"];
    args.extend_from_slice(more);
    t.corpus(&args)
}

#[test]
fn a_refused_id_reports_arxivs_message_and_the_rest_of_the_batch_is_verified() {
    let t = tree();
    let server = recorded::arxiv(&[("1605.08386", "1605.08386.xml")], &[BAD]);
    let run = verify(&t, &server, &["--format", "json", "--write"]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "arxiv-not-found");
    assert_eq!(d.file, "corpus/papers/relay-two2025.yaml");
    assert!(
        d.message
            .contains(&format!("arXiv says: incorrect id format for {BAD}")),
        "{}",
        d.message
    );
    // The batch was asked again without the refused id, and the entry that
    // agrees with arXiv got its date.
    let targets: Vec<String> = server.hits().iter().map(|h| h.target.clone()).collect();
    assert_eq!(targets.len(), 2, "{targets:?}");
    assert!(targets[0].contains(&format!("id_list=1605.08386,{BAD}&")));
    assert!(targets[1].contains("id_list=1605.08386&"), "{targets:?}");
    assert!(t.read(valid::METHOD).contains("arxiv_verified_on:"));
    assert!(!t
        .read("corpus/papers/relay-two2025.yaml")
        .contains("arxiv_verified_on:"));
}

#[test]
fn a_refusal_naming_no_id_of_the_batch_is_narrowed_down_by_halves() {
    let t = tree();
    // arXiv's recorded 400 as sent, naming `abc`: no id of the batch.
    let good = fixture("arxiv/1605.08386.xml");
    let refusal = fixture("arxiv/400-abc.xml");
    let server = Server::start(move |r: &Request| {
        if r.query.contains(BAD) {
            Reply::Send {
                status: 400,
                headers: Vec::new(),
                body: refusal.clone(),
            }
        } else {
            Reply::body("application/atom+xml", &good)
        }
    });
    let run = verify(&t, &server, &["--format", "json"]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.file, "corpus/papers/relay-two2025.yaml");
    assert!(
        d.message
            .contains("arXiv says: incorrect id format for abc"),
        "{}",
        d.message
    );
    assert_eq!(server.hits().len(), 3, "the batch, then each half");
}

#[test]
fn withdrawal_is_arxivs_notice_not_a_word_in_the_comment() {
    let t = tree();
    t.remove("corpus/papers/relay-two2025.yaml");
    let mentions = recorded::arxiv(&[("1605.08386", "1605.08386-mentions-withdrawn.xml")], &[]);
    verify(&t, &mentions, &[]).assert_code(0);

    let withdrawn = recorded::arxiv(&[("1605.08386", "1605.08386-withdrawn.xml")], &[]);
    let run = verify(&t, &withdrawn, &["--format", "json"]);
    run.assert_code(1);
    let d = run.single();
    assert_eq!(d.rule, "arxiv-withdrawn");
    assert!(d.message.contains("1605.08386"), "{}", d.message);
}
