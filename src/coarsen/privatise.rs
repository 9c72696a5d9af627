//! Locks relative to the accessed object (issue 13, pattern 6): a lock that is a field of the
//! same struct object as the accessed cell (`lock(&e->m); e->refs++; unlock(&e->m)`), or an
//! element of a lock array at the same index as the accessed element
//! (`lock(&locks[i]); a[i]++; unlock(&locks[i])`).
//!
//! The alias model cannot name such a lock (`LockRef::Unknown`: many objects stand behind one
//! abstract location), and the accessed cell is a summary with weak updates, so the
//! interference rules see every intermediate value. Instead of teaching the rules per-flow
//! object identities, this pass rewrites the program into one that over-approximates it and
//! that COARSEN analyses as it is:
//!
//! - a *key* `(b, shape)` is held at a location when, on every path, the thread acquired the
//!   lock of shape `shape` (field `m` of struct type `R`, or lock array `L`) through the local
//!   base variable `b` (the pointer `e`, or the index `i`), and no store to `b` came since (a
//!   plain copy `t := b` makes `t` a base of the same key). A thread holds at most one lock of a
//!   shape at a time (checked: an acquire of a shape that may be held rejects the shape), so
//!   every held key of a shape names the same concrete lock.
//! - an abstract location `x` is *protected* by a shape when every access to it, in every
//!   template, is `b->f` (or `a[b]`) with a key `(b, shape)` held, except accesses by `main`
//!   before its first fork (no other thread exists yet): the accessed concrete cell then
//!   lies in the object (at the index) whose lock the accessing thread holds. No two threads
//!   access one concrete cell of `x` at once, and a thread sees there only values left at some
//!   release of that cell's lock (or the initial value).
//! - such a cell behaves, inside a critical section, as a thread-local copy: the rewrite loads
//!   `b->f` into a fresh local right after each acquire, replaces the accesses in the section by
//!   the local (strong updates), and stores the local back right before each release. The
//!   shared location is then accessed only at acquires and releases, so only the values present
//!   at unlock points flow between threads.
//!
//! Must-equality of the object is required, never may: the key lives in a local variable that
//! no other thread can store to, and any store to it ends the key. Two threads with different
//! indices, a pointer reassigned between lock and access, a lock of one object and an access
//! to another, an access outside the section, a release through an unrelated pointer: each
//! leaves some access unguarded (or the shape rejected), and the location is not rewritten.
//!
//! Not covered: an unguarded access once a thread exists (an initialisation before the object
//! is published to threads already running, too), a lock and a cell reached through different
//! variables, heap cells that share one abstract location with uninitialised fields.

use crate::ir::memory::{lock_states, stores_to, MemoryModel};
use crate::ir::{AbsLoc, Action, CType, Expr, LocId, Location, Lval, Program, RecordId, VarId, VarKind, Variable};
use std::collections::{BTreeMap, BTreeSet};

/// The kind of lock a key holds: a mutex field of a struct type, or an element of a global
/// array of mutexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Shape {
    Field(RecordId, u32),
    Array(VarId),
}

/// Which cell of the locked object an access designates: a scalar field of the struct, or the
/// element of a global array at the lock's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Slot {
    Field(RecordId, u32),
    Array(VarId),
}

/// The state before a location: keys surely held (base, shape), and shapes possibly held.
#[derive(Clone, Debug, PartialEq, Default)]
struct Held {
    must: BTreeSet<(VarId, Shape)>,
    may: BTreeSet<Shape>,
}

/// A local variable (or temporary) that no other thread can see or store to.
pub(super) fn private_var(prog: &Program, v: VarId) -> bool {
    if !matches!(prog.var(v).kind, VarKind::Local(_) | VarKind::Temp(_)) || prog.var(v).addr_taken {
        return false;
    }
    match prog.memory.lookup(prog, &Lval::Var(v)) {
        Some(a) => {
            let info = prog.memory.info(a);
            info.strong && !info.shared
        }
        None => false,
    }
}

/// `b->f` with `b` a private variable: the base, the record and the field.
fn field_of_base(prog: &Program, lv: &Lval) -> Option<(VarId, RecordId, u32)> {
    let Lval::Field(base, rec, f) = lv else { return None };
    let Lval::Deref(e, _) = &**base else { return None };
    let Expr::Load(Lval::Var(b)) = &**e else { return None };
    let record = &prog.records[rec.0 as usize];
    (!record.is_union && private_var(prog, *b)).then_some((*b, *rec, *f))
}

/// `a[b]` with `a` a global array and `b` a private variable: the base and the array.
fn element_of_base(prog: &Program, lv: &Lval) -> Option<(VarId, VarId)> {
    let Lval::Index(arr, idx) = lv else { return None };
    let Lval::Var(a) = &**arr else { return None };
    let b = index_base(prog, idx)?;
    (prog.var(*a).is_global() && matches!(prog.var(*a).ty, CType::Array(..)) && private_var(prog, b)).then_some((b, *a))
}

/// The variable an index expression is, when its value is the variable's: the variable
/// itself, or a conversion to a type that holds every value of the variable's type.
pub(super) fn index_base(prog: &Program, idx: &Expr) -> Option<VarId> {
    match idx {
        Expr::Load(Lval::Var(b)) => Some(*b),
        Expr::Cast(t, inner) => {
            let Expr::Load(Lval::Var(b)) = &**inner else { return None };
            let from = prog.var(*b).ty.scalar(prog.data_model).range(prog.data_model)?;
            let to = t.range(prog.data_model)?;
            (to.0 <= from.0 && from.1 <= to.1).then_some(*b)
        }
        _ => None,
    }
}

/// The key of a lock lvalue the pass understands.
fn lock_key(prog: &Program, lv: &Lval) -> Option<(VarId, Shape)> {
    if prog.lval_type(lv) != CType::Mutex {
        return None;
    }
    if let Some((b, rec, f)) = field_of_base(prog, lv) {
        return Some((b, Shape::Field(rec, f)));
    }
    element_of_base(prog, lv).map(|(b, a)| (b, Shape::Array(a)))
}

/// The base and slot of a scalar access the pass understands.
fn slot_of(prog: &Program, lv: &Lval) -> Option<(VarId, Slot)> {
    if !prog.lval_type(lv).is_scalar() || prog.lval_type(lv) == CType::Mutex {
        return None;
    }
    if let Some((b, rec, f)) = field_of_base(prog, lv) {
        return Some((b, Slot::Field(rec, f)));
    }
    element_of_base(prog, lv).map(|(b, a)| (b, Slot::Array(a)))
}

/// Whether a slot is a cell of the object (or at the index) a lock of this shape guards.
fn guards(shape: Shape, slot: Slot) -> bool {
    match (shape, slot) {
        (Shape::Field(r, m), Slot::Field(s, f)) => r == s && m != f,
        (Shape::Array(_), Slot::Array(_)) => true,
        _ => false,
    }
}

/// Whether releasing `lv`, which the pass does not understand as a key, may release a lock of
/// this shape.
fn may_release(prog: &Program, lv: &Lval, shape: Shape) -> bool {
    match (lv, shape) {
        (Lval::Var(_), _) => false,
        (Lval::Field(_, r, m), Shape::Field(rr, mm)) => (*r, *m) == (rr, mm),
        (Lval::Field(..), Shape::Array(_)) => false,
        (Lval::Index(b, _), Shape::Array(a)) => !matches!(&**b, Lval::Var(v) if *v != a),
        (Lval::Index(..), Shape::Field(..)) => prog.lval_type(lv) != CType::Mutex,
        (Lval::Deref(..), _) => true,
    }
}

/// The lvalue of slot `s` of the object (or at the index) that the lock lvalue `lock` (a key)
/// designates.
fn slot_lval(lock: &Lval, s: Slot) -> Lval {
    match (lock, s) {
        (Lval::Field(base, _, _), Slot::Field(rec, f)) => Lval::Field(base.clone(), rec, f),
        (Lval::Index(_, idx), Slot::Array(a)) => Lval::Index(Box::new(Lval::Var(a)), idx.clone()),
        _ => unreachable!("a key's lock lvalue matches its shape"),
    }
}

/// Every lvalue an action accesses (stores to or loads from), outermost first.
fn accessed(action: &Action) -> Vec<&Lval> {
    fn inside<'a>(lv: &'a Lval, out: &mut Vec<&'a Lval>) {
        lv.for_each_load_inside(&mut |l| out.push(l));
    }
    fn loads<'a>(e: &'a Expr, out: &mut Vec<&'a Lval>) {
        e.for_each_load(&mut |l| out.push(l));
    }
    let mut out = Vec::new();
    match action {
        Action::Assign(lv, e) => {
            out.push(lv);
            inside(lv, &mut out);
            loads(e, &mut out);
        }
        Action::Assume(e) | Action::Assert(_, e) | Action::Join(e) => loads(e, &mut out),
        Action::Alloc(lv, ..) => {
            out.push(lv);
            inside(lv, &mut out);
        }
        Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => inside(lv, &mut out),
        Action::Fork { handle, arg, .. } => {
            if let Some(h) = handle {
                out.push(h);
                inside(h, &mut out);
            }
            if let Some(a) = arg {
                loads(a, &mut out);
            }
        }
        Action::Skip | Action::AtomicBegin | Action::AtomicEnd | Action::Halt(_) => {}
    }
    out
}

/// The held keys before every location (`None` where no thread reaches).
fn held(prog: &Program) -> Vec<Option<Held>> {
    let base_loc: BTreeMap<VarId, AbsLoc> = prog.vars.iter().enumerate().filter_map(|(i, _)| prog.memory.lookup(prog, &Lval::Var(VarId(i as u32))).map(|a| (VarId(i as u32), a))).collect();
    let step = |cur: &Held, l: LocId| {
        let mut out = cur.clone();
        let action = &prog.loc(l).action;
        // A store to a base ends its keys; a plain copy of a base gives its keys to the copy.
        let stored: Vec<VarId> = out
            .must
            .iter()
            .map(|(b, _)| *b)
            .chain(match action {
                Action::Assign(Lval::Var(t), _) => Some(*t),
                _ => None,
            })
            .filter(|b| base_loc.get(b).is_some_and(|a| stores_to(prog, l, *a)))
            .collect();
        let copied: Vec<Shape> = match action {
            Action::Assign(Lval::Var(t), e) if private_var(prog, *t) => match index_base(prog, e) {
                Some(b) => out.must.iter().filter(|(x, _)| *x == b).map(|(_, s)| *s).collect(),
                None => Vec::new(),
            },
            _ => Vec::new(),
        };
        out.must.retain(|(b, _)| !stored.contains(b));
        if let Action::Assign(Lval::Var(t), _) = action {
            for s in copied {
                out.must.insert((*t, s));
            }
        }
        match action {
            Action::Acquire(lv) => {
                if let Some((b, s)) = lock_key(prog, lv) {
                    out.must.insert((b, s));
                    out.may.insert(s);
                }
            }
            Action::Release(lv) => {
                let shapes: Vec<Shape> = match lock_key(prog, lv) {
                    Some((_, s)) => vec![s],
                    None => out.may.iter().copied().filter(|s| may_release(prog, lv, *s)).collect(),
                };
                for s in shapes {
                    out.must.retain(|(_, x)| *x != s);
                    out.may.remove(&s);
                }
            }
            _ => {}
        }
        out
    };
    let join = |a: &Held, b: &Held| Held { must: a.must.intersection(&b.must).copied().collect(), may: a.may.union(&b.may).copied().collect() };
    lock_states(prog, Held::default(), step, join)
}

/// The root's locations that no fork precedes on any path: only `main` runs there (the root
/// template has one instance, and every other thread is created by some fork). A location a
/// fork's successor reaches (the body of a loop that creates threads, on its next iteration)
/// runs beside a thread.
fn before_any_fork(prog: &Program) -> Vec<bool> {
    let Some(root) = prog.templates.first() else { return vec![false; prog.locs.len()] };
    let reach = |starts: Vec<LocId>| {
        let mut seen = vec![false; prog.locs.len()];
        let mut work = starts;
        while let Some(l) = work.pop() {
            if !std::mem::replace(&mut seen[l.index()], true) {
                work.extend(prog.loc(l).succs.iter().copied());
            }
        }
        seen
    };
    let from_entry = reach(vec![root.entry]);
    let forks = prog.loc_ids().filter(|l| from_entry[l.index()] && matches!(prog.loc(*l).action, Action::Fork { .. }));
    let after_fork = reach(forks.flat_map(|l| prog.loc(l).succs.iter().copied()).collect());
    from_entry.iter().zip(&after_fork).map(|(r, a)| *r && !a).collect()
}

/// What the pass found: for each shape, the slots it caches.
#[derive(Debug, Default)]
pub struct Plan {
    cached: BTreeMap<Shape, BTreeSet<Slot>>,
    /// Names of the protected abstract locations, for the verdict's reason.
    pub protected: Vec<String>,
}

/// Finds the locations protected by locks relative to the accessed object, and the slots the
/// rewrite may cache. Empty when the program has none.
pub fn plan(prog: &Program) -> Plan {
    let states = held(prog);
    // Shapes whose discipline the pass cannot follow: an acquire while one of the shape may be
    // held (another object's lock, or a relock), or a release that may release a held lock of
    // the shape without being its key.
    let mut bad: BTreeSet<Shape> = BTreeSet::new();
    for l in prog.loc_ids() {
        let Some(st) = &states[l.index()] else { continue };
        match &prog.loc(l).action {
            Action::Acquire(lv) => {
                if let Some((_, s)) = lock_key(prog, lv) {
                    if st.may.contains(&s) {
                        bad.insert(s);
                    }
                }
            }
            Action::Release(lv) => match lock_key(prog, lv) {
                Some(k) => {
                    if !st.must.contains(&k) {
                        bad.insert(k.1);
                    }
                }
                None => bad.extend(st.may.iter().copied().filter(|s| may_release(prog, lv, *s))),
            },
            _ => {}
        }
    }
    let alone = before_any_fork(prog);
    // Per abstract location: the shapes that guard every access (None: not yet accessed).
    let mut guard: BTreeMap<AbsLoc, Option<BTreeSet<Shape>>> = BTreeMap::new();
    let mut uses: Vec<(Slot, Shape, VarId, Vec<AbsLoc>)> = Vec::new();
    for l in prog.loc_ids() {
        let Some(st) = &states[l.index()] else { continue };
        // While `main` runs alone, an access overlaps no critical section.
        if alone[l.index()] {
            continue;
        }
        let action = &prog.loc(l).action;
        let access = prog.memory.access(l);
        let mut seen: BTreeSet<AbsLoc> = BTreeSet::new();
        for lv in accessed(action) {
            let ts = prog.memory.targets(prog, lv);
            let shapes: BTreeSet<Shape> = match slot_of(prog, lv) {
                Some((b, slot)) => st.must.iter().filter(|(x, s)| *x == b && guards(*s, slot) && !bad.contains(s)).map(|(_, s)| *s).collect(),
                None => BTreeSet::new(),
            };
            if let Some((b, slot)) = slot_of(prog, lv) {
                for s in &shapes {
                    uses.push((slot, *s, b, ts.clone()));
                }
            }
            for t in ts {
                seen.insert(t);
                let g = guard.entry(t).or_insert(None);
                *g = Some(match g.take() {
                    None => shapes.clone(),
                    Some(old) => old.intersection(&shapes).copied().collect(),
                });
            }
        }
        // An access the lvalues do not explain (a library model, a fork's argument) is unguarded.
        for t in access.mods.iter().chain(&access.refs) {
            if !seen.contains(t) {
                guard.insert(*t, Some(BTreeSet::new()));
            }
        }
    }
    // One shape per abstract location: the smallest that guards every access.
    let protected: BTreeMap<AbsLoc, Shape> = guard.iter().filter_map(|(a, g)| g.as_ref().and_then(|g| g.iter().next()).map(|s| (*a, *s))).collect();
    // A slot is cached under a shape when everything its lvalue may designate, at every access
    // and at every acquire of the shape, is protected by that shape: the load and the store the
    // rewrite adds then touch only cells no other thread accesses meanwhile.
    let mut cached: BTreeMap<Shape, BTreeSet<Slot>> = BTreeMap::new();
    let mut rejected: BTreeSet<(Shape, Slot)> = BTreeSet::new();
    for (slot, shape, _, ts) in &uses {
        if protected.values().any(|s| s == shape) && ts.iter().all(|t| protected.get(t) == Some(shape)) && !ts.is_empty() {
            cached.entry(*shape).or_default().insert(*slot);
        } else {
            rejected.insert((*shape, *slot));
        }
    }
    for (shape, slot) in &rejected {
        if let Some(set) = cached.get_mut(shape) {
            set.remove(slot);
        }
    }
    for l in prog.loc_ids() {
        if states[l.index()].is_none() {
            continue;
        }
        if let Action::Acquire(lv) = &prog.loc(l).action {
            if let Some((_, shape)) = lock_key(prog, lv) {
                if let Some(set) = cached.get_mut(&shape) {
                    set.retain(|slot| {
                        let ts = prog.memory.targets(prog, &slot_lval(lv, *slot));
                        !ts.is_empty() && ts.iter().all(|t| protected.get(t) == Some(&shape))
                    });
                }
            }
        }
    }
    cached.retain(|_, v| !v.is_empty());
    let mut names: BTreeSet<String> = BTreeSet::new();
    for (slot, shape, _, ts) in &uses {
        if cached.get(shape).is_some_and(|s| s.contains(slot)) {
            names.extend(ts.iter().map(|t| prog.memory.info(*t).name.clone()));
        }
    }
    Plan { cached, protected: names.into_iter().collect() }
}

/// The program rewritten by the plan: loads after acquires, stores before releases, and the
/// guarded accesses on thread-local copies. `None` when the plan caches nothing.
pub fn rewrite(prog: &Program, plan: &Plan) -> Option<Program> {
    if plan.cached.is_empty() {
        return None;
    }
    let states = held(prog);
    let mut out = prog.clone();
    // The local copy of each (template, shape, slot).
    let mut copies: BTreeMap<(u32, Shape, Slot), VarId> = BTreeMap::new();
    let mut copy_of = |out: &mut Program, t: u32, shape: Shape, slot: Slot, ty: CType| {
        *copies.entry((t, shape, slot)).or_insert_with(|| {
            let id = VarId(out.vars.len() as u32);
            let name = format!("$cached{}", id.0);
            out.vars.push(Variable { name: name.clone(), source_name: name, ty, kind: VarKind::Temp(crate::ir::TemplateId(t)), addr_taken: false, span: None });
            id
        })
    };
    // Each old location becomes a chain (stores, the action, loads).
    let mut chains: Vec<Vec<Location>> = vec![Vec::new(); prog.locs.len()];
    for l in prog.templates.iter().flat_map(|t| t.locs.iter().copied()) {
        let loc = prog.loc(l);
        let t = loc.template.0;
        let mk = |action: Action| Location { template: loc.template, span: loc.span, action, succs: Vec::new(), atomic: loc.atomic };
        let mut chain = Vec::new();
        let st = states[l.index()].as_ref();
        match (&loc.action, st) {
            (Action::Release(lv), Some(_)) => {
                if let Some((_, shape)) = lock_key(prog, lv) {
                    for slot in plan.cached.get(&shape).into_iter().flatten() {
                        let slv = slot_lval(lv, *slot);
                        let c = copy_of(&mut out, t, shape, *slot, prog.lval_type(&slv));
                        chain.push(mk(Action::Assign(slv, Expr::Load(Lval::Var(c)))));
                    }
                }
                chain.push(mk(loc.action.clone()));
            }
            (Action::Acquire(lv), Some(_)) => {
                chain.push(mk(loc.action.clone()));
                if let Some((_, shape)) = lock_key(prog, lv) {
                    for slot in plan.cached.get(&shape).into_iter().flatten() {
                        let slv = slot_lval(lv, *slot);
                        let c = copy_of(&mut out, t, shape, *slot, prog.lval_type(&slv));
                        chain.push(mk(Action::Assign(Lval::Var(c), Expr::Load(slv))));
                    }
                }
            }
            (action, Some(st)) => {
                let mut action = action.clone();
                let mut subst = |lv: &Lval| -> Option<Lval> {
                    let (b, slot) = slot_of(prog, lv)?;
                    let shape = st.must.iter().filter(|(x, s)| *x == b && guards(*s, slot)).map(|(_, s)| *s).find(|s| plan.cached.get(s).is_some_and(|c| c.contains(&slot)))?;
                    Some(Lval::Var(copy_of(&mut out, t, shape, slot, prog.lval_type(lv))))
                };
                rewrite_action(&mut action, &mut subst);
                chain.push(mk(action));
            }
            (action, None) => chain.push(mk(action.clone())),
        }
        chains[l.index()] = chain;
    }
    // Assertions are their own chains (never an acquire or release): the mapped id is the
    // assert itself.
    splice(prog, &mut out, chains);
    Some(out)
}

/// Replaces every location of `prog` by its chain in `out` (`chains` by location id): the
/// steps run in order, the last one takes the location's successors, and every reference to
/// a location (entries, forks, assertions) moves to its chain's first step.
pub(super) fn splice(prog: &Program, out: &mut Program, mut chains: Vec<Vec<Location>>) {
    let order: Vec<LocId> = prog.templates.iter().flat_map(|t| t.locs.iter().copied()).collect();
    let lens: Vec<u32> = chains.iter().map(|c| c.len() as u32).collect();
    let mut first = vec![0u32; prog.locs.len()];
    let mut next = 0u32;
    for &l in &order {
        first[l.index()] = next;
        next += lens[l.index()];
    }
    let mut locs = Vec::with_capacity(next as usize);
    for &l in &order {
        let mut chain = std::mem::take(&mut chains[l.index()]);
        let (start, len) = (first[l.index()], lens[l.index()]);
        for (i, c) in chain.iter_mut().enumerate() {
            c.succs = if (i as u32) + 1 < len { vec![LocId(start + i as u32 + 1)] } else { prog.loc(l).succs.iter().map(|s| LocId(first[s.index()])).collect() };
        }
        locs.extend(chain);
    }
    let map = |l: LocId| LocId(first[l.index()]);
    for (ti, t) in prog.templates.iter().enumerate() {
        out.templates[ti].locs = t.locs.iter().flat_map(|l| (first[l.index()]..first[l.index()] + lens[l.index()]).map(LocId)).collect();
        out.templates[ti].entry = map(t.entry);
        out.templates[ti].spawned_at = t.spawned_at.iter().map(|l| map(*l)).collect();
    }
    for a in &mut out.assertions {
        a.locs = a.locs.iter().map(|l| map(*l)).collect();
    }
    out.locs = locs;
    out.memory = MemoryModel::build(out);
}

/// Replaces, in an action, every accessed lvalue that `f` maps (loads and stores, not
/// addresses).
fn rewrite_action(action: &mut Action, f: &mut dyn FnMut(&Lval) -> Option<Lval>) {
    match action {
        Action::Assign(lv, e) => {
            rewrite_lval(lv, f, true);
            rewrite_expr(e, f);
        }
        Action::Assume(e) | Action::Assert(_, e) | Action::Join(e) => rewrite_expr(e, f),
        _ => {}
    }
}

fn rewrite_lval(lv: &mut Lval, f: &mut dyn FnMut(&Lval) -> Option<Lval>, top: bool) {
    if top {
        if let Some(n) = f(lv) {
            *lv = n;
            return;
        }
    }
    match lv {
        Lval::Var(_) => {}
        Lval::Deref(e, _) => rewrite_expr(e, f),
        Lval::Index(b, i) => {
            rewrite_lval(b, f, false);
            rewrite_expr(i, f);
        }
        Lval::Field(b, _, _) => rewrite_lval(b, f, false),
    }
}

fn rewrite_expr(e: &mut Expr, f: &mut dyn FnMut(&Lval) -> Option<Lval>) {
    match e {
        Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => {}
        Expr::Load(lv) => rewrite_lval(lv, f, true),
        Expr::AddrOf(lv) => rewrite_lval(lv, f, false),
        Expr::Unary(_, x, _) | Expr::Cast(_, x) => rewrite_expr(x, f),
        Expr::Binary(_, a, b, _) => {
            rewrite_expr(a, f);
            rewrite_expr(b, f);
        }
    }
}
