//! Exact reachability of the projection: the exception set grown to all reachable states.
//!
//! Section 3 of the paper observes that an exception set that is a post-fixed point of the
//! program's step (containing the initial states) makes the abstraction exact. This is the
//! last refinement when the Cartesian fixpoint still holds a failing state: explore the
//! projection's states one by one, within a state budget. Threads of one class are
//! interchangeable, so a state keeps their positions sorted (one state per orbit).
//!
//! A thread's entry in a state is a *position*: the set of local stores it may stand in, all
//! reached from its last step by local steps and branch choices (`settle`). A C condition
//! becomes a pair of `assume`s, and the thread picks one before it reads the cells they test;
//! keeping the pick open (the thread stands at both until one of them runs) gives one state
//! where the IR has two, for every thread waiting on a condition. This is exact: the choice
//! is invisible to the other threads and to every assertion but the thread's own (checked on
//! every member), and the position's futures are the union of its members'.

use super::model::{Decline, Model};
use super::space::Space;
use crate::ir::AssertId;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The reachable states of the projection (up to the reduction described at [`settle`]).
pub struct Explicit<'m, 'p> {
    /// The stores.
    pub space: Space<'m, 'p>,
    /// Every reachable state: global store, then each slot's position.
    pub states: StateSet,
    /// Per class: the positions (sorted sets of local store numbers), numbered.
    positions: Vec<Positions>,
}

/// Sets of local stores a thread may stand in, numbered in order of discovery.
#[derive(Default)]
pub(super) struct Positions {
    /// The sets by number.
    pub(super) items: Vec<Box<[u32]>>,
    index: hashbrown::HashMap<Box<[u32]>, u32>,
}

impl Positions {
    /// The number of a set, new or not.
    pub(super) fn intern(&mut self, v: Box<[u32]>) -> u32 {
        if let Some(&i) = self.index.get(&v) {
            return i;
        }
        let i = self.items.len() as u32;
        self.items.push(v.clone());
        self.index.insert(v, i);
        i
    }
}

/// Per class: the successors of each (global store, position) pair, computed once.
pub(super) type PositionCache = hashbrown::HashMap<(u32, u32), Vec<(u32, u32)>>;

/// Successors of a thread of class `class` at position `p` in global store `g`: each member
/// steps, each result settles, and the results with one global store form one position.
pub(super) fn step_position(space: &mut Space, positions: &mut Positions, cache: &mut PositionCache, class: usize, g: u32, p: u32) -> Result<Vec<(u32, u32)>, Decline> {
    if let Some(s) = cache.get(&(g, p)) {
        return Ok(s.clone());
    }
    // Ordered by global store, so numbering (and every output) is deterministic.
    let mut by_global: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut settled = Vec::new();
    for &l in positions.items[p as usize].clone().iter() {
        for (g2, l2) in space.step(class, g, l, &mut |_, _| {})?.to_vec() {
            settled.clear();
            settle(space, class, g2, l2, &mut settled)?;
            for &(g3, l3) in &settled {
                by_global.entry(g3).or_default().push(l3);
            }
        }
    }
    let mut out = Vec::with_capacity(by_global.len());
    for (g2, mut ls) in by_global {
        ls.sort_unstable();
        ls.dedup();
        out.push((g2, positions.intern(ls.into_boxed_slice())));
    }
    cache.insert((g, p), out.clone());
    Ok(out)
}

/// A set of states of one width (a global store's number, then one local store's number per
/// slot), packed one after another; the index is open-addressed. A few tens of bytes per
/// state, where a hash set of boxed slices takes about three times as much.
pub struct StateSet {
    width: usize,
    data: Vec<u32>,
    /// Per bucket: the upper half of the state's hash, then its number + 1 (0: empty). A
    /// power of two long, at most half full.
    index: Vec<u64>,
    len: usize,
}

impl StateSet {
    /// An empty set of states of `width` numbers each.
    pub fn new(width: usize) -> StateSet {
        StateSet { width, data: Vec::new(), index: vec![0; 1024], len: 0 }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `k`-th state added.
    pub fn get(&self, k: usize) -> &[u32] {
        &self.data[k * self.width..(k + 1) * self.width]
    }

    fn hash(s: &[u32]) -> u64 {
        let mut h: u64 = 0;
        for &x in s {
            h = (h.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        h ^ (h >> 29)
    }

    /// Adds a state; its number when it was absent.
    pub fn insert(&mut self, s: &[u32]) -> Option<usize> {
        if (self.len + 1) * 2 > self.index.len() {
            let cap = self.index.len() * 2;
            let mut index = vec![0u64; cap];
            for &e in self.index.iter().filter(|&&e| e != 0) {
                let mut p = (e >> 32) as usize & (cap - 1);
                while index[p] != 0 {
                    p = (p + 1) & (cap - 1);
                }
                index[p] = e;
            }
            self.index = index;
        }
        let h = Self::hash(s);
        // The bucket comes from the hash's upper half, which the entry keeps: comparing it
        // first spares most comparisons of whole states, and growing needs no rehash.
        let tag = h >> 32;
        let mask = self.index.len() - 1;
        let mut p = tag as usize & mask;
        loop {
            match self.index[p] {
                0 => {
                    self.data.extend_from_slice(s);
                    self.len += 1;
                    self.index[p] = tag << 32 | self.len as u64;
                    return Some(self.len - 1);
                }
                e if e >> 32 == tag && self.get((e & 0xffff_ffff) as usize - 1).iter().zip(s).all(|(a, b)| a == b) => return None,
                _ => p = (p + 1) & mask,
            }
        }
    }
}

/// What both exact explorations start from: the stores, the initial global store, and per
/// class the positions (with the initial one numbered) and the cache of their steps.
pub(super) struct Start<'m, 'p> {
    pub(super) space: Space<'m, 'p>,
    pub(super) g0: u32,
    pub(super) positions: Vec<Positions>,
    pub(super) caches: Vec<PositionCache>,
    /// Per class: the initial position's number.
    pub(super) start: Vec<u32>,
}

impl<'m, 'p> Start<'m, 'p> {
    /// Declines for a class of unboundedly many threads: an exact exploration needs them all.
    pub(super) fn new(m: &'m Model<'p>, limit: usize) -> Result<Self, Decline> {
        if let Some(c) = m.classes.iter().find(|c| c.count.is_none()) {
            return Err(format!("the exact exploration needs a fixed number of threads, and `{}` has unboundedly many", c.name));
        }
        let mut space = Space::new(m, limit);
        let (g0, ls) = space.initial();
        let mut positions: Vec<Positions> = (0..m.classes.len()).map(|_| Positions::default()).collect();
        let caches = (0..m.classes.len()).map(|_| PositionCache::default()).collect();
        let start = ls.iter().enumerate().map(|(c, &l)| positions[c].intern(Box::new([l]))).collect();
        Ok(Start { space, g0, positions, caches, start })
    }
}

impl<'m, 'p> Explicit<'m, 'p> {
    /// Explores every reachable state, declining past `max_states` or the deadline.
    pub fn run(m: &'m Model<'p>, limit: usize, max_states: usize, deadline: Option<std::time::Instant>) -> Result<Self, Decline> {
        let Start { mut space, g0, mut positions, mut caches, start } = Start::new(m, limit)?;
        let mut init = vec![g0];
        init.extend(m.slots.iter().map(|s| start[s.class]));
        let range = m.class_ranges();
        let mut states = StateSet::new(init.len());
        states.insert(&init);
        // Depth first, by state number: the set holds the states themselves.
        let mut stack = vec![0usize];
        let mut t = init;
        let mut succ;
        while let Some(k) = stack.pop() {
            for i in 0..m.slots.len() {
                let class = m.slots[i].class;
                let (g0, p0) = (states.get(k)[0], states.get(k)[i + 1]);
                succ = step_position(&mut space, &mut positions[class], &mut caches[class], class, g0, p0)?;
                for &(g, l) in &succ {
                    t.copy_from_slice(states.get(k));
                    t[0] = g;
                    t[i + 1] = l;
                    let (a, b) = range[i];
                    t[a..b].sort_unstable();
                    if let Some(new) = states.insert(&t) {
                        if states.len() > max_states {
                            return Err(format!("the exact exploration exceeds {max_states} states"));
                        }
                        if states.len().is_multiple_of(4096) && deadline.is_some_and(|d| std::time::Instant::now() > d) {
                            return Err(format!("the exact exploration ran out of time after {} states", states.len()));
                        }
                        stack.push(new);
                    }
                }
            }
        }
        Ok(Explicit { space, states, positions })
    }

    /// Failing states of an assertion, described; empty when it holds in every reachable state.
    pub fn failures(&self, a: AssertId) -> Vec<String> {
        let mut f = Failures::new(&self.space, &self.positions, a);
        for s in (0..self.states.len()).map(|k| self.states.get(k)) {
            for i in 0..self.space.m.slots.len() {
                f.visit(i, s[0], s[i + 1]);
            }
        }
        f.out
    }
}

/// The failing states of one assertion, gathered position by position: at most five
/// described, each (slot, global store, position) judged once.
pub(super) struct Failures<'a, 'm, 'p> {
    space: &'a Space<'m, 'p>,
    positions: &'a [Positions],
    locs: &'a [crate::ir::LocId],
    memo: HashMap<(usize, u32, u32), Option<String>>,
    /// The failing states found, described.
    pub(super) out: Vec<String>,
}

impl<'a, 'm, 'p> Failures<'a, 'm, 'p> {
    /// Gathers the failures of `a` over states of `space` whose positions are `positions`.
    pub(super) fn new(space: &'a Space<'m, 'p>, positions: &'a [Positions], a: AssertId) -> Self {
        Failures { space, positions, locs: &space.m.prog.assertion(a).locs, memo: HashMap::new(), out: Vec::new() }
    }

    /// Slot `i` stands at position `p` in global store `g`.
    pub(super) fn visit(&mut self, i: usize, g: u32, p: u32) {
        let (space, positions, locs) = (self.space, self.positions, self.locs);
        let m = space.m;
        let slot = &m.slots[i];
        let gv = &space.globals.items[g as usize];
        // A position fails when any member does: the thread may have picked it.
        let bad = self.memo.entry((i, g, p)).or_insert_with(|| {
            positions[slot.class].items[p as usize]
                .iter()
                .map(|&l| &space.locals[slot.class].items[l as usize])
                .find(|lv| m.may_fail(gv, lv).is_some_and(|(pc, _)| locs.contains(&pc)))
                .map(|lv| m.show_line(lv))
        });
        if let Some(at) = bad {
            if self.out.len() < 5 {
                self.out.push(format!("{} at {at}{}", slot.name, m.with_global(gv)));
            }
        }
    }
}

/// Runs a thread's local steps ([`Model::local_step`]) after one of its steps, and adds to
/// `out` the local stores where it stands before its next step that is not local; or, when no
/// path of local steps gets there (they block or loop), the store it started from.
///
/// This is a partial-order reduction, and it loses no failure. A local step commutes with
/// every step of another thread and changes nothing another thread, or an assertion of
/// another thread, can see. In an execution that reaches a failing assertion of thread `j`,
/// move every local step of another thread to the right, up to that thread's next step that
/// is not local, and drop the ones that have none: the shortened execution reaches the same
/// global store and the same local store of `j`, and in it every thread runs its local steps
/// right after the step before them. Local steps that block or loop hide nothing: the global
/// store of the state they start from is the one every state they reach has, and it is kept.
/// Assertions are not local steps, so a thread standing at one is always a kept state.
fn settle(space: &mut Space, class: usize, g: u32, l: u32, out: &mut Vec<(u32, u32)>) -> Result<(), Decline> {
    let m = space.m;
    let mut found = false;
    let mut seen = HashSet::from([l]);
    let mut work = vec![l];
    while let Some(at) = work.pop() {
        if !m.local_step(&space.locals[class].items[at as usize]) {
            found = true;
            if !out.contains(&(g, at)) {
                out.push((g, at));
            }
            continue;
        }
        for &(g2, l2) in space.step(class, g, at, &mut |_, _| {})? {
            debug_assert_eq!(g2, g, "a local step leaves the global store as it is");
            if seen.insert(l2) {
                work.push(l2);
            }
        }
    }
    if !found && !out.contains(&(g, l)) {
        out.push((g, l));
    }
    Ok(())
}
