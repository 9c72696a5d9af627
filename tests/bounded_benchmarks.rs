//! The bounded engine on the SV-COMP development set (`../shared/benchmarks/c/`): every task
//! expected `false` is found violated, with a replayed witness, at its smallest bound, and no
//! task expected `true` is ever violated.

mod common;

use duet_rs::bounded::{self, BoundedOptions, BoundedOutcome};
use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::ir::AssertId;

/// The smallest bound at which each expected-false task is violated (measured; see the
/// bounded mode's report). Tasks not listed are found at bound 1.
const BOUNDS: &[(&str, u32)] = &[("27_Boop_simple_vf.i", 2), ("40_barrier_vf.i", 3)];

fn tasks() -> Option<Vec<(std::path::PathBuf, bool)>> {
    let shared = common::shared_benchmarks("bounded dev set")?;
    let tsv = std::fs::read_to_string(shared.join("tasks.tsv")).expect("tasks.tsv");
    let mut out = Vec::new();
    for line in tsv.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 3 {
            continue;
        }
        out.push((shared.join(cols[1]), cols[2] == "true"));
    }
    assert_eq!(out.len(), 40, "the development set has 40 tasks");
    Some(out)
}

fn verdicts(path: &std::path::Path, k: u32) -> Vec<BoundedOutcome> {
    let p = load(path, &FrontendOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let targets: Vec<AssertId> = (0..p.assertions.len() as u32).map(AssertId).collect();
    bounded::check(&p, &BoundedOptions::new(k), None, &targets).into_iter().map(|(_, o)| o).collect()
}

#[test]
fn expected_false_tasks_are_violated_with_a_replayed_witness() {
    let Some(tasks) = tasks() else { return };
    let mut missed = Vec::new();
    for (path, expected_true) in &tasks {
        if *expected_true {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap();
        let k = BOUNDS.iter().find(|(n, _)| *n == name).map(|(_, k)| *k).unwrap_or(1);
        let vs = verdicts(path, k);
        if !vs.iter().any(|v| matches!(v, BoundedOutcome::Violated { trace } if trace.contains("<- fails"))) {
            missed.push(format!("{name} at bound {k}: {vs:?}"));
        }
    }
    assert!(missed.is_empty(), "not found:\n{}", missed.join("\n"));
}

#[test]
fn expected_true_tasks_are_never_violated() {
    let Some(tasks) = tasks() else { return };
    for (path, expected_true) in &tasks {
        if !*expected_true {
            continue;
        }
        for v in verdicts(path, 1) {
            assert!(!matches!(v, BoundedOutcome::Violated { .. }), "{}: {v:?}", path.display());
        }
    }
}
