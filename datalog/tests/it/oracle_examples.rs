//! The example programs in rules/examples agree with crepe on random inputs.

use crate::oracle;

use datalog::{Engine, Program};
use oracle::crepe_programs::{self, Rows};
use oracle::gen::Rng;
use proptest::prelude::*;

fn load(path: &str) -> Program {
    let full = format!("{}/../rules/examples/{path}", env!("CARGO_MANIFEST_DIR"));
    Program::from_file(&full).unwrap_or_else(|e| panic!("{e}"))
}

fn graph(seed: u64, nodes: u32, edges: usize) -> Vec<[u32; 2]> {
    let mut rng = Rng::new(seed);
    (0..edges).map(|_| [rng.below(nodes), rng.below(nodes)]).collect()
}

fn rows(e: &Engine, rel: &str) -> Rows {
    e.relation(rel).unwrap().to_vecs().into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn transitive_closure(seed in any::<u64>(), nodes in 1u32..40, edges in 0usize..80, workers in 1usize..=2) {
        let g = graph(seed, nodes, edges);
        let mut e = Engine::new(&load("transitive_closure.dl"), workers).unwrap();
        e.insert("edge", g.iter().map(|r| &r[..])).unwrap();
        e.advance().unwrap();
        prop_assert_eq!(rows(&e, "path"), crepe_programs::tc::run(&g));
    }

    #[test]
    fn same_generation(seed in any::<u64>(), people in 1u32..30, edges in 0usize..40, workers in 1usize..=2) {
        let g = graph(seed, people, edges);
        let mut e = Engine::new(&load("same_generation.dl"), workers).unwrap();
        // Symbols go through the engine's interner; crepe sees the same ids.
        let ids: Vec<u32> = (0..people).map(|i| e.intern(&format!("person{i}"))).collect();
        let facts: Vec<[u32; 2]> = g.iter().map(|[c, p]| [ids[*c as usize], ids[*p as usize]]).collect();
        e.insert("parent", facts.iter().map(|r| &r[..])).unwrap();
        e.advance().unwrap();
        prop_assert_eq!(rows(&e, "same_generation"), crepe_programs::same_generation::run(&facts));
    }

    #[test]
    fn unreachable(seed in any::<u64>(), nodes in 1u32..40, edges in 0usize..60, roots in 0usize..4, workers in 1usize..=2) {
        let g = graph(seed, nodes, edges);
        let mut rng = Rng::new(seed ^ 1);
        let r: Vec<u32> = (0..roots).map(|_| rng.below(nodes)).collect();
        let mut e = Engine::new(&load("unreachable.dl"), workers).unwrap();
        e.insert("edge", g.iter().map(|r| &r[..])).unwrap();
        e.insert("root", r.iter().map(std::slice::from_ref)).unwrap();
        e.advance().unwrap();
        let (u, b) = crepe_programs::unreachable::run(&g, &r);
        prop_assert_eq!(rows(&e, "unreachable"), u);
        prop_assert_eq!(rows(&e, "back_edge"), b);
    }
}

/// Growing and shrinking a graph edge by edge keeps the closure equal to a fresh computation.
#[test]
fn closure_under_insertions_and_deletions() {
    let p = load("transitive_closure.dl");
    let mut e = Engine::new(&p, 2).unwrap();
    let mut rng = Rng::new(3);
    let mut edges: Vec<[u32; 2]> = Vec::new();
    for step in 0..30 {
        if step % 3 == 2 && !edges.is_empty() {
            let gone = edges.swap_remove(rng.below(edges.len() as u32) as usize);
            e.remove("edge", [&gone[..]]).unwrap();
        } else {
            let new = [rng.below(12), rng.below(12)];
            if !edges.contains(&new) {
                edges.push(new);
            }
            e.insert("edge", [&new[..]]).unwrap();
        }
        e.advance().unwrap();
        assert_eq!(rows(&e, "path"), crepe_programs::tc::run(&edges), "step {step}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random insertions and deletions over many epochs: after each epoch the engine's closure and
    /// its negation-dependent outputs equal a fresh crepe evaluation (exercises retraction through
    /// recursion, where a deleted edge may leave a cycle that must not keep supporting itself).
    #[test]
    fn edits_over_epochs(seed in any::<u64>(), nodes in 2u32..14, steps in 1usize..25, workers in 1usize..=2) {
        let tc = load("transitive_closure.dl");
        let un = load("unreachable.dl");
        let mut e1 = Engine::new(&tc, workers).unwrap();
        let mut e2 = Engine::new(&un, workers).unwrap();
        e2.insert("root", [&[0u32][..]]).unwrap();
        let mut rng = Rng::new(seed);
        let mut edges: Vec<[u32; 2]> = Vec::new();
        for _ in 0..steps {
            for _ in 0..1 + rng.below(3) {
                if rng.chance(0.4) && !edges.is_empty() {
                    let gone = edges.swap_remove(rng.below(edges.len() as u32) as usize);
                    e1.remove("edge", [&gone[..]]).unwrap();
                    e2.remove("edge", [&gone[..]]).unwrap();
                } else {
                    let new = [rng.below(nodes), rng.below(nodes)];
                    if !edges.contains(&new) {
                        edges.push(new);
                    }
                    e1.insert("edge", [&new[..]]).unwrap();
                    e2.insert("edge", [&new[..]]).unwrap();
                }
            }
            e1.advance().unwrap();
            e2.advance().unwrap();
            prop_assert_eq!(rows(&e1, "path"), crepe_programs::tc::run(&edges));
            let (u, b) = crepe_programs::unreachable::run(&edges, &[0]);
            prop_assert_eq!(rows(&e2, "unreachable"), u);
            prop_assert_eq!(rows(&e2, "back_edge"), b);
        }
    }
}
