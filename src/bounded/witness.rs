//! From a model to a schedule: each thread's path through its unrolled graph, the steps of all
//! threads ordered by the model's clocks, and the nondeterministic values each step consumes.
//! Then the readable interleaving, printed from the concrete replay.

use super::encode::Encoding;
use super::skeleton::Skeleton;
use super::solve::Z3;
use super::unroll::BKind;
use crate::interp::Step;
use crate::ir::{Action, Program};

/// Where a step goes in the schedule: the clock of its atomic unit, the unit, the rank of the
/// event it sits at, its offset from that event, its thread.
type Key = (i128, u32, u32, i64, u32);

/// A schedule extracted from a model.
pub(crate) struct Extracted {
    /// The steps, in execution order, ending with the failing step.
    pub steps: Vec<Step>,
}

/// Builds the schedule for the failure event `fail` from the solver's current model.
pub(crate) fn extract(prog: &Program, sk: &Skeleton, enc: &Encoding, z3: &mut Z3, fail: u32) -> Extracted {
    // One memo for every term evaluated: the model does not change while the schedule is
    // read off it, and a fresh memo per evaluation cost a table the size of all terms each time.
    let mut memo = Vec::new();
    let terms = &sk.terms;
    let truth = |z3: &mut Z3, memo: &mut Vec<Option<i128>>, t: Option<super::term::T>| -> bool { t.is_some_and(|t| z3.eval(terms, t, memo) != 0) };
    let fe = &sk.events[fail as usize];
    let mut items: Vec<(Key, Step)> = Vec::new();
    let mut fail_key = None;
    for inst in &sk.instances {
        if let Some(f) = inst.fork {
            if !truth(z3, &mut memo, Some(sk.events[f as usize].occ)) {
                continue;
            }
        }
        let g = &sk.graphs[inst.graph];
        let mut path: Vec<u32> = Vec::new();
        let mut node = 0u32;
        loop {
            let info = &inst.nodes[node as usize];
            if !info.reached || !truth(z3, &mut memo, info.psi_in) {
                break;
            }
            let is_fail = inst.id == fe.thread && node == fe.node;
            if !is_fail && !truth(z3, &mut memo, info.psi_out) {
                break;
            }
            path.push(node);
            if is_fail {
                break;
            }
            let succs = &g.nodes[node as usize].succs;
            let next = match info.choice {
                Some(c) => {
                    let k = z3.eval(terms, c, &mut memo);
                    usize::try_from(k).ok().and_then(|k| succs.get(k).copied())
                }
                None if info.branch.is_some() => {
                    // Complementary guards: this path's own test picks the side.
                    Some(succs[usize::from(!truth(z3, &mut memo, info.branch))])
                }
                None => {
                    // A single successor (or, defensively, guards without a recorded test):
                    // the one entered whose guard passes.
                    let mut entered = None;
                    let mut passed = None;
                    for &s in succs {
                        let si = &inst.nodes[s as usize];
                        if truth(z3, &mut memo, si.psi_in) {
                            entered = entered.or(Some(s));
                            let is_fail = inst.id == fe.thread && s == fe.node;
                            if passed.is_none() && (is_fail || truth(z3, &mut memo, si.psi_out)) {
                                passed = Some(s);
                            }
                        }
                    }
                    passed.or(entered)
                }
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        // A thread that stopped inside an atomic section never entered it.
        let mut depth = 0u32;
        let mut entered = 0usize;
        for (i, &n) in path.iter().enumerate() {
            if let BKind::Loc(l) = g.nodes[n as usize].kind {
                match prog.loc(l).action {
                    Action::AtomicBegin => {
                        if depth == 0 {
                            entered = i;
                        }
                        depth += 1;
                    }
                    Action::AtomicEnd => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
        }
        let stops_inside = depth > 0
            && path.last().is_some_and(|&n| {
                let is_fail = inst.id == fe.thread && n == fe.node;
                let ends = matches!(&g.nodes[n as usize].kind, BKind::Loc(l) if matches!(prog.loc(*l).action, Action::Halt(_)) || prog.loc(*l).succs.is_empty());
                !is_fail && !ends
            });
        if stops_inside {
            path.truncate(entered);
        }
        // Keys: a node with events sits at its first event; a local node sits just before the
        // thread's next event, or just after its previous one inside an atomic section.
        let key_of = |z3: &mut Z3, memo: &mut Vec<Option<i128>>, e: u32| -> (i128, u32, u32) {
            let ev = &sk.events[e as usize];
            let c = z3.eval(terms, enc.clocks[ev.unit as usize], memo);
            (c, ev.unit, ev.rank)
        };
        let mut keys: Vec<Option<(i128, u32, u32)>> = Vec::with_capacity(path.len());
        for &n in &path {
            let evs = &inst.nodes[n as usize].events;
            keys.push(evs.first().map(|&e| key_of(z3, &mut memo, e)));
        }
        let atomic_local = |n: u32| match &g.nodes[n as usize].kind {
            BKind::Loc(l) => prog.loc(*l).atomic || matches!(prog.loc(*l).action, Action::AtomicEnd),
            _ => false,
        };
        for (i, &n) in path.iter().enumerate() {
            let (base, sub) = match keys[i] {
                Some(k) => (k, 0i64),
                None => {
                    let prev = (0..i).rev().find_map(|j| keys[j].map(|k| (k, (i - j) as i64)));
                    let next = (i + 1..path.len()).find_map(|j| keys[j].map(|k| (k, -((j - i) as i64))));
                    let choice = if atomic_local(n) { prev.or(next) } else { next.or(prev) };
                    match choice {
                        Some(c) => c,
                        None => continue,
                    }
                }
            };
            let key = (base.0, base.1, base.2, sub, inst.id);
            let info = &inst.nodes[n as usize];
            let step = match &g.nodes[n as usize].kind {
                BKind::Loc(l) => {
                    let nondets = info.nondets.iter().map(|&s| z3.eval(terms, s, &mut memo)).collect();
                    Step::Exec { thread: inst.id, loc: *l, nondets, children: info.children.clone() }
                }
                BKind::Havoc { .. } => {
                    let target = path.get(i + 1).and_then(|&m| match g.nodes[m as usize].kind {
                        BKind::Loc(l) => Some(l),
                        _ => None,
                    });
                    match target {
                        Some(t) => Step::RunUntil { thread: inst.id, target: t },
                        None => continue,
                    }
                }
            };
            if inst.id == fe.thread && n == fe.node {
                fail_key = Some(key);
            }
            items.push((key, step));
        }
    }
    items.sort_by_key(|a| a.0);
    if let Some(fk) = fail_key {
        items.retain(|(k, _)| *k <= fk);
    }
    Extracted { steps: items.into_iter().map(|(_, s)| s).collect() }
}
