//! Interference pruning (Sinha & Wang §6): which writes each read may copy.
//!
//! - `≺*`, the transitive closure of the skeleton order, gives may-happen-in-parallel: two
//!   events neither of which precedes the other.
//! - A gen-kill pass over the skeleton gives the writes that reach a read along the order: a
//!   write kills the earlier writes to the syntactically same location.
//! - The may-copy set of a read is the reaching writes and the parallel ones, restricted to
//!   writes whose location can equal the read's and which can occur, plus the initial value
//!   when no write to the location is certain before the read.
//!
//! Only writes in the may-copy set can be the last write before the read, so the "no write in
//! between" constraints only need those too (a write outside it is followed, before the read,
//! by a killing write to the same location, which is in it).

use super::skeleton::{EvKind, Skeleton};
use super::term::T;
use super::Hints;
use crate::ir::Program;
use hashbrown::{HashMap, HashSet};

/// A write a read may copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Source {
    /// The initial contents of the location.
    Init,
    /// A write event.
    Write(u32),
}

/// The may-copy sets and the order facts the encoding needs.
pub(crate) struct Pruned {
    /// Read events, in event order.
    pub reads: Vec<u32>,
    /// Write events, in event order.
    pub writes: Vec<u32>,
    /// Per read (parallel to `reads`): what it may copy.
    pub may_copy: Vec<Vec<Source>>,
    /// Per read: the writes that may come between its source and it. These are the may-copy
    /// writes before COARSEN's hints narrow them: a write COARSEN rules out as the source can
    /// still be overwritten in between, and leaving it out would admit spurious models.
    pub may_intervene: Vec<Vec<u32>>,
    /// Per write: the writes that certainly happen before it (indices into `writes`).
    before_w: Vec<Bits>,
    write_index: HashMap<u32, usize>,
    /// Whether pruning was on.
    pub pruned: bool,
}

#[derive(Clone, Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn get(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    fn or(&mut self, o: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= *b;
        }
    }
    fn and(&mut self, o: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a &= *b;
        }
    }
    fn and_not(&mut self, o: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a &= !*b;
        }
    }
    fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| (0..64).filter(move |b| w & (1 << b) != 0).map(move |b| i * 64 + b))
    }
}

impl Pruned {
    /// The reads of the events `keep` accepts, each copying only such writes (or the initial
    /// contents): the may-copy sets of a slice of the threads.
    pub(crate) fn restrict(&self, keep: impl Fn(u32) -> bool) -> Pruned {
        let mut out = Pruned {
            reads: Vec::new(),
            writes: self.writes.clone(),
            may_copy: Vec::new(),
            may_intervene: Vec::new(),
            before_w: self.before_w.clone(),
            write_index: self.write_index.clone(),
            pruned: self.pruned,
        };
        for (i, &r) in self.reads.iter().enumerate().filter(|(_, r)| keep(**r)) {
            out.reads.push(r);
            out.may_copy.push(self.may_copy[i].iter().copied().filter(|s| matches!(s, Source::Init) || matches!(s, Source::Write(w) if keep(*w))).collect());
            out.may_intervene.push(self.may_intervene[i].iter().copied().filter(|&w| keep(w)).collect());
        }
        out
    }

    /// Whether write `a` certainly happens before write `b` (both event ids).
    pub(crate) fn write_before(&self, a: u32, b: u32) -> bool {
        if !self.pruned {
            return false;
        }
        match (self.write_index.get(&a), self.write_index.get(&b)) {
            (Some(&ia), Some(&ib)) => self.before_w[ib].get(ia),
            _ => false,
        }
    }
}

/// The skeleton order's edges, including a join's edge from the joined thread's end when the
/// handle is a constant naming a thread with a single way of ending, and the join precedes
/// every event after it on every path.
pub(crate) fn edges(sk: &Skeleton) -> Vec<Vec<u32>> {
    let mut preds: Vec<Vec<u32>> = sk.events.iter().map(|e| e.preds.clone()).collect();
    let mut succs: Vec<Vec<u32>> = vec![Vec::new(); preds.len()];
    for (e, ps) in preds.iter().enumerate() {
        for &p in ps {
            succs[p as usize].push(e as u32);
        }
    }
    for (i, e) in sk.events.iter().enumerate() {
        if let EvKind::Join { .. } = e.kind {
            if let Some(h) = sk.terms.as_const(e.val) {
                if let Some(inst) = sk.instances.get(h as usize).filter(|_| h > 0) {
                    if inst.ends.len() == 1 && dominates_what_follows(&preds, &succs, i) {
                        preds[i].push(inst.ends[0]);
                    }
                }
            }
        }
    }
    preds
}

/// Whether every event after `j` in program and fork order can happen only once `j` has. The
/// pruning reads an edge as "if both happen, this one first", and chains edges through `j`: an
/// order through a join's edge holds only for events that cannot happen without the join. After
/// `if (c) pthread_join(t, 0);` the branches meet, and the joined thread may still run.
fn dominates_what_follows(preds: &[Vec<u32>], succs: &[Vec<u32>], j: usize) -> bool {
    let mut bypass = vec![false; preds.len()];
    let mut stack: Vec<usize> = (0..preds.len()).filter(|&e| e != j && preds[e].is_empty()).collect();
    for &e in &stack {
        bypass[e] = true;
    }
    while let Some(e) = stack.pop() {
        for &s in &succs[e] {
            let s = s as usize;
            if s != j && !bypass[s] {
                bypass[s] = true;
                stack.push(s);
            }
        }
    }
    let mut after = vec![false; preds.len()];
    let mut stack = vec![j];
    while let Some(e) = stack.pop() {
        for &s in &succs[e] {
            let s = s as usize;
            if bypass[s] {
                return false;
            }
            if !after[s] {
                after[s] = true;
                stack.push(s);
            }
        }
    }
    true
}

/// The events in Kahn's order of the happens-before edges `preds` (join edges point backwards
/// in event numbering), or `None` on a cycle.
fn topological(preds: &[Vec<u32>]) -> Option<Vec<u32>> {
    let n = preds.len();
    let mut succs: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (e, ps) in preds.iter().enumerate() {
        for &p in ps {
            succs[p as usize].push(e as u32);
        }
    }
    let mut indeg: Vec<usize> = preds.iter().map(|p| p.len()).collect();
    let mut topo: Vec<u32> = Vec::with_capacity(n);
    let mut ready: Vec<u32> = (0..n as u32).filter(|&e| indeg[e as usize] == 0).rev().collect();
    while let Some(e) = ready.pop() {
        topo.push(e);
        for &s in succs[e as usize].iter().rev() {
            indeg[s as usize] -= 1;
            if indeg[s as usize] == 0 {
                ready.push(s);
            }
        }
    }
    (topo.len() == n).then_some(topo)
}

/// Computes the may-copy sets; with `prune` false every write (and the initial value) is a
/// candidate for every read, as in the eager encoding.
pub(crate) fn prune(prog: &Program, sk: &mut Skeleton, prune: bool, hints: Option<&Hints>) -> Pruned {
    let n = sk.events.len();
    let reads: Vec<u32> = (0..n as u32).filter(|&e| sk.events[e as usize].is_read()).collect();
    let writes: Vec<u32> = (0..n as u32).filter(|&e| sk.events[e as usize].is_write()).collect();
    let write_index: HashMap<u32, usize> = writes.iter().enumerate().map(|(i, &w)| (w, i)).collect();
    if !prune {
        let mut all: Vec<Source> = vec![Source::Init];
        all.extend(writes.iter().map(|&w| Source::Write(w)));
        let may_copy = reads.iter().map(|_| all.clone()).collect();
        return Pruned { reads, writes, may_copy, may_intervene: Vec::new(), before_w: Vec::new(), write_index, pruned: false };
    }
    let preds = edges(sk);
    let Some(topo) = topological(&preds) else {
        // A cycle can only come from join edges of an inconsistent program; fall back to eager.
        return self::prune(prog, sk, false, hints);
    };
    let w = writes.len();
    // Writes that are ancestors of each event; reads that are ancestors of each event.
    let read_index: HashMap<u32, usize> = reads.iter().enumerate().map(|(i, &r)| (r, i)).collect();
    let mut anc_w: Vec<Bits> = vec![Bits::new(w); n];
    let mut anc_r: Vec<Bits> = vec![Bits::new(reads.len()); n];
    // Reaching writes and the locations certainly written, by term.
    let mut locs: Vec<T> = writes.iter().map(|&x| sk.events[x as usize].addr).collect();
    locs.sort();
    locs.dedup();
    let loc_index: HashMap<T, usize> = locs.iter().enumerate().map(|(i, l)| (*l, i)).collect();
    let mut kill: Vec<Bits> = vec![Bits::new(w); locs.len()];
    for (i, &x) in writes.iter().enumerate() {
        kill[loc_index[&sk.events[x as usize].addr]].set(i);
    }
    let mut rd_out: Vec<Bits> = vec![Bits::new(w); n];
    let mut mw_out: Vec<Bits> = vec![Bits::new(locs.len()); n];
    let mut rd_in_reads: HashMap<u32, Bits> = HashMap::new();
    let mut mw_in_reads: HashMap<u32, Bits> = HashMap::new();
    for &e in &topo {
        let ei = e as usize;
        let mut aw = Bits::new(w);
        let mut ar = Bits::new(reads.len());
        let mut rd = Bits::new(w);
        let mut mw: Option<Bits> = None;
        for &p in &preds[ei] {
            let pi = p as usize;
            aw.or(&anc_w[pi]);
            ar.or(&anc_r[pi]);
            if let Some(&wi) = write_index.get(&p) {
                aw.set(wi);
            }
            if let Some(&ri) = read_index.get(&p) {
                ar.set(ri);
            }
            rd.or(&rd_out[pi]);
            match &mut mw {
                None => mw = Some(mw_out[pi].clone()),
                Some(m) => m.and(&mw_out[pi]),
            }
        }
        let mut mw = mw.unwrap_or_else(|| Bits::new(locs.len()));
        if sk.events[ei].is_read() {
            rd_in_reads.insert(e, rd.clone());
            mw_in_reads.insert(e, mw.clone());
        }
        if let Some(&wi) = write_index.get(&e) {
            let li = loc_index[&sk.events[ei].addr];
            rd.and_not(&kill[li]);
            rd.set(wi);
            mw.set(li);
        }
        anc_w[ei] = aw;
        anc_r[ei] = ar;
        rd_out[ei] = rd;
        mw_out[ei] = mw;
    }
    let hint_keys: Option<HashSet<(crate::ir::LocId, crate::ir::AbsLoc)>> = hints.map(|h| h.flows.iter().map(|(_, a, r)| (*r, *a)).collect());
    // Reads whose value COARSEN lets come from a template's entry: the initial value of a
    // global (the root's entry), or whatever a thread's own escaped local holds before its
    // first store. Only these may copy the initial contents of memory.
    let entries: HashSet<crate::ir::LocId> = prog.templates.iter().map(|t| t.entry).collect();
    let init_keys: HashSet<(crate::ir::LocId, crate::ir::AbsLoc)> = hints.map(|h| h.flows.iter().filter(|(s, _, _)| entries.contains(s)).map(|(_, a, r)| (*r, *a)).collect()).unwrap_or_default();
    let mut may_copy = Vec::with_capacity(reads.len());
    let mut may_intervene = Vec::with_capacity(reads.len());
    for &r in &reads {
        let ri = read_index[&r];
        let re = sk.events[r as usize].clone();
        let mut cands = rd_in_reads.remove(&r).unwrap_or_else(|| Bits::new(w));
        // Parallel writes: neither an ancestor nor a descendant of the read.
        for (wi, &x) in writes.iter().enumerate() {
            if !anc_w[r as usize].get(wi) && !anc_r[x as usize].get(ri) {
                cands.set(wi);
            }
        }
        // Lock operations are not reads in COARSEN's IR, so its flows say nothing about them.
        let restrict = match (&hint_keys, re.absloc, &re.kind) {
            (Some(keys), Some(a), EvKind::Read { mutex: false }) if keys.contains(&(re.loc, a)) => Some(a),
            _ => None,
        };
        let mut set = Vec::new();
        let mut intervene = Vec::new();
        let mw = mw_in_reads.remove(&r).unwrap_or_else(|| Bits::new(locs.len()));
        let certainly_written = loc_index.get(&re.addr).is_some_and(|&li| mw.get(li));
        let init_ok = match restrict {
            Some(a) => init_keys.contains(&(re.loc, a)),
            None => true,
        };
        if !certainly_written && init_ok {
            set.push(Source::Init);
        }
        for wi in cands.ones() {
            let x = writes[wi];
            let we = &sk.events[x as usize];
            if sk.terms.as_bool(we.occ) == Some(false) {
                continue;
            }
            let same = sk.terms.eq(we.addr, re.addr);
            if sk.terms.as_bool(same) == Some(false) {
                continue;
            }
            intervene.push(x);
            // Only a store COARSEN knows as one (not a lock release, say) can be ruled out.
            if let (Some(a), Some(h)) = (restrict, hints) {
                if crate::ir::memory::stores_to(prog, we.loc, a) && !h.flows.contains(&(we.loc, a, re.loc)) {
                    continue;
                }
            }
            set.push(Source::Write(x));
        }
        may_copy.push(set);
        may_intervene.push(intervene);
    }
    // Writes certainly before each write, for the "in between" constraints.
    let before_w = writes.iter().map(|&x| anc_w[x as usize].clone()).collect();
    Pruned { reads, writes, may_copy, may_intervene, before_w, write_index, pruned: true }
}
