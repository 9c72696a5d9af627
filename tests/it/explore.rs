//! The explicit-state search (`--engines explore`, and by default before the bounded search's
//! round 1): the violations it reports are replayed executions, it passes over failures that
//! rest on an over-approximation, it never proves, and it adds threads in rounds.

use crate::common;

use common::{duet, texts};
use serde_json::Value;

/// `check --format json` with `args`: the assertions of the only task.
fn assertions(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["check", "--format", "json", "--no-progress"];
    all.extend_from_slice(args);
    let out = duet(&all);
    let (stdout, stderr) = texts(&out);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\n{stderr}"));
    v["tasks"][0]["assertions"].as_array().cloned().unwrap_or_default()
}

fn status(a: &Value) -> &str {
    a["status"].as_str().unwrap_or("?")
}

fn text<'a>(a: &'a Value, field: &str) -> &'a str {
    a[field].as_str().unwrap_or("")
}

/// One interleaving out of many reaches the failure, and the bounded search's formula for it
/// is hard (SV-COMP's triangular-longer took the whole budget at bound 1): the default check
/// finds it through the explicit-state search, and so does that engine alone.
#[test]
fn the_one_failing_interleaving_of_two_counted_loops_is_found() {
    for args in [vec!["--search-time", "60"], vec!["--engines", "explore", "--search-time", "60"]] {
        let mut all = args.clone();
        all.push("tests/programs/explore/alternation_bug.c");
        let a = assertions(&all);
        assert_eq!(a.len(), 1);
        assert_eq!(status(&a[0]), "violated", "{args:?}: {a:?}");
        assert_eq!(a[0]["engine"], "explore", "{args:?}: {a:?}");
        assert!(text(&a[0], "detail").contains("<- fails"), "a replayed interleaving: {a:?}");
        // Strict alternation: each thread's ten raises are in the witness.
        assert_eq!(text(&a[0], "detail").matches("i := j + 1").count(), 10, "{a:?}");
    }
}

/// The twin: 26 is the most either value reaches, so 27 is never reached. The search explores
/// every state and finds nothing, which proves nothing: the answer is not `violated`, and the
/// engine alone leaves it `unknown`.
#[test]
fn the_search_never_reports_what_no_interleaving_reaches() {
    let a = assertions(&["--engines", "explore", "--stats", "tests/programs/explore/alternation_ok.c"]);
    assert_eq!(status(&a[0]), "unknown", "{a:?}");
    let a = assertions(&["tests/programs/explore/alternation_ok.c"]);
    assert_ne!(status(&a[0]), "violated", "{a:?}");
}

/// A failure reached only through the havoc of an undefined function is no execution of the
/// program: the search passes over it.
#[test]
fn a_failure_resting_on_an_approximation_is_not_reported() {
    let a = assertions(&["--engines", "explore", "tests/programs/explore/rests_on_unknown_call.c"]);
    assert_eq!(status(&a[0]), "unknown", "{a:?}");
}

/// A loop creates 100 threads and three of them lose an update: the rounds of one, two, then
/// three threads per template find it without the states of all hundred.
#[test]
fn threads_are_added_in_rounds() {
    let a = assertions(&["--engines", "explore", "--search-time", "60", "tests/programs/explore/many_threads_lost_update.c"]);
    assert_eq!(status(&a[0]), "violated", "{a:?}");
    let detail = text(&a[0], "detail");
    assert!(detail.contains("<- fails"), "{a:?}");
    assert!(detail.contains("=> T3") && !detail.contains("=> T4"), "three threads run: {detail}");
}

/// The same input gives the same witness, whatever the worker count.
#[test]
fn the_search_is_deterministic() {
    let run = |workers: &str| {
        let a = assertions(&["--engines", "explore", "--workers", workers, "tests/programs/explore/alternation_bug.c"]);
        (status(&a[0]).to_string(), text(&a[0], "detail").to_string())
    };
    let one = run("1");
    assert_eq!(one.0, "violated");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("1"));
}

/// The failure needs an input outside 0 and 1 (a worker count between 12 and 30) and one
/// thread behind a dozen identical ones: sampled runs, with inputs from the program's
/// constants, reach it, alone and by default.
#[test]
fn sampled_runs_find_what_needs_a_larger_input_and_many_threads() {
    for args in [vec!["--engines", "explore", "--search-time", "60"], vec!["--search-time", "60"]] {
        let mut all = args.clone();
        all.push("tests/programs/explore/input_count_bug.c");
        let a = assertions(&all);
        assert_eq!(status(&a[0]), "violated", "{args:?}: {a:?}");
        assert!(text(&a[0], "reason").contains("sampled run"), "{args:?}: {a:?}");
        let detail = text(&a[0], "detail");
        assert!(detail.contains("<- fails"), "a replayed interleaving: {detail}");
        // Every worker is done before the checker reads the count.
        assert!(detail.matches("done := ").count() >= 12, "{detail}");
    }
}

/// The twin: no more workers finish than were created. The sampled runs spend their budget
/// and report nothing; the search alone proves nothing either.
#[test]
fn sampled_runs_never_report_what_no_run_reaches() {
    let a = assertions(&["--engines", "explore", "--search-time", "3", "--stats", "tests/programs/explore/input_count_ok.c"]);
    assert_eq!(status(&a[0]), "unknown", "{a:?}");
    let a = assertions(&["--search-time", "5", "tests/programs/explore/input_count_ok.c"]);
    assert_ne!(status(&a[0]), "violated", "{a:?}");
}
