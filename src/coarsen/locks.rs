//! Which locks a thread definitely holds at each location (a must-analysis per template).

use crate::ir::memory::{lock_states, LockId};
use crate::ir::{Action, LocId, LockRef, Program};

/// For every location, the locks a thread standing there holds on every path (sorted). A lock
/// that some thread may release without holding it (glibc's normal mutex is then released,
/// whoever holds it) excludes nobody, so it is left out everywhere.
pub fn must_hold(prog: &Program) -> Vec<Vec<LockId>> {
    let mut held = held_by_paths(prog);
    let loose = released_by_non_holders(prog, &held);
    if !loose.is_empty() {
        for h in &mut held {
            h.retain(|k| !loose.contains(k));
        }
    }
    held
}

/// The locks a reachable release may free while the releasing thread does not definitely
/// hold them: a definite lock released where it is not held (a second unlock, an unlock by a
/// thread that never locked it), and the definite locks a release through an ambiguous
/// pointer may designate but the thread does not hold.
fn released_by_non_holders(prog: &Program, held: &[Vec<LockId>]) -> Vec<LockId> {
    let reach = lock_states(prog, (), |_, _| (), |_, _| ());
    let mut loose: Vec<LockId> = Vec::new();
    for (i, loc) in prog.locs.iter().enumerate() {
        if reach[i].is_none() || !matches!(loc.action, Action::Release(_)) {
            continue;
        }
        let may: Vec<LockId> = match prog.memory.lock_of[i] {
            Some(LockRef::Exact(k)) => vec![k],
            Some(LockRef::Unknown) => prog.memory.lock_may.get(i).cloned().unwrap_or_default(),
            None => Vec::new(),
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

/// The must-held locks of every location from the paths alone, every release trusted.
fn held_by_paths(prog: &Program) -> Vec<Vec<LockId>> {
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
