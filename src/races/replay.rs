//! The replay of candidate races: a depth-first search over the interpreter's states (each
//! stored as a 128-bit digest) for a state in which one thread's access and then another
//! thread's execute back to back on the same address, at least one writing, with no step
//! taken on a decision that rested on an approximation and neither access reading a value
//! (or through an address) that does. Every step is the interpreter's, so what it finds
//! is a real execution by construction, every nondeterministic value a program input.
//!
//! At most two threads of each template run (a template racing with itself needs two); a
//! fork past that creates a thread that is never scheduled, which the interpreter replays as a
//! prefix in which it has not run yet. Nondeterministic inputs take the values 0 and 1. A
//! thread whose next steps touch only its own unshared memory takes them without the others
//! being interleaved: such steps commute with every other thread's.

use crate::interp::layout::Layout;
use crate::interp::{nondet_types, Interp, Step};
use crate::ir::{display, Action, LocId, Program};
use hashbrown::{HashMap, HashSet};
use std::time::Instant;

/// Threads of one template that run.
const CAP: usize = 2;
/// Most steps on one path.
const MAX_DEPTH: usize = 10_000;

fn zero(_: i128) -> i128 {
    0
}

struct Frame<'a> {
    it: Interp<'a>,
    succ: Vec<Step>,
    next: usize,
}

/// For each pair (as given) the search showed racing, the replayed steps as readable lines.
pub(super) fn search(prog: &Program, layout: &Layout, pairs: &[(LocId, LocId)], deadline: Instant, max_states: usize) -> HashMap<(LocId, LocId), Vec<String>> {
    let mut found: HashMap<(LocId, LocId), Vec<String>> = HashMap::new();
    if pairs.is_empty() {
        return found;
    }
    let mut partners: HashMap<LocId, Vec<LocId>> = HashMap::new();
    for &(a, b) in pairs {
        partners.entry(a).or_default().push(b);
        partners.entry(b).or_default().push(a);
    }
    let wanted: HashSet<(LocId, LocId)> = pairs.iter().copied().collect();
    let local: Vec<bool> = prog.locs.iter().enumerate().map(|(i, l)| local_action(prog, LocId(i as u32), &l.action)).collect();
    let root = Interp::new(prog, layout, &zero);
    let mut visited: HashSet<u128> = HashSet::new();
    visited.insert(root.fingerprint());
    probe(prog, &root, &partners, &wanted, &mut found);
    let succ = successors(prog, &local, &root);
    let mut stack = vec![Frame { it: root, succ, next: 0 }];
    let mut tries: u64 = 0;
    loop {
        let depth = stack.len();
        let Some(top) = stack.last_mut() else { break };
        if found.len() == wanted.len() || visited.len() >= max_states {
            break;
        }
        tries += 1;
        if tries.is_multiple_of(256) && Instant::now() > deadline {
            break;
        }
        if top.next == top.succ.len() || depth > MAX_DEPTH {
            stack.pop();
            continue;
        }
        let step = top.succ[top.next].clone();
        top.next += 1;
        let mut it = top.it.clone();
        if it.step(&step).is_err() || !visited.insert(it.fingerprint()) {
            continue;
        }
        // A step resting on an approximation leads only to executions that are not the program's.
        if !it.control_exact() {
            continue;
        }
        probe(prog, &it, &partners, &wanted, &mut found);
        let succ = successors(prog, &local, &it);
        stack.push(Frame { it, succ, next: 0 });
    }
    found
}

/// Records every wanted pair whose two accesses can execute next, back to back, on one address.
fn probe(prog: &Program, it: &Interp, partners: &HashMap<LocId, Vec<LocId>>, wanted: &HashSet<(LocId, LocId)>, found: &mut HashMap<(LocId, LocId), Vec<String>>) {
    let threads = it.runnable();
    // A thread inside an atomic section runs alone: the other side of its pair waits anywhere.
    let all = it.positions();
    for (t1, locs1) in &threads {
        for a in locs1 {
            let Some(bs) = partners.get(a) else { continue };
            for (t2, locs2) in all.iter().filter(|(t, _)| t != t1) {
                for b in locs2.iter().filter(|b| bs.contains(b)) {
                    let key = if wanted.contains(&(*a, *b)) { (*a, *b) } else { (*b, *a) };
                    if found.contains_key(&key) {
                        continue;
                    }
                    if let Some(lines) = adjacent(prog, it, (*t1, *a), (*t2, *b)) {
                        found.insert(key, lines);
                    }
                }
            }
        }
    }
}

/// The whole execution, when thread `t1` at `a` and then thread `t2` at `b` can run next and
/// touch a common address, one of them writing. When `a` is inside an atomic section, `t1`
/// first finishes the section (its own steps only, the first enabled successor each time, no
/// further input): the section is one step for every other thread.
fn adjacent(prog: &Program, it: &Interp, (t1, a): (u32, LocId), (t2, b): (u32, LocId)) -> Option<Vec<String>> {
    for s1 in steps_of(prog, it, t1, &[a]) {
        let mut first = it.clone();
        if first.step(&s1).is_err() {
            continue;
        }
        let acc1 = first.trace.last().map(|e| e.accesses.clone()).unwrap_or_default();
        // A step that read an approximated value (through a pointer, say) stored it tainted.
        if !first.control_exact() || acc1.iter().any(|x| x.write && first.is_tainted(x.addr)) || !finish_section(prog, &mut first, t1) {
            continue;
        }
        for s2 in steps_of(prog, &first, t2, &[b]) {
            let mut second = first.clone();
            if second.step(&s2).is_err() || !second.control_exact() {
                continue;
            }
            let acc2 = second.trace.last().map(|e| e.accesses.as_slice()).unwrap_or_default();
            if acc2.iter().any(|x| x.write && second.is_tainted(x.addr)) {
                continue;
            }
            if acc1.iter().any(|x| acc2.iter().any(|y| x.addr == y.addr && (x.write || y.write))) {
                return Some(second.trace.iter().map(|e| format!("T{} {} {}", e.thread, prog.span_str(prog.loc(e.loc).span), display::action(prog, &prog.loc(e.loc).action))).collect());
            }
        }
    }
    None
}

/// Runs thread `t` until no atomic section keeps the others from stepping; false when it
/// cannot (blocked, ended inside, or too long).
fn finish_section(prog: &Program, it: &mut Interp, t: u32) -> bool {
    for _ in 0..10_000 {
        let runnable = it.runnable();
        if runnable.len() != 1 || runnable[0].0 != t || !it.positions().iter().any(|(o, _)| *o != t) {
            return true;
        }
        let next = steps_of(prog, it, t, &runnable[0].1).into_iter().find(|s| it.clone().step(s).is_ok());
        match next {
            Some(s) if it.step(&s).is_ok() => {}
            _ => return false,
        }
    }
    false
}

/// The next steps: a thread with only private steps ahead takes them alone, when one can run.
fn successors(prog: &Program, local: &[bool], it: &Interp) -> Vec<Step> {
    let threads = it.runnable();
    for (id, locs) in &threads {
        if !locs.is_empty() && locs.iter().all(|l| local[l.index()]) {
            let ok: Vec<Step> = steps_of(prog, it, *id, locs).into_iter().filter(|s| it.clone().step(s).is_ok()).collect();
            if !ok.is_empty() {
                return ok;
            }
        }
    }
    threads.iter().flat_map(|(id, locs)| steps_of(prog, it, *id, locs)).collect()
}

/// Thread `id`'s candidate steps to `locs`, one per choice of its inputs (0 and 1).
fn steps_of(prog: &Program, it: &Interp, id: u32, locs: &[LocId]) -> Vec<Step> {
    let mut out = Vec::new();
    for &loc in locs {
        let action = &prog.loc(loc).action;
        let children = match action {
            Action::Fork { template, .. } if it.scheduled_of(*template) < CAP => vec![it.next_thread_id()],
            _ => Vec::new(),
        };
        let k = nondet_types(prog, action).len();
        let choices: Vec<Vec<i128>> = match k {
            0 => vec![Vec::new()],
            1..=3 => (0..1u32 << k).map(|bits| (0..k).map(|i| i128::from(bits >> i & 1)).collect()).collect(),
            _ => vec![vec![0; k], vec![1; k]],
        };
        for nondets in choices {
            out.push(Step::Exec { thread: id, loc, nondets, children: children.clone() });
        }
    }
    out
}

/// Whether the action touches only memory no other thread sees, and synchronises nothing.
fn local_action(prog: &Program, l: LocId, a: &Action) -> bool {
    let acc = prog.memory.access(l);
    let private = acc.mods.iter().chain(&acc.refs).all(|x| !prog.memory.info(*x).shared);
    private && matches!(a, Action::Skip | Action::Assign(..) | Action::Assume(_) | Action::Assert(..))
}
