//! The bounded engine on real programs: verdicts, replayed witnesses, the replay check itself,
//! the witness files, determinism, and COARSEN's hints.

use crate::common;

use duet_rs::bounded::{self, BoundedOptions, BoundedOutcome, Hints};
use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::interp::layout::Layout;
use duet_rs::interp::{Interp, Outcome, Step};
use duet_rs::ir::{Action, AssertId, Program};

fn program(path: &str, defines: &[&str]) -> Program {
    let o = FrontendOptions { defines: defines.iter().map(|d| d.to_string()).collect(), ..Default::default() };
    load(&common::repo(path), &o).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn all(p: &Program) -> Vec<AssertId> {
    (0..p.assertions.len() as u32).map(AssertId).collect()
}

fn outcomes(p: &Program, k: u32) -> Vec<BoundedOutcome> {
    bounded::check(p, &BoundedOptions::new(k), None, &all(p)).into_iter().map(|(_, o)| o).collect()
}

fn is_violated(o: &BoundedOutcome) -> bool {
    matches!(o, BoundedOutcome::Violated { .. })
}

#[test]
fn figure1_is_violated_and_the_locked_version_is_safe() {
    let p = program("tests/programs/bounded/fig1.c", &[]);
    let o = outcomes(&p, 1);
    assert!(is_violated(&o[0]), "{o:?}");
    let BoundedOutcome::Violated { trace, .. } = &o[0] else { unreachable!() };
    assert!(trace.contains("<- fails"), "{trace}");
    assert!(trace.contains("read x = 0"), "both threads read the initial value: {trace}");
    let p = program("tests/programs/bounded/fig1_locked.c", &[]);
    let o = outcomes(&p, 2);
    assert!(matches!(o[0], BoundedOutcome::Safe { .. }), "no loops and two threads: exhaustive, so safe: {o:?}");
}

#[test]
fn racy_counters_are_violated_locked_counters_safe() {
    for n in 2..=4 {
        let d = format!("N={n}");
        let racy = program("tests/programs/bounded/counter.c", &[&d]);
        let o = outcomes(&racy, 1);
        assert!(is_violated(&o[0]), "{n} racy workers: {o:?}");
        let locked = program("tests/programs/bounded/counter.c", &[&d, "LOCKED"]);
        let o = outcomes(&locked, 1);
        assert!(matches!(o[0], BoundedOutcome::Safe { .. }), "{n} locked workers: {o:?}");
    }
}

#[test]
fn project_examples() {
    let p = program("benchmarks/examples/racy_counter.c", &[]);
    assert!(is_violated(&outcomes(&p, 2)[0]));
    // DUET's Figure 1: safe for every number of threads, so never violated here.
    let p = program("benchmarks/examples/producer_consumer.c", &[]);
    let o = outcomes(&p, 2);
    assert!(matches!(o[0], BoundedOutcome::BoundedSafe { .. }), "{o:?}");
    let p = program("benchmarks/examples/increment_decrement.c", &[]);
    let o = outcomes(&p, 2);
    assert!(matches!(o[0], BoundedOutcome::BoundedSafe { .. }), "c >= 0: {o:?}");
    assert!(is_violated(&o[1]), "c <= 0: {o:?}");
}

#[test]
fn pointers_arguments_and_aliases() {
    let p = program("tests/programs/bounded/pointers.c", &[]);
    let o = outcomes(&p, 1);
    assert!(is_violated(&o[0]), "{o:?}");
}

#[test]
fn thread_creation_beyond_the_bound_reaches_later_code() {
    let p = program("tests/programs/bounded/thread_loop.c", &[]);
    let o = outcomes(&p, 2);
    assert!(is_violated(&o[0]), "{o:?}");
    let BoundedOutcome::Violated { trace, .. } = &o[0] else { unreachable!() };
    assert!(trace.contains("runs its loop to the exit"), "the replay ran the creation loop concretely: {trace}");
    let o = outcomes(&p, 1);
    assert!(matches!(o[0], BoundedOutcome::BoundedSafe { .. }), "one thread cannot make c exceed 1: {o:?}");
}

#[test]
fn over_approximations_are_never_reported_as_violations() {
    let p = program("tests/programs/bounded/float_guard.c", &[]);
    let o = outcomes(&p, 1);
    match &o[0] {
        BoundedOutcome::Unknown { reason } => assert!(reason.contains("floating-point"), "{reason}"),
        other => panic!("expected unknown, got {other:?}"),
    }
}

/// A candidate that fails only through an over-approximated call's value is no violation, but
/// the search then asks for one that reads no such value: the path around `sscanf` fails for
/// real. When every failing path goes through the call, the answer stays `unknown`.
#[test]
fn a_violation_around_an_unmodelled_call_is_found() {
    // Bound 2: the path around the call runs the creation loops twice.
    let p = program("tests/programs/bounded/approx_path_around.c", &[]);
    let o = outcomes(&p, 2);
    assert!(is_violated(&o[0]), "{o:?}");
    let p = program("tests/programs/bounded/approx_path_around.c", &["ONLY_THROUGH_CALL"]);
    for k in [1, 2] {
        match &outcomes(&p, k)[0] {
            BoundedOutcome::Unknown { reason } => assert!(reason.contains("over-approximation") && reason.contains("sscanf"), "{reason}"),
            other => panic!("bound {k}: expected unknown, got {other:?}"),
        }
    }
}

/// The schedule of the racy counter's violation, rebuilt from the trace the engine replayed.
fn racy_schedule(p: &Program) -> Vec<Step> {
    let o = bounded::run(p, &BoundedOptions::new(1), None, &all(p));
    match &o.outcomes[0].1 {
        BoundedOutcome::Violated { .. } => {}
        other => panic!("{other:?}"),
    }
    o.schedules.into_iter().next().flatten().expect("a violated assertion keeps its schedule")
}

#[test]
fn replay_is_enforced() {
    let p = program("tests/programs/bounded/counter.c", &["N=2"]);
    let layout = Layout::new(&p);
    let zero = |_: i128| 0;
    let steps = racy_schedule(&p);
    let mut it = Interp::new(&p, &layout, &zero);
    assert!(matches!(it.run(&steps), Outcome::Failed { .. }), "the engine's own schedule replays");

    // Run the threads one after the other: the same steps, no failure.
    let mut serial: Vec<Step> = steps.iter().filter(|s| s.thread() == 0).take_while(|s| !matches!(s, Step::Exec { loc, .. } if matches!(p.loc(*loc).action, Action::Join(_)))).cloned().collect();
    for t in 1..=2 {
        serial.extend(steps.iter().filter(|s| s.thread() == t).cloned());
    }
    serial.extend(steps.iter().filter(|s| s.thread() == 0).skip_while(|s| !matches!(s, Step::Exec { loc, .. } if matches!(p.loc(*loc).action, Action::Join(_)))).cloned());
    let mut it = Interp::new(&p, &layout, &zero);
    assert!(!matches!(it.run(&serial), Outcome::Failed { .. }), "a serial schedule reaches no failure");

    // Drop a step: the next one no longer follows its thread's previous location.
    let mut broken = steps.clone();
    let i = broken.iter().position(|s| s.thread() == 1).unwrap();
    broken.remove(i + 1);
    let mut it = Interp::new(&p, &layout, &zero);
    assert!(matches!(it.run(&broken), Outcome::Rejected { .. }), "a step that skips a location is rejected");

    // Steps of a thread before the fork that creates it are rejected.
    let mut early = steps.clone();
    let i = early.iter().position(|s| s.thread() == 1).unwrap();
    let s = early.remove(i);
    early.insert(0, s);
    let mut it = Interp::new(&p, &layout, &zero);
    assert!(matches!(it.run(&early), Outcome::Rejected { .. }));
}

/// Locations of a template along its first successors, up to (and with) the first location
/// where `stop` holds.
fn straight(p: &Program, t: usize, stop: &dyn Fn(&Action) -> bool) -> Vec<duet_rs::ir::LocId> {
    let mut out = Vec::new();
    let mut l = p.templates[t].entry;
    loop {
        out.push(l);
        if stop(&p.loc(l).action) || p.loc(l).succs.is_empty() {
            return out;
        }
        l = p.loc(l).succs[0];
    }
}

#[test]
fn replay_enforces_locks() {
    let p = program("tests/programs/bounded/counter.c", &["N=2", "LOCKED"]);
    let layout = Layout::new(&p);
    let zero = |_: i128| 0;
    fn inputs(e: &duet_rs::ir::Expr) -> usize {
        use duet_rs::ir::Expr;
        match e {
            Expr::Nondet(_) => 1,
            Expr::Unary(_, x, _) | Expr::Cast(_, x) => inputs(x),
            Expr::Binary(_, a, b, _) => inputs(a) + inputs(b),
            _ => 0,
        }
    }
    let exec = |thread: u32, loc: duet_rs::ir::LocId, children: Vec<u32>| {
        let n = match &p.loc(loc).action {
            Action::Assign(_, e) | Action::Assume(e) => inputs(e),
            _ => 0,
        };
        Step::Exec { thread, loc, nondets: vec![0; n], children }
    };
    // main up to its second fork, then both workers to their lock.
    let mut steps = Vec::new();
    let forks = std::cell::Cell::new(0);
    for l in straight(&p, 0, &|a| {
        if matches!(a, Action::Fork { .. }) {
            forks.set(forks.get() + 1);
        }
        forks.get() == 2
    }) {
        let children = if matches!(p.loc(l).action, Action::Fork { .. }) {
            vec![steps.iter().filter(|s| matches!(s, Step::Exec { children, .. } if !children.is_empty())).count() as u32 + 1]
        } else {
            Vec::new()
        };
        steps.push(exec(0, l, children));
    }
    let w1 = straight(&p, 1, &|a| matches!(a, Action::Acquire(_)));
    let w2 = straight(&p, 2, &|a| matches!(a, Action::Acquire(_)));
    for l in &w1 {
        steps.push(exec(1, *l, Vec::new()));
    }
    let mut it = Interp::new(&p, &layout, &zero);
    assert_eq!(it.run(&steps), Outcome::Finished, "T1 takes the free lock");
    for l in &w2 {
        steps.push(exec(2, *l, Vec::new()));
    }
    let mut it = Interp::new(&p, &layout, &zero);
    match it.run(&steps) {
        Outcome::Rejected { reason, .. } => assert!(reason.contains("held"), "{reason}"),
        other => panic!("T2 cannot take the lock T1 holds: {other:?}"),
    }
}

#[test]
fn witness_and_smt_are_returned_not_written() {
    let p = program("tests/programs/bounded/fig1.c", &[]);
    let mut opts = BoundedOptions::new(1);
    opts.witness = true;
    opts.dump_smt = true;
    let r = bounded::run(&p, &opts, None, &all(&p));
    assert!(is_violated(&r.outcomes[0].1));
    let w = r.witness.expect("the first violation's witness");
    assert_eq!(w.target.line, p.assertions[0].span.line);
    assert!(w.steps.iter().any(|s| s.created.is_some()), "thread creations are recorded");
    let src = std::fs::read(common::repo("tests/programs/bounded/fig1.c")).unwrap();
    let g = duet_rs::report::graphml::violation(&w, "fig1.c", &src, "2020-01-01T00:00:00Z");
    assert!(g.contains("<data key=\"witness-type\">violation_witness</data>"));
    assert!(g.contains("<data key=\"violation\">true</data>"));
    assert!(g.contains("createThread"));
    assert!(g.contains(&duet_rs::report::graphml::sha256_hex(&src)));
    let s = r.smt.expect("the encoding");
    assert!(s.contains("(declare-fun init (Int) Int)"));
    assert!(s.contains("(check-sat-assuming"));
    // Nothing asked, nothing returned.
    let r = bounded::run(&p, &BoundedOptions::new(1), None, &all(&p));
    assert!(r.witness.is_none() && r.smt.is_none());
}

#[test]
fn same_input_same_witness() {
    let p = program("tests/programs/bounded/counter.c", &["N=3"]);
    let a = outcomes(&p, 2);
    let b = outcomes(&p, 2);
    assert_eq!(a, b);
}

#[test]
fn no_prune_agrees_with_pruning() {
    for (f, d) in [("tests/programs/bounded/fig1.c", vec![]), ("tests/programs/bounded/counter.c", vec!["N=3", "LOCKED"])] {
        let p = program(f, &d);
        let mut opts = BoundedOptions::new(1);
        let pruned = bounded::run(&p, &opts, None, &all(&p));
        opts.no_prune = true;
        let eager = bounded::run(&p, &opts, None, &all(&p));
        assert_eq!(is_violated(&pruned.outcomes[0].1), is_violated(&eager.outcomes[0].1), "{f}");
        assert!(pruned.stats.encoding.copy_pairs < eager.stats.encoding.copy_pairs, "{f}: pruning removes copy pairs");
    }
}

#[test]
fn hints_restrict_what_reads_may_copy() {
    // Main's read of the counter may only copy the initial value if the data-flow graph says
    // so; then the racy increments are invisible and no violation remains.
    let p = program("tests/programs/bounded/counter.c", &["N=2"]);
    let assert_loc = p.assertions[0].locs[0];
    let counter = p.vars.iter().position(|v| v.name == "counter").unwrap();
    let a = p.memory.lookup(&p, &duet_rs::ir::Lval::Var(duet_rs::ir::VarId(counter as u32))).unwrap();
    // The assertion's value comes through a temporary, or is read at the assertion itself.
    let readers: Vec<_> = p.loc_ids().filter(|l| p.memory.access(*l).refs.contains(&a) && p.loc(*l).template.0 == 0).collect();
    assert!(!readers.is_empty() && readers.iter().any(|l| *l <= assert_loc));
    let mut hints = Hints::default();
    for r in &readers {
        hints.flows.insert((p.templates[0].entry, a, *r));
    }
    let o = bounded::check(&p, &BoundedOptions::new(1), Some(&hints), &all(&p));
    assert!(!is_violated(&o[0].1), "{o:?}");
    // A range on the read value excludes 1 as well.
    let mut hints = Hints::default();
    for r in &readers {
        hints.ranges.insert((*r, a), (Some(2), Some(2)));
    }
    let o = bounded::check(&p, &BoundedOptions::new(1), Some(&hints), &all(&p));
    assert!(!is_violated(&o[0].1), "{o:?}");
}

#[test]
fn check_command_reports_bounded_verdicts() {
    let out = common::duet(&["check", "--bound", "2", "benchmarks/examples/racy_counter.c"]);
    let (stdout, _) = common::texts(&out);
    assert_eq!(out.status.code(), Some(10), "{stdout}");
    assert!(stdout.contains("violated"));
    assert!(stdout.contains("<- fails"));
}

#[test]
fn hints_keep_the_initial_contents_of_a_threads_escaped_local() {
    let path = "tests/programs/bounded/escaped_local_array.c";
    for hints in [true, false] {
        let mut args = vec!["check", "--bound", "1", path];
        if !hints {
            args.push("--no-coarsen-hints");
        }
        let out = common::duet(&args);
        let (stdout, _) = common::texts(&out);
        assert_eq!(out.status.code(), Some(10), "hints {hints}: {stdout}");
        assert!(stdout.contains("<- fails"), "hints {hints}: {stdout}");
    }
}

/// The statuses `check --bound k` gives, with or without COARSEN's hints.
fn engine_statuses(p: &Program, k: u32, hints: bool) -> Vec<duet_rs::verdict::Status> {
    use duet_rs::engine::{Bound, CheckOptions};
    use duet_rs::strategy::check_program;
    let opts = CheckOptions { bound: Some(Bound { unroll: k, threads: k }), no_hints: !hints, ..CheckOptions::default() };
    check_program(p, &opts).verdicts.into_iter().map(|v| v.status).collect()
}

/// COARSEN's hints only narrow the encoding by facts that hold in every execution, so on
/// every program the project ships they must not change a verdict.
#[test]
fn hints_never_change_a_verdict() {
    let mut files = Vec::new();
    for dir in ["tests/programs/bounded", "tests/programs/coarsen", "benchmarks/examples"] {
        let mut fs: Vec<_> = std::fs::read_dir(common::repo(dir)).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
        fs.sort();
        files.extend(fs);
    }
    assert!(files.len() >= 15, "{files:?}");
    for f in &files {
        let p = load(f, &FrontendOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for k in [1, 2] {
            assert_eq!(engine_statuses(&p, k, true), engine_statuses(&p, k, false), "{} at bound {k}", f.display());
        }
    }
}

#[test]
fn candidates_that_only_overflow_leave_the_bound_clean_but_never_safe() {
    let p = program("tests/programs/bounded/overflow_only.c", &[]);
    for k in [1, 2] {
        let o = outcomes(&p, k);
        match &o[0] {
            BoundedOutcome::BoundedSafe { reason } => assert!(reason.contains("signed overflow"), "{reason}"),
            other => panic!("bound {k}: expected bounded-safe, got {other:?}"),
        }
    }
    let twin = program("tests/programs/bounded/overflow_only.c", &["TWIN"]);
    let o = outcomes(&twin, 1);
    assert!(is_violated(&o[0]), "a = 5 fails without overflow: {o:?}");
}

#[test]
fn a_read_never_copies_an_overwritten_value() {
    // The "no write in between" constraints, across units and inside one atomic unit: each
    // safe variant has a failing twin that differs only in where the overwrite happens.
    for (defs, violated) in [(vec![], false), (vec!["LATE"], true), (vec!["ATOMIC"], false), (vec!["ATOMIC", "SPLIT"], true)] {
        let p = program("tests/programs/bounded/overwritten.c", &defs);
        let o = outcomes(&p, 1);
        if violated {
            assert!(is_violated(&o[0]), "{defs:?}: {o:?}");
        } else {
            assert!(matches!(o[0], BoundedOutcome::Safe { .. }), "{defs:?}: no loops, two threads: exhaustive, so safe: {o:?}");
        }
    }
}

#[test]
fn an_atomic_sections_shared_exit_keeps_its_reads_constrained() {
    // The unrolled iterations share the section's failing exit; the reads on the path to it
    // once had no copy constraint, which gave a candidate that never replayed (unknown).
    let p = program("tests/programs/bounded/atomic_call_exit.c", &[]);
    for k in [1, 2] {
        let o = outcomes(&p, k);
        assert!(matches!(o[0], BoundedOutcome::BoundedSafe { .. }), "bound {k}: the thread reads its own push: {o:?}");
    }
    let twin = program("tests/programs/bounded/atomic_call_exit.c", &["RESET"]);
    let o = outcomes(&twin, 1);
    assert!(is_violated(&o[0]), "main may empty the stack between the push and the check: {o:?}");
}

#[test]
fn slices_widen_until_the_failure_is_found_and_never_prove_alone() {
    // The chain of four links is found on the slice of 4 instances, after the slice of 2
    // found nothing; the chain of five only by the whole query after both slices; the broken
    // chain is proved only by the whole query (every slice answered `unsat` before it).
    let run = |defs: &[&str]| {
        let p = program("tests/programs/bounded/relay.c", defs);
        let r = bounded::run(&p, &BoundedOptions::new(1), None, &all(&p));
        (r.outcomes[0].1.clone(), r.stats.slices.clone(), r.stats.found_on_slice)
    };
    let (o, slices, found) = run(&[]);
    assert!(is_violated(&o), "{o:?}");
    assert_eq!((slices, found), (vec![2, 4], 1));
    let (o, slices, found) = run(&["LONG"]);
    assert!(is_violated(&o), "{o:?}");
    assert_eq!((slices, found), (vec![2, 4], 0));
    let (o, slices, found) = run(&["BROKEN"]);
    assert!(matches!(o, BoundedOutcome::Safe { .. }), "no loops, nine threads: exhaustive, so safe: {o:?}");
    assert_eq!((slices, found), (vec![2, 4], 0));
    let (o, _, _) = run(&["BROKEN", "LONG"]);
    assert!(matches!(o, BoundedOutcome::Safe { .. }), "{o:?}");
}
