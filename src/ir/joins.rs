//! Joins that provably wait for the only instance of a thread template.
//!
//! After such a join the joined thread runs no more: the interference rules may not let the
//! joining thread step past it while the joined thread stands anywhere but at a thread exit
//! (`join_waits`). A template created in a loop, at several sites, by a thread that is itself
//! created repeatedly, or in parameterized mode has unboundedly many instances
//! ([`Multiplicity::Unbounded`]); a join then waits for one of them only, and nothing is claimed.

use crate::ir::{Action, Expr, Halt, LocId, Lval, Multiplicity, Program, TemplateId, VarKind};

/// `(join location, template)`: the join, in the root thread, returns only after the single
/// instance of the template has ended.
///
/// The handle must be a variable of the root whose address is never taken, written only by
/// one `pthread_create` (in the root, off every control-flow cycle) and by its uninitialised
/// declaration, the fork must come before the join on every path, and the template must have one
/// instance ever: the handle then names that instance whenever the join executes.
pub fn definite(prog: &Program) -> Vec<(LocId, TemplateId)> {
    let mut out = Vec::new();
    for (i, loc) in prog.locs.iter().enumerate() {
        let Action::Join(Expr::Load(Lval::Var(h))) = &loc.action else { continue };
        if loc.template != TemplateId(0) {
            continue;
        }
        let var = prog.var(*h);
        if var.addr_taken || !matches!(var.kind, VarKind::Local(TemplateId(0)) | VarKind::Temp(TemplateId(0))) {
            continue;
        }
        let mut forks = Vec::new();
        let mut other_writes = false;
        for (k, l) in prog.locs.iter().enumerate() {
            match &l.action {
                Action::Fork { template, handle: Some(lv), .. } if writes_var(lv, *h) => forks.push((LocId(k as u32), *template)),
                Action::Assign(lv, e) if writes_var(lv, *h) && !matches!(e, Expr::Nondet(_)) => other_writes = true,
                Action::Alloc(lv, ..) if writes_var(lv, *h) => other_writes = true,
                _ => {}
            }
        }
        let [(fork, t)] = forks[..] else { continue };
        let tpl = prog.template(t);
        // Multiplicity one already excludes forks on cycles, several sites and unbounded creators.
        if other_writes || tpl.multiplicity != Multiplicity::One || tpl.spawned_at != [fork] || prog.loc(fork).template != TemplateId(0) {
            continue;
        }
        // A join that some path reaches without the fork names no thread: nothing is claimed.
        if !passes_first(prog, fork, LocId(i as u32)) {
            continue;
        }
        out.push((LocId(i as u32), t));
    }
    out
}

/// Whether every path from the root's entry to `to` executes `via` (dominance).
fn passes_first(prog: &Program, via: LocId, to: LocId) -> bool {
    dominates(prog, prog.template(TemplateId(0)).entry, via, to)
}

/// Whether the action writes memory (an `assume` or `assert` only refines what it reads).
pub(crate) fn writes(a: &Action) -> bool {
    !matches!(a, Action::Assume(_) | Action::Assert(..))
}

/// Whether a path of successors leads from `from` (after it) to `to`.
pub(crate) fn reaches(prog: &Program, from: LocId, to: LocId) -> bool {
    let mut seen = std::collections::BTreeSet::new();
    let mut stack = prog.loc(from).succs.clone();
    while let Some(l) = stack.pop() {
        if l == to {
            return true;
        }
        if seen.insert(l) {
            stack.extend(prog.loc(l).succs.iter().copied());
        }
    }
    false
}

/// Whether every path from `entry` to `to` passes `via`.
pub(crate) fn dominates(prog: &Program, entry: LocId, via: LocId, to: LocId) -> bool {
    let mut seen = hashbrown::HashSet::new();
    let mut stack = vec![entry];
    while let Some(l) = stack.pop() {
        if l == via || !seen.insert(l) {
            continue;
        }
        if l == to {
            return false;
        }
        stack.extend(prog.loc(l).succs.iter().copied());
    }
    true
}

fn writes_var(lv: &Lval, h: crate::ir::VarId) -> bool {
    matches!(lv, Lval::Var(v) if *v == h)
}

/// The `join_waits(a, v)` facts: the join at `a` cannot return while the joined thread stands
/// at `v`. A thread at a thread exit has done all it will do (the exit writes nothing), so the
/// join may return then: that is how the joined thread's last values reach the joiner.
pub fn waits(prog: &Program) -> Vec<[u32; 2]> {
    let mut out = Vec::new();
    for (a, t) in definite(prog) {
        for &v in &prog.template(t).locs {
            if !matches!(prog.loc(v).action, Action::Halt(Halt::ThreadExit)) {
                out.push([a.0, v.0]);
            }
        }
    }
    out
}

/// The abstract locations whose value after a definite join is only what the joined thread
/// stored: `(join, location)`. A thread's result global (`$result@T`, which the front-end
/// creates for `pthread_join`'s second argument) is written only by its own template; when every
/// path of that template to a thread exit stores it, the value current after the join is the
/// thread's last store, never the one main's own earlier definitions (the initial zero) left.
pub fn results(prog: &Program) -> Vec<(LocId, crate::ir::AbsLoc)> {
    let mut out = Vec::new();
    for (a, t) in definite(prog) {
        let tpl = prog.template(t);
        let name = format!("$result@{}", tpl.name);
        let Some(r) = prog.vars.iter().position(|v| v.name == name && matches!(v.kind, VarKind::Global) && !v.addr_taken) else { continue };
        let r = crate::ir::VarId(r as u32);
        let written_elsewhere = prog.locs.iter().any(|l| l.template != t && matches!(&l.action, Action::Assign(lv, _) if writes_var(lv, r)));
        if written_elsewhere || !stored_before_exit(prog, t, r) {
            continue;
        }
        if let Some(x) = prog.memory.lookup(prog, &Lval::Var(r)) {
            out.push((a, x));
        }
    }
    out
}

/// Whether every path from the template's entry to a thread exit stores `r`.
fn stored_before_exit(prog: &Program, t: TemplateId, r: crate::ir::VarId) -> bool {
    let tpl = prog.template(t);
    // Must-analysis: `Some(true)` once every path here has stored r; `None` not reached yet.
    let mut stored: hashbrown::HashMap<LocId, bool> = hashbrown::HashMap::new();
    stored.insert(tpl.entry, false);
    let mut work = vec![tpl.entry];
    while let Some(l) = work.pop() {
        let here = stored[&l];
        let out = here || matches!(&prog.loc(l).action, Action::Assign(lv, _) if writes_var(lv, r));
        for s in &prog.loc(l).succs {
            let next = match stored.get(s) {
                None => out,
                Some(old) => *old && out,
            };
            if stored.get(s) != Some(&next) {
                stored.insert(*s, next);
                work.push(*s);
            }
        }
    }
    tpl.locs.iter().all(|l| !matches!(prog.loc(*l).action, Action::Halt(Halt::ThreadExit)) || stored.get(l).copied().unwrap_or(true))
}
