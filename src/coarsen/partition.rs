//! Partitioning by held lockset (issue 13, pattern 5): in
//! `if (c) lock(m); ...; if (c) { access; unlock(m); }` with a local `c` unchanged in between,
//! `m` is held exactly when `c` holds, but the must-held analysis joins the two paths after the
//! first test and loses `m`.
//!
//! The rewrite splits each location by the set of definite locks (`LockRef::Exact`) a thread
//! holds there, and carries, per copy, what every path to it says about the truth of private
//! locals tested by an `assume` (`c != 0`, `c == 0`, `c`, `!c`). A copy whose `assume`
//! contradicts those facts has no successor: a thread there would block forever, which the
//! original allows as well (the branch that disagrees with `c` is the one that blocks). Every
//! path of the original is a path of the rewrite and back, so the rewrite has the same
//! executions; only the locks each location surely holds are now exact, and the interference
//! rules see them as `holds` facts. A local is private (no other thread can store to it), so
//! only its own thread's stores end a fact.
//!
//! It gives up when a template more than doubles.

use super::privatise::{index_base, private_var};
use crate::ir::memory::{stores_to, LockId, MemoryModel};
use crate::ir::{Action, BinOp, Expr, LocId, Location, LockRef, Lval, Program, UnOp, VarId};
use std::collections::{BTreeMap, BTreeSet};

/// How many copies a template may have, relative to its locations, before the rewrite gives
/// up (the lockset product can grow with nested conditional locking).
const GROWTH: usize = 2;

/// A location's copy: the old location and the definite locks held there.
type Node = (LocId, BTreeSet<LockId>);

/// What an `assume` tests of a private local: the local and whether it must be non-zero.
fn tested(prog: &Program, e: &Expr) -> Option<(VarId, bool)> {
    let var = |e: &Expr| index_base(prog, e).filter(|v| private_var(prog, *v));
    let zero = |e: &Expr| matches!(e, Expr::Const(0, _));
    match e {
        Expr::Binary(BinOp::Ne, a, b, _) if zero(b) => var(a).map(|v| (v, true)),
        Expr::Binary(BinOp::Ne, a, b, _) if zero(a) => var(b).map(|v| (v, true)),
        Expr::Binary(BinOp::Eq, a, b, _) if zero(b) => var(a).map(|v| (v, false)),
        Expr::Binary(BinOp::Eq, a, b, _) if zero(a) => var(b).map(|v| (v, false)),
        Expr::Unary(UnOp::Not, a, _) => var(a).map(|v| (v, false)),
        _ => var(e).map(|v| (v, true)),
    }
}

/// The copies a copy steps to under its facts, with the facts after the step; empty when its
/// `assume` contradicts the facts.
fn step(prog: &Program, (l, held): &Node, facts: &BTreeMap<VarId, bool>) -> Vec<(Node, BTreeMap<VarId, bool>)> {
    let loc = prog.loc(*l);
    let mut facts = facts.clone();
    if let Action::Assume(e) = &loc.action {
        if let Some((v, nonzero)) = tested(prog, e) {
            if facts.get(&v) == Some(&!nonzero) {
                return Vec::new();
            }
            facts.insert(v, nonzero);
        }
    }
    facts.retain(|v, _| prog.memory.lookup(prog, &Lval::Var(*v)).is_none_or(|a| !stores_to(prog, *l, a)));
    let mut held = held.clone();
    match (&loc.action, prog.memory.lock_of[l.index()]) {
        (Action::Acquire(_), Some(LockRef::Exact(k))) => {
            held.insert(k);
        }
        (Action::Release(_), Some(LockRef::Exact(k))) => {
            held.remove(&k);
        }
        // A release the model cannot name may release any lock.
        (Action::Release(_), _) => held.clear(),
        _ => {}
    }
    loc.succs.iter().map(|s| ((*s, held.clone()), facts.clone())).collect()
}

/// The program with each location split by the definite locks held there, when some location
/// is reached with two different locksets; `None` otherwise, or when the split grows too much.
pub fn partition(prog: &Program) -> Option<Program> {
    let mut facts: BTreeMap<Node, BTreeMap<VarId, bool>> = BTreeMap::new();
    for t in &prog.templates {
        let start = (t.entry, BTreeSet::new());
        facts.insert(start.clone(), BTreeMap::new());
        let mut work = vec![start];
        let mut count = 1usize;
        while let Some(n) = work.pop() {
            let f = facts[&n].clone();
            for (s, sf) in step(prog, &n, &f) {
                match facts.get_mut(&s) {
                    None => {
                        facts.insert(s.clone(), sf);
                        count += 1;
                        if count > GROWTH * t.locs.len() + 16 {
                            return None;
                        }
                        work.push(s);
                    }
                    Some(old) => {
                        let before = old.len();
                        old.retain(|v, b| sf.get(v) == Some(b));
                        if old.len() != before {
                            work.push(s);
                        }
                    }
                }
            }
        }
    }
    let mut copies: BTreeMap<LocId, Vec<Node>> = BTreeMap::new();
    for n in facts.keys() {
        copies.entry(n.0).or_default().push(n.clone());
    }
    if copies.values().all(|c| c.len() < 2) {
        return None;
    }
    // New ids: template by template, each old location's copies in a row, in old order.
    let mut id: BTreeMap<Node, LocId> = BTreeMap::new();
    let mut out = prog.clone();
    let mut locs: Vec<Location> = Vec::with_capacity(facts.len());
    for (ti, t) in prog.templates.iter().enumerate() {
        let mut ls = Vec::new();
        for l in &t.locs {
            for n in copies.get(l).into_iter().flatten() {
                let new = LocId(id.len() as u32);
                id.insert(n.clone(), new);
                ls.push(new);
            }
        }
        out.templates[ti].locs = ls;
    }
    for t in &prog.templates {
        for l in &t.locs {
            for n in copies.get(l).into_iter().flatten() {
                let old = prog.loc(*l);
                let succs = step(prog, n, &facts[n]).into_iter().map(|(s, _)| id[&s]).collect();
                locs.push(Location { template: old.template, span: old.span, action: old.action.clone(), succs, atomic: old.atomic });
            }
        }
    }
    let all = |l: &LocId| copies.get(l).into_iter().flatten().map(|n| id[n]).collect::<Vec<_>>();
    for (ti, t) in prog.templates.iter().enumerate() {
        out.templates[ti].entry = id[&(t.entry, BTreeSet::new())];
        out.templates[ti].spawned_at = t.spawned_at.iter().flat_map(all).collect();
    }
    for a in &mut out.assertions {
        a.locs = a.locs.iter().flat_map(all).collect();
    }
    out.locs = locs;
    out.memory = MemoryModel::build(&out);
    Some(out)
}
