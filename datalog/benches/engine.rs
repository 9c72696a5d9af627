//! Benchmark of the runtime Datalog engine against crepe (compiled rules).
//!
//!     cargo bench -p duet-datalog --bench engine -- [tc] [interference] [incremental] [--quick]
//!     cargo bench -p duet-datalog --bench engine -- check     # full comparison with crepe
//!     cargo bench -p duet-datalog --bench engine -- profile   # time per operator and rule, rows held
//!     cargo bench -p duet-datalog --bench engine -- one --locations 5000 [--workers 2] [--crepe | --compare]
//!                                                             # one run of one side (for peak RSS), or both
//!     cargo bench -p duet-datalog --bench engine -- facts DIR...  # engine against crepe on dumped facts
//!
//! Prints one table per workload; ratios are engine time / crepe time measured in the same run.
//! The engine runs as COARSEN starts it, every input but `cond_val` fixed after the first epoch;
//! `DUET_BENCH_NO_FIXED=1` runs it without fixed inputs (every join through arrangements).
//! Engine times include `Engine::new`, inserting the facts, `advance` and reading the outputs.

#[path = "../tests/it/oracle/mod.rs"]
mod oracle;

use std::time::{Duration, Instant};

use datalog::{Engine, Program};
use oracle::crepe_programs;
use oracle::gen::{self, Facts, Rng, Shape};

fn rules(path: &str) -> Program {
    let full = format!("{}/../rules/{path}", env!("CARGO_MANIFEST_DIR"));
    Program::from_file(&full).unwrap_or_else(|e| panic!("{e}"))
}

/// CPU time (user + system) of this process so far, all threads, from /proc (Linux only; zero
/// elsewhere). The machine this runs on is shared, so wall time alone can mislead: a descheduled
/// thread still counts towards wall time but not towards CPU time.
fn cpu() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return Duration::ZERO };
    // Fields after the command name (which may contain spaces) start at field 3.
    let Some(rest) = stat.rsplit(')').next() else { return Duration::ZERO };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime are fields 14 and 15, i.e. indexes 11 and 12 here; 100 ticks per second.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// A measurement: best wall time over the repetitions and the CPU time of that repetition.
#[derive(Clone, Copy)]
struct Time {
    wall: Duration,
    cpu: Duration,
}

/// Best of `reps` runs of `f` (by wall time), with the last result.
fn best<T>(reps: usize, mut f: impl FnMut() -> T) -> (Time, T) {
    let mut best = Time { wall: Duration::MAX, cpu: Duration::ZERO };
    let mut out = None;
    for _ in 0..reps {
        let c = cpu();
        let t = Instant::now();
        let r = f();
        let wall = t.elapsed();
        if wall < best.wall {
            best = Time { wall, cpu: cpu().saturating_sub(c) };
        }
        out = Some(r);
    }
    (best, out.expect("at least one repetition"))
}

fn cell(t: Time) -> String {
    format!("{:.2}s ({:.2}s cpu)", t.wall.as_secs_f64(), t.cpu.as_secs_f64())
}

fn ratio(a: Time, b: Time) -> String {
    let wall = a.wall.as_secs_f64() / b.wall.as_secs_f64();
    // CPU time has a 10 ms resolution; below 0.1 s the ratio means nothing.
    if b.cpu.as_secs_f64() < 0.1 {
        format!("{wall:.2} (- cpu)")
    } else {
        format!("{wall:.2} ({:.2} cpu)", a.cpu.as_secs_f64() / b.cpu.as_secs_f64())
    }
}

fn secs(d: Duration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}

fn random_graph(seed: u64, nodes: u32, edges: usize) -> Vec<[u32; 2]> {
    let mut rng = Rng::new(seed);
    let mut v: Vec<[u32; 2]> = (0..edges).map(|_| [rng.below(nodes), rng.below(nodes)]).collect();
    v.sort();
    v.dedup();
    v
}

fn tc_engine(p: &Program, edges: &[[u32; 2]], workers: usize) -> usize {
    let mut e = Engine::new(p, workers).expect("engine");
    e.insert("edge", edges.iter().map(|r| &r[..])).expect("insert");
    e.advance().expect("advance");
    e.relation("path").expect("path").len()
}

fn bench_tc(quick: bool) {
    let p = rules("examples/transitive_closure.dl");
    println!("## Transitive closure (rules/examples/transitive_closure.dl), random graphs");
    println!("| edges | nodes | path tuples | crepe | engine 1w | engine 2w | 1w/crepe | 2w/crepe |");
    println!("|---|---|---|---|---|---|---|---|");
    // Sparse graphs (one edge per node on average) keep the closure near-linear, so that 100k
    // edges stay tractable; the dense graph (three edges per node, as in the dependency notes'
    // probe) has a closure of millions of pairs, each derived many times.
    let sizes: &[(usize, u32)] = if quick { &[(1_000, 1_000), (10_000, 10_000), (1_000, 333)] } else { &[(1_000, 1_000), (10_000, 10_000), (100_000, 100_000), (1_000, 333), (6_000, 2_000)] };
    for &(edges, nodes) in sizes {
        let g = random_graph(edges as u64, nodes, edges);
        let reps = if edges <= 10_000 && nodes as usize >= edges / 2 { 3 } else { 1 };
        let (tc, n) = best(reps, || crepe_programs::tc::count(&g));
        let (t1, n1) = best(reps, || tc_engine(&p, &g, 1));
        let (t2, n2) = best(reps, || tc_engine(&p, &g, 2));
        assert_eq!((n, n), (n1, n2), "engine and crepe disagree");
        println!("| {} | {} | {} | {} | {} | {} | {} | {} |", g.len(), nodes, n, cell(tc), cell(t1), cell(t2), ratio(t1, tc), ratio(t2, tc));
    }
}

fn insert_all(e: &mut Engine, f: &Facts) {
    for (name, rows) in f.relations() {
        e.insert(name, rows.iter().map(|r| r.as_slice())).expect("insert");
    }
}

/// The engine's options as COARSEN sets them: every input but `cond_val` is fixed after the first
/// epoch, unless `DUET_BENCH_NO_FIXED` is set (to measure the engine without lookup tables).
fn config(workers: usize) -> datalog::EngineConfig {
    let fixed = if std::env::var_os("DUET_BENCH_NO_FIXED").is_some() {
        Vec::new()
    } else {
        datalog::schema::INTERFERENCE.with_role(datalog::schema::Role::Input).map(|r| r.name.to_string()).filter(|n| n != "cond_val").collect()
    };
    datalog::EngineConfig { workers, fixed, ..Default::default() }
}

fn interference_engine(p: &Program, f: &Facts, workers: usize) -> (usize, usize, usize) {
    let mut e = Engine::with_config(p, &config(workers)).expect("engine");
    insert_all(&mut e, f);
    e.advance().expect("advance");
    let n = |r: &str| e.relation(r).expect("relation").len();
    (n("coreachable"), n("may_reach"), n("may_flow"))
}

fn bench_interference(quick: bool) {
    let p = rules("interference.dl");
    println!("## Interference rules (rules/interference.dl), synthetic programs");
    println!("| locations | input facts | coreachable | may_reach | may_flow | crepe | engine 1w | engine 2w | 1w/crepe | 2w/crepe |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let sizes: &[u32] = if quick { &[1_000, 5_000] } else { &[1_000, 5_000, 10_000, 20_000] };
    for &locs in sizes {
        let shape = Shape::with_locations(locs);
        let f = gen::synthetic(locs as u64, shape);
        let reps = if locs <= 5_000 { 3 } else { 1 };
        let (tc, c) = best(reps, || crepe_programs::optimised::counts(&f));
        let (t1, c1) = best(reps, || interference_engine(&p, &f, 1));
        let (t2, c2) = best(reps, || interference_engine(&p, &f, 2));
        assert_eq!((c, c), (c1, c2), "engine and crepe disagree");
        println!("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |", shape.locations(), f.len(), c.0, c.1, c.2, cell(tc), cell(t1), cell(t2), ratio(t1, tc), ratio(t2, tc));
    }
}

/// One COARSEN-like round: 5 % of the `cond_val` facts (what makes steps enabled) arrive late.
fn bench_incremental(quick: bool) {
    let p = rules("interference.dl");
    println!("## Incremental round: 5 % more cond_val facts, against a recompute from scratch");
    println!("| locations | workers | late facts | from scratch | first epoch (95 %) | incremental round | round/scratch |");
    println!("|---|---|---|---|---|---|---|");
    let sizes: &[u32] = if quick { &[5_000] } else { &[5_000, 20_000] };
    for &locs in sizes {
        let shape = Shape::with_locations(locs);
        let full = gen::synthetic(locs as u64, shape);
        let mut early = full.clone();
        let mut rng = Rng::new(7);
        let mut late = Vec::new();
        early.cond_val.retain(|r| {
            let keep = !rng.chance(0.05);
            if !keep {
                late.push(r.clone());
            }
            keep
        });
        for workers in [1, 2] {
            // The from-scratch result is kept for the check below, so that only one engine of
            // this size is alive at a time.
            let (scratch, expected) = best(1, || interference_engine(&p, &full, workers));
            let mut e = Engine::with_config(&p, &config(workers)).expect("engine");
            let (first, _) = best(1, || {
                insert_all(&mut e, &early);
                e.advance().expect("advance")
            });
            let (round, _) = best(1, || {
                e.insert("cond_val", late.iter().map(|r| r.as_slice())).expect("insert");
                e.advance().expect("advance")
            });
            let n = e.relation("may_flow").expect("may_flow").len();
            assert_eq!(n, expected.2, "incremental result differs");
            println!("| {} | {} | {} | {} | {} | {} | {} |", shape.locations(), workers, late.len(), cell(scratch), cell(first), cell(round), ratio(round, scratch));
        }
    }
}

/// Where the engine's time goes on the interference rules, per operator and per rule, and the
/// rows each arrangement and `distinct` holds at the end.
fn bench_profile(locs: u32, workers: usize) {
    let p = rules("interference.dl");
    let f = gen::synthetic(locs as u64, Shape::with_locations(locs));
    let config = datalog::EngineConfig { profile: true, ..config(workers) };
    let t = Instant::now();
    let mut e = Engine::with_config(&p, &config).expect("engine");
    insert_all(&mut e, &f);
    e.advance().expect("advance");
    let wall = t.elapsed();
    let ops = e.profile().expect("profile");
    let held = e.held_rows().expect("held rows");
    let total: Duration = ops.iter().map(|(_, t)| *t).sum();
    println!("## Profile: interference rules, {locs} locations, {workers} worker(s), wall {:.2}s", wall.as_secs_f64());
    println!("operator time summed over workers: {}", secs(total));
    println!("| operator | time | share |");
    println!("|---|---|---|");
    for (name, t) in ops.iter().take(30) {
        println!("| {name} | {} | {:.1}% |", secs(*t), 100.0 * t.as_secs_f64() / total.as_secs_f64());
    }
    // The same time grouped by rule (or relation), dropping the operator kind and step.
    let mut by_rule: std::collections::BTreeMap<String, Duration> = Default::default();
    for (name, t) in &ops {
        let key = name.split_once(": ").map(|(_, r)| r).unwrap_or(name);
        let key = key.split(", step").next().unwrap_or(key).to_string();
        *by_rule.entry(key).or_default() += *t;
    }
    let mut by_rule: Vec<_> = by_rule.into_iter().collect();
    by_rule.sort_by_key(|r| std::cmp::Reverse(r.1));
    println!("| rule or relation | time | share |");
    println!("|---|---|---|");
    for (name, t) in by_rule.iter().take(25) {
        println!("| {name} | {} | {:.1}% |", secs(*t), 100.0 * t.as_secs_f64() / total.as_secs_f64());
    }
    // Where the memory is: rows kept by each arrangement and `distinct` at the end of the run.
    let all: usize = held.iter().map(|(_, n)| *n).sum();
    println!("rows held by arrangements and distincts at the end: {all}");
    println!("| arrangement or distinct | rows | share |");
    println!("|---|---|---|");
    for (name, n) in held.iter().take(40) {
        println!("| {name} | {n} | {:.1}% |", 100.0 * *n as f64 / all.max(1) as f64);
    }
}

/// One run of the engine (or of crepe) on one synthetic program, alone in the process, so that
/// `/usr/bin/time -v` reports that side's peak memory; with `compare`, crepe then the engine in
/// the same process, for their ratio.
fn bench_one(locs: u32, workers: usize, crepe: bool, compare: bool) {
    let p = rules("interference.dl");
    let shape = Shape::with_locations(locs);
    let f = gen::synthetic(locs as u64, shape);
    let row = |side: &str, t: Time, c: (usize, usize, usize)| println!("| {} | {} | {} | {} | {} | {side} | {} |", shape.locations(), f.len(), c.0, c.1, c.2, cell(t));
    let crepe_run = (crepe || compare).then(|| best(1, || crepe_programs::optimised::counts(&f)));
    if let Some((t, c)) = crepe_run {
        row("crepe", t, c);
    }
    if crepe && !compare {
        return;
    }
    let (t, c) = best(1, || interference_engine(&p, &f, workers));
    let mode = if config(workers).fixed.is_empty() { ", no fixed inputs" } else { "" };
    row(&format!("engine {workers}w{mode}"), t, c);
    if let Some((tc, cc)) = crepe_run {
        assert_eq!(cc, c, "engine and crepe disagree");
        println!("engine {workers}w / crepe: {}", ratio(t, tc));
    }
}

/// The round directories (those with a `cf.facts`) under `dir`, sorted.
fn round_dirs(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    if dir.join("cf.facts").is_file() {
        out.push(dir.to_path_buf());
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut subs: Vec<_> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    subs.sort();
    for s in subs {
        round_dirs(&s, out);
    }
}

/// The input relations of a Soufflé fact directory (as `duet-rs check --dump-facts` writes them).
fn read_facts(dir: &std::path::Path) -> Facts {
    let mut f = Facts::default();
    let read = |name: &str| -> Vec<Vec<u32>> {
        let text = std::fs::read_to_string(dir.join(format!("{name}.facts"))).unwrap_or_default();
        text.lines().filter(|l| !l.is_empty()).map(|l| l.split('\t').map(|v| v.trim().parse::<i64>().unwrap_or_else(|e| panic!("{}: {name}: {e}", dir.display())) as u32).collect()).collect()
    };
    f.cf = read("cf");
    f.spawn = read("spawn");
    f.multi_spawn = read("multi_spawn");
    f.r#mod = read("mod");
    f.kill = read("kill");
    f.r#use = read("use");
    f.acquires = read("acquires");
    f.holds = read("holds");
    f.atomic = read("atomic");
    f.needs = read("needs");
    f.cond_val = read("cond_val");
    f.observe = read("observe");
    f.join_waits = read("join_waits");
    f
}

/// Every derived relation of both rule files, on 1 and 2 workers, with and without fixed inputs,
/// against the crepe transcriptions, on every round of the dumped fact directories under `dirs`.
fn bench_facts(dirs: &[String]) {
    let mut rounds = Vec::new();
    for d in dirs {
        round_dirs(std::path::Path::new(d), &mut rounds);
    }
    let programs = [
        ("interference.dl", rules("interference.dl"), crepe_programs::optimised::run as fn(&Facts) -> crepe_programs::Interference),
        ("reference/interference.dl", rules("reference/interference.dl"), crepe_programs::reference::run),
    ];
    let (mut same, mut differ, mut tuples) = (0, 0, 0);
    for dir in &rounds {
        let f = read_facts(dir);
        for (name, p, oracle) in &programs {
            let want = oracle(&f);
            for workers in [1, 2] {
                for fixed in [true, false] {
                    let cfg = if fixed { config(workers) } else { datalog::EngineConfig { workers, ..Default::default() } };
                    let mut e = Engine::with_config(p, &cfg).expect("engine");
                    insert_all(&mut e, &f);
                    e.advance().expect("advance");
                    for (rel, rows) in want.relations() {
                        let got: std::collections::BTreeSet<Vec<u32>> = e.relation(rel).expect("relation").to_vecs().into_iter().collect();
                        tuples += got.len();
                        if &got == rows {
                            same += 1;
                        } else {
                            differ += 1;
                            println!("DIFFERS: {} {name} {rel}, {workers} worker(s), fixed {fixed}: engine {} rows, crepe {}", dir.display(), got.len(), rows.len());
                        }
                    }
                }
            }
        }
    }
    println!("{} round directories, both rule files, 1 and 2 workers, with and without fixed inputs: {same} relations same as crepe, {differ} differ ({tuples} engine tuples compared)", rounds.len());
    assert_eq!(differ, 0, "engine and crepe disagree");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if args.first().is_some_and(|a| a == "facts") {
        bench_facts(&args[1..]);
        return;
    }
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse::<u32>().ok());
    if args.iter().any(|a| a == "one") {
        let has = |name: &str| args.iter().any(|a| a == name);
        bench_one(flag("--locations").unwrap_or(5_000), flag("--workers").unwrap_or(1) as usize, has("--crepe"), has("--compare"));
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let picked: Vec<&str> = args.iter().filter(|a| !a.starts_with("--")).map(|s| s.as_str()).collect();
    let want = |name: &str| picked.is_empty() || picked.contains(&name);
    // `profile` runs only when asked for by name.
    if want("tc") {
        bench_tc(quick);
    }
    if want("interference") {
        bench_interference(quick);
    }
    if want("incremental") {
        bench_incremental(quick);
    }
    if picked.contains(&"check") {
        // A full comparison with crepe on synthetic programs (the tables compare sizes only).
        let p = rules("interference.dl");
        for locs in [1_000u32, 2_000] {
            let f = gen::synthetic(locs as u64, Shape::with_locations(locs));
            let expected = crepe_programs::optimised::run(&f);
            for workers in [1, 2] {
                let mut e = Engine::with_config(&p, &config(workers)).expect("engine");
                insert_all(&mut e, &f);
                e.advance().expect("advance");
                for (rel, want) in [("coreachable", &expected.coreachable), ("may_reach", &expected.may_reach), ("may_flow", &expected.may_flow)] {
                    let got: std::collections::BTreeSet<Vec<u32>> = e.relation(rel).expect("relation").to_vecs().into_iter().collect();
                    println!("{locs} locations, {workers} worker(s), {rel}: {}", if &got == want { "same as crepe" } else { "DIFFERS from crepe" });
                }
            }
        }
    }
    if picked.contains(&"profile") {
        bench_profile(if quick { 5_000 } else { 20_000 }, 1);
    }
}
