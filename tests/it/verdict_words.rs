//! What a verdict says about itself: the engine that decided it, dead code apart from an
//! infeasible failing branch, proofs under a user's `--rules`, and labels that agree across
//! formats.

use crate::common;

use serde_json::Value;

fn json_of(args: &[&str]) -> (Value, String) {
    let o = common::duet(args);
    let (out, err) = common::texts(&o);
    let r: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (r, out)
}

/// The built-in rules with every `may_flow` rule deleted, written to a fresh directory.
fn rules_without_may_flow(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("duet-verdict-words-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(common::duet(&["rules", "--write", dir.to_str().unwrap()]).status.code(), Some(0));
    let file = dir.join("interference.dl");
    let text = std::fs::read_to_string(&file).unwrap();
    let edited: String = text.lines().filter(|l| !l.starts_with("may_flow(")).map(|l| format!("{l}\n")).collect();
    assert_ne!(edited, text);
    std::fs::write(&file, edited).unwrap();
    file
}

const RACY: &str = "tests/programs/verdict_words/racy_counter.c";

/// Under rules that lose every inter-thread flow, COARSEN "proves" a racy counter; the proof
/// says it rests on those rules, in every format, and the other engines still find the race.
#[test]
fn a_proof_under_custom_rules_says_so_and_does_not_stop_the_search() {
    let rules = rules_without_may_flow("proof");
    let r = rules.to_str().unwrap();

    // COARSEN alone: `safe`, but not plain safe.
    let (j, out) = json_of(&["check", "--engines", "coarsen", "--rules", r, "--format", "json", RACY]);
    let v = &j["tasks"][0]["assertions"][0];
    assert_eq!(v["status"], "safe", "{out}");
    assert_eq!(v["rules"], "custom", "{out}");
    assert_eq!(v["engine"], "coarsen", "{out}");
    assert!(v["reason"].as_str().unwrap().starts_with(&format!("safe under custom rules {r}")), "{out}");
    let o = common::duet(&["check", "--engines", "coarsen", "--rules", r, RACY]);
    let (text, _) = common::texts(&o);
    assert!(text.contains("safe (custom rules)  'count == 1'"), "{text}");
    let o = common::duet(&["check", "--engines", "coarsen", "--rules", r, "--format", "sarif", RACY]);
    let (sarif, _) = common::texts(&o);
    let s: Value = serde_json::from_str(&sarif).unwrap();
    let results = s["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{sarif}");
    assert_eq!(results[0]["ruleId"], "DUET005", "{sarif}");
    assert!(results[0]["message"]["text"].as_str().unwrap().contains("is safe under custom rules"), "{sarif}");
    let w = std::env::temp_dir().join(format!("duet-verdict-words-w-{}.yml", std::process::id()));
    let o = common::duet(&["check", "--engines", "coarsen", "--rules", r, "--witness", w.to_str().unwrap(), RACY]);
    assert_eq!(o.status.code(), Some(0), "{:?}", common::texts(&o));
    let witness = std::fs::read_to_string(&w).unwrap();
    assert!(witness.contains(&format!("configuration: \"coarsen under custom rules {r}\"")), "{witness}");
    let _ = std::fs::remove_file(&w);

    // The default engines: the explicit-state and bounded searches still run, and their
    // replayed violation stands over the proof.
    for engines in ["coarsen,explore", "coarsen,bounded", "coarsen,finite,explore,bounded"] {
        let (j, out) = json_of(&["check", "--engines", engines, "--rules", r, "--search-time", "20", "--format", "json", RACY]);
        let v = &j["tasks"][0]["assertions"][0];
        assert_eq!(v["status"], "violated", "{engines}: {out}");
        assert_eq!(v["rules"], "built-in", "{engines}: {out}");
        assert!(["explore", "bounded", "sequential"].contains(&v["engine"].as_str().unwrap()), "{engines}: {out}");
        assert_eq!(j["tasks"][0]["exit_code"], 10, "{out}");
    }
    let _ = std::fs::remove_dir_all(rules.parent().unwrap());
}

/// Dead code reads `safe (unreachable)`; a reached assertion whose failing branch no thread
/// takes reads as before.
#[test]
fn unreachable_assertions_are_told_apart_from_infeasible_failing_branches() {
    let file = "tests/programs/verdict_words/dead_and_infeasible.c";
    let (j, out) = json_of(&["check", "--engines", "coarsen", "--format", "json", file]);
    let vs = j["tasks"][0]["assertions"].as_array().unwrap();
    assert_eq!(vs.len(), 2, "{out}");
    // `assert(f < 0)` under `if (f > 10)`: f is 0 or 1, so no thread enters the branch.
    assert_eq!(vs[0]["status"], "safe", "{out}");
    assert_eq!(vs[0]["unreachable"], true, "{out}");
    assert_eq!(vs[0]["engine"], "coarsen", "{out}");
    assert_eq!(vs[0]["why"]["scope"], "every-thread-count", "{out}");
    // `assert(f <= 1)` is reached and holds: its failing branch is infeasible.
    assert_eq!(vs[1]["status"], "safe", "{out}");
    assert_eq!(vs[1]["unreachable"], false, "{out}");
    assert!(vs[1]["reason"].as_str().unwrap().contains("failing branch is infeasible"), "{out}");
    let o = common::duet(&["check", "--engines", "coarsen", file]);
    let (text, _) = common::texts(&o);
    assert!(text.contains("safe (unreachable)  'f < 0'"), "{text}");
    assert!(!text.contains("safe (unreachable)  'f <= 1'"), "{text}");
}

/// Every decided verdict names its engine, in JSON and on the text report's verdict line.
#[test]
fn each_verdict_names_its_deciding_engine() {
    let (j, out) = json_of(&["check", "--engines", "explore", "--search-time", "20", "--format", "json", RACY]);
    let v = &j["tasks"][0]["assertions"][0];
    assert_eq!(v["status"], "violated", "{out}");
    assert_eq!(v["engine"], "explore", "{out}");
    let (j, out) = json_of(&["check", "--engines", "coarsen", "--format", "json", RACY]);
    let v = &j["tasks"][0]["assertions"][0];
    assert_eq!(v["status"], "unknown", "{out}");
    assert_eq!(v["engine"], Value::Null, "{out}");
    let o = common::duet(&["check", "--engines", "bounded", "--bound", "2", RACY]);
    let (text, _) = common::texts(&o);
    assert!(text.contains("violated      'count == 1'  [bounded]"), "{text}");
}

/// A bounded-safe verdict's reason is labelled bounded-safe, and SARIF does not repeat the
/// status word.
#[test]
fn labels_agree_with_the_status() {
    let file = "tests/programs/verdict_words/racy_counter.c";
    let (j, out) = json_of(&["check", "--engines", "bounded", "--bound", "1", "--format", "json", "tests/programs/verdict_words/loop_counter.c"]);
    let v = &j["tasks"][0]["assertions"][0];
    assert_eq!(v["status"], "bounded-safe", "{out}");
    assert!(v["reason"].as_str().unwrap().starts_with("bounded-safe: "), "{out}");
    assert_eq!(v["engine"], "bounded", "{out}");
    let o = common::duet(&["check", "--engines", "bounded", "--bound", "2", "--format", "sarif", file]);
    let (sarif, _) = common::texts(&o);
    assert!(sarif.contains("is violated: a replayed"), "{sarif}");
    assert!(!sarif.contains("violated: violated"), "{sarif}");
}

/// The progress line counts bounded-safe apart from unknown, as the summary does.
#[test]
fn the_progress_line_counts_bounded_safe_apart() {
    let o = common::duet(&["check", "--engines", "bounded", "--bound", "1", "tests/programs/verdict_words/loop_counter.c"]);
    let (out, err) = common::texts(&o);
    assert!(out.contains("  bounded-safe  1"), "{out}");
    assert!(err.contains("bounded-safe 1 unknown 0"), "{err}");
}

/// Messages count in words a user reads: "1 loop iteration", not "1 loop iterations".
#[test]
fn bounds_are_counted_in_the_singular_too() {
    let o = common::duet(&["check", "--engines", "bounded", "--bound", "1", "tests/programs/verdict_words/loop_counter.c"]);
    let (out, _) = common::texts(&o);
    assert!(out.contains("1 loop iteration, 1 instance per unbounded thread template"), "{out}");
    assert!(!out.contains("1 loop iterations"), "{out}");
}

/// An assertion's text is what the user wrote: a line marker the preprocessor put inside its
/// argument (for ten blank lines) stays out of it.
#[test]
fn no_line_marker_leaks_into_an_assertion_text() {
    let (j, out) = json_of(&["check", "--engines", "coarsen", "--format", "json", "tests/programs/verdict_words/line_marker_in_assertion.c"]);
    assert_eq!(j["tasks"][0]["assertions"][0]["text"], "x == 0", "{out}");
}
