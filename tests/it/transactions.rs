//! Transaction-based summaries (Qadeer, Rajamani & Rehof, POPL 2004) in the finite-state
//! engine: the mover classification, the summary edges of the paper's resource allocators
//! (Figures 2 and 3, as the engine computes them), recursion inside a transaction and outside
//! one (Figures 4 and 8), and failing twins that are never proved.

use crate::common;

use duet_rs::coarsen::locks::must_hold;
use duet_rs::finite::model::Model;
use duet_rs::finite::movers::{self, Mover};
use duet_rs::finite::transactions::{self, EdgeKind, SummaryEdge, Transactions, TxOptions};
use duet_rs::frontend::{self, FrontendOptions};
use duet_rs::ir::{Action, AssertId, Program};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/transactions").join(name)
}

fn load(name: &str) -> Program {
    frontend::load(&path(name), &FrontendOptions::default()).unwrap_or_else(|d| panic!("{name}: {d}"))
}

/// The source line holding a marker comment (`// L5`).
fn line_of(name: &str, marker: &str) -> u32 {
    let text = std::fs::read_to_string(path(name)).unwrap();
    let at = text.lines().position(|l| l.trim_end().ends_with(&format!("// {marker}"))).unwrap_or_else(|| panic!("{name}: no marker {marker}"));
    at as u32 + 1
}

fn summaries(name: &str, function: &str) -> Vec<SummaryEdge> {
    let prog = load(name);
    let m = Model::build(&prog, None).unwrap();
    let mv = movers::classify(&prog, &must_hold(&prog));
    let mut t = Transactions::run(&m, &mv, &TxOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    t.procedure_summaries(function).unwrap()
}

fn prove(name: &str) -> Result<transactions::TxReport, String> {
    let prog = load(name);
    let open: Vec<AssertId> = (0..prog.assertions.len() as u32).map(AssertId).collect();
    transactions::prove(&prog, &open, &must_hold(&prog), &TxOptions::default())
}

/// An edge as the paper writes it: (label, locals and shared cells) before and after, on the
/// cells the paper shows.
type PaperEdge = (EdgeKind, u32, Vec<String>, u32, Vec<String>);

/// An edge with its phases before and after, on some cells.
type PhaseEdge = (EdgeKind, bool, Vec<String>, bool, Vec<String>);

fn paper_view(edges: &[SummaryEdge], from_cells: &[&str], to_cells: &[&str]) -> BTreeSet<PaperEdge> {
    let pick = |v: &duet_rs::finite::transactions::NodeView, cells: &[&str]| cells.iter().map(|c| format!("{c}={}", v.get(c).unwrap_or("-"))).collect::<Vec<_>>();
    edges.iter().map(|e| (e.kind, e.from.line, pick(&e.from, from_cells), e.to.line, pick(&e.to, to_cells))).collect()
}

fn cells(pairs: &[(&str, i32)]) -> Vec<String> {
    pairs.iter().map(|(c, v)| format!("{c}={v}")).collect()
}

#[test]
fn movers_of_the_allocator() {
    let prog = load("get_resource.c");
    let mv = movers::classify(&prog, &must_hold(&prog));
    let mut seen = BTreeSet::new();
    for (i, loc) in prog.locs.iter().enumerate() {
        let c = &mv.of[i];
        let in_get = prog.function_at(loc.span).is_some_and(|f| f.name == "getResource");
        if !in_get {
            continue;
        }
        let kind = match &loc.action {
            Action::Acquire(_) => "acquire",
            Action::Release(_) => "release",
            Action::Assume(_) | Action::Assign(..) => "access",
            _ => continue,
        };
        seen.insert((kind, c.mover));
        assert!(!c.reason.is_empty());
        if kind == "access" && c.mover == Mover::Both {
            assert!(c.reason.contains("touches no shared variable") || c.reason.contains("under lock `m`"), "{}", c.reason);
        }
    }
    assert_eq!(seen, BTreeSet::from([("acquire", Mover::Right), ("release", Mover::Left), ("access", Mover::Both)]));
    // Without the lock, the accesses to `available` are no movers, and the reason names it.
    let racy = load("get_resource_racy.c");
    let mv = movers::classify(&racy, &must_hold(&racy));
    let non: Vec<&str> = mv.of.iter().filter(|c| c.mover == Mover::Non).map(|c| c.reason.as_str()).collect();
    assert!(non.iter().any(|r| r.contains("`available` is not accessed under one common lock")), "{non:?}");
}

#[test]
fn coarse_allocator_summary_is_the_papers() {
    // Figure 2, N = 2: the whole procedure is one transaction; from the entry (lock free) to
    // a return, exactly the paper's four edges.
    let name = "get_resource.c";
    let edges = summaries(name, "getResource");
    assert!(edges.iter().all(|e| e.kind == EdgeKind::Return && e.from.pre_commit && !e.to.pre_commit), "{edges:#?}");
    let entry = edges[0].from.line;
    let (l5, l8) = (line_of(name, "L5"), line_of(name, "L8"));
    let got = paper_view(&edges, &["lock m", "available[0]", "available[1]"], &["i", "lock m", "available[0]", "available[1]"]);
    let e = |a0, a1, to, i, b0, b1| {
        (EdgeKind::Return, entry, cells(&[("lock m", 0), ("available[0]", a0), ("available[1]", a1)]), to, cells(&[("i", i), ("lock m", 0), ("available[0]", b0), ("available[1]", b1)]))
    };
    let want = BTreeSet::from([e(0, 0, l8, 2, 0, 0), e(0, 1, l5, 1, 0, 0), e(1, 0, l5, 0, 0, 0), e(1, 1, l5, 0, 0, 1)]);
    assert_eq!(got, want);
}

#[test]
fn fine_allocator_summary_is_the_papers() {
    // Figure 3, N = 2: one transaction per iteration. Edges from the entry to the end of the
    // first iteration's transaction (at the acquire of m[1]) or to a return, and from that
    // transaction start (i = 1) to a return: the paper's eight edges.
    let name = "get_resource_locks.c";
    let edges = summaries(name, "getResource");
    let entry = edges.iter().find(|e| e.from.pre_commit).map(|e| e.from.line).unwrap();
    let (l1, l5, l8) = (line_of(name, "L1"), line_of(name, "L5"), line_of(name, "L8"));
    let shared = ["lock m[0]", "lock m[1]", "available[0]", "available[1]"];
    let with_i = ["i", "lock m[0]", "lock m[1]", "available[0]", "available[1]"];
    let got: BTreeSet<PaperEdge> = edges
        .iter()
        .map(|e| {
            let from = if e.from.line == entry { &shared[..] } else { &with_i[..] };
            paper_view(std::slice::from_ref(e), from, &with_i).into_iter().next().unwrap()
        })
        .collect();
    let st = |i: Option<i32>, a0, a1| {
        let mut v = Vec::new();
        if let Some(i) = i {
            v.push(("i", i));
        }
        v.extend([("lock m[0]", 0), ("lock m[1]", 0), ("available[0]", a0), ("available[1]", a1)]);
        cells(&v)
    };
    let want = BTreeSet::from([
        (EdgeKind::TransactionEnd, entry, st(None, 0, 0), l1, st(Some(1), 0, 0)),
        (EdgeKind::TransactionEnd, entry, st(None, 0, 1), l1, st(Some(1), 0, 1)),
        (EdgeKind::Return, entry, st(None, 1, 0), l5, st(Some(0), 0, 0)),
        (EdgeKind::Return, entry, st(None, 1, 1), l5, st(Some(0), 0, 1)),
        (EdgeKind::Return, l1, st(Some(1), 0, 0), l8, st(Some(2), 0, 0)),
        (EdgeKind::Return, l1, st(Some(1), 0, 1), l5, st(Some(1), 0, 0)),
        (EdgeKind::Return, l1, st(Some(1), 1, 0), l8, st(Some(2), 1, 0)),
        (EdgeKind::Return, l1, st(Some(1), 1, 1), l5, st(Some(1), 1, 0)),
    ]);
    assert_eq!(got, want, "{edges:#?}");
    // The transaction that starts at the acquire of m[1] starts before its commit.
    assert!(edges.iter().filter(|e| e.from.line == l1).all(|e| !e.from.pre_commit && e.kind == EdgeKind::Return));
}

#[test]
fn allocators_proved_and_racy_twin_never() {
    for name in ["get_resource.c", "get_resource_locks.c"] {
        let r = prove(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.threads, 3, "{name}");
        assert!(r.outcomes.iter().all(|(_, o)| o.is_ok()), "{name}: {:?}", r.outcomes);
    }
    // The twin without the lock: its accesses are no movers, and the reduced exploration
    // reaches the failing state.
    let r = prove("get_resource_racy.c").unwrap();
    assert!(r.outcomes.iter().all(|(_, o)| o.is_err()), "{:?}", r.outcomes);
}

#[test]
fn recursion_inside_a_transaction() {
    // Figure 4: the recursion of `foo` lies inside one transaction, the termination condition
    // holds and the assertion is proved.
    let r = prove("recursive_in_transaction.c").unwrap();
    assert!(r.termination.contains("every recursive call lies inside a transaction (`foo`)"), "{}", r.termination);
    assert!(r.outcomes.iter().all(|(_, o)| o.is_ok()), "{:?}", r.outcomes);
    let r = prove("recursive_locked.c").unwrap();
    assert!(r.termination.contains("`foo`"), "{}", r.termination);
    assert!(r.outcomes.iter().all(|(_, o)| o.is_ok()), "{:?}", r.outcomes);
    // Its summary is the paper's: from foo's entry to its return, `g` incremented and the lock
    // released, (L0, m=0, g=0) -> (L5, m=0, g=1) and (L0, m=0, g=1) -> (L5, m=0, g=2); no edge
    // for the endless recursion.
    let edges = summaries("recursive_in_transaction.c", "foo");
    let got: BTreeSet<PhaseEdge> = edges
        .iter()
        .map(|e| {
            let v = |n: &duet_rs::finite::transactions::NodeView| ["lock m", "g"].iter().map(|c| format!("{c}={}", n.get(c).unwrap_or("-"))).collect::<Vec<_>>();
            (e.kind, e.from.pre_commit, v(&e.from), e.to.pre_commit, v(&e.to))
        })
        .collect();
    let e = |g0: i32, g1: i32| (EdgeKind::Return, true, cells(&[("lock m", 0), ("g", g0)]), false, cells(&[("lock m", 0), ("g", g1)]));
    assert_eq!(got, BTreeSet::from([e(0, 1), e(1, 2)]));
}

#[test]
fn recursion_outside_a_transaction_declines() {
    // Figure 8: unprotected writes before the recursive call end a transaction inside it.
    let why = prove("recursive_outside_transaction.c").unwrap_err();
    assert!(why.contains("recursive call of `foo`") && why.contains("does not lie inside a transaction"), "{why}");
}

#[test]
fn racy_recursion_never_proved() {
    match prove("recursive_racy.c") {
        Ok(r) => assert!(r.outcomes.iter().all(|(_, o)| o.is_err()), "{:?}", r.outcomes),
        Err(why) => assert!(!why.is_empty()),
    }
}

#[test]
fn check_uses_the_transactions_where_others_leave_it_open() {
    // The default strategy: the loops keep the bounded search from being exhaustive, and the
    // exact exploration of the projection (which does not name the locks of an array) reaches
    // a spurious failure; the transactions prove it, for the three threads it creates.
    let file = "tests/programs/transactions/alloc_loop.c";
    let (out, err) = common::texts(&common::duet(&["check", "--format", "json", file]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let a = &v["tasks"][0]["assertions"][0];
    assert_eq!(a["status"], "safe", "{a}");
    assert_eq!(a["engine"], "transactions", "{a}");
    assert_eq!(a["why"]["scope"], "threads-created", "{a}");
    assert!(a["reason"].as_str().unwrap().contains("the 3 threads the program creates"), "{a}");
    // Its twin frees before it resets the owner: violated by the default strategy, never
    // proved by the transactions.
    let twin = "tests/programs/transactions/alloc_loop_early_free.c";
    let (out, _) = common::texts(&common::duet(&["check", "--format", "json", twin]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["tasks"][0]["assertions"][0]["status"], "violated", "{out}");
    let r = prove("alloc_loop_early_free.c").unwrap();
    assert!(r.outcomes.iter().all(|(_, o)| o.is_err()), "{:?}", r.outcomes);
    let r = prove("alloc_loop.c").unwrap();
    assert!(r.outcomes.iter().all(|(_, o)| o.is_ok()), "{:?}", r.outcomes);
}

/// A template created in a loop has no fixed count: the transactions decline, and the default
/// strategy finds the failure two workers reach.
#[test]
fn unboundedly_many_workers_are_declined() {
    let why = prove("unbounded_workers.c").unwrap_err();
    assert!(why.contains("unboundedly many instances"), "{why}");
    let file = "tests/programs/transactions/unbounded_workers.c";
    let (out, err) = common::texts(&common::duet(&["check", "--format", "json", file]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert_eq!(v["tasks"][0]["assertions"][0]["status"], "violated", "{out}");
}

/// The exploration with summaries shared between identical inlined copies, and without:
/// level-I states, summary edges, failing assertions, and how `function`'s copies shared.
fn explore(name: &str, share: bool, function: &str) -> (usize, usize, Vec<AssertId>, transactions::Sharing) {
    let prog = load(name);
    let m = Model::build(&prog, None).unwrap();
    let mv = movers::classify(&prog, &must_hold(&prog));
    let t = Transactions::run(&m, &mv, &TxOptions { share, ..TxOptions::default() }).unwrap_or_else(|e| panic!("{name}: {e}"));
    let failing = (0..prog.assertions.len() as u32).map(AssertId).filter(|&a| t.failure(a).is_some()).collect();
    (t.states(), t.transactions(), failing, t.sharing(function))
}

#[test]
fn one_summary_for_many_call_sites() {
    // Twelve inlined copies of `step`, identical up to their parameter: one class, whose runs
    // are summarised once per entry state. A run inside a copy starts at its acquire, with the
    // argument 0 or 1, `x` 0 and the lock free, in three ways: before any commit (a thread's
    // first call, inside its first transaction), after a commit (a later call), or after
    // `main` returned, which stops every thread: six summaries for twelve sites (four when
    // `main` ends with `pthread_exit`, two with one site per thread), the other runs reuse them.
    let (states, edges, failing, sh) = explore("many_sites.c", true, "step");
    assert_eq!((sh.copies, sh.classes, sh.computed), (12, 1, 6), "{sh:?}");
    assert!(sh.reused >= 12 - 6, "{sh:?}");
    assert!(failing.is_empty(), "{failing:?}");
    // Sharing changes nothing the exploration finds.
    let (states2, edges2, failing2, sh2) = explore("many_sites.c", false, "step");
    assert_eq!((states, edges, &failing), (states2, edges2, &failing2));
    assert_eq!((sh2.copies, sh2.computed, sh2.reused), (0, 0, 0), "{sh2:?}");
    let r = prove("many_sites.c").unwrap();
    assert!(r.outcomes.iter().all(|(_, o)| o.is_ok()), "{:?}", r.outcomes);
}

#[test]
fn a_call_site_with_another_entry_state_is_not_covered() {
    // The twin: one site passes 2. Its copy is in the same class, but its entry state is new,
    // so it gets a summary of its own, and the assertion fails there (and only there).
    let name = "many_sites_one_bad.c";
    let (states, edges, failing, sh) = explore(name, true, "step");
    assert_eq!((sh.copies, sh.classes), (12, 1), "{sh:?}");
    assert_eq!(failing.len(), 1, "{failing:?}");
    let (states2, edges2, failing2, _) = explore(name, false, "step");
    assert_eq!((states, edges, &failing), (states2, edges2, &failing2));
    let r = prove(name).unwrap();
    assert!(r.outcomes.iter().any(|(_, o)| o.is_err()), "{:?}", r.outcomes);
    let file = "tests/programs/transactions/many_sites_one_bad.c";
    let (out, err) = common::texts(&common::duet(&["check", "--format", "json", file]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let statuses: Vec<&str> = v["tasks"][0]["assertions"].as_array().unwrap().iter().map(|a| a["status"].as_str().unwrap()).collect();
    assert!(statuses.contains(&"violated"), "{out}");
}

#[test]
fn sharing_changes_no_result_of_the_papers_programs() {
    for (name, f) in [
        ("get_resource.c", "getResource"),
        ("get_resource_locks.c", "getResource"),
        ("alloc_loop.c", "getResource"),
        ("alloc_loop_early_free.c", "getResource"),
        ("recursive_locked.c", "foo"),
        ("get_resource_racy.c", "getResource"),
    ] {
        let (s1, e1, f1, _) = explore(name, true, f);
        let (s2, e2, f2, _) = explore(name, false, f);
        assert_eq!((s1, e1, f1), (s2, e2, f2), "{name}");
    }
}
