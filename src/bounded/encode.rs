//! Axiomatic composition (Sinha & Wang §5): the sequential-consistency constraints over the
//! skeleton, as SMT-LIB2 text for Z3.
//!
//! - Happens-before is an integer clock per atomic unit (every non-atomic event is its own
//!   unit); events of one unit share its clock and are ordered by their rank in it, so a unit
//!   is never interleaved.
//! - The copy relation is an integer `ID` per read: `ID_r = id(w)` says that `r` copies `w`
//!   (the initial value has id 0). No Boolean per read-write pair is needed.
//! - For every read `r` and write `w` in its may-copy set:
//!   `ID_r = id(w) ⇒ occ(w) ∧ val(r) = val(w) ∧ loc(r) = loc(w) ∧ HB(w, r) ∧
//!   ⋀ (occ(w') ∧ loc(w') = loc(w) ⇒ HB(w', w) ∨ HB(r, w'))` over the other writes `w'` that
//!   may come between, and `occ(r) ⇒ ⋁ ID_r = id(w)`.
//! - A query per assertion picks a failing instance, which must come before every `abort`,
//!   `exit` and other assertion failure that happens.

use super::prune::{Pruned, Source};
use super::skeleton::{EvKind, Event, Skeleton};
use super::summary::range_constraint;
use super::term::{Terms, T};
use super::Hints;
use crate::interp::layout::{Layout, HEAP_BASE, LOCAL_BASE};
use crate::ir::{AssertId, Program};
use hashbrown::{HashMap, HashSet};
use std::collections::BTreeMap;
use std::time::Instant;

/// Most copy-constraint instances encoded.
pub(crate) const MAX_INSTANCES: u64 = 20_000_000;

/// Size of an encoding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EncodingStats {
    /// Read events.
    pub reads: usize,
    /// Write events.
    pub writes: usize,
    /// Read/write pairs in may-copy sets (`ID_r = id(w)` instances).
    pub copy_pairs: u64,
    /// "No write in between" instances.
    pub between: u64,
    /// Atomic units (clock variables).
    pub units: u32,
    /// Distinct term nodes in the constraints (the formula's size as a shared DAG).
    pub terms: usize,
}

/// The query for one assertion.
pub(crate) struct Query {
    /// The assertion.
    pub assert: AssertId,
    /// The Boolean that activates it.
    pub activate: T,
    /// Per failing instance: its event and its selector.
    pub failures: Vec<(u32, T)>,
}

/// The encoded formula.
pub(crate) struct Encoding {
    /// The constraints (their conjunction is the formula).
    pub constraints: Vec<T>,
    /// Clock per unit.
    pub clocks: Vec<T>,
    /// Queries, one per target assertion that has a failing instance.
    pub queries: Vec<Query>,
    /// Assumed to search for a witness free of signed overflow.
    pub no_overflow: T,
    /// Assumed to search for a witness that runs no loop beyond the bound.
    pub no_havoc: T,
    /// Assumed to search for a witness that reads no over-approximated value.
    pub no_approx: T,
    /// Size figures.
    pub stats: EncodingStats,
}

/// The copy pairs and (at most) the "in between" instances the encoding of `pr` needs, known
/// before any constraint is built.
pub(crate) fn estimate(pr: &Pruned) -> (u64, u64) {
    let (mut pairs, mut between) = (0u64, 0u64);
    for set in &pr.may_copy {
        let k = set.len() as u64;
        pairs += k;
        between += if pr.pruned { k * k.saturating_sub(1) } else { k * (pr.writes.len() as u64) };
    }
    (pairs, between)
}

/// Encodes the skeleton and the queries for `targets`; past `deadline`, gives up with
/// [`super::SEARCH_BUDGET_SPENT`]. With `keep`, it encodes a slice: the instances `keep`
/// leaves out run nothing before the selected failure (`pr` should be restricted to the
/// others, [`Pruned::restrict`]); every model is then an execution of the whole program up to
/// the failure, but `unsat` says nothing about it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn encode(
    prog: &Program,
    layout: &Layout,
    sk: &mut Skeleton,
    pr: &Pruned,
    hints: Option<&Hints>,
    targets: &[AssertId],
    deadline: Option<Instant>,
    keep: Option<&[bool]>,
) -> Result<Encoding, String> {
    let mut stats = EncodingStats { reads: pr.reads.len(), writes: pr.writes.len(), units: sk.units, ..Default::default() };
    (stats.copy_pairs, stats.between) = estimate(pr);
    if stats.copy_pairs + stats.between > MAX_INSTANCES {
        return Err(format!("the encoding would need about {} copy-constraint instances (limit {MAX_INSTANCES})", stats.copy_pairs + stats.between));
    }
    stats.between = 0;
    let clocks: Vec<T> = (0..sk.units).map(|_| sk.terms.fresh((None, None))).collect();
    // The clock of the failure a query selects. Only what happens up to it must be a
    // consistent execution: later events (of threads the failure does not need) are free,
    // which spares the solver from completing every thread.
    let t_fail = sk.terms.fresh((None, None));
    let mut cs: Vec<T> = std::mem::take(&mut sk.constraints);
    let ev = sk.events.clone();
    let ord = Order { ev: &ev, clocks: &clocks, t_fail };
    program_order(&mut sk.terms, &ord, &mut cs);
    if let Some(keep) = keep {
        let mut seen: HashSet<u32> = HashSet::new();
        for e in ev.iter().filter(|e| !keep[e.thread as usize]) {
            if seen.insert(e.unit) {
                let later = sk.terms.lt(t_fail, clocks[e.unit as usize]);
                cs.push(later);
            }
        }
    }
    joins(sk, &ord, &mut cs);
    if let Some(h) = hints {
        read_ranges(prog, &mut sk.terms, &ev, pr, h, &mut cs);
    }
    stats.between = copies(layout, &mut sk.terms, &ord, pr, &mut cs, deadline)?;
    let queries = queries(&mut sk.terms, &ord, targets, keep, &mut cs);
    let t = &mut sk.terms;
    let no_overflow = t.fresh_bool();
    for &g in &sk.no_overflow {
        cs.push(t.implies(no_overflow, g));
    }
    let no_havoc = t.fresh_bool();
    for &p in &sk.havoc_taken {
        let np = t.not(p);
        cs.push(t.implies(no_havoc, np));
    }
    // Ranges of the unknowns.
    for n in 0..t.sym_count() {
        let r = t.sym_range(n);
        if r.0.is_some() || r.1.is_some() {
            let s = t.intern_sym(n);
            if let Some(c) = range_constraint(t, s, r) {
                cs.push(c);
            }
        }
    }
    let no_approx = t.fresh_bool();
    for &p in &sk.approx_taken {
        let np = t.not(p);
        cs.push(t.implies(no_approx, np));
    }
    cs.retain(|c| t.as_bool(*c) != Some(true));
    stats.terms = reachable(t, &cs);
    Ok(Encoding { constraints: cs, clocks, queries, no_overflow, no_havoc, no_approx, stats })
}

/// The events with their clocks: the order the constraints speak of.
struct Order<'a> {
    ev: &'a [Event],
    clocks: &'a [T],
    t_fail: T,
}

impl Order<'_> {
    /// Event `a` happens before event `b`.
    fn before(&self, t: &mut Terms, a: u32, b: u32) -> T {
        let (ea, eb) = (&self.ev[a as usize], &self.ev[b as usize]);
        if ea.unit == eb.unit {
            t.bool(ea.rank < eb.rank)
        } else {
            t.lt(self.clocks[ea.unit as usize], self.clocks[eb.unit as usize])
        }
    }

    /// Event `e`'s unit runs no later than the selected failure.
    fn by_fail(&self, t: &mut Terms, e: &Event) -> T {
        t.le(self.clocks[e.unit as usize], self.t_fail)
    }
}

/// Program order, forks and the order inside threads, between units.
fn program_order(t: &mut Terms, ord: &Order, cs: &mut Vec<T>) {
    let mut seen: HashSet<(u32, u32)> = HashSet::new();
    for e in ord.ev {
        for &p in &e.preds {
            let pu = ord.ev[p as usize].unit;
            if pu != e.unit && seen.insert((pu, e.unit)) {
                cs.push(t.lt(ord.clocks[pu as usize], ord.clocks[e.unit as usize]));
            }
        }
    }
}

/// Joins: completing one means a modelled thread with that handle has ended before.
fn joins(sk: &mut Skeleton, ord: &Order, cs: &mut Vec<T>) {
    let t = &mut sk.terms;
    for (j, e) in ord.ev.iter().enumerate() {
        let EvKind::Join { joined } = e.kind else { continue };
        let cands: Vec<u32> = match t.as_const(e.val) {
            Some(h) if h > 0 && (h as usize) < sk.instances.len() => vec![h as u32],
            Some(_) => Vec::new(),
            None => (1..sk.instances.len() as u32).collect(),
        };
        let mut alts = Vec::new();
        for c in cands {
            let hc = t.int(c as i128);
            let same = t.eq(e.val, hc);
            let mut ends = Vec::new();
            for &end in &sk.instances[c as usize].ends {
                let b = ord.before(t, end, j as u32);
                let o = ord.ev[end as usize].occ;
                ends.push(t.and(&[o, b]));
            }
            let any = t.or(&ends);
            alts.push(t.and(&[same, any]));
        }
        let ok = t.or(&alts);
        let by_fail = ord.by_fail(t, e);
        let active = t.and(&[joined, by_fail]);
        cs.push(t.implies(active, ok));
    }
}

/// Ranges COARSEN proved for read values. Not of pointers: COARSEN bounds real addresses
/// (32-bit under ILP32), while here a pointer is an address of the flat 64-bit layout.
fn read_ranges(prog: &Program, t: &mut Terms, ev: &[Event], pr: &Pruned, h: &Hints, cs: &mut Vec<T>) {
    for &r in &pr.reads {
        let e = &ev[r as usize];
        if let Some(a) = e.absloc.filter(|a| prog.memory.info(*a).ty != crate::ir::Ty::Ptr) {
            if let Some(range) = h.ranges.get(&(e.loc, a)) {
                if let Some(c) = range_constraint(t, e.val, *range) {
                    cs.push(t.implies(e.occ, c));
                }
            }
        }
    }
}

/// The copy constraints: each read copies one write it may copy (or the initial contents)
/// with no write to the location in between. Returns the number of "in between" instances.
fn copies(layout: &Layout, t: &mut Terms, ord: &Order, pr: &Pruned, cs: &mut Vec<T>, deadline: Option<Instant>) -> Result<u64, String> {
    let ev = ord.ev;
    let mut between = 0;
    let ids: Vec<T> = pr.reads.iter().map(|_| t.fresh((None, None))).collect();
    let wid: HashMap<u32, i128> = pr.writes.iter().enumerate().map(|(i, &w)| (w, i as i128 + 1)).collect();
    let zero = t.int(0);
    let local = t.int(LOCAL_BASE);
    for (ri, &r) in pr.reads.iter().enumerate() {
        // A large encoding (millions of instances) takes minutes and gigabytes to build: the
        // budget is checked per read, not only between rounds.
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Err(super::SEARCH_BUDGET_SPENT.into());
        }
        let re = ev[r as usize].clone();
        let mutex = matches!(re.kind, EvKind::Read { mutex: true });
        let mut some = Vec::new();
        for &src in &pr.may_copy[ri] {
            // One read may copy hundreds of writes, each with hundreds of writes that may come
            // between: checked per source too, or that read alone overruns the deadline.
            if deadline.is_some_and(|d| Instant::now() > d) {
                return Err(super::SEARCH_BUDGET_SPENT.into());
            }
            let idv = match src {
                Source::Init => 0,
                Source::Write(w) => wid[&w],
            };
            let idc = t.int(idv);
            let is = t.eq(ids[ri], idc);
            some.push(is);
            let mut body = Vec::new();
            match src {
                Source::Init => {
                    let init = if mutex { zero } else { initial_value(layout, t, re.addr, local) };
                    body.push(t.eq(re.val, init));
                }
                Source::Write(w) => {
                    let we = &ev[w as usize];
                    body.push(we.occ);
                    body.push(t.eq(re.val, we.val));
                    body.push(t.eq(re.addr, we.addr));
                    body.push(ord.before(t, w, r));
                }
            }
            // No write to the location between the source and the read.
            let others: &[u32] = if pr.pruned { &pr.may_intervene[ri] } else { &pr.writes };
            for &x in others {
                if Source::Write(x) == src {
                    continue;
                }
                if let Source::Write(w) = src {
                    if pr.write_before(x, w) {
                        continue;
                    }
                }
                let xe = &ev[x as usize];
                let same = match src {
                    Source::Write(w) => t.eq(xe.addr, ev[w as usize].addr),
                    Source::Init => t.eq(xe.addr, re.addr),
                };
                if t.as_bool(same) == Some(false) || t.as_bool(xe.occ) == Some(false) {
                    continue;
                }
                let after_r = ord.before(t, r, x);
                let ok = match src {
                    Source::Write(w) => {
                        let bw = ord.before(t, x, w);
                        t.or(&[bw, after_r])
                    }
                    Source::Init => after_r,
                };
                let cond = t.and(&[xe.occ, same]);
                body.push(t.implies(cond, ok));
                between += 1;
            }
            let b = t.and(&body);
            cs.push(t.implies(is, b));
        }
        let any = t.or(&some);
        let by_fail = ord.by_fail(t, &re);
        let active = t.and(&[re.occ, by_fail]);
        cs.push(t.implies(active, any));
    }
    Ok(between)
}

/// What memory at `addr` holds before any write: zero for the program's locals and for
/// zero-initialised objects, each thread's thread-local globals included, else `init(addr)`.
/// `local` is the first address of thread-local memory.
fn initial_value(layout: &Layout, t: &mut Terms, addr: T, local: T) -> T {
    let zero = t.int(0);
    if let Some(a) = t.as_const(addr) {
        return if layout.initially_zero(a) { zero } else { t.init(addr) };
    }
    let mut g = t.lt(addr, local);
    if let Some((stride, tls)) = layout.thread_locals() {
        // Each thread's thread-local globals start as zero too.
        let heap = t.int(HEAP_BASE);
        let (above, below) = (t.le(local, addr), t.lt(addr, heap));
        let off = t.sub(addr, local);
        let s = t.int(stride);
        let within = t.rem(off, s);
        let n = t.int(tls);
        let in_tls = t.lt(within, n);
        let tl = t.and(&[above, below, in_tls]);
        g = t.or(&[g, tl]);
    }
    let i = t.init(addr);
    t.ite(g, zero, i)
}

/// One query per target assertion with a failing instance: its activation literal selects
/// one failing instance, which must come before every halt and every other failure.
fn queries(t: &mut Terms, ord: &Order, targets: &[AssertId], keep: Option<&[bool]>, cs: &mut Vec<T>) -> Vec<Query> {
    let ev = ord.ev;
    let mut fails: BTreeMap<AssertId, Vec<u32>> = BTreeMap::new();
    let mut halts = Vec::new();
    for (i, e) in ev.iter().enumerate() {
        match e.kind {
            EvKind::Fail(a) if t.as_bool(e.occ) != Some(false) && keep.is_none_or(|k| k[e.thread as usize]) => fails.entry(a).or_default().push(i as u32),
            EvKind::Halt if t.as_bool(e.occ) != Some(false) => halts.push(i as u32),
            _ => {}
        }
    }
    let mut queries = Vec::new();
    for &a in targets {
        let Some(fs) = fails.get(&a) else { continue };
        let act = t.fresh_bool();
        let mut sels = Vec::new();
        let mut failures = Vec::new();
        for &f in fs {
            let sel = t.fresh_bool();
            sels.push(sel);
            failures.push((f, sel));
            let at = t.eq(ord.t_fail, ord.clocks[ev[f as usize].unit as usize]);
            let mut body = vec![ev[f as usize].occ, at];
            let stoppers = halts.iter().copied().chain(fails.iter().filter(|(b, _)| **b != a).flat_map(|(_, v)| v.iter().copied()));
            for h in stoppers.collect::<Vec<_>>() {
                let b = ord.before(t, f, h);
                body.push(t.implies(ev[h as usize].occ, b));
            }
            let b = t.and(&body);
            cs.push(t.implies(sel, b));
        }
        let any = t.or(&sels);
        cs.push(t.implies(act, any));
        queries.push(Query { assert: a, activate: act, failures });
    }
    queries
}

fn reachable(t: &Terms, roots: &[T]) -> usize {
    let mut n = 0;
    t.walk(roots, &mut vec![false; t.len()], |_| n += 1);
    n
}

/// The formula as SMT-LIB2 text, with one `check-sat-assuming` per query.
pub(crate) fn smt_text(prog: &Program, t: &Terms, enc: &Encoding) -> String {
    let mut text = String::new();
    text.push_str("; duet-rs bounded encoding (Sinha & Wang, FSE 2010): clocks, copy IDs, SC axioms\n");
    text.push_str("(set-logic ALL)\n(declare-fun init (Int) Int)\n");
    for n in 0..t.sym_count() {
        text.push_str(&format!("(declare-fun s{n} () Int)\n"));
    }
    for n in 0..t.bsym_count() {
        text.push_str(&format!("(declare-fun b{n} () Bool)\n"));
    }
    let mut defined = Vec::new();
    for &c in &enc.constraints {
        t.define(&[c], &mut defined, &mut text);
        text.push_str("(assert ");
        text.push_str(&t.name(c));
        text.push_str(")\n");
    }
    for q in &enc.queries {
        text.push_str(&format!("; assertion {}\n(check-sat-assuming ({}))\n", prog.assertion_id(q.assert), t.name(q.activate)));
    }
    text
}
