//! The concurrent trace program of an observed run and its CSSA encoding (Wang et al., FM 2009,
//! Sections 3 and 4), with symbolic context bounding (Section 5).
//!
//! Each executed step is an event of its thread; events keep their thread's order and nothing
//! else. An event is re-evaluated symbolically, in the interpreter's evaluation order, over the
//! values it reads: every read of memory is a π-variable, which may take the value of the
//! thread's latest write to that address or of any other thread's write to it (or the initial
//! contents), under the happens-before constraints of the π-function semantics. Addresses stay
//! those of the observed run: an event whose address would differ is not one of the CTP's (its
//! path condition requires the observed address). Branch outcomes are the observed ones, so an
//! event runs only if every `assume` before it in its thread still holds.
//!
//! Execution times `O(u)` are integers per atomic unit (one event, or a whole atomic section):
//! within a thread `<=`, across threads `<`, so that with every `O(u)` in `0..=b` an interleaving
//! has at most `b` context switches.

use super::observe::Observed;
use crate::bounded::summary::{range_constraint, ty_range};
use crate::bounded::term::{int_params, Arith, Terms, T};
use crate::interp::layout::{Layout, ADDRESS_MODEL};
use crate::interp::{ops, MemAccess, Step};
use crate::ir::{Action, AssertId, BinOp, CType, Expr, Halt, LocId, Lval, Program, Ty, UnOp};
use hashbrown::{HashMap, HashSet};

/// One event of the CTP.
#[derive(Clone, Debug)]
pub struct Event {
    /// Index of its thread in [`Ctp::threads`].
    pub thread: usize,
    /// Position in its thread.
    pub idx: usize,
    /// The observed step.
    pub step: Step,
    /// Its memory accesses in the observed run.
    pub accesses: Vec<MemAccess>,
    /// Its atomic unit (the index of its execution time).
    pub unit: usize,
}

/// A concurrent trace program: the events of one run, ordered only within their threads.
pub struct Ctp {
    /// Thread instance numbers, in order of first appearance.
    pub threads: Vec<u32>,
    /// Per thread, its events (global indices) in program order.
    pub by_thread: Vec<Vec<usize>>,
    /// All events, in observed order.
    pub events: Vec<Event>,
    /// Number of atomic units.
    pub units: usize,
    /// Threads whose last observed event ended them (they can be joined).
    pub ended: Vec<bool>,
    /// Addresses that more than one thread accesses; the others need no π-function.
    pub shared: HashSet<i128>,
    /// Per thread: the event that forked it (none for `main`, or a thread forked outside the run).
    pub forked_by: Vec<Option<usize>>,
}

impl Ctp {
    /// The CTP of a run; a step that halted the program, and the failing step of an observed
    /// violation, are left out (every prediction is a prefix of an execution before them).
    pub fn new(prog: &Program, layout: &Layout, obs: &Observed) -> Ctp {
        let mut threads: Vec<u32> = Vec::new();
        let mut index: HashMap<u32, usize> = HashMap::new();
        let mut by_thread: Vec<Vec<usize>> = Vec::new();
        let mut events = Vec::new();
        let mut depth: Vec<u32> = Vec::new();
        let mut open_unit: Vec<Option<usize>> = Vec::new();
        let mut units = 0;
        let mut ended = Vec::new();
        let failing = matches!(obs.end, super::observe::End::Failed(_));
        let n = if failing { obs.steps.len().saturating_sub(1) } else { obs.steps.len() };
        let mut touched: HashMap<i128, u32> = HashMap::new();
        let mut shared = HashSet::new();
        for ex in obs.trace.iter().take(n) {
            for a in &ex.accesses {
                match touched.get(&a.addr) {
                    Some(t) if *t != ex.thread => {
                        shared.insert(a.addr);
                    }
                    Some(_) => {}
                    None => {
                        touched.insert(a.addr, ex.thread);
                    }
                }
            }
        }
        let mut last_unit: Vec<Option<usize>> = Vec::new();
        for (step, ex) in obs.steps.iter().zip(&obs.trace).take(n) {
            let Step::Exec { thread, loc, .. } = step else { continue };
            let action = &prog.loc(*loc).action;
            if matches!(action, Action::Halt(Halt::Abort | Halt::Exit)) {
                break;
            }
            let ti = *index.entry(*thread).or_insert_with(|| {
                threads.push(*thread);
                by_thread.push(Vec::new());
                depth.push(0);
                open_unit.push(None);
                last_unit.push(None);
                ended.push(false);
                threads.len() - 1
            });
            // An event that touches only its thread's memory cannot be told apart from the
            // event before it by any other thread: it shares that event's execution time.
            // (Only its own locals: a branch not taken may still read a global no other
            // thread read in the run.)
            let own = layout.thread_base(*thread)..layout.thread_base(*thread + 1);
            let visible = ex.accesses.iter().any(|a| shared.contains(&a.addr) || !own.contains(&a.addr))
                || !matches!(action, Action::Skip | Action::Assume(_) | Action::Assign(..) | Action::Assert(..) | Action::Fork { .. })
                || matches!(step, Step::Exec { children, .. } if !children.is_empty());
            let unit = match (open_unit[ti], last_unit[ti]) {
                (Some(u), _) => u,
                (None, Some(u)) if !visible => u,
                _ => {
                    units += 1;
                    units - 1
                }
            };
            last_unit[ti] = Some(unit);
            match action {
                Action::AtomicBegin => {
                    depth[ti] += 1;
                    open_unit[ti] = Some(unit);
                }
                Action::AtomicEnd => {
                    depth[ti] = depth[ti].saturating_sub(1);
                    if depth[ti] == 0 {
                        open_unit[ti] = None;
                    }
                }
                _ => {}
            }
            if prog.loc(*loc).succs.is_empty() || matches!(action, Action::Halt(Halt::ThreadExit)) {
                ended[ti] = true;
                open_unit[ti] = None;
            }
            let idx = by_thread[ti].len();
            by_thread[ti].push(events.len());
            events.push(Event { thread: ti, idx, step: step.clone(), accesses: ex.accesses.clone(), unit });
        }
        let mut forked_by = vec![None; threads.len()];
        for (i, ev) in events.iter().enumerate() {
            if let Step::Exec { children, .. } = &ev.step {
                for c in children {
                    if let Some(&t) = index.get(c) {
                        forked_by[t] = Some(i);
                    }
                }
            }
        }
        Ctp { threads, by_thread, events, units, ended, shared, forked_by }
    }
}

/// A place where an assertion can fail in a linearization of the CTP.
#[derive(Clone, Debug)]
pub struct FailSite {
    /// The assertion.
    pub assert: AssertId,
    /// The event at which the thread fails: an `assert`, or the `assume` whose other branch
    /// leads straight to a failure.
    pub event: usize,
    /// The condition under which it fails.
    pub cond: T,
    /// For a branch not taken: the locations from that branch to the failure, each with the
    /// nondet unknowns it evaluates.
    pub flipped: Option<Vec<(LocId, Vec<T>)>>,
}

/// The CSSA encoding of a CTP.
pub struct Encoding {
    /// The terms.
    pub terms: Terms,
    /// Φ_PO ∧ Φ_VD ∧ Φ_PI, and the activations below.
    pub constraints: Vec<T>,
    /// Execution time of each unit.
    pub order: Vec<T>,
    /// Per event: its path condition g(t) (it executes, with the observed addresses).
    pub guard: Vec<T>,
    /// Per event: the nondet unknowns it evaluates, in order.
    pub nondets: Vec<Vec<T>>,
    /// Per event: the π-variables of its reads, in order.
    pub pis: Vec<Vec<T>>,
    /// Where each assertion may fail.
    pub sites: Vec<FailSite>,
    /// Per assertion with sites: the Boolean unknown that activates ¬Φ_PRP for it.
    pub queries: Vec<(AssertId, T)>,
    /// The Boolean unknown that, assumed, bounds every execution time by `b` (context bound).
    pub bounds: Vec<(u32, T)>,
}

/// Figures of an encoding.
#[derive(Clone, Debug, Default)]
pub struct EncodingStats {
    /// Events.
    pub events: usize,
    /// Reads (π-functions).
    pub reads: usize,
    /// Writes.
    pub writes: usize,
    /// Sum over reads of the candidate writes of their π-function.
    pub pi_args: usize,
}

/// Why an event cannot be put in the CTP symbolically.
type R<X> = Result<X, String>;

struct Cursor<'e> {
    /// The observed accesses; `None` for a location never executed in the run (a branch not
    /// taken), whose reads must then have constant addresses.
    accesses: Option<std::slice::Iter<'e, MemAccess>>,
    /// What a branch not taken wrote so far (seen only by its own later reads).
    local: HashMap<i128, T>,
    ok: Vec<T>,
    reads: Vec<(i128, T)>,
    /// The value of every read, in order (π-variable or the thread's own write).
    values: Vec<T>,
    writes: Vec<(i128, T)>,
    nondets: Vec<T>,
    /// π-variables to use for the reads instead of fresh ones (re-evaluating an event).
    reuse: Option<std::slice::Iter<'e, T>>,
}

struct Sym<'a> {
    prog: &'a Program,
    layout: &'a Layout,
    terms: Terms,
    side: Vec<T>,
    shared: &'a HashSet<i128>,
    /// Per thread: the latest value it wrote at each address no other thread touches.
    own: Vec<HashMap<i128, T>>,
    /// The thread whose event is being evaluated.
    thread: usize,
    /// The event being evaluated.
    event: usize,
    /// Addresses written by exactly one event of the CTP, with that event.
    sole_writer: HashMap<i128, usize>,
    /// The values the events evaluated so far wrote, by (event, address).
    written: HashMap<(usize, i128), T>,
    ctp: &'a Ctp,
}

impl Sym<'_> {
    fn convert(&mut self, ty: Ty, v: T) -> T {
        self.terms.convert(ty, v)
    }

    fn read(&mut self, cur: &mut Cursor, addr: T) -> R<T> {
        let Some(accesses) = &mut cur.accesses else {
            let a = self.terms.as_const(addr).ok_or("a branch not taken reads through a pointer")?;
            if let Some(v) = cur.local.get(&a) {
                return Ok(*v);
            }
            let pi = self.terms.fresh((None, None));
            cur.reads.push((a, pi));
            return Ok(pi);
        };
        let acc = accesses.next().ok_or("the event reads more than it did when observed")?;
        if acc.write {
            return Err("the event's accesses differ from the observed ones".into());
        }
        let a = self.terms.int(acc.addr);
        let same = self.terms.eq(addr, a);
        cur.ok.push(same);
        let v = match &mut cur.reuse {
            Some(it) => *it.next().ok_or("the branch reads more than the observed one")?,
            None if !self.shared.contains(&acc.addr) => match self.own[self.thread].get(&acc.addr) {
                Some(v) => *v,
                // Memory starts as zero in the interpreter.
                None => self.terms.int(0),
            },
            None => match self.settled(acc.addr) {
                Some(v) => v,
                None => {
                    let pi = self.terms.fresh((None, None));
                    cur.reads.push((acc.addr, pi));
                    pi
                }
            },
        };
        cur.values.push(v);
        Ok(v)
    }

    /// The value of a read that has only one possible source: the address's only write in the
    /// CTP, made before the reading thread (or an ancestor) was forked, so that it both ran and
    /// came first whenever the read runs (a thread's start argument, data set up before the
    /// forks). Its π-function would have one feasible argument; giving the value itself keeps
    /// the arithmetic on it constant for the solver.
    fn settled(&self, addr: i128) -> Option<T> {
        let &w = self.sole_writer.get(&addr)?;
        let (tw, iw) = (self.ctp.events[w].thread, self.ctp.events[w].idx);
        let (mut t, mut pos) = (self.thread, self.ctp.events[self.event].idx);
        loop {
            if t == tw {
                return (iw < pos).then(|| self.written.get(&(w, addr)).copied()).flatten();
            }
            let f = self.ctp.forked_by[t]?;
            t = self.ctp.events[f].thread;
            pos = self.ctp.events[f].idx + 1;
        }
    }

    fn write(&mut self, cur: &mut Cursor, addr: T, v: T) -> R<()> {
        let Some(accesses) = &mut cur.accesses else {
            let a = self.terms.as_const(addr).ok_or("a branch not taken writes through a pointer")?;
            cur.local.insert(a, v);
            return Ok(());
        };
        let acc = accesses.next().ok_or("the event writes more than it did when observed")?;
        if !acc.write {
            return Err("the event's accesses differ from the observed ones".into());
        }
        let a = self.terms.int(acc.addr);
        let same = self.terms.eq(addr, a);
        cur.ok.push(same);
        if cur.reuse.is_none() && !self.shared.contains(&acc.addr) {
            self.own[self.thread].insert(acc.addr, v);
        }
        if cur.reuse.is_none() {
            self.written.insert((self.event, acc.addr), v);
        }
        cur.writes.push((acc.addr, v));
        Ok(())
    }

    fn addr(&mut self, cur: &mut Cursor, lv: &Lval, thread: u32) -> R<T> {
        let prog = self.prog;
        Ok(match lv {
            Lval::Var(v) => self.terms.int(self.layout.var_addr(prog, *v, thread)),
            Lval::Deref(e, _) => self.eval(cur, e, thread)?,
            Lval::Index(b, i) => {
                let (base, elem) = match prog.lval_type(b) {
                    CType::Array(e, _) => (self.addr(cur, b, thread)?, self.layout.slots(&e)),
                    CType::Pointer(e) => {
                        let pa = self.addr(cur, b, thread)?;
                        (self.read(cur, pa)?, self.layout.slots(&e))
                    }
                    _ => return Err("indexing a value that is neither an array nor a pointer".into()),
                };
                let iv = self.eval(cur, i, thread)?;
                let s = self.terms.int(elem.max(1));
                let off = self.terms.mul(iv, s);
                self.terms.add(base, off)
            }
            Lval::Field(b, r, i) => {
                let base = self.addr(cur, b, thread)?;
                let off = self.terms.int(self.layout.field_offset(*r, *i));
                self.terms.add(base, off)
            }
        })
    }

    fn scalar(&self, lv: &Lval) -> R<Ty> {
        match self.prog.lval_type(lv) {
            CType::Float(_) => Err("floating-point values are not interpreted".into()),
            CType::Record(_) | CType::Array(..) | CType::Void | CType::Opaque(_) => Err("a store of an aggregate value".into()),
            t => Ok(t.scalar(self.prog.data_model)),
        }
    }

    /// The value of an expression, mirroring the interpreter's evaluation order and semantics.
    fn eval(&mut self, cur: &mut Cursor, e: &Expr, thread: u32) -> R<T> {
        let prog = self.prog;
        Ok(match e {
            Expr::Const(v, t) => {
                if *t == Ty::Float {
                    return Err("floating-point values are not interpreted".into());
                }
                self.terms.int(*v)
            }
            Expr::Load(lv) => match prog.lval_type(lv) {
                CType::Array(..) | CType::Function => self.addr(cur, lv, thread)?,
                CType::Float(_) => return Err("floating-point values are not interpreted".into()),
                CType::Record(_) | CType::Void | CType::Opaque(_) => return Err("a load of an aggregate value".into()),
                t => {
                    let a = self.addr(cur, lv, thread)?;
                    let v = self.read(cur, a)?;
                    self.convert(t.scalar(prog.data_model), v)
                }
            },
            Expr::AddrOf(lv) => self.addr(cur, lv, thread)?,
            Expr::Unary(op, x, t) => {
                if *t == Ty::Float {
                    return Err("floating-point arithmetic is not interpreted".into());
                }
                let v = self.eval(cur, x, thread)?;
                match op {
                    UnOp::Neg => {
                        let z = self.terms.int(0);
                        let n = self.terms.sub(z, v);
                        self.convert(*t, n)
                    }
                    UnOp::BitNot => {
                        let (bits, signed) = int_params(*t);
                        self.terms.bitnot(bits, signed, v)
                    }
                    UnOp::Not => {
                        let z = self.terms.int(0);
                        let c = self.terms.eq(v, z);
                        self.terms.bool_to_int(c)
                    }
                }
            }
            Expr::Binary(op, a, b, t) => {
                if *t == Ty::Float {
                    return Err("floating-point arithmetic is not interpreted".into());
                }
                let x = self.eval(cur, a, thread)?;
                let y = self.eval(cur, b, thread)?;
                if *t == Ty::Ptr && matches!(op, BinOp::Add | BinOp::Sub) {
                    let s = self.layout.pointee_slots(&ops::ctype_of(prog, a));
                    let sv = self.terms.int(s);
                    let off = self.terms.mul(y, sv);
                    let r = if *op == BinOp::Add { self.terms.add(x, off) } else { self.terms.sub(x, off) };
                    return Ok(self.convert(Ty::Ptr, r));
                }
                if ops::is_pointer_difference(prog, *op, a, b) {
                    let s = self.layout.pointee_slots(&ops::ctype_of(prog, a));
                    let d = self.terms.sub(x, y);
                    let sv = self.terms.int(s);
                    let q = self.terms.div(d, sv);
                    return Ok(self.convert(*t, q));
                }
                if matches!(op, BinOp::Div | BinOp::Rem) {
                    // Division by zero is undefined: the interpreter stops there.
                    let z = self.terms.int(0);
                    let zero = self.terms.eq(y, z);
                    let nz = self.terms.not(zero);
                    cur.ok.push(nz);
                }
                let r = match self.terms.int_binary(*op, *t, x, y) {
                    Arith::Exact(v) => return Ok(v),
                    Arith::Unwrapped(r) => r,
                };
                self.convert(*t, r)
            }
            Expr::Cast(t, x) => {
                if *t == Ty::Float {
                    return Err("floating-point values are not interpreted".into());
                }
                let v = self.eval(cur, x, thread)?;
                self.convert(*t, v)
            }
            // An approximation is a fresh value as an input is; the replay refuses a failure
            // that rests on it.
            Expr::Nondet(t) | Expr::Havoc(t, _) => {
                if *t == Ty::Float {
                    return Err("floating-point inputs are not interpreted".into());
                }
                let r = ty_range(*t, prog);
                let s = self.terms.fresh(r);
                if let Some(c) = range_constraint(&mut self.terms, s, r) {
                    self.side.push(c);
                }
                cur.nondets.push(s);
                s
            }
        })
    }
}

/// What the symbolic evaluation of one event yields.
struct Evaluated {
    /// The event's own condition (assume, lock free, ...), besides its address checks.
    cond: T,
    /// For an `assert`: the asserted condition.
    asserted: Option<(AssertId, T)>,
    ok: Vec<T>,
    reads: Vec<(i128, T)>,
    values: Vec<T>,
    writes: Vec<(i128, T)>,
    nondets: Vec<T>,
    /// For a join: the handle.
    joined: Option<T>,
}

/// The position of an access in its thread: (event index, 0 for reads and 1 for writes, since
/// an action reads before it writes).
type Pos = (usize, u8);

/// Builds the CSSA encoding of a CTP; context bounds `1..=max_bound` get activation literals.
pub fn encode(prog: &Program, layout: &Layout, ctp: &Ctp, max_bound: u32) -> (Encoding, EncodingStats) {
    let mut writers: HashMap<i128, Option<usize>> = HashMap::new();
    for (i, ev) in ctp.events.iter().enumerate() {
        for a in ev.accesses.iter().filter(|a| a.write) {
            let e = writers.entry(a.addr).or_insert(Some(i));
            if *e != Some(i) {
                *e = None;
            }
        }
    }
    let sole_writer = writers.into_iter().filter_map(|(a, w)| Some((a, w?))).collect();
    let mut sym =
        Sym { prog, layout, terms: Terms::new(), side: Vec::new(), shared: &ctp.shared, own: vec![HashMap::new(); ctp.threads.len()], thread: 0, event: 0, sole_writer, written: HashMap::new(), ctp };
    let n = ctp.events.len();
    let order: Vec<T> = (0..ctp.units).map(|_| sym.terms.fresh((Some(0), None))).collect();
    let mut constraints: Vec<T> = Vec::new();
    let zero = sym.terms.int(0);
    for &o in &order {
        let c = sym.terms.le(zero, o);
        constraints.push(c);
    }
    let mut evs: Vec<Option<Evaluated>> = Vec::with_capacity(n);
    let mut allocs = vec![0i128; ctp.threads.len()];
    for (i, ev) in ctp.events.iter().enumerate() {
        sym.thread = ev.thread;
        sym.event = i;
        let k = allocs[ev.thread];
        if matches!(&ev.step, Step::Exec { loc, .. } if matches!(prog.loc(*loc).action, Action::Alloc(..))) {
            allocs[ev.thread] += 1;
        }
        evs.push(evaluate(&mut sym, ev, k).ok());
    }
    constraints.append(&mut sym.side);
    let (guard, attempted) = path_conditions(&mut sym.terms, ctp, &order, &evs, &mut constraints);
    // ¬Φ_PRP: failing assertions, and branches not taken that lead straight to a failure.
    let mut sites = Vec::new();
    let mut extra: Vec<(usize, i128, T)> = Vec::new();
    for (i, e) in evs.iter().enumerate() {
        let Some(e) = e else { continue };
        if let Some((a, c)) = e.asserted {
            let terms = &mut sym.terms;
            let mut cs = vec![attempted[i], e.cond];
            cs.extend(e.ok.iter().copied());
            let nc = terms.truthy(c);
            cs.push(terms.not(nc));
            let cond = terms.and(&cs);
            sites.push(FailSite { assert: a, event: i, cond, flipped: None });
        }
        let pis: Vec<T> = e.values.clone();
        sites.extend(flipped_sites(&mut sym, ctp, i, attempted[i], &pis, &mut extra));
    }
    atomic_sections_complete(&mut sym.terms, prog, ctp, &guard, &sites, &mut constraints);
    let stats = pi_functions(&mut sym.terms, ctp, &order, &evs, &extra, &guard, &attempted, &mut constraints);
    let (queries, bounds) = queries_and_bounds(&mut sym.terms, &sites, &order, max_bound, &mut constraints);
    let nondets = evs.iter().map(|e| e.as_ref().map(|e| e.nondets.clone()).unwrap_or_default()).collect();
    let pis = evs.iter().map(|e| e.as_ref().map(|e| e.reads.iter().map(|r| r.1).collect()).unwrap_or_default()).collect();
    let enc = Encoding { terms: sym.terms, constraints, order, guard, nondets, pis, sites, queries, bounds };
    (enc, stats)
}

/// Φ_PO and the path conditions: program and fork order between the events' units, and for
/// every event the guard under which it runs and the one under which it is attempted.
fn path_conditions(terms: &mut Terms, ctp: &Ctp, order: &[T], evs: &[Option<Evaluated>], constraints: &mut Vec<T>) -> (Vec<T>, Vec<T>) {
    let n = ctp.events.len();
    let tt = terms.tt();
    // Path conditions, thread by thread in program order; a child starts when its fork ran.
    let mut guard = vec![terms.ff(); n];
    let mut attempted = vec![terms.ff(); n];
    let last_unit = |ti: usize| ctp.by_thread[ti].last().map(|&e| ctp.events[e].unit);
    let lt = |terms: &mut Terms, a: usize, b: usize| -> T { terms.lt(order[a], order[b]) };
    // Program order and fork order (Φ_PO).
    for (ti, evs_t) in ctp.by_thread.iter().enumerate() {
        for w in evs_t.windows(2) {
            let (a, b) = (ctp.events[w[0]].unit, ctp.events[w[1]].unit);
            if a != b {
                let c = terms.le(order[a], order[b]);
                constraints.push(c);
            }
        }
        if let (Some(&first), Some(f)) = (evs_t.first(), ctp.forked_by[ti]) {
            let c = lt(terms, ctp.events[f].unit, ctp.events[first].unit);
            constraints.push(c);
        }
    }
    // Guards need the fork's guard first: the observed order has every fork before its
    // child's events, so one pass in observed order sees them in time.
    for i in 0..n {
        let ev = &ctp.events[i];
        let prev = if ev.idx == 0 {
            match ctp.forked_by[ev.thread] {
                Some(f) => guard[f],
                None => tt,
            }
        } else {
            guard[ctp.by_thread[ev.thread][ev.idx - 1]]
        };
        attempted[i] = prev;
        guard[i] = match &evs[i] {
            None => terms.ff(),
            Some(e) => {
                let mut cs = vec![prev, e.cond];
                cs.extend(e.ok.iter().copied());
                if let Some(h) = e.joined {
                    // The joined thread is one that ended, and it ended before the join.
                    let mut alts = Vec::new();
                    for (tj, &t) in ctp.threads.iter().enumerate() {
                        let (Some(&last), Some(lu), true) = (ctp.by_thread[tj].last(), last_unit(tj), ctp.ended[tj]) else { continue };
                        if tj == ev.thread || t == 0 {
                            continue;
                        }
                        let id = terms.int(t as i128);
                        let is = terms.eq(h, id);
                        let before = lt(terms, lu, ev.unit);
                        alts.push(terms.and(&[is, guard[last], before]));
                    }
                    cs.push(terms.or(&alts));
                }
                terms.and(&cs)
            }
        };
    }
    (guard, attempted)
}

/// A thread that enters an atomic section leaves it on the observed path. Its path condition
/// may otherwise fail inside the section, and the prefix would then run other threads while it
/// holds the section: no execution does that, and the replay rejects the schedule. A section
/// holding a failure site is exempt, since the failure ends the run there.
fn atomic_sections_complete(terms: &mut Terms, prog: &Program, ctp: &Ctp, guard: &[T], sites: &[FailSite], constraints: &mut Vec<T>) {
    let failing: HashSet<usize> = sites.iter().map(|s| ctp.events[s.event].unit).collect();
    // Per unit: its first and last event, and whether an atomic section opens in it.
    let mut span: HashMap<usize, (usize, usize, bool)> = HashMap::new();
    for (i, ev) in ctp.events.iter().enumerate() {
        let opens = matches!(&ev.step, Step::Exec { loc, .. } if matches!(prog.loc(*loc).action, Action::AtomicBegin));
        let e = span.entry(ev.unit).or_insert((i, i, false));
        e.1 = i;
        e.2 |= opens;
    }
    let mut units: Vec<(usize, (usize, usize, bool))> = span.into_iter().filter(|(u, (f, l, atomic))| *atomic && f != l && !failing.contains(u)).collect();
    units.sort_unstable();
    for (_, (first, last, _)) in units {
        let c = terms.implies(guard[first], guard[last]);
        constraints.push(c);
    }
}

/// Φ_PI: the π-function of every read (and of the reads `extra` adds for flipped branches):
/// the value of the thread's own latest write or of another thread's write that may come
/// between.
#[allow(clippy::too_many_arguments)]
fn pi_functions(terms: &mut Terms, ctp: &Ctp, order: &[T], evs: &[Option<Evaluated>], extra: &[(usize, i128, T)], guard: &[T], attempted: &[T], constraints: &mut Vec<T>) -> EncodingStats {
    let n = ctp.events.len();
    let zero = terms.int(0);
    // Φ_PI: the π-function of every read.
    let mut writes_at: HashMap<i128, Vec<(usize, T)>> = HashMap::new();
    for (i, e) in evs.iter().enumerate() {
        if let Some(e) = e {
            for &(a, v) in &e.writes {
                writes_at.entry(a).or_default().push((i, v));
            }
        }
    }
    let mut stats = EncodingStats { events: n, ..Default::default() };
    stats.writes = writes_at.values().map(|v| v.len()).sum();
    // HB between two accesses (event, is-write): program order within a thread, `<` of
    // execution times across threads.
    let hb = |terms: &mut Terms, a: (usize, u8), b: (usize, u8)| -> T {
        let (ea, eb) = (&ctp.events[a.0], &ctp.events[b.0]);
        if ea.thread == eb.thread {
            let pa: Pos = (ea.idx, a.1);
            let pb: Pos = (eb.idx, b.1);
            terms.bool(pa < pb)
        } else {
            terms.lt(order[ea.unit], order[eb.unit])
        }
    };
    let all_reads = evs.iter().enumerate().flat_map(|(t, e)| e.iter().flat_map(move |e| e.reads.iter().map(move |&(a, pi)| (t, a, pi))));
    for (t, a, pi) in all_reads.chain(extra.iter().copied()) {
        {
            stats.reads += 1;
            let ws: &[(usize, T)] = writes_at.get(&a).map(|v| v.as_slice()).unwrap_or(&[]);
            let th = ctp.events[t].thread;
            let tidx = ctp.events[t].idx;
            // The thread's own latest write before this event hides its earlier ones.
            let own = ws.iter().filter(|(w, _)| ctp.events[*w].thread == th && ctp.events[*w].idx < tidx).max_by_key(|(w, _)| ctp.events[*w].idx).copied();
            let mut cands: Vec<Option<(usize, T)>> = Vec::new();
            match own {
                Some(o) => cands.push(Some(o)),
                None => cands.push(None),
            }
            cands.extend(ws.iter().filter(|(w, _)| ctp.events[*w].thread != th).map(|x| Some(*x)));
            stats.pi_args += cands.len();
            let mut alts = Vec::new();
            for (i, ci) in cands.iter().enumerate() {
                let mut cs = Vec::new();
                match ci {
                    None => {
                        // The initial contents: the interpreter's memory starts as zero.
                        cs.push(terms.eq(pi, zero));
                    }
                    Some((w, v)) => {
                        cs.push(terms.eq(pi, *v));
                        cs.push(guard[*w]);
                        cs.push(hb(terms, (*w, 1), (t, 0)));
                    }
                }
                for (j, cj) in cands.iter().enumerate() {
                    let (true, Some((wj, _))) = (i != j, cj) else { continue };
                    let before = match ci {
                        None => terms.ff(),
                        Some((wi, _)) => hb(terms, (*wj, 1), (*wi, 1)),
                    };
                    let after = hb(terms, (t, 0), (*wj, 1));
                    let not_run = terms.not(guard[*wj]);
                    cs.push(terms.or(&[not_run, before, after]));
                }
                alts.push(terms.and(&cs));
            }
            let any = terms.or(&alts);
            let c = terms.implies(attempted[t], any);
            constraints.push(c);
        }
    }
    stats
}

/// One query literal per assertion (some failure site of it is reached) and one activation
/// literal per context bound.
#[allow(clippy::type_complexity)]
fn queries_and_bounds(terms: &mut Terms, sites: &[FailSite], order: &[T], max_bound: u32, constraints: &mut Vec<T>) -> (Vec<(AssertId, T)>, Vec<(u32, T)>) {
    let mut queries: Vec<(AssertId, T)> = Vec::new();
    let mut ids: Vec<AssertId> = sites.iter().map(|s| s.assert).collect();
    ids.sort();
    ids.dedup();
    for a in ids {
        let q = terms.fresh_bool();
        let fails: Vec<T> = sites.iter().filter(|s| s.assert == a).map(|s| s.cond).collect();
        let any = terms.or(&fails);
        constraints.push(terms.implies(q, any));
        queries.push((a, q));
    }
    let mut bounds = Vec::new();
    for b in 1..=max_bound {
        let lit = terms.fresh_bool();
        let bv = terms.int(b as i128);
        let all: Vec<T> = order.iter().map(|&o| terms.le(o, bv)).collect();
        let all = terms.and(&all);
        constraints.push(terms.implies(lit, all));
        bounds.push((b, lit));
    }
    (queries, bounds)
}

/// Symbolic evaluation of one event over its observed accesses.
fn evaluate(sym: &mut Sym, ev: &Event, alloc_k: i128) -> R<Evaluated> {
    let Step::Exec { thread, loc, children, .. } = &ev.step else { return Err("not an executed step".into()) };
    let thread = *thread;
    let prog = sym.prog;
    let mut cur = Cursor { accesses: Some(ev.accesses.iter()), local: HashMap::new(), ok: Vec::new(), reads: Vec::new(), writes: Vec::new(), nondets: Vec::new(), reuse: None, values: Vec::new() };
    let mut cond = sym.terms.tt();
    let mut asserted = None;
    let mut joined = None;
    match &prog.loc(*loc).action {
        Action::Skip | Action::AtomicBegin | Action::AtomicEnd | Action::Halt(_) => {}
        Action::Assign(lv, e) => {
            let v = sym.eval(&mut cur, e, thread)?;
            let a = sym.addr(&mut cur, lv, thread)?;
            let t = sym.scalar(lv)?;
            let v = sym.convert(t, v);
            sym.write(&mut cur, a, v)?;
        }
        Action::Assume(c) => {
            let v = sym.eval(&mut cur, c, thread)?;
            cond = sym.terms.truthy(v);
        }
        Action::Assert(id, c) => {
            let v = sym.eval(&mut cur, c, thread)?;
            asserted = Some((*id, v));
        }
        Action::Alloc(lv, ..) => {
            let h = sym.terms.int(Layout::heap_addr(thread, alloc_k));
            let a = sym.addr(&mut cur, lv, thread)?;
            sym.write(&mut cur, a, h)?;
        }
        Action::Acquire(m) => {
            let a = sym.addr(&mut cur, m, thread)?;
            let v = sym.read(&mut cur, a)?;
            let z = sym.terms.int(0);
            cond = sym.terms.eq(v, z);
            let one = sym.terms.int(1);
            sym.write(&mut cur, a, one)?;
        }
        Action::Release(m) => {
            let a = sym.addr(&mut cur, m, thread)?;
            let z = sym.terms.int(0);
            sym.write(&mut cur, a, z)?;
        }
        Action::LockBusy(m) => {
            let a = sym.addr(&mut cur, m, thread)?;
            let v = sym.read(&mut cur, a)?;
            let z = sym.terms.int(0);
            let free = sym.terms.eq(v, z);
            cond = sym.terms.not(free);
        }
        Action::Fork { template, handle, arg } => {
            let argv = match arg {
                Some(e) => sym.eval(&mut cur, e, thread)?,
                None => sym.terms.int(0),
            };
            if children.is_empty() {
                // A thread that is never scheduled: its handle is the interpreter's, as observed.
                if let Some(hl) = handle {
                    let a = sym.addr(&mut cur, hl, thread)?;
                    let seen = cur.accesses.as_ref().and_then(|it| it.clone().find(|x| x.write)).map(|x| x.value).ok_or("a fork without its handle's write")?;
                    let h = sym.terms.int(seen);
                    sym.write(&mut cur, a, h)?;
                }
            }
            for &c in children {
                if let Some(hl) = handle {
                    let a = sym.addr(&mut cur, hl, thread)?;
                    let t = sym.scalar(hl)?;
                    let h = sym.terms.int(t.convert(c as i128, ADDRESS_MODEL));
                    sym.write(&mut cur, a, h)?;
                }
                if let Some(p) = prog.template(*template).params.first() {
                    let a = sym.terms.int(sym.layout.var_addr(prog, *p, c));
                    let t = prog.var(*p).ty.scalar(prog.data_model);
                    let v = sym.convert(t, argv);
                    sym.write(&mut cur, a, v)?;
                }
            }
        }
        Action::Join(h) => {
            joined = Some(sym.eval(&mut cur, h, thread)?);
        }
    }
    if cur.accesses.as_mut().and_then(|a| a.next()).is_some() {
        return Err("the event accesses less memory than it did when observed".into());
    }
    Ok(Evaluated { cond, asserted, ok: cur.ok, reads: cur.reads, values: cur.values, writes: cur.writes, nondets: cur.nondets, joined })
}

/// The longest path, after a branch not taken, searched for a failure.
const FLIP_DEPTH: usize = 16;

/// The most failure paths kept per branch not taken.
const FLIP_PATHS: usize = 8;

/// Failure sites at an observed `assume` whose sibling branch leads, within a few locations
/// that only branch, skip or assign, to an assertion that can fail. The sibling's condition
/// is evaluated over the observed event's reads when it reads the same places (a condition
/// and its negation); the locations after it, never executed in the run, read from constant
/// addresses, each read with its π-function at the observed event's place. Replay checks it.
fn flipped_sites(sym: &mut Sym, ctp: &Ctp, i: usize, attempted: T, pis: &[T], extra: &mut Vec<(usize, i128, T)>) -> Vec<FailSite> {
    let prog = sym.prog;
    let ev = &ctp.events[i];
    let Step::Exec { thread, loc, .. } = &ev.step else { return Vec::new() };
    if !matches!(prog.loc(*loc).action, Action::Assume(_)) || ev.idx == 0 {
        return Vec::new();
    }
    let prev = ctp.by_thread[ev.thread][ev.idx - 1];
    let Step::Exec { loc: ploc, .. } = &ctp.events[prev].step else { return Vec::new() };
    let mut out = Vec::new();
    for &s in &prog.loc(*ploc).succs {
        if s == *loc || !matches!(prog.loc(s).action, Action::Assume(_)) {
            continue;
        }
        let mut paths = Vec::new();
        failure_paths(prog, &mut vec![s], &mut paths);
        for (path, a) in paths {
            let mut cs = vec![attempted];
            let mut steps = Vec::new();
            let mut local = HashMap::new();
            let mut reads = Vec::new();
            let mut failed = false;
            for (k, &l) in path.iter().enumerate() {
                let mark = sym.side.len();
                let first = k == 0;
                let mut r = None;
                for observed in [true, false] {
                    if observed && !first {
                        continue;
                    }
                    sym.side.truncate(mark);
                    let mut cur = Cursor {
                        accesses: observed.then(|| ev.accesses.iter()),
                        local: local.clone(),
                        ok: Vec::new(),
                        reads: Vec::new(),
                        writes: Vec::new(),
                        nondets: Vec::new(),
                        reuse: observed.then(|| pis.iter()),
                        values: Vec::new(),
                    };
                    let last = k + 1 == path.len();
                    let res: R<Option<T>> = match &prog.loc(l).action {
                        Action::Skip => Ok(None),
                        Action::Assume(c) => sym.eval(&mut cur, c, *thread).map(|v| Some(sym.terms.truthy(v))),
                        Action::Assert(_, c) if last => sym.eval(&mut cur, c, *thread).map(|v| {
                            let t = sym.terms.truthy(v);
                            Some(sym.terms.not(t))
                        }),
                        Action::Assign(lv, e) => (|| {
                            let v = sym.eval(&mut cur, e, *thread)?;
                            let ad = sym.addr(&mut cur, lv, *thread)?;
                            let t = sym.scalar(lv)?;
                            let v = sym.convert(t, v);
                            sym.write(&mut cur, ad, v)?;
                            Ok(None)
                        })(),
                        _ => Err("unexpected action".into()),
                    };
                    if let Ok(c) = res {
                        r = Some((c, cur));
                        break;
                    }
                }
                let Some((c, cur)) = r else {
                    failed = true;
                    break;
                };
                cs.extend(cur.ok.iter().copied());
                cs.extend(c);
                if cur.accesses.is_none() {
                    reads.extend(cur.reads.iter().map(|&(ad, pi)| (i, ad, pi)));
                }
                local = cur.local;
                steps.push((l, cur.nondets));
            }
            if failed {
                continue;
            }
            cs.append(&mut sym.side);
            extra.extend(reads);
            let cond = sym.terms.and(&cs);
            out.push(FailSite { assert: a, event: i, cond, flipped: Some(steps) });
        }
    }
    out
}

/// Paths from the branch in `path` to an assertion, through locations that branch, skip or
/// assign (depth-first, at most [`FLIP_PATHS`]).
fn failure_paths(prog: &Program, path: &mut Vec<LocId>, out: &mut Vec<(Vec<LocId>, AssertId)>) {
    if out.len() >= FLIP_PATHS || path.len() > FLIP_DEPTH {
        return;
    }
    let cur = *path.last().expect("a path has a start");
    for &next in &prog.loc(cur).succs {
        if path.contains(&next) {
            continue;
        }
        match &prog.loc(next).action {
            Action::Assert(a, _) => {
                let mut p = path.clone();
                p.push(next);
                out.push((p, *a));
            }
            Action::Skip | Action::Assume(_) | Action::Assign(..) => {
                path.push(next);
                failure_paths(prog, path, out);
                path.pop();
            }
            _ => {}
        }
    }
}
