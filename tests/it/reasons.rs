//! What a verdict says about itself: positions as the user wrote them, and reasons in terms
//! of source lines and program variables.

use crate::common;

#[test]
fn assert_h_failure_points_read_like_the_source() {
    let o = common::duet(&["check", "--engines", "coarsen", "--format", "json", "tests/programs/reasons/assert_h.c"]);
    let (out, err) = common::texts(&o);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let vs = r["tasks"][0]["assertions"].as_array().unwrap_or_else(|| panic!("{out}"));
    assert_eq!(vs.len(), 2, "{out}");
    // The column of `assert`, not of the `__assert_fail` call inside the macro's expansion.
    assert!(vs[0]["id"].as_str().unwrap().ends_with("assert_h.c:15:5"), "{out}");
    assert!(vs[1]["id"].as_str().unwrap().ends_with("assert_h.c:16:5"), "{out}");

    // Proved: <assert.h>'s assert is a failure call on a branch, which no thread can take.
    assert_eq!(vs[0]["status"], "safe", "{out}");
    assert!(vs[0]["reason"].as_str().unwrap().contains("failing branch is infeasible"), "{out}");

    // Not proved: the reason names the source line, and the invariant is the one where the
    // condition is tested (v is 0 or 1), over program variables, not the constant `true`
    // that holds after the failing branch.
    assert_eq!(vs[1]["status"], "unknown", "{out}");
    let reason = vs[1]["reason"].as_str().unwrap();
    assert!(reason.contains("at line 16"), "{reason}");
    assert!(!reason.contains(" L"), "an IR label in `{reason}`");
    let inv = vs[1]["detail"].as_str().unwrap();
    assert_eq!(inv, "invariant: 0 <= v <= 1", "{out}");
}

#[test]
fn an_open_assertion_says_why_the_finite_state_engine_did_not_prove_it() {
    let o = common::duet(&["check", "--engines", "coarsen,finite", "--format", "json", "tests/programs/reasons/finite_declines.c"]);
    let (out, err) = common::texts(&o);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let vs = r["tasks"][0]["assertions"].as_array().unwrap_or_else(|| panic!("{out}"));
    for v in vs {
        assert_eq!(v["status"], "unknown", "{out}");
        // The parameterized abstraction takes the loop's threads, but its counters do not stay
        // small and the exact exploration needs a fixed thread count.
        let notes = v["why"]["notes"].as_array().unwrap_or_else(|| panic!("{v}"));
        let finite = notes.iter().find(|n| n["kind"] == "not-proved" && n["engine"] == "finite").unwrap_or_else(|| panic!("{v}"));
        assert!(finite["why"].as_str().unwrap().contains("the exact exploration needs a fixed number of threads, and `w` has unboundedly many"), "{v}");
    }
}

/// A round whose queries ran out of time, or that the solver gave up on, decided nothing even
/// when its unrolling was complete: the reason never calls the exploration exhaustive.
#[test]
fn a_spent_budget_is_not_called_an_exhaustive_exploration() {
    let o = common::duet(&["check", "--search-time", "2", "--format", "json", "tests/programs/reasons/slow_bitand.c"]);
    let (out, err) = common::texts(&o);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let v = &r["tasks"][0]["assertions"][0];
    let reason = v["reason"].as_str().unwrap();
    assert_ne!(v["status"], "safe", "{out}");
    if v["status"] != "violated" {
        let notes = v["why"]["notes"].as_array().unwrap_or_else(|| panic!("{v}"));
        let deepening = notes.iter().find(|n| n["kind"] == "deepening").unwrap_or_else(|| panic!("{v}"));
        let stopped = deepening["stopped"].as_str().unwrap();
        let budget = stopped == "the search budget was spent";
        let gave_up = reason.contains("solver gave up") && stopped == "bound 1 unrolls the whole program, so a larger bound would pose the same undecided queries";
        assert!(budget || gave_up, "{reason}");
        assert!(!reason.contains("exhaustive"), "{reason}");
    }
}

/// A fixed bound keeps to `--search-time` as iterative deepening does: with a millisecond,
/// its one round decides nothing and says why (it once ran Z3 a minute on a bit-field program).
#[test]
fn a_fixed_bound_keeps_to_the_search_budget() {
    for bound in ["1", "2"] {
        let o = common::duet(&["check", "--bound", bound, "--search-time", "0.001", "--engines", "bounded", "--format", "json", "tests/programs/reasons/slow_bitand.c"]);
        let (out, err) = common::texts(&o);
        let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
        let v = &r["tasks"][0]["assertions"][0];
        assert_eq!(v["status"], "unknown", "{out}");
        assert_eq!(v["why"]["notes"][0], serde_json::json!({"kind": "bounded", "why": "the search budget was spent"}), "{out}");
    }
}
