//! The precision corpus of COARSEN (issue 13): every program of `tests/programs/precision/`
//! marks each assertion `// expect: safe` (COARSEN alone proves it, in both domains) or
//! `// expect: violated` (the assertion can fail: COARSEN must never call it safe, in either
//! domain). Each precision gain comes with such a failing twin. That the default check finds
//! each violation, the `// expect:` runner (`expect.rs`) checks.

use crate::common;

use duet_rs::coarsen::DomainKind;
use duet_rs::engine::CheckOptions;
use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::strategy::check_program;
use duet_rs::verdict::Status;

const DOMAINS: [DomainKind; 2] = [DomainKind::Interval, DomainKind::Octagon];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    Safe,
    Fails,
}

#[test]
fn precision_corpus() {
    let dir = common::repo("tests/programs/precision");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "c")).collect();
    files.sort();
    assert!(files.len() >= 16, "the corpus has its programs");
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let prog = load(f, &FrontendOptions::default()).unwrap();
        let expected: Vec<Expect> = prog
            .assertions
            .iter()
            .map(|a| {
                let line = src.lines().nth(a.span.line as usize - 1).unwrap();
                if line.contains("// expect: safe") {
                    Expect::Safe
                } else if line.contains("// expect: violated") {
                    Expect::Fails
                } else {
                    panic!("{}:{} has no expectation", f.display(), a.span.line)
                }
            })
            .collect();
        for d in DOMAINS {
            let opts = CheckOptions { domain: d, ..CheckOptions::coarsen_only() };
            let got: Vec<Status> = check_program(&prog, &opts).verdicts.into_iter().map(|v| v.status).collect();
            for (i, (e, g)) in expected.iter().zip(&got).enumerate() {
                let line = prog.assertions[i].span.line;
                match e {
                    Expect::Safe if *g != Status::Safe => failures.push(format!("{}:{line} {d:?}: not proved ({g:?})", f.display())),
                    // The worst bug: a wrong `safe`.
                    Expect::Fails if *g == Status::Safe => failures.push(format!("{}:{line} {d:?}: WRONG SAFE", f.display())),
                    _ => {}
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A join is definite only where its handle names the template's single instance: never for a
/// template created in a loop, and never in parameterized mode (every template unbounded).
#[test]
fn definite_joins_need_a_single_instance() {
    let dir = common::repo("tests/programs/precision");
    let definite = |file: &str, parameterized: bool| {
        let opts = FrontendOptions { parameterized, ..FrontendOptions::default() };
        let prog = load(&dir.join(file), &opts).unwrap();
        duet_rs::ir::joins::definite(&prog).len()
    };
    assert_eq!(definite("join_phase.c", false), 1);
    assert_eq!(definite("join_phase.c", true), 0);
    assert_eq!(definite("join_phase_fail.c", false), 0);
    assert_eq!(definite("join_other_fail.c", false), 1, "only the idle thread's join");
    assert_eq!(definite("result.c", false), 1);
    assert_eq!(duet_rs::ir::joins::results(&load(&dir.join("result.c"), &FrontendOptions::default()).unwrap()).len(), 1);
}

/// Locks relative to the accessed object: the disciplined programs have their cells protected,
/// and each soundness trap leaves the cell it reads unprotected.
#[test]
fn relative_locks_protect_only_disciplined_cells() {
    let dir = common::repo("tests/programs/precision");
    let protected = |file: &str| {
        let prog = load(&dir.join(file), &FrontendOptions::default()).unwrap();
        duet_rs::coarsen::privatise::plan(&prog).protected
    };
    assert_eq!(protected("lock_rel_struct.c"), ["cache[*].refs"]);
    assert_eq!(protected("lock_array.c"), ["a[*]"]);
    assert!(protected("lock_rel_param.c").contains(&"devs[*].state".to_string()));
    // `main` initialises without the lock before any thread exists.
    assert_eq!(protected("lock_rel_init.c"), ["cache[*].refs"]);
    for twin in [
        "lock_rel_other_fail.c",
        "lock_rel_reassign_fail.c",
        "lock_rel_unguarded_fail.c",
        "lock_rel_param_fail.c",
        "lock_array_index_fail.c",
        "lock_array_changed_fail.c",
        "lock_rel_init_late_fail.c",
        "lock_rel_init_loop_fail.c",
    ] {
        assert!(protected(twin).is_empty(), "{twin}: {:?}", protected(twin));
    }
    assert!(!protected("lock_rel_heap_fail.c").iter().any(|n| n.contains("heap")), "the heap cell written through another device");
}

/// Partitioning by held lockset: after the split, every copy of the write under the correlated
/// test surely holds the lock; with `c` changed in between, a copy of the write does not.
#[test]
fn partition_makes_correlated_locks_definite() {
    let dir = common::repo("tests/programs/precision");
    let held_at_writes = |file: &str, line: u32| {
        let prog = load(&dir.join(file), &FrontendOptions::default()).unwrap();
        let split = duet_rs::coarsen::partition::partition(&prog).expect("a location is reached with two locksets");
        let held = duet_rs::coarsen::locks::must_hold(&split);
        let writes: Vec<bool> =
            split.loc_ids().filter(|l| split.loc(*l).span.line == line && matches!(split.loc(*l).action, duet_rs::ir::Action::Assign(..))).map(|l| !held[l.index()].is_empty()).collect();
        assert!(!writes.is_empty(), "{file}:{line} has writes");
        writes
    };
    assert!(held_at_writes("correlated_lock.c", 14).iter().all(|h| *h));
    assert!(held_at_writes("correlated_lock_changed_fail.c", 14).iter().any(|h| !h));
}

/// Net counts after joins: the disciplined program gets the value of each counted global after
/// its last writer's join; each twin breaks one condition and gets no fact for the global it asserts on.
#[test]
fn counts_after_joins_need_every_writer_and_equal_loops() {
    let dir = common::repo("tests/programs/precision");
    let facts = |file: &str| {
        let prog = load(&dir.join(file), &FrontendOptions::default()).unwrap();
        let mut got: Vec<(String, i128)> = duet_rs::coarsen::counts::facts(&prog).into_iter().map(|f| (prog.var(f.var).source_name.clone(), f.value)).collect();
        got.sort();
        got
    };
    assert_eq!(facts("count_join.c"), [("hits".to_string(), 5), ("level".to_string(), 0), ("ticks".to_string(), 60)]);
    assert_eq!(facts("count_join_const_fail.c"), [("ticks".to_string(), 63)]);
    for twin in ["count_join_break_fail.c", "count_join_bound_fail.c", "count_join_racy_fail.c"] {
        assert!(facts(twin).is_empty(), "{twin}: {:?}", facts(twin));
    }
    // Only the second join completes the writers of `hits`; `more` has a writer without the lock.
    let early = load(&dir.join("count_join_early_fail.c"), &FrontendOptions::default()).unwrap();
    let got = duet_rs::coarsen::counts::facts(&early);
    assert!(got.iter().all(|f| early.var(f.var).source_name == "hits" && early.loc(f.after).span.line == 29), "{got:?}");
}

/// Twin threads: the disciplined program has one pair whose globals correspond (`x1` to `x2`,
/// `steps1` to `steps2`) and whose inputs are equal at the first fork; each failing twin breaks
/// one condition (equal inputs, determinism, `main` silent between the forks and the join, no
/// other writer) and keeps no pair.
#[test]
fn twins_need_equal_inputs_determinism_and_no_other_writer() {
    let dir = common::repo("tests/programs/precision");
    let held = |file: &str| {
        let prog = load(&dir.join(file), &FrontendOptions::default()).unwrap();
        let (_, twins) = duet_rs::coarsen::twins::rewrite(&prog, &|_| true);
        twins
            .iter()
            .map(|t| {
                let mut pairs: Vec<(String, String)> = t.pairs.iter().map(|(g, h)| (prog.var(*g).source_name.clone(), prog.var(*h).source_name.clone())).collect();
                pairs.sort();
                (prog.template(t.first).function.clone(), prog.template(t.second).function.clone(), pairs)
            })
            .collect::<Vec<_>>()
    };
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(held("twin_threads.c"), [("double1".to_string(), "double2".to_string(), vec![pair("steps1", "steps2"), pair("x1", "x2")])]);
    for twin in ["twin_inputs_fail.c", "twin_nondet_fail.c", "twin_between_fail.c", "twin_racy_fail.c"] {
        assert!(held(twin).is_empty(), "{twin}: {:?}", held(twin));
    }
}

/// Monotone globals: a test-and-set lock is one only when every release is made by its holder,
/// and a global is monotone only when every write is a guarded increment that cannot wrap.
#[test]
fn monotone_globals_need_guarded_increments_and_real_locks() {
    use duet_rs::coarsen::monotone;
    let dir = common::repo("tests/programs/precision");
    let names = |file: &str| {
        let prog = load(&dir.join(file), &FrontendOptions::default()).unwrap();
        let locks: Vec<String> = monotone::test_and_set_locks(&prog).0.iter().map(|v| prog.var(*v).source_name.clone()).collect();
        let grown: Vec<String> = monotone::rewrite(&prog).1.iter().map(|v| prog.var(*v).source_name.clone()).collect();
        (locks, grown)
    };
    let one = |s: &str| vec![s.to_string()];
    assert_eq!(names("monotone_tas.c"), (one("m"), one("value")));
    assert_eq!(names("monotone_mutex.c"), (vec![], one("value")));
    // The decrement, the unlocked write and the early read leave value unsettled; the lock stays.
    for twin in ["monotone_dec_fail.c", "monotone_unlocked_fail.c", "monotone_read_early_fail.c"] {
        assert_eq!(names(twin), (one("m"), vec![]), "{twin}");
    }
    // A release by a thread that does not hold m, or an acquire whose test is not atomic with its write.
    assert_eq!(names("monotone_rogue_release_fail.c"), (vec![], vec![]));
    assert_eq!(names("atomic_lock_fail.c"), (vec![], vec![]));
    let wrap = common::repo("tests/programs/coarsen");
    for twin in ["monotone_wrap.c", "monotone_signed_wrap.c"] {
        let prog = load(&wrap.join(twin), &FrontendOptions::default()).unwrap();
        assert!(monotone::rewrite(&prog).1.is_empty(), "{twin}");
    }
}

/// Path summaries of joined threads: `r1 = a - b; if (r1 == 0) r1 = x - y;` passes `r1 == 0`
/// only on paths that say `a == b` and `x == y`, and `r1 == 5` on a path that says neither; a
/// test no path passes is refuted. `main`'s rewrite uses them only when the inputs are the
/// thread's alone: another writer, or `main` writing an input after the forks, leaves every
/// test as it was.
#[test]
fn joined_paths_imply_equalities_of_unchanged_inputs() {
    use duet_rs::coarsen::paths::{summarise, Implied};
    use duet_rs::ir::{BinOp, Expr, Lval, Ty};
    let dir = common::repo("tests/programs/precision");
    let prog = load(&dir.join("join_paths_cmp.c"), &FrontendOptions::default()).unwrap();
    let var = |n: &str| duet_rs::ir::VarId(prog.vars.iter().position(|v| v.source_name == n).unwrap() as u32);
    let t = prog.templates.iter().position(|t| t.function == "cmp1").unwrap();
    let s = summarise(&prog, duet_rs::ir::TemplateId(t as u32)).expect("cmp1 is summarised");
    let test = |op: BinOp, c: i128| Expr::Binary(op, Box::new(Expr::Load(Lval::Var(var("r1")))), Box::new(Expr::Const(c, Ty::INT)), Ty::INT);
    let names = |i: Implied| match i {
        Implied::Refuted => vec!["refuted".to_string()],
        Implied::Facts(f) => f
            .iter()
            .map(|(g, h)| match h {
                Ok(h) => format!("{} == {}", prog.var(*g).source_name, prog.var(*h).source_name),
                Err(c) => format!("{} == {c}", prog.var(*g).source_name),
            })
            .collect(),
    };
    let mut zero = names(s.implied(&prog, &test(BinOp::Eq, 0), &|_| None, &|v| v));
    zero.sort();
    assert_eq!(zero, ["a == b", "x == y"]);
    assert!(names(s.implied(&prog, &test(BinOp::Eq, 5), &|_| None, &|v| v)).is_empty());
    // With a and b known to be 1 and 2, no path leaves r1 == 0.
    let known = |v: duet_rs::ir::VarId| [(var("a"), 1), (var("b"), 2)].iter().find(|(w, _)| *w == v).map(|(_, c)| *c);
    assert_eq!(names(s.implied(&prog, &test(BinOp::Eq, 0), &known, &|v| v)), ["refuted"]);
    let rewritten = |file: &str| {
        let prog = load(&dir.join(file), &FrontendOptions::default()).unwrap();
        duet_rs::coarsen::twins::rewrite(&prog, &|_| true).0.is_some()
    };
    assert!(rewritten("join_paths_cmp.c"));
    assert!(rewritten("join_paths_bool.c"));
    for twin in ["join_paths_cmp_racy_fail.c", "join_paths_cmp_main_fail.c", "join_paths_cmp_early_fail.c"] {
        assert!(!rewritten(twin), "{twin}");
    }
}
