//! The control module's input: the program exported as Datalog facts for the interference
//! rules (`rules/interference.dl`), evaluated incrementally from round to round.
//!
//! The compatibility test "ι♯(v) ∧ enabled(u) satisfiable" is split between Rust and the
//! rules. Rust decides, per location and observable condition, which truth values the
//! invariant allows (`cond_val`): that needs the numerical domain, which Datalog does not
//! have, and each test only over-approximates satisfiability (a truth value is dropped only
//! when guarding the invariant with it gives bottom). The rules then combine those facts with
//! what each step needs (`needs`, `acquires`/`holds`, `atomic`), which keeps the quadratic
//! pairing of locations inside the incremental engine instead of materialising it here.

use super::cells::Cells;
use super::conditions::Conditions;
use super::locks;
use crate::ir::{Action, LocId, Multiplicity, Program, TemplateId};
use datalog::{Engine, Program as Rules};
use hashbrown::HashSet;

/// A Datalog error, with a message for the user.
pub type FactError = String;

/// Input relations the rules may declare; missing ones are simply not fed.
const INPUTS: &[(&str, usize)] = &[
    ("cf", 2),
    ("spawn", 2),
    ("multi_spawn", 1),
    ("mod", 2),
    ("kill", 2),
    ("use", 2),
    ("acquires", 2),
    ("holds", 2),
    ("atomic", 1),
    ("needs", 3),
    ("cond_val", 3),
    ("observe", 1),
];

/// The output relation of flows into what an action reads when it executes.
pub const FLOW: &str = "may_flow";
/// The output relation of flows into observed cells while a thread stands somewhere.
pub const STAND: &str = "may_stand";

/// The interference analysis of one program, alive across COARSEN rounds.
pub struct Interference {
    engine: Engine,
    cond_val: HashSet<[u32; 3]>,
    feeds_cond_val: bool,
}

impl Interference {
    /// Starts the engine on the rules and feeds the facts that never change.
    pub fn new(rules: &Rules, prog: &Program, cells: &Cells, conds: &Conditions, reads: &[Vec<super::CellId>], workers: usize) -> Result<Interference, FactError> {
        let mut engine = Engine::new(rules, workers).map_err(|e| format!("cannot start the Datalog engine: {e}"))?;
        let declared = |name: &str| rules.relation(name).map(|r| r.is_input()).unwrap_or(false);
        let mut facts: Vec<(&str, Vec<Vec<u32>>)> = Vec::new();
        let shared = |c: &super::CellId| cells.cells[c.index()].shared;
        let root_entry = prog.template(TemplateId(0)).entry;
        let held = locks::must_hold(prog);
        let (mut cf, mut spawn, mut multi, mut modf, mut usef, mut acq, mut holds, mut atomic, mut needs) =
            (vec![], vec![], vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
        for (i, loc) in prog.locs.iter().enumerate() {
            let l = i as u32;
            for s in &loc.succs {
                cf.push(vec![l, s.0]);
            }
            if let Action::Fork { template, .. } = &loc.action {
                let t = prog.template(*template);
                spawn.push(vec![l, t.entry.0]);
                if t.multiplicity == Multiplicity::Unbounded {
                    multi.push(vec![l]);
                }
            }
            // The root's entry gives every shared cell its initial value.
            let written: Vec<super::CellId> = if LocId(l) == root_entry {
                (0..cells.len() as u32).map(super::CellId).filter(|c| shared(c)).collect()
            } else {
                cells.mods[i].iter().copied().filter(|c| shared(c)).collect()
            };
            for c in written {
                modf.push(vec![l, c.0]);
            }
            for c in reads[i].iter().filter(|c| shared(c)) {
                usef.push(vec![l, c.0]);
            }
            if let Some(k) = locks::acquires(prog, LocId(l)) {
                acq.push(vec![l, k.0]);
            }
            for k in &held[i] {
                holds.push(vec![l, k.0]);
            }
            if loc.atomic {
                atomic.push(vec![l]);
            }
            if let Some((c, v)) = conds.need(LocId(l)) {
                needs.push(vec![l, c, v as u32]);
            }
        }
        // Every write ends the reach of earlier ones: a weak write reads the old value,
        // which then flows on through it.
        let kill = modf.clone();
        facts.push(("cf", cf));
        facts.push(("spawn", spawn));
        facts.push(("multi_spawn", multi));
        facts.push(("mod", modf));
        facts.push(("kill", kill));
        facts.push(("use", usef));
        facts.push(("acquires", acq));
        facts.push(("holds", holds));
        facts.push(("atomic", atomic));
        facts.push(("needs", needs));
        facts.push(("observe", conds.cells.iter().filter(|c| shared(c)).map(|c| vec![c.0]).collect()));
        for (name, tuples) in facts {
            if declared(name) {
                engine.insert(name, tuples.iter().map(|t| t.as_slice())).map_err(|e| format!("Datalog relation `{name}`: {e}"))?;
            }
        }
        Ok(Interference { engine, cond_val: HashSet::new(), feeds_cond_val: declared("cond_val") })
    }

    /// Replaces the `cond_val` facts and returns the data flows that appeared.
    pub fn round(&mut self, cond_val: HashSet<[u32; 3]>) -> Result<Vec<(super::Use, [u32; 3])>, FactError> {
        if self.feeds_cond_val {
            let mut added: Vec<[u32; 3]> = cond_val.difference(&self.cond_val).copied().collect();
            let mut removed: Vec<[u32; 3]> = self.cond_val.difference(&cond_val).copied().collect();
            added.sort_unstable();
            removed.sort_unstable();
            self.engine.insert("cond_val", added.iter().map(|t| t.as_slice())).map_err(|e| e.to_string())?;
            self.engine.remove("cond_val", removed.iter().map(|t| t.as_slice())).map_err(|e| e.to_string())?;
        }
        self.cond_val = cond_val;
        let changes = self.engine.advance().map_err(|e| format!("Datalog evaluation failed: {e}"))?;
        let mut flows = Vec::new();
        for (rel, usage) in [(FLOW, super::Use::Exec), (STAND, super::Use::Stand)] {
            if let Some(c) = changes.get(rel) {
                for t in c.added.iter() {
                    flows.push((usage, [t[0], t[1], t[2]]));
                }
            }
        }
        Ok(flows)
    }
}

/// The rules must compute `may_flow` and `may_stand` (both `(number, number, number)`), and
/// the inputs they declare must have the arities duet-rs feeds.
pub fn check_schema(rules: &Rules) -> Result<(), FactError> {
    for out in [FLOW, STAND] {
        match rules.relation(out) {
            Some(r) if r.arity() == 3 && r.is_output() => {}
            Some(r) => {
                return Err(format!(
                    "the rules declare `{out}` with {} columns{}; duet-rs needs `.decl {out}(def: number, cell: number, at: number)` and `.output {out}`",
                    r.arity(),
                    if r.is_output() { "" } else { " and not as .output" }
                ))
            }
            None => return Err(format!("the rules do not declare `{out}`: duet-rs needs `.decl {out}(def: number, cell: number, at: number)` and `.output {out}`")),
        }
    }
    for (name, arity) in INPUTS {
        if let Some(r) = rules.relation(name) {
            if r.arity() != *arity {
                return Err(format!("the rules declare input `{name}` with {} columns; duet-rs feeds it with {arity}", r.arity()));
            }
        }
    }
    Ok(())
}
