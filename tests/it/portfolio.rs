//! The default strategy of `check` (issue 12): COARSEN first, then iterative deepening of the
//! bounded search on what it left open; `--engines`; exact counts of counted loops and of the
//! threads they create; the same verdicts whatever the worker count.

use crate::common;

use common::{duet, texts};
use duet_rs::bounded::unroll::Counts;
use duet_rs::engine::CheckOptions;
use duet_rs::frontend::{load, lower_text, FrontendOptions};
use duet_rs::ir::DataModel;
use duet_rs::strategy::check_program;
use duet_rs::svcomp::task::{self, Read};
use duet_rs::verdict::Status;
use serde_json::Value;
use std::time::Instant;

/// `check --format json` with `args`: the report and the exit code.
fn check_json(args: &[&str]) -> (Value, i32) {
    let mut all = vec!["check", "--format", "json", "--no-progress"];
    all.extend_from_slice(args);
    let out = duet(&all);
    let (stdout, stderr) = texts(&out);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\n{stderr}"));
    (v, out.status.code().unwrap_or(-1))
}

/// The assertions of the report's only task.
fn assertions(report: &Value) -> Vec<Value> {
    report["tasks"][0]["assertions"].as_array().cloned().unwrap_or_default()
}

fn status(a: &Value) -> &str {
    a["status"].as_str().unwrap_or("?")
}

#[test]
fn racy_counter_is_violated_by_default() {
    let (r, code) = check_json(&["benchmarks/examples/racy_counter.c"]);
    let a = assertions(&r);
    assert_eq!(a.len(), 1);
    assert_eq!(status(&a[0]), "violated", "{a:?}");
    assert!(a[0]["detail"].as_str().unwrap_or("").contains("<- fails"), "a replayed interleaving: {a:?}");
    // The explicit-state search, which runs before round 1, finds it in a few dozen states.
    assert_eq!(a[0]["engine"], "explore", "{a:?}");
    assert_eq!(code, 10);
    // The bounded search alone finds it at bound 1.
    let (r, _) = check_json(&["--engines", "coarsen,bounded", "benchmarks/examples/racy_counter.c"]);
    let a = assertions(&r);
    assert_eq!(status(&a[0]), "violated", "{a:?}");
    assert_eq!(a[0]["bound"], 1, "{a:?}");
}

/// The figures `--stats` prints for the bounded search, by name.
fn bounded_stat(file: &str, name: &str) -> u64 {
    let out = duet(&["check", "--stats", "--no-progress", file]);
    let (stdout, _) = texts(&out);
    let section = stdout.split("--- bounded of ").nth(1).unwrap_or_else(|| panic!("no bounded statistics: {stdout}"));
    let line = section.lines().find(|l| l.starts_with(&format!("{name} "))).unwrap_or_else(|| panic!("no `{name}`: {section}"));
    line[name.len() + 1..].trim().parse().expect("a number")
}

#[test]
fn a_counted_loop_creates_exactly_its_16_threads() {
    let f = "tests/portfolio/threads16_ok.c";
    // main and its 16 workers.
    assert_eq!(bounded_stat(f, "instances"), 17);
    assert_eq!(bounded_stat(f, "counted thread templates"), 1);
    let (r, code) = check_json(&[f]);
    let a = assertions(&r);
    assert_eq!(status(&a[0]), "safe", "every thread and loop is counted, so the search is complete: {a:?}");
    assert!(a[0]["reason"].as_str().unwrap_or("").contains("exhaustive"), "{a:?}");
    assert_eq!(code, 0);
}

#[test]
fn the_16th_thread_left_unjoined_is_a_violation() {
    let (r, code) = check_json(&["tests/portfolio/threads16_bug.c"]);
    let a = assertions(&r);
    assert_eq!(status(&a[0]), "violated", "{a:?}");
    assert!(a[0]["detail"].as_str().unwrap_or("").contains("<- fails"), "{a:?}");
    assert_eq!(code, 10);
}

#[test]
fn a_counted_loop_of_5_iterations_is_explored_completely() {
    // The search alone: the finite engine's Cartesian phase also proves it, now that main's
    // join waits for the thread.
    let (r, _) = check_json(&["--engines", "coarsen,bounded", "tests/portfolio/loop5_ok.c"]);
    let a = assertions(&r);
    assert_eq!(status(&a[0]), "safe", "{a:?}");
    assert!(a[0]["reason"].as_str().unwrap_or("").contains("exhaustive"), "{a:?}");
    // The twin needs all 5 iterations to fail: the exact count finds it at the first bound.
    let (r, _) = check_json(&["tests/portfolio/loop5_bug.c"]);
    let a = assertions(&r);
    assert_eq!(status(&a[0]), "violated", "{a:?}");
    assert_eq!(a[0]["bound"], 1, "{a:?}");
}

/// A bug after two counted loops of 20 iterations with no preemption needed: the sequential
/// round (every thread but main run without interruption) finds it, where the full bound 1
/// spent the whole budget.
#[test]
fn a_bug_after_long_counted_loops_is_found_by_the_sequential_round() {
    let (r, code) = check_json(&["--search-time", "60", "tests/portfolio/long_loops_sequential_bug.c"]);
    let a = assertions(&r);
    assert_eq!(status(&a[0]), "violated", "{a:?}");
    assert_eq!(a[0]["engine"], "sequential", "{a:?}");
    assert!(a[0]["detail"].as_str().unwrap_or("").contains("<- fails"), "a replayed interleaving: {a:?}");
    assert_eq!(a[0]["bound"], 1, "{a:?}");
    assert_eq!(code, 10);
}

/// The failing twin of the sequential round: a lost update needs a worker preempted, which that
/// round cannot see; it must leave the verdict to bound 1 (which finds it), never prove it.
#[test]
fn the_sequential_round_proves_nothing() {
    // The search alone: the explicit-state search, which runs before round 1, would find it first.
    let (r, _) = check_json(&["--engines", "coarsen,bounded", "--search-time", "60", "tests/portfolio/preempted_workers_bug.c"]);
    let a = assertions(&r);
    assert_eq!(status(&a[0]), "violated", "{a:?}");
    assert_eq!(a[0]["engine"], "bounded", "found by bound 1 proper: {a:?}");
    assert_eq!(a[0]["bound"], 1, "{a:?}");
}

/// Two counted loops of 24 rounds whose exact encoding is too large to solve: deepening cuts
/// them at the bound instead (the cut recorded) and finds the bug of the second round.
#[test]
fn counted_loops_too_costly_to_unroll_exactly_are_cut_at_the_bound() {
    let (r, _) = check_json(&["--search-time", "60", "tests/portfolio/handshake_long_loops_bug.c"]);
    let a = assertions(&r);
    assert_eq!(status(&a[0]), "violated", "{a:?}");
    assert!(a[0]["detail"].as_str().unwrap_or("").contains("<- fails"), "a replayed interleaving: {a:?}");
    // Its failing twin fails only in the last round, which no cut round reaches: never `safe`.
    let (r, _) = check_json(&["--search-time", "10", "tests/portfolio/handshake_last_round_bug.c"]);
    let a = assertions(&r);
    assert!(a.iter().all(|x| status(x) != "safe"), "{a:?}");
}

/// Loops that look counted but are not must never make the search claim completeness: each
/// of these programs can fail, and deepening finds it.
#[test]
fn loops_that_are_not_counted_stay_bounded() {
    for f in ["tests/portfolio/not_counted_body_writes.c", "tests/portfolio/not_counted_wraps.c", "tests/portfolio/not_counted_nondet_start.c"] {
        let (r, _) = check_json(&["--search-time", "60", f]);
        let a = assertions(&r);
        assert!(a.iter().all(|x| status(x) != "safe"), "{f}: {a:?}");
        assert!(a.iter().any(|x| status(x) == "violated"), "{f}: deepening finds the failure: {a:?}");
    }
}

fn counts(src: &str) -> Counts {
    let p = lower_text(src, "t.c", "t.c", &FrontendOptions::default()).expect("lowers");
    Counts::of(&p, 64, 64)
}

#[test]
fn trip_counts_are_exact_only_for_counted_shapes() {
    let wrap = |body: &str| format!("extern int __VERIFIER_nondet_int(void); int g; int main(void) {{ int i; int n = 3; {body} return 0; }}");
    let loops = |body: &str| {
        let mut v: Vec<u32> = counts(&wrap(body)).loops.values().copied().collect();
        v.sort();
        v
    };
    assert_eq!(loops("for (i = 0; i < 16; i++) g++;"), vec![16]);
    assert_eq!(loops("for (i = 0; i <= 5; i++) g++;"), vec![6]);
    assert_eq!(loops("for (i = 10; i > 0; i--) g++;"), vec![10]);
    assert_eq!(loops("for (i = 2; i < 7; i = i + 1) { if (g) break; g++; }"), vec![5], "an early exit only shortens it");
    assert_eq!(loops("for (i = 0; i < 3; i++) for (int j = 0; j < 4; j++) g++;"), vec![3, 4]);
    assert_eq!(loops("for (i = 0; i < 100; i++) g++;"), Vec::<u32>::new(), "beyond --max-unroll");
    assert_eq!(loops("for (i = 0; i < 5; i++) { g++; if (g) i--; }"), Vec::<u32>::new(), "the body writes i");
    assert_eq!(loops("for (i = 0; i < 5; i += 2) g++;"), Vec::<u32>::new(), "not a unit step");
    assert_eq!(loops("for (i = 0; i < n; i++) g++;"), vec![3], "a register bound that enters holding a constant");
    assert_eq!(loops("if (g) n = 5; for (i = 0; i < n; i++) g++;"), vec![5], "its largest entry value");
    assert_eq!(loops("for (i = 0; i < n; i++) { g++; n = g; }"), Vec::<u32>::new(), "the body writes the bound");
    assert_eq!(loops("n = __VERIFIER_nondet_int(); for (i = 0; i < n; i++) g++;"), Vec::<u32>::new(), "no constant bound");
    assert_eq!(loops("for (i = 0; i < g; i++) g--;"), Vec::<u32>::new(), "a global is no bound");
    assert_eq!(loops("i = __VERIFIER_nondet_int(); for (; i < 5; i++) g++;"), Vec::<u32>::new(), "unknown start");
    assert_eq!(loops("for (i = 0; i < 5; i++) { if (g) continue; g++; }"), vec![5], "continue still steps");
    assert_eq!(loops("for (i = 0; i < 5; ) { g++; if (g) i++; }"), Vec::<u32>::new(), "a path without a step");
    assert_eq!(loops("while (g < 5) g++;"), Vec::<u32>::new(), "a global is no loop counter");
}

#[test]
fn a_global_nothing_writes_after_its_initialiser_bounds_a_loop() {
    let loops = |globals: &str, body: &str| {
        let src = format!("extern void unknown(void); int g; {globals} int main(void) {{ int i; {body} return 0; }}");
        let mut v: Vec<u32> = counts(&src).loops.values().copied().collect();
        v.sort();
        v
    };
    assert_eq!(loops("const int N = 4;", "for (i = 0; i < N; i++) g++;"), vec![4]);
    assert_eq!(loops("int N = 4;", "for (i = 0; i < N; i++) g++;"), vec![4], "never written after its initialiser");
    assert_eq!(loops("unsigned char N = 4;", "for (i = N; i > 0; i--) g++;"), vec![4], "as the start value");
    assert_eq!(loops("int N = 4;", "N = 6; for (i = 0; i < N; i++) g++;"), Vec::<u32>::new(), "written again in main");
    assert_eq!(loops("int N = 4;", "for (i = 0; i < N; i++) g++; N = 9;"), Vec::<u32>::new(), "written after the loop");
    assert_eq!(loops("int N = 4; int *p = &N;", "for (i = 0; i < N; i++) g++;"), Vec::<u32>::new(), "its address is taken");
    assert_eq!(loops("int N = 4;", "unknown(); for (i = 0; i < N; i++) g++;"), Vec::<u32>::new(), "code outside the program may write it");
    assert_eq!(loops("_Thread_local int N = 4;", "for (i = 0; i < N; i++) g++;"), Vec::<u32>::new(), "thread-local");
}

/// A `const` global bound makes the creation loop counted, so the search is complete; the
/// twins write the bound after its initialiser, by name or through a pointer, and fail.
#[test]
fn a_const_global_loop_bound_is_counted_and_a_rewritten_one_is_not() {
    let (r, _) = check_json(&["--search-time", "60", "tests/portfolio/fixed_bound_ok.c"]);
    let a = assertions(&r);
    assert_eq!(a.len(), 1);
    assert_eq!(status(&a[0]), "safe", "{a:?}");
    for f in ["tests/portfolio/fixed_bound_rewritten_bug.c", "tests/portfolio/fixed_bound_pointer_bug.c"] {
        let (r, _) = check_json(&["--search-time", "60", f]);
        let a = assertions(&r);
        assert!(a.iter().all(|x| status(x) == "violated"), "{f}: {a:?}");
    }
}

#[test]
fn threads_of_nested_counted_loops_are_counted_and_others_not() {
    let pre =
        "typedef unsigned long pthread_t; int pthread_create(pthread_t *t, void *a, void *(*f)(void *), void *x); extern int __VERIFIER_nondet_int(void); int g; void *f(void *a) { g = 1; return 0; }";
    let threads = |body: &str| {
        let c = counts(&format!("{pre} int main(void) {{ pthread_t t; int n = __VERIFIER_nondet_int(); {body} return 0; }}"));
        c.threads.values().copied().collect::<Vec<_>>()
    };
    assert_eq!(threads("for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) pthread_create(&t, 0, f, 0);"), vec![12]);
    assert_eq!(threads("for (int i = 0; i < n; i++) pthread_create(&t, 0, f, 0);"), Vec::<u32>::new());
    assert_eq!(threads("for (int i = 0; i < 10; i++) for (int j = 0; j < 10; j++) pthread_create(&t, 0, f, 0);"), Vec::<u32>::new(), "beyond --max-threads");
    let p = lower_text(
        &format!("{pre} int main(void) {{ pthread_t t; for (int i = 0; i < 4; i++) pthread_create(&t, 0, f, 0); return 0; }}"),
        "t.c",
        "t.c",
        &FrontendOptions { parameterized: true, ..FrontendOptions::default() },
    )
    .expect("lowers");
    assert!(Counts::of(&p, 64, 64).threads.is_empty(), "--parameterized: every template is unbounded");
}

/// One check computes the counts once and lowers `--max-unroll` per round with `capped`, which
/// must agree with counting the program again at the lower limit: a template created in loops
/// of 3 and 4 iterations loses its count with the loop of 4, and not with the one of 10 it
/// does not run in.
#[test]
fn capped_counts_are_the_counts_at_the_lower_limit() {
    let pre =
        "typedef unsigned long pthread_t; int pthread_create(pthread_t *t, void *a, void *(*f)(void *), void *x); int g; void *f(void *a) { g = 1; return 0; } void *h(void *a) { g = 2; return 0; }";
    let src = format!(
        "{pre} int main(void) {{ pthread_t t; for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) pthread_create(&t, 0, f, 0); for (int k = 0; k < 10; k++) g++; for (int m = 0; m < 2; m++) pthread_create(&t, 0, h, 0); return 0; }}"
    );
    let p = lower_text(&src, "t.c", "t.c", &FrontendOptions::default()).expect("lowers");
    let sorted = |c: &Counts| {
        let mut loops: Vec<u32> = c.loops.values().copied().collect();
        loops.sort();
        let mut threads: Vec<(u32, u32)> = c.threads.iter().map(|(t, n)| (t.0, *n)).collect();
        threads.sort();
        (loops, threads)
    };
    let full = Counts::of(&p, 64, 64);
    assert_eq!(sorted(&full).1.iter().map(|x| x.1).collect::<Vec<_>>(), vec![12, 2], "both templates counted: {:?}", sorted(&full));
    for cap in [64, 10, 9, 4, 3, 2, 1, 0] {
        assert_eq!(sorted(&full.capped(cap)), sorted(&Counts::of(&p, cap, 64)), "cap {cap}");
    }
    assert_eq!(sorted(&full.capped(3)).1.len(), 1, "the loop of 4 is dropped, and with it f's count");
}

#[test]
fn engines_coarsen_is_coarsen_alone() {
    let files = ["benchmarks/examples/racy_counter.c", "benchmarks/examples/locked_counter.c", "benchmarks/examples/increment_decrement.c", "benchmarks/examples/producer_consumer.c"];
    for f in files {
        let (alone, _) = check_json(&["--engines", "coarsen", f]);
        let (default, _) = check_json(&[f]);
        let (alone, default) = (assertions(&alone), assertions(&default));
        assert_eq!(alone.len(), default.len());
        for (a, d) in alone.iter().zip(&default) {
            assert!(matches!(status(a), "safe" | "unknown"), "{f}: COARSEN alone proves or leaves open: {a:?}");
            assert!(a["bound"].is_null(), "{f}: no search ran: {a:?}");
            assert!(a["why"]["notes"].as_array().is_none_or(|n| n.iter().all(|n| n["kind"] != "bounded" && n["kind"] != "deepening")), "{f}: {a:?}");
            if status(a) == "safe" {
                assert_eq!(a, d, "{f}: what COARSEN proves, the default strategy reports as COARSEN did");
            }
        }
    }
    let (r, code) = check_json(&["--engines", "coarsen", "benchmarks/examples/racy_counter.c"]);
    assert_eq!(status(&assertions(&r)[0]), "unknown");
    assert_eq!(code, 5);
}

#[test]
fn engine_lists_are_checked() {
    for (list, text) in [("predict", "not part of `check` yet"), ("coarsen,magic", "unknown engine `magic`")] {
        let out = duet(&["check", "--engines", list, "benchmarks/examples/racy_counter.c"]);
        let (_, stderr) = texts(&out);
        assert_eq!(out.status.code(), Some(1), "{list}: {stderr}");
        assert!(stderr.contains(text) && stderr.contains("valid engines: coarsen, finite, explore, bounded"), "{list}: {stderr}");
    }
    let out = duet(&["check", "--engines", "coarsen", "--bound", "2", "benchmarks/examples/racy_counter.c"]);
    assert_eq!(out.status.code(), Some(1), "--bound without the bounded engine");
    // The search alone, without COARSEN's proofs or hints, still finds the race.
    let (r, _) = check_json(&["--engines", "bounded", "benchmarks/examples/racy_counter.c"]);
    assert_eq!(status(&assertions(&r)[0]), "violated");
}

#[test]
fn a_fixed_bound_keeps_its_meaning() {
    let (r, _) = check_json(&["--bound", "2", "tests/portfolio/not_counted_body_writes.c"]);
    let a = assertions(&r);
    assert_eq!(status(&a[0]), "bounded-safe", "{a:?}");
    assert_eq!(a[0]["bound"], 2);
}

/// Removes what legitimately differs between runs: times and memory.
fn strip_measurements(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("seconds");
            m.remove("memory_mb");
            m.values_mut().for_each(strip_measurements);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_measurements),
        _ => {}
    }
}

#[test]
fn verdicts_and_witnesses_are_the_same_at_one_and_two_workers_and_across_runs() {
    let files = ["benchmarks/examples/", "tests/portfolio/threads16_bug.c", "tests/portfolio/loop5_bug.c", "tests/portfolio/not_counted_nondet_start.c"];
    let run = |workers: &str| {
        let mut args = vec!["--workers", workers];
        args.extend_from_slice(&files);
        let mut r = check_json(&args).0;
        strip_measurements(&mut r);
        r
    };
    let first = run("1");
    assert!(first.to_string().contains("<- fails"), "witnesses are compared too");
    assert_eq!(first, run("2"), "one and two workers");
    assert_eq!(first, run("1"), "two runs");
}

/// The dev set with the default strategy: every expected-false task violated with a replayed
/// witness, the expected-true tasks `--bound 4` proved before still proved, and no wrong answer.
#[test]
fn slow_the_dev_set_is_decided_by_default() {
    if !common::slow("the_dev_set_is_decided_by_default") {
        return;
    }
    let Some(shared) = common::shared_benchmarks("portfolio dev set") else { return };
    let tsv = std::fs::read_to_string(shared.join("tasks.tsv")).expect("tasks.tsv");
    let start = Instant::now();
    let (mut found, mut proved, mut missed, mut wrong) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for line in tsv.lines().skip(1) {
        let Some(yml) = line.split('\t').next() else { continue };
        let t = match task::read(&shared.join(yml)) {
            Ok(Read::Task(t)) => t,
            Ok(Read::OtherProperty) => continue,
            Err(e) => panic!("{e}"),
        };
        let name = t.input.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        let fopts = FrontendOptions { m32: t.data_model == DataModel::ILP32, ..FrontendOptions::default() };
        let p = load(&t.input, &fopts).unwrap_or_else(|e| panic!("{name}: {e}"));
        // The default strategy with a 20 s search budget instead of 60 s, to keep CI's time
        // sane: every task decided by default is decided within 5 s (measured, see README);
        // the others only spend their whole budget.
        let vs = check_program(&p, &CheckOptions { search_time: 20.0, ..CheckOptions::default() }).verdicts;
        let violated = vs.iter().any(|v| v.status == Status::Violated);
        let all_safe = vs.iter().all(|v| v.status == Status::Safe);
        match t.expected {
            Some(false) => {
                if all_safe {
                    wrong.push(format!("{name}: expected false, proved safe"));
                } else if vs.iter().any(|v| v.status == Status::Violated && v.detail.as_deref().unwrap_or("").contains("<- fails")) {
                    found.push(name);
                } else {
                    missed.push(format!("{name}: {:?}", vs.iter().map(|v| (&v.status, &v.reason)).collect::<Vec<_>>()));
                }
            }
            Some(true) => {
                if violated {
                    wrong.push(format!("{name}: expected true, violated: {:?}", vs.iter().map(|v| (&v.status, &v.reason)).collect::<Vec<_>>()));
                } else if all_safe {
                    proved.push(name);
                }
            }
            None => {}
        }
    }
    eprintln!("dev set by default: {} found, {} proved, in {:.1} s", found.len(), proved.len(), start.elapsed().as_secs_f64());
    assert!(wrong.is_empty(), "wrong answers:\n{}", wrong.join("\n"));
    assert!(missed.is_empty(), "expected-false tasks not found:\n{}", missed.join("\n"));
    assert_eq!(found.len(), 14);
    for t in PROVED_AT_BOUND_4 {
        assert!(proved.iter().any(|p| p == t), "{t} was proved with --bound 4 and is not any more; proved: {proved:?}");
    }
}

/// The expected-true tasks `check --bound 4` proved safe before the default strategy.
const PROVED_AT_BOUND_4: &[&str] = &[
    "28-race_reach_02-simple_racefree.i",
    "28-race_reach_04-munge_racefree.i",
    "28-race_reach_05-lockfuns_racefree.i",
    "28-race_reach_10-ptrmunge_racefree.i",
    "28-race_reach_12-ptr_racefree.i",
    "28-race_reach_22-deref_read_racefree.i",
    "28-race_reach_36-indirect_racefree.i",
    "28-race_reach_41-trylock_racefree.i",
    "28-race_reach_42-trylock2_racefree.i",
    "28-race_reach_46-escape_racefree.i",
    "28-race_reach_51-mutexptr_racefree.i",
    "28-race_reach_60-invariant_racefree.i",
    "45_monabsex1_vs.i",
    "chl-collitem-subst.wvr.c",
    "chl-match-symm.wvr.c",
    "chl-sre-trans.wvr.c",
    "chl-time-subst.wvr.c",
];
