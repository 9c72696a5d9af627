//! Forks and joins under a test of a settled local of `main` (`if (x) pthread_create(..)` ...
//! `if (x) pthread_join(..)`): more `join_waits` facts for the race rules.
//!
//! A local of the root whose address is never taken and which one assignment, off every
//! control-flow cycle, writes is *settled*: once that assignment has run its value never
//! changes. When every path to the only fork of a single-instance template passes a test of such
//! a variable (its *guard*), a thread of that template exists only if the guard held, so for
//! as long as the thread exists (running or ended):
//! - a test of the variable that contradicts the guard cannot pass (`join_waits(a, v)` for
//!   every location `v` of the template, its exit included);
//! - a join on the fork's handle that only paths through the fork or through two contradicting
//!   tests reach waits for that thread (`join_waits` as for the definite joins of
//!   `ir::joins`, the exit left out), though the fork does not dominate it.
//!
//! Both only remove steps that no execution takes, so the race rules stay an
//! over-approximation.

use crate::ir::joins::{dominates, reaches};
use crate::ir::{Action, BinOp, Expr, Halt, LocId, Lval, Multiplicity, Program, TemplateId, VarId, VarKind};
use hashbrown::HashSet;

/// A test `x == k` (`eq`) or `x != k` of a variable against a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Test {
    var: VarId,
    eq: bool,
    k: i128,
}

impl Test {
    /// Whether no value satisfies both tests.
    fn contradicts(&self, o: &Test) -> bool {
        self.var == o.var && ((self.eq && o.eq && self.k != o.k) || (self.eq != o.eq && self.k == o.k))
    }
}

/// The test an `assume` makes, when it is `x == k` or `x != k` on a variable (no conversion).
fn test_of(a: &Action) -> Option<Test> {
    let Action::Assume(Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), l, r, _)) = a else { return None };
    let (var, k) = match (&**l, &**r) {
        (Expr::Load(Lval::Var(v)), Expr::Const(k, _)) | (Expr::Const(k, _), Expr::Load(Lval::Var(v))) => (*v, *k),
        _ => return None,
    };
    Some(Test { var, eq: *op == BinOp::Eq, k })
}

/// The lvalue an action writes, if any.
fn written(a: &Action) -> Option<&Lval> {
    match a {
        Action::Assign(lv, _) | Action::Alloc(lv, ..) | Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => Some(lv),
        Action::Fork { handle: Some(lv), .. } => Some(lv),
        _ => None,
    }
}

fn root_var(mut lv: &Lval) -> Option<VarId> {
    loop {
        match lv {
            Lval::Var(v) => return Some(*v),
            Lval::Index(b, _) | Lval::Field(b, _, _) => lv = b,
            Lval::Deref(..) => return None,
        }
    }
}

/// For each settled variable, the one location that writes it.
fn settled(prog: &Program) -> Vec<Option<LocId>> {
    let mut writes: Vec<Vec<LocId>> = vec![Vec::new(); prog.vars.len()];
    for (i, loc) in prog.locs.iter().enumerate() {
        if let Some(v) = written(&loc.action).and_then(root_var) {
            writes[v.index()].push(LocId(i as u32));
        }
    }
    prog.vars
        .iter()
        .enumerate()
        .map(|(v, var)| {
            let root_local = matches!(var.kind, VarKind::Local(TemplateId(0)) | VarKind::Temp(TemplateId(0)));
            match writes[v][..] {
                [d] if root_local && !var.addr_taken && prog.loc(d).template == TemplateId(0) && !reaches(prog, d, d) => Some(d),
                _ => None,
            }
        })
        .collect()
}

/// The extra `join_waits(a, v)` facts (see the module comment).
pub(super) fn waits(prog: &Program) -> Vec<[u32; 2]> {
    let def = settled(prog);
    let entry = prog.template(TemplateId(0)).entry;
    let tests: Vec<(LocId, Test)> = prog
        .locs
        .iter()
        .enumerate()
        .filter(|(_, l)| l.template == TemplateId(0))
        .filter_map(|(i, l)| test_of(&l.action).map(|t| (LocId(i as u32), t)))
        .filter(|(_, t)| def[t.var.index()].is_some())
        .collect();
    let mut out = Vec::new();
    for (ti, tpl) in prog.templates.iter().enumerate() {
        let &[fork] = &tpl.spawned_at[..] else { continue };
        if tpl.multiplicity != Multiplicity::One || prog.loc(fork).template != TemplateId(0) || ti == 0 {
            continue;
        }
        // The guards: tests after the variable's assignment that every path to the fork passes.
        let guards: Vec<Test> = tests
            .iter()
            .filter(|(g, t)| {
                let d = def[t.var.index()].unwrap_or(*g);
                dominates(prog, entry, d, *g) && *g != d && dominates(prog, entry, *g, fork)
            })
            .map(|(_, t)| *t)
            .collect();
        if guards.is_empty() {
            continue;
        }
        let mut blocked: HashSet<LocId> = HashSet::new();
        for (a, t) in &tests {
            if guards.iter().any(|g| g.contradicts(t)) {
                blocked.insert(*a);
            }
        }
        for a in &blocked {
            for v in &tpl.locs {
                out.push([a.0, v.0]);
            }
        }
        let Some(Lval::Var(h)) = (match &prog.loc(fork).action {
            Action::Fork { handle, .. } => handle.clone(),
            _ => None,
        }) else {
            continue;
        };
        if !handle_written_only_by(prog, h, fork) {
            continue;
        }
        for (j, loc) in prog.locs.iter().enumerate() {
            let j = LocId(j as u32);
            if loc.template != TemplateId(0) || !matches!(&loc.action, Action::Join(Expr::Load(Lval::Var(x))) if *x == h) {
                continue;
            }
            if dominates(prog, entry, fork, j) || reached_without(prog, entry, fork, j, &def, &tests) {
                // A join the fork dominates is `ir::joins`'s already; one some feasible path
                // reaches without the fork names no thread.
                continue;
            }
            for v in &tpl.locs {
                if !matches!(prog.loc(*v).action, Action::Halt(Halt::ThreadExit)) {
                    out.push([j.0, v.0]);
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether the handle is a root local, its address never taken, written only by the fork
/// and by its uninitialised declaration.
fn handle_written_only_by(prog: &Program, h: VarId, fork: LocId) -> bool {
    let var = prog.var(h);
    if var.addr_taken || !matches!(var.kind, VarKind::Local(TemplateId(0)) | VarKind::Temp(TemplateId(0))) {
        return false;
    }
    prog.locs.iter().enumerate().all(|(i, l)| {
        let here = LocId(i as u32);
        match written(&l.action).and_then(root_var) {
            Some(v) if v == h => here == fork || matches!(&l.action, Action::Assign(Lval::Var(_), Expr::Nondet(_))),
            _ => true,
        }
    })
}

/// Whether some path from `entry` to `to` avoids `via` without passing two contradicting tests
/// of a settled variable after its assignment. The state keeps the first test passed per
/// variable (a path passing a later one contradicting it is infeasible); the search is over
/// (location, remembered tests), a finite set.
fn reached_without(prog: &Program, entry: LocId, via: LocId, to: LocId, def: &[Option<LocId>], tests: &[(LocId, Test)]) -> bool {
    let vars: Vec<VarId> = {
        let mut v: Vec<VarId> = tests.iter().map(|(_, t)| t.var).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    // Per variable: None before its assignment, Some(None) after it with no test passed yet.
    type Known = Vec<Option<Option<Test>>>;
    let test_at = |l: LocId| tests.iter().find(|(a, _)| *a == l).map(|(_, t)| *t);
    let mut seen: HashSet<(LocId, Known)> = HashSet::new();
    let mut stack: Vec<(LocId, Known)> = vec![(entry, vec![None; vars.len()])];
    while let Some((l, mut known)) = stack.pop() {
        if l == via || !seen.insert((l, known.clone())) {
            continue;
        }
        if l == to {
            return true;
        }
        if let Some(t) = test_at(l) {
            let i = vars.iter().position(|v| *v == t.var).unwrap_or(0);
            match known[i] {
                Some(Some(first)) if first.contradicts(&t) => continue,
                Some(None) => known[i] = Some(Some(t)),
                _ => {}
            }
        }
        for (i, v) in vars.iter().enumerate() {
            if def[v.index()] == Some(l) {
                known[i] = Some(None);
            }
        }
        for s in &prog.loc(l).succs {
            stack.push((*s, known.clone()));
        }
    }
    false
}
