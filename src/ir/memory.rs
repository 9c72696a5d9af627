//! The alias model: abstract memory locations, per-location `mod`/`ref`/`kill` sets, and lock
//! identities.
//!
//! It refines DUET's type-based model (§6.1) with a flow-insensitive, inclusion-based
//! points-to analysis over the whole program (all templates at once):
//! - every variable is its own object, and a field path of a struct variable is its own
//!   abstract location; an array is one summary location (weak updates);
//! - every `malloc` site is one summary object per accessed type;
//! - a pointer whose target the analysis cannot name (from a library function, an integer
//!   cast, `__VERIFIER_nondet_pointer`, a string) points into a weakly-updated region per
//!   scalar type, as in DUET's model; so does a dereference of a pointer with no known
//!   target. A pointer made from an integer may also point to any object whose address the
//!   program turns into an integer.
//!
//! A write through a pointer is strong only when the pointer has a single target that is one
//! concrete object. Soundness assumes C's strict aliasing: memory is accessed through
//! pointers of its declared type, and pointer arithmetic stays inside its object.

use super::{Action, AllocId, CType, Expr, IntTy, LocId, Lval, Multiplicity, Program, Ty, VarId, VarKind};
use hashbrown::HashMap;
use std::collections::BTreeSet;
use std::fmt;

/// The first function address. Functions have addresses so that pointers to them are values
/// like any other: exact, distinct and non-null in every engine. They lie below every object
/// address (the flat memory of `interp::layout` starts at 4096) and are never loaded from or
/// stored to, so they have no abstract location.
pub(crate) const FUNCTION_ADDRESS_BASE: i128 = 16;
/// How many functions can have an address.
pub(crate) const FUNCTION_ADDRESS_SLOTS: i128 = 4000;

/// The address of the `k`-th function whose address the program takes.
pub(crate) fn function_address(k: usize) -> i128 {
    FUNCTION_ADDRESS_BASE + k as i128
}

/// Which function an address is, if it is one.
pub(crate) fn function_index(v: i128) -> Option<usize> {
    (FUNCTION_ADDRESS_BASE..FUNCTION_ADDRESS_BASE + FUNCTION_ADDRESS_SLOTS).contains(&v).then(|| (v - FUNCTION_ADDRESS_BASE) as usize)
}

/// Whether `u` stores a value into `a`: the writes that can be the source of a value read
/// (an assume also counts as modifying what it mentions, but it only refines the value).
pub(crate) fn stores_to(prog: &Program, u: LocId, a: AbsLoc) -> bool {
    matches!(prog.loc(u).action, Action::Assign(..) | Action::Alloc(..) | Action::Fork { .. }) && prog.memory.access(u).mods.contains(&a)
}

/// A forward data-flow fixpoint over every template, for lock states: `entry` at each
/// template's entry, `step` across a location's action, `join` where paths meet. The state
/// before each location (`None` where no thread reaches). Must- and may-held locks both use it.
pub(crate) fn lock_states<S: Clone + PartialEq>(prog: &Program, entry: S, step: impl Fn(&S, LocId) -> S, join: impl Fn(&S, &S) -> S) -> Vec<Option<S>> {
    let mut at: Vec<Option<S>> = vec![None; prog.locs.len()];
    for t in &prog.templates {
        at[t.entry.index()] = Some(entry.clone());
        let mut work = vec![t.entry];
        while let Some(l) = work.pop() {
            let Some(cur) = &at[l.index()] else { continue };
            let out = step(cur, l);
            for s in &prog.loc(l).succs {
                let next = match &at[s.index()] {
                    None => out.clone(),
                    Some(old) => join(old, &out),
                };
                if at[s.index()].as_ref() != Some(&next) {
                    at[s.index()] = Some(next);
                    work.push(*s);
                }
            }
        }
    }
    at
}

/// Index of an abstract memory location in [`MemoryModel::locs`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AbsLoc(pub u32);

impl AbsLoc {
    /// The index as usize.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What an abstract location stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AbsKind {
    /// A scalar variable.
    Var(VarId),
    /// A field path (field positions) of a variable; an array on the path makes it a summary.
    Cell(VarId, Vec<u32>),
    /// What one allocation site's objects hold at one scalar type.
    Heap(AllocId, String),
    /// Memory of one scalar type that no known object accounts for.
    Region(String),
}

/// Facts about one abstract location.
#[derive(Clone, Debug)]
pub struct AbsLocInfo {
    /// Printable name (`x`, `s.f`, `a[*]`, `heap#0:int32`, `*int32`).
    pub name: String,
    /// What it stands for.
    pub kind: AbsKind,
    /// One concrete cell, so a direct write replaces its value; otherwise writes are weak.
    pub strong: bool,
    /// Visible to several threads (globals, escaped locals, heap, regions).
    pub shared: bool,
    /// The scalar type of its values.
    pub ty: Ty,
}

/// The abstract locations an action reads, writes and overwrites.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// Written, or (for `assume`/`assert`) refined: DUET's `mod`.
    pub mods: Vec<AbsLoc>,
    /// Read (a weak write also reads the old value).
    pub refs: Vec<AbsLoc>,
    /// Overwritten entirely: strong writes and refinements by `assume`/`assert`.
    pub kills: Vec<AbsLoc>,
}

/// A member access whose pointer may land on an object that holds no member of that record
/// type (`container_of` applied to a list head that no entry embeds). The model gives the
/// access none of that object's cells, which is sound only where the front-end has guarded
/// the access so that no analysed execution performs it on the object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistyped {
    /// The location that performs the access.
    pub loc: LocId,
    /// The record-typed lvalue whose member is accessed (`*pos` in `pos->datum`).
    pub base: Lval,
    /// The object the pointer may land on.
    pub object: VarId,
}

/// Index of a definite lock in [`MemoryModel::locks`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LockId(pub u32);

/// Which lock a lock operation works on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LockRef {
    /// One specific global mutex object.
    Exact(LockId),
    /// A mutex the analysis cannot pin down (an array element, several possible targets, a
    /// thread-local or heap mutex): it gives no mutual exclusion facts.
    Unknown,
}

/// How a location touches the word of a recognised spin lock (see [`MemoryModel::spin`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SpinAccess {
    /// `v := word` inside an atomic section: `v` holds the word's current value until the
    /// section ends or the word is written.
    Read(VarId),
    /// A store of a non-zero constant (the write half of a test-and-set or compare-and-swap).
    Set,
    /// A store of zero: the unlock.
    Clear,
}

/// An object a pointer can point to: its root and the path of fields inside it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Root {
    Var(VarId),
    Heap(AllocId),
    Unknown,
}

/// A pointer target, or the object an lvalue designates.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Target {
    root: Root,
    /// Field positions from the root.
    path: Vec<u32>,
    /// An array element was selected on the way (the location is a summary).
    indexed: bool,
    /// Reached only by making an integer into a pointer, so the pointer may also be a plain
    /// number (`(void *)(long)i`): see [`MemoryModel::may_hold_address`].
    from_integer: bool,
}

impl Target {
    fn unknown() -> Target {
        Target::object(Root::Unknown)
    }

    /// A whole object, reached directly.
    fn object(root: Root) -> Target {
        Target { root, path: Vec::new(), indexed: false, from_integer: false }
    }
}

/// The alias model of a program.
#[derive(Clone, Debug, Default)]
pub struct MemoryModel {
    /// All abstract locations.
    pub locs: Vec<AbsLocInfo>,
    index: HashMap<AbsKind, AbsLoc>,
    /// Per IR location (indexed by `LocId`): its accesses.
    pub access: Vec<Access>,
    /// Names of the definite locks.
    pub locks: Vec<String>,
    lock_index: HashMap<AbsKind, LockId>,
    /// Per IR location: the lock of an acquire, release or busy action.
    pub lock_of: Vec<Option<LockRef>>,
    /// Per IR location: for a lock action whose lock is [`LockRef::Unknown`], the definite
    /// locks it may still designate (one of several targets, or an unknown pointer), sorted.
    pub lock_may: Vec<Vec<LockId>>,
    /// Per IR location: the spin lock whose word it reads atomically or stores, and how.
    ///
    /// A spin lock is the program's own lock, recognised from its code whatever its name: an
    /// integer global cell (not in an array) that some atomic section reads into a variable,
    /// and that is only ever *stored* as a constant: non-zero (test-and-set, a successful
    /// compare-and-swap, `l = 1`) or zero (`__sync_lock_release`, `__atomic_clear`, `l = 0`).
    /// Every other store to it (an unknown value, a store through a pointer that may also
    /// designate other memory, a pthread operation on it) disqualifies it, and it keeps only
    /// its plain atomic semantics. Reads are free. The engines never see these facts as
    /// actions: the IR is unchanged and only COARSEN's lock analysis (`coarsen::locks`) turns
    /// a read of zero followed by a non-zero store into an acquire, and a store of zero by
    /// the holder into a release.
    pub spin: Vec<Option<(LockId, SpinAccess)>>,
    /// The member accesses through pointers that may reach an object under another record
    /// type, in location order (see [`Mistyped`]).
    pub mistyped: Vec<Mistyped>,
    found: std::cell::RefCell<Vec<(Lval, VarId)>>,
    /// Points-to sets of the abstract locations that hold pointers.
    pts: HashMap<AbsKind, BTreeSet<Target>>,
    /// The objects whose addresses the program turns into integers, or that code without a
    /// definition may know, whole: a pointer made from an integer may land on any of them (or
    /// on memory no known object accounts for).
    escaped: BTreeSet<Target>,
}

impl MemoryModel {
    /// Builds the model for a lowered program.
    pub fn build(prog: &Program) -> MemoryModel {
        let mut m = MemoryModel::default();
        m.points_to(prog);
        for (i, loc) in prog.locs.iter().enumerate() {
            m.found.borrow_mut().clear();
            let access = m.access_of(prog, &loc.action);
            m.access.push(access);
            let lock = match &loc.action {
                Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => Some(m.lock_ref(prog, lv)),
                _ => None,
            };
            m.lock_of.push(lock);
            for (base, object) in m.found.take() {
                let found = Mistyped { loc: LocId(i as u32), base, object };
                if !m.mistyped.contains(&found) {
                    m.mistyped.push(found);
                }
            }
        }
        // After every location: a definite lock's id may be made by a later location.
        m.lock_may = prog
            .locs
            .iter()
            .enumerate()
            .map(|(i, loc)| match (&loc.action, m.lock_of[i]) {
                (Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv), Some(LockRef::Unknown)) => m.may_designate(prog, lv),
                _ => Vec::new(),
            })
            .collect();
        m.spin = m.spin_locks(prog);
        m
    }

    /// Recognises the spin locks (see [`MemoryModel::spin`]) and gives each a lock id.
    fn spin_locks(&mut self, prog: &Program) -> Vec<Option<(LockId, SpinAccess)>> {
        let consts = single_constants(prog);
        let value = |e: &Expr| constant_value(e, &consts);
        // Candidates: the words an atomic section reads into a variable. Each location's read
        // word is computed once: atomic sections may read many globals.
        let read_of: Vec<Option<(VarId, Vec<u32>)>> = prog
            .locs
            .iter()
            .map(|loc| match &loc.action {
                Action::Assign(Lval::Var(_), Expr::Load(lv)) => self.word_cell(prog, lv),
                _ => None,
            })
            .collect();
        let mut words: Vec<(VarId, Vec<u32>)> = read_of.iter().zip(&prog.locs).filter(|(_, l)| l.atomic).filter_map(|(w, _)| w.clone()).collect();
        words.sort();
        words.dedup();
        let mut out: Vec<Option<(LockId, SpinAccess)>> = vec![None; prog.locs.len()];
        'word: for (root, path) in words {
            let kind = AbsKind::Cell(root, path.clone());
            // A pthread operation on the same object: it is not the program's own lock.
            if self.lock_index.contains_key(&kind) {
                continue;
            }
            let w = (root, path.clone());
            let mut cells: Vec<AbsLoc> = Vec::new();
            let mut sites: Vec<(usize, SpinAccess)> = Vec::new();
            for (i, loc) in prog.locs.iter().enumerate() {
                let (Some(r), Action::Assign(Lval::Var(v), Expr::Load(lv))) = (&read_of[i], &loc.action) else { continue };
                if *r == w {
                    for a in self.targets(prog, lv) {
                        push_unique(&mut cells, a);
                    }
                    if loc.atomic && matches!(prog.var(*v).kind, VarKind::Local(_) | VarKind::Temp(_)) {
                        sites.push((i, SpinAccess::Read(*v)));
                    }
                }
            }
            for (i, loc) in prog.locs.iter().enumerate() {
                let stores = matches!(loc.action, Action::Assign(..) | Action::Alloc(..) | Action::Fork { .. }) && self.access[i].mods.iter().any(|a| cells.contains(a));
                if !stores {
                    continue;
                }
                let Action::Assign(lv, e) = &loc.action else { continue 'word };
                if self.word_cell(prog, lv).as_ref() != Some(&w) || !self.is_strong_write(prog, lv) {
                    continue 'word;
                }
                match value(e) {
                    Some(0) => sites.push((i, SpinAccess::Clear)),
                    Some(_) => sites.push((i, SpinAccess::Set)),
                    None => continue 'word,
                }
            }
            if !sites.iter().any(|(_, s)| *s == SpinAccess::Set) {
                continue;
            }
            let id = LockId(self.locks.len() as u32);
            self.locks.push(cell_name(prog, root, &path));
            self.lock_index.insert(kind, id);
            for (i, s) in sites {
                out[i] = Some((id, s));
            }
        }
        out
    }

    /// The one global integer cell an lvalue designates, outside every array.
    fn word_cell(&self, prog: &Program, lv: &Lval) -> Option<(VarId, Vec<u32>)> {
        let ty = prog.lval_type(lv);
        if !ty.is_integral() {
            return None;
        }
        let targets = self.lval_targets(prog, lv);
        let [t] = targets.as_slice() else { return None };
        let Root::Var(root) = t.root else { return None };
        if t.indexed || t.from_integer || !prog.var(root).is_global() || crosses_array(prog, root, &t.path) {
            return None;
        }
        Some((root, t.path.clone()))
    }

    /// The definite locks a lock lvalue may designate: those on a path through one of its
    /// targets (a target inside or around the lock's object), and every one when a target
    /// is unknown memory.
    fn may_designate(&self, prog: &Program, lv: &Lval) -> Vec<LockId> {
        let targets = self.lval_targets(prog, lv);
        let mut out: Vec<LockId> = Vec::new();
        for (kind, &id) in &self.lock_index {
            let AbsKind::Cell(root, path) = kind else { continue };
            let hit = targets.iter().any(|t| match &t.root {
                Root::Unknown => true,
                Root::Heap(_) => false,
                Root::Var(v) => v == root && (path.starts_with(&t.path) || t.path.starts_with(path)),
            });
            if hit {
                out.push(id);
            }
        }
        out.sort_unstable();
        out
    }

    /// The info of an abstract location.
    pub fn info(&self, a: AbsLoc) -> &AbsLocInfo {
        &self.locs[a.index()]
    }

    /// The accesses of an IR location.
    pub fn access(&self, l: LocId) -> &Access {
        &self.access[l.index()]
    }

    /// The abstract location an lvalue designates, when it designates exactly one that the
    /// program accesses.
    pub fn lookup(&self, prog: &Program, lv: &Lval) -> Option<AbsLoc> {
        match self.targets(prog, lv).as_slice() {
            [a] => Some(*a),
            _ => None,
        }
    }

    /// Every abstract location an lvalue may designate (those the program accesses).
    pub fn targets(&self, prog: &Program, lv: &Lval) -> Vec<AbsLoc> {
        let ty = prog.lval_type(lv);
        let mut out: Vec<AbsLoc> = self.lval_targets(prog, lv).iter().filter_map(|t| self.index.get(&key(prog, t, &ty)).copied()).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether a write to an lvalue replaces the value of the one location it designates.
    pub fn is_strong_write(&self, prog: &Program, lv: &Lval) -> bool {
        let ty = prog.lval_type(lv);
        match self.lval_targets(prog, lv).as_slice() {
            [t] => strong(prog, t, &key(prog, t, &ty)),
            _ => false,
        }
    }

    /// Whether an lvalue may designate memory that several threads can see.
    pub fn is_shared(&self, prog: &Program, lv: &Lval) -> bool {
        let ty = prog.lval_type(lv);
        self.lval_targets(prog, lv).iter().any(|t| shared(prog, &key(prog, t, &ty)))
    }

    /// All abstract locations, in id order.
    pub fn all(&self) -> impl Iterator<Item = AbsLoc> {
        (0..self.locs.len() as u32).map(AbsLoc)
    }

    // ------------------------------------------------------------------ points-to

    /// The objects an accessed lvalue designates. A scalar access through a pointer that
    /// reached a whole aggregate (pointer arithmetic from a member, `container_of`) may touch
    /// any scalar of it: each one, weakly. Left as the aggregate, it would be a cell that no
    /// direct access of a member reads, so the write would be lost.
    fn lval_targets(&self, prog: &Program, lv: &Lval) -> Vec<Target> {
        let ts = self.designated(prog, lv, false);
        let Lval::Deref(_, access) = lv else { return ts };
        if !access.is_scalar() {
            return ts;
        }
        let mut out = Vec::with_capacity(ts.len());
        for t in ts {
            match &t.root {
                Root::Var(v) => match type_at(prog, *v, &t.path) {
                    Some(ty @ CType::Record(_)) => {
                        // Under strict aliasing only members of the access's type are reached
                        // (a character access reaches all of them, as does one that fits none).
                        let mut leaves = Vec::new();
                        scalar_leaves(prog, &t, &ty, 0, &mut leaves);
                        let fits = |l: &Target| type_at(prog, *v, &l.path).is_some_and(|lt| region_key(&lt) == region_key(access));
                        if leaves.iter().any(fits) && !matches!(access, CType::Int(IntTy { bits: 8, .. }, _) | CType::Bool) {
                            leaves.retain(fits);
                        }
                        out.extend(leaves);
                    }
                    _ => out.push(t),
                },
                _ => out.push(t),
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The name of an object with scalars wider than a byte that a character pointer may
    /// point into (for the byte-offset check: the memory model moves such a pointer by
    /// slots, one per scalar, where C moves it by bytes). Unknown memory is left out: what
    /// a program reads there is already an approximation.
    pub fn wide_object_under(&self, prog: &Program, e: &Expr) -> Option<String> {
        for t in self.pts_expr(prog, e) {
            match &t.root {
                Root::Var(v) => {
                    if type_at(prog, *v, &t.path).is_some_and(|ty| has_wide_scalar(prog, &ty, 0)) {
                        return Some(cell_name(prog, *v, &t.path));
                    }
                }
                Root::Heap(site) => {
                    let wide = self.locs.iter().find(|l| matches!(&l.kind, AbsKind::Heap(s, k) if s == site && !matches!(k.as_str(), "int8" | "_Bool" | "void")));
                    if let Some(l) = wide {
                        return Some(l.name.clone());
                    }
                }
                Root::Unknown => {}
            }
        }
        None
    }

    /// Whether a pointer-valued expression may hold the address of a known object (a
    /// variable or an allocation) that the program reached directly, rather than a pointer
    /// made from an integer (which may be a plain number, as in `(void *)(long)i`).
    pub fn may_hold_address(&self, prog: &Program, e: &Expr) -> bool {
        self.pts_expr(prog, e).iter().any(|t| t.root != Root::Unknown && !t.from_integer)
    }

    /// The one whole scalar variable an lvalue designates, when it designates exactly that
    /// (every target is the variable itself, reached as a pointer the program made from an
    /// address rather than from an integer); `None` otherwise.
    pub fn exact_var(&self, prog: &Program, lv: &Lval) -> Option<VarId> {
        match self.lval_targets(prog, lv).as_slice() {
            [Target { root: Root::Var(v), path, indexed: false, from_integer: false }] if path.is_empty() && prog.var(*v).ty.is_scalar() => Some(*v),
            _ => None,
        }
    }

    /// The variables whose memory an lvalue may reach (objects of unknown memory and the heap
    /// left out: unknown memory reaches only [`MemoryModel::escapes`]' variables).
    pub fn reached_vars(&self, prog: &Program, lv: &Lval) -> Vec<VarId> {
        self.lval_targets(prog, lv)
            .into_iter()
            .filter_map(|t| match t.root {
                Root::Var(v) => Some(v),
                _ => None,
            })
            .collect()
    }

    /// Whether code without a definition or a pointer made from an integer may reach a
    /// variable.
    pub fn escapes(&self, prog: &Program, v: VarId) -> bool {
        prog.known_to_unknown_code.contains(&v) || self.escaped.iter().any(|t| t.root == Root::Var(v))
    }

    /// The abstract locations whose points-to sets may hold an address into a variable.
    pub fn holders_of(&self, v: VarId) -> Vec<AbsKind> {
        let mut out: Vec<AbsKind> = self.pts.iter().filter(|(_, s)| s.iter().any(|t| t.root == Root::Var(v))).map(|(k, _)| k.clone()).collect();
        out.sort();
        out
    }

    /// The objects an lvalue designates; `addressed` when only its address is taken, so
    /// that nothing is accessed.
    fn designated(&self, prog: &Program, lv: &Lval, addressed: bool) -> Vec<Target> {
        match lv {
            Lval::Var(v) => vec![Target::object(Root::Var(*v))],
            Lval::Field(b, rec, i) => self
                .designated(prog, b, addressed)
                .into_iter()
                .filter_map(|mut t| match t.root {
                    // A pointer that reached this object under another type (`container_of` of
                    // a list head no entry embeds, `void *`, a cast) names no member of it by
                    // this path, and around a cycle of such pointers the path would grow
                    // without end. Its address lies somewhere in or next to the object: the
                    // whole object, a summary. An access there is recorded and gets none of the
                    // object's cells: the front-end guards it (`frontend::passes`), so that no
                    // analysed execution performs it.
                    Root::Var(v) if !record_at(prog, v, &t.path, *rec) => {
                        if addressed {
                            t.path.clear();
                            t.indexed = true;
                            Some(t)
                        } else {
                            self.found.borrow_mut().push(((**b).clone(), v));
                            None
                        }
                    }
                    Root::Var(_) => {
                        t.path.push(*i);
                        Some(t)
                    }
                    // Heap and unknown memory are keyed by the accessed type alone, so a path
                    // would name nothing, and around a cycle of pointers it would grow forever.
                    Root::Heap(_) | Root::Unknown => Some(t),
                })
                .collect(),
            Lval::Index(b, _) => self
                .designated(prog, b, addressed)
                .into_iter()
                .map(|mut t| {
                    t.indexed = true;
                    t
                })
                .collect(),
            Lval::Deref(e, _) => {
                let s = self.pts_expr(prog, e);
                // A pointer with no known target is null or indeterminate, and dereferencing it
                // is undefined; pointing it at unknown memory keeps the model sound anyway.
                if s.is_empty() {
                    vec![Target::unknown()]
                } else {
                    s.into_iter().collect()
                }
            }
        }
    }

    /// The objects a pointer-valued expression may point to.
    fn pts_expr(&self, prog: &Program, e: &Expr) -> BTreeSet<Target> {
        match e {
            Expr::Const(..) => BTreeSet::new(),
            Expr::AddrOf(lv) => self.designated(prog, lv, true).into_iter().collect(),
            Expr::Load(lv) => {
                let ty = prog.lval_type(lv);
                let mut out = BTreeSet::new();
                for t in self.lval_targets(prog, lv) {
                    if t.root == Root::Unknown {
                        // A pointer loaded from unknown memory can point anywhere unknown.
                        if matches!(ty, CType::Pointer(_)) {
                            out.insert(Target::unknown());
                        }
                        continue;
                    }
                    if let Some(s) = self.pts.get(&key(prog, &t, &ty)) {
                        out.extend(s.iter().cloned());
                    }
                }
                out
            }
            // Adding 0 (`p[0]`) does not move the pointer.
            Expr::Binary(super::BinOp::Add | super::BinOp::Sub, p, k, Ty::Ptr) if matches!(**k, Expr::Const(0, _)) => self.pts_expr(prog, p),
            Expr::Binary(op @ (super::BinOp::Add | super::BinOp::Sub), p, _, Ty::Ptr) => self
                .pts_expr(prog, p)
                .into_iter()
                .map(|mut t| {
                    // Pointer arithmetic moves inside an array: the target becomes a summary.
                    // From a member that is no array it can only reach the enclosing object
                    // (`container_of` subtracts the member's offset), so the target becomes
                    // the whole object. A member of an array's element is no array itself:
                    // `&a[0].x + 4` lands in another member of another element.
                    let in_array = matches!(t.root, Root::Var(v) if is_array_at(prog, v, &t.path));
                    if *op == super::BinOp::Sub || !in_array {
                        t.path.clear();
                    }
                    t.indexed = true;
                    t
                })
                .collect(),
            Expr::Cast(Ty::Ptr, x) => {
                let inner = self.pts_expr(prog, x);
                match x.as_ref() {
                    Expr::Const(0, _) => BTreeSet::new(),
                    _ if !inner.is_empty() => inner,
                    // An integer turned into a pointer: unknown memory, or any object whose
                    // address the program turned into an integer (a round trip through
                    // `uintptr_t`).
                    x if x.ty(prog) != Ty::Ptr => self.escaped.iter().cloned().chain([Target::unknown()]).collect(),
                    _ => inner,
                }
            }
            Expr::Nondet(Ty::Ptr) | Expr::Havoc(Ty::Ptr, _) => [Target::unknown()].into_iter().collect(),
            _ => BTreeSet::new(),
        }
    }

    /// Solves the inclusion constraints of every pointer store, to a fixed point.
    fn points_to(&mut self, prog: &Program) {
        for v in &prog.known_to_unknown_code {
            self.escaped.insert(Target { root: Root::Var(*v), path: Vec::new(), indexed: true, from_integer: true });
        }
        loop {
            let mut changed = false;
            for loc in &prog.locs {
                let mut escaping = BTreeSet::new();
                super::visit::action_exprs(&loc.action, &mut |e| {
                    if let Expr::Cast(t, x) = e {
                        if *t != Ty::Ptr && x.ty(prog) == Ty::Ptr {
                            escaping.extend(self.pts_expr(prog, x).into_iter().filter(|t| t.root != Root::Unknown).map(|mut t| {
                                // Integer arithmetic may move the address anywhere in its object.
                                t.path.clear();
                                t.indexed = true;
                                t.from_integer = true;
                                t
                            }));
                        }
                    }
                });
                let before = self.escaped.len();
                self.escaped.extend(escaping);
                changed |= self.escaped.len() != before;
                let (lv, src): (&Lval, BTreeSet<Target>) = match &loc.action {
                    Action::Assign(lv, e) => (lv, self.pts_expr(prog, e)),
                    Action::Alloc(lv, site, _) => (lv, [Target::object(Root::Heap(*site))].into_iter().collect()),
                    Action::Fork { template, arg: Some(e), .. } => match prog.template(*template).params.first() {
                        Some(p) => {
                            let s = self.pts_expr(prog, e);
                            changed |= self.add_pts(AbsKind::Var(*p), s);
                            continue;
                        }
                        None => continue,
                    },
                    _ => continue,
                };
                if src.is_empty() {
                    continue;
                }
                let ty = prog.lval_type(lv);
                for t in self.lval_targets(prog, lv) {
                    if t.root == Root::Unknown {
                        continue;
                    }
                    changed |= self.add_pts(key(prog, &t, &ty), src.clone());
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn add_pts(&mut self, k: AbsKind, s: BTreeSet<Target>) -> bool {
        let set = self.pts.entry(k).or_default();
        let before = set.len();
        set.extend(s);
        set.len() != before
    }

    // ------------------------------------------------------------------ accesses

    fn intern(&mut self, prog: &Program, k: AbsKind, ty: &CType) -> AbsLoc {
        if let Some(a) = self.index.get(&k) {
            return *a;
        }
        let name = match &k {
            AbsKind::Var(v) => prog.var(*v).name.clone(),
            AbsKind::Cell(v, path) => cell_name(prog, *v, path),
            AbsKind::Heap(site, t) => format!("heap#{}:{t}", site.0),
            AbsKind::Region(t) => format!("*{t}"),
        };
        let strong = match &k {
            AbsKind::Var(v) | AbsKind::Cell(v, _) => single_object(prog, *v) && !matches!(&k, AbsKind::Cell(v, p) if crosses_array(prog, *v, p)),
            _ => false,
        };
        // A cell holds values of its declared type, whatever type the access that first
        // reached it had (a byte view, a pointer from another member).
        let declared = match &k {
            AbsKind::Var(v) => Some(prog.var(*v).ty.clone()),
            AbsKind::Cell(v, path) => type_at(prog, *v, path).filter(|t| t.is_scalar()),
            _ => None,
        };
        let ty = declared.as_ref().unwrap_or(ty);
        let id = AbsLoc(self.locs.len() as u32);
        self.locs.push(AbsLocInfo { name, kind: k.clone(), strong, shared: shared(prog, &k), ty: ty.scalar(prog.data_model) });
        self.index.insert(k, id);
        id
    }

    /// Interns the locations an lvalue designates; returns them and whether a write is strong.
    fn resolve(&mut self, prog: &Program, lv: &Lval) -> (Vec<AbsLoc>, bool) {
        let ty = prog.lval_type(lv);
        let targets = self.lval_targets(prog, lv);
        let single = targets.len() == 1;
        let mut out = Vec::new();
        let mut all_strong = single;
        for t in &targets {
            let k = key(prog, t, &ty);
            all_strong &= strong(prog, t, &k);
            let a = self.intern(prog, k, &ty);
            if !out.contains(&a) {
                out.push(a);
            }
        }
        (out, all_strong && single)
    }

    fn access_of(&mut self, prog: &Program, action: &Action) -> Access {
        let mut acc = Access::default();
        let mut reads: Vec<&Lval> = Vec::new();
        match action {
            Action::Assign(lv, e) => {
                lv.for_each_load_inside(&mut |l| reads.push(l));
                e.for_each_load(&mut |l| reads.push(l));
                self.write(prog, lv, &mut acc);
            }
            Action::Alloc(lv, _, _) => {
                lv.for_each_load_inside(&mut |l| reads.push(l));
                self.write(prog, lv, &mut acc);
            }
            Action::Assume(e) | Action::Assert(_, e) => {
                e.for_each_load(&mut |l| reads.push(l));
                // Refining a summary (or one of several targets) by a condition on what was read
                // would be unsound for the rest, so only strong single locations count as
                // modified (DUET §3).
                for l in &reads {
                    let (ts, strong) = self.resolve(prog, l);
                    if strong {
                        push_unique(&mut acc.mods, ts[0]);
                        push_unique(&mut acc.kills, ts[0]);
                    }
                }
            }
            Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => {
                lv.for_each_load_inside(&mut |l| reads.push(l));
            }
            Action::Fork { handle, arg, .. } => {
                if let Some(e) = arg {
                    e.for_each_load(&mut |l| reads.push(l));
                }
                if let Some(h) = handle {
                    h.for_each_load_inside(&mut |l| reads.push(l));
                    self.write(prog, h, &mut acc);
                }
            }
            Action::Join(e) => e.for_each_load(&mut |l| reads.push(l)),
            Action::Skip | Action::AtomicBegin | Action::AtomicEnd | Action::Halt(_) => {}
        }
        for l in reads {
            let (ts, _) = self.resolve(prog, l);
            for a in ts {
                push_unique(&mut acc.refs, a);
            }
        }
        acc.mods.sort();
        acc.refs.sort();
        acc.kills.sort();
        acc
    }

    fn write(&mut self, prog: &Program, lv: &Lval, acc: &mut Access) {
        let (ts, strong) = self.resolve(prog, lv);
        for a in ts {
            push_unique(&mut acc.mods, a);
            if strong {
                push_unique(&mut acc.kills, a);
            } else {
                push_unique(&mut acc.refs, a);
            }
        }
    }

    /// Identifies the mutex object an lvalue designates.
    fn lock_ref(&mut self, prog: &Program, lv: &Lval) -> LockRef {
        let targets = self.lval_targets(prog, lv);
        let [t] = targets.as_slice() else { return LockRef::Unknown };
        let Root::Var(root) = t.root else { return LockRef::Unknown };
        // A thread-local mutex object exists once per thread, so holding "it" excludes nobody.
        if t.indexed || !prog.var(root).is_global() || crosses_array(prog, root, &t.path) {
            return LockRef::Unknown;
        }
        let kind = AbsKind::Cell(root, t.path.clone());
        if let Some(id) = self.lock_index.get(&kind) {
            return LockRef::Exact(*id);
        }
        let id = LockId(self.locks.len() as u32);
        self.locks.push(cell_name(prog, root, &t.path));
        self.lock_index.insert(kind, id);
        LockRef::Exact(id)
    }
}

impl fmt::Display for AbsLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "m{}", self.0)
    }
}

fn push_unique<T: PartialEq>(v: &mut Vec<T>, x: T) {
    if !v.contains(&x) {
        v.push(x);
    }
}

/// The abstract location of a target accessed at a type.
fn key(prog: &Program, t: &Target, access: &CType) -> AbsKind {
    match &t.root {
        Root::Var(v) => {
            // A scalar variable is one cell however it was reached (`p = &x; p[0]`).
            if t.path.is_empty() && prog.var(*v).ty.is_scalar() {
                AbsKind::Var(*v)
            } else {
                // The members of a union share their storage: one location for all of them.
                let path = match union_at(prog, *v, &t.path) {
                    Some(n) => t.path[..n].to_vec(),
                    None => t.path.clone(),
                };
                AbsKind::Cell(*v, path)
            }
        }
        Root::Heap(site) => AbsKind::Heap(*site, region_key(access)),
        Root::Unknown => AbsKind::Region(region_key(access)),
    }
}

/// Whether a write to this target replaces the value of one concrete cell.
fn strong(prog: &Program, t: &Target, k: &AbsKind) -> bool {
    match (&t.root, k) {
        (Root::Var(v), AbsKind::Var(_)) => single_object(prog, *v),
        (Root::Var(v), AbsKind::Cell(_, p)) => !t.indexed && single_object(prog, *v) && !crosses_array(prog, *v, p) && union_at(prog, *v, &t.path).is_none(),
        _ => false,
    }
}

/// Whether a variable is one object for every thread that can reach it: a global, or a
/// local whose address never leaves its thread or whose template runs once.
fn single_object(prog: &Program, v: VarId) -> bool {
    let var = prog.var(v);
    match var.kind {
        VarKind::Global => true,
        VarKind::ThreadLocal => !var.addr_taken,
        VarKind::Local(t) | VarKind::Temp(t) => !var.addr_taken || prog.template(t).multiplicity == Multiplicity::One,
    }
}

fn shared(prog: &Program, k: &AbsKind) -> bool {
    match k {
        AbsKind::Var(v) | AbsKind::Cell(v, _) => {
            let var = prog.var(*v);
            // A local whose address is taken may be handed to another thread.
            var.is_global() || var.addr_taken
        }
        AbsKind::Heap(..) | AbsKind::Region(_) => true,
    }
}

/// How many steps of a field path lead to a union, whose member the next step selects.
fn union_at(prog: &Program, root: VarId, path: &[u32]) -> Option<usize> {
    let mut ty = prog.var(root).ty.clone();
    for (n, &i) in path.iter().enumerate() {
        while let CType::Array(e, _) = ty {
            ty = *e;
        }
        let CType::Record(r) = ty else { return None };
        let rec = &prog.records[r.0 as usize];
        if rec.is_union {
            return Some(n);
        }
        ty = rec.fields.get(i as usize)?.1.clone();
    }
    None
}

/// Whether the member of `root` at `path` (arrays stepped through) is a `rec` record.
fn record_at(prog: &Program, root: VarId, path: &[u32], rec: super::RecordId) -> bool {
    let mut ty = &prog.var(root).ty;
    for i in path.iter().map(Some).chain([None]) {
        while let CType::Array(e, _) = ty {
            ty = e;
        }
        let CType::Record(r) = ty else { return false };
        match i {
            Some(&i) => match prog.records[r.0 as usize].fields.get(i as usize) {
                Some((_, t)) => ty = t,
                None => return false,
            },
            None => return *r == rec,
        }
    }
    false
}

/// Whether the declared type along a field path contains an array (a summary location).
fn crosses_array(prog: &Program, root: VarId, path: &[u32]) -> bool {
    let mut ty = prog.var(root).ty.clone();
    for &i in path {
        if matches!(ty, CType::Array(..)) {
            return true;
        }
        match ty {
            CType::Record(r) => match prog.records[r.0 as usize].fields.get(i as usize) {
                Some((_, t)) => ty = t.clone(),
                None => return true,
            },
            _ => return true,
        }
    }
    matches!(ty, CType::Array(..))
}

/// Whether the member of `root` at `path` is itself an array (arrays on the way to it
/// stepped through).
fn is_array_at(prog: &Program, root: VarId, path: &[u32]) -> bool {
    matches!(member_at(prog, root, path), Some(CType::Array(..)))
}

/// The declared type of the member of `root` at `path`, arrays on the way to it stepped
/// through, if the path fits the declared type.
fn member_at(prog: &Program, root: VarId, path: &[u32]) -> Option<CType> {
    let mut ty = prog.var(root).ty.clone();
    for &i in path {
        while let CType::Array(e, _) = ty {
            ty = *e;
        }
        let CType::Record(r) = ty else { return None };
        ty = prog.records[r.0 as usize].fields.get(i as usize)?.1.clone();
    }
    Some(ty)
}

/// The declared type of the member of `root` at `path` (arrays stepped through), if the
/// path fits the declared type.
fn type_at(prog: &Program, root: VarId, path: &[u32]) -> Option<CType> {
    let mut ty = member_at(prog, root, path)?;
    while let CType::Array(e, _) = ty {
        ty = *e;
    }
    Some(ty)
}

/// Appends a target for every scalar member inside `ty`, the type of `t`'s member, as a
/// summary (which of them an access touches is not known).
fn scalar_leaves(prog: &Program, t: &Target, ty: &CType, depth: u32, out: &mut Vec<Target>) {
    match ty {
        CType::Array(e, _) => scalar_leaves(prog, t, e, depth, out),
        CType::Record(r) if depth < 32 => {
            for (i, (_, fty)) in prog.records[r.0 as usize].fields.iter().enumerate() {
                let mut leaf = t.clone();
                leaf.path.push(i as u32);
                scalar_leaves(prog, &leaf, fty, depth + 1, out);
            }
        }
        _ => {
            let mut leaf = t.clone();
            leaf.indexed = true;
            out.push(leaf);
        }
    }
}

/// Whether a value of this type holds a scalar wider than a byte.
fn has_wide_scalar(prog: &Program, ty: &CType, depth: u32) -> bool {
    match ty {
        CType::Bool | CType::Void => false,
        CType::Int(i, _) => i.bits > 8,
        CType::Array(e, _) => has_wide_scalar(prog, e, depth),
        CType::Record(r) => depth >= 32 || prog.records[r.0 as usize].fields.iter().any(|(_, t)| has_wide_scalar(prog, t, depth + 1)),
        _ => true,
    }
}

fn cell_name(prog: &Program, root: VarId, path: &[u32]) -> String {
    let mut name = prog.var(root).name.clone();
    let mut ty = prog.var(root).ty.clone();
    for &i in path {
        while let CType::Array(e, _) = ty {
            name.push_str("[*]");
            ty = *e;
        }
        if let CType::Record(r) = ty {
            // A path can outgrow the declared type when memory is reached through a cast.
            let Some((fname, fty)) = prog.records[r.0 as usize].fields.get(i as usize) else {
                name.push_str(".?");
                break;
            };
            name.push('.');
            name.push_str(fname);
            ty = fty.clone();
        } else {
            break;
        }
    }
    if matches!(ty, CType::Array(..)) {
        name.push_str("[*]");
    }
    name
}

/// The region an access to unknown memory of this type falls into.
pub(crate) fn region_key(t: &CType) -> String {
    match t {
        CType::Bool => "_Bool".into(),
        // Signedness is ignored: C lets signed and unsigned variants of a type alias.
        CType::Int(i, _) => format!("int{}", i.bits),
        CType::Pointer(_) | CType::Function => "ptr".into(),
        CType::Float(_) => "float".into(),
        CType::Array(e, _) => region_key(e),
        CType::Mutex => "mutex".into(),
        CType::Opaque(n) => n.clone(),
        CType::Record(r) => format!("record{}", r.0),
        CType::Void => "void".into(),
    }
}

/// The variables (locals and temporaries whose address is not taken) that every assignment
/// sets to the same integer constant, with that constant.
pub(crate) fn single_constants(prog: &Program) -> HashMap<VarId, i128> {
    let mut seen: HashMap<VarId, Option<i128>> = HashMap::new();
    for loc in &prog.locs {
        let (v, c) = match &loc.action {
            Action::Assign(Lval::Var(v), Expr::Const(c, _)) => (*v, Some(*c)),
            Action::Assign(Lval::Var(v), _) | Action::Alloc(Lval::Var(v), ..) | Action::Fork { handle: Some(Lval::Var(v)), .. } => (*v, None),
            _ => continue,
        };
        let e = seen.entry(v).or_insert(c);
        if *e != c {
            *e = None;
        }
    }
    seen.into_iter().filter(|(v, _)| !prog.var(*v).addr_taken && matches!(prog.var(*v).kind, VarKind::Local(_) | VarKind::Temp(_))).filter_map(|(v, c)| Some((v, c?))).collect()
}

/// The constant an expression always has, given the variables that only ever hold one; a
/// cast counts only for 0 and 1, which every integer type keeps.
pub(crate) fn constant_value(e: &Expr, consts: &HashMap<VarId, i128>) -> Option<i128> {
    match e {
        Expr::Const(c, _) => Some(*c),
        Expr::Load(Lval::Var(v)) => consts.get(v).copied(),
        Expr::Cast(_, x) => constant_value(x, consts).filter(|c| *c == 0 || *c == 1),
        _ => None,
    }
}
