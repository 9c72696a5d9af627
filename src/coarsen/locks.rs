//! Which locks a thread definitely holds at each location (a must-analysis per template).

use crate::ir::memory::LockId;
use crate::ir::{Action, LocId, LockRef, Program};

/// For every location, the locks a thread standing there holds on every path (sorted).
pub fn must_hold(prog: &Program) -> Vec<Vec<LockId>> {
    // None = not reached yet (the top of the must-lattice).
    let mut held: Vec<Option<Vec<LockId>>> = vec![None; prog.locs.len()];
    for t in &prog.templates {
        held[t.entry.index()] = Some(Vec::new());
        let mut work = vec![t.entry];
        while let Some(l) = work.pop() {
            let Some(cur) = held[l.index()].clone() else { continue };
            let mut out = cur;
            match (&prog.loc(l).action, prog.memory.lock_of[l.index()]) {
                (Action::Acquire(_), Some(LockRef::Exact(k))) if !out.contains(&k) => {
                    out.push(k);
                    out.sort_unstable();
                }
                (Action::Release(_), Some(LockRef::Exact(k))) => out.retain(|x| *x != k),
                // Releasing a lock we cannot identify may release any of them.
                (Action::Release(_), _) => out.clear(),
                _ => {}
            }
            for s in &prog.loc(l).succs {
                let next = match &held[s.index()] {
                    None => out.clone(),
                    Some(old) => old.iter().copied().filter(|k| out.contains(k)).collect(),
                };
                if held[s.index()].as_ref() != Some(&next) {
                    held[s.index()] = Some(next);
                    work.push(*s);
                }
            }
        }
    }
    held.into_iter().map(|h| h.unwrap_or_default()).collect()
}

/// The definite lock a location acquires, if any.
pub fn acquires(prog: &Program, l: LocId) -> Option<LockId> {
    match (&prog.loc(l).action, prog.memory.lock_of[l.index()]) {
        (Action::Acquire(_), Some(LockRef::Exact(k))) => Some(k),
        _ => None,
    }
}
