//! Recursive programs get real verdicts: calls are inlined exactly to a depth, then enter one
//! shared copy of the recursive functions with an explicit stack (see
//! `src/frontend/lower/recursion.rs`). Each program's assertions are checked by the default
//! strategy, and the proofs again by COARSEN alone (a `safe` must not come from a bound).

use crate::common;

/// The statuses of a program's assertions, in source order.
fn statuses(file: &str, extra: &[&str]) -> Vec<String> {
    let path = format!("tests/programs/recursion/{file}");
    let mut args = vec!["check", "--format", "json"];
    if !extra.contains(&"--search-time") {
        args.extend(["--search-time", "20"]);
    }
    args.extend_from_slice(extra);
    args.push(&path);
    let o = common::duet(&args);
    let (out, err) = common::texts(&o);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{file}: {e}: {out}{err}"));
    r["tasks"][0]["assertions"].as_array().unwrap_or_else(|| panic!("{file}: {out}")).iter().map(|a| a["status"].as_str().unwrap().to_string()).collect()
}

/// The default check gives `expected`; COARSEN alone proves exactly the `safe` ones.
fn check(file: &str, expected: &[&str]) {
    assert_eq!(statuses(file, &[]), expected, "{file} by default");
    let proved: Vec<&str> = expected.iter().map(|s| if *s == "safe" { "safe" } else { "unknown" }).collect();
    assert_eq!(statuses(file, &["--engines", "coarsen"]), proved, "{file} by COARSEN");
}

#[test]
fn sum_called_by_several_threads_has_its_range_proved() {
    check("sum_range.c", &["safe", "safe"]);
}

#[test]
fn sum_range_failing_twin_is_violated() {
    check("sum_range_bad.c", &["violated", "safe"]);
}

#[test]
fn recursion_deeper_than_the_inlined_copies_is_proved_for_every_depth() {
    check("sum_deep.c", &["safe", "violated"]);
}

#[test]
fn list_walk_under_a_lock_is_safe() {
    check("list_walk_locked.c", &["safe"]);
}

#[test]
fn list_walk_racing_with_an_unlocked_writer_is_violated() {
    check("list_walk_racy.c", &["violated"]);
}

#[test]
fn mutual_recursion() {
    check("mutual.c", &["safe", "violated"]);
}

#[test]
fn recursion_through_a_function_pointer() {
    check("fnptr.c", &["safe", "violated"]);
}

#[test]
fn the_old_unsupported_example_is_proved() {
    check("fact.c", &["safe"]);
}

/// The bounded search alone never calls a program with a reachable shared copy `safe`: its
/// stack is a loop it cuts.
#[test]
fn the_bounded_search_alone_is_bounded_safe_at_most() {
    let s = statuses("list_walk_locked.c", &["--engines", "bounded", "--search-time", "10"]);
    assert!(s.iter().all(|x| x != "safe" && x != "violated"), "{s:?}");
}

/// With `--recursion-depth 1` every recursive call enters the shared copy: the proofs that do
/// not need the exact copies still hold, and an assertion that can fail is never `safe`.
#[test]
fn the_shared_copy_alone_keeps_proofs_and_never_hides_a_failure() {
    let at1 = |f: &str| statuses(f, &["--recursion-depth", "1"]);
    for (file, proved) in [("sum_deep.c", 0), ("list_walk_locked.c", 0), ("mutual.c", 0), ("fnptr.c", 0)] {
        assert_eq!(at1(file)[proved], "safe", "{file}");
    }
    for (file, failing) in [("sum_range_bad.c", 0), ("sum_deep.c", 1), ("list_walk_racy.c", 0), ("mutual.c", 1), ("fnptr.c", 1)] {
        let s = at1(file);
        assert_ne!(s[failing], "safe", "{file}: {s:?}");
    }
    assert_eq!(at1("list_walk_racy.c"), ["violated"]);
}

/// A local whose address is taken in a recursive function: the shared copy is incomplete, so
/// nothing is `safe`, and the frames sharing the object in the IR never make a false violation.
#[test]
fn an_address_taken_local_makes_the_shared_copy_incomplete() {
    let s = statuses("addr_taken.c", &[]);
    assert!(s[0] != "safe" && s[0] != "violated", "{s:?}");
    assert_eq!(statuses("addr_taken.c", &["--engines", "coarsen"]), ["unknown"]);
}

/// Writes through a pointer argument beyond the inlined copies are executed, not summarised:
/// a proof over them holds, and the assertion that fails (only after 20 returns, beyond the
/// search's reach) is not proved.
#[test]
fn writes_through_a_pointer_in_the_shared_copy() {
    let s = statuses("writes_through_pointer.c", &[]);
    assert_eq!(s[0], "safe", "{s:?}");
    // a[15] is 16 after the fill: the explicit-state search runs the shared copy's explicit
    // stack exactly (within its depth) and reports the real failure.
    assert_eq!(s[1], "violated", "{s:?}");
}

/// `--inline-limit`: a call larger than the limit enters one shared copy of the callee per
/// thread template (call and return edges) instead of an inlined copy. The proof of a helper
/// called from four sites survives the context-insensitive return, and the IR holds one copy
/// of the helper per thread instead of one per call.
#[test]
fn a_call_over_the_inline_limit_shares_one_copy_and_keeps_its_proof() {
    check("inline_shared_helper.c", &["safe", "safe"]);
    assert_eq!(statuses("inline_shared_helper.c", &["--inline-limit", "5"]), ["safe", "safe"]);
    assert_eq!(statuses("inline_shared_helper.c", &["--inline-limit", "5", "--engines", "coarsen"]), ["safe", "safe"]);
    let locks = |extra: &[&str]| {
        let mut args = vec!["ir"];
        args.extend_from_slice(extra);
        args.push("tests/programs/recursion/inline_shared_helper.c");
        let (out, err) = common::texts(&common::duet(&args));
        assert!(!out.is_empty(), "{err}");
        out.lines().filter(|l| l.contains("acquire")).count()
    };
    // main's final lock and one per inlined call, against one per thread's shared copy.
    assert_eq!((locks(&[]), locks(&["--inline-limit", "5"])), (5, 3));
}

/// The failing twins under a small inline limit: never `safe`, and an atomic section that
/// covers only one caller of the shared copy never gives a false violation.
#[test]
fn the_inline_limit_never_hides_a_failure_or_invents_one() {
    check("inline_shared_helper_racy.c", &["violated"]);
    assert_ne!(statuses("inline_shared_helper_racy.c", &["--inline-limit", "5"]), ["safe"]);
    assert_eq!(statuses("inline_atomic_and_plain_caller.c", &[]), ["safe", "violated"]);
    let s = statuses("inline_atomic_and_plain_caller.c", &["--inline-limit", "1"]);
    assert!(s[0] != "violated" && s[1] != "safe", "{s:?}");
}
