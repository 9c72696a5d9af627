//! Monotone globals (issue 13): a global that only ever grows keeps every lower bound a thread
//! has seen of it, so after `v = value; value = v + 1;` the test `value > v` stays true whatever
//! the other threads do, for any number of them.
//!
//! COARSEN's cells cannot carry this: octagon packs never mix a thread's locals with shared
//! variables (a shared pack flowing from another instance of the same template would relate
//! that instance's local, which is the same abstract location), so no invariant relates `value`
//! to `v`, and each interfering write joins in `value`'s whole range. This pass keeps, per
//! location of each thread, lower bounds of `g - x` for a monotone global `g` and the thread's
//! private locals `x`, and settles the tests they decide ([`rewrite`]): an `assume` they refute
//! becomes `assume(0)`, an `assert` they imply `assert(1)`. Every execution already behaves so,
//! and the rewritten program has the same executions.
//!
//! A global `g` is monotone when each of its writes, except the root's before its first fork
//! (no other thread exists then, and the root's own facts about `g` end there), is
//! `g := g + c` in one action or `r := g; g := r + c` (the read directly before the write, into
//! a private local of `g`'s type), with `c >= 0`, in `g`'s type, while a *guard* keeps the other
//! writers out: a mutex that every such write holds ([`super::locks::must_hold`]), a
//! test-and-set lock every such write holds ([`test_and_set_locks`]), or an atomic section
//! around each write (with its read). And it must not wrap: an upper bound of the value the
//! increment starts from, plus `c`, stays within the type. That bound comes from tests of `g`
//! (`g != MAX`, `g < K`, ...) made while the guard is held, and holds until the guard is let go
//! (no other thread writes `g` meanwhile); signed types are treated alike, since an overflow
//! would not be excluded for them otherwise. Then every write makes `g` at least as large as
//! it was, so `g - x >= k` keeps holding from the point where a thread established it (`x := g`
//! gives 0, its own `g := x + c` gives `c`) until it writes `x` again.
//!
//! Example: `01_inc`, `value > v` after the thread's own `value = v + 1` under the lock, guarded
//! by `value != UINT_MAX`. Not covered: a guard that tests a copy of `g` (`v = g; if (v < K)`),
//! increments by a variable, a test-and-set loop (`while (xchg(&m, 1))`); COARSEN's own lock
//! analysis does not use test-and-set locks yet.

use super::counts::{after_fork, increment, split_increment};
use crate::ir::joins::writes;
use crate::ir::memory::{lock_states, LockId};
use crate::ir::{AbsKind, AbsLoc, Action, BinOp, Expr, LocId, Lval, Program, TemplateId, Ty, VarId, VarKind};
use std::collections::{BTreeMap, BTreeSet};

/// What keeps the other threads from writing a global while one holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Guard {
    /// A mutex every writer holds.
    Mutex(LockId),
    /// A test-and-set lock every writer holds.
    TestAndSet(VarId),
    /// An atomic section around every write.
    Atomic,
}

/// A test of a variable against a constant that an `assume` makes: `Assume(v == c)`.
fn tests_eq(e: &Expr, v: VarId, c: i128) -> bool {
    match e {
        Expr::Binary(BinOp::Eq, a, b, _) => matches!((&**a, &**b), (Expr::Load(Lval::Var(w)), Expr::Const(k, _)) | (Expr::Const(k, _), Expr::Load(Lval::Var(w))) if *w == v && *k == c),
        _ => false,
    }
}

/// For a write `w` of `m`: the `assume(m == c)` that is its only predecessor and leads only to
/// it, inside the same atomic section (so no thread runs between the test and the write).
fn tested_before(prog: &Program, preds: &[Vec<LocId>], w: LocId, m: VarId, c: i128) -> Option<LocId> {
    let [p] = preds[w.index()][..] else { return None };
    let pl = prog.loc(p);
    let ok = pl.succs == [w] && pl.atomic && prog.loc(w).atomic && matches!(&pl.action, Action::Assume(e) if tests_eq(e, m, c));
    ok.then_some(p)
}

/// A global scalar variable that only plain accesses reach (one strong abstract location).
fn plain_global(prog: &Program, v: VarId) -> Option<(AbsLoc, crate::ir::IntTy)> {
    let var = prog.var(v);
    if var.addr_taken || var.kind != VarKind::Global {
        return None;
    }
    let a = prog.memory.lookup(prog, &Lval::Var(v))?;
    let info = prog.memory.info(a);
    let Ty::Int(it) = info.ty else { return None };
    (info.strong && matches!(info.kind, AbsKind::Var(w) if w == v)).then_some((a, it))
}

/// The acquire (`m := 1`) and release (`m := 0`) writes of the test-and-set locks.
struct TasWrites {
    acquire: BTreeSet<LocId>,
    release: BTreeMap<LocId, VarId>,
    /// Per lock, its releases' tests `assume(m == 1)`.
    tests: BTreeMap<VarId, Vec<LocId>>,
}

/// Test-and-set locks: globals `m` (starting at 0) whose every write is an atomic
/// `assume(m == 0); m := 1` (acquire), an atomic `assume(m == 1); m := 0` made by a thread that
/// holds `m` (release), or `m := 0` by the root before its first fork. `m == 1` exactly while
/// one thread holds it, so at most one does: an acquire needs `m == 0`, and only the holder
/// sets it back. Returns the locks and, per location, those a thread standing there holds on
/// every path (sorted).
pub fn test_and_set_locks(prog: &Program) -> (Vec<VarId>, Vec<Vec<VarId>>) {
    let n = prog.locs.len();
    if prog.templates.is_empty() {
        return (Vec::new(), vec![Vec::new(); n]);
    }
    let preds = prog.predecessors();
    let forked = after_fork(prog);
    let mut candidates: BTreeSet<VarId> = BTreeSet::new();
    for loc in &prog.locs {
        if let Action::Assign(Lval::Var(m), Expr::Const(1, _)) = &loc.action {
            candidates.insert(*m);
        }
    }
    let mut found = TasWrites { acquire: BTreeSet::new(), release: BTreeMap::new(), tests: BTreeMap::new() };
    // Writes of `m := 0` by the root before any fork: they end any holding there too.
    let mut resets: BTreeMap<LocId, VarId> = BTreeMap::new();
    'lock: for m in candidates {
        let Some((a, _)) = plain_global(prog, m) else { continue };
        let (mut acq, mut rel, mut tests, mut init) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (i, loc) in prog.locs.iter().enumerate() {
            let l = LocId(i as u32);
            if !writes(&loc.action) || !prog.memory.access(l).mods.contains(&a) {
                continue;
            }
            match &loc.action {
                Action::Assign(Lval::Var(w), Expr::Const(0, _)) if *w == m && loc.template == TemplateId(0) && !forked.contains(&l) => init.push(l),
                Action::Assign(Lval::Var(w), Expr::Const(1, _)) if *w == m && tested_before(prog, &preds, l, m, 0).is_some() => acq.push(l),
                Action::Assign(Lval::Var(w), Expr::Const(0, _)) if *w == m => match tested_before(prog, &preds, l, m, 1) {
                    Some(p) => {
                        rel.push(l);
                        tests.push(p);
                    }
                    None => continue 'lock,
                },
                _ => continue 'lock,
            }
        }
        if acq.is_empty() {
            continue;
        }
        found.acquire.extend(acq);
        found.release.extend(rel.iter().map(|l| (*l, m)));
        resets.extend(init.iter().map(|l| (*l, m)));
        found.tests.insert(m, tests);
    }
    let held = tas_held(prog, &found, &resets);
    // A release by a thread that may not hold the lock could free another's: no lock then.
    let locks: Vec<VarId> = found.tests.iter().filter(|(m, ts)| ts.iter().all(|p| held[p.index()].contains(m))).map(|(m, _)| *m).collect();
    let held = held.into_iter().map(|mut h| {
        h.retain(|m| locks.contains(m));
        h
    });
    (locks.clone(), held.collect())
}

fn tas_held(prog: &Program, found: &TasWrites, resets: &BTreeMap<LocId, VarId>) -> Vec<Vec<VarId>> {
    let step = |cur: &Vec<VarId>, l: LocId| {
        let mut out = cur.clone();
        if found.acquire.contains(&l) {
            if let Action::Assign(Lval::Var(m), _) = &prog.loc(l).action {
                if !out.contains(m) {
                    out.push(*m);
                    out.sort_unstable();
                }
            }
        }
        if let Some(m) = found.release.get(&l).or_else(|| resets.get(&l)) {
            out.retain(|x| x != m);
        }
        out
    };
    let meet = |a: &Vec<VarId>, b: &Vec<VarId>| a.iter().copied().filter(|k| b.contains(k)).collect();
    lock_states(prog, Vec::new(), step, meet).into_iter().map(|h| h.unwrap_or_default()).collect()
}

/// How a write of the global changes it.
#[derive(Clone, Copy, Debug)]
enum Write {
    /// The root's, before its first fork: anything.
    Early,
    /// `g := g + c` in one action.
    Step(i128),
    /// `g := x + c`, right after `x := g`.
    Split(VarId, i128),
}

/// What a thread knows at a location about a monotone global `g` (all `None`/absent: nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Know {
    /// `g <= ub`, while the guard has been held since it was learnt.
    ub: Option<i128>,
    /// `x <= ub` for private locals read from `g`.
    xub: BTreeMap<VarId, i128>,
    /// `g - x >= k`: valid once every write of `g` is known not to decrease it.
    diff: BTreeMap<VarId, i128>,
}

impl Know {
    /// Where paths meet. A bound that grew is dropped: that is the widening that makes loops
    /// which keep incrementing terminate.
    fn join(old: &Know, new: &Know) -> Know {
        let up = |a: i128, b: i128| (b <= a).then_some(a);
        let ub = match (old.ub, new.ub) {
            (Some(a), Some(b)) => up(a, b),
            _ => None,
        };
        let xub = old.xub.iter().filter_map(|(x, a)| new.xub.get(x).and_then(|b| up(*a, *b)).map(|u| (*x, u))).collect();
        let diff = old.diff.iter().filter_map(|(x, a)| new.diff.get(x).map(|b| (*x, (*a).min(*b)))).collect();
        Know { ub, xub, diff }
    }
}

/// The analysis of one candidate global under one guard.
struct Mono<'a> {
    prog: &'a Program,
    g: VarId,
    a: AbsLoc,
    ty: Ty,
    max: i128,
    guard: Guard,
    /// Per location: whether the guard is held there.
    held: Vec<bool>,
    writes: &'a BTreeMap<LocId, Write>,
    tas_releases: &'a BTreeSet<LocId>,
}

impl Mono<'_> {
    /// A private local of the template `t`, of `g`'s type.
    fn private(&self, x: VarId, t: TemplateId) -> bool {
        let var = self.prog.var(x);
        matches!(var.kind, VarKind::Local(u) | VarKind::Temp(u) if u == t) && !var.addr_taken && Expr::Load(Lval::Var(x)).ty(self.prog) == Expr::Load(Lval::Var(self.g)).ty(self.prog)
    }

    /// The upper bound `assume(e)` gives `g`, from `ub` (the type's maximum when unknown).
    fn refine(&self, e: &Expr, ub: i128) -> i128 {
        let Expr::Binary(op, x, y, _) = e else { return ub };
        let is_g = |e: &Expr| matches!(e, Expr::Load(Lval::Var(w)) if *w == self.g);
        // A constant of another type would be compared after a conversion the IR spells out.
        let (op, k) = match (&**x, &**y) {
            (l, Expr::Const(k, t)) if is_g(l) && *t == self.ty => (*op, *k),
            (Expr::Const(k, t), r) if is_g(r) && *t == self.ty => match op.swap_operands() {
                Some(o) => (o, *k),
                None => return ub,
            },
            _ => return ub,
        };
        match op {
            BinOp::Ne if k == ub => ub - 1,
            BinOp::Lt => ub.min(k - 1),
            BinOp::Le | BinOp::Eq => ub.min(k),
            _ => ub,
        }
    }

    /// Whether `l` lets the guard go.
    fn releases(&self, l: LocId) -> bool {
        match self.guard {
            Guard::Mutex(_) => matches!(self.prog.loc(l).action, Action::Release(_)),
            Guard::TestAndSet(_) => self.tas_releases.contains(&l),
            Guard::Atomic => matches!(self.prog.loc(l).action, Action::AtomicEnd),
        }
    }

    fn step(&self, cur: &Know, l: LocId) -> Know {
        let loc = self.prog.loc(l);
        let held = self.held[l.index()];
        let mut k = cur.clone();
        if !held {
            k.ub = None;
        }
        let bound = |k: &Know| k.ub.unwrap_or(self.max);
        match &loc.action {
            Action::Assume(e) if held => {
                let u = self.refine(e, bound(&k));
                k.ub = (u < self.max).then_some(u);
            }
            _ => {}
        }
        if writes(&loc.action) {
            let mods = &self.prog.memory.access(l).mods;
            k.xub.retain(|x, _| !self.prog.memory.lookup(self.prog, &Lval::Var(*x)).is_some_and(|a| mods.contains(&a)));
            k.diff.retain(|x, _| !self.prog.memory.lookup(self.prog, &Lval::Var(*x)).is_some_and(|a| mods.contains(&a)));
            if let Action::Assign(Lval::Var(x), Expr::Load(Lval::Var(y))) = &loc.action {
                if *y == self.g && self.private(*x, loc.template) {
                    let u = if held { bound(&k) } else { self.max };
                    if u < self.max {
                        k.xub.insert(*x, u);
                    }
                    k.diff.insert(*x, 0);
                }
            }
            if mods.contains(&self.a) {
                match self.writes.get(&l) {
                    Some(Write::Step(c)) => k.ub = k.ub.and_then(|u| u.checked_add(*c)).filter(|u| *u < self.max),
                    Some(Write::Split(x, c)) => {
                        let u = cur.xub.get(x).copied().unwrap_or(self.max).checked_add(*c);
                        k.ub = u.filter(|u| *u < self.max && held);
                        k.diff.insert(*x, *c);
                    }
                    _ => {
                        k.ub = None;
                        k.diff.clear();
                    }
                }
            }
        }
        if self.releases(l) {
            k.ub = None;
        }
        k
    }

    /// What each location knows (`None` where no thread reaches), and whether every write of
    /// `g` provably does not wrap.
    fn solve(&self) -> (Vec<Option<Know>>, bool) {
        let at = lock_states(self.prog, Know::default(), |k, l| self.step(k, l), Know::join);
        let fits = self.writes.iter().all(|(w, kind)| {
            let Some(k) = &at[w.index()] else { return true };
            let start = match kind {
                Write::Early => return true,
                Write::Step(_) if self.held[w.index()] => k.ub.unwrap_or(self.max),
                Write::Step(_) => self.max,
                Write::Split(x, _) => k.xub.get(x).copied().unwrap_or(self.max),
            };
            let c = match kind {
                Write::Step(c) | Write::Split(_, c) => *c,
                Write::Early => 0,
            };
            start.checked_add(c).is_some_and(|v| v <= self.max)
        });
        (at, fits)
    }
}

/// For a global `g` whose every write is a non-decreasing increment under a guard, what each
/// location knows about `g - x` for the thread's private locals `x`.
fn monotone(prog: &Program, g: VarId, held_guards: &[Vec<Guard>], tas_releases: &BTreeSet<LocId>, forked: &BTreeSet<LocId>) -> Option<Vec<Option<BTreeMap<VarId, i128>>>> {
    let (a, it) = plain_global(prog, g)?;
    let ty = Ty::Int(it);
    let mut kinds: BTreeMap<LocId, Write> = BTreeMap::new();
    // The locations every guard must cover: each write after the root's first fork, and its read.
    let mut covered: Vec<LocId> = Vec::new();
    for (i, loc) in prog.locs.iter().enumerate() {
        let l = LocId(i as u32);
        if !writes(&loc.action) || !prog.memory.access(l).mods.contains(&a) {
            continue;
        }
        if loc.template == TemplateId(0) && !forked.contains(&l) {
            kinds.insert(l, Write::Early);
            continue;
        }
        let Action::Assign(Lval::Var(w), e) = &loc.action else { return None };
        if *w != g {
            return None;
        }
        let kind = match increment(e, g, ty) {
            Some(c) => Write::Step(c),
            None => {
                let (r, c) = split_increment(prog, l, e, g, ty)?;
                let Action::Assign(Lval::Var(x), _) = &prog.loc(r).action else { return None };
                covered.push(r);
                Write::Split(*x, c)
            }
        };
        if matches!(kind, Write::Step(c) | Write::Split(_, c) if c < 0) {
            return None;
        }
        covered.push(l);
        kinds.insert(l, kind);
    }
    let first = covered.first()?;
    for guard in &held_guards[first.index()] {
        if !covered.iter().all(|l| held_guards[l.index()].contains(guard)) {
            continue;
        }
        let held = held_guards.iter().map(|h| h.contains(guard)).collect();
        let m = Mono { prog, g, a, ty, max: it.max(), guard: *guard, held, writes: &kinds, tas_releases };
        let (at, fits) = m.solve();
        if fits {
            return Some(at.into_iter().map(|k| k.map(|k| k.diff)).collect());
        }
    }
    None
}

/// Whether `g - x >= k` decides the comparison `e`.
fn decide(e: &Expr, g: VarId, diff: &BTreeMap<VarId, i128>) -> Option<bool> {
    let Expr::Binary(op, a, b, _) = e else { return None };
    let var = |e: &Expr| match e {
        Expr::Load(Lval::Var(v)) => Some(*v),
        _ => None,
    };
    let (l, r) = (var(a)?, var(b)?);
    // As `g op x`.
    let (op, x) = if l == g {
        (*op, r)
    } else if r == g {
        (op.swap_operands()?, l)
    } else {
        return None;
    };
    let k = *diff.get(&x)?;
    match op {
        BinOp::Gt | BinOp::Ne if k >= 1 => Some(true),
        BinOp::Ge if k >= 0 => Some(true),
        BinOp::Le | BinOp::Eq if k >= 1 => Some(false),
        BinOp::Lt if k >= 0 => Some(false),
        _ => None,
    }
}

/// The program with the tests that monotone globals decide settled, and those globals; `None`
/// when nothing changed.
pub fn rewrite(prog: &Program) -> (Option<Program>, Vec<VarId>) {
    if prog.templates.is_empty() {
        return (None, Vec::new());
    }
    let forked = after_fork(prog);
    let (_, tas_held) = test_and_set_locks(prog);
    let mutex_held = super::locks::must_hold(prog);
    let held_guards: Vec<Vec<Guard>> = (0..prog.locs.len())
        .map(|i| {
            let mut h: Vec<Guard> = mutex_held[i].iter().map(|k| Guard::Mutex(*k)).collect();
            h.extend(tas_held[i].iter().map(|m| Guard::TestAndSet(*m)));
            if prog.locs[i].atomic {
                h.push(Guard::Atomic);
            }
            h.sort_unstable();
            h
        })
        .collect();
    // The writes that let a test-and-set lock go: its `m := 0` made while holding it.
    let tas_releases: BTreeSet<LocId> =
        prog.locs.iter().enumerate().filter(|(i, l)| matches!(&l.action, Action::Assign(Lval::Var(m), Expr::Const(0, _)) if tas_held[*i].contains(m))).map(|(i, _)| LocId(i as u32)).collect();
    let mut candidates: BTreeSet<VarId> = BTreeSet::new();
    for loc in &prog.locs {
        if let Action::Assign(Lval::Var(g), Expr::Binary(BinOp::Add, ..)) = &loc.action {
            if prog.var(*g).kind == VarKind::Global {
                candidates.insert(*g);
            }
        }
    }
    let mut out = prog.clone();
    let mut used = Vec::new();
    for g in candidates {
        let Some(at) = monotone(prog, g, &held_guards, &tas_releases, &forked) else { continue };
        let mut settled = false;
        for (i, known) in at.iter().enumerate() {
            let Some(diff) = known else { continue };
            match &out.locs[i].action {
                Action::Assume(e) if decide(e, g, diff) == Some(false) => {
                    out.locs[i].action = Action::Assume(Expr::int(0));
                    settled = true;
                }
                Action::Assert(id, e) if decide(e, g, diff) == Some(true) => {
                    out.locs[i].action = Action::Assert(*id, Expr::int(1));
                    settled = true;
                }
                _ => {}
            }
        }
        if settled {
            used.push(g);
        }
    }
    if used.is_empty() {
        return (None, used);
    }
    out.memory = crate::ir::memory::MemoryModel::build(&out);
    (Some(out), used)
}
