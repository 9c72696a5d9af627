//! `check --bound K` on the SV-COMP development set (`../shared/benchmarks/c/`), through the
//! same path a user takes: each task's data model, COARSEN first, then the bounded search with
//! COARSEN's hints. Every task expected `false` is found violated, with a replayed witness, at
//! its smallest bound, and no task expected `true` is ever violated (nor, at any bound, `safe`
//! when it should not be).

use crate::common;

use duet_rs::engine::{Bound, CheckOptions};
use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::ir::DataModel;
use duet_rs::strategy::check_program;
use duet_rs::svcomp::task::{self, Read};
use duet_rs::verdict::Status;

/// The smallest bound at which each expected-false task is violated (measured; see the
/// bounded mode's closing note). Tasks not listed are found at bound 1.
const BOUNDS: &[(&str, u32)] = &[("27_Boop_simple_vf.i", 2), ("40_barrier_vf.i", 3)];

/// The tasks with their expected verdicts, read from their `.yml` files.
fn tasks() -> Option<Vec<task::Task>> {
    let shared = common::shared_benchmarks("bounded dev set")?;
    let tsv = std::fs::read_to_string(shared.join("tasks.tsv")).expect("tasks.tsv");
    let mut out = Vec::new();
    for line in tsv.lines().skip(1) {
        let Some(yml) = line.split('\t').next() else { continue };
        match task::read(&shared.join(yml)) {
            Ok(Read::Task(t)) => out.push(t),
            Ok(Read::OtherProperty) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(out.len(), 40, "the development set has 40 unreach-call tasks");
    Some(out)
}

/// The statuses `check --bound k` gives the task's assertions.
fn statuses(t: &task::Task, k: u32) -> Vec<(Status, String)> {
    statuses_with(t, k, true)
}

fn statuses_with(t: &task::Task, k: u32, hints: bool) -> Vec<(Status, String)> {
    let fopts = FrontendOptions { m32: t.data_model == DataModel::ILP32, ..FrontendOptions::default() };
    let p = load(&t.input, &fopts).unwrap_or_else(|e| panic!("{}: {e}", t.input.display()));
    let opts = CheckOptions { bound: Some(Bound { unroll: k, threads: k }), no_hints: !hints, ..CheckOptions::default() };
    check_program(&p, &opts).verdicts.into_iter().map(|v| (v.status, format!("{}\n{}", v.reason, v.detail.unwrap_or_default()))).collect()
}

fn name(t: &task::Task) -> &str {
    t.input.file_name().and_then(|n| n.to_str()).unwrap_or("?")
}

#[test]
fn slow_expected_false_tasks_are_violated_with_a_replayed_witness() {
    if !common::slow("expected_false_tasks_are_violated_with_a_replayed_witness") {
        return;
    }
    let Some(tasks) = tasks() else { return };
    let mut missed = Vec::new();
    for t in tasks.iter().filter(|t| t.expected == Some(false)) {
        let k = BOUNDS.iter().find(|(n, _)| *n == name(t)).map(|(_, k)| *k).unwrap_or(1);
        let vs = statuses(t, k);
        assert!(vs.iter().all(|(s, _)| *s != Status::Safe), "{} is expected false but was proved safe: {vs:?}", name(t));
        if !vs.iter().any(|(s, why)| *s == Status::Violated && why.contains("<- fails")) {
            missed.push(format!("{} at bound {k}: {vs:?}", name(t)));
        }
    }
    assert!(missed.is_empty(), "not found:\n{}", missed.join("\n"));
}

#[test]
fn slow_expected_true_tasks_are_never_violated() {
    if !common::slow("expected_true_tasks_are_never_violated") {
        return;
    }
    let Some(tasks) = tasks() else { return };
    for t in tasks.iter().filter(|t| t.expected == Some(true)) {
        for (s, why) in statuses(t, 2) {
            assert_ne!(s, Status::Violated, "{}: {why}", name(t));
        }
    }
}

/// COARSEN's hints narrow the encoding by facts true of every execution: with or without
/// them, every task gets the same verdicts.
#[test]
fn slow_hints_never_change_a_verdict() {
    if !common::slow("hints_never_change_a_verdict") {
        return;
    }
    let Some(tasks) = tasks() else { return };
    for t in &tasks {
        let status = |hints| statuses_with(t, 1, hints).into_iter().map(|(s, _)| s).collect::<Vec<_>>();
        assert_eq!(status(true), status(false), "{}", name(t));
    }
}
