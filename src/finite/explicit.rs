//! Exact reachability of the projection: the exception set grown to all reachable states.
//!
//! Section 3 of the paper observes that an exception set that is a post-fixed point of the
//! program's step (containing the initial states) makes the abstraction exact. This is the
//! last refinement when the Cartesian fixpoint still holds a failing state: explore the
//! projection's states one by one, within a state budget. Threads of one class are
//! interchangeable, so a state keeps their local stores sorted (one state per orbit).

use super::model::{Decline, Model};
use super::space::Space;
use crate::ir::{Action, AssertId};
use std::collections::{HashMap, HashSet};

/// The reachable states of the projection.
pub struct Explicit<'m, 'p> {
    /// The stores.
    pub space: Space<'m, 'p>,
    /// Every reachable state: global store, then each slot's local store.
    pub states: HashSet<Box<[u32]>>,
}

impl<'m, 'p> Explicit<'m, 'p> {
    /// Explores every reachable state, declining past `max_states` or the deadline.
    pub fn run(m: &'m Model<'p>, limit: usize, max_states: usize, deadline: Option<std::time::Instant>) -> Result<Self, Decline> {
        if let Some(c) = m.classes.iter().find(|c| c.count.is_none()) {
            return Err(format!("the exact exploration needs a fixed number of threads, and `{}` has unboundedly many", c.name));
        }
        let mut space = Space::new(m, limit);
        let (g0, ls) = space.initial();
        let mut init = vec![g0];
        init.extend(m.slots.iter().map(|s| ls[s.class]));
        // Slots of one class are contiguous: their range, per slot, for sorting.
        let range: Vec<(usize, usize)> = m
            .slots
            .iter()
            .map(|s| {
                let a = m.slots.iter().position(|t| t.class == s.class).unwrap();
                (a + 1, a + 1 + m.slots.iter().filter(|t| t.class == s.class).count())
            })
            .collect();
        let init: Box<[u32]> = init.into();
        let mut states = HashSet::new();
        states.insert(init.clone());
        let mut stack = vec![init];
        while let Some(s) = stack.pop() {
            for i in 0..m.slots.len() {
                let succ = space.step(m.slots[i].class, s[0], s[i + 1], &mut |_, _| {})?.to_vec();
                for (g, l) in succ {
                    let mut t = s.clone();
                    t[0] = g;
                    t[i + 1] = l;
                    let (a, b) = range[i];
                    t[a..b].sort_unstable();
                    if states.insert(t.clone()) {
                        if states.len() > max_states {
                            return Err(format!("the exact exploration exceeds {max_states} states"));
                        }
                        if states.len() % 4096 == 0 && deadline.is_some_and(|d| std::time::Instant::now() > d) {
                            return Err(format!("the exact exploration ran out of time after {} states", states.len()));
                        }
                        stack.push(t);
                    }
                }
            }
        }
        Ok(Explicit { space, states })
    }

    /// Failing states of an assertion, described; empty when it holds in every reachable state.
    pub fn failures(&self, a: AssertId) -> Vec<String> {
        let m = self.space.m;
        let locs = &m.prog.assertion(a).locs;
        let mut memo: HashMap<(usize, u32, u32), bool> = HashMap::new();
        let mut out = Vec::new();
        for s in &self.states {
            let gv = &self.space.globals.items[s[0] as usize];
            for (i, slot) in m.slots.iter().enumerate() {
                let lv = &self.space.locals[slot.class].items[s[i + 1] as usize];
                let Some(pc) = m.pc(lv) else { continue };
                if !locs.contains(&pc) {
                    continue;
                }
                let Action::Assert(_, cond) = &m.prog.loc(pc).action else { continue };
                let bad = *memo.entry((i, s[0], s[i + 1])).or_insert_with(|| m.holds(gv, lv, cond) != Some(true) && m.may_step(gv, lv));
                if bad && out.len() < 5 {
                    out.push(format!("{} at {} with {}", slot.name, m.show_local(lv), m.show_global(gv)));
                }
            }
        }
        out
    }
}
