//! The finite-state engine (thread-modular verification with exception sets) on mutual
//! exclusion algorithms written in C: correct versions proved for the threads they create,
//! broken twins never proved.

use crate::common;

use duet_rs::finite::{self, cartesian::Cartesian, exceptions, exceptions::Region, model::Model, FiniteOptions, FiniteStatus, Method};
use duet_rs::frontend::{self, FrontendOptions};
use duet_rs::ir::{AssertId, Program};
use std::path::PathBuf;

fn load(name: &str) -> Program {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/finite").join(name);
    frontend::load(&path, &FrontendOptions::default()).unwrap_or_else(|d| panic!("{name}: {d}"))
}

fn outcomes(name: &str, opts: &FiniteOptions) -> Vec<FiniteStatus> {
    let prog = load(name);
    let open: Vec<AssertId> = (0..prog.assertions.len() as u32).map(AssertId).collect();
    assert!(!open.is_empty(), "{name} has no assertion");
    finite::prove(&prog, &open, opts).into_iter().map(|o| o.status).collect()
}

/// `check --format json` with `args` (flags, then the file): each assertion's status and reason.
fn check_verdicts(args: &[&str]) -> Vec<(String, String)> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let o = common::duet(&all);
    let (out, err) = common::texts(&o);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}{err}"));
    r["tasks"][0]["assertions"].as_array().unwrap().iter().map(|a| (a["status"].as_str().unwrap().to_string(), a["reason"].as_str().unwrap().to_string())).collect()
}

fn assert_proved(name: &str) -> Vec<Method> {
    let out = outcomes(name, &FiniteOptions::default());
    out.iter()
        .map(|s| match s {
            FiniteStatus::Proved { method, .. } => *method,
            other => panic!("{name}: expected a proof, got {other:?}"),
        })
        .collect()
}

fn assert_not_proved(name: &str) {
    for s in outcomes(name, &FiniteOptions::default()) {
        assert!(!matches!(s, FiniteStatus::Proved { .. }), "{name}: the broken version must never be proved: {s:?}");
    }
}

#[test]
fn peterson() {
    assert_proved("peterson.c");
    assert_not_proved("peterson_swapped_turn.c");
}

#[test]
fn dekker() {
    assert_proved("dekker.c");
    assert_not_proved("dekker_no_protocol.c");
}

#[test]
fn bakery() {
    assert_proved("bakery.c");
    assert_not_proved("bakery_no_tiebreak.c");
}

#[test]
fn szymanski() {
    // An earlier version of szymanski.c read `flag[other]` twice in its exit wait; the engine
    // refused to prove it, and the bounded search replays the interleaving that breaks it.
    assert_proved("szymanski.c");
    assert_not_proved("szymanski_no_wait.c");
}

/// In `check`'s default strategy the engine proves the correct protocols, and the bounded
/// search finds every broken twin with a replayed interleaving.
#[test]
fn slow_default_strategy_proves_the_protocols_and_finds_the_broken_twins() {
    if !common::slow("default_strategy_proves_the_protocols_and_finds_the_broken_twins") {
        return;
    }
    let run = |file: &str| check_verdicts(&["--search-time", "60", "--finite-time", "120", &format!("tests/programs/finite/{file}")]);
    for file in ["peterson.c", "bakery.c", "ticket.c", "szymanski.c"] {
        let vs = run(file);
        assert!(!vs.is_empty(), "{file}");
        for (status, reason) in &vs {
            assert_eq!(status, "safe", "{file}: {reason}");
        }
        assert!(vs.iter().any(|(_, r)| r.contains("threads the program creates")), "{file}: {vs:?}");
    }
    for file in ["peterson_swapped_turn.c", "dekker_no_protocol.c", "bakery_no_tiebreak.c", "ticket_skip.c", "szymanski_no_wait.c"] {
        let vs = run(file);
        assert!(vs.iter().any(|(s, _)| s == "violated"), "{file}: {vs:?}");
        assert!(vs.iter().all(|(s, _)| s != "safe"), "{file}: {vs:?}");
    }
}

#[test]
fn ticket_lock() {
    assert_proved("ticket.c");
    assert_not_proved("ticket_skip.c");
}

/// The paper's Figure 2 with its exception set `E = {(110, B, D), (110, C, C), (111, D, B)}`
/// (x y turn; B, C, D are the lines of `turn := …`, the busy wait and `x := 0`/`y := 0`).
#[test]
fn paper_peterson_fixpoint_excludes_both_at_d() {
    let prog = load("paper_peterson.c");
    let m = Model::build(&prog, None).unwrap();
    let slot = |name: &str| m.slots.iter().position(|s| s.name == name).unwrap();
    let (p1, p2) = (slot("p1"), slot("p2"));
    let (d1, d2) = (12, 22);
    // Without exceptions, Cartesian abstraction puts both threads at D (the paper's point).
    let plain = Cartesian::run(&m, Vec::new(), Vec::new(), 100_000, None).unwrap();
    assert!(plain.together(p1, d1, p2, d2), "plain Cartesian fixpoint should hold (…, D, D)");
    let text = "# the paper's exception set\n\
                exception x=1 y=1 turn=0 : p1@10 p2@22\n\
                exception x=1 y=1 turn=0 : p1@11 p2@21\n\
                exception x=1 y=1 turn=1 : p1@12 p2@20\n";
    let spec = exceptions::ExceptionSpec::parse("paper.exc", text).unwrap();
    let rules = spec.resolve(&m).unwrap();
    let refined = Cartesian::run(&m, Vec::new(), rules, 100_000, None).unwrap();
    assert!(!refined.together(p1, d1, p2, d2), "the fixpoint with exceptions holds a state with both at D:\n{}", refined.dump());
}

#[test]
fn malformed_exceptions_are_located() {
    let err = exceptions::ExceptionSpec::parse("e.exc", "# ok\nexception x=1 : p1@\n").unwrap_err();
    assert_eq!((err.line, err.col), (2, 20), "{err:?}");
    assert!(err.message.contains("integer"), "{}", err.message);
    let err = exceptions::ExceptionSpec::parse("e.exc", "exceptoin x=1 : p1@3\n").unwrap_err();
    assert_eq!((err.line, err.col), (1, 1));
    let prog = load("paper_peterson.c");
    let m = Model::build(&prog, None).unwrap();
    let spec = exceptions::ExceptionSpec::parse("e.exc", "\nexception z=1 : p1@3\n").unwrap();
    let err = spec.resolve(&m).unwrap_err();
    assert_eq!((err.line, err.col), (2, 11));
    assert!(err.message.contains("not a tracked global"), "{}", err.message);
}

/// A Figure 3 instance written by `gen_fig3.py` (`extra`: its mode flag).
fn figure3(n: u32, m: u32, extra: &[&str]) -> Program {
    // Tests run in parallel and may ask for the same instance: each call has its own directory.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("duet-finite-{}-{call}-{n}-{m}{}", std::process::id(), extra.join("")));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("fig3_{n}_{m}.c"));
    let gen = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks/finite/gen_fig3.py");
    let out = std::process::Command::new("python3").arg(&gen).args([n.to_string(), m.to_string()]).args(extra).output().expect("python3");
    std::fs::write(&path, &out.stdout).unwrap();
    let prog = frontend::load(&path, &FrontendOptions::default()).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    prog
}

fn all_open(prog: &Program) -> Vec<AssertId> {
    (0..prog.assertions.len() as u32).map(AssertId).collect()
}

/// Figure 3 with its ghost counter: proved with Section 5's exceptions, not without them;
/// whether its threads share one start routine or each has its own that calls the same code
/// (one symmetric class either way).
#[test]
fn figure3_needs_exceptions() {
    for extra in [&[][..], &["--distinct"][..]] {
        let prog = figure3(4, 2, extra);
        let m = Model::build(&prog, None).unwrap();
        let classes: Vec<Option<u32>> = m.classes.iter().map(|c| c.count).collect();
        assert_eq!(classes, vec![Some(1), Some(4)], "{extra:?}");
        let open = all_open(&prog);
        let with = finite::prove(&prog, &open, &FiniteOptions { exact_fallback: false, ..FiniteOptions::default() });
        for o in &with {
            assert_eq!(o.status, FiniteStatus::Proved { method: Method::Exceptions, threads: finite::ThreadClaim::AsCreated }, "{extra:?} {o:?}");
        }
        let without = finite::prove(&prog, &open, &FiniteOptions { exact_fallback: false, auto_exceptions: false, ..FiniteOptions::default() });
        assert!(without.iter().all(|o| !o.proved()), "{extra:?} {without:?}");
    }
}

/// Threads created in a loop of unknown bound: the parameterized abstraction proves the spin
/// lock for every number of threads (and needs the exceptions for it); a lock whose
/// test-and-set is not atomic is never proved.
#[test]
fn parameterized_spin_lock() {
    let prog = load("spin_loop.c");
    let open = all_open(&prog);
    let m = Model::build(&prog, None).unwrap();
    assert_eq!(m.classes.iter().map(|c| c.count).collect::<Vec<_>>(), vec![Some(1), None]);
    for o in finite::prove(&prog, &open, &FiniteOptions::default()) {
        assert_eq!(o.status, FiniteStatus::Proved { method: Method::Exceptions, threads: finite::ThreadClaim::Every(vec!["worker".into()]) }, "{o:?}");
    }
    let without = finite::prove(&prog, &open, &FiniteOptions { auto_exceptions: false, ..FiniteOptions::default() });
    assert!(without.iter().all(|o| !o.proved()), "{without:?}");
    assert_not_proved("spin_loop_no_atomic.c");
    // The same family created in a loop, from the generator.
    let prog = figure3(3, 3, &["--loop"]);
    for o in finite::prove(&prog, &all_open(&prog), &FiniteOptions::default()) {
        assert!(matches!(o.status, FiniteStatus::Proved { threads: finite::ThreadClaim::Every(_), .. }), "{o:?}");
    }
}

/// A property that holds for two threads and fails for three: proved for the two threads
/// lock_count_two.c creates, and for two instances when asked, but never for every number of
/// threads, nor for three.
#[test]
fn thread_count_twin_is_never_proved_for_every_count() {
    assert_proved("lock_count_two.c");
    let prog = load("lock_count_loop.c");
    let open = all_open(&prog);
    for exceptions in [true, false] {
        for o in finite::prove(&prog, &open, &FiniteOptions { auto_exceptions: exceptions, ..FiniteOptions::default() }) {
            assert!(!o.proved(), "{o:?}");
        }
    }
    for o in finite::prove(&prog, &open, &FiniteOptions { instances: Some(2), ..FiniteOptions::default() }) {
        assert!(matches!(o.status, FiniteStatus::Proved { threads: finite::ThreadClaim::Instances(2), .. }), "{o:?}");
    }
    for o in finite::prove(&prog, &open, &FiniteOptions { instances: Some(3), ..FiniteOptions::default() }) {
        assert!(!o.proved(), "{o:?}");
    }
}

/// `check` reports the parameterized proof as one for every number of threads (alone: COARSEN
/// proves spin_loop.c too), and the default strategy finds the twins' violations.
#[test]
fn default_strategy_on_unbounded_threads() {
    let run = |file: &str, engines: &[&str]| {
        let path = format!("tests/programs/finite/{file}");
        let mut args = vec!["--search-time", "60"];
        args.extend(engines);
        args.push(&path);
        check_verdicts(&args)
    };
    let vs = run("spin_loop.c", &["--engines", "finite"]);
    assert!(!vs.is_empty());
    for (status, reason) in &vs {
        assert_eq!(status, "safe", "{reason}");
        assert!(reason.contains("every number of threads of the unboundedly created `worker`"), "{reason}");
    }
    for file in ["lock_count_loop.c", "spin_loop_no_atomic.c"] {
        let vs = run(file, &[]);
        assert!(vs.iter().any(|(s, _)| s == "violated"), "{file}: {vs:?}");
        assert!(vs.iter().all(|(s, _)| s != "safe"), "{file}: {vs:?}");
    }
}

/// Figure 3 with a test-and-set loop as its acquire: a spinning thread has written lck = 1 as
/// well, so Section 5's region starts where the value the test-and-set read is known to be 0.
/// Proved with exceptions (not without) for the threads created one by one, each with its own
/// start routine, and for every number of threads created in a loop.
#[test]
fn tas_figure3_needs_the_test_and_set_region() {
    for (n, m, extra) in [(2, 1, &["--tas"][..]), (3, 3, &["--tas"][..]), (5, 9, &["--tas"][..]), (4, 2, &["--tas", "--distinct"][..])] {
        let prog = figure3(n, m, extra);
        let open = all_open(&prog);
        let with = finite::prove(&prog, &open, &FiniteOptions { exact_fallback: false, ..FiniteOptions::default() });
        for o in &with {
            assert_eq!(o.status, FiniteStatus::Proved { method: Method::Exceptions, threads: finite::ThreadClaim::AsCreated }, "{n} x {m} {extra:?}: {o:?}");
        }
        if n <= 3 {
            let without = finite::prove(&prog, &open, &FiniteOptions { exact_fallback: false, auto_exceptions: false, ..FiniteOptions::default() });
            assert!(without.iter().all(|o| !o.proved()), "{n} x {m} {extra:?}: {without:?}");
        }
    }
    let prog = figure3(3, 2, &["--tas", "--loop"]);
    for o in finite::prove(&prog, &all_open(&prog), &FiniteOptions::default()) {
        assert!(matches!(o.status, FiniteStatus::Proved { method: Method::Exceptions, threads: finite::ThreadClaim::Every(_) }), "{o:?}");
    }
    for o in finite::prove(&load("tas_figure3.c"), &all_open(&load("tas_figure3.c")), &FiniteOptions::default()) {
        assert!(matches!(o.status, FiniteStatus::Proved { method: Method::Exceptions, .. }), "{o:?}");
    }
}

/// The region the analysis derives for the test-and-set: before the branch on the value read,
/// inside exactly when that value (a local of the thread) is 0; in the critical section,
/// inside; at the acquire and after the release, outside.
#[test]
fn tas_region_starts_where_the_value_read_is_zero() {
    let prog = figure3(2, 1, &["--tas"]);
    let m = Model::build(&prog, None).unwrap();
    let fams = exceptions::families(&m);
    assert_eq!(fams.len(), 1, "{fams:?}");
    let f = &fams[0];
    assert_eq!(f.name, "lck");
    let t = &prog.templates[1];
    let region = |l: duet_rs::ir::LocId| &f.region[l.index()];
    let assert_loc = t.locs.iter().copied().find(|&l| matches!(prog.loc(l).action, duet_rs::ir::Action::Assert(..))).unwrap();
    assert_eq!(region(assert_loc), &Region::In);
    // The branch on the test-and-set's result: a thread stands before either assume.
    let end = t.locs.iter().copied().find(|&l| matches!(prog.loc(l).action, duet_rs::ir::Action::AtomicEnd)).unwrap();
    let assumes = &prog.loc(end).succs;
    assert_eq!(assumes.len(), 2);
    for &l in assumes {
        assert!(matches!(region(l), Region::IfZero(c) if !c.is_empty()), "{l}: {:?}", region(l));
    }
    let release = t.locs.iter().copied().rfind(|&l| matches!(&prog.loc(l).action, duet_rs::ir::Action::Assign(_, e) if e.as_const() == Some(0))).unwrap();
    assert_eq!(region(release), &Region::In, "the release itself runs inside");
    assert_eq!(region(t.entry), &Region::Out);
    assert_eq!(region(prog.loc(release).succs[0]), &Region::Out);
}

/// The broken test-and-set forms are never proved by the engine: for the threads they create,
/// and for two and three instances of a template created in a loop (where the exact
/// exploration runs too).
#[test]
fn tas_twins_are_never_proved() {
    for name in ["tas_skip.c", "tas_ignored.c", "tas_blind_set.c", "tas_not_atomic.c"] {
        let prog = load(name);
        let open = all_open(&prog);
        for instances in [None, Some(2), Some(3)] {
            for auto_exceptions in [true, false] {
                for o in finite::prove(&prog, &open, &FiniteOptions { instances, auto_exceptions, ..FiniteOptions::default() }) {
                    assert!(!o.proved(), "{name} {instances:?}: {o:?}");
                }
            }
        }
    }
}

/// The exception set is part of the concretisation, so the region only decides precision:
/// with any region at all (here pseudo-random ones) the Cartesian fixpoint keeps a failing
/// state of every broken twin.
#[test]
fn any_region_is_sound() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as u32
    };
    for name in ["tas_skip.c", "tas_ignored.c", "tas_blind_set.c", "tas_not_atomic.c", "spin_loop_no_atomic.c", "peterson_swapped_turn.c"] {
        let prog = load(name);
        let m = Model::build(&prog, None).unwrap();
        let cells: Vec<usize> = (0..m.shared_len()).collect();
        let locals = m.init_locals.iter().map(|l| l.len()).max().unwrap();
        for round in 0..8 {
            let families = (0..1 + next() % 2)
                .map(|_| {
                    let cell = cells[next() as usize % cells.len()];
                    let region = (0..prog.locs.len())
                        .map(|_| match next() % 3 {
                            0 => Region::Out,
                            1 => Region::In,
                            _ => Region::IfZero(vec![1 + next() as usize % locals.saturating_sub(2).max(1)]),
                        })
                        .collect();
                    exceptions::Family { cell, name: m.global_names[cell].clone(), region }
                })
                .collect();
            let c = Cartesian::run(&m, families, Vec::new(), 100_000, None).unwrap();
            assert!(all_open(&prog).iter().any(|&a| !c.failures(a).is_empty()), "{name}, round {round}: a random region proved a broken twin");
        }
    }
}

/// `check`'s default strategy proves the test-and-set form (the Cartesian phase gets a first
/// try before bound 1, whose solver spends its budget on the spin loops) and finds every twin's
/// violation; a release that writes 1 keeps the lock taken for good, which breaks no mutual
/// exclusion, and is proved.
#[test]
fn default_strategy_on_test_and_set() {
    // A larger finite budget gives the first try (a 25th of it) room on a loaded machine.
    let run = |path: &str| check_verdicts(&["--search-time", "60", "--finite-time", "50", path]);
    let dir = std::env::temp_dir().join(format!("duet-finite-tas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gen = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks/finite/gen_fig3.py");
    let out = std::process::Command::new("python3").arg(&gen).args(["3", "3", "--tas"]).output().expect("python3");
    let generated = dir.join("fig3_tas_3_3.c");
    std::fs::write(&generated, &out.stdout).unwrap();
    for path in [generated.to_str().unwrap(), "tests/programs/finite/tas_figure3.c", "tests/programs/finite/tas_release_one.c"] {
        let vs = run(path);
        assert!(!vs.is_empty(), "{path}");
        for (status, reason) in &vs {
            assert_eq!(status, "safe", "{path}: {reason}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    for file in ["tas_skip.c", "tas_ignored.c", "tas_blind_set.c", "tas_not_atomic.c"] {
        let vs = run(&format!("tests/programs/finite/{file}"));
        assert!(vs.iter().any(|(s, _)| s == "violated"), "{file}: {vs:?}");
        assert!(vs.iter().all(|(s, _)| s != "safe"), "{file}: {vs:?}");
    }
}

/// Timings for the Figure 3 family (`benchmarks/finite/run.sh`); measures, asserts nothing
/// about speed. `FIG3_N` and `FIG3_M` (comma-separated) choose the sizes; `FIG3_MODE` passes
/// its flags to the generator: `--distinct` (a start routine per thread) or `--loop` (every
/// number of threads), and `--tas` (the lock taken by a test-and-set loop).
#[test]
#[ignore]
fn bench_figure3() {
    let list = |var: &str, default: &str| -> Vec<u32> { std::env::var(var).unwrap_or_else(|_| default.into()).split(',').map(|s| s.trim().parse().unwrap()).collect() };
    let dir = std::env::temp_dir().join(format!("duet-finite-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gen = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks/finite/gen_fig3.py");
    let mode: Vec<String> = std::env::var("FIG3_MODE").unwrap_or_default().split_whitespace().map(String::from).collect();
    println!("n\tm\tload_s\tprove_s\tproved\tplain_proved\tclasses");
    for n in list("FIG3_N", "10,20,30,40,50,60,70,80,90,100") {
        for m in list("FIG3_M", "1,3,5,7,9") {
            let path = dir.join(format!("fig3_{n}_{m}.c"));
            let out = std::process::Command::new("python3").arg(&gen).args([n.to_string(), m.to_string()]).args(&mode).output().unwrap();
            std::fs::write(&path, &out.stdout).unwrap();
            let t = std::time::Instant::now();
            let prog = frontend::load(&path, &FrontendOptions::default()).unwrap();
            let load = t.elapsed().as_secs_f64();
            let open: Vec<AssertId> = (0..prog.assertions.len() as u32).map(AssertId).collect();
            let t = std::time::Instant::now();
            let res = finite::prove(&prog, &open, &FiniteOptions { exact_fallback: false, ..FiniteOptions::default() });
            let prove = t.elapsed().as_secs_f64();
            let plain = if n <= 20 {
                let r = finite::prove(&prog, &open, &FiniteOptions { exact_fallback: false, auto_exceptions: false, ..FiniteOptions::default() });
                r.iter().all(|o| o.proved()).to_string()
            } else {
                "-".into()
            };
            let classes = Model::build(&prog, None).map(|md| md.classes.len()).unwrap_or(0);
            println!("{n}\t{m}\t{load:.3}\t{prove:.3}\t{}\t{plain}\t{classes}", res.iter().all(|o| o.proved()));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The filter lock (generalised Peterson) for three threads: proved by the exact exploration,
/// whose partial-order reduction runs local steps together; the twin whose last thread waits
/// too little is not.
#[test]
fn filter_lock_three_threads() {
    assert!(assert_proved("filter3.c").contains(&Method::Exact));
    assert_not_proved("filter3_weak_wait.c");
}

/// Local steps that stall (a local spin, a blocking local `assume`) after a write: the exact
/// exploration still reaches the states where the write is seen.
#[test]
fn stalled_local_steps_keep_the_write_before_them() {
    let out = outcomes("write_then_local_stall.c", &FiniteOptions::default());
    assert_eq!(out.len(), 2);
    for s in out {
        let FiniteStatus::NotProved(why) = &s else { panic!("write_then_local_stall.c: must not be proved: {s:?}") };
        assert!(why.contains("the projection reaches a failing state"), "the exact exploration must find the failure: {why}");
    }
}

/// The exact exploration keeps a thread's pick between the arms of a condition open until one
/// of them runs (one position for both arms). A failure on one arm is still found, whether the
/// pick is on a local value or on a global one another thread writes.
#[test]
fn open_branch_picks_keep_every_failure() {
    for name in ["branch_pick_open.c", "branch_pick_read.c"] {
        let out = outcomes(name, &FiniteOptions::default());
        assert_eq!(out.len(), 1, "{name}");
        let FiniteStatus::NotProved(why) = &out[0] else { panic!("{name}: must not be proved: {:?}", out[0]) };
        assert!(why.contains("the projection reaches a failing state"), "{name}: the exact exploration must find the failure: {why}");
    }
}

/// The filter lock for three threads with the picks kept open: still proved, in fewer than
/// half the 42,175 states the exploration visited when each pick was a state of its own.
#[test]
fn open_branch_picks_shrink_the_filter_lock() {
    let prog = load("filter3.c");
    let m = Model::build(&prog, None).unwrap();
    let x = finite::explicit::Explicit::run(&m, 200_000, 16_000_000, None).unwrap();
    assert!(x.states.len() < 42_175 / 2, "{} states", x.states.len());
    for a in all_open(&prog) {
        assert!(x.failures(a).is_empty(), "{:?}", x.failures(a));
    }
}

/// A test-and-set spin loop that re-reads the flag into the same local: the region analysis
/// behind the automatic exception sets used to cycle for ever on it (its transfer is not
/// monotone), past every budget. The engine now ends, proves mutual exclusion, and never proves
/// the twin whose loop forgets to set the flag, for the threads created and for every number
/// of them.
#[test]
fn tas_spin_loop_rereading_the_flag_ends() {
    assert!(!assert_proved("tas_spin_reread.c").is_empty());
    let prog = load("tas_spin_reread.c");
    let families = exceptions::families(&Model::build(&prog, None).unwrap());
    assert!(families.iter().any(|f| f.name == "lock"), "the flag `lock` gets a region: {families:?}");
    let twin = load("tas_spin_reread_no_set.c");
    let open = all_open(&twin);
    for instances in [None, Some(2), Some(3)] {
        for o in finite::prove(&twin, &open, &FiniteOptions { instances, ..FiniteOptions::default() }) {
            assert!(!o.proved(), "{instances:?}: {o:?}");
        }
    }
}

/// The refinement loop (`finite::refine`) on Peterson's algorithm: the plain Cartesian
/// fixpoint (round 1) holds a failing state, and exact thread states taken from the glued
/// states behind the failures prove mutual exclusion in a few rounds. Through `prove` the
/// proof is reported as the loop's.
#[test]
fn refinement_loop_proves_peterson() {
    let prog = load("peterson.c");
    let m = Model::build(&prog, None).unwrap();
    let open = all_open(&prog);
    let budget = finite::refine::Budget { rounds: 20, max_states: 1_000_000, max_stores: 4_000, deadline: None };
    let r = finite::refine::refine(&m, &open, budget);
    assert!(r.verdicts.iter().all(|(_, v)| *v == finite::refine::Verdict::Proved), "{:?}", r.verdicts);
    assert!(r.rounds > 1 && r.rounds <= 4, "{} rounds", r.rounds);
    assert!(r.exact > 0);
    // Without any exact thread state (one round), the abstraction is too coarse.
    let one = finite::refine::refine(&m, &open, finite::refine::Budget { rounds: 1, ..budget });
    assert!(one.verdicts.iter().all(|(_, v)| matches!(v, finite::refine::Verdict::Open(_))), "{:?}", one.verdicts);
    let opts = FiniteOptions { refine: true, ..FiniteOptions::default() };
    for s in outcomes("peterson.c", &opts) {
        assert!(matches!(s, FiniteStatus::Proved { method: Method::Refined, threads: finite::ThreadClaim::AsCreated }), "{s:?}");
    }
}

/// The failing twin of the loop: Peterson with the turn assignments swapped. The loop must
/// never prove it; it ends on a path of exact steps from the initial state to the failure.
#[test]
fn refinement_loop_never_proves_swapped_turn() {
    let prog = load("peterson_swapped_turn.c");
    let m = Model::build(&prog, None).unwrap();
    let open = all_open(&prog);
    let r = finite::refine::refine(&m, &open, finite::refine::Budget { rounds: 20, max_states: 1_000_000, max_stores: 4_000, deadline: None });
    for (a, v) in &r.verdicts {
        let finite::refine::Verdict::Reached(at) = v else { panic!("{a:?}: the broken version must be reached: {v:?}") };
        assert!(at.contains("inside=2"), "{at}");
    }
    for name in ["peterson_swapped_turn.c", "dekker_no_protocol.c", "szymanski_no_wait.c", "filter3_weak_wait.c"] {
        for s in outcomes(name, &FiniteOptions { refine: true, ..FiniteOptions::default() }) {
            assert!(!matches!(s, FiniteStatus::Proved { .. }), "{name}: the broken version must never be proved: {s:?}");
        }
    }
}

/// The finite engine keeps its own budget when the search spends all of its own at bound 1 (a
/// loaded machine, or a solver stuck on spin loops): the protocols are still proved, and the
/// broken twins still never are. Deepening once skipped the engine's full pass whenever it had
/// stopped, for whatever reason.
#[test]
fn a_spent_search_budget_leaves_the_finite_engine_its_pass() {
    let run = |file: &str| check_verdicts(&["--search-time", "0.001", "--finite-time", "120", &format!("tests/programs/finite/{file}")]).into_iter().map(|(s, _)| s).collect::<Vec<_>>();
    for file in ["peterson.c", "ticket.c"] {
        let vs = run(file);
        assert!(!vs.is_empty() && vs.iter().all(|s| s == "safe"), "{file}: {vs:?}");
    }
    for file in ["peterson_swapped_turn.c", "ticket_skip.c"] {
        let vs = run(file);
        assert!(vs.iter().all(|s| s != "safe"), "{file}: {vs:?}");
    }
}

/// COARSEN's invariants narrow the projection it hands the engine: a worker that the
/// projection starts early reads a mode no execution reads, and a lost input value is split
/// into the values COARSEN allows. Without the invariants (`--no-coarsen-hints`) neither is
/// proved, and the failing twins, where the mode may really be unset or the identities
/// really clash, are never proved and are found by the default strategy.
#[test]
fn coarsen_invariants_narrow_the_projection() {
    let run = |file: &str, flags: &[&str]| {
        let path = format!("tests/programs/finite/{file}");
        let mut args = vec!["--search-time", "30", "--finite-time", "120"];
        args.extend_from_slice(flags);
        args.push(&path);
        check_verdicts(&args)
    };
    for file in ["narrow_mode_peterson.c", "narrow_split_input.c"] {
        let vs = run(file, &["--engines", "coarsen,finite"]);
        assert!(!vs.is_empty() && vs.iter().all(|(s, r)| s == "safe" && r.contains("narrowed by COARSEN's invariants")), "{file}: {vs:?}");
        let vs = run(file, &["--engines", "coarsen,finite", "--no-coarsen-hints"]);
        assert!(!vs.is_empty() && vs.iter().all(|(s, _)| s != "safe"), "{file} without the invariants: {vs:?}");
    }
    for file in ["narrow_mode_peterson_late.c", "narrow_split_input_other.c"] {
        let vs = run(file, &["--engines", "coarsen,finite"]);
        assert!(vs.iter().all(|(s, _)| s != "safe"), "{file}: {vs:?}");
        let vs = run(file, &[]);
        assert!(vs.iter().any(|(s, _)| s == "violated") && vs.iter().all(|(s, _)| s != "safe"), "{file}: {vs:?}");
    }
}

/// Workers created by a counted loop: the engine explores exactly the threads the program
/// creates (the bounded search's count), which proves what fails for more workers. The twin
/// that creates three is violated, and `--parameterized` (any number of workers) never
/// proves the original.
#[test]
fn counted_creation_loops_are_explored_as_created() {
    let run = |file: &str, flags: &[&str]| {
        let path = format!("tests/programs/finite/{file}");
        let mut args = vec!["--search-time", "20", "--finite-time", "60"];
        args.extend_from_slice(flags);
        args.push(&path);
        check_verdicts(&args)
    };
    for flags in [&[][..], &["--engines", "coarsen,finite"][..]] {
        let vs = run("counted_workers.c", flags);
        assert!(!vs.is_empty() && vs.iter().all(|(s, r)| s == "safe" && r.contains("threads the program creates")), "{flags:?}: {vs:?}");
    }
    let vs = run("counted_workers.c", &["--parameterized"]);
    assert!(vs.iter().all(|(s, _)| s != "safe"), "parameterized: {vs:?}");
    let vs = run("counted_workers_three.c", &[]);
    assert!(vs.iter().any(|(s, _)| s == "violated") && vs.iter().all(|(s, _)| s != "safe"), "{vs:?}");
    let vs = run("counted_workers_three.c", &["--engines", "coarsen,finite"]);
    assert!(vs.iter().all(|(s, _)| s != "safe"), "{vs:?}");
}

#[test]
fn the_roots_join_of_the_thread_it_created_waits_for_its_end() {
    // Without waiting, the projection lets main pass the join while the thread still holds
    // the lock, and the count fails there.
    let run = |file: &str| check_verdicts(&["--engines", "finite", &format!("tests/programs/finite/{file}")]);
    let v = run("join_waits.c");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].0, "safe", "{v:?}");
    // The twins: another thread nobody joins, and a handle two creations write.
    for twin in ["join_waits_other.c", "join_waits_reused.c"] {
        assert!(run(twin).iter().all(|(s, _)| s != "safe"), "{twin}: {:?}", run(twin));
        let d = check_verdicts(&["--search-time", "60", &format!("tests/programs/finite/{twin}")]);
        assert!(d.iter().all(|(s, _)| s == "violated"), "{twin}: {d:?}");
    }
}

/// A test-and-set lock reached only through pointers (an inlined helper's `*old = *flag`),
/// taken by workers created without bound: the engine makes the accesses direct and proves
/// the counter for every number of workers. Twins: a worker that may skip the lock, a
/// release before the counter goes back down, a test-and-set in two steps, and a pointer
/// to one of two flags; none is proved, and the default strategy finds each violation.
#[test]
fn tas_through_pointers_for_every_thread_count() {
    let prog = load("tas_ptr_loop.c");
    for o in finite::prove(&prog, &all_open(&prog), &FiniteOptions::default()) {
        assert_eq!(o.status, FiniteStatus::Proved { method: Method::Exceptions, threads: finite::ThreadClaim::Every(vec!["worker".into()]) }, "{o:?}");
    }
    let direct = finite::derefs::direct(&prog).expect("the flag is reached through one pointer at a time");
    let m = Model::build(&direct, None).unwrap();
    assert!(m.global_cell("busy").is_some(), "the flag is tracked");
    let twins = ["tas_ptr_loop_skip.c", "tas_ptr_loop_early_release.c", "tas_ptr_loop_split.c", "tas_ptr_loop_two_flags.c"];
    for name in twins {
        assert_not_proved(name);
    }
    // Two flags behind one pointer: neither is made direct.
    let two = load("tas_ptr_loop_two_flags.c");
    assert!(finite::derefs::direct(&two).is_none_or(|p| Model::build(&p, None).unwrap().global_cell("spare").is_none()));
    let vs = check_verdicts(&["tests/programs/finite/tas_ptr_loop.c"]);
    assert!(!vs.is_empty() && vs.iter().all(|(s, _)| s == "safe"), "{vs:?}");
    for name in twins {
        let vs = check_verdicts(&["--search-time", "60", &format!("tests/programs/finite/{name}")]);
        assert!(vs.iter().any(|(s, _)| s == "violated"), "{name}: {vs:?}");
        assert!(vs.iter().all(|(s, _)| s != "safe"), "{name}: {vs:?}");
    }
}

/// The exact exploration stored as products per global store reaches the same failures as
/// the one stored state by state, on every program here with a fixed number of threads
/// (correct protocols and broken twins alike): it is exact, not an abstraction.
#[test]
fn products_and_states_find_the_same_failures() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/finite");
    let mut names: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).filter(|n| n.ends_with(".c") && !n.starts_with("filter4")).collect();
    names.sort();
    let (mut compared, mut failing) = (0, 0);
    for name in &names {
        let prog = load(name);
        let Ok(m) = Model::build(&prog, None) else { continue };
        let Ok(states) = finite::explicit::Explicit::run(&m, 200_000, 16_000_000, None) else { continue };
        let products = finite::products::Products::run(&m, 200_000, 16_000_000, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        for a in all_open(&prog) {
            let (s, p) = (states.failures(a), products.failures(a));
            assert_eq!(s.is_empty(), p.is_empty(), "{name} {a:?}: states {s:?}, products {p:?}");
            failing += usize::from(!s.is_empty());
            compared += 1;
        }
    }
    assert!(compared >= 40 && failing >= 15, "{compared} assertions compared, {failing} failing");
}

/// The filter lock for 4 threads: its 582,018 states are a few thousand products, every
/// thread's mutual exclusion holds in them, and the twin whose thread 0 waits only for threads
/// strictly above its level is not proved.
#[test]
fn products_prove_the_filter_lock_for_four_threads() {
    let prog = load("filter4.c");
    let m = Model::build(&prog, None).unwrap();
    let x = finite::products::Products::run(&m, 200_000, 16_000_000, None).unwrap();
    assert!(x.products() < 582_018 / 50, "{} products", x.products());
    for a in all_open(&prog) {
        assert!(x.failures(a).is_empty(), "{:?}", x.failures(a));
    }
    let out = outcomes("filter4.c", &FiniteOptions::default());
    assert!(out.iter().all(|s| matches!(s, FiniteStatus::Proved { method: Method::Exact, .. })), "{out:?}");
    let twin = outcomes("filter4_strict.c", &FiniteOptions::default());
    assert!(twin.iter().any(|s| matches!(s, FiniteStatus::NotProved(why) if why.contains("the projection reaches a failing state"))), "{twin:?}");
    assert!(!twin.iter().any(|s| matches!(s, FiniteStatus::Proved { .. })), "{twin:?}");
}
