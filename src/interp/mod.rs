//! A concrete interpreter of the IR that executes a given schedule.
//!
//! The bounded engine reports a violation only after this interpreter, starting from the
//! program's initial state, has executed the witness's schedule step by step and reached the
//! failing assertion. Every step is checked: the location must follow the thread's previous
//! one in its control-flow graph, an `assume` must hold, a lock must be free, a joined thread
//! must have ended, and no other thread may be inside an atomic section. Nondeterministic
//! values (and the contents of uninitialised memory) are the only inputs the schedule supplies.
//!
//! Values produced by an over-approximation ([`Expr::Havoc`]) are tainted with it: the taint
//! follows data (through memory, addresses and operators) and control (once a thread passes
//! an `assume`, a lock or a join that depends on a tainted value, everything after is
//! tainted). A failure that is tainted is reported with the approximation it rests on, and
//! is not a real execution of the C program.

pub mod layout;
pub(crate) mod minimise;
pub(crate) mod ops;
pub(crate) mod trace;

use crate::ir::{Action, ApproxId, AssertId, CType, Expr, Halt, LocId, Lval, Program, TemplateId, Ty};
use hashbrown::HashMap;
use layout::{Layout, ADDRESS_MODEL, GLOBAL_BASE, UNSCHEDULED_HANDLE_BASE};

/// How many steps a [`Step::RunUntil`] may take before the replay gives up.
pub const RUN_UNTIL_LIMIT: usize = 2_000_000;

/// One step of a schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Thread `thread` executes location `loc`.
    Exec {
        /// The thread instance (0 is the root).
        thread: u32,
        /// The location it executes.
        loc: LocId,
        /// Values of the `Nondet` expressions the action evaluates, in evaluation order.
        nondets: Vec<i128>,
        /// For a fork: the instance numbers of the threads it creates (several only for a
        /// template with unboundedly many instances in parameterized mode); none when the
        /// thread it creates is never scheduled.
        children: Vec<u32>,
    },
    /// Thread `thread` runs alone, without nondeterministic input, until `target` is an
    /// enabled successor of its location (the iterations of a loop beyond the unrolling bound).
    RunUntil {
        /// The thread instance.
        thread: u32,
        /// The location at which it stops (without executing it).
        target: LocId,
    },
}

impl Step {
    /// The thread that takes the step.
    pub fn thread(&self) -> u32 {
        match self {
            Step::Exec { thread, .. } | Step::RunUntil { thread, .. } => *thread,
        }
    }
}

/// How a replay ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Step `step` (0-based) made assertion `assert` fail.
    Failed {
        /// The failing assertion.
        assert: AssertId,
        /// Index of the failing step.
        step: usize,
        /// The over-approximation the failure depends on, if any: then it is no violation.
        rests_on: Option<ApproxId>,
    },
    /// Step `step` could not be executed.
    Rejected {
        /// Index of the rejected step.
        step: usize,
        /// Why.
        reason: String,
    },
    /// The schedule ran out (or the program halted) without a failure.
    Finished,
}

/// A memory access a step made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemAccess {
    /// The address.
    pub addr: i128,
    /// The value read or written.
    pub value: i128,
    /// A write rather than a read.
    pub write: bool,
}

/// What one executed step did, for printing witnesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Executed {
    /// The thread instance.
    pub thread: u32,
    /// The location executed (for a run of several steps, the last one).
    pub loc: LocId,
    /// Its memory accesses.
    pub accesses: Vec<MemAccess>,
    /// Steps taken by a [`Step::RunUntil`] (1 for a plain step).
    pub count: usize,
    /// The threads a fork created.
    pub created: Vec<u32>,
}

#[derive(Clone, Debug)]
struct Thread {
    id: u32,
    template: TemplateId,
    pc: Option<LocId>,
    done: bool,
    allocs: i128,
    depth: u32,
    handle: i128,
    scheduled: bool,
}

/// The interpreter state. A clone is an independent copy (the explicit-state search branches
/// on it).
#[derive(Clone)]
pub struct Interp<'a> {
    prog: &'a Program,
    layout: &'a Layout,
    mem: HashMap<i128, i128>,
    /// The approximation each tainted slot's value depends on.
    taint: HashMap<i128, ApproxId>,
    /// Set once control depended on a tainted value: everything after is tainted.
    control: Option<ApproxId>,
    /// The approximation the last failure rests on.
    failed_on: Option<ApproxId>,
    threads: Vec<Thread>,
    by_id: HashMap<u32, usize>,
    atomic_owner: Option<u32>,
    halted: bool,
    oracle: &'a dyn Fn(i128) -> i128,
    unscheduled: i128,
    /// The executed steps, in order.
    pub trace: Vec<Executed>,
}

/// Where the nondeterministic values of a step come from.
enum Inputs<'v> {
    Given(std::slice::Iter<'v, i128>),
    Zero,
}

struct Ctx<'v> {
    thread: u32,
    inputs: Inputs<'v>,
    accesses: Vec<MemAccess>,
    record: bool,
    /// The approximation a value read or computed by this step depends on.
    taint: Option<ApproxId>,
}

type R<T> = Result<T, String>;

impl<'a> Interp<'a> {
    /// A program in its initial state: the root thread about to run its entry location.
    /// `oracle` gives the initial contents of memory that does not start as zero.
    pub fn new(prog: &'a Program, layout: &'a Layout, oracle: &'a dyn Fn(i128) -> i128) -> Interp<'a> {
        let root = Thread { id: 0, template: TemplateId(0), pc: None, done: false, allocs: 0, depth: 0, handle: 0, scheduled: true };
        let mut by_id = HashMap::new();
        by_id.insert(0, 0);
        Interp {
            prog,
            layout,
            mem: HashMap::new(),
            taint: HashMap::new(),
            control: None,
            failed_on: None,
            threads: vec![root],
            by_id,
            atomic_owner: None,
            halted: false,
            oracle,
            unscheduled: 0,
            trace: Vec::new(),
        }
    }

    /// The threads that may take the next step, each with the locations it may execute next
    /// (its entry, or the successors of its last location): only the owner while a thread is
    /// inside an atomic section, none once the program has halted.
    pub fn runnable(&self) -> Vec<(u32, Vec<LocId>)> {
        if self.halted {
            return Vec::new();
        }
        (0..self.threads.len())
            .filter(|&ti| {
                let t = &self.threads[ti];
                !t.done && t.scheduled && self.atomic_owner.is_none_or(|o| o == t.id)
            })
            .map(|ti| (self.threads[ti].id, self.next_locs(ti)))
            .collect()
    }

    /// Every live scheduled thread with the locations it may execute next, whether or not
    /// another thread's atomic section keeps it from stepping now.
    pub fn positions(&self) -> Vec<(u32, Vec<LocId>)> {
        (0..self.threads.len()).filter(|&ti| !self.threads[ti].done && self.threads[ti].scheduled).map(|ti| (self.threads[ti].id, self.next_locs(ti))).collect()
    }

    /// The instance number the next created thread takes (threads are numbered in creation
    /// order, the root 0).
    pub fn next_thread_id(&self) -> u32 {
        self.threads.iter().filter(|t| t.scheduled).count() as u32
    }

    /// The number of entries the state holds (memory, taint, threads): what a copy costs.
    pub fn footprint(&self) -> usize {
        self.mem.len() + self.taint.len() + self.threads.len()
    }

    /// How many threads of template `t` have been created to run (the root included).
    pub fn scheduled_of(&self, t: TemplateId) -> usize {
        self.threads.iter().filter(|th| th.scheduled && th.template == t).count()
    }

    /// Whether no step so far was taken after a decision (or a store to an address) that
    /// depended on an approximated value: the steps are then the program's own.
    pub fn control_exact(&self) -> bool {
        self.control.is_none()
    }

    /// Whether the slot at `addr` holds a value that depends on an approximation.
    pub fn is_tainted(&self, addr: i128) -> bool {
        self.taint.contains_key(&addr)
    }

    /// The approximation the last failure rests on (`None`: a real failure).
    pub fn failure_rests_on(&self) -> Option<ApproxId> {
        self.failed_on
    }

    /// A 128-bit digest of the whole state, equal for equal states whatever the order of the
    /// steps that built them: memory that holds 0 counts as absent (the oracle of a search
    /// gives 0), and map entries are combined by addition, so iteration order is irrelevant.
    pub fn fingerprint(&self) -> u128 {
        fn mix(mut x: u64) -> u64 {
            x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^ (x >> 31)
        }
        fn entry(tag: u64, a: i128, b: i128) -> u128 {
            let lo = mix(tag ^ mix(a as u64 ^ mix((a >> 64) as u64)) ^ mix(b as u64).rotate_left(17) ^ mix((b >> 64) as u64).rotate_left(41));
            let hi = mix(lo ^ 0x9e37_79b9_7f4a_7c15 ^ tag.rotate_left(7));
            (u128::from(hi) << 64) | u128::from(lo)
        }
        let mut h: u128 = 0;
        for (&a, &v) in self.mem.iter().filter(|(_, v)| **v != 0) {
            h = h.wrapping_add(entry(1, a, v));
        }
        for (&a, t) in &self.taint {
            h = h.wrapping_add(entry(2, a, t.0 as i128));
        }
        for t in &self.threads {
            let pc = t.pc.map_or(-1, |l| l.index() as i128);
            let flags = i128::from(t.done) | i128::from(t.scheduled) << 1 | i128::from(t.depth) << 2 | (t.allocs << 40);
            h = h.wrapping_add(entry(3 ^ (u64::from(t.template.0) << 8), i128::from(t.id) | (t.handle << 32), pc ^ (flags << 32)));
        }
        let misc = self.atomic_owner.map_or(-1, i128::from) ^ (i128::from(self.halted) << 40) ^ (self.unscheduled << 48);
        h = h.wrapping_add(entry(4, misc, self.control.map_or(-1, |c| c.0 as i128)));
        h
    }

    /// Runs a whole schedule, stopping at the first failure or rejected step.
    pub fn run(&mut self, steps: &[Step]) -> Outcome {
        for (i, s) in steps.iter().enumerate() {
            match self.step(s) {
                Ok(None) => {}
                Ok(Some(a)) => return Outcome::Failed { assert: a, step: i, rests_on: self.failed_on },
                Err(reason) => return Outcome::Rejected { step: i, reason },
            }
        }
        Outcome::Finished
    }

    /// Executes one step; `Ok(Some(a))` when assertion `a` fails.
    pub fn step(&mut self, s: &Step) -> R<Option<AssertId>> {
        if self.halted {
            return Err("the program has already halted".into());
        }
        match s {
            Step::Exec { thread, loc, nondets, children } => {
                let ti = self.thread_index(*thread)?;
                self.check_next(ti, *loc)?;
                let mut ctx = Ctx { thread: *thread, inputs: Inputs::Given(nondets.iter()), accesses: Vec::new(), record: true, taint: None };
                let r = self.exec(ti, *loc, &mut ctx, children)?;
                if let Inputs::Given(rest) = &ctx.inputs {
                    if rest.len() > 0 {
                        return Err(format!("{} unused nondeterministic values at {}", rest.len(), self.prog.span_str(self.prog.loc(*loc).span)));
                    }
                }
                let created = if matches!(self.prog.loc(*loc).action, Action::Fork { .. }) { children.clone() } else { Vec::new() };
                self.trace.push(Executed { thread: *thread, loc: *loc, accesses: ctx.accesses, count: 1, created });
                Ok(r)
            }
            Step::RunUntil { thread, target } => {
                let ti = self.thread_index(*thread)?;
                let mut count = 0;
                let mut last = None;
                loop {
                    let succs = self.next_locs(ti);
                    if succs.contains(target) && self.enabled(ti, *target)? {
                        break;
                    }
                    if count >= RUN_UNTIL_LIMIT {
                        return Err(format!("thread T{thread} did not reach {} within {RUN_UNTIL_LIMIT} steps", self.prog.span_str(self.prog.loc(*target).span)));
                    }
                    let mut next = None;
                    for s in succs {
                        if self.enabled(ti, s)? {
                            next = Some(s);
                            break;
                        }
                    }
                    let Some(n) = next else {
                        return Err(format!("thread T{thread} is blocked before reaching {}", self.prog.span_str(self.prog.loc(*target).span)));
                    };
                    self.check_next(ti, n)?;
                    let mut ctx = Ctx { thread: *thread, inputs: Inputs::Zero, accesses: Vec::new(), record: false, taint: None };
                    if let Some(a) = self.exec(ti, n, &mut ctx, &[])? {
                        return Ok(Some(a));
                    }
                    count += 1;
                    last = Some(n);
                    if self.halted {
                        return Err("the program halted while running a loop to its end".into());
                    }
                }
                if let Some(l) = last {
                    self.trace.push(Executed { thread: *thread, loc: l, accesses: Vec::new(), count, created: Vec::new() });
                }
                Ok(None)
            }
        }
    }

    fn thread_index(&self, id: u32) -> R<usize> {
        let ti = *self.by_id.get(&id).ok_or_else(|| format!("thread T{id} does not exist"))?;
        let t = &self.threads[ti];
        if t.done {
            return Err(format!("thread T{id} has already ended"));
        }
        if !t.scheduled {
            return Err(format!("thread T{id} is not scheduled"));
        }
        if let Some(o) = self.atomic_owner {
            if o != id {
                return Err(format!("thread T{o} is inside an atomic section"));
            }
        }
        Ok(ti)
    }

    fn next_locs(&self, ti: usize) -> Vec<LocId> {
        match self.threads[ti].pc {
            None => vec![self.prog.template(self.threads[ti].template).entry],
            Some(pc) => self.prog.loc(pc).succs.clone(),
        }
    }

    fn check_next(&self, ti: usize, loc: LocId) -> R<()> {
        let t = &self.threads[ti];
        if loc.index() >= self.prog.locs.len() || self.prog.loc(loc).template != t.template {
            return Err(format!("{loc} is not a location of thread T{}", t.id));
        }
        let ok = match t.pc {
            None => self.prog.template(t.template).entry == loc,
            Some(pc) => self.prog.loc(pc).succs.contains(&loc),
        };
        if ok {
            Ok(())
        } else {
            Err(format!("{} does not follow the previous location of thread T{}", self.prog.span_str(self.prog.loc(loc).span), t.id))
        }
    }

    /// Whether thread `ti` could execute `loc` now (without nondeterministic input).
    fn enabled(&mut self, ti: usize, loc: LocId) -> R<bool> {
        let thread = self.threads[ti].id;
        let mut ctx = Ctx { thread, inputs: Inputs::Zero, accesses: Vec::new(), record: false, taint: None };
        Ok(match &self.prog.loc(loc).action {
            Action::Assume(c) => self.eval(c, &mut ctx)? != 0,
            Action::Acquire(m) => {
                let a = self.addr(m, &mut ctx)?;
                self.mutex(a)? == 0
            }
            Action::LockBusy(m) => {
                let a = self.addr(m, &mut ctx)?;
                self.mutex(a)? != 0
            }
            Action::Join(h) => {
                let h = self.eval(h, &mut ctx)?;
                self.joinable(h)
            }
            _ => true,
        })
    }

    fn joinable(&self, handle: i128) -> bool {
        self.threads.iter().any(|t| t.handle == handle && t.id != 0 && t.done)
    }

    fn exec(&mut self, ti: usize, loc: LocId, ctx: &mut Ctx, children: &[u32]) -> R<Option<AssertId>> {
        let prog = self.prog;
        let l = prog.loc(loc);
        let here = || prog.span_str(l.span);
        let mut failed = None;
        match &l.action {
            Action::Skip => {}
            Action::Assign(lv, e) => {
                let v = self.eval(e, ctx)?;
                let a = self.store_addr(lv, ctx)?;
                let t = self.scalar_type(lv)?;
                self.store(a, t.convert(v, ADDRESS_MODEL), ctx)?;
            }
            Action::Assume(c) => {
                if self.eval(c, ctx)? == 0 {
                    return Err(format!("the condition of `assume` at {} is false", here()));
                }
            }
            Action::Assert(id, c) => {
                if self.eval(c, ctx)? == 0 {
                    failed = Some(*id);
                    self.failed_on = ctx.taint.or(self.control);
                }
            }
            Action::Alloc(lv, _, _) => {
                let t = &mut self.threads[ti];
                let addr = Layout::heap_addr(t.id, t.allocs);
                t.allocs += 1;
                let a = self.store_addr(lv, ctx)?;
                self.store(a, addr, ctx)?;
            }
            Action::Acquire(m) => {
                let a = self.addr(m, ctx)?;
                let v = self.mutex(a)?;
                ctx.note(a, v, false);
                if v != 0 {
                    return Err(format!("the mutex at {} is held", here()));
                }
                self.store(a, 1, ctx)?;
            }
            Action::Release(m) => {
                let a = self.addr(m, ctx)?;
                self.store(a, 0, ctx)?;
            }
            Action::LockBusy(m) => {
                let a = self.addr(m, ctx)?;
                let v = self.mutex(a)?;
                ctx.note(a, v, false);
                if v == 0 {
                    return Err(format!("the mutex at {} is free, so `trylock` cannot fail", here()));
                }
            }
            Action::Fork { template, handle, arg } => {
                // The front-end leaves out a null argument; the parameter is then NULL.
                let argv = match arg {
                    Some(e) => Some(self.eval(e, ctx)?),
                    None => Some(0),
                };
                if children.len() > 1 && !(prog.mode.parameterized && prog.template(*template).multiplicity == crate::ir::Multiplicity::Unbounded) {
                    return Err(format!("the fork at {} creates one thread", here()));
                }
                let ids: Vec<Option<u32>> = if children.is_empty() { vec![None] } else { children.iter().map(|c| Some(*c)).collect() };
                for child in ids {
                    let h = match child {
                        Some(c) => {
                            if self.by_id.contains_key(&c) || c == 0 {
                                return Err(format!("thread T{c} already exists"));
                            }
                            c as i128
                        }
                        None => {
                            self.unscheduled += 1;
                            UNSCHEDULED_HANDLE_BASE + self.unscheduled - 1
                        }
                    };
                    if let Some(hl) = handle {
                        let a = self.addr(hl, ctx)?;
                        let t = self.scalar_type(hl)?;
                        self.store(a, t.convert(h, ADDRESS_MODEL), ctx)?;
                    }
                    let id = child.unwrap_or(u32::MAX - self.unscheduled as u32);
                    let th = Thread { id, template: *template, pc: None, done: false, allocs: 0, depth: 0, handle: h, scheduled: child.is_some() };
                    if let (Some(c), Some(v), Some(p)) = (child, argv, prog.template(*template).params.first()) {
                        let a = self.layout.var_addr(prog, *p, c);
                        let t = prog.var(*p).ty.scalar(prog.data_model);
                        self.store(a, t.convert(v, ADDRESS_MODEL), ctx)?;
                    }
                    self.by_id.insert(id, self.threads.len());
                    self.threads.push(th);
                }
            }
            Action::Join(h) => {
                let h = self.eval(h, ctx)?;
                if !self.joinable(h) {
                    return Err(format!("`pthread_join` at {} waits for a thread that has not ended", here()));
                }
            }
            Action::AtomicBegin => {
                let t = &mut self.threads[ti];
                t.depth += 1;
                self.atomic_owner = Some(t.id);
            }
            Action::AtomicEnd => {
                let t = &mut self.threads[ti];
                t.depth = t.depth.saturating_sub(1);
                if t.depth == 0 {
                    self.atomic_owner = None;
                }
            }
            Action::Halt(h) => match h {
                Halt::Abort | Halt::Exit => self.halted = true,
                Halt::ThreadExit => self.threads[ti].done = true,
            },
        }
        // Which step could run (an assume passing, a lock taken, a thread joined) depended on
        // an approximated value.
        if matches!(l.action, Action::Assume(_) | Action::Acquire(_) | Action::Release(_) | Action::LockBusy(_) | Action::Join(_)) {
            self.control = self.control.or(ctx.taint);
        }
        let t = &mut self.threads[ti];
        t.pc = Some(loc);
        if l.succs.is_empty() && failed.is_none() {
            t.done = true;
            if t.depth > 0 {
                t.depth = 0;
                self.atomic_owner = None;
            }
        }
        Ok(failed)
    }

    fn scalar_type(&self, lv: &Lval) -> R<Ty> {
        let ct = self.prog.lval_type(lv);
        match ct {
            CType::Float(_) => Err("floating-point values are not interpreted".into()),
            CType::Record(_) | CType::Array(..) | CType::Void | CType::Opaque(_) => Err(format!("a store of an aggregate value (`{}`)", crate::ir::display::lval(self.prog, lv))),
            t => Ok(t.scalar(self.prog.data_model)),
        }
    }

    fn mutex(&self, a: i128) -> R<i128> {
        object(a)?;
        // Mutexes of any storage class start unlocked (PTHREAD_MUTEX_INITIALIZER is zero).
        Ok(self.mem.get(&a).copied().unwrap_or(0))
    }

    fn load(&mut self, a: i128, ctx: &mut Ctx) -> R<i128> {
        object(a)?;
        let v = match self.mem.get(&a) {
            Some(v) => *v,
            None => {
                let v = if self.layout.initially_zero(a) { 0 } else { (self.oracle)(a) };
                self.mem.insert(a, v);
                v
            }
        };
        if let Some(t) = self.taint.get(&a) {
            ctx.taint = ctx.taint.or(Some(*t));
        }
        ctx.note(a, v, false);
        Ok(v)
    }

    fn store(&mut self, a: i128, v: i128, ctx: &mut Ctx) -> R<()> {
        object(a)?;
        ctx.note(a, v, true);
        self.mem.insert(a, v);
        match ctx.taint.or(self.control) {
            Some(t) => {
                self.taint.insert(a, t);
            }
            None => {
                self.taint.remove(&a);
            }
        }
        Ok(())
    }

    /// The address a store writes. Where it depends on an approximated value, the real
    /// program may have written another slot, left this one alone, and so every later value
    /// may differ: everything after is tainted, as after a control decision.
    fn store_addr(&mut self, lv: &Lval, ctx: &mut Ctx) -> R<i128> {
        let value = ctx.taint.take();
        let a = self.addr(lv, ctx)?;
        if let Some(t) = ctx.taint {
            self.control = self.control.or(Some(t));
        }
        ctx.taint = value.or(ctx.taint);
        Ok(a)
    }

    /// The address an lvalue designates.
    fn addr(&mut self, lv: &Lval, ctx: &mut Ctx) -> R<i128> {
        let prog = self.prog;
        Ok(match lv {
            Lval::Var(v) => self.layout.var_addr(prog, *v, ctx.thread),
            Lval::Deref(e, _) => self.eval(e, ctx)?,
            Lval::Index(b, i) => {
                let bt = prog.lval_type(b);
                let (base, elem) = match &bt {
                    CType::Array(e, _) => (self.addr(b, ctx)?, self.layout.slots(e)),
                    CType::Pointer(e) => {
                        let pa = self.addr(b, ctx)?;
                        (self.load(pa, ctx)?, self.layout.slots(e))
                    }
                    _ => return Err("indexing a value that is neither an array nor a pointer".into()),
                };
                let iv = self.eval(i, ctx)?;
                base + iv * elem.max(1)
            }
            Lval::Field(b, r, i) => self.addr(b, ctx)? + self.layout.field_offset(*r, *i),
        })
    }

    /// The value of an expression.
    fn eval(&mut self, e: &Expr, ctx: &mut Ctx) -> R<i128> {
        let prog = self.prog;
        let (dm, am) = (prog.data_model, ADDRESS_MODEL);
        Ok(match e {
            Expr::Const(v, t) => {
                if *t == Ty::Float {
                    return Err("floating-point values are not interpreted".into());
                }
                *v
            }
            Expr::Load(lv) => {
                let ct = prog.lval_type(lv);
                match ct {
                    // An array in a value context is the address of its first element.
                    CType::Array(..) | CType::Function => self.addr(lv, ctx)?,
                    CType::Float(_) => return Err("floating-point values are not interpreted".into()),
                    CType::Record(_) | CType::Void | CType::Opaque(_) => return Err(format!("a load of an aggregate value (`{}`)", crate::ir::display::lval(prog, lv))),
                    t => {
                        let a = self.addr(lv, ctx)?;
                        let v = self.load(a, ctx)?;
                        t.scalar(dm).convert(v, am)
                    }
                }
            }
            Expr::AddrOf(lv) => self.addr(lv, ctx)?,
            Expr::Unary(op, x, t) => {
                if *t == Ty::Float {
                    return Err("floating-point arithmetic is not interpreted".into());
                }
                let v = self.eval(x, ctx)?;
                ops::unary(*op, v, *t, am).map_err(|m| format!("{m} in `{}`", crate::ir::display::expr(prog, e)))?
            }
            Expr::Binary(op, a, b, t) => {
                if *t == Ty::Float {
                    return Err("floating-point arithmetic is not interpreted".into());
                }
                let x = self.eval(a, ctx)?;
                let y = self.eval(b, ctx)?;
                if *t == Ty::Ptr && matches!(op, crate::ir::BinOp::Add | crate::ir::BinOp::Sub) {
                    let s = self.layout.pointee_slots(&ops::ctype_of(prog, a));
                    let off = y.wrapping_mul(s);
                    let r = if *op == crate::ir::BinOp::Add { x.wrapping_add(off) } else { x.wrapping_sub(off) };
                    Ty::Ptr.convert(r, am)
                } else if ops::is_pointer_difference(prog, *op, a, b) {
                    let s = self.layout.pointee_slots(&ops::ctype_of(prog, a));
                    t.convert((x - y) / s, am)
                } else {
                    ops::binary(*op, x, y, *t, am).map_err(|m| format!("{m}: {x} {} {y} in `{}`", op.symbol(), crate::ir::display::expr(prog, e)))?
                }
            }
            Expr::Cast(t, x) => {
                if *t == Ty::Float {
                    return Err("floating-point values are not interpreted".into());
                }
                let v = self.eval(x, ctx)?;
                t.convert(v, am)
            }
            Expr::Nondet(t) | Expr::Havoc(t, _) => {
                if *t == Ty::Float {
                    return Err("floating-point values are not interpreted".into());
                }
                if let Expr::Havoc(_, a) = e {
                    ctx.taint = ctx.taint.or(Some(*a));
                    if prog.approximations[a.0 as usize].control {
                        self.control = self.control.or(Some(*a));
                    }
                }
                let v = match &mut ctx.inputs {
                    Inputs::Given(it) => *it.next().ok_or("the schedule gives too few nondeterministic values")?,
                    Inputs::Zero => 0,
                };
                t.convert(v, am)
            }
        })
    }
}

/// Rejects an access below the first object: NULL, a small integer or a function's address.
/// No object lives there, so the C program crashes instead of reading the 0 that this memory
/// would otherwise give.
fn object(a: i128) -> R<()> {
    if a < GLOBAL_BASE {
        return Err(format!("an access through an invalid pointer ({a:#x}) crashes the program"));
    }
    Ok(())
}

impl Ctx<'_> {
    fn note(&mut self, addr: i128, value: i128, write: bool) {
        if self.record {
            self.accesses.push(MemAccess { addr, value, write });
        }
    }
}

/// The types of the `Nondet` and `Havoc` expressions an action evaluates, in the interpreter's
/// order (it draws a value for each).
pub fn nondet_types(prog: &Program, a: &Action) -> Vec<Ty> {
    let mut out = Vec::new();
    match a {
        Action::Assign(lv, e) => {
            expr_nondets(e, &mut out);
            lval_nondets(lv, &mut out);
        }
        Action::Assume(e) | Action::Assert(_, e) | Action::Join(e) => expr_nondets(e, &mut out),
        Action::Alloc(lv, ..) | Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => lval_nondets(lv, &mut out),
        Action::Fork { handle, arg, .. } => {
            if let Some(e) = arg {
                expr_nondets(e, &mut out);
            }
            if let Some(h) = handle {
                lval_nondets(h, &mut out);
            }
        }
        Action::Skip | Action::AtomicBegin | Action::AtomicEnd | Action::Halt(_) => {}
    }
    let _ = prog;
    out
}

fn expr_nondets(e: &Expr, out: &mut Vec<Ty>) {
    match e {
        Expr::Const(..) => {}
        Expr::Nondet(t) | Expr::Havoc(t, _) => out.push(*t),
        Expr::Load(lv) | Expr::AddrOf(lv) => lval_nondets(lv, out),
        Expr::Unary(_, x, _) | Expr::Cast(_, x) => expr_nondets(x, out),
        Expr::Binary(_, a, b, _) => {
            expr_nondets(a, out);
            expr_nondets(b, out);
        }
    }
}

fn lval_nondets(lv: &Lval, out: &mut Vec<Ty>) {
    match lv {
        Lval::Var(_) => {}
        Lval::Deref(e, _) => expr_nondets(e, out),
        Lval::Index(b, i) => {
            lval_nondets(b, out);
            expr_nondets(i, out);
        }
        Lval::Field(b, _, _) => lval_nondets(b, out),
    }
}
