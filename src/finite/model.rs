//! The finite-state projection of an IR program: thread slots, cells and the one-thread step.
//!
//! A program state is a global store and one local store per thread. The global store holds
//! the tracked shared cells (scalars and array elements), one cell per definite mutex, whether
//! an atomic section runs and whether the program has stopped. A local store holds the
//! program counter, the tracked locals of the thread's template and whether the thread owns
//! the running atomic section (kept locally so that a state says nothing about which thread
//! is which: threads running the same code are interchangeable).
//!
//! Threads are grouped into [`Class`]es of interchangeable threads: the instances of one
//! template, and templates whose code is identical up to the naming of their locals (checked
//! location by location), as the creations of one start routine. A class has a fixed number of
//! threads, or unboundedly many for a template created in a loop (the parameterized case).
//!
//! Cells are tracked when an assertion or a branch condition depends on them (a cone of
//! influence) and nothing can reach them through a pointer. Every other value reads as
//! [`TOP`], "any value", and writes to it are dropped; so the projection over-approximates
//! every execution of the C program. Two further over-approximations keep the step
//! thread-modular (it changes only the global store and the stepping thread's local store):
//! a created thread may start at any moment after the program's start (not only once its
//! `pthread_create` has run), and `pthread_join` does not wait, unless it is the root's join of
//! a thread it alone created through a handle nothing else writes (see `Model::waits`).

use crate::ir::rename::Shape;
use crate::ir::{self, Action, AssertId, BinOp, CType, Expr, Halt, LocId, LockRef, Lval, Multiplicity, Program, TemplateId, Ty, UnOp, VarId, VarKind};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

/// "Any value": a cell the projection does not track, or a value it cannot compute.
pub const TOP: i128 = i128::MIN;

/// Program counter of a thread that has not started yet.
pub const NOT_STARTED: i128 = -1;

/// Arrays longer than this are not tracked (each element is a cell).
const MAX_ARRAY: u64 = 64;

/// Where a tracked variable lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Home {
    /// Global cells starting at this index.
    Global(usize),
    /// Local cells of its template starting at this index (after the program counter).
    Local(usize),
}

/// One thread of the finite-state program (classes of unboundedly many threads have none).
#[derive(Clone, Debug)]
pub struct Slot {
    /// The template it was created as.
    pub template: TemplateId,
    /// Which instance of the template (0 unless the template has several).
    pub instance: u32,
    /// Display name: the template's, with `#k` for the k-th instance of several.
    pub name: String,
    /// Its class of interchangeable threads.
    pub class: usize,
}

/// Interchangeable threads: they run the same code from the same initial local store.
#[derive(Clone, Debug)]
pub struct Class {
    /// The template whose code every member runs (the others are identical to it).
    pub template: TemplateId,
    /// The templates merged into the class.
    pub members: Vec<TemplateId>,
    /// Number of threads, or `None` for unboundedly many.
    pub count: Option<u32>,
    /// Display name.
    pub name: String,
}

/// A thread's step result: the new global store and the new local store.
pub type Succ = (Box<[i128]>, Box<[i128]>);

/// The projection: which cells exist and how a thread steps.
pub struct Model<'p> {
    /// The program.
    pub prog: &'p Program,
    /// The classes of interchangeable threads; class 0 is the root thread alone.
    pub classes: Vec<Class>,
    /// The threads of the classes with a fixed count, grouped by class; slot 0 runs the root.
    pub slots: Vec<Slot>,
    home: HashMap<VarId, (Home, u32)>,
    /// Names of the global cells, for displays and exception files.
    pub global_names: Vec<String>,
    /// The global cells that hold a `pthread_rwlock_t`, shown as words (`write-locked`).
    rwlock_cells: HashSet<usize>,
    n_globals: usize,
    lock_base: usize,
    owner_cell: usize,
    halted_cell: usize,
    /// Number of local cells per template (without the program counter and the owner bit).
    local_len: Vec<usize>,
    /// Values beyond this magnitude are widened to [`TOP`], which keeps counters finite.
    pub bound: i128,
    /// Per IR location: the local cells (indexes into a local store) dead there.
    dead: Vec<Vec<usize>>,
    /// Per IR location: whether its action touches the thread's own local store only.
    local_action: Vec<bool>,
    /// The initial global store (after the root's deterministic prefix).
    pub init_global: Box<[i128]>,
    /// The initial local store of every class.
    pub init_locals: Vec<Box<[i128]>>,
    /// Another analysis's facts on the cells (see [`Model::narrow`]).
    narrowing: Narrowing,
    /// Steps the narrowing cut or narrowed so far.
    cut: AtomicU64,
    /// Per `pthread_join` location that waits: the global cell set when the joined thread ends.
    joins: HashMap<LocId, usize>,
    /// Per template whose end a join waits for: that cell.
    done: HashMap<TemplateId, usize>,
}

/// Facts of every execution, on the projection's cells and locations (see [`Model::narrow`]).
#[derive(Default)]
struct Narrowing {
    /// Per location: some thread may reach it (empty: every location may be reached).
    reached: Vec<bool>,
    /// Per location: the tracked cells its action reads, as (global, index, lo, hi).
    cells: Vec<Vec<(bool, usize, i128, i128)>>,
    /// Per location: untracked scalar variables that every read there finds at this value.
    consts: Vec<Vec<(VarId, i128)>>,
}

/// A value the projection lost ([`TOP`]) is split into the values a narrowing allows when they
/// are at most this many.
const MAX_SPLIT: i128 = 8;

/// At most this many stores come from splitting the lost values of one step.
const MAX_SPLIT_STORES: usize = 64;

/// Why the projection cannot be built.
pub type Decline = String;

impl<'p> Model<'p> {
    /// Builds the projection, merging identical templates into one class; `instances` is how
    /// many instances an unbounded template gets (`None`: unboundedly many).
    pub fn build(prog: &'p Program, instances: Option<u32>) -> Result<Model<'p>, Decline> {
        Self::build_with(prog, instances, true)
    }

    /// Builds the projection; `merge` allows merging the identical templates of different
    /// creation sites (exception files name templates, so they keep them apart).
    pub fn build_with(prog: &'p Program, instances: Option<u32>, merge: bool) -> Result<Model<'p>, Decline> {
        Self::build_counted(prog, instances, &HashMap::new(), merge)
    }

    /// Builds the projection; a template created only by counted loops gets `counts`' number
    /// of threads, the most any execution creates (extra threads, which may start at any
    /// moment, only add behaviours).
    pub fn build_counted(prog: &'p Program, instances: Option<u32>, counts: &HashMap<TemplateId, u32>, merge: bool) -> Result<Model<'p>, Decline> {
        if let Some(u) = prog.unsupported.first() {
            return Err(format!("unsupported construct at {}: {}", prog.span_str(u.span), u.construct));
        }
        let tracked = tracked_vars(prog);
        let mut home = HashMap::new();
        let mut global_names = Vec::new();
        let mut rwlock_cells = HashSet::new();
        let mut local_len = vec![0usize; prog.templates.len()];
        for (vi, var) in prog.vars.iter().enumerate() {
            let v = VarId(vi as u32);
            let Some(len) = tracked.get(&v).copied() else { continue };
            match var.kind {
                VarKind::Global => {
                    home.insert(v, (Home::Global(global_names.len()), len));
                    let rwlock = ir::display::is_rwlock(&var.ty);
                    for k in 0..len {
                        if rwlock {
                            rwlock_cells.insert(global_names.len());
                        }
                        global_names.push(if matches!(var.ty, CType::Array(..)) { format!("{}[{k}]", var.source_name) } else { var.source_name.clone() });
                    }
                }
                VarKind::Local(t) | VarKind::Temp(t) => {
                    home.insert(v, (Home::Local(local_len[t.index()]), len));
                    local_len[t.index()] += len as usize;
                }
                VarKind::ThreadLocal => {}
            }
        }
        let n_globals = global_names.len();
        let lock_base = n_globals;
        for l in &prog.memory.locks {
            global_names.push(format!("lock {l}"));
        }
        let owner_cell = global_names.len();
        global_names.push("atomic owner".into());
        let halted_cell = global_names.len();
        global_names.push("halted".into());
        let mut m = Model {
            prog,
            classes: Vec::new(),
            slots: Vec::new(),
            home,
            global_names,
            rwlock_cells,
            n_globals,
            lock_base,
            owner_cell,
            halted_cell,
            local_len,
            bound: value_bound(prog, 0),
            dead: Vec::new(),
            local_action: Vec::new(),
            init_global: Box::new([]),
            init_locals: Vec::new(),
            narrowing: Narrowing::default(),
            cut: AtomicU64::new(0),
            joins: HashMap::new(),
            done: HashMap::new(),
        };
        m.dead = m.dead_cells();
        m.local_action = prog.locs.iter().map(|l| m.local_action(&l.action)).collect();
        m.make_classes(instances, counts, merge);
        for (j, t) in m.waits() {
            let c = *m.done.entry(t).or_insert_with(|| {
                m.global_names.push(format!("ended {}", prog.template(t).name));
                m.global_names.len() - 1
            });
            m.joins.insert(j, c);
        }
        let unbounded = m.classes.iter().any(|c| c.count.is_none());
        // Any bound is sound; with unboundedly many threads counters are widened past it.
        m.bound = value_bound(prog, m.slots.len() + if unbounded { 2 } else { 0 });
        m.initial_state()?;
        Ok(m)
    }

    /// The joins that wait, with the template they wait for: COARSEN's definite joins (the
    /// root joins the single instance of a template it created first on every path), kept only
    /// when that template is the only thread of a class of its own with one instance. The joined
    /// thread is then known, and the join can wait for its end on a global cell the thread sets
    /// as it ends, so the step stays thread-modular.
    fn waits(&self) -> Vec<(LocId, TemplateId)> {
        // The class check matters beyond the template's multiplicity: a merged class would make
        // the 'ended' cell stand for several threads, one of which may still run.
        crate::ir::joins::definite(self.prog).into_iter().filter(|(_, t)| self.classes.iter().any(|c| c.members == [*t] && c.count == Some(1))).collect()
    }

    /// Index of the global cell holding a global variable (its first element for arrays).
    pub fn global_cell(&self, name: &str) -> Option<usize> {
        self.global_names.iter().position(|n| n == name)
    }

    /// Where the projection keeps a variable: whether in the global store, the index of its
    /// first cell in that store, and its number of cells; `None` when it is not tracked.
    pub fn cell_of(&self, v: VarId) -> Option<(bool, usize, u32)> {
        self.home.get(&v).map(|&(h, len)| match h {
            Home::Global(b) => (true, b, len),
            Home::Local(b) => (false, 1 + b, len),
        })
    }

    /// The local cells (indexes into a local store) a step into `l` forgets, being dead there.
    pub fn dead_at(&self, l: LocId) -> &[usize] {
        &self.dead[l.index()]
    }

    /// Number of global cells.
    pub fn global_len(&self) -> usize {
        self.global_names.len()
    }

    /// The global cell of a definite lock.
    pub fn lock_cell(&self, lock: ir::memory::LockId) -> usize {
        self.lock_base + lock.0 as usize
    }

    /// Number of tracked shared variable cells (without locks, owner and halted).
    pub fn shared_len(&self) -> usize {
        self.n_globals
    }

    /// Restricts every step to what `inv` says of all executions: no thread enters a location
    /// no thread reaches, and a step whose value read lies outside the bounds at its location
    /// is dropped. Both hold of every execution, and the projection is exact on the values it
    /// tracks (a cell holds the value or [`TOP`]), so only steps of no execution go. A lost
    /// value read where the bounds allow only a few is split into those values, and an untracked
    /// variable bounded to one value reads as it. A class of merged templates runs its first
    /// member's locations for all: they get the hull of the members' facts, on globals only
    /// (each member reads its own locals).
    pub fn narrow(&mut self, inv: &super::Invariants) {
        let prog = self.prog;
        let n = prog.locs.len();
        if inv.reached.len() != n || inv.reads.len() != n {
            return;
        }
        let mut nw = Narrowing { reached: vec![true; n], cells: vec![Vec::new(); n], consts: vec![Vec::new(); n] };
        // Where a variable's value lives in the projection; a merged template's local has the
        // cell of the corresponding local of the others (`identical` checks that), so cells,
        // not variables, relate the members' facts.
        #[derive(PartialEq)]
        enum Target {
            Cell(bool, usize),
            Const(VarId),
        }
        let target = |x: VarId, merged: bool| match self.home.get(&x) {
            Some(&(Home::Global(b), 1)) => Some(Target::Cell(true, b)),
            Some(&(Home::Local(b), 1)) => Some(Target::Cell(false, 1 + b)),
            None if !merged || prog.var(x).is_global() => Some(Target::Const(x)),
            _ => None,
        };
        for class in &self.classes {
            let merged = class.members.len() > 1;
            let rep = prog.template(class.template);
            for (k, &at) in rep.locs.iter().enumerate() {
                let copies: Vec<LocId> = class.members.iter().filter_map(|&t| prog.template(t).locs.get(k).copied()).filter(|c| inv.reached[c.index()]).collect();
                nw.reached[at.index()] = !copies.is_empty();
                let Some(&first) = copies.first() else { continue };
                for &(x, _, _) in &inv.reads[first.index()] {
                    if !matches!(prog.var(x).ty, CType::Int(..) | CType::Bool) {
                        continue;
                    }
                    let Some((tlo, thi)) = prog.var(x).ty.scalar(prog.data_model).range(prog.data_model) else { continue };
                    let Some(t) = target(x, merged) else { continue };
                    // The hull over the copies, clamped to the type; a copy that does not
                    // bound the variable leaves it unbounded.
                    let mut hull: Option<(i128, i128)> = None;
                    for c in &copies {
                        let Some(&(_, lo, hi)) = inv.reads[c.index()].iter().find(|r| target(r.0, merged).as_ref() == Some(&t)) else {
                            hull = None;
                            break;
                        };
                        let (lo, hi) = (lo.unwrap_or(tlo).max(tlo), hi.unwrap_or(thi).min(thi));
                        hull = Some(hull.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
                    }
                    let Some((lo, hi)) = hull else { continue };
                    match t {
                        _ if (lo, hi) == (tlo, thi) => {}
                        Target::Cell(global, c) => nw.cells[at.index()].push((global, c, lo, hi)),
                        Target::Const(_) if lo == hi => nw.consts[at.index()].push((x, lo)),
                        Target::Const(_) => {}
                    }
                }
            }
        }
        self.narrowing = nw;
    }

    /// Steps the narrowing cut or narrowed so far.
    pub fn cut(&self) -> u64 {
        self.cut.load(Ordering::Relaxed)
    }

    fn count_cut(&self) {
        self.cut.fetch_add(1, Ordering::Relaxed);
    }

    /// Whether some thread may stand at `at`, as far as the narrowing knows.
    fn reaches(&self, at: LocId) -> bool {
        self.narrowing.reached.get(at.index()).is_none_or(|&r| r)
    }

    /// The stores a thread at `pc` may really read from: `None` when a value it reads is one
    /// no execution reads there, the stores with lost values split by the narrowing's bounds,
    /// or an empty list when the narrowing changes nothing.
    #[allow(clippy::type_complexity)]
    fn narrowed(&self, pc: LocId, g: &[i128], l: &[i128]) -> Option<Vec<(Vec<i128>, Vec<i128>)>> {
        let Some(reads) = self.narrowing.cells.get(pc.index()) else { return Some(Vec::new()) };
        let mut splits = Vec::new();
        for &(global, c, lo, hi) in reads {
            let v = if global { g[c] } else { l[c] };
            if v == TOP {
                if lo > hi {
                    self.count_cut();
                    return None;
                }
                if hi - lo < MAX_SPLIT && lo >= -self.bound && hi <= self.bound {
                    splits.push((global, c, lo, hi));
                }
            } else if v < lo || v > hi {
                self.count_cut();
                return None;
            }
        }
        if splits.is_empty() {
            return Some(Vec::new());
        }
        let mut pres = vec![(g.to_vec(), l.to_vec())];
        for (global, c, lo, hi) in splits {
            if pres.len() * (hi - lo + 1) as usize > MAX_SPLIT_STORES {
                continue;
            }
            pres = pres
                .into_iter()
                .flat_map(|(g1, l1)| {
                    (lo..=hi).map(move |v| {
                        let (mut g2, mut l2) = (g1.clone(), l1.clone());
                        if global {
                            g2[c] = v;
                        } else {
                            l2[c] = v;
                        }
                        (g2, l2)
                    })
                })
                .collect();
        }
        if pres.len() == 1 {
            return Some(Vec::new());
        }
        self.count_cut();
        Some(pres)
    }

    /// The value every read of untracked `x` at `pc` finds, when the narrowing knows one.
    fn narrowed_const(&self, pc: LocId, x: VarId) -> Option<i128> {
        let v = self.narrowing.consts.get(pc.index())?.iter().find(|c| c.0 == x)?.1;
        self.count_cut();
        Some(v)
    }

    fn initial_state(&mut self) -> Result<(), Decline> {
        let mut g = vec![0i128; self.global_names.len()];
        // Globals are zero-initialised in C; their initialisers are the root's first actions.
        let mut locals: Vec<Box<[i128]>> = self
            .classes
            .iter()
            .map(|c| {
                let n = 1 + self.local_len[c.template.index()];
                let mut l = vec![TOP; n + 1];
                l[0] = NOT_STARTED;
                l[n] = 0;
                l.into_boxed_slice()
            })
            .collect();
        let root = &self.prog.templates[0];
        let mut l0 = locals[0].to_vec();
        l0[0] = root.entry.0 as i128;
        // No other thread exists before the root's first fork, so its deterministic prefix
        // (one successor, no branching, no fork) runs exactly here: initialisers are seen by
        // every thread, which matters for flags like `turn = 1`.
        let mut steps = 0;
        loop {
            let pc = LocId(l0[0] as u32);
            let loc = self.prog.loc(pc);
            let simple = matches!(loc.action, Action::Skip | Action::Assign(..)) && loc.succs.len() == 1 && !loc.atomic;
            if !simple || steps > 100_000 {
                break;
            }
            let mut out = Vec::new();
            self.step(0, &g, &l0, &mut out)?;
            if out.len() != 1 {
                break;
            }
            let (ng, nl) = out.pop().unwrap();
            g = ng.to_vec();
            l0 = nl.to_vec();
            steps += 1;
        }
        locals[0] = l0.into_boxed_slice();
        self.init_global = g.into_boxed_slice();
        self.init_locals = locals;
        Ok(())
    }

    /// Groups the threads into classes: the root alone; then per template, its instances,
    /// joined (when `merge`) by later templates of the same start routine with identical code.
    fn make_classes(&mut self, instances: Option<u32>, counts: &HashMap<TemplateId, u32>, merge: bool) {
        let prog = self.prog;
        let mut classes: Vec<Class> = Vec::new();
        for (ti, t) in prog.templates.iter().enumerate() {
            let tid = TemplateId(ti as u32);
            let count = match (ti, t.multiplicity) {
                (0, _) | (_, Multiplicity::One) => Some(1),
                (_, Multiplicity::Unbounded) => counts.get(&tid).copied().or(instances),
            };
            let same = if ti > 0 && merge { classes.iter().position(|c| c.template.index() > 0 && c.count.is_some() && count.is_some() && self.identical(c.template, tid)) } else { None };
            match same {
                Some(c) => {
                    let cl = &mut classes[c];
                    cl.members.push(tid);
                    cl.count = Some(cl.count.unwrap() + count.unwrap());
                }
                None => classes.push(Class { template: tid, members: vec![tid], count, name: t.name.clone() }),
            }
        }
        for c in &mut classes {
            if c.members.len() > 1 {
                let f = &prog.template(c.template).function;
                let one_routine = c.members.iter().all(|&t| &prog.template(t).function == f);
                c.name = if one_routine { format!("{f} (x{})", c.count.unwrap_or(0)) } else { format!("{} (and {} identical)", prog.template(c.template).name, c.count.unwrap_or(1) - 1) };
            }
        }
        let mut slots = Vec::new();
        for (ci, c) in classes.iter().enumerate() {
            for &t in &c.members {
                let k = match (t.index(), prog.template(t).multiplicity) {
                    (0, _) | (_, Multiplicity::One) => 1,
                    _ => counts.get(&t).copied().or(instances).unwrap_or(0),
                };
                for i in 0..k {
                    let name = if k > 1 { format!("{}#{}", prog.template(t).name, i) } else { prog.template(t).name.clone() };
                    slots.push(Slot { template: t, instance: i, name, class: ci });
                }
            }
        }
        self.classes = classes;
        self.slots = slots;
    }

    /// Whether template `b` behaves exactly as template `a` in the projection: the same actions
    /// and control flow, location by location, with its own locals in place of `a`'s at the
    /// same cells, the same globals, assertions, locks, parameters and dead cells. Source
    /// positions may differ (start routines that only call the same function are identical);
    /// reports then show `a`'s.
    fn identical(&self, a: TemplateId, b: TemplateId) -> bool {
        let prog = self.prog;
        let (ta, tb) = (prog.template(a), prog.template(b));
        if ta.locs.len() != tb.locs.len() || ta.params.len() != tb.params.len() || self.local_len[a.index()] != self.local_len[b.index()] {
            return false;
        }
        let pos_a: HashMap<LocId, usize> = ta.locs.iter().enumerate().map(|(k, &l)| (l, k)).collect();
        let pos_b: HashMap<LocId, usize> = tb.locs.iter().enumerate().map(|(k, &l)| (l, k)).collect();
        if pos_a.get(&ta.entry) != pos_b.get(&tb.entry) {
            return false;
        }
        let mut vmap: HashMap<VarId, VarId> = HashMap::new();
        let mut same_var = |x: VarId, y: VarId| -> bool {
            if x == y {
                return prog.var(x).is_global();
            }
            let (vx, vy) = (prog.var(x), prog.var(y));
            let local_to = |v: &ir::Variable, t: TemplateId| matches!(v.kind, VarKind::Local(u) | VarKind::Temp(u) if u == t);
            if !local_to(vx, a) || !local_to(vy, b) || vx.ty != vy.ty || vx.addr_taken != vy.addr_taken || self.home.get(&x) != self.home.get(&y) {
                return false;
            }
            *vmap.entry(x).or_insert(y) == y
        };
        for (&la, &lb) in ta.locs.iter().zip(&tb.locs) {
            let (x, y) = (prog.loc(la), prog.loc(lb));
            if x.atomic != y.atomic || self.dead[la.index()] != self.dead[lb.index()] || x.succs.len() != y.succs.len() {
                return false;
            }
            if x.succs.iter().zip(&y.succs).any(|(s, t)| pos_a.get(s) != pos_b.get(t) || !pos_a.contains_key(s)) {
                return false;
            }
            if prog.memory.lock_of.get(la.index()) != prog.memory.lock_of.get(lb.index()) {
                return false;
            }
            // The actions must agree up to approximation sites and a renaming of the locals.
            if !Shape::of(&x.action, false).matches(&Shape::of(&y.action, false), &mut same_var) {
                return false;
            }
        }
        ta.params.iter().zip(&tb.params).all(|(&p, &q)| same_var(p, q) && self.fork_argument(a, p) == self.fork_argument(b, q))
    }

    /// The program counter of a local store, if the thread has started.
    pub fn pc(&self, l: &[i128]) -> Option<LocId> {
        (l[0] >= 0).then(|| LocId(l[0] as u32))
    }

    /// Whether the next step of a thread in local store `l` touches its own local store only:
    /// a start, or a `Skip`, assignment or `assume` that names no global cell. Such a step
    /// commutes with every step of every other thread, and whether it is enabled depends on
    /// nothing they can change.
    pub fn local_step(&self, l: &[i128]) -> bool {
        self.pc(l).is_none_or(|pc| self.local_action[pc.index()])
    }

    fn local_action(&self, action: &Action) -> bool {
        if !matches!(action, Action::Skip | Action::Assign(..) | Action::Assume(_)) {
            return false;
        }
        let mut global = false;
        ir::visit::action_vars(action, &mut |v| global |= matches!(self.home.get(&v), Some((Home::Global(_), _))));
        !global
    }

    /// Whether a thread in local store `l` may step at all in global store `g` (no other
    /// thread's atomic section runs, the program has not stopped).
    pub fn may_step(&self, g: &[i128], l: &[i128]) -> bool {
        g[self.halted_cell] == 0 && (g[self.owner_cell] == 0 || l[l.len() - 1] != 0)
    }

    /// The assertion a thread in local store `l` stands at, with its location, when it may
    /// fail there in global store `g`: its condition is not known to hold and the thread may
    /// step.
    pub fn may_fail(&self, g: &[i128], l: &[i128]) -> Option<(LocId, AssertId)> {
        let pc = self.pc(l)?;
        let Action::Assert(a, cond) = &self.prog.loc(pc).action else { return None };
        if !self.may_step(g, l) {
            return None;
        }
        // No execution evaluates the assertion on values the narrowing rules out.
        let fails = match self.narrowed(pc, g, l) {
            None => false,
            Some(pres) if pres.is_empty() => self.holds(g, l, cond) != Some(true),
            Some(pres) => pres.iter().any(|(g1, l1)| self.holds(g1, l1, cond) != Some(true)),
        };
        fails.then_some((pc, *a))
    }

    /// Per slot, the range of the slots of its class (1-based positions in a state vector
    /// whose first number is the global store): slots of one class are contiguous, and
    /// sorting that range keeps one state per orbit of the symmetry.
    pub fn class_ranges(&self) -> Vec<(usize, usize)> {
        self.slots
            .iter()
            .map(|s| {
                let a = self.slots.iter().position(|t| t.class == s.class).unwrap();
                (a + 1, a + 1 + self.slots.iter().filter(|t| t.class == s.class).count())
            })
            .collect()
    }

    /// All successors of a thread of class `c` standing in `(g, l)`. An atomic section runs
    /// as one step: no other thread can move inside it, so its inner states matter only where
    /// an assertion is checked; those are successors as well (the section then continues from
    /// them). A thread that blocks or ends inside a section stops every thread, so nothing
    /// follows from there. Hiding the inner states keeps the abstraction from mixing a thread
    /// inside a section with threads that only some other state lets be where they are.
    pub fn step(&self, c: usize, g: &[i128], l: &[i128], out: &mut Vec<Succ>) -> Result<(), Decline> {
        let mut first = Vec::new();
        self.step1(c, g, l, &mut first)?;
        if first.iter().all(|(ng, _)| ng[self.owner_cell] == 0) {
            out.extend(first);
            return Ok(());
        }
        let mut seen: std::collections::HashSet<Succ> = std::collections::HashSet::new();
        let mut work = Vec::new();
        for s in first {
            if s.0[self.owner_cell] == 0 {
                if !out.contains(&s) {
                    out.push(s);
                }
            } else if seen.insert(s.clone()) {
                work.push(s);
            }
        }
        let mut next = Vec::new();
        while let Some((ng, nl)) = work.pop() {
            if seen.len() > 100_000 {
                return Err(format!("an atomic section at {} has more than 100000 inner states", self.prog.span_str(self.prog.loc(self.pc(l).unwrap_or(LocId(0))).span)));
            }
            next.clear();
            self.step1(c, &ng, &nl, &mut next)?;
            if self.pc(&nl).is_some_and(|pc| matches!(self.prog.loc(pc).action, Action::Assert(..))) {
                let s = (ng.clone(), nl.clone());
                if !out.contains(&s) {
                    out.push(s);
                }
            }
            for s in next.drain(..) {
                if s.0[self.owner_cell] == 0 {
                    if !out.contains(&s) {
                        out.push(s);
                    }
                } else if seen.insert(s.clone()) {
                    work.push(s);
                }
            }
        }
        Ok(())
    }

    /// The successors of one action of a thread of class `c` standing in `(g, l)`.
    fn step1(&self, c: usize, g: &[i128], l: &[i128], out: &mut Vec<Succ>) -> Result<(), Decline> {
        if !self.may_step(g, l) {
            return Ok(());
        }
        let template = self.classes[c].template;
        let tpl = self.prog.template(template);
        let Some(pc) = self.pc(l) else {
            // Early start: a created thread may begin whenever it is scheduled.
            if !self.reaches(tpl.entry) {
                self.count_cut();
                return Ok(());
            }
            let mut nl = l.to_vec();
            nl[0] = tpl.entry.0 as i128;
            for &p in &tpl.params {
                if let Some(&(Home::Local(at), _)) = self.home.get(&p) {
                    nl[1 + at] = self.fork_argument(template, p);
                }
            }
            out.push((g.into(), nl.into_boxed_slice()));
            return Ok(());
        };
        match self.narrowed(pc, g, l) {
            None => Ok(()),
            Some(pres) if pres.is_empty() => self.exec_at(pc, g, l, out),
            Some(pres) => pres.iter().try_for_each(|(g1, l1)| self.exec_at(pc, g1, l1, out)),
        }
    }

    /// The successors of the action at `pc` from `(g, l)`, entering only locations some
    /// thread may reach.
    fn exec_at(&self, pc: LocId, g: &[i128], l: &[i128], out: &mut Vec<Succ>) -> Result<(), Decline> {
        let loc = self.prog.loc(pc);
        let mut ng = g.to_vec();
        let mut nl = l.to_vec();
        let ok = {
            let mut st = St { m: self, g: &mut ng, l: &mut nl };
            st.exec(&loc.action)?
        };
        if !ok {
            return Ok(());
        }
        // A release through a pointer with several targets frees one of them: any definite
        // lock it may designate, whoever holds it, or a lock the projection does not name.
        let mut stores = vec![ng];
        if let (Action::Release(_), Some(LockRef::Unknown)) = (&loc.action, self.prog.memory.lock_of.get(pc.index()).copied().flatten()) {
            for &k in self.prog.memory.lock_may.get(pc.index()).map(Vec::as_slice).unwrap_or(&[]) {
                let mut freed = stores[0].clone();
                freed[self.lock_cell(k)] = 0;
                if !stores.contains(&freed) {
                    stores.push(freed);
                }
            }
        }
        for ng in stores {
            if loc.succs.is_empty() {
                // A thread that ended stays where it is; `exit` and `abort` stop every thread.
                if ng != g {
                    out.push((ng.into_boxed_slice(), l.into()));
                }
                continue;
            }
            for s in &loc.succs {
                if !self.reaches(*s) {
                    self.count_cut();
                    continue;
                }
                let mut l2 = nl.clone();
                l2[0] = s.0 as i128;
                // A dead local's value can never be read again: forgetting it keeps stores few.
                for &c in &self.dead[s.index()] {
                    l2[c] = TOP;
                }
                out.push((ng.clone().into_boxed_slice(), l2.into_boxed_slice()));
            }
        }
        Ok(())
    }

    /// Local cells dead at each location (classic backward liveness over each template).
    fn dead_cells(&self) -> Vec<Vec<usize>> {
        let prog = self.prog;
        let local = |v: VarId| match self.home.get(&v) {
            Some(&(Home::Local(b), len)) => Some((b, len)),
            _ => None,
        };
        let mut uses: Vec<Vec<VarId>> = vec![Vec::new(); prog.locs.len()];
        let mut defs: Vec<Option<VarId>> = vec![None; prog.locs.len()];
        for (li, loc) in prog.locs.iter().enumerate() {
            ir::visit::action_vars(&loc.action, &mut |v| {
                if local(v).is_some() {
                    uses[li].push(v);
                }
            });
            if let Action::Assign(Lval::Var(v), e) = &loc.action {
                if local(*v).is_some() {
                    defs[li] = Some(*v);
                    // The target is not a use unless the expression reads it.
                    let mut reads = false;
                    ir::visit::expr_vars(e, &mut |w| reads |= w == *v);
                    if !reads {
                        uses[li].retain(|w| w != v);
                    }
                }
            }
        }
        let mut live: Vec<std::collections::BTreeSet<VarId>> = vec![Default::default(); prog.locs.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for li in (0..prog.locs.len()).rev() {
                let mut inn: std::collections::BTreeSet<VarId> = Default::default();
                for s in &prog.locs[li].succs {
                    inn.extend(live[s.index()].iter().copied());
                }
                if let Some(d) = defs[li] {
                    inn.remove(&d);
                }
                inn.extend(uses[li].iter().copied());
                if inn != live[li] {
                    live[li] = inn;
                    changed = true;
                }
            }
        }
        // Each template's tracked locals, gathered once: a location looks only at its own
        // template's (all tracked variables per location grows with the square of the threads).
        let mut locals: Vec<Vec<(VarId, usize, u32)>> = vec![Vec::new(); prog.templates.len()];
        for (v, &(h, len)) in &self.home {
            let Home::Local(b) = h else { continue };
            if let VarKind::Local(t) | VarKind::Temp(t) = prog.var(*v).kind {
                locals[t.index()].push((*v, b, len));
            }
        }
        let mut dead = vec![Vec::new(); prog.locs.len()];
        for (li, loc) in prog.locs.iter().enumerate() {
            for &(v, b, len) in &locals[loc.template.index()] {
                if !live[li].contains(&v) {
                    dead[li].extend((0..len as usize).map(|k| 1 + b + k));
                }
            }
            dead[li].sort_unstable();
        }
        dead
    }

    /// The value a template's start-routine parameter gets: the fork's argument when every
    /// creation site passes the same constant.
    fn fork_argument(&self, t: TemplateId, param: VarId) -> i128 {
        let tpl = self.prog.template(t);
        if tpl.params.first() != Some(&param) {
            return TOP;
        }
        let mut val = None;
        for site in &tpl.spawned_at {
            let Action::Fork { arg, .. } = &self.prog.loc(*site).action else { return TOP };
            let v = match arg {
                Some(e) => const_eval(e, self.prog.data_model).unwrap_or(TOP),
                None => TOP,
            };
            if val.is_some_and(|x| x != v) {
                return TOP;
            }
            val = Some(v);
        }
        val.unwrap_or(TOP)
    }

    /// Evaluates an assertion's condition in a thread state: `Some(true)` when it holds,
    /// `Some(false)` when it fails, `None` when the projection cannot tell.
    pub fn holds(&self, g: &[i128], l: &[i128], cond: &Expr) -> Option<bool> {
        let mut g2 = g.to_vec();
        let mut l2 = l.to_vec();
        let mut st = St { m: self, g: &mut g2, l: &mut l2 };
        match st.eval(cond) {
            TOP => None,
            v => Some(v != 0),
        }
    }

    /// Readable form of a global store. Cells the projection has lost are listed once at the
    /// end, runs of one array's elements as a range, so a failing state of a program with big
    /// arrays stays one readable line.
    pub fn show_global(&self, g: &[i128]) -> String {
        let mut parts = Vec::new();
        let mut lost: Vec<&str> = Vec::new();
        for (k, v) in g.iter().enumerate() {
            if (k == self.owner_cell || k == self.halted_cell || k > self.halted_cell) && *v == 0 {
                continue;
            }
            if *v == TOP {
                lost.push(&self.global_names[k]);
            } else if self.rwlock_cells.contains(&k) {
                parts.push(format!("{} {}", self.global_names[k], ir::display::rwlock_word(*v)));
            } else {
                parts.push(format!("{}={}", self.global_names[k], v));
            }
        }
        if !lost.is_empty() {
            parts.push(format!("any value in {}", ranges(&lost)));
        }
        parts.join(" ")
    }

    /// Where a thread stands, for messages: the source line of its program counter.
    pub fn show_line(&self, l: &[i128]) -> String {
        match self.pc(l) {
            None => "its start (not yet created)".into(),
            Some(pc) => format!("line {}", self.prog.loc(pc).span.line),
        }
    }

    /// ` with ` and the global store, for messages; empty when the projection has no globals.
    pub fn with_global(&self, g: &[i128]) -> String {
        let s = self.show_global(g);
        if s.is_empty() {
            s
        } else {
            format!(" with {s}")
        }
    }

    /// Readable form of a local store: the program counter and its source line.
    pub fn show_local(&self, l: &[i128]) -> String {
        match self.pc(l) {
            None => "not-started".into(),
            Some(pc) => format!("{}@{}", pc, self.prog.loc(pc).span.line),
        }
    }
}

/// Cell names joined by commas, with consecutive elements of one array (`a[0]`, `a[1]`, …)
/// written as one range `a[0..19]`.
fn ranges(names: &[&str]) -> String {
    let split = |n: &str| -> Option<(String, u64)> {
        let (base, rest) = n.strip_suffix(']')?.rsplit_once('[')?;
        Some((base.to_string(), rest.parse().ok()?))
    };
    let mut out: Vec<String> = Vec::new();
    let mut run: Option<(String, u64, u64)> = None;
    let close = |run: &mut Option<(String, u64, u64)>, out: &mut Vec<String>| {
        if let Some((b, lo, hi)) = run.take() {
            out.push(if lo == hi { format!("{b}[{lo}]") } else { format!("{b}[{lo}..{hi}]") });
        }
    };
    for n in names {
        match split(n) {
            Some((b, i)) => {
                if let Some((rb, _, hi)) = run.as_mut() {
                    if *rb == b && *hi + 1 == i {
                        *hi = i;
                        continue;
                    }
                }
                close(&mut run, &mut out);
                run = Some((b, i, i));
            }
            None => {
                close(&mut run, &mut out);
                out.push(n.to_string());
            }
        }
    }
    close(&mut run, &mut out);
    out.join(", ")
}

/// The magnitude up to which values stay exact: the program's constants, scaled by the number
/// of threads (tickets and counters grow by about one per thread and constant). Widening to
/// [`TOP`] beyond it is sound and keeps the projection finite.
fn value_bound(prog: &Program, slots: usize) -> i128 {
    let mut maxc: i128 = 1;
    let mut note = |e: &Expr| {
        fn walk(e: &Expr, maxc: &mut i128) {
            match e {
                Expr::Const(v, _) if v.abs() < 1 << 20 => *maxc = (*maxc).max(v.abs()),
                Expr::Unary(_, a, _) | Expr::Cast(_, a) => walk(a, maxc),
                Expr::Binary(_, a, b, _) => {
                    walk(a, maxc);
                    walk(b, maxc);
                }
                _ => {}
            }
        }
        walk(e, &mut maxc)
    };
    for loc in &prog.locs {
        match &loc.action {
            Action::Assign(_, e) | Action::Assume(e) | Action::Assert(_, e) => note(e),
            _ => {}
        }
    }
    (maxc * (slots as i128 + 1) + slots as i128 + 2).clamp(16, 1 << 20)
}

/// A constant expression's value (casts of constants, as `(void *)1`).
fn const_eval(e: &Expr, dm: ir::DataModel) -> Option<i128> {
    match e {
        Expr::Const(v, _) => Some(*v),
        Expr::Cast(t, inner) if *t != Ty::Float => const_eval(inner, dm).map(|v| t.convert(v, dm)),
        _ => None,
    }
}

/// Executes one action on a state.
struct St<'a, 'p> {
    m: &'a Model<'p>,
    g: &'a mut Vec<i128>,
    l: &'a mut Vec<i128>,
}

/// Where an lvalue's value is: a cell, every element of an array (unknown index), or nowhere
/// the projection tracks.
enum Place {
    Cell(bool, usize),
    AllOf(bool, usize, u32),
    Untracked,
}

impl St<'_, '_> {
    /// Runs the action; false when it blocks.
    fn exec(&mut self, a: &Action) -> Result<bool, Decline> {
        match a {
            Action::Join(_) => {
                let pc = self.m.pc(self.l).expect("started");
                Ok(self.m.joins.get(&pc).is_none_or(|&c| self.g[c] != 0))
            }
            Action::Skip | Action::Assert(..) => {
                if let Action::Assert(_, c) = a {
                    // Execution continues only where the assertion held.
                    if self.eval(c) == 0 {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Action::Assign(lv, e) => {
                let v = self.eval(e);
                let ty = self.m.prog.lval_type(lv).scalar(self.m.prog.data_model);
                let v = if v == TOP { TOP } else { ty.convert(v, self.m.prog.data_model) };
                let v = if v != TOP && v.abs() > self.m.bound { TOP } else { v };
                self.store(lv, v)?;
                Ok(true)
            }
            Action::Alloc(lv, ..) => {
                self.store(lv, TOP)?;
                Ok(true)
            }
            Action::Fork { handle, .. } => {
                if let Some(h) = handle {
                    self.store(h, TOP)?;
                }
                Ok(true)
            }
            Action::Assume(e) => Ok(self.eval(e) != 0),
            Action::Acquire(_) | Action::Release(_) | Action::LockBusy(_) => {
                let pc = self.m.pc(self.l).expect("started");
                let Some(LockRef::Exact(id)) = self.m.prog.memory.lock_of.get(pc.index()).copied().flatten() else {
                    // A lock the alias model cannot name excludes nothing.
                    return Ok(true);
                };
                let c = self.m.lock_cell(id);
                match a {
                    Action::Acquire(_) => {
                        if self.g[c] != 0 {
                            return Ok(false);
                        }
                        self.g[c] = 1;
                    }
                    Action::Release(_) => self.g[c] = 0,
                    _ => {
                        if self.g[c] == 0 {
                            return Ok(false);
                        }
                    }
                }
                Ok(true)
            }
            Action::AtomicBegin => {
                self.g[self.m.owner_cell] = 1;
                *self.l.last_mut().unwrap() = 1;
                Ok(true)
            }
            Action::AtomicEnd => {
                self.g[self.m.owner_cell] = 0;
                *self.l.last_mut().unwrap() = 0;
                Ok(true)
            }
            Action::Halt(h) => {
                if matches!(h, Halt::Exit | Halt::Abort) {
                    self.g[self.m.halted_cell] = 1;
                } else {
                    let pc = self.m.pc(self.l).expect("started");
                    if let Some(&c) = self.m.done.get(&self.m.prog.loc(pc).template) {
                        self.g[c] = 1;
                    }
                }
                Ok(true)
            }
        }
    }

    fn place(&mut self, lv: &Lval) -> Result<Place, Decline> {
        let (v, idx) = match lv {
            Lval::Var(v) => (*v, None),
            Lval::Index(b, i) => match &**b {
                Lval::Var(v) => (*v, Some(&**i)),
                _ => return Ok(Place::Untracked),
            },
            _ => return Ok(Place::Untracked),
        };
        let Some(&(home, len)) = self.m.home.get(&v) else { return Ok(Place::Untracked) };
        let (global, base) = match home {
            Home::Global(b) => (true, b),
            Home::Local(b) => (false, 1 + b),
        };
        match idx {
            None => Ok(Place::Cell(global, base)),
            Some(i) => {
                let k = self.eval(i);
                if k == TOP {
                    Ok(Place::AllOf(global, base, len))
                } else if k < 0 || k >= len as i128 {
                    Err(format!("array index {k} may be out of bounds at {}", self.here()))
                } else {
                    Ok(Place::Cell(global, base + k as usize))
                }
            }
        }
    }

    fn here(&self) -> String {
        self.m.pc(self.l).map(|pc| self.m.prog.span_str(self.m.prog.loc(pc).span)).unwrap_or_default()
    }

    fn store(&mut self, lv: &Lval, v: i128) -> Result<(), Decline> {
        match self.place(lv)? {
            Place::Cell(true, c) => self.g[c] = v,
            Place::Cell(false, c) => self.l[c] = v,
            Place::AllOf(global, base, len) => {
                // An unknown index may hit any element: each one may now hold anything.
                for k in 0..len as usize {
                    if global {
                        self.g[base + k] = TOP;
                    } else {
                        self.l[base + k] = TOP;
                    }
                }
            }
            Place::Untracked => {}
        }
        Ok(())
    }

    fn load(&mut self, lv: &Lval) -> i128 {
        match self.place(lv) {
            Ok(Place::Cell(true, c)) => self.g[c],
            Ok(Place::Cell(false, c)) => self.l[c],
            Ok(Place::Untracked) => match (lv, self.m.pc(self.l)) {
                (Lval::Var(x), Some(pc)) => self.m.narrowed_const(pc, *x).unwrap_or(TOP),
                _ => TOP,
            },
            _ => TOP,
        }
    }

    fn eval(&mut self, e: &Expr) -> i128 {
        let dm = self.m.prog.data_model;
        match e {
            Expr::Const(v, _) => *v,
            Expr::Load(lv) => self.load(lv),
            Expr::AddrOf(_) | Expr::Nondet(_) | Expr::Havoc(..) => TOP,
            Expr::Cast(t, a) => {
                let v = self.eval(a);
                if v == TOP || *t == Ty::Float {
                    TOP
                } else {
                    t.convert(v, dm)
                }
            }
            Expr::Unary(op, a, t) => {
                let v = self.eval(a);
                if v == TOP || *t == Ty::Float {
                    return TOP;
                }
                let r = match op {
                    UnOp::Neg => -v,
                    UnOp::BitNot => !v,
                    UnOp::Not => (v == 0) as i128,
                };
                t.convert(r, dm)
            }
            Expr::Binary(op, a, b, t) => {
                let x = self.eval(a);
                let y = self.eval(b);
                if x == TOP || y == TOP || *t == Ty::Float {
                    return TOP;
                }
                binop(*op, x, y, *t, dm)
            }
        }
    }
}

fn binop(op: BinOp, x: i128, y: i128, t: Ty, dm: ir::DataModel) -> i128 {
    let r = match op {
        BinOp::Add => x.checked_add(y),
        BinOp::Sub => x.checked_sub(y),
        BinOp::Mul => x.checked_mul(y),
        BinOp::Div => (y != 0).then(|| x.checked_div(y)).flatten(),
        BinOp::Rem => (y != 0).then(|| x.checked_rem(y)).flatten(),
        BinOp::Shl => (0..128).contains(&y).then(|| x.checked_shl(y as u32)).flatten(),
        BinOp::Shr => (0..128).contains(&y).then(|| x >> y),
        BinOp::BitAnd => Some(x & y),
        BinOp::BitOr => Some(x | y),
        BinOp::BitXor => Some(x ^ y),
        BinOp::Lt => return (x < y) as i128,
        BinOp::Le => return (x <= y) as i128,
        BinOp::Gt => return (x > y) as i128,
        BinOp::Ge => return (x >= y) as i128,
        BinOp::Eq => return (x == y) as i128,
        BinOp::Ne => return (x != y) as i128,
    };
    match r {
        Some(v) => t.convert(v, dm),
        None => TOP,
    }
}

/// Variables the projection tracks, with their number of cells: scalars and short arrays of
/// scalars that no pointer can reach, in the cone of influence of the program's assertions and
/// branch conditions.
fn tracked_vars(prog: &Program) -> HashMap<VarId, u32> {
    let mut cand: HashMap<VarId, u32> = HashMap::new();
    for (vi, var) in prog.vars.iter().enumerate() {
        if var.addr_taken || matches!(var.kind, VarKind::ThreadLocal) {
            continue;
        }
        let len = match &var.ty {
            t if t.is_scalar() && !matches!(t, CType::Float(_)) => 1,
            CType::Array(e, Some(n)) if e.is_scalar() && !matches!(**e, CType::Float(_)) && *n >= 1 && *n <= MAX_ARRAY => *n as u32,
            _ => continue,
        };
        cand.insert(VarId(vi as u32), len);
    }
    // Any use other than as a whole scalar or an indexed array element lets memory reach the
    // variable by other means; such variables are not tracked.
    let mut escaped = Vec::new();
    for loc in &prog.locs {
        visit_action(&loc.action, &mut |lv, ctx| scan_lval(prog, lv, ctx, &mut escaped));
    }
    for v in escaped {
        cand.remove(&v);
    }
    // Cone of influence: what assertions, assumptions and indexes read; then what flows into it.
    let mut relevant: std::collections::HashSet<VarId> = std::collections::HashSet::new();
    for loc in &prog.locs {
        match &loc.action {
            Action::Assert(_, c) | Action::Assume(c) => ir::visit::expr_vars(c, &mut |v| {
                relevant.insert(v);
            }),
            _ => {}
        }
        visit_action(&loc.action, &mut |lv, _| {
            if let Lval::Index(_, i) = lv {
                ir::visit::expr_vars(i, &mut |v| {
                    relevant.insert(v);
                });
            }
        });
    }
    loop {
        let before = relevant.len();
        for loc in &prog.locs {
            if let Action::Assign(lv, e) = &loc.action {
                if lv.root_var().is_some_and(|v| relevant.contains(&v)) {
                    ir::visit::expr_vars(e, &mut |v| {
                        relevant.insert(v);
                    });
                }
            }
        }
        // Parameters get their value from the fork's argument.
        if relevant.len() == before {
            break;
        }
    }
    cand.retain(|v, _| relevant.contains(v));
    cand
}

/// How an lvalue occurs.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Ctx {
    /// Read or written as a value.
    Value,
    /// Its address is taken.
    Address,
}

/// Calls `f` on every lvalue occurrence of an action, outermost first.
fn visit_action(a: &Action, f: &mut dyn FnMut(&Lval, Ctx)) {
    match a {
        Action::Assign(lv, e) => {
            visit_lval(lv, Ctx::Value, f);
            visit_expr(e, f);
        }
        Action::Assume(e) | Action::Assert(_, e) | Action::Join(e) => visit_expr(e, f),
        Action::Alloc(lv, ..) => visit_lval(lv, Ctx::Value, f),
        Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => visit_lval(lv, Ctx::Address, f),
        Action::Fork { handle, arg, .. } => {
            if let Some(h) = handle {
                visit_lval(h, Ctx::Value, f);
            }
            if let Some(e) = arg {
                visit_expr(e, f);
            }
        }
        Action::Skip | Action::AtomicBegin | Action::AtomicEnd | Action::Halt(_) => {}
    }
}

fn visit_expr(e: &Expr, f: &mut dyn FnMut(&Lval, Ctx)) {
    match e {
        Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => {}
        Expr::Load(lv) => visit_lval(lv, Ctx::Value, f),
        Expr::AddrOf(lv) => visit_lval(lv, Ctx::Address, f),
        Expr::Unary(_, a, _) | Expr::Cast(_, a) => visit_expr(a, f),
        Expr::Binary(_, a, b, _) => {
            visit_expr(a, f);
            visit_expr(b, f);
        }
    }
}

fn visit_lval(lv: &Lval, ctx: Ctx, f: &mut dyn FnMut(&Lval, Ctx)) {
    f(lv, ctx);
    match lv {
        Lval::Var(_) => {}
        Lval::Deref(e, _) => visit_expr(e, f),
        Lval::Index(b, i) => {
            // The base is part of this occurrence; only its inner expressions are visited.
            visit_inner(b, f);
            visit_expr(i, f);
        }
        Lval::Field(b, ..) => visit_inner(b, f),
    }
}

fn visit_inner(lv: &Lval, f: &mut dyn FnMut(&Lval, Ctx)) {
    match lv {
        Lval::Var(_) => {}
        Lval::Deref(e, _) => visit_expr(e, f),
        Lval::Index(b, i) => {
            visit_inner(b, f);
            visit_expr(i, f);
        }
        Lval::Field(b, ..) => visit_inner(b, f),
    }
}

/// Records the variables an lvalue occurrence makes untrackable.
fn scan_lval(prog: &Program, lv: &Lval, ctx: Ctx, escaped: &mut Vec<VarId>) {
    let is_array = |v: VarId| matches!(prog.var(v).ty, CType::Array(..));
    let direct = match lv {
        Lval::Var(v) => !is_array(*v),
        Lval::Index(b, _) => matches!(&**b, Lval::Var(v) if is_array(*v)),
        _ => false,
    };
    if ctx == Ctx::Address || !direct {
        // Roots reached through fields, nested indexes or an address are not cells.
        if let Some(v) = lv.root_var() {
            escaped.push(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn lost_cells_are_listed_with_array_runs_as_ranges() {
        let names = ["a[0]", "a[1]", "a[2]", "x", "a[4]", "b[3]", "b[4]", "c"];
        assert_eq!(ranges(&names), "a[0..2], x, a[4], b[3..4], c");
        assert_eq!(ranges(&["m[x]", "q[1]"]), "m[x], q[1]");
    }
}
