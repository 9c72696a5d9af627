//! Net counts after joins (issue 13, item 8): the value of a global that threads only change by
//! atomic increments, once `main` has joined every one of them.
//!
//! Increments commute, so when every write of a global `g` once a thread exists is an atomic
//! `g := g ± c` made by threads that `main` definitely joins (`joins::definite`), after the last
//! of those joins `g` holds its value at `main`'s forks plus the sum of each thread's net change,
//! whatever the interleaving. A thread's net change is the same on every path to its exit: a
//! constant, plus for each counted loop (`i := c0; while (G(i)) { ...; i := i + k; }` with `G`
//! over constants and globals no thread writes) a fixed change per iteration times its trip
//! count. A constant bound gives the count itself; two loops with the same counter start, step
//! and guard over a global run equally often, so their terms cancel when the coefficients sum to
//! zero; otherwise nothing is claimed. The interval
//! or octagon of a DUET data-flow graph cannot see this: each increment's value flows in
//! separately. [`rewrite`] states the fact as an `assume` right after the join, which every
//! execution passes, so the rewritten program over-approximates this one.
//!
//! "Atomic" means one action, or one atomic section with the read `r := g` just before the
//! write, or that read under a lock every write of `g` holds. A constant bound of the counter's
//! type is evaluated (up to about a million iterations); if any term is left, or the value
//! leaves the type's range, nothing is claimed (`popl20-counter-determinism`: one thread counts
//! up `N` times, another down, so the counter is 0 again). Not covered: writers created in
//! loops or by other threads, increments by a variable, loops over a global bound whose trip
//! count no other loop cancels.

use crate::ir::joins::{self, reaches, writes};
use crate::ir::{AbsKind, Action, BinOp, Expr, Halt, LocId, Location, Lval, Multiplicity, Program, TemplateId, Ty, VarId, VarKind};
use std::collections::{BTreeMap, BTreeSet};

/// After the root's location `after`, the global `var` holds `value` in every execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// A join in the root thread.
    pub after: LocId,
    /// The global.
    pub var: VarId,
    /// Its value there.
    pub value: i128,
}

/// A net change: a constant plus, per loop signature, a coefficient times that loop's trip count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Delta {
    constant: i128,
    per_trip: BTreeMap<String, i128>,
}

impl Delta {
    fn add(&mut self, other: &Delta) -> Option<()> {
        self.constant = self.constant.checked_add(other.constant)?;
        for (k, v) in &other.per_trip {
            let e = self.per_trip.entry(k.clone()).or_insert(0);
            *e = e.checked_add(*v)?;
        }
        self.per_trip.retain(|_, v| *v != 0);
        Some(())
    }
}

/// The change `e` makes when stored into `v`, if it is `v ± c` in `v`'s own type.
pub(super) fn increment(e: &Expr, v: VarId, ty: Ty) -> Option<i128> {
    let is_v = |x: &Expr| matches!(x, Expr::Load(Lval::Var(w)) if *w == v);
    match e {
        Expr::Binary(BinOp::Add, a, b, t) if *t == ty => match (&**a, &**b) {
            (x, Expr::Const(c, _)) | (Expr::Const(c, _), x) if is_v(x) => Some(*c),
            _ => None,
        },
        Expr::Binary(BinOp::Sub, a, b, t) if *t == ty && is_v(a) => match &**b {
            Expr::Const(c, _) => c.checked_neg(),
            _ => None,
        },
        _ => None,
    }
}

/// For a write `v := r ± c` whose only predecessor `r := v` reads `v` into a private local and
/// leads only to it: that read and the change.
pub(super) fn split_increment(prog: &Program, w: LocId, e: &Expr, v: VarId, ty: Ty) -> Option<(LocId, i128)> {
    let t = prog.loc(w).template;
    let private = |r: VarId| matches!(prog.var(r).kind, VarKind::Local(u) | VarKind::Temp(u) if u == t) && !prog.var(r).addr_taken;
    let (r, c) = match e {
        Expr::Binary(BinOp::Add, a, b, ty2) if *ty2 == ty => match (&**a, &**b) {
            (Expr::Load(Lval::Var(r)), Expr::Const(c, _)) | (Expr::Const(c, _), Expr::Load(Lval::Var(r))) => (*r, *c),
            _ => return None,
        },
        Expr::Binary(BinOp::Sub, a, b, ty2) if *ty2 == ty => match (&**a, &**b) {
            (Expr::Load(Lval::Var(r)), Expr::Const(c, _)) => (*r, c.checked_neg()?),
            _ => return None,
        },
        _ => return None,
    };
    if !private(r) {
        return None;
    }
    let preds: Vec<LocId> = prog.template(t).locs.iter().copied().filter(|p| prog.loc(*p).succs.contains(&w)).collect();
    let [p] = preds[..] else { return None };
    let read = prog.loc(p);
    if read.succs != [w] || w == prog.template(t).entry {
        return None;
    }
    match &read.action {
        Action::Assign(Lval::Var(x), Expr::Load(Lval::Var(y))) if *x == r && *y == v && prog.var(r).ty == prog.var(v).ty => Some((p, c)),
        _ => None,
    }
}

/// The facts the program supports.
pub fn facts(prog: &Program) -> Vec<Fact> {
    let root = TemplateId(0);
    if prog.templates.is_empty() {
        return Vec::new();
    }
    let definite = joins::definite(prog);
    // The root writes nothing counted where a fork precedes.
    let after_fork = after_fork(prog);
    // Candidates: globals some thread increments.
    let mut candidates: BTreeSet<VarId> = BTreeSet::new();
    for loc in &prog.locs {
        if loc.template != root {
            if let Action::Assign(Lval::Var(v), e) = &loc.action {
                if matches!(prog.var(*v).kind, VarKind::Global) && !prog.var(*v).addr_taken && matches!(e, Expr::Binary(BinOp::Add | BinOp::Sub, ..)) {
                    candidates.insert(*v);
                }
            }
        }
    }
    let mut out = Vec::new();
    for v in candidates {
        if let Some(mut fs) = facts_for(prog, v, &definite, &after_fork) {
            out.append(&mut fs);
        }
    }
    out
}

/// The root's locations that a fork precedes on some path: elsewhere the root is the only
/// thread.
pub(super) fn after_fork(prog: &Program) -> BTreeSet<LocId> {
    let rtpl = prog.template(TemplateId(0));
    let mut after: BTreeSet<LocId> = BTreeSet::new();
    let mut stack: Vec<LocId> = rtpl.locs.iter().copied().filter(|l| matches!(prog.loc(*l).action, Action::Fork { .. })).flat_map(|l| prog.loc(l).succs.clone()).collect();
    while let Some(l) = stack.pop() {
        if after.insert(l) {
            stack.extend(prog.loc(l).succs.iter().copied());
        }
    }
    after
}

fn facts_for(prog: &Program, v: VarId, definite: &[(LocId, TemplateId)], after_fork: &BTreeSet<LocId>) -> Option<Vec<Fact>> {
    let root = TemplateId(0);
    let a = prog.memory.lookup(prog, &Lval::Var(v))?;
    let info = prog.memory.info(a);
    let Ty::Int(it) = info.ty else { return None };
    if !info.strong || !matches!(info.kind, AbsKind::Var(w) if w == v) {
        return None;
    }
    // Every write: a constant by the root before its forks, or an increment by another thread.
    let mut incs: BTreeMap<TemplateId, BTreeMap<LocId, i128>> = BTreeMap::new();
    let mut writes_at = Vec::new();
    let mut locked_reads = Vec::new();
    for (i, loc) in prog.locs.iter().enumerate() {
        let l = LocId(i as u32);
        if !writes(&loc.action) || !prog.memory.access(l).mods.contains(&a) {
            continue;
        }
        match &loc.action {
            Action::Assign(Lval::Var(w), Expr::Const(..)) if *w == v && loc.template == root && !after_fork.contains(&l) => {}
            Action::Assign(Lval::Var(w), e) if *w == v && loc.template != root => {
                let c = match increment(e, v, info.ty) {
                    Some(c) => c,
                    None => {
                        let (read, c) = split_increment(prog, l, e, v, info.ty)?;
                        // Between the read and the write no other thread runs (an atomic
                        // section), or none writes (the lock every write holds).
                        if !(prog.loc(read).atomic && loc.atomic) {
                            locked_reads.push(read);
                        }
                        c
                    }
                };
                writes_at.push(l);
                incs.entry(loc.template).or_default().insert(l, c);
            }
            _ => return None,
        }
    }
    if !locked_reads.is_empty() {
        let held = super::locks::must_hold(prog);
        let common = |ls: &[LocId]| -> Vec<_> { held[ls[0].index()].iter().copied().filter(|k| ls.iter().all(|l| held[l.index()].contains(k))).collect() };
        let all: Vec<LocId> = writes_at.iter().chain(&locked_reads).copied().collect();
        if common(&all).is_empty() {
            return None;
        }
    }
    // Each writer: one instance, created by the root, which joins it definitely.
    for t in incs.keys() {
        let tpl = prog.template(*t);
        if tpl.multiplicity != Multiplicity::One || tpl.spawned_at.len() != 1 || prog.loc(tpl.spawned_at[0]).template != root || !definite.iter().any(|(_, u)| u == t) {
            return None;
        }
    }
    let start = value_at_forks(prog, v)?;
    let mut total = Delta::default();
    for (t, ws) in &incs {
        total.add(&net_change(prog, *t, ws)?)?;
    }
    if !total.per_trip.is_empty() {
        return None;
    }
    let value = start.checked_add(total.constant)?;
    if value < it.min() || value > it.max() {
        return None;
    }
    // The joins after which every writer has been joined on every path.
    let writers: BTreeSet<TemplateId> = incs.keys().copied().collect();
    let joined = joined_sets(prog, definite, &writers);
    let mut out = Vec::new();
    for &(j, t) in definite {
        if writers.contains(&t) {
            if let Some(before) = &joined[j.index()] {
                let mut after = before.clone();
                after.insert(t);
                if after == writers {
                    out.push(Fact { after: j, var: v, value });
                }
            }
        }
    }
    Some(out)
}

/// The value the root has stored in `v` (statically zero) at every fork it reaches, when that is
/// one constant.
fn value_at_forks(prog: &Program, v: VarId) -> Option<i128> {
    let tpl = prog.template(TemplateId(0));
    // `Some(None)`: reached, value not one constant.
    let mut state: BTreeMap<LocId, Option<i128>> = BTreeMap::new();
    state.insert(tpl.entry, Some(0));
    let mut work = vec![tpl.entry];
    while let Some(l) = work.pop() {
        let here = state[&l];
        let out = match &prog.loc(l).action {
            Action::Assign(Lval::Var(w), Expr::Const(c, _)) if *w == v => Some(*c),
            _ => here,
        };
        for s in &prog.loc(l).succs {
            let next = match state.get(s) {
                None => out,
                Some(old) if *old == out => out,
                Some(_) => None,
            };
            if state.get(s) != Some(&next) {
                state.insert(*s, next);
                work.push(*s);
            }
        }
    }
    let mut value = None;
    for l in &tpl.locs {
        if matches!(prog.loc(*l).action, Action::Fork { .. }) {
            if let Some(here) = state.get(l) {
                let c = (*here)?;
                if value.is_some_and(|x| x != c) {
                    return None;
                }
                value = Some(c);
            }
        }
    }
    value
}

/// Per root location, the writers joined on every path to it (`None` where unreached).
fn joined_sets(prog: &Program, definite: &[(LocId, TemplateId)], writers: &BTreeSet<TemplateId>) -> Vec<Option<BTreeSet<TemplateId>>> {
    let tpl = prog.template(TemplateId(0));
    let mut state: Vec<Option<BTreeSet<TemplateId>>> = vec![None; prog.locs.len()];
    state[tpl.entry.index()] = Some(BTreeSet::new());
    let mut work = vec![tpl.entry];
    while let Some(l) = work.pop() {
        let mut out = state[l.index()].clone().unwrap_or_default();
        for (j, t) in definite {
            if *j == l && writers.contains(t) {
                out.insert(*t);
            }
        }
        for s in &prog.loc(l).succs {
            let next = match &state[s.index()] {
                None => out.clone(),
                Some(old) => old.intersection(&out).copied().collect(),
            };
            if state[s.index()].as_ref() != Some(&next) {
                state[s.index()] = Some(next);
                work.push(*s);
            }
        }
    }
    state
}

/// The change of the counted global on every path of the template to a thread exit, given the
/// increments `incs` its locations make.
fn net_change(prog: &Program, t: TemplateId, incs: &BTreeMap<LocId, i128>) -> Option<Delta> {
    let tpl = prog.template(t);
    let mine: BTreeSet<LocId> = tpl.locs.iter().copied().collect();
    let mut preds: BTreeMap<LocId, Vec<LocId>> = BTreeMap::new();
    for &l in &tpl.locs {
        for s in &prog.loc(l).succs {
            preds.entry(*s).or_default().push(l);
        }
    }
    // Only paths to a thread exit matter: on the others the join never returns.
    let mut to_exit: BTreeSet<LocId> = BTreeSet::new();
    let mut stack: Vec<LocId> = tpl.locs.iter().copied().filter(|l| matches!(prog.loc(*l).action, Action::Halt(Halt::ThreadExit))).collect();
    while let Some(l) = stack.pop() {
        if to_exit.insert(l) {
            stack.extend(preds.get(&l).into_iter().flatten().copied());
        }
    }
    let loops = natural_loops(prog, tpl.entry, &mine, &preds);
    // Loops whose bodies increment must be counted loops, nested in no loop and nesting none.
    let mut counted: BTreeMap<LocId, (LocId, Delta)> = BTreeMap::new();
    let mut in_counted: BTreeSet<LocId> = BTreeSet::new();
    for (h, body) in &loops {
        if !body.iter().any(|l| incs.contains_key(l)) {
            continue;
        }
        if loops.iter().any(|(h2, b2)| h2 != h && (b2.contains(h) || body.contains(h2))) {
            return None;
        }
        let (exit, per) = counted_loop(prog, t, *h, body, incs, &to_exit)?;
        in_counted.extend(body.iter().copied().filter(|l| l != h));
        counted.insert(*h, (exit, per));
    }
    let mut state: BTreeMap<LocId, Delta> = BTreeMap::new();
    state.insert(tpl.entry, Delta::default());
    let mut work = vec![tpl.entry];
    while let Some(l) = work.pop() {
        let here = state[&l].clone();
        let step = |s: LocId, d: Delta, state: &mut BTreeMap<LocId, Delta>, work: &mut Vec<LocId>| -> Option<()> {
            if !to_exit.contains(&s) {
                return Some(());
            }
            if in_counted.contains(&s) {
                // Entered other than through its header: not a natural loop.
                return None;
            }
            match state.get(&s) {
                Some(old) if *old == d => {}
                Some(_) => return None,
                None => {
                    state.insert(s, d);
                    work.push(s);
                }
            }
            Some(())
        };
        if let Some((exit, per)) = counted.get(&l) {
            let mut d = here;
            d.add(per)?;
            step(*exit, d, &mut state, &mut work)?;
            continue;
        }
        let mut d = here;
        if let Some(c) = incs.get(&l) {
            d.constant = d.constant.checked_add(*c)?;
        }
        for s in prog.loc(l).succs.clone() {
            step(s, d.clone(), &mut state, &mut work)?;
        }
    }
    let mut result: Option<Delta> = None;
    for l in &tpl.locs {
        if matches!(prog.loc(*l).action, Action::Halt(Halt::ThreadExit)) {
            if let Some(d) = state.get(l) {
                if result.as_ref().is_some_and(|r| r != d) {
                    return None;
                }
                result = Some(d.clone());
            }
        }
    }
    result
}

/// Natural loops of a template: header and body (header included), by depth-first back edges.
fn natural_loops(prog: &Program, entry: LocId, mine: &BTreeSet<LocId>, preds: &BTreeMap<LocId, Vec<LocId>>) -> BTreeMap<LocId, BTreeSet<LocId>> {
    let mut back: Vec<(LocId, LocId)> = Vec::new();
    let mut on_stack: BTreeSet<LocId> = BTreeSet::new();
    let mut seen: BTreeSet<LocId> = BTreeSet::new();
    // Iterative depth-first search: (location, next successor index).
    let mut stack: Vec<(LocId, usize)> = vec![(entry, 0)];
    seen.insert(entry);
    on_stack.insert(entry);
    while let Some((l, i)) = stack.pop() {
        let succs = &prog.loc(l).succs;
        if i < succs.len() {
            stack.push((l, i + 1));
            let s = succs[i];
            if !mine.contains(&s) {
                continue;
            }
            if on_stack.contains(&s) {
                back.push((l, s));
            } else if seen.insert(s) {
                on_stack.insert(s);
                stack.push((s, 0));
            }
        } else {
            on_stack.remove(&l);
        }
    }
    let mut loops: BTreeMap<LocId, BTreeSet<LocId>> = BTreeMap::new();
    for (u, h) in back {
        let body = loops.entry(h).or_insert_with(|| BTreeSet::from([h]));
        let mut stack = vec![u];
        while let Some(x) = stack.pop() {
            if body.insert(x) {
                stack.extend(preds.get(&x).into_iter().flatten().copied());
            }
        }
    }
    loops
}

/// For a loop `i := c0; h: if (G) { body with one i := i + k } else exit`, the exit location and
/// the change per iteration, under a signature that equal trip counts share.
fn counted_loop(prog: &Program, t: TemplateId, h: LocId, body: &BTreeSet<LocId>, incs: &BTreeMap<LocId, i128>, to_exit: &BTreeSet<LocId>) -> Option<(LocId, Delta)> {
    if prog.loc(h).action != Action::Skip {
        return None;
    }
    let [s0, s1] = prog.loc(h).succs[..] else { return None };
    let (enter, exit) = match (body.contains(&s0), body.contains(&s1)) {
        (true, false) => (s0, s1),
        (false, true) => (s1, s0),
        _ => return None,
    };
    let (Action::Assume(g), Action::Assume(ng)) = (&prog.loc(enter).action, &prog.loc(exit).action) else { return None };
    // Exactly one of the two guards holds: the loop leaves only when the guard fails.
    let Expr::Binary(op, x, y, ty) = g else { return None };
    if *ng != Expr::Binary(op.negate_comparison()?, x.clone(), y.clone(), *ty) {
        return None;
    }
    // The counter: a private local of the template compared with a constant or a stable global.
    let counter = |e: &Expr| match e {
        Expr::Load(Lval::Var(i)) if matches!(prog.var(*i).kind, VarKind::Local(u) | VarKind::Temp(u) if u == t) && !prog.var(*i).addr_taken => Some(*i),
        _ => None,
    };
    let (i, bound, counter_left) = match (counter(x), counter(y)) {
        (Some(i), None) => (i, &**y, true),
        (None, Some(i)) => (i, &**x, false),
        _ => return None,
    };
    let bound_key = match bound {
        Expr::Const(c, bt) => format!("{c}:{bt:?}"),
        Expr::Load(Lval::Var(b)) if stable(prog, *b) => format!("v{}", b.0),
        _ => return None,
    };
    // Writes of the counter: one start outside the loop, one step inside.
    let mut start = None;
    let mut step = None;
    for &l in &prog.template(t).locs {
        match &prog.loc(l).action {
            Action::Assign(Lval::Var(w), e) if *w == i => {
                if body.contains(&l) {
                    let k = increment(e, i, e.ty(prog))?;
                    if step.replace((l, k)).is_some() {
                        return None;
                    }
                } else {
                    let Expr::Const(c, _) = e else { return None };
                    if start.replace((l, *c)).is_some() {
                        return None;
                    }
                }
            }
            Action::Alloc(Lval::Var(w), ..) | Action::Fork { handle: Some(Lval::Var(w)), .. } if *w == i => return None,
            _ => {}
        }
    }
    let ((init, c0), (stepper, k)) = (start?, step?);
    if !joins::dominates(prog, prog.template(t).entry, init, h) {
        return None;
    }
    // Every path around the loop steps the counter once and makes the same change; a path that
    // leaves the body elsewhere must never reach a thread exit.
    let mut state: BTreeMap<LocId, (u32, i128)> = BTreeMap::new();
    state.insert(enter, (0, 0));
    let mut work = vec![enter];
    let mut around: Option<(u32, i128)> = None;
    while let Some(l) = work.pop() {
        let (n, d) = state[&l];
        let n = n + u32::from(l == stepper);
        let d = d.checked_add(incs.get(&l).copied().unwrap_or(0))?;
        for &s in &prog.loc(l).succs {
            if s == h {
                if around.is_some_and(|x| x != (n, d)) {
                    return None;
                }
                around = Some((n, d));
            } else if !body.contains(&s) {
                if to_exit.contains(&s) {
                    return None;
                }
            } else {
                match state.get(&s) {
                    Some(old) if *old == (n, d) => {}
                    Some(_) => return None,
                    None => {
                        state.insert(s, (n, d));
                        work.push(s);
                    }
                }
            }
        }
    }
    let (1, per) = around? else { return None };
    let signature = format!("{:?}|{c0}|{k}|{op:?}|{ty:?}|{counter_left}|{bound_key}", prog.var(i).ty);
    let mut delta = Delta::default();
    if per == 0 {
        return Some((exit, delta));
    }
    // A constant bound of the counter's own type: the trip count itself.
    let counter_ty = Expr::Load(Lval::Var(i)).ty(prog);
    match (bound, counter_ty) {
        (Expr::Const(b, bt), Ty::Int(it)) if counter_left && *bt == counter_ty => delta.constant = per.checked_mul(constant_trip(c0, k, *op, *b, it)?)?,
        _ => {
            delta.per_trip.insert(signature, per);
        }
    }
    Some((exit, delta))
}

/// How often `for (i = c0; i op bound; i += k)` runs its body, when `i` stays in its type and
/// the count is at most about a million.
fn constant_trip(c0: i128, k: i128, op: BinOp, bound: i128, it: crate::ir::IntTy) -> Option<i128> {
    let mut i = c0;
    let mut n = 0i128;
    loop {
        let go = match op {
            BinOp::Lt => i < bound,
            BinOp::Le => i <= bound,
            BinOp::Gt => i > bound,
            BinOp::Ge => i >= bound,
            BinOp::Ne => i != bound,
            BinOp::Eq => i == bound,
            _ => return None,
        };
        if !go {
            return Some(n);
        }
        n += 1;
        i = i.checked_add(k)?;
        if n > 1 << 20 || i < it.min() || i > it.max() {
            return None;
        }
    }
}

/// A global that only the root writes, before any fork: every thread reads one value.
fn stable(prog: &Program, b: VarId) -> bool {
    if !matches!(prog.var(b).kind, VarKind::Global) || prog.var(b).addr_taken {
        return false;
    }
    let Some(a) = prog.memory.lookup(prog, &Lval::Var(b)) else { return false };
    let root = prog.template(TemplateId(0));
    let forks: Vec<LocId> = root.locs.iter().copied().filter(|l| matches!(prog.loc(*l).action, Action::Fork { .. })).collect();
    prog.locs.iter().enumerate().all(|(i, loc)| {
        let l = LocId(i as u32);
        !writes(&loc.action) || !prog.memory.access(l).mods.contains(&a) || (loc.template == TemplateId(0) && !forks.iter().any(|f| reaches(prog, *f, l)))
    })
}

/// The program with each fact as an `assume` right after its join; `None` without facts.
pub fn rewrite(prog: &Program, facts: &[Fact]) -> Option<Program> {
    if facts.is_empty() {
        return None;
    }
    let mut extra: BTreeMap<LocId, Vec<Action>> = BTreeMap::new();
    for f in facts {
        let ty = prog.memory.info(prog.memory.lookup(prog, &Lval::Var(f.var))?).ty;
        let cond = Expr::Binary(BinOp::Eq, Box::new(Expr::Load(Lval::Var(f.var))), Box::new(Expr::Const(f.value, ty)), Ty::INT);
        extra.entry(f.after).or_default().push(Action::Assume(cond));
    }
    let mut out = prog.clone();
    // Each location becomes a chain: itself, then its assumes.
    let chains = prog
        .locs
        .iter()
        .enumerate()
        .map(|(i, loc)| {
            let mut chain = vec![loc.clone()];
            for a in extra.get(&LocId(i as u32)).into_iter().flatten() {
                chain.push(Location { template: loc.template, span: loc.span, action: a.clone(), succs: Vec::new(), atomic: loc.atomic });
            }
            chain
        })
        .collect();
    super::privatise::splice(prog, &mut out, chains);
    Some(out)
}
