//! Counterexample-guided refinement of the exception set (the refinement loop issue 14 asks
//! for; the paper, SAS 2007, leaves the choice of exceptions open).
//!
//! The exception set is described by *exact thread states* `T`: triples (global store, class,
//! local store). A program state is an exception when one of its threads stands in a thread
//! state of `T`, so per global store `g` the exception set is the union of the products
//! `{g} × … × T_c^[g] × …`, and its complement is the product of the complements. Subtracting
//! it from a product keeps a product, so `α(Q \ E)` is exact and costs one set difference per
//! component (Proposition 8 with an exact inclusion test), and `Q ∩ E` is enumerated state by
//! state.
//!
//! The fixpoint ([`Hybrid`]) keeps two parts: the Cartesian element `X` (per global store and
//! class, the local stores any thread of the class may stand in) and the explicit states `R`
//! reached inside the exception set (plus the initial state). Each state of `R` steps exactly;
//! a successor inside `E` joins `R`, one outside joins `X` by its projection. Each product of
//! `γ X` steps as in [`super::cartesian`]: the part outside `E` joins `X`, the part inside
//! joins `R` state by state. So `γ X ∪ R` contains the initial state and is closed under the
//! step: an over-approximation of the reachable states of the projection, for any `T`. `R`
//! holds only states of `E` that the abstraction reaches, not all of `E` (the paper's
//! `γ_E` adds `E` whole; the smaller set is still closed, hence sound, and more precise).
//!
//! The loop ([`refine`]): compute the fixpoint; for every failing state take its cause and add
//! exact thread states; repeat. A failing state in `γ X` is glued: its asserting thread's
//! state becomes exact, so the next round reaches such states only explicitly. A failing state
//! in `R` has a chain of exact steps back to either the initial state (a real path of the
//! projection: the loop stops for that assertion, and leaves the verdict to the other engines)
//! or a state of `γ X` that the Cartesian product glued together; that state's thread states
//! (the stepping thread's and the others') become exact, which moves the frontier of exactness
//! one step back along the spurious path. Every round adds at least one new thread state (a glued state's components lie
//! outside `T`), so the loop ends; it stops earlier on its round, state or time budget.
//!
//! Threads of one class are interchangeable: states in `R` keep the local stores of a class
//! sorted, and a product steps one representative thread per class.

use super::explicit::StateSet;
use super::model::{Decline, Model};
use super::space::{BitSet, Space};
use crate::ir::AssertId;
use hashbrown::HashMap;
use std::collections::VecDeque;

/// How an explicit state was first reached.
#[derive(Copy, Clone, Debug)]
enum Parent {
    /// The initial state.
    Init,
    /// An exact step from this state of `R`.
    Exact(u32),
    /// A step of a thread of class `class` from local store `from`, out of a state of `γ X` at
    /// global store `g` (that state is this one with the thread put back).
    Glued { g: u32, class: u32, from: u32 },
}

/// The exact thread states: per class, per global store, the local stores.
#[derive(Clone, Default)]
pub struct Exact {
    per_class: Vec<HashMap<u32, BitSet>>,
    len: usize,
}

impl Exact {
    fn new(classes: usize) -> Exact {
        Exact { per_class: vec![HashMap::new(); classes], len: 0 }
    }
    fn get(&self, c: usize, g: u32) -> Option<&BitSet> {
        self.per_class[c].get(&g)
    }
    fn contains(&self, c: usize, g: u32, l: u32) -> bool {
        self.get(c, g).is_some_and(|b| b.contains(l))
    }
    fn insert(&mut self, c: usize, g: u32, l: u32) -> bool {
        let new = self.per_class[c].entry(g).or_default().insert(l);
        self.len += usize::from(new);
        new
    }
    /// Number of exact thread states.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A failing state of the fixpoint, by where it lies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Failure {
    /// Glued by the Cartesian product: a thread of `class` at `l` in global store `g`.
    Glued { g: u32, class: u32, l: u32 },
    /// This explicit state.
    Exact(u32),
}

/// One fixpoint: the Cartesian part `X` and the explicit part `R`.
pub struct Hybrid {
    /// Per global store, per class: the local stores in `X`.
    x: Vec<Vec<BitSet>>,
    /// The explicit states: a global store, then one local store per slot.
    pub r: StateSet,
    parents: Vec<Parent>,
}

impl Hybrid {
    /// Number of (global store, class, local store) triples in `X`.
    pub fn cartesian_size(&self) -> usize {
        self.x.iter().map(|cs| cs.iter().map(BitSet::len).sum::<usize>()).sum()
    }
}

/// Sorts each class's local stores in a state (one state per orbit of the symmetry).
fn canonical(m: &Model, ranges: &[(usize, usize)], t: &mut [u32]) {
    let mut i = 0;
    while i < m.slots.len() {
        let (a, b) = ranges[i];
        t[a..b].sort_unstable();
        i = b - 1;
    }
}

struct Fix<'a, 'm, 'p> {
    space: &'a mut Space<'m, 'p>,
    exact: &'a Exact,
    ranges: Vec<(usize, usize)>,
    h: Hybrid,
    queue: VecDeque<u32>,
    queued: Vec<bool>,
    stack: Vec<u32>,
    max_states: usize,
}

impl Fix<'_, '_, '_> {
    fn m(&self) -> &Model<'_> {
        self.space.m
    }

    fn ensure(&mut self, g: u32) {
        let n = self.space.m.classes.len();
        while self.h.x.len() <= g as usize {
            self.h.x.push(vec![BitSet::default(); n]);
            self.queued.push(false);
        }
    }

    fn mark(&mut self, g: u32) {
        if !self.queued[g as usize] {
            self.queued[g as usize] = true;
            self.queue.push_back(g);
        }
    }

    fn in_e(&self, t: &[u32]) -> bool {
        self.m().slots.iter().enumerate().any(|(i, s)| self.exact.contains(s.class, t[0], t[i + 1]))
    }

    fn add_state(&mut self, t: &[u32], parent: Parent) -> Result<(), Decline> {
        if let Some(k) = self.h.r.insert(t) {
            self.h.parents.push(parent);
            self.stack.push(k as u32);
            if self.h.r.len() > self.max_states {
                return Err(format!("the refinement's fixpoint exceeds {} explicit states", self.max_states));
            }
        }
        Ok(())
    }

    /// Joins the projection of one state outside `E` into `X`.
    fn join_state(&mut self, t: &[u32]) {
        let g = t[0];
        self.ensure(g);
        let mut grew = false;
        for (i, s) in self.space.m.slots.iter().enumerate() {
            grew |= self.h.x[g as usize][s.class].insert(t[i + 1]);
        }
        if grew {
            self.mark(g);
        }
    }

    fn step_state(&mut self, k: u32) -> Result<(), Decline> {
        let m = self.space.m;
        let mut t = self.h.r.get(k as usize).to_vec();
        for i in 0..m.slots.len() {
            let st = self.h.r.get(k as usize);
            let (g, l) = (st[0], st[i + 1]);
            // Two threads of one class in the same local store have the same successors.
            if i > 0 && m.slots[i - 1].class == m.slots[i].class && st[i] == l {
                continue;
            }
            let class = m.slots[i].class;
            for (g2, l2) in self.space.step(class, g, l, &mut |_, _| {})?.to_vec() {
                t.copy_from_slice(self.h.r.get(k as usize));
                t[0] = g2;
                t[i + 1] = l2;
                canonical(m, &self.ranges, &mut t);
                if self.in_e(&t) {
                    self.add_state(&t, Parent::Exact(k))?;
                } else {
                    self.join_state(&t);
                }
            }
        }
        Ok(())
    }

    /// Steps every product of `γ X` at `g`: one representative thread per class.
    fn process(&mut self, g: u32) -> Result<(), Decline> {
        let m = self.space.m;
        let n = m.classes.len();
        let comps: Vec<BitSet> = self.h.x[g as usize].clone();
        if m.slots.iter().any(|s| comps[s.class].is_empty()) {
            return Ok(());
        }
        let mut t = vec![0u32; m.slots.len() + 1];
        for c in 0..n {
            let Some(rep) = m.slots.iter().position(|s| s.class == c) else { continue };
            for r in comps[c].iter() {
                for (g2, r2) in self.space.step(c, g, r, &mut |_, _| {})?.to_vec() {
                    self.ensure(g2);
                    // The product after the step, slot by slot.
                    let slot_comp = |j: usize| -> BitSet {
                        if j == rep {
                            let mut b = BitSet::default();
                            b.insert(r2);
                            b
                        } else {
                            comps[m.slots[j].class].clone()
                        }
                    };
                    let q: Vec<BitSet> = (0..m.slots.len()).map(slot_comp).collect();
                    let empty = BitSet::default();
                    let ts: Vec<&BitSet> = m.slots.iter().map(|s| self.exact.get(s.class, g2).unwrap_or(&empty)).collect();
                    // Outside `E`: the product of the components minus the exact thread states.
                    let outside: Vec<BitSet> = q.iter().zip(&ts).map(|(b, tb)| b.intersect(tb, true)).collect();
                    if outside.iter().all(|b| !b.is_empty()) {
                        let mut grew = false;
                        for (j, s) in m.slots.iter().enumerate() {
                            grew |= self.h.x[g2 as usize][s.class].union(&outside[j]);
                        }
                        if grew {
                            self.mark(g2);
                        }
                    }
                    // Inside `E`, split by the first slot standing in an exact thread state.
                    for p in 0..m.slots.len() {
                        let parts: Vec<Vec<u32>> = (0..m.slots.len())
                            .map(|j| match j.cmp(&p) {
                                std::cmp::Ordering::Less => outside[j].iter().collect(),
                                std::cmp::Ordering::Equal => q[j].intersect(ts[j], false).iter().collect(),
                                std::cmp::Ordering::Greater => q[j].iter().collect(),
                            })
                            .collect();
                        if parts.iter().any(Vec::is_empty) {
                            continue;
                        }
                        let mut idx = vec![0usize; parts.len()];
                        loop {
                            t[0] = g2;
                            for j in 0..parts.len() {
                                t[j + 1] = parts[j][idx[j]];
                            }
                            canonical(m, &self.ranges, &mut t);
                            self.add_state(&t, Parent::Glued { g, class: c as u32, from: r })?;
                            // The next combination, odometer style.
                            let mut j = 0;
                            while j < parts.len() {
                                idx[j] += 1;
                                if idx[j] < parts[j].len() {
                                    break;
                                }
                                idx[j] = 0;
                                j += 1;
                            }
                            if j == parts.len() {
                                break;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The least fixpoint of the hybrid abstraction for the exact thread states `exact`.
pub fn fixpoint(space: &mut Space, exact: &Exact, max_states: usize, deadline: Option<std::time::Instant>) -> Result<Hybrid, Decline> {
    let m = space.m;
    if let Some(c) = m.classes.iter().find(|c| c.count.is_none()) {
        return Err(format!("the refinement loop needs a fixed number of threads, and `{}` has unboundedly many", c.name));
    }
    let ranges = m.class_ranges();
    let width = m.slots.len() + 1;
    let mut f = Fix { space, exact, ranges, h: Hybrid { x: Vec::new(), r: StateSet::new(width), parents: Vec::new() }, queue: VecDeque::new(), queued: Vec::new(), stack: Vec::new(), max_states };
    let (g0, ls) = f.space.initial();
    let mut init = vec![g0];
    init.extend(m.slots.iter().map(|s| ls[s.class]));
    f.ensure(g0);
    f.add_state(&init, Parent::Init)?;
    let mut work = 0usize;
    loop {
        work += 1;
        if work.is_multiple_of(1024) && deadline.is_some_and(|d| std::time::Instant::now() > d) {
            return Err(format!("the refinement loop ran out of time ({} explicit states)", f.h.r.len()));
        }
        if let Some(k) = f.stack.pop() {
            f.step_state(k)?;
        } else if let Some(g) = f.queue.pop_front() {
            f.queued[g as usize] = false;
            f.process(g)?;
        } else {
            break;
        }
    }
    Ok(f.h)
}

/// Whether a thread of class `c` in `(g, l)` fails assertion `a`.
fn fails(space: &Space, a: AssertId, c: usize, g: u32, l: u32) -> bool {
    let m = space.m;
    let gv = &space.globals.items[g as usize];
    let lv = &space.locals[c].items[l as usize];
    m.may_fail(gv, lv).is_some_and(|(pc, _)| m.prog.assertion(a).locs.contains(&pc))
}

/// The failing states of assertion `a` in the fixpoint, in a deterministic order.
fn failures(space: &Space, h: &Hybrid, a: AssertId) -> Vec<Failure> {
    let m = space.m;
    let mut out = Vec::new();
    for (g, cs) in h.x.iter().enumerate() {
        if m.slots.iter().any(|s| cs[s.class].is_empty()) {
            continue;
        }
        for (c, b) in cs.iter().enumerate() {
            for l in b.iter() {
                if fails(space, a, c, g as u32, l) {
                    out.push(Failure::Glued { g: g as u32, class: c as u32, l });
                }
            }
        }
    }
    for k in 0..h.r.len() {
        let s = h.r.get(k);
        if m.slots.iter().enumerate().any(|(i, slot)| fails(space, a, slot.class, s[0], s[i + 1])) {
            out.push(Failure::Exact(k as u32));
        }
    }
    out
}

/// What the loop found for one assertion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No failing state in the last fixpoint.
    Proved,
    /// A path of exact steps from the initial state to a failing state of the projection.
    Reached(String),
    /// The budget ran out first.
    Open(String),
}

/// The loop's result, with its measures.
pub struct Refinement {
    /// Per assertion asked about, in order.
    pub verdicts: Vec<(AssertId, Verdict)>,
    /// Fixpoints computed.
    pub rounds: usize,
    /// Exact thread states at the end.
    pub exact: usize,
    /// Explicit states in the last fixpoint.
    pub explicit_states: usize,
    /// Triples in the Cartesian part of the last fixpoint.
    pub cartesian_size: usize,
}

/// Budget of the loop.
#[derive(Copy, Clone, Debug)]
pub struct Budget {
    /// Fixpoints it may compute.
    pub rounds: usize,
    /// Explicit states one fixpoint may hold.
    pub max_states: usize,
    /// Global or local stores (each) the projection may have.
    pub max_stores: usize,
    /// When to give up.
    pub deadline: Option<std::time::Instant>,
}

/// Runs the refinement loop on the assertions `open`.
pub fn refine(m: &Model, open: &[AssertId], budget: Budget) -> Refinement {
    let mut space = Space::new(m, budget.max_stores);
    let mut exact = Exact::new(m.classes.len());
    let mut verdicts: Vec<(AssertId, Option<Verdict>)> = open.iter().map(|&a| (a, None)).collect();
    let mut rounds = 0;
    let mut last = (0, 0);
    let describe = |space: &Space, s: &[u32]| -> String {
        let parts: Vec<String> = m.slots.iter().enumerate().map(|(i, slot)| format!("{} at {}", slot.name, m.show_line(&space.locals[slot.class].items[s[i + 1] as usize]))).collect();
        let mut text = parts.join(", ");
        text.push_str(&m.with_global(&space.globals.items[s[0] as usize]));
        text
    };
    let stop = |verdicts: &mut Vec<(AssertId, Option<Verdict>)>, why: String| {
        for (_, v) in verdicts.iter_mut().filter(|(_, v)| v.is_none()) {
            *v = Some(Verdict::Open(why.clone()));
        }
    };
    loop {
        if rounds >= budget.rounds {
            stop(&mut verdicts, format!("the refinement loop reached its bound of {} rounds ({} exact thread states)", budget.rounds, exact.len()));
            break;
        }
        rounds += 1;
        let h = match fixpoint(&mut space, &exact, budget.max_states, budget.deadline) {
            Ok(h) => h,
            Err(why) => {
                stop(&mut verdicts, format!("{why} in round {rounds}"));
                break;
            }
        };
        last = (h.r.len(), h.cartesian_size());
        let mut added = false;
        for (a, v) in verdicts.iter_mut().filter(|(_, v)| v.is_none()) {
            let fs = failures(&space, &h, *a);
            if fs.is_empty() {
                *v = Some(Verdict::Proved);
                continue;
            }
            for f in fs {
                match f {
                    Failure::Glued { g, class, l } => added |= exact.insert(class as usize, g, l),
                    Failure::Exact(failing) => {
                        let mut k = failing;
                        loop {
                            match h.parents[k as usize] {
                                Parent::Exact(j) => k = j,
                                Parent::Init => {
                                    if v.is_none() {
                                        *v = Some(Verdict::Reached(describe(&space, h.r.get(failing as usize))));
                                    }
                                    break;
                                }
                                Parent::Glued { g, class, from } => {
                                    added |= exact.insert(class as usize, g, from);
                                    // The other threads of the glued state too: its every
                                    // combination with them is then explored exactly, which
                                    // halves the rounds on Peterson and Dekker (8 to 4, 15 to 4).
                                    let s = h.r.get(k as usize);
                                    for (i, slot) in m.slots.iter().enumerate() {
                                        if s[i + 1] != from || slot.class != class as usize {
                                            added |= exact.insert(slot.class, g, s[i + 1]);
                                        }
                                    }
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
        if verdicts.iter().all(|(_, v)| v.is_some()) {
            break;
        }
        if !added {
            // Cannot happen (a glued state lies outside the exact thread states); a guard.
            stop(&mut verdicts, "the refinement loop found nothing to refine".into());
            break;
        }
    }
    Refinement { verdicts: verdicts.into_iter().map(|(a, v)| (a, v.expect("every assertion gets a verdict"))).collect(), rounds, exact: exact.len(), explicit_states: last.0, cartesian_size: last.1 }
}
