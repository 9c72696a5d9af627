//! The shipped race rules (`rules/races.dl`) on the runtime engine agree with a crepe
//! transcription, on the random programs of the interference oracle (their `mod` rows as
//! writes, their `use` rows as reads).

use crate::oracle::gen::{self, Facts};
use crepe::crepe;
use datalog::{Engine, Program};
use proptest::prelude::*;
use std::collections::BTreeSet;

crepe! {
    @input struct Cf(u32, u32);
    @input struct Spawn(u32, u32);
    @input struct MultiSpawn(u32);
    @input struct Acquires(u32, u32);
    @input struct Holds(u32, u32);
    @input struct Atomic(u32);
    @input struct JoinWaits(u32, u32);
    @input struct Access(u32, u32, u32);
    struct FreeStep(u32, u32);
    struct LockStep(u32, u32, u32);
    struct Blocks(u32);
    @output struct Coreachable(u32, u32);
    struct Conflict(u32, u32, u32);
    struct Guarded(u32, u32);
    struct BothAtomic(u32, u32);
    @output struct Race(u32, u32, u32);

    Blocks(a) <- Acquires(a, _);
    FreeStep(a, b) <- Cf(a, b), !Blocks(a);
    LockStep(a, l, b) <- Cf(a, b), Acquires(a, l);
    Coreachable(e, a1) <- Spawn(a0, e), Cf(a0, a1);
    Coreachable(e, w) <- Spawn(a0, e), Coreachable(a0, w), !Atomic(w);
    Coreachable(e, e) <- Spawn(a0, e), MultiSpawn(a0);
    Coreachable(v, u) <- Coreachable(u, v);
    Coreachable(u1, v) <- Coreachable(u0, v), FreeStep(u0, u1), !Atomic(v), !JoinWaits(u0, v);
    Coreachable(u1, v) <- Coreachable(u0, v), LockStep(u0, l, u1), !Holds(v, l), !Atomic(v);
    Conflict(a, b, x) <- Access(a, x, w), (w == 1), Access(b, x, _), Coreachable(a, b);
    Guarded(a, b) <- Conflict(a, b, _), Holds(a, l), Holds(b, l);
    BothAtomic(a, b) <- Conflict(a, b, _), Atomic(a), Atomic(b);
    Race(a, b, x) <- Conflict(a, b, x), !Guarded(a, b), !BothAtomic(a, b);
}

type Rows = BTreeSet<Vec<u32>>;

/// The race rules' inputs from the oracle's random facts.
fn inputs(f: &Facts) -> Vec<(&'static str, Vec<Vec<u32>>)> {
    let mut access: Vec<Vec<u32>> = f.r#mod.iter().map(|r| vec![r[0], r[1], 1]).collect();
    access.extend(f.r#use.iter().map(|r| vec![r[0], r[1], 0]));
    vec![
        ("cf", f.cf.clone()),
        ("spawn", f.spawn.clone()),
        ("multi_spawn", f.multi_spawn.clone()),
        ("acquires", f.acquires.clone()),
        ("holds", f.holds.clone()),
        ("atomic", f.atomic.clone()),
        ("join_waits", f.join_waits.clone()),
        ("access", access),
    ]
}

fn with_crepe(f: &Facts) -> (Rows, Rows) {
    let mut rt = Crepe::new();
    for (rel, rows) in inputs(f) {
        for r in rows {
            match (rel, r.as_slice()) {
                ("cf", &[a, b]) => rt.extend([Cf(a, b)]),
                ("spawn", &[a, e]) => rt.extend([Spawn(a, e)]),
                ("multi_spawn", &[a]) => rt.extend([MultiSpawn(a)]),
                ("acquires", &[a, l]) => rt.extend([Acquires(a, l)]),
                ("holds", &[a, l]) => rt.extend([Holds(a, l)]),
                ("atomic", &[a]) => rt.extend([Atomic(a)]),
                ("join_waits", &[a, v]) => rt.extend([JoinWaits(a, v)]),
                ("access", &[a, x, w]) => rt.extend([Access(a, x, w)]),
                _ => panic!("no crepe input `{rel}` of {} columns", r.len()),
            }
        }
    }
    let (co, race) = rt.run();
    (co.into_iter().map(|Coreachable(a, b)| vec![a, b]).collect(), race.into_iter().map(|Race(a, b, x)| vec![a, b, x]).collect())
}

fn with_engine(f: &Facts, workers: usize) -> (Rows, Rows) {
    let path = format!("{}/../rules/races.dl", env!("CARGO_MANIFEST_DIR"));
    let p = Program::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut e = Engine::new(&p, workers).unwrap();
    for (rel, rows) in inputs(f) {
        e.insert(rel, rows.iter().map(|r| r.as_slice())).unwrap();
    }
    e.advance().unwrap();
    let rows = |rel: &str| e.relation(rel).unwrap().to_vecs().into_iter().collect::<Rows>();
    (rows("coreachable"), rows("race"))
}

#[test]
fn fixed_seeds_produce_races() {
    let mut races = 0;
    for seed in 0..6 {
        let f = gen::small(seed, 30);
        let want = with_crepe(&f);
        races += want.1.len();
        assert_eq!(with_engine(&f, 1 + (seed as usize % 2)), want, "seed {seed}");
    }
    assert!(races > 10, "only {races} race tuples over six seeds");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn engine_matches_crepe_on_races(seed in any::<u64>(), max_locs in 8u32..40, workers in 1usize..=2) {
        let f = gen::small(seed, max_locs);
        prop_assert_eq!(with_engine(&f, workers), with_crepe(&f));
    }
}
