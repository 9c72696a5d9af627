//! The race rules (`rules/races.dl`, built into the binary; `--race-rules FILE` replaces them)
//! and the facts they are fed.

use super::Access;
use crate::coarsen::locks;
use crate::ir::memory::AbsLoc;
use crate::ir::{Action, LocId, Multiplicity, Program};
use datalog::{Engine, NoIncludes, Program as Rules};
use std::path::Path;

/// The shipped race rules.
pub(crate) const BUILT_IN: &str = include_str!("../../rules/races.dl");

/// The relations the rules are fed: name and arity.
const INPUTS: &[(&str, usize)] = &[("cf", 2), ("spawn", 2), ("multi_spawn", 1), ("acquires", 2), ("holds", 2), ("atomic", 1), ("join_waits", 2), ("access", 3)];

/// The relation the engine reads.
const RACE: &str = "race";

/// The built-in rules, or those of a file, checked for what the engine feeds and reads.
pub(crate) fn load(file: Option<&Path>) -> Result<Rules, String> {
    let (rules, name) = match file {
        Some(p) => (Rules::from_file(p).map_err(|d| format!("in the race rules {}:\n{d}", p.display()))?, p.display().to_string()),
        None => (Rules::parse(BUILT_IN, "races.dl", &mut NoIncludes).map_err(|d| format!("the built-in race rules do not load (a bug):\n{d}"))?, "the built-in race rules".to_string()),
    };
    match rules.relation(RACE) {
        Some(r) if r.columns.len() == 3 && !r.is_input() => {}
        _ => return Err(format!("{name}: no output relation `{RACE}(a: number, b: number, x: number)`")),
    }
    for (rel, arity) in INPUTS {
        if let Some(r) = rules.relation(rel) {
            if r.columns.len() != *arity {
                return Err(format!("{name}: `{rel}` has {} columns; the race engine feeds it {arity}", r.columns.len()));
            }
        }
    }
    Ok(rules)
}

/// The pairs of locations (`a` < `b` or equal, with the memory location) the rules say may race.
pub(super) fn candidates(rules: &Rules, prog: &Program, locks: &locks::Held, accesses: &[Access]) -> Result<Vec<(LocId, LocId, AbsLoc)>, String> {
    let mut engine = Engine::new(rules, 1).map_err(|e| format!("cannot start the Datalog engine: {e}"))?;
    let mut facts: Vec<(&str, Vec<Vec<u32>>)> = INPUTS.iter().map(|(n, _)| (*n, Vec::new())).collect();
    let mut add = |rel: &str, row: Vec<u32>| {
        if let Some((_, rows)) = facts.iter_mut().find(|(n, _)| *n == rel) {
            rows.push(row);
        }
    };
    for (i, loc) in prog.locs.iter().enumerate() {
        let l = i as u32;
        for s in &loc.succs {
            add("cf", vec![l, s.0]);
        }
        if let Action::Fork { template, .. } = &loc.action {
            let t = prog.template(*template);
            add("spawn", vec![l, t.entry.0]);
            if t.multiplicity == Multiplicity::Unbounded {
                add("multi_spawn", vec![l]);
            }
        }
        if let Some(k) = locks.acquires[i] {
            add("acquires", vec![l, k.0]);
        }
        for k in &locks.held[i] {
            add("holds", vec![l, k.0]);
        }
        if loc.atomic {
            add("atomic", vec![l]);
        }
    }
    for w in crate::ir::joins::waits(prog).into_iter().chain(super::guards::waits(prog)) {
        add("join_waits", w.to_vec());
    }
    for a in accesses {
        add("access", vec![a.loc.0, a.x.0, u32::from(a.write)]);
    }
    for (rel, rows) in &facts {
        if rules.relation(rel).is_some_and(|r| r.is_input()) {
            engine.insert(rel, rows.iter().map(|r| r.as_slice())).map_err(|e| format!("Datalog relation `{rel}`: {e}"))?;
        }
    }
    engine.advance().map_err(|e| format!("Datalog evaluation failed: {e}"))?;
    let tuples = engine.relation(RACE).map_err(|e| format!("Datalog relation `{RACE}`: {e}"))?;
    let mut out: Vec<(LocId, LocId, AbsLoc)> = tuples
        .to_vecs()
        .into_iter()
        .filter(|t| t.len() == 3 && (t[0] as usize) < prog.locs.len() && (t[1] as usize) < prog.locs.len())
        .map(|t| (LocId(t[0].min(t[1])), LocId(t[0].max(t[1])), AbsLoc(t[2])))
        .collect();
    out.sort_unstable();
    out.dedup();
    Ok(out)
}
