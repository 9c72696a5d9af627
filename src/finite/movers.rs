//! Right and left movers (Lipton's reduction) of the finite-state projection, for the
//! transaction-based summaries of [`super::transactions`] (Qadeer, Rajamani & Rehof, POPL 2004,
//! Section 2):
//! - `acquire` is a right mover and `release` a left mover;
//! - an access to a variable that every thread accesses only under one common lock is both;
//! - an action that touches no shared cell of the projection is both.
//!
//! The must-held locks come from COARSEN's lock analysis (`coarsen::locks::must_hold`), which
//! the caller passes in (engines do not import each other). Arrays of mutexes, which the alias
//! model does not name, are locks here when every operation on one selects its element by an
//! index of thread-local variables: `available[i]` under `m[i]` is protected element-wise.
//!
//! The classification is about the projection's transitions (`super::model`), which is what
//! the reduction commutes: a global the projection does not track reads as any value and
//! takes no writes there, so touching it is thread-local. An acquire or release is a mover
//! only when no failed trylock tests the lock and every release is by a holder; an access is
//! both when every reachable access (the root's prefix before any thread excepted) holds a
//! common must-held lock, or the element of a lock array at the same index.

use crate::ir::memory::LockId;
use crate::ir::{Action, CType, Expr, LocId, LockRef, Lval, Program, VarId, VarKind};
use std::collections::{BTreeSet, HashMap};

/// How an action commutes with the actions of other threads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mover {
    /// Commutes to the right of every action of another thread (an acquire).
    Right,
    /// Commutes to the left of every action of another thread (a release).
    Left,
    /// Both (thread-local, or protected by a lock every thread holds for it).
    Both,
    /// Neither: a transaction commits at it.
    Non,
}

impl Mover {
    /// True for right movers (and actions that are both).
    pub fn is_right(self) -> bool {
        matches!(self, Mover::Right | Mover::Both)
    }
    /// True for left movers (and actions that are both).
    pub fn is_left(self) -> bool {
        matches!(self, Mover::Left | Mover::Both)
    }
    /// The paper's name.
    pub fn name(self) -> &'static str {
        match self {
            Mover::Right => "right mover",
            Mover::Left => "left mover",
            Mover::Both => "both mover",
            Mover::Non => "non-mover",
        }
    }
}

/// One location's classification, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classified {
    /// The mover kind.
    pub mover: Mover,
    /// One line saying why.
    pub reason: String,
}

/// An array of mutexes whose elements the transaction engine treats as locks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockArray {
    /// The array variable.
    pub var: VarId,
    /// Its number of elements.
    pub len: u32,
}

/// The classification of every location.
#[derive(Clone, Debug)]
pub struct Movers {
    /// Per location (indexed by `LocId`).
    pub of: Vec<Classified>,
    /// Arrays of mutexes whose elements are locks (in the order of their variables).
    pub lock_arrays: Vec<LockArray>,
    /// Why the classification cannot be used at all (an atomic section), if so.
    pub unusable: Option<String>,
}

impl Movers {
    /// The classification of a location.
    pub fn at(&self, l: LocId) -> &Classified {
        &self.of[l.index()]
    }
}

/// An element of a lock array, held: the array and the index expression.
type Held = (VarId, Expr);

/// Classifies every location of the program; `must_hold` is COARSEN's must-held locks per
/// location (`coarsen::locks::must_hold`).
pub fn classify(prog: &Program, must_hold: &[Vec<LockId>]) -> Movers {
    let unusable = prog
        .locs
        .iter()
        .position(|l| l.atomic || matches!(l.action, Action::AtomicBegin | Action::AtomicEnd))
        .map(|i| format!("an atomic section at {}: the mover analysis does not commute other threads across it", prog.span_str(prog.locs[i].span)));
    let reach = reachable(prog);
    let prefix = init_prefix(prog);
    let arrays = lock_arrays(prog);
    let held = held_elements(prog, &arrays);
    // A lock is usable when no failed trylock tests it and every release is by its holder:
    // otherwise an acquire does not commute with that other thread's operation.
    let mut bad_lock: BTreeSet<LockId> = BTreeSet::new();
    let mut bad_array: BTreeSet<VarId> = BTreeSet::new();
    for (i, loc) in prog.locs.iter().enumerate() {
        if !reach[i] {
            continue;
        }
        match (&loc.action, prog.memory.lock_of[i]) {
            (Action::LockBusy(_), Some(LockRef::Exact(k))) => {
                bad_lock.insert(k);
            }
            (Action::Release(_), Some(LockRef::Exact(k))) if !must_hold[i].contains(&k) => {
                bad_lock.insert(k);
            }
            (Action::LockBusy(lv), _) => {
                if let Some((a, _)) = array_element(lv, &arrays) {
                    bad_array.insert(a);
                }
            }
            (Action::Release(lv), _) => {
                if let Some((a, e)) = array_element(lv, &arrays) {
                    if !held[i].as_ref().is_some_and(|h| h.contains(&(a, same_index(e)))) {
                        bad_array.insert(a);
                    }
                }
            }
            _ => {}
        }
    }
    // Per shared global: the locks held at every access, and the lock arrays whose element of
    // the same index is held at every access (accesses before any thread starts excepted).
    let mut scalar: HashMap<VarId, Option<BTreeSet<LockId>>> = HashMap::new();
    let mut by_array: HashMap<VarId, Option<BTreeSet<VarId>>> = HashMap::new();
    let mut first_unprotected: HashMap<VarId, LocId> = HashMap::new();
    for (i, loc) in prog.locs.iter().enumerate() {
        if !reach[i] || prefix.contains(&LocId(i as u32)) {
            continue;
        }
        for (v, index) in shared_accesses(prog, &loc.action) {
            let locks: BTreeSet<LockId> = must_hold[i].iter().copied().filter(|k| !bad_lock.contains(k)).collect();
            let s = scalar.entry(v).or_insert_with(|| Some(locks.clone()));
            if let Some(s) = s {
                s.retain(|k| locks.contains(k));
            }
            let elems: BTreeSet<VarId> = match (&index, &held[i]) {
                (Some(e), Some(h)) => h.iter().filter(|(a, ie)| ie == e && !bad_array.contains(a)).map(|(a, _)| *a).collect(),
                _ => BTreeSet::new(),
            };
            let s = by_array.entry(v).or_insert_with(|| Some(elems.clone()));
            if let Some(s) = s {
                s.retain(|a| elems.contains(a));
            }
            if locks.is_empty() && elems.is_empty() {
                first_unprotected.entry(v).or_insert(LocId(i as u32));
            }
        }
    }
    let protector = |v: VarId| -> Result<String, String> {
        if let Some(Some(s)) = scalar.get(&v) {
            if let Some(k) = s.iter().next() {
                return Ok(format!("lock `{}`", prog.memory.locks[k.0 as usize]));
            }
        }
        if let Some(Some(s)) = by_array.get(&v) {
            if let Some(a) = s.iter().next() {
                return Ok(format!("the element of lock array `{}` with the same index", prog.var(*a).source_name));
            }
        }
        let at = first_unprotected.get(&v).map(|l| format!(" (no lock at {})", prog.span_str(prog.loc(*l).span))).unwrap_or_default();
        Err(format!("`{}` is not accessed under one common lock by every thread{at}", prog.var(v).source_name))
    };
    let mut of = Vec::with_capacity(prog.locs.len());
    for (i, loc) in prog.locs.iter().enumerate() {
        let c = |mover: Mover, reason: String| Classified { mover, reason };
        let lock = prog.memory.lock_of[i];
        let class = match &loc.action {
            _ if prefix.contains(&LocId(i as u32)) => c(Mover::Both, "runs before any other thread starts".into()),
            Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => {
                let name = match (lock, array_element(lv, &arrays)) {
                    (Some(LockRef::Exact(k)), _) => Some((format!("`{}`", prog.memory.locks[k.0 as usize]), bad_lock.contains(&k))),
                    (_, Some((a, _))) => Some((format!("an element of `{}`", prog.var(a).source_name), bad_array.contains(&a))),
                    _ => None,
                };
                let may_free = matches!(loc.action, Action::Release(_)) && prog.memory.lock_may.get(i).is_some_and(|v| !v.is_empty());
                match (name, &loc.action) {
                    (None, _) if may_free => c(Mover::Non, "a release through a pointer that may designate a definite lock another thread holds".into()),
                    (None, _) => c(Mover::Both, "a lock the projection cannot name: no effect there".into()),
                    (Some((n, _)), Action::LockBusy(_)) => c(Mover::Non, format!("a failed trylock tests {n}")),
                    (Some((n, true)), _) => c(Mover::Non, format!("{n} is tested by a failed trylock or released by a thread that may not hold it")),
                    (Some((n, false)), Action::Acquire(_)) => c(Mover::Right, format!("acquires {n}")),
                    (Some((n, false)), _) => c(Mover::Left, format!("releases {n}")),
                }
            }
            Action::Fork { .. } => c(Mover::Non, "creates a thread".into()),
            // A join may wait for a thread's end, which no step undoes: like an acquire.
            Action::Join(_) => c(Mover::Right, "waits for a thread to end".into()),
            Action::Halt(_) => c(Mover::Non, "ends the thread or the program".into()),
            Action::AtomicBegin | Action::AtomicEnd => c(Mover::Non, "an atomic section's boundary".into()),
            Action::Skip => c(Mover::Both, "no effect".into()),
            a => {
                let vars: BTreeSet<VarId> = shared_accesses(prog, a).into_iter().map(|(v, _)| v).collect();
                if vars.is_empty() {
                    c(Mover::Both, "touches no shared variable".into())
                } else {
                    let mut why = Vec::new();
                    let mut ok = true;
                    for v in vars {
                        match protector(v) {
                            Ok(p) => why.push(format!("`{}` under {p}", prog.var(v).source_name)),
                            Err(e) => {
                                ok = false;
                                why = vec![e];
                                break;
                            }
                        }
                    }
                    if ok {
                        c(Mover::Both, format!("accesses {}", why.join(", ")))
                    } else {
                        c(Mover::Non, why.join(""))
                    }
                }
            }
        };
        of.push(class);
    }
    Movers { of, lock_arrays: arrays, unusable }
}

/// Locations some thread can reach (from its template's entry).
fn reachable(prog: &Program) -> Vec<bool> {
    let mut r = vec![false; prog.locs.len()];
    for t in &prog.templates {
        let mut work = vec![t.entry];
        while let Some(l) = work.pop() {
            if std::mem::replace(&mut r[l.index()], true) {
                continue;
            }
            work.extend(prog.loc(l).succs.iter().copied());
        }
    }
    r
}

/// The root's deterministic prefix, which the projection runs before any other thread exists
/// (`Model::build`): straight-line assignments from the entry, each reached only that way.
pub fn init_prefix(prog: &Program) -> BTreeSet<LocId> {
    crate::ir::visit::root_prefix(prog).into_iter().collect()
}

/// Global arrays of mutexes every lock operation of which names an element directly.
fn lock_arrays(prog: &Program) -> Vec<LockArray> {
    let mut cand: BTreeSet<VarId> = BTreeSet::new();
    let mut bad: BTreeSet<VarId> = BTreeSet::new();
    for loc in &prog.locs {
        if let Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) = &loc.action {
            match lv {
                Lval::Index(b, i) => match &**b {
                    Lval::Var(v) if local_only(prog, i) => {
                        cand.insert(*v);
                    }
                    other => {
                        if let Some(v) = other.root_var() {
                            bad.insert(v);
                        }
                    }
                },
                other => {
                    if let Some(v) = other.root_var() {
                        bad.insert(v);
                    }
                }
            }
        }
    }
    cand.into_iter()
        .filter(|v| !bad.contains(v))
        .filter_map(|v| {
            let var = prog.var(v);
            match &var.ty {
                CType::Array(_, Some(n)) if var.is_global() && !var.addr_taken && *n >= 1 && *n <= 64 => Some(LockArray { var: v, len: *n as u32 }),
                _ => None,
            }
        })
        .collect()
}

/// The lock array and index of a lock operation's lvalue, when it names an element of one.
pub fn array_element<'a>(lv: &'a Lval, arrays: &[LockArray]) -> Option<(VarId, &'a Expr)> {
    let Lval::Index(b, i) = lv else { return None };
    let Lval::Var(v) = &**b else { return None };
    arrays.iter().any(|a| a.var == *v).then_some((*v, &**i))
}

/// An index expression with what does not change its value taken off: conversions to a
/// signed 64-bit index (of an index that is in bounds) and the types of constants, so that
/// `m[i]` and `available[(long)i]` name the same index.
fn same_index(e: &Expr) -> Expr {
    match e {
        Expr::Const(v, _) => Expr::Const(*v, crate::ir::Ty::INT),
        Expr::Cast(crate::ir::Ty::Int(it), x) if it.bits == 64 && it.signed => same_index(x),
        Expr::Unary(op, x, t) => Expr::Unary(*op, Box::new(same_index(x)), *t),
        Expr::Binary(op, a, b, t) => Expr::Binary(*op, Box::new(same_index(a)), Box::new(same_index(b)), *t),
        other => other.clone(),
    }
}

/// Whether an expression reads only constants and thread-local variables whose address is
/// never taken (so only the thread's own assignments change its value).
fn local_only(prog: &Program, e: &Expr) -> bool {
    let mut ok = true;
    crate::ir::visit::expr_vars(e, &mut |v| {
        let var = prog.var(v);
        ok &= matches!(var.kind, VarKind::Local(_) | VarKind::Temp(_)) && !var.addr_taken;
    });
    let mut plain = true;
    fn walk(e: &Expr, plain: &mut bool) {
        match e {
            Expr::Const(..) => {}
            Expr::Load(Lval::Var(_)) => {}
            Expr::Unary(_, a, _) | Expr::Cast(_, a) => walk(a, plain),
            Expr::Binary(_, a, b, _) => {
                walk(a, plain);
                walk(b, plain);
            }
            _ => *plain = false,
        }
    }
    walk(e, &mut plain);
    ok && plain
}

/// Per location, the lock-array elements held on every path (a must-analysis on
/// `ir::memory::lock_states`); an element is forgotten when its index's variables change.
fn held_elements(prog: &Program, arrays: &[LockArray]) -> Vec<Option<Vec<Held>>> {
    if arrays.is_empty() {
        return vec![Some(Vec::new()); prog.locs.len()];
    }
    let step = |cur: &Vec<Held>, l: LocId| {
        let mut out = cur.clone();
        let a = &prog.loc(l).action;
        match a {
            Action::Acquire(lv) => {
                if let Some((v, e)) = array_element(lv, arrays) {
                    let e = same_index(e);
                    if !out.contains(&(v, e.clone())) {
                        out.push((v, e));
                    }
                }
            }
            Action::Release(lv) => match array_element(lv, arrays) {
                // Another element of the same array may have the same index value.
                Some((v, _)) => out.retain(|(w, _)| *w != v),
                // Releasing a lock we cannot identify may release any of them.
                None if !matches!(prog.memory.lock_of[l.index()], Some(LockRef::Exact(_))) => out.clear(),
                None => {}
            },
            _ => {}
        }
        let mut written = Vec::new();
        match a {
            Action::Assign(lv, _) | Action::Alloc(lv, ..) => written.extend(lv.root_var()),
            Action::Fork { handle: Some(h), .. } => written.extend(h.root_var()),
            _ => {}
        }
        for w in written {
            out.retain(|(_, e)| {
                let mut reads = false;
                crate::ir::visit::expr_vars(e, &mut |v| reads |= v == w);
                !reads
            });
        }
        out
    };
    let meet = |a: &Vec<Held>, b: &Vec<Held>| a.iter().filter(|x| b.contains(x)).cloned().collect();
    crate::ir::memory::lock_states(prog, Vec::new(), step, meet)
}

/// The shared globals an action reads or writes (a superset of the projection's shared cells
/// it touches), each with the index when every occurrence is an element `v[e]` of one index.
fn shared_accesses(prog: &Program, a: &Action) -> Vec<(VarId, Option<Expr>)> {
    let mut occ: Vec<(VarId, Option<Expr>)> = Vec::new();
    let mut note = |lv: &Lval| {
        let (v, idx) = match lv {
            Lval::Var(v) => (*v, None),
            Lval::Index(b, i) => match &**b {
                Lval::Var(v) => (*v, Some(same_index(i))),
                _ => return,
            },
            _ => return,
        };
        if prog.var(v).is_global() {
            occ.push((v, idx));
        }
    };
    match a {
        // A lock operation's operand is the mutex, not a value.
        Action::Acquire(_) | Action::Release(_) | Action::LockBusy(_) => {}
        _ => crate::ir::visit::action_lvals(a, &mut note),
    }
    // A global mentioned any other way (its address taken) makes it untracked: no cell.
    let mut out: Vec<(VarId, Option<Expr>)> = Vec::new();
    for (v, idx) in occ {
        match out.iter_mut().find(|(w, _)| *w == v) {
            Some((_, old)) => {
                if *old != idx {
                    *old = None;
                }
            }
            None => out.push((v, idx)),
        }
    }
    out
}
