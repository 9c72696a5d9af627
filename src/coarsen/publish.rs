//! Data published by a flag (issue 37): a shared cell that is only ever stored one constant
//! keeps it once it has it, so a thread that has seen the constant stored, or has read a flag
//! that is set only after the store, reads the constant from then on, whatever the other
//! threads do, for any number of them.
//!
//! COARSEN's interference edges cannot carry this: the initial value of the data flows to every
//! read that some path reaches without the thread's own store, and a test of the flag under a
//! lock says nothing of another cell. Double-checked initialisation (`if (!init) { lock; if
//! (!init) { size = 64; init = 1; } unlock; } use(size)`) and completions (`size = 128;
//! complete_all(&done)`, `wait_for_completion(&done); use(size)`) read the data on paths where
//! only the flag's test tells that the store happened.
//!
//! A *stable* cell `d` (a shared integer global cell with one concrete instance) is one whose
//! every store, except those of the root's deterministic prefix (no other thread exists then),
//! is `d := c` for one constant `c` of its type. Then at every moment after the prefix, once
//! `d == c` it stays so. A thread *knows* `d` at a location when every path of its template
//! from the entry (the root's: from the end of its prefix) passes either its own store `d := c`
//! or an `assume` that implies `f != 0` for a *flag* `f` of `d`. A flag of `d` is a shared
//! integer global cell that holds 0 at the end of the root's prefix, and whose every later store
//! is the constant 0 or made where its thread knows `d` (then it may store anything: an
//! increment, `done++` of a completion, or the decrement of the waiter that has seen it set).
//! By induction over an execution, `f != 0` implies `d == c` at every moment after the prefix
//! (a store that may make `f` non-zero happens where `d == c` already holds, and nothing stores
//! another value into `d`), so a thread that knows `d` reads `c`. The flags are found as a greatest fixpoint: drop
//! a flag whose non-zero store is not known, until none is dropped.
//!
//! [`rewrite`] replaces each read of `d` where its thread knows it by the constant `c`: every
//! execution reads `c` there, so the rewritten program has the same executions. Twins that
//! set the flag before the store, or read the data before testing the flag, keep their reads.
//!
//! A private copy of a flag read after the prefix (`r = READ_ONCE(f); if (r)`) tested non-zero
//! counts as the flag's test: `f` was non-zero when it was read.
//!
//! Not covered: data stored a value other than a constant, or two different constants;
//! knowledge handed to a thread by the thread that forks it.

use crate::ir::memory::{stores_to, AbsKind, AbsLoc};
use crate::ir::visit::root_prefix;
use crate::ir::{Action, BinOp, Expr, LocId, Lval, Program, Ty, VarKind};
use std::collections::{BTreeMap, BTreeSet};

/// A shared integer global cell with one concrete instance: the only kind this pass reasons
/// about, for data and flags alike.
fn plain_global(prog: &Program, a: AbsLoc) -> bool {
    let info = prog.memory.info(a);
    let global = match &info.kind {
        AbsKind::Var(v) | AbsKind::Cell(v, _) => prog.var(*v).kind == VarKind::Global,
        AbsKind::Heap(..) | AbsKind::Region(_) => false,
    };
    global && info.strong && info.shared && info.ty.is_integral()
}

/// The constant a location stores into `a` by a direct, strong store of a constant of `a`'s
/// type; `None` for any other store.
fn constant_store(prog: &Program, u: LocId, a: AbsLoc) -> Option<i128> {
    let Action::Assign(lv, Expr::Const(k, _)) = &prog.loc(u).action else { return None };
    let (lo, hi) = prog.memory.info(a).ty.range(prog.data_model)?;
    (designates(prog, lv, a) && prog.memory.is_strong_write(prog, lv) && lo <= *k && *k <= hi).then_some(*k)
}

/// Whether an lvalue designates exactly `a`.
fn designates(prog: &Program, lv: &Lval, a: AbsLoc) -> bool {
    prog.memory.targets(prog, lv) == [a]
}

/// The cell that the test `e`, when it holds, shows to be non-zero: `f != 0`, `f == k` with
/// `k != 0`, or `f` itself.
fn nonzero_cell(prog: &Program, e: &Expr) -> Option<AbsLoc> {
    let cell = |x: &Expr| match x {
        Expr::Load(lv) => prog.memory.lookup(prog, lv),
        _ => None,
    };
    match e {
        Expr::Binary(op, a, b, _) => {
            let (x, k) = match (&**a, &**b) {
                (x, Expr::Const(k, _)) | (Expr::Const(k, _), x) => (x, *k),
                _ => return None,
            };
            ((*op == BinOp::Ne && k == 0) || (*op == BinOp::Eq && k != 0)).then(|| cell(x)).flatten()
        }
        Expr::Cast(Ty::Bool, x) => cell(x),
        x => cell(x),
    }
}

/// One stable cell: its constant and the flags that publish it.
struct Stable {
    value: i128,
    flags: BTreeSet<AbsLoc>,
}

/// The stable cells, each with its constant and its candidate flags (the other plain cells
/// holding 0 at the end of the prefix).
fn candidates(prog: &Program, prefix: &BTreeSet<LocId>) -> BTreeMap<AbsLoc, Stable> {
    // The later stores of each plain global cell: their constants, or None for another store.
    let mut stores: BTreeMap<AbsLoc, Option<BTreeSet<i128>>> = BTreeMap::new();
    for a in prog.memory.all().filter(|a| plain_global(prog, *a)) {
        stores.insert(a, Some(BTreeSet::new()));
    }
    for i in 0..prog.locs.len() {
        let u = LocId(i as u32);
        if prefix.contains(&u) {
            continue;
        }
        for a in &prog.memory.access(u).mods {
            let Some(slot) = stores.get_mut(a) else { continue };
            if !stores_to(prog, u, *a) {
                continue;
            }
            match (constant_store(prog, u, *a), slot.as_mut()) {
                (Some(k), Some(ks)) => {
                    ks.insert(k);
                }
                _ => *slot = None,
            }
        }
    }
    // The value each cell holds at the end of the prefix: static storage starts at 0.
    let mut at_prefix_end: BTreeMap<AbsLoc, Option<i128>> = stores.keys().map(|a| (*a, Some(0))).collect();
    for u in root_prefix(prog) {
        for a in &prog.memory.access(u).mods {
            if let Some(v) = at_prefix_end.get_mut(a) {
                if stores_to(prog, u, *a) {
                    *v = constant_store(prog, u, *a);
                }
            }
        }
    }
    let flags: BTreeSet<AbsLoc> = stores.keys().copied().filter(|a| at_prefix_end[a] == Some(0)).collect();
    let mut out = BTreeMap::new();
    for (a, ks) in &stores {
        let Some(ks) = ks else { continue };
        let [value] = ks.iter().copied().collect::<Vec<_>>()[..] else { continue };
        let flags: BTreeSet<AbsLoc> = flags.iter().copied().filter(|f| f != a).collect();
        out.insert(*a, Stable { value, flags });
    }
    out
}

/// What a thread knows before a location: whether it knows `d`, and the private cells that hold
/// a copy of a flag read after the prefix (`r := f`, `r` not stored since on any path).
type Knowledge = (bool, BTreeSet<(AbsLoc, AbsLoc)>);

/// Per location, whether its thread knows `d` before its action: a must fixpoint over every
/// template (false where no thread reaches). A test of a private copy of a flag counts as a
/// test of the flag at the time of the copy: `f` was non-zero then, so `d == c` was, and is.
fn known(prog: &Program, d: AbsLoc, s: &Stable, prefix: &BTreeSet<LocId>, shown: &[Option<AbsLoc>]) -> Vec<bool> {
    let step = |u: LocId, (k, copies): &Knowledge| -> Knowledge {
        if prefix.contains(&u) {
            return (false, BTreeSet::new());
        }
        let action = &prog.loc(u).action;
        let gen = match action {
            Action::Assign(..) => constant_store(prog, u, d) == Some(s.value),
            Action::Assume(_) => shown[u.index()].is_some_and(|x| s.flags.contains(&x) || copies.iter().any(|(r, f)| *r == x && s.flags.contains(f))),
            _ => false,
        };
        let mut copies: BTreeSet<(AbsLoc, AbsLoc)> = copies.iter().copied().filter(|(r, _)| !stores_to(prog, u, *r)).collect();
        if let Action::Assign(lv, Expr::Load(src)) = action {
            let private = |r: AbsLoc| !prog.memory.info(r).shared && prog.memory.info(r).strong;
            if let (Some(r), Some(f)) = (prog.memory.lookup(prog, lv), prog.memory.lookup(prog, src)) {
                if private(r) && s.flags.contains(&f) && prog.memory.is_strong_write(prog, lv) {
                    copies.insert((r, f));
                }
            }
        }
        (*k || gen, copies)
    };
    // `None`: not reached yet (the top of the must lattice).
    let mut at: Vec<Option<Knowledge>> = vec![None; prog.locs.len()];
    for t in &prog.templates {
        at[t.entry.index()] = Some((false, BTreeSet::new()));
        let mut work = vec![t.entry];
        while let Some(u) = work.pop() {
            let Some(cur) = &at[u.index()] else { continue };
            let out = step(u, cur);
            for v in &prog.loc(u).succs {
                let next = match &at[v.index()] {
                    None => out.clone(),
                    Some((k, cs)) => (*k && out.0, cs.intersection(&out.1).copied().collect()),
                };
                if at[v.index()].as_ref() != Some(&next) {
                    at[v.index()] = Some(next);
                    work.push(*v);
                }
            }
        }
    }
    at.into_iter().map(|k| k.is_some_and(|(k, _)| k)).collect()
}

/// `e` with every read of `d` replaced by `c`; whether any was.
fn replace_expr(prog: &Program, e: &Expr, d: AbsLoc, c: &Expr, hit: &mut bool) -> Expr {
    match e {
        Expr::Load(lv) if designates(prog, lv, d) => {
            *hit = true;
            c.clone()
        }
        Expr::Load(lv) => Expr::Load(replace_lval(prog, lv, d, c, hit)),
        Expr::AddrOf(lv) => Expr::AddrOf(replace_lval(prog, lv, d, c, hit)),
        Expr::Unary(op, x, t) => Expr::Unary(*op, Box::new(replace_expr(prog, x, d, c, hit)), *t),
        Expr::Binary(op, a, b, t) => Expr::Binary(*op, Box::new(replace_expr(prog, a, d, c, hit)), Box::new(replace_expr(prog, b, d, c, hit)), *t),
        Expr::Cast(t, x) => Expr::Cast(*t, Box::new(replace_expr(prog, x, d, c, hit))),
        Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => e.clone(),
    }
}

/// `lv` with the reads of `d` in its address computation replaced by `c`.
fn replace_lval(prog: &Program, lv: &Lval, d: AbsLoc, c: &Expr, hit: &mut bool) -> Lval {
    match lv {
        Lval::Var(_) => lv.clone(),
        Lval::Deref(e, t) => Lval::Deref(Box::new(replace_expr(prog, e, d, c, hit)), t.clone()),
        Lval::Index(b, i) => Lval::Index(Box::new(replace_lval(prog, b, d, c, hit)), Box::new(replace_expr(prog, i, d, c, hit))),
        Lval::Field(b, rec, k) => Lval::Field(Box::new(replace_lval(prog, b, d, c, hit)), *rec, *k),
    }
}

/// The action with the reads of `d` replaced by `c` (the stored lvalue itself is no read).
fn replace_action(prog: &Program, a: &Action, d: AbsLoc, c: &Expr, hit: &mut bool) -> Action {
    match a {
        Action::Assign(lv, e) => Action::Assign(replace_lval(prog, lv, d, c, hit), replace_expr(prog, e, d, c, hit)),
        Action::Assume(e) => Action::Assume(replace_expr(prog, e, d, c, hit)),
        Action::Assert(id, e) => Action::Assert(*id, replace_expr(prog, e, d, c, hit)),
        _ => a.clone(),
    }
}

/// The program with each read of a published cell, where its thread knows the cell, replaced
/// by the cell's constant, and the names of those cells; `None` when nothing changed.
pub fn rewrite(prog: &Program) -> (Option<Program>, Vec<String>) {
    if prog.templates.is_empty() {
        return (None, Vec::new());
    }
    let prefix: BTreeSet<LocId> = root_prefix(prog).into_iter().collect();
    let shown: Vec<Option<AbsLoc>> = prog.locs.iter().map(|l| if let Action::Assume(e) = &l.action { nonzero_cell(prog, e) } else { None }).collect();
    // Each cell's stores after the prefix, other than of the constant 0.
    let mut raised: BTreeMap<AbsLoc, Vec<LocId>> = BTreeMap::new();
    for i in 0..prog.locs.len() {
        let u = LocId(i as u32);
        if prefix.contains(&u) {
            continue;
        }
        for a in &prog.memory.access(u).mods {
            if stores_to(prog, u, *a) && constant_store(prog, u, *a) != Some(0) {
                raised.entry(*a).or_default().push(u);
            }
        }
    }
    let mut out = prog.clone();
    let mut used = Vec::new();
    let tested: BTreeSet<AbsLoc> = shown.iter().flatten().copied().collect();
    for (d, mut s) in candidates(prog, &prefix) {
        s.flags.retain(|f| tested.contains(f));
        // Drop the flags stored other than 0 where the data is not known, until none is.
        let at = loop {
            let at = known(prog, d, &s, &prefix, &shown);
            let bad: Vec<AbsLoc> = s.flags.iter().copied().filter(|f| raised.get(f).is_some_and(|us| us.iter().any(|u| !at[u.index()]))).collect();
            if bad.is_empty() {
                break at;
            }
            for f in bad {
                s.flags.remove(&f);
            }
        };
        let c = Expr::Const(s.value, prog.memory.info(d).ty);
        let mut changed = false;
        for (i, k) in at.iter().enumerate() {
            if *k {
                let mut hit = false;
                let a = replace_action(prog, &out.locs[i].action, d, &c, &mut hit);
                if hit {
                    out.locs[i].action = a;
                    changed = true;
                }
            }
        }
        if changed {
            used.push(crate::ir::display::source_name(prog, d));
        }
    }
    if used.is_empty() {
        return (None, used);
    }
    out.memory = crate::ir::memory::MemoryModel::build(&out);
    (Some(out), used)
}
