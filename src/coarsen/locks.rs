//! Which locks a thread definitely holds at each location (a must-analysis per template).

use crate::ir::memory::{lock_states, LockId};
use crate::ir::{Action, LocId, LockRef, Program};

/// For every location, the locks a thread standing there holds on every path (sorted).
pub fn must_hold(prog: &Program) -> Vec<Vec<LockId>> {
    let step = |cur: &Vec<LockId>, l: LocId| {
        let mut out = cur.clone();
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
        out
    };
    let meet = |a: &Vec<LockId>, b: &Vec<LockId>| a.iter().copied().filter(|k| b.contains(k)).collect();
    lock_states(prog, Vec::new(), step, meet).into_iter().map(|h| h.unwrap_or_default()).collect()
}

/// The definite lock a location acquires, if any.
pub fn acquires(prog: &Program, l: LocId) -> Option<LockId> {
    match (&prog.loc(l).action, prog.memory.lock_of[l.index()]) {
        (Action::Acquire(_), Some(LockRef::Exact(k))) => Some(k),
        _ => None,
    }
}
