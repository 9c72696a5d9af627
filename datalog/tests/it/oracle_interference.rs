//! The shipped interference rules on the runtime engine agree with crepe, on random programs.

use crate::oracle;

use datalog::{Engine, EngineConfig, Program};
use oracle::crepe_programs::{self, Interference, Rows};
use oracle::gen::{self, Facts, Rng};
use proptest::prelude::*;

fn load(path: &str) -> Program {
    let full = format!("{}/../rules/{path}", env!("CARGO_MANIFEST_DIR"));
    Program::from_file(&full).unwrap_or_else(|e| panic!("{e}"))
}

fn rows(e: &Engine, rel: &str) -> Rows {
    e.relation(rel).unwrap().to_vecs().into_iter().collect()
}

fn outputs(e: &Engine) -> Interference {
    Interference { coreachable: rows(e, "coreachable"), may_reach: rows(e, "may_reach"), may_flow: rows(e, "may_flow"), may_stand: rows(e, "may_stand") }
}

/// Every input but `cond_val`, as COARSEN fixes them.
fn fixed_inputs() -> Vec<String> {
    use datalog::schema::{Role, INTERFERENCE};
    INTERFERENCE.with_role(Role::Input).map(|r| r.name.to_string()).filter(|n| n != "cond_val").collect()
}

fn run_engine(p: &Program, f: &Facts, workers: usize, fixed: bool) -> Interference {
    let fixed = if fixed { fixed_inputs() } else { Vec::new() };
    let mut e = Engine::with_config(p, &EngineConfig { workers, fixed, ..EngineConfig::default() }).unwrap();
    for (name, rs) in f.relations() {
        e.insert(name, rs.iter().map(|r| r.as_slice())).unwrap();
    }
    e.advance().unwrap();
    outputs(&e)
}

fn check(seed: u64, max_locs: u32, workers: usize) {
    let facts = gen::small(seed, max_locs);
    let opt = crepe_programs::optimised::run(&facts);
    let reference = crepe_programs::reference::run(&facts);
    // The optimisations (relevance filtering, shared step relations) keep the answers.
    assert_eq!(opt.coreachable, reference.coreachable, "coreachable, seed {seed}");
    assert_eq!(opt.may_flow, reference.may_flow, "may_flow, seed {seed}");
    assert_eq!(opt.may_stand, reference.may_stand, "may_stand, seed {seed}");
    assert!(opt.may_reach.is_subset(&reference.may_reach), "may_reach, seed {seed}");

    // With fixed inputs, joins and negations of them are lookups instead of arrangements.
    for fixed in [false, true] {
        let e_opt = run_engine(&load("interference.dl"), &facts, workers, fixed);
        assert_eq!(e_opt, opt, "engine vs crepe on interference.dl, seed {seed}, fixed inputs {fixed}");
        let e_ref = run_engine(&load("reference/interference.dl"), &facts, workers, fixed);
        assert_eq!(e_ref, reference, "engine vs crepe on reference/interference.dl, seed {seed}, fixed inputs {fixed}");
    }
}

#[test]
fn fixed_seeds_produce_data_flow() {
    // Guards against a generator that produces trivial programs: these seeds have flows.
    let mut flows = 0;
    for seed in 0..6 {
        let facts = gen::small(seed, 30);
        flows += crepe_programs::optimised::run(&facts).may_flow.len();
        check(seed, 30, 1 + (seed as usize % 2));
    }
    assert!(flows > 20, "only {flows} may_flow tuples over six seeds");
    let stands: usize = (0..6).map(|seed| crepe_programs::optimised::run(&gen::small(seed, 30)).may_stand.len()).sum();
    assert!(stands > 0, "no may_stand tuples over six seeds");
}

/// The benchmark's synthetic shape at 600 locations, as COARSEN runs the engine (fixed inputs,
/// 1 and 2 workers): rounds hand the `distinct` and lookup operators thousands of rows at once,
/// which the small random programs above never do, and every relation must still be crepe's.
#[test]
fn synthetic_program_with_large_rounds_matches_crepe() {
    let facts = gen::synthetic(11, gen::Shape::with_locations(600));
    let want = crepe_programs::optimised::run(&facts);
    assert!(want.may_reach.len() > 20_000, "only {} may_reach tuples: the rounds stay small", want.may_reach.len());
    for workers in [1, 2] {
        assert_eq!(run_engine(&load("interference.dl"), &facts, workers, true), want, "{workers} worker(s)");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn engine_matches_crepe(seed in any::<u64>(), max_locs in 8u32..48, workers in 1usize..=2) {
        check(seed, max_locs, workers);
    }
}

/// Adding facts over several epochs, with `cond_val` facts retracted and re-added as COARSEN
/// rounds do, ends in the same relations as one batch; each epoch's changes are exact.
fn incremental(seed: u64, workers: usize) {
    let facts = gen::small(seed, 36);
    let expected = crepe_programs::optimised::run(&facts);
    let p = load("interference.dl");
    let mut e = Engine::new(&p, workers).unwrap();
    let mut rng = Rng::new(seed ^ 0xABCD);
    let epochs = 4;
    let mut current = Interference::default();
    let mut spurious: Vec<Vec<u32>> = Vec::new();
    for epoch in 0..epochs {
        for (name, rs) in facts.relations() {
            let part: Vec<&[u32]> = rs.iter().enumerate().filter(|(i, _)| (*i as u64 + seed) % epochs == epoch).map(|(_, r)| r.as_slice()).collect();
            e.insert(name, part).unwrap();
        }
        // cond_val facts that a later round retracts (a condition found impossible at a location).
        e.remove("cond_val", spurious.iter().map(|r| r.as_slice())).unwrap();
        spurious = (0..3).map(|_| vec![rng.below(40), rng.below(3), rng.below(2)]).filter(|r| !facts.cond_val.contains(r)).collect();
        if epoch + 1 < epochs {
            e.insert("cond_val", spurious.iter().map(|r| r.as_slice())).unwrap();
        } else {
            spurious.clear();
        }
        let changes = e.advance().unwrap();
        for (name, set) in [("coreachable", &mut current.coreachable), ("may_reach", &mut current.may_reach), ("may_flow", &mut current.may_flow), ("may_stand", &mut current.may_stand)] {
            if let Some(c) = changes.get(name) {
                for r in c.removed.iter() {
                    assert!(set.remove(r), "{name}: removed {r:?} that was not there");
                }
                for r in c.added.iter() {
                    assert!(set.insert(r.to_vec()), "{name}: added {r:?} twice");
                }
            }
        }
        assert_eq!(current, outputs(&e), "changes do not sum to the relations, epoch {epoch}");
    }
    assert_eq!(current, expected, "incremental result differs from batch, seed {seed}");
}

/// COARSEN's use: every input but `cond_val` fixed in the first epoch, then rounds that add and
/// retract `cond_val` facts; every epoch's relations equal crepe's on that epoch's facts.
fn rounds_with_fixed_inputs(seed: u64, workers: usize) {
    let facts = gen::small(seed, 36);
    let p = load("interference.dl");
    let mut e = Engine::with_config(&p, &EngineConfig { workers, fixed: fixed_inputs(), ..EngineConfig::default() }).unwrap();
    let mut rng = Rng::new(seed ^ 0x5EED);
    for (name, rs) in facts.relations() {
        if name != "cond_val" {
            e.insert(name, rs.iter().map(|r| r.as_slice())).unwrap();
        }
    }
    let mut now = facts.clone();
    now.cond_val.clear();
    for round in 0..4 {
        // A growing share of the real facts, and a few spurious ones that the next round retracts.
        let mut next = facts.clone();
        next.cond_val.retain(|_| round == 3 || rng.chance(0.3 + 0.2 * round as f64));
        if round < 3 {
            next.cond_val.extend((0..3).map(|_| vec![rng.below(40), rng.below(3), rng.below(2)]));
            next.cond_val.sort();
            next.cond_val.dedup();
        }
        let gone: Vec<&[u32]> = now.cond_val.iter().filter(|r| !next.cond_val.contains(r)).map(|r| r.as_slice()).collect();
        e.remove("cond_val", gone).unwrap();
        e.insert("cond_val", next.cond_val.iter().map(|r| r.as_slice())).unwrap();
        e.advance().unwrap();
        assert_eq!(outputs(&e), crepe_programs::optimised::run(&next), "seed {seed}, round {round}, {workers} worker(s)");
        now = next;
    }
}

#[test]
fn fixed_inputs_follow_cond_val_rounds() {
    for seed in 0..6 {
        rounds_with_fixed_inputs(seed, 1 + seed as usize % 2);
    }
}

#[test]
fn epochs_match_batch() {
    for seed in 0..4 {
        incremental(seed, 1 + seed as usize % 2);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn epochs_match_batch_random(seed in any::<u64>(), workers in 1usize..=2) {
        incremental(seed, workers);
    }
}

/// The generator and both crepe transcriptions follow `datalog::schema::INTERFERENCE`: the
/// generator produces every input relation under its name with its arity, the transcriptions
/// take each of them and return every output with its arity. A relation renamed or
/// re-aritied in the schema, the generator or a transcription fails here, naming it.
#[test]
fn generator_and_oracle_follow_the_schema() {
    use datalog::schema::{Role, INTERFERENCE};
    let inputs: Vec<&str> = INTERFERENCE.with_role(Role::Input).map(|r| r.name).collect();
    let mut outputs: Vec<&str> = INTERFERENCE.relations.iter().filter(|r| r.role != Role::Input).map(|r| r.name).collect();
    let generated: Vec<&str> = Facts::default().relations().iter().map(|(n, _)| *n).collect();
    assert_eq!(generated, inputs, "the generator's relations are not the schema's inputs");
    for rel in INTERFERENCE.with_role(Role::Input) {
        crepe_programs::optimised::accepts(rel.name, rel.arity()).unwrap_or_else(|e| panic!("interference.dl's transcription, {}: {e}", rel.decl()));
        crepe_programs::reference::accepts(rel.name, rel.arity()).unwrap_or_else(|e| panic!("the reference transcription, {}: {e}", rel.decl()));
    }
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let facts = gen::small(seed, 30);
        for (name, rows) in facts.relations() {
            let rel = INTERFERENCE.get(name).unwrap();
            for r in rows {
                assert_eq!(r.len(), rel.arity(), "seed {seed}: the generator's `{name}` has a row {r:?}; the schema: {}", rel.decl());
                seen.insert(name);
            }
        }
        for out in [crepe_programs::optimised::run(&facts), crepe_programs::reference::run(&facts)] {
            let mut names: Vec<&str> = out.relations().iter().map(|(n, _)| *n).collect();
            names.sort_unstable();
            outputs.sort_unstable();
            assert_eq!(names, outputs, "the oracle's outputs are not the schema's");
            for (name, rows) in out.relations() {
                let rel = INTERFERENCE.get(name).unwrap();
                for r in rows {
                    assert_eq!(r.len(), rel.arity(), "seed {seed}: the oracle's `{name}` has a row {r:?}; the schema: {}", rel.decl());
                    seen.insert(name);
                }
            }
        }
    }
    // Every relation had rows whose arity was checked.
    let all: std::collections::BTreeSet<&str> = INTERFERENCE.relations.iter().map(|r| r.name).collect();
    assert_eq!(seen, all, "relations without rows in eight seeds");
}
