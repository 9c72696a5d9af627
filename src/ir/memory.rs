//! DUET's type-based alias model (§6.1): abstract memory locations, per-location
//! `mod`/`ref`/`kill` sets, and lock identities.
//!
//! - A variable whose address is never taken is its own abstract location and gets strong
//!   updates; a field path of such a struct variable is one too. An array inside it is one
//!   summary cell with weak updates.
//! - Every other access (through a pointer, or to a variable whose address is taken) goes to
//!   one weakly-updated region per scalar type. This is sound when memory is accessed through
//!   pointers of its declared type (C's strict aliasing); a program that reinterprets memory
//!   through casts can fool it, as it fooled DUET.

use super::{Action, CType, Expr, LocId, Lval, Program, Ty, VarId, VarKind};
use hashbrown::HashMap;
use std::fmt;

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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AbsKind {
    /// A scalar variable whose address is never taken.
    Var(VarId),
    /// A field path (field positions) of a variable whose address is never taken; an array
    /// on the path makes it a summary.
    Cell(VarId, Vec<u32>),
    /// All objects of one scalar type reachable through pointers.
    Region(String),
}

/// Facts about one abstract location.
#[derive(Clone, Debug)]
pub struct AbsLocInfo {
    /// Printable name (`x`, `s.f`, `a[*]`, `*int32`).
    pub name: String,
    /// What it stands for.
    pub kind: AbsKind,
    /// One concrete cell, so a write replaces its value; otherwise writes are weak.
    pub strong: bool,
    /// Visible to several threads (globals and pointer regions).
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

/// Index of a definite lock in [`MemoryModel::locks`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LockId(pub u32);

/// Which lock a lock operation works on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LockRef {
    /// One specific global mutex object.
    Exact(LockId),
    /// A mutex the analysis cannot pin down (an array element, through an unknown pointer, a
    /// thread-local mutex): it gives no mutual exclusion facts.
    Unknown,
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
    /// Pointer variables that can only point to one object (or be null).
    must_point: HashMap<VarId, Lval>,
}

impl MemoryModel {
    /// Builds the model for a lowered program.
    pub fn build(prog: &Program) -> MemoryModel {
        let mut m = MemoryModel { must_point: must_point_targets(prog), ..Default::default() };
        for loc in &prog.locs {
            let access = m.access_of(prog, &loc.action);
            m.access.push(access);
            let lock = match &loc.action {
                Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => Some(m.lock_ref(prog, lv)),
                _ => None,
            };
            m.lock_of.push(lock);
        }
        m
    }

    /// The info of an abstract location.
    pub fn info(&self, a: AbsLoc) -> &AbsLocInfo {
        &self.locs[a.index()]
    }

    /// The accesses of an IR location.
    pub fn access(&self, l: LocId) -> &Access {
        &self.access[l.index()]
    }

    /// The abstract location an lvalue designates, if the program contains it.
    pub fn lookup(&self, prog: &Program, lv: &Lval) -> Option<AbsLoc> {
        let (kind, _) = self.key(prog, lv);
        self.index.get(&kind).copied()
    }

    /// Whether an lvalue designates memory that several threads can see.
    pub fn is_shared(&self, prog: &Program, lv: &Lval) -> bool {
        match self.key(prog, lv).0 {
            AbsKind::Var(v) | AbsKind::Cell(v, _) => prog.var(v).is_global(),
            AbsKind::Region(_) => true,
        }
    }

    /// All abstract locations, in id order.
    pub fn all(&self) -> impl Iterator<Item = AbsLoc> {
        (0..self.locs.len() as u32).map(AbsLoc)
    }

    fn intern(&mut self, prog: &Program, lv: &Lval) -> AbsLoc {
        let (kind, strong) = self.key(prog, lv);
        if let Some(a) = self.index.get(&kind) {
            return *a;
        }
        let ty = prog.lval_type(lv).scalar(prog.data_model);
        let (name, shared) = match &kind {
            AbsKind::Var(v) => (prog.var(*v).name.clone(), prog.var(*v).is_global()),
            AbsKind::Cell(v, path) => (cell_name(prog, *v, path), prog.var(*v).is_global()),
            AbsKind::Region(t) => (format!("*{t}"), true),
        };
        let id = AbsLoc(self.locs.len() as u32);
        self.locs.push(AbsLocInfo { name, kind: kind.clone(), strong, shared, ty });
        self.index.insert(kind, id);
        id
    }

    /// Maps an lvalue to its abstract location and whether writes to it are strong.
    fn key(&self, prog: &Program, lv: &Lval) -> (AbsKind, bool) {
        if let Some((root, path, indexed)) = direct_path(lv) {
            let var = prog.var(root);
            if !var.addr_taken {
                if path.is_empty() && !indexed && var.ty.is_scalar() {
                    return (AbsKind::Var(root), true);
                }
                return (AbsKind::Cell(root, path), !indexed);
            }
        }
        (AbsKind::Region(region_key(&prog.lval_type(lv))), false)
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
                // Refining a summary by a condition on one of its cells would be unsound for
                // the others, so only strong locations count as modified (DUET §3).
                for l in &reads {
                    let a = self.intern(prog, l);
                    if self.info(a).strong {
                        push_unique(&mut acc.mods, a);
                        push_unique(&mut acc.kills, a);
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
            let a = self.intern(prog, l);
            push_unique(&mut acc.refs, a);
        }
        acc.mods.sort();
        acc.refs.sort();
        acc.kills.sort();
        acc
    }

    fn write(&mut self, prog: &Program, lv: &Lval, acc: &mut Access) {
        let a = self.intern(prog, lv);
        push_unique(&mut acc.mods, a);
        if self.info(a).strong {
            push_unique(&mut acc.kills, a);
        } else {
            push_unique(&mut acc.refs, a);
        }
    }

    /// Identifies the mutex object an lvalue designates.
    fn lock_ref(&mut self, prog: &Program, lv: &Lval) -> LockRef {
        let target = match lv {
            Lval::Deref(e, _) => match e.as_ref() {
                Expr::Load(Lval::Var(p)) => self.must_point.get(p).cloned(),
                _ => None,
            },
            other => Some(other.clone()),
        };
        let Some(target) = target else { return LockRef::Unknown };
        let Some((root, path, indexed)) = direct_path(&target) else { return LockRef::Unknown };
        // A thread-local mutex object exists once per thread, so holding "it" excludes nobody.
        if indexed || !prog.var(root).is_global() {
            return LockRef::Unknown;
        }
        let kind = AbsKind::Cell(root, path.clone());
        if let Some(id) = self.lock_index.get(&kind) {
            return LockRef::Exact(*id);
        }
        let id = LockId(self.locks.len() as u32);
        self.locks.push(cell_name(prog, root, &path));
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

/// Root variable, field path and whether an index occurs, for lvalues without dereference.
fn direct_path(lv: &Lval) -> Option<(VarId, Vec<u32>, bool)> {
    match lv {
        Lval::Var(v) => Some((*v, Vec::new(), false)),
        Lval::Deref(..) => None,
        Lval::Index(b, _) => {
            let (v, p, _) = direct_path(b)?;
            Some((v, p, true))
        }
        Lval::Field(b, _, i) => {
            let (v, mut p, ix) = direct_path(b)?;
            p.push(*i);
            Some((v, p, ix))
        }
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
            let (fname, fty) = &prog.records[r.0 as usize].fields[i as usize];
            name.push('.');
            name.push_str(fname);
            ty = fty.clone();
        }
    }
    if matches!(ty, CType::Array(..)) {
        name.push_str("[*]");
    }
    name
}

/// The region an access through a pointer of this type falls into.
pub fn region_key(t: &CType) -> String {
    match t {
        CType::Bool => "_Bool".into(),
        // Signedness is ignored: C lets signed and unsigned variants of a type alias.
        CType::Int(i, _) => format!("int{}", i.bits),
        CType::Pointer(_) | CType::Function => "ptr".into(),
        CType::Float => "float".into(),
        CType::Array(e, _) => region_key(e),
        CType::Mutex => "mutex".into(),
        CType::Opaque(n) => n.clone(),
        CType::Record(r) => format!("record{}", r.0),
        CType::Void => "void".into(),
    }
}

/// Pointer variables (never address-taken) whose every assignment stores `&X` for one `X`,
/// or a copy of another such pointer: dereferencing them, when it does not crash on null,
/// reaches `X`. Used to identify mutexes passed around by pointer.
fn must_point_targets(prog: &Program) -> HashMap<VarId, Lval> {
    #[derive(Clone, PartialEq)]
    enum T {
        Unset,
        To(Lval),
        Many,
    }
    let mut state: HashMap<VarId, T> = HashMap::new();
    let mut copies: Vec<(VarId, VarId)> = Vec::new();
    let assign = |state: &mut HashMap<VarId, T>, v: VarId, t: T| {
        let cur = state.entry(v).or_insert(T::Unset);
        *cur = match (cur.clone(), t) {
            (T::Unset, t) => t,
            (T::To(a), T::To(b)) if a == b => T::To(a),
            _ => T::Many,
        };
    };
    for loc in &prog.locs {
        let (lv, e) = match &loc.action {
            Action::Assign(lv, e) => (lv, Some(e)),
            Action::Alloc(lv, ..) => (lv, None),
            Action::Fork { handle: Some(h), .. } => (h, None),
            _ => continue,
        };
        let Lval::Var(p) = lv else { continue };
        if !matches!(prog.var(*p).ty, CType::Pointer(_)) {
            continue;
        }
        match e {
            Some(Expr::AddrOf(target)) if direct_path(target).is_some() => assign(&mut state, *p, T::To(target.clone())),
            Some(Expr::Cast(_, inner)) if matches!(inner.as_ref(), Expr::Const(0, _)) => {}
            Some(Expr::Const(0, _)) => {}
            Some(Expr::Load(Lval::Var(q))) => copies.push((*p, *q)),
            _ => assign(&mut state, *p, T::Many),
        }
    }
    // Copies: iterate to a fixpoint over the small copy graph.
    loop {
        let mut changed = false;
        for &(p, q) in &copies {
            let src = state.get(&q).cloned().unwrap_or(T::Unset);
            let src = if prog.var(q).addr_taken || !matches!(prog.var(q).ty, CType::Pointer(_)) { T::Many } else { src };
            let before = state.get(&p).cloned().unwrap_or(T::Unset);
            if src != T::Unset {
                assign(&mut state, p, src);
            }
            if state.get(&p).cloned().unwrap_or(T::Unset) != before {
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    state
        .into_iter()
        .filter(|(p, _)| !prog.var(*p).addr_taken && !matches!(prog.var(*p).kind, VarKind::ThreadLocal))
        .filter_map(|(p, t)| match t {
            T::To(lv) => Some((p, lv)),
            _ => None,
        })
        .collect()
}
