//! Twin threads and the equalities `main` knows by itself (issue 13, items 3 and 8).
//!
//! Two threads that run the same deterministic code up to a renaming of the globals, on inputs
//! that are equal when the first of them starts and that no one else touches while they run,
//! end with equal outputs: `x1 == x2` after `while (x1 < n) x1 += x1;` in one thread and the
//! same loop over `x2` in the other, when `x1 == x2` at the forks. Intervals and octagons over
//! packs cannot see this (each loop's result flows in separately, and the relation needs the two
//! loops' iterations to correspond). [`twins`] finds such pairs ([`Twin`]).
//!
//! [`rewrite`] uses them in a must-equality analysis of `main`: classes of its variables and the
//! globals that are equal (or equal to a constant) on every path, where a global that a running
//! thread may write belongs to no class. After the join that ends the second twin, each output
//! joins its twin's class. An `assume` that the classes refute becomes `assume(0)`, and an
//! `assert` they imply becomes `assert(1)`; both hold in every execution, so the rewritten
//! program has the same executions and what COARSEN proves on it holds here.
//!
//! Why a twin's outputs are equal. Each twin only reads and writes plain variables (its own
//! locals and globals whose address is never taken), evaluates no nondeterministic value, forks
//! and locks nothing, and at every branch its two sides test conditions that exclude each other
//! (over the same values: nothing writes between the branch and the tests), so a run of it is a
//! function of the values it reads. It reads only its own writes and globals that nobody but
//! itself writes from the first twin's fork to the join (no other thread ever; `main` not in
//! that stretch), so those values are the ones present at the first fork; the renaming maps
//! one twin's globals to the other's, and the two agree on them there. Both runs are therefore
//! the same run up to the renaming, and when both have been joined their writes are final.
//!
//! Example: `bench-exp1x3` (`x1 == x2` after two doubling loops). Not covered: twins that read
//! memory through pointers or arrays.

use super::paths::{Implied, Summary};
use crate::ir::joins::{self, reaches, writes};
use crate::ir::{AbsKind, Action, BinOp, Expr, LocId, Lval, Multiplicity, Program, TemplateId, UnOp, VarId, VarKind};
use hashbrown::HashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::mem::Discriminant;

/// Two twin templates and where their outputs are equal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Twin {
    /// The first twin (in template order).
    pub first: TemplateId,
    /// The second twin.
    pub second: TemplateId,
    /// The fork of either twin that comes first on every path.
    pub fork: LocId,
    /// A join in `main` after which both twins have been joined on every path.
    pub join: LocId,
    /// Globals of the first twin and their images in the second, which must be equal at `fork`
    /// and are equal after `join`.
    pub pairs: Vec<(VarId, VarId)>,
}

/// A scalar variable of `main` or a global that only plain accesses reach.
fn plain(prog: &Program, v: VarId) -> bool {
    let var = prog.var(v);
    if var.addr_taken || !matches!(var.kind, VarKind::Global | VarKind::Local(TemplateId(0)) | VarKind::Temp(TemplateId(0))) {
        return false;
    }
    // Floating point has no reflexive equality (NaN).
    if matches!(var.ty.scalar(prog.data_model), crate::ir::Ty::Float) {
        return false;
    }
    prog.memory.lookup(prog, &Lval::Var(v)).is_some_and(|a| {
        let info = prog.memory.info(a);
        info.strong && matches!(info.kind, AbsKind::Var(w) if w == v)
    })
}

/// A constant as the value its type holds (`None` for types whose constants are not compared).
fn norm(c: i128, t: crate::ir::Ty) -> Option<i128> {
    match t {
        crate::ir::Ty::Int(it) => Some(it.wrap(c)),
        crate::ir::Ty::Bool if c == 0 || c == 1 => Some(c),
        _ => None,
    }
}

/// Per template: the variables its actions may write (through any lvalue).
fn written(prog: &Program) -> Vec<BTreeSet<VarId>> {
    let mut out = vec![BTreeSet::new(); prog.templates.len()];
    for (i, loc) in prog.locs.iter().enumerate() {
        if !writes(&loc.action) {
            continue;
        }
        for a in &prog.memory.access(LocId(i as u32)).mods {
            if let AbsKind::Var(v) | AbsKind::Cell(v, _) = &prog.memory.info(*a).kind {
                out[loc.template.index()].insert(*v);
            }
        }
    }
    out
}

/// The pairs of twin templates the program has, with the joins after which they hold.
pub fn twins(prog: &Program) -> Vec<Twin> {
    if prog.templates.len() < 3 {
        return Vec::new();
    }
    let root = TemplateId(0);
    let definite = joins::definite(prog);
    let written = written(prog);
    let entry = prog.template(root).entry;
    // Only templates `main` creates once and definitely joins can be twins; deciding that
    // first, once per template, spares comparing the code of the many templates that are not.
    let single: Vec<bool> = prog
        .templates
        .iter()
        .enumerate()
        .map(|(x, tpl)| x > 0 && tpl.multiplicity == Multiplicity::One && tpl.spawned_at.len() == 1 && prog.loc(tpl.spawned_at[0]).template == root && definite.iter().any(|(_, y)| y.index() == x))
        .collect();
    // Templates whose code may match are compared in full only within one bucket of equal
    // shapes (`shape` is equal for every pair `same_function` accepts), in the pair order of
    // a comparison of all pairs, so the twins found and their order stay the same.
    let mut index: HashMap<Shape, usize> = HashMap::new();
    let mut members: Vec<Vec<TemplateId>> = Vec::new();
    let mut bucket_of: Vec<Option<usize>> = vec![None; prog.templates.len()];
    for t in 1..prog.templates.len() {
        let t = TemplateId(t as u32);
        if !single[t.index()] {
            continue;
        }
        let Some(key) = shape(prog, t) else { continue };
        let b = *index.entry(key).or_insert_with(|| {
            members.push(Vec::new());
            members.len() - 1
        });
        members[b].push(t);
        bucket_of[t.index()] = Some(b);
    }
    let mut out = Vec::new();
    for (t, b) in bucket_of.iter().enumerate() {
        let Some(b) = *b else { continue };
        for &u in members[b].iter().filter(|u| u.index() > t) {
            let t = TemplateId(t as u32);
            let Some(sigma) = same_function(prog, t, u) else { continue };
            // What each twin touches is its own: the other writes none of it, nor does any
            // thread but `main`.
            let acc_t: BTreeSet<VarId> = sigma.keys().copied().collect();
            let acc_u: BTreeSet<VarId> = sigma.values().copied().collect();
            if !written[t.index()].is_disjoint(&acc_u) || !written[u.index()].is_disjoint(&acc_t) {
                continue;
            }
            let touched: BTreeSet<VarId> = acc_t.union(&acc_u).copied().collect();
            let foreign = (1..prog.templates.len()).any(|x| x != t.index() && x != u.index() && !written[x].is_disjoint(&touched));
            if foreign {
                continue;
            }
            let (ft, fu) = (prog.template(t).spawned_at[0], prog.template(u).spawned_at[0]);
            let fork = if joins::dominates(prog, entry, ft, fu) {
                ft
            } else if joins::dominates(prog, entry, fu, ft) {
                fu
            } else {
                continue;
            };
            if !same_argument(prog, ft, fu) {
                continue;
            }
            let pairs: Vec<(VarId, VarId)> = sigma.iter().filter(|(g, h)| g != h).map(|(g, h)| (*g, *h)).collect();
            for join in both_joined(prog, &definite, t, u) {
                if main_writes_between(prog, fork, Some(join), &touched) {
                    continue;
                }
                out.push(Twin { first: t, second: u, fork, join, pairs: pairs.clone() });
            }
        }
    }
    out
}

/// Whether the two forks pass the same argument: none, or one constant.
fn same_argument(prog: &Program, a: LocId, b: LocId) -> bool {
    match (&prog.loc(a).action, &prog.loc(b).action) {
        (Action::Fork { arg: x, .. }, Action::Fork { arg: y, .. }) => match (x, y) {
            (None, None) => true,
            (Some(Expr::Const(c, s)), Some(Expr::Const(d, r))) => c == d && s == r,
            _ => false,
        },
        _ => false,
    }
}

/// Definite joins of `t` or `u` in `main`, on no cycle, where the other one has been joined on
/// every path.
fn both_joined(prog: &Program, definite: &[(LocId, TemplateId)], t: TemplateId, u: TemplateId) -> Vec<LocId> {
    let tpl = prog.template(TemplateId(0));
    // Per location: the twins joined on every path to it, before its action.
    let mut state: BTreeMap<LocId, BTreeSet<TemplateId>> = BTreeMap::new();
    state.insert(tpl.entry, BTreeSet::new());
    let mut work = vec![tpl.entry];
    let joined_here = |l: LocId| definite.iter().filter(move |(j, x)| *j == l && (*x == t || *x == u)).map(|(_, x)| *x);
    while let Some(l) = work.pop() {
        let mut out = state[&l].clone();
        out.extend(joined_here(l));
        for s in &prog.loc(l).succs {
            let next = match state.get(s) {
                None => out.clone(),
                Some(old) => old.intersection(&out).copied().collect(),
            };
            if state.get(s) != Some(&next) {
                state.insert(*s, next);
                work.push(*s);
            }
        }
    }
    let mut out = Vec::new();
    for (l, before) in &state {
        let mut after = before.clone();
        after.extend(joined_here(*l));
        if before.len() < 2 && after.len() == 2 && !reaches(prog, *l, *l) {
            out.push(*l);
        }
    }
    out
}

/// Whether `main` may write one of `vars` after `fork` (and before `join` returns, if given).
fn main_writes_between(prog: &Program, fork: LocId, join: Option<LocId>, vars: &BTreeSet<VarId>) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = prog.loc(fork).succs.clone();
    while let Some(l) = stack.pop() {
        if !seen.insert(l) {
            continue;
        }
        let loc = prog.loc(l);
        if writes(&loc.action) {
            for a in &prog.memory.access(l).mods {
                if let AbsKind::Var(v) | AbsKind::Cell(v, _) = &prog.memory.info(*a).kind {
                    if vars.contains(v) {
                        return true;
                    }
                }
            }
        }
        if Some(l) != join {
            stack.extend(loc.succs.iter().copied());
        }
    }
    false
}

/// If templates `t` and `u` run the same deterministic code up to a renaming of their locals and
/// globals: the renaming of `t`'s globals to `u`'s (every global `t` reads or writes).
fn same_function(prog: &Program, t: TemplateId, u: TemplateId) -> Option<BTreeMap<VarId, VarId>> {
    let (tt, ut) = (prog.template(t), prog.template(u));
    if tt.locs.len() != ut.locs.len() || tt.params.len() != ut.params.len() || tt.locs.is_empty() {
        return None;
    }
    let contiguous = |locs: &[LocId]| locs.windows(2).all(|w| w[1].0 == w[0].0 + 1);
    if !contiguous(&tt.locs) || !contiguous(&ut.locs) {
        return None;
    }
    let (t0, u0) = (tt.locs[0].0, ut.locs[0].0);
    if tt.entry.0 - t0 != ut.entry.0 - u0 {
        return None;
    }
    let mut map: BTreeMap<VarId, VarId> = BTreeMap::new();
    let mut taken: BTreeSet<VarId> = BTreeSet::new();
    let mut pair = |x: VarId, y: VarId| -> bool {
        let (vx, vy) = (prog.var(x), prog.var(y));
        let kinds = match (vx.kind, vy.kind) {
            (VarKind::Local(a), VarKind::Local(b)) | (VarKind::Temp(a), VarKind::Temp(b)) => a == t && b == u,
            (VarKind::Global, VarKind::Global) => plain(prog, x) && plain(prog, y),
            _ => false,
        };
        if !kinds || vx.ty != vy.ty || vx.addr_taken || vy.addr_taken {
            return false;
        }
        match map.get(&x) {
            Some(&z) => z == y,
            None => {
                map.insert(x, y);
                taken.insert(y)
            }
        }
    };
    for (a, b) in tt.locs.iter().zip(&ut.locs) {
        let (la, lb) = (prog.loc(*a), prog.loc(*b));
        if la.atomic != lb.atomic || la.succs.len() != lb.succs.len() || la.succs.iter().zip(&lb.succs).any(|(x, y)| x.0.wrapping_sub(t0) != y.0.wrapping_sub(u0)) {
            return None;
        }
        if !deterministic_action(&la.action) {
            return None;
        }
        let (mut va, mut vb) = (Vec::new(), Vec::new());
        crate::ir::visit::action_vars(&la.action, &mut |v| va.push(v));
        crate::ir::visit::action_vars(&lb.action, &mut |v| vb.push(v));
        if va.len() != vb.len() || !va.iter().zip(&vb).all(|(x, y)| pair(*x, *y)) {
            return None;
        }
    }
    if !tt.params.iter().zip(&ut.params).all(|(x, y)| pair(*x, *y)) {
        return None;
    }
    let renamed = |v: VarId| map.get(&v).copied().unwrap_or(v);
    for (a, b) in tt.locs.iter().zip(&ut.locs) {
        let same = match (rename_action(&prog.loc(*a).action, &renamed), &prog.loc(*b).action) {
            (Action::Assert(_, x), Action::Assert(_, y)) => x == *y,
            (x, y) => x == *y,
        };
        if !same {
            return None;
        }
    }
    // Every branch of the first (hence of the second) is decided by its values.
    for &l in &tt.locs {
        let succs = &prog.loc(l).succs;
        match succs.len() {
            0 | 1 => {}
            2 => {
                let (Some(x), Some(y)) = (first_test(prog, t, succs[0]), first_test(prog, t, succs[1])) else { return None };
                if !excludes(&x, &y) {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(map.into_iter().filter(|(x, _)| prog.var(*x).is_global()).collect())
}

/// What [`same_function`] compares, with each variable replaced by its kind and the place of
/// its first occurrence: equal for two templates whenever their code matches up to a renaming.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Shape {
    /// Sizes, the entry's offset, and per location its atomicity, successors' offsets and
    /// variables (kind, first occurrence).
    numbers: Vec<u32>,
    /// Per location: the kind of its action.
    actions: Vec<Discriminant<Action>>,
}

/// The shape of a template's code; `None` when [`same_function`] matches it with no template
/// (no locations, locations not contiguous, or an action that is not deterministic).
fn shape(prog: &Program, t: TemplateId) -> Option<Shape> {
    let tpl = prog.template(t);
    let contiguous = tpl.locs.windows(2).all(|w| w[1].0 == w[0].0 + 1);
    if tpl.locs.is_empty() || !contiguous {
        return None;
    }
    let t0 = tpl.locs[0].0;
    let mut numbers = vec![tpl.locs.len() as u32, tpl.params.len() as u32, tpl.entry.0.wrapping_sub(t0)];
    let mut actions = Vec::with_capacity(tpl.locs.len());
    // `same_function` pairs the variables in this order, one to one, so their numbering by
    // first occurrence is the same in both templates.
    let mut first: HashMap<VarId, u32> = HashMap::new();
    let mut var = |numbers: &mut Vec<u32>, v: VarId| {
        let next = first.len() as u32;
        let n = *first.entry(v).or_insert(next);
        let kind = match prog.var(v).kind {
            VarKind::Local(_) => 0,
            VarKind::Temp(_) => 1,
            VarKind::Global => 2,
            VarKind::ThreadLocal => 3,
        };
        numbers.extend([kind, n]);
    };
    for &l in &tpl.locs {
        let loc = prog.loc(l);
        if !deterministic_action(&loc.action) {
            return None;
        }
        numbers.push(loc.atomic as u32);
        numbers.push(loc.succs.len() as u32);
        numbers.extend(loc.succs.iter().map(|s| s.0.wrapping_sub(t0)));
        actions.push(std::mem::discriminant(&loc.action));
        let mut vs = Vec::new();
        crate::ir::visit::action_vars(&loc.action, &mut |v| vs.push(v));
        numbers.push(vs.len() as u32);
        for v in vs {
            var(&mut numbers, v);
        }
    }
    for &p in &tpl.params {
        var(&mut numbers, p);
    }
    Some(Shape { numbers, actions })
}

/// An action whose effect is a function of the values it reads: plain assignments and tests.
pub(super) fn deterministic_action(a: &Action) -> bool {
    match a {
        Action::Skip | Action::AtomicBegin | Action::AtomicEnd | Action::Halt(_) => true,
        Action::Assign(Lval::Var(_), e) | Action::Assume(e) | Action::Assert(_, e) => pure(e),
        _ => false,
    }
}

/// An expression over plain variables and constants.
fn pure(e: &Expr) -> bool {
    match e {
        Expr::Const(..) | Expr::Load(Lval::Var(_)) => true,
        Expr::Unary(_, x, _) | Expr::Cast(_, x) => pure(x),
        Expr::Binary(_, a, b, _) => pure(a) && pure(b),
        _ => false,
    }
}

/// The condition of the first `assume` on the straight path from `from`, over the values the
/// private variables assigned on the way hold there (the path only assigns those).
fn first_test(prog: &Program, t: TemplateId, from: LocId) -> Option<Expr> {
    let mut subst: BTreeMap<VarId, Expr> = BTreeMap::new();
    let mut l = from;
    for _ in 0..64 {
        let loc = prog.loc(l);
        match &loc.action {
            Action::Assume(c) => return Some(substitute(c, &subst)),
            Action::Skip => {}
            Action::Assign(Lval::Var(v), e) if matches!(prog.var(*v).kind, VarKind::Local(x) | VarKind::Temp(x) if x == t) => {
                let value = substitute(e, &subst);
                subst.insert(*v, value);
            }
            _ => return None,
        }
        let [next] = loc.succs[..] else { return None };
        l = next;
    }
    None
}

/// `e` with each variable `s` maps replaced by its expression.
pub(super) fn substitute(e: &Expr, s: &BTreeMap<VarId, Expr>) -> Expr {
    match e {
        Expr::Load(Lval::Var(v)) => s.get(v).cloned().unwrap_or_else(|| e.clone()),
        Expr::Unary(op, x, t) => Expr::Unary(*op, Box::new(substitute(x, s)), *t),
        Expr::Binary(op, a, b, t) => Expr::Binary(*op, Box::new(substitute(a, s)), Box::new(substitute(b, s)), *t),
        Expr::Cast(t, x) => Expr::Cast(*t, Box::new(substitute(x, s))),
        other => other.clone(),
    }
}

/// Whether two conditions never hold together: one is the other's negation.
fn excludes(x: &Expr, y: &Expr) -> bool {
    let negation = |a: &Expr, b: &Expr| match (a, b) {
        (Expr::Binary(op, p, q, t), Expr::Binary(op2, p2, q2, t2)) => op.negate_comparison() == Some(*op2) && p == p2 && q == q2 && t == t2,
        (Expr::Unary(UnOp::Not, p, _), q) => **p == *q,
        _ => false,
    };
    negation(x, y) || negation(y, x)
}

fn rename_action(a: &Action, f: &dyn Fn(VarId) -> VarId) -> Action {
    match a {
        Action::Assign(Lval::Var(v), e) => Action::Assign(Lval::Var(f(*v)), rename_expr(e, f)),
        Action::Assume(e) => Action::Assume(rename_expr(e, f)),
        Action::Assert(id, e) => Action::Assert(*id, rename_expr(e, f)),
        other => other.clone(),
    }
}

/// `e` with each variable it loads directly renamed by `f`.
pub(super) fn rename_expr(e: &Expr, f: &dyn Fn(VarId) -> VarId) -> Expr {
    match e {
        Expr::Load(Lval::Var(v)) => Expr::Load(Lval::Var(f(*v))),
        Expr::Unary(op, x, t) => Expr::Unary(*op, Box::new(rename_expr(x, f)), *t),
        Expr::Binary(op, a, b, t) => Expr::Binary(*op, Box::new(rename_expr(a, f)), Box::new(rename_expr(b, f)), *t),
        Expr::Cast(t, x) => Expr::Cast(*t, Box::new(rename_expr(x, f))),
        other => other.clone(),
    }
}

/// The class of a variable: equal to a constant, or to the other members (named by the least).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Const(i128),
    Var(VarId),
}

/// What `main` knows at a location: classes of equal variables (a variable in no class is
/// equal to nothing known) and the templates that may be running.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Eqs {
    class: BTreeMap<VarId, Key>,
    running: BTreeSet<TemplateId>,
    /// Templates definitely joined on every path here.
    done: BTreeSet<TemplateId>,
}

impl Eqs {
    fn members(&self, k: Key) -> Vec<VarId> {
        self.class.iter().filter(|(_, c)| **c == k).map(|(v, _)| *v).collect()
    }

    /// Takes `v` out of its class.
    fn forget(&mut self, v: VarId) {
        let Some(k @ Key::Var(_)) = self.class.remove(&v) else { return };
        let rest = self.members(k);
        match rest[..] {
            [last] => {
                self.class.remove(&last);
            }
            [least, ..] => {
                for r in rest {
                    self.class.insert(r, Key::Var(least));
                }
            }
            [] => {}
        }
    }

    /// Makes `a` and `b` one class; `false` when they hold different constants.
    fn merge(&mut self, a: VarId, b: VarId) -> bool {
        let (ka, kb) = (self.class.get(&a).copied(), self.class.get(&b).copied());
        if ka.is_some() && ka == kb {
            return true;
        }
        let with = |k: Option<Key>, v: VarId| k.map(|k| self.members(k)).unwrap_or_else(|| vec![v]);
        let mut all = with(ka, a);
        all.extend(with(kb, b));
        let key = match (ka, kb) {
            (Some(Key::Const(c)), Some(Key::Const(d))) if c != d => return false,
            (Some(Key::Const(c)), _) | (_, Some(Key::Const(c))) => Key::Const(c),
            _ => Key::Var(*all.iter().min().expect("two members")),
        };
        for v in all {
            self.class.insert(v, key);
        }
        true
    }

    /// Gives `v`'s class the constant `c`; `false` when it holds another one.
    fn equal_const(&mut self, v: VarId, c: i128) -> bool {
        match self.class.get(&v).copied() {
            Some(Key::Const(d)) => c == d,
            Some(k) => {
                for m in self.members(k) {
                    self.class.insert(m, Key::Const(c));
                }
                true
            }
            None => {
                self.class.insert(v, Key::Const(c));
                true
            }
        }
    }

    /// What holds on both: variables equal in both stay equal.
    fn join(&self, other: &Eqs) -> Eqs {
        let mut groups: BTreeMap<(Key, Key), Vec<VarId>> = BTreeMap::new();
        for (v, k) in &self.class {
            if let Some(k2) = other.class.get(v) {
                groups.entry((*k, *k2)).or_default().push(*v);
            }
        }
        let mut class = BTreeMap::new();
        for ((k1, k2), vs) in groups {
            let key = match (k1, k2) {
                (Key::Const(c), Key::Const(d)) if c == d => Key::Const(c),
                _ if vs.len() >= 2 => Key::Var(vs[0]),
                _ => continue,
            };
            for v in vs {
                class.insert(v, key);
            }
        }
        Eqs { class, running: self.running.union(&other.running).copied().collect(), done: self.done.intersection(&other.done).copied().collect() }
    }

    /// `e` with each variable in a class replaced by the class's name, or by its constant
    /// (in its own type, which is the value it loads).
    fn canonical(&self, prog: &Program, e: &Expr) -> Expr {
        match e {
            Expr::Load(Lval::Var(v)) => match self.class.get(v) {
                Some(Key::Var(w)) => Expr::Load(Lval::Var(*w)),
                Some(Key::Const(c)) => Expr::Const(*c, e.ty(prog)),
                None => e.clone(),
            },
            Expr::Unary(op, x, t) => Expr::Unary(*op, Box::new(self.canonical(prog, x)), *t),
            Expr::Binary(op, a, b, t) => Expr::Binary(*op, Box::new(self.canonical(prog, a)), Box::new(self.canonical(prog, b)), *t),
            Expr::Cast(t, x) => Expr::Cast(*t, Box::new(self.canonical(prog, x))),
            other => other.clone(),
        }
    }

    /// The class or constant of an operand, when it has one.
    fn value(&self, prog: &Program, e: &Expr) -> Option<(Key, crate::ir::Ty)> {
        match e {
            Expr::Const(c, t) => Some((Key::Const(norm(*c, *t)?), *t)),
            Expr::Load(Lval::Var(v)) => {
                let k = self.class.get(v).copied().unwrap_or(Key::Var(*v));
                Some((k, e.ty(prog)))
            }
            _ => None,
        }
    }

    /// `Some(b)` when the comparison is known to be `b` here.
    fn decide(&self, prog: &Program, e: &Expr) -> Option<bool> {
        let Expr::Binary(op, a, b, _) = e else { return None };
        // Two operands that compute the same function of equal values are equal: one action
        // reads each variable once.
        if (self.value(prog, a).is_none() || self.value(prog, b).is_none()) && pure(a) && pure(b) && a.ty(prog) == b.ty(prog) && self.canonical(prog, a) == self.canonical(prog, b) {
            return match op {
                BinOp::Eq | BinOp::Le | BinOp::Ge => Some(true),
                BinOp::Ne | BinOp::Lt | BinOp::Gt => Some(false),
                _ => None,
            };
        }
        let ((ka, ta), (kb, tb)) = (self.value(prog, a)?, self.value(prog, b)?);
        if ta != tb {
            return None;
        }
        if ka == kb {
            return match op {
                BinOp::Eq | BinOp::Le | BinOp::Ge => Some(true),
                BinOp::Ne | BinOp::Lt | BinOp::Gt => Some(false),
                _ => None,
            };
        }
        match (ka, kb) {
            (Key::Const(c), Key::Const(d)) => match op {
                BinOp::Eq => Some(c == d),
                BinOp::Ne => Some(c != d),
                BinOp::Lt => Some(c < d),
                BinOp::Le => Some(c <= d),
                BinOp::Gt => Some(c > d),
                BinOp::Ge => Some(c >= d),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The analysis of `main`.
struct Main<'a> {
    prog: &'a Program,
    definite: Vec<(LocId, TemplateId)>,
    /// Per template: the variables it may write.
    written: Vec<BTreeSet<VarId>>,
    /// Variables some thread that `main` does not create may write at any time.
    volatile: BTreeSet<VarId>,
    /// Path summaries of the threads whose results `main`'s tests may read (paths.rs).
    summaries: BTreeMap<TemplateId, Summary>,
    /// Twins whose inputs were not known equal at the fork: their outputs are equal wherever
    /// both have been joined and their inputs (which nobody writes once they are forked) are
    /// known equal.
    conditional: Vec<Conditional>,
}

/// Twins whose outputs are equal once their inputs are known equal.
#[derive(Clone, Debug)]
struct Conditional {
    first: TemplateId,
    second: TemplateId,
    /// Globals they read and never write, in pairs that must be equal.
    inputs: Vec<(VarId, VarId)>,
    /// Globals they write before reading, in pairs that are then equal.
    outputs: Vec<(VarId, VarId)>,
}

impl Main<'_> {
    fn tracked(&self, v: VarId) -> bool {
        plain(self.prog, v) && !self.volatile.contains(&v)
    }

    /// What a test of `main` says once the summarised thread `s` has been joined: through the
    /// thread's paths, equalities of the values it read (which are still the current ones),
    /// or that no execution passes the test (`None`).
    fn through_summary(&self, st: &mut Eqs, s: &Summary, e: &Expr) -> Option<()> {
        let prog = self.prog;
        // Each of `main`'s copies of an output stands for the output.
        let members = |k: Key| st.members(k);
        let mut test = e.clone();
        let mut vars = BTreeSet::new();
        super::paths::loads(e, &mut vars);
        let mut map = BTreeMap::new();
        for v in &vars {
            if s.writes.contains(v) {
                continue;
            }
            if let Some(k @ Key::Var(_)) = st.class.get(v).copied() {
                if let Some(o) = members(k).into_iter().find(|o| s.writes.contains(o)) {
                    map.insert(*v, Expr::Load(Lval::Var(o)));
                }
            }
        }
        if !map.is_empty() {
            test = substitute(&test, &map);
        }
        let mut used = BTreeSet::new();
        super::paths::loads(&test, &mut used);
        if used.is_disjoint(&s.writes) {
            return Some(());
        }
        // A start value of an output is not its value now: only the others are looked up.
        let current = |v: VarId| !s.writes.contains(&v) && self.tracked(v);
        let known = |v: VarId| match st.class.get(&v) {
            Some(Key::Const(c)) if current(v) => Some(*c),
            _ => None,
        };
        let canon = |v: VarId| match st.class.get(&v) {
            Some(k @ Key::Var(_)) if current(v) => st.members(*k).into_iter().find(|m| current(*m)).unwrap_or(v),
            _ => v,
        };
        match s.implied(prog, &test, &known, &canon) {
            Implied::Refuted => None,
            Implied::Facts(facts) => {
                for (g, f) in facts {
                    if !current(g) {
                        continue;
                    }
                    let ok = match f {
                        Ok(h) if current(h) => st.merge(g, h),
                        Err(c) => match norm(c, Expr::Load(Lval::Var(g)).ty(prog)) {
                            Some(c) => st.equal_const(g, c),
                            None => true,
                        },
                        _ => true,
                    };
                    if !ok {
                        return None;
                    }
                }
                Some(())
            }
        }
    }

    /// Merges the outputs of the conditional twins whose inputs are equal here.
    fn conditional_twins(&self, st: &mut Eqs) -> Option<()> {
        for c in &self.conditional {
            if !st.done.contains(&c.first) || !st.done.contains(&c.second) {
                continue;
            }
            if !c.inputs.iter().all(|(g, h)| self.tracked(*g) && self.tracked(*h) && st.decide(self.prog, &eq(*g, *h)) == Some(true)) {
                continue;
            }
            for (g, h) in &c.outputs {
                if self.tracked(*g) && self.tracked(*h) && !st.merge(*g, *h) {
                    return None;
                }
            }
        }
        Some(())
    }

    /// The state after `l`, or `None` when no execution gets past it.
    fn post(&self, l: LocId, mut st: Eqs, facts: &[&Twin]) -> Option<Eqs> {
        let prog = self.prog;
        let loc = prog.loc(l);
        let mut assigned = None;
        match &loc.action {
            Action::Assign(Lval::Var(v), e) if self.tracked(*v) => {
                let ty = Expr::Load(Lval::Var(*v)).ty(prog);
                match e {
                    Expr::Load(Lval::Var(w)) if w != v && self.tracked(*w) && e.ty(prog) == ty => {
                        st.forget(*v);
                        st.merge(*v, *w);
                    }
                    Expr::Const(c, t) if *t == ty && norm(*c, *t).is_some() => {
                        st.forget(*v);
                        st.equal_const(*v, norm(*c, *t).expect("checked"));
                    }
                    _ => st.forget(*v),
                }
                assigned = Some(*v);
            }
            Action::Assume(e) => {
                if st.decide(prog, e) == Some(false) {
                    return None;
                }
                if let Expr::Binary(BinOp::Eq, a, b, _) = e {
                    let ok = match (&**a, &**b) {
                        (Expr::Load(Lval::Var(x)), Expr::Load(Lval::Var(y))) if self.tracked(*x) && self.tracked(*y) && a.ty(prog) == b.ty(prog) => st.merge(*x, *y),
                        (Expr::Load(Lval::Var(x)), Expr::Const(c, t)) | (Expr::Const(c, t), Expr::Load(Lval::Var(x)))
                            if self.tracked(*x) && a.ty(prog) == *t && b.ty(prog) == *t && norm(*c, *t).is_some() =>
                        {
                            st.equal_const(*x, norm(*c, *t).expect("checked"))
                        }
                        _ => true,
                    };
                    if !ok {
                        return None;
                    }
                }
                for s in self.summaries.values() {
                    if st.done.contains(&s.template) {
                        self.through_summary(&mut st, s, e)?;
                    }
                }
            }
            Action::Fork { template, .. } => {
                st.running.insert(*template);
                st.done.remove(template);
            }
            Action::Join(_) => {
                for (_, t) in self.definite.iter().filter(|(j, _)| *j == l) {
                    st.running.remove(t);
                    st.done.insert(*t);
                }
                for f in facts.iter().filter(|f| f.join == l) {
                    for (g, h) in &f.pairs {
                        if self.tracked(*g) && self.tracked(*h) && !st.merge(*g, *h) {
                            return None;
                        }
                    }
                }
            }
            _ => {}
        }
        // Whatever else the action writes is unknown afterwards.
        if writes(&loc.action) {
            for a in &prog.memory.access(l).mods {
                if let AbsKind::Var(v) | AbsKind::Cell(v, _) = &prog.memory.info(*a).kind {
                    if Some(*v) != assigned {
                        st.forget(*v);
                    }
                }
            }
        }
        // A running thread may change its variables at any moment.
        let running: Vec<TemplateId> = st.running.iter().copied().collect();
        for t in running {
            for v in &self.written[t.index()] {
                st.forget(*v);
            }
        }
        self.conditional_twins(&mut st)?;
        Some(st)
    }

    /// The state before each location of `main` (`None`: not reached).
    fn solve(&self, facts: &[&Twin]) -> BTreeMap<LocId, Eqs> {
        let prog = self.prog;
        let tpl = prog.template(TemplateId(0));
        let mut start = Eqs::default();
        // C zero-initialises globals.
        for (i, v) in prog.vars.iter().enumerate() {
            let v2 = VarId(i as u32);
            if v.is_global() && self.tracked(v2) {
                start.class.insert(v2, Key::Const(0));
            }
        }
        let mut state: BTreeMap<LocId, Eqs> = BTreeMap::new();
        state.insert(tpl.entry, start);
        let mut work: BTreeSet<LocId> = BTreeSet::from([tpl.entry]);
        while let Some(l) = work.pop_first() {
            let Some(out) = self.post(l, state[&l].clone(), facts) else { continue };
            for s in &prog.loc(l).succs {
                let next = match state.get(s) {
                    None => out.clone(),
                    Some(old) => old.join(&out),
                };
                if state.get(s) != Some(&next) {
                    state.insert(*s, next);
                    work.insert(*s);
                }
            }
        }
        state
    }
}

/// The program with `main`'s refuted `assume`s and implied `assert`s settled, using the twins'
/// equalities; `None` when none of them is `news` (what the caller does not know yet). Also
/// returns the twins that held.
pub fn rewrite(prog: &Program, news: &dyn Fn(LocId) -> bool) -> (Option<Program>, Vec<Twin>) {
    if prog.templates.is_empty() {
        return (None, Vec::new());
    }
    let written = written(prog);
    let mut volatile = BTreeSet::new();
    for (i, t) in prog.templates.iter().enumerate().skip(1) {
        if t.spawned_at.iter().any(|f| prog.loc(*f).template != TemplateId(0)) {
            volatile.extend(written[i].iter().copied());
        }
    }
    let definite = joins::definite(prog);
    let summaries = summaries(prog, &definite, &written);
    let mut main = Main { prog, definite, written, volatile, summaries, conditional: Vec::new() };
    let candidates = twins(prog);
    let before = main.solve(&[]);
    // A twin's inputs must be equal where the first of the two starts.
    let (held, rest): (Vec<Twin>, Vec<Twin>) =
        candidates.into_iter().partition(|f| before.get(&f.fork).is_some_and(|st| f.pairs.iter().all(|(g, h)| main.tracked(*g) && main.tracked(*h) && st.decide(prog, &eq(*g, *h)) == Some(true))));
    main.conditional = conditional(&main, &rest);
    let facts: Vec<&Twin> = held.iter().collect();
    let state = main.solve(&facts);
    let mut out = prog.clone();
    let mut changed = false;
    for &l in &prog.template(TemplateId(0)).locs {
        let Some(st) = state.get(&l) else { continue };
        match &prog.loc(l).action {
            // No execution gets past it (what `main` knows refutes it).
            Action::Assume(e) if !matches!(e, Expr::Const(..)) && main.post(l, st.clone(), &facts).is_none() => {
                out.locs[l.index()].action = Action::Assume(Expr::int(0));
                changed |= news(l);
            }
            Action::Assert(id, e) if st.decide(prog, e) == Some(true) && !matches!(e, Expr::Const(..)) => {
                out.locs[l.index()].action = Action::Assert(*id, Expr::int(1));
                changed |= news(l);
            }
            _ => {}
        }
    }
    if !changed {
        return (None, held);
    }
    out.memory = crate::ir::memory::MemoryModel::build(&out);
    (Some(out), held)
}

/// `g == h`, as a test to decide.
fn eq(g: VarId, h: VarId) -> Expr {
    Expr::Binary(BinOp::Eq, Box::new(Expr::Load(Lval::Var(g))), Box::new(Expr::Load(Lval::Var(h))), crate::ir::Ty::INT)
}

/// Summaries of the threads `main` creates once and joins definitely, when their results are
/// theirs: no other thread writes a global they touch, nor does `main` once it has forked them.
fn summaries(prog: &Program, definite: &[(LocId, TemplateId)], written: &[BTreeSet<VarId>]) -> BTreeMap<TemplateId, Summary> {
    let root = TemplateId(0);
    let mut out = BTreeMap::new();
    for (ti, tpl) in prog.templates.iter().enumerate().skip(1) {
        let t = TemplateId(ti as u32);
        let single = tpl.multiplicity == Multiplicity::One && tpl.spawned_at.len() == 1 && prog.loc(tpl.spawned_at[0]).template == root && definite.iter().any(|(_, x)| *x == t);
        if !single {
            continue;
        }
        let mut touched = BTreeSet::new();
        for &l in &tpl.locs {
            crate::ir::visit::action_vars(&prog.loc(l).action, &mut |v| {
                if prog.var(v).is_global() {
                    touched.insert(v);
                }
            });
        }
        let foreign = (1..prog.templates.len()).any(|x| x != ti && !written[x].is_disjoint(&touched));
        if foreign || !touched.iter().all(|g| plain(prog, *g)) || main_writes_between(prog, tpl.spawned_at[0], None, &touched) {
            continue;
        }
        if let Some(s) = super::paths::summarise(prog, t) {
            out.insert(t, s);
        }
    }
    out
}

/// The twins whose inputs were not equal at the fork and that can still be used later: both
/// summarised (so nobody else writes what they touch, and `main` not once they are forked),
/// each pair either read and never written, or written before any read.
fn conditional(main: &Main, rest: &[Twin]) -> Vec<Conditional> {
    let mut out = Vec::new();
    for f in rest {
        let (Some(a), Some(b)) = (main.summaries.get(&f.first), main.summaries.get(&f.second)) else { continue };
        let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
        let mut ok = true;
        for (g, h) in &f.pairs {
            let (wg, wh) = (main.written[f.first.index()].contains(g), main.written[f.second.index()].contains(h));
            if !wg && !wh {
                inputs.push((*g, *h));
            } else if wg && wh && !a.reads.contains(g) && !b.reads.contains(h) {
                outputs.push((*g, *h));
            } else {
                ok = false;
            }
        }
        if ok && !outputs.is_empty() {
            out.push(Conditional { first: f.first, second: f.second, inputs, outputs });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{same_function, shape, twins};
    use crate::frontend::{load, FrontendOptions};
    use crate::ir::TemplateId;
    use std::path::Path;

    /// Bucketing by shape must never separate two templates `same_function` matches: on the
    /// twin programs (matching and failing ones) and a program with near-identical routines,
    /// every matching pair has equal shapes, and `twins` finds exactly the pairs an all-pairs
    /// comparison finds among the templates it may pair.
    #[test]
    fn shapes_keep_every_matching_pair_together() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/precision");
        let mut matched = 0;
        for file in ["twin_threads.c", "twin_inputs_fail.c", "twin_nondet_fail.c", "twin_between_fail.c", "twin_racy_fail.c", "twin_shapes.c"] {
            let prog = load(&dir.join(file), &FrontendOptions::default()).unwrap();
            let n = prog.templates.len() as u32;
            let mut pairs = Vec::new();
            for t in 1..n {
                for u in t + 1..n {
                    let (t, u) = (TemplateId(t), TemplateId(u));
                    if same_function(&prog, t, u).is_some() {
                        assert_eq!(shape(&prog, t), shape(&prog, u), "{file}: templates {} and {}", prog.template(t).name, prog.template(u).name);
                        assert!(shape(&prog, t).is_some(), "{file}");
                        pairs.push((t, u));
                        matched += 1;
                    }
                }
            }
            let found: Vec<(TemplateId, TemplateId)> = twins(&prog).iter().map(|f| (f.first, f.second)).collect();
            assert!(found.iter().all(|p| pairs.contains(p)), "{file}: {found:?} not among {pairs:?}");
            if file == "twin_shapes.c" {
                // Three joined copies of one routine pair up three ways; the routine that
                // differs only in a constant, or in the order of its globals, pairs with none.
                let names: Vec<(String, String)> = found.iter().map(|(t, u)| (prog.template(*t).function.clone(), prog.template(*u).function.clone())).collect();
                let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
                assert_eq!(names, [pair("step1", "step2"), pair("step1", "step3"), pair("step2", "step3")]);
            }
        }
        assert!(matched >= 4, "the programs have matching pairs ({matched})");
    }
}
