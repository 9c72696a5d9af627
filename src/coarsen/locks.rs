//! Which locks a thread definitely holds at each location (a must-analysis per template).
//!
//! Two kinds of lock: pthread mutexes (the IR's `Acquire`/`Release`) and the program's own
//! spin locks, recognised from their code by the alias model ([`crate::ir::MemoryModel::spin`]):
//! a word only ever stored as a constant, read inside atomic sections. For those the analysis
//! finds the acquire itself. A thread *owns* a spin lock from the non-zero store that finds
//! its word zero until its own store of zero. While the word is only stored by the owner's
//! release (checked below: a store of zero where the lock is not held makes it loose), at most
//! one thread owns it and the word is non-zero meanwhile, so a read of zero followed, in the
//! same atomic section, by a non-zero store makes the reader the owner: a test-and-set that
//! returned 0, a compare-and-swap from 0 that succeeded. The analysis follows what the read
//! value says through the thread's variables (`owns_if`: "if this variable is / is not zero,
//! I own the lock") to the branch that tests it, which is where the lock becomes held. The
//! failing branch of a trylock learns nothing. The engines still run the exact atomic steps;
//! only the facts derived from these locks (must-held locks, acquire points) change.

use crate::ir::memory::{lock_states, LockId, SpinAccess};
use crate::ir::{Action, BinOp, Expr, LocId, LockRef, Lval, Program, TemplateId, Ty, UnOp, VarId, VarKind};
use hashbrown::HashSet;

/// The lock facts of a program: must-held locks, and where each is acquired.
#[derive(Clone, Debug, Default)]
pub struct Held {
    /// Per location, the locks a thread standing there holds on every path (sorted).
    pub held: Vec<Vec<LockId>>,
    /// Per location, the lock its step acquires: a pthread acquire, or the step that makes
    /// a spin lock held (the branch that tests a test-and-set's result).
    pub acquires: Vec<Option<LockId>>,
}

/// For every location, the locks a thread standing there holds on every path (sorted). A lock
/// that some thread may release without holding it (glibc's normal mutex is then released,
/// whoever holds it) excludes nobody, so it is left out everywhere.
pub fn must_hold(prog: &Program) -> Vec<Vec<LockId>> {
    analyse(prog).held
}

/// The must-held locks and the acquire points of every location (see [`must_hold`]).
pub fn analyse(prog: &Program) -> Held {
    let (states, spin) = held_by_paths(prog);
    let mut held: Vec<Vec<LockId>> = states.iter().map(|s| s.as_ref().map(|s| s.held.clone()).unwrap_or_default()).collect();
    let mut acquires: Vec<Option<LockId>> = (0..prog.locs.len()).map(|i| pthread_acquire(prog, LocId(i as u32))).collect();
    if !spin.spin.is_empty() {
        for (i, st) in states.iter().enumerate() {
            if let (Some(st), None) = (st, acquires[i]) {
                let after = spin.step(st, LocId(i as u32));
                acquires[i] = after.held.iter().copied().find(|k| !st.held.contains(k));
            }
        }
    }
    let loose = released_by_non_holders(prog, &states, &held);
    if !loose.is_empty() {
        for h in &mut held {
            h.retain(|k| !loose.contains(k));
        }
        for a in &mut acquires {
            if a.is_some_and(|k| loose.contains(&k)) {
                *a = None;
            }
        }
    }
    Held { held, acquires }
}

/// The locks a reachable release may free while the releasing thread does not definitely
/// hold them: a definite lock released where it is not held (a second unlock, an unlock by a
/// thread that never locked it), the definite locks a release through an ambiguous pointer
/// may designate but the thread does not hold, and a spin lock whose word is stored zero
/// where it is not held (by a thread other than `main` alone).
fn released_by_non_holders(prog: &Program, reach: &[Option<State>], held: &[Vec<LockId>]) -> Vec<LockId> {
    let mut loose: Vec<LockId> = Vec::new();
    // Before its first fork `main` is the only thread: its store of zero (`spin_lock_init`)
    // frees nobody else's lock.
    let mut after_fork = None;
    let alone = |l: usize, after_fork: &mut Option<std::collections::BTreeSet<LocId>>| {
        prog.locs[l].template == TemplateId(0) && !after_fork.get_or_insert_with(|| super::counts::after_fork(prog)).contains(&LocId(l as u32))
    };
    for (i, loc) in prog.locs.iter().enumerate() {
        if reach[i].is_none() {
            continue;
        }
        let may: Vec<LockId> = match (&loc.action, prog.memory.lock_of[i], prog.memory.spin[i]) {
            (Action::Release(_), Some(LockRef::Exact(k)), _) => vec![k],
            (Action::Release(_), Some(LockRef::Unknown), _) => prog.memory.lock_may.get(i).cloned().unwrap_or_default(),
            (_, _, Some((k, SpinAccess::Clear))) if !alone(i, &mut after_fork) => vec![k],
            _ => Vec::new(),
        };
        for k in may {
            if !held[i].contains(&k) && !loose.contains(&k) {
                loose.push(k);
            }
        }
    }
    loose.sort_unstable();
    loose
}

/// What a thread knows at a location: the locks it holds, and what its variables say.
#[derive(Clone, Debug, Default, PartialEq)]
struct State {
    /// The locks held (sorted).
    held: Vec<LockId>,
    /// `(v, k)`: `v` holds the word of spin lock `k` as read earlier in the current atomic
    /// section, and the word has not been stored since.
    reads: Vec<(VarId, LockId)>,
    /// `(v, zero, k)`: if `(v == 0) == zero`, the thread owns spin lock `k`.
    owns_if: Vec<(VarId, bool, LockId)>,
    /// Variables with a known value.
    consts: Vec<(VarId, i128)>,
}

impl State {
    fn meet(&self, o: &State) -> State {
        State {
            held: self.held.iter().copied().filter(|k| o.held.contains(k)).collect(),
            reads: self.reads.iter().copied().filter(|x| o.reads.contains(x)).collect(),
            owns_if: self.owns_if.iter().copied().filter(|x| o.owns_if.contains(x)).collect(),
            consts: self.consts.iter().copied().filter(|x| o.consts.contains(x)).collect(),
        }
    }

    /// Forgets everything about `v` (it is being overwritten).
    fn kill(&mut self, v: VarId) {
        self.reads.retain(|x| x.0 != v);
        self.owns_if.retain(|x| x.0 != v);
        self.consts.retain(|x| x.0 != v);
    }

    fn constant(&self, v: VarId) -> Option<i128> {
        self.consts.iter().find(|x| x.0 == v).map(|x| x.1)
    }

    fn hold(&mut self, k: LockId) {
        if !self.held.contains(&k) {
            self.held.push(k);
        }
    }

    fn normalise(&mut self) {
        self.held.sort_unstable();
        self.held.dedup();
        self.reads.sort_unstable();
        self.reads.dedup();
        self.owns_if.sort_unstable();
        self.owns_if.dedup();
        self.consts.sort_unstable();
        self.consts.dedup();
    }
}

/// The spin-lock side of the transfer function.
struct Spin<'p> {
    prog: &'p Program,
    /// The recognised spin locks.
    spin: Vec<LockId>,
    /// The variables followed: those that carry a value read from a word or a comparand of
    /// one, each a local whose every store is a direct assignment (no pointer reaches it).
    tracked: HashSet<VarId>,
}

impl<'p> Spin<'p> {
    fn new(prog: &'p Program) -> Spin<'p> {
        let mut spin: Vec<LockId> = prog.memory.spin.iter().flatten().map(|(k, _)| *k).collect();
        spin.sort_unstable();
        spin.dedup();
        let mut tracked = HashSet::new();
        if spin.is_empty() {
            return Spin { prog, spin, tracked };
        }
        // What the analysis follows: the values read from a word, the variables they are
        // copied to, the flags an atomic section sets; and what they are compared with.
        let mut relevant: HashSet<VarId> = prog
            .memory
            .spin
            .iter()
            .filter_map(|s| match s {
                Some((_, SpinAccess::Read(v))) => Some(*v),
                _ => None,
            })
            .collect();
        for loc in &prog.locs {
            if let (Action::Assign(Lval::Var(v), Expr::Const(..)), true) = (&loc.action, loc.atomic) {
                relevant.insert(*v);
            }
        }
        loop {
            let before = relevant.len();
            for loc in &prog.locs {
                match &loc.action {
                    Action::Assign(Lval::Var(v), e) => {
                        if zero_preserving_var(prog, e).is_some_and(|w| relevant.contains(&w)) {
                            relevant.insert(*v);
                        }
                        // A comparand's own source.
                        if let (true, Some(w)) = (relevant.contains(v), copied_var(e)) {
                            relevant.insert(w);
                        }
                    }
                    Action::Assume(Expr::Binary(BinOp::Eq | BinOp::Ne, a, b, _)) => {
                        for (x, y) in [(a, b), (b, a)] {
                            if zero_preserving_var(prog, x).is_some_and(|w| relevant.contains(&w)) {
                                if let Some(w) = copied_var(y) {
                                    relevant.insert(w);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            if relevant.len() == before {
                break;
            }
        }
        // An address-taken variable is followed only if every store to it is a direct one.
        let mut indirect: HashSet<VarId> = HashSet::new();
        let cells: Vec<(VarId, crate::ir::AbsLoc)> = relevant.iter().filter(|v| prog.var(**v).addr_taken).filter_map(|v| Some((*v, prog.memory.lookup(prog, &Lval::Var(*v))?))).collect();
        for v in relevant.iter().filter(|v| prog.var(**v).addr_taken) {
            if !cells.iter().any(|(w, _)| w == v) {
                indirect.insert(*v);
            }
        }
        if !cells.is_empty() {
            for (u, loc) in prog.locs.iter().enumerate() {
                if !matches!(loc.action, Action::Assign(..) | Action::Alloc(..) | Action::Fork { .. }) {
                    continue;
                }
                for (v, a) in &cells {
                    if prog.memory.access[u].mods.contains(a) && !matches!(&loc.action, Action::Assign(Lval::Var(w), _) if w == v) {
                        indirect.insert(*v);
                    }
                }
            }
        }
        for v in relevant {
            if matches!(prog.var(v).kind, VarKind::Local(_) | VarKind::Temp(_)) && !indirect.contains(&v) {
                tracked.insert(v);
            }
        }
        Spin { prog, spin, tracked }
    }

    fn step(&self, cur: &State, l: LocId) -> State {
        let prog = self.prog;
        let loc = prog.loc(l);
        let mut out = cur.clone();
        if !loc.atomic || matches!(loc.action, Action::AtomicEnd) {
            out.reads.clear();
        }
        match (&loc.action, prog.memory.lock_of[l.index()]) {
            (Action::Acquire(_), Some(LockRef::Exact(k))) => out.hold(k),
            (Action::Release(_), Some(LockRef::Exact(k))) => out.held.retain(|x| *x != k),
            // Releasing a lock we cannot identify may release any of them.
            (Action::Release(_), _) => out.held.clear(),
            _ => {}
        }
        if self.spin.is_empty() {
            out.normalise();
            return out;
        }
        match (&loc.action, prog.memory.spin[l.index()]) {
            (_, Some((k, SpinAccess::Read(v)))) => {
                out.kill(v);
                if self.tracked.contains(&v) {
                    out.reads.push((v, k));
                }
            }
            (_, Some((k, SpinAccess::Set))) => {
                let reads = out.reads.clone();
                for (v, _) in reads.iter().filter(|r| r.1 == k) {
                    out.owns_if.push((*v, true, k));
                    if cur.constant(*v) == Some(0) {
                        out.hold(k);
                    }
                }
                out.reads.retain(|r| r.1 != k);
            }
            (_, Some((k, SpinAccess::Clear))) => {
                out.held.retain(|x| *x != k);
                out.owns_if.retain(|x| x.2 != k);
                out.reads.retain(|r| r.1 != k);
            }
            (Action::Assign(Lval::Var(v), e), None) => {
                let v = *v;
                out.kill(v);
                if self.tracked.contains(&v) {
                    if let Some(c) = self.constant(cur, e) {
                        out.consts.push((v, c));
                        // An implication whose premise is false holds.
                        for k in &self.spin {
                            out.owns_if.push((v, c != 0, *k));
                        }
                    }
                    if let Some(w) = zero_preserving_var(prog, e) {
                        for (x, z, k) in &cur.owns_if {
                            if *x == w {
                                out.owns_if.push((v, *z, *k));
                            }
                        }
                        if let Some(c) = cur.constant(w).filter(|c| *c == 0) {
                            out.consts.push((v, c));
                        }
                    }
                    // So does one whose conclusion is true.
                    for k in cur.held.iter().filter(|k| self.spin.contains(k)) {
                        out.owns_if.push((v, true, *k));
                        out.owns_if.push((v, false, *k));
                    }
                }
            }
            (Action::Alloc(Lval::Var(v), ..) | Action::Fork { handle: Some(Lval::Var(v)), .. }, None) => out.kill(*v),
            (Action::Assume(c), None) => {
                let mut lits = Vec::new();
                self.literals(cur, c, true, &mut lits);
                for (v, zero) in lits {
                    if !self.tracked.contains(&v) {
                        continue;
                    }
                    if zero && cur.constant(v).is_none() {
                        out.consts.push((v, 0));
                    }
                    for k in &self.spin {
                        out.owns_if.push((v, !zero, *k));
                    }
                    for (x, z, k) in &cur.owns_if {
                        if *x == v && *z == zero {
                            out.hold(*k);
                        }
                    }
                }
            }
            _ => {}
        }
        out.normalise();
        out
    }

    /// The value of `e` when it is a constant here.
    fn constant(&self, st: &State, e: &Expr) -> Option<i128> {
        match e {
            Expr::Const(c, _) => Some(*c),
            Expr::Load(Lval::Var(v)) => st.constant(*v),
            // Every integer type keeps 0 and 1.
            Expr::Cast(_, x) => self.constant(st, x).filter(|c| *c == 0 || *c == 1),
            _ => None,
        }
    }

    /// What `e` having truth value `truth` says about variables: `(v, true)` for `v == 0`,
    /// `(v, false)` for `v != 0`.
    fn literals(&self, st: &State, e: &Expr, truth: bool, out: &mut Vec<(VarId, bool)>) {
        match e {
            Expr::Unary(UnOp::Not, x, _) => self.literals(st, x, !truth, out),
            Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b, _) => {
                let (v, c) = match (zero_preserving_var(self.prog, a), zero_preserving_var(self.prog, b)) {
                    (Some(v), _) if self.constant(st, b).is_some() => (v, self.constant(st, b).unwrap_or_default()),
                    (_, Some(v)) if self.constant(st, a).is_some() => (v, self.constant(st, a).unwrap_or_default()),
                    _ => return,
                };
                match ((*op == BinOp::Eq) == truth, c == 0) {
                    (true, zero) => out.push((v, zero)),
                    (false, true) => out.push((v, false)),
                    (false, false) => {}
                }
            }
            _ => {
                if let Some(v) = zero_preserving_var(self.prog, e) {
                    out.push((v, !truth));
                }
            }
        }
    }
}

/// The variable `e` loads, possibly converted.
fn copied_var(e: &Expr) -> Option<VarId> {
    match e {
        Expr::Load(Lval::Var(v)) => Some(*v),
        Expr::Cast(_, x) => copied_var(x),
        _ => None,
    }
}

/// The variable whose value `e` is, up to conversions that keep zero and non-zero apart.
fn zero_preserving_var(prog: &Program, e: &Expr) -> Option<VarId> {
    match e {
        Expr::Load(Lval::Var(v)) => Some(*v),
        Expr::Cast(to, x) => {
            let keeps = match (*to, x.ty(prog)) {
                (Ty::Bool, _) | (_, Ty::Bool) => true,
                (Ty::Int(a), Ty::Int(b)) => a.bits >= b.bits,
                _ => false,
            };
            if keeps {
                zero_preserving_var(prog, x)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The lock states of every location from the paths alone, every release trusted.
fn held_by_paths(prog: &Program) -> (Vec<Option<State>>, Spin<'_>) {
    let spin = Spin::new(prog);
    let states = lock_states(prog, State::default(), |cur, l| spin.step(cur, l), |a, b| a.meet(b));
    (states, spin)
}

/// The pthread lock a location acquires, if any.
fn pthread_acquire(prog: &Program, l: LocId) -> Option<LockId> {
    match (&prog.loc(l).action, prog.memory.lock_of[l.index()]) {
        (Action::Acquire(_), Some(LockRef::Exact(k))) => Some(k),
        _ => None,
    }
}
