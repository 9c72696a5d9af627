//! Explicit-state search of the concrete program: depth first over the IR interpreter's
//! states, each state stored as a 128-bit digest, for violations only.
//!
//! The bounded search encodes every interleaving of a bound at once, and some bugs that need
//! one exact interleaving of a few threads over counted loops (two threads each raising a
//! shared value in turn, ten times, so that it ends as large as it can) make its formula hard
//! for Z3 although the program has a few thousand states. This search walks those states one
//! by one in the interpreter that replays every witness, so what it finds is a replayed
//! execution by construction; a failure that rests on an over-approximation is passed over.
//!
//! Threads are added in rounds: at first one thread per template runs and every further
//! thread a template creates is never scheduled (an execution prefix in which it has not run
//! yet, which the interpreter replays as such); then two, three; then every thread, on a
//! third of the time left (a bug after main joins all 16 threads it created needs them all,
//! and one path reaches it); then four, and doubling, while a round leaves threads out and
//! the budget lasts. A bug that shows with few threads is found before the search drowns in
//! the states of many (a loop creating 10,000 threads).
//!
//! Two reductions keep the state count down:
//! - a thread whose next steps touch only its own locals (no address taken, so no other
//!   thread can see them) takes them without the other threads being interleaved: such steps
//!   commute with every step of every other thread;
//! - a state seen before is not explored again.
//!
//! Nondeterministic inputs take the values 0 and 1 (memory that starts undefined, 0), so the
//! search under-approximates the program's inputs: it never proves an assertion, and its
//! "nothing found" decides nothing.

use crate::interp::layout::Layout;
use crate::interp::nondet_types;
use crate::interp::{Interp, Step};
use crate::ir::{Action, AssertId, Expr, LocId, Lval, Program, VarId, VarKind};
use std::collections::HashSet;
use std::time::Instant;

/// Limits of one search.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// When to give up.
    pub deadline: Option<Instant>,
    /// Most distinct states stored.
    pub max_states: usize,
    /// Most steps on one path (a path is cut there).
    pub max_depth: usize,
    /// Most entries (memory cells, threads) in the copies of the states on the current path,
    /// which the search keeps to backtrack: a path is cut there (about 50 bytes an entry).
    pub max_path_entries: usize,
    /// The rounds' limits on the threads run per template (`None`: all, on a third of the
    /// time left); after the last, doubling its limit while it is reached.
    pub thread_rounds: Vec<Option<usize>>,
}

impl Default for ExploreOptions {
    fn default() -> Self {
        ExploreOptions { deadline: None, max_states: 2_000_000, max_depth: 20_000, max_path_entries: 4_000_000, thread_rounds: vec![Some(1), Some(2), Some(3), None, Some(4)] }
    }
}

/// A failure the search reached, not resting on an over-approximation.
#[derive(Clone, Debug)]
pub struct Found {
    /// The failing assertion.
    pub assert: AssertId,
    /// The schedule from the initial state to the failing step, for [`crate::bounded::replay`]
    /// with an oracle that gives 0.
    pub steps: Vec<Step>,
}

/// Why a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every assertion asked about was reached.
    AllFound,
    /// Every state reachable under the reductions and the chosen inputs was visited.
    Exhausted,
    /// The state limit.
    States,
    /// The deadline.
    Time,
}

/// What one search did.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The failures found, in the order found.
    pub found: Vec<Found>,
    /// Distinct states stored, over all rounds.
    pub states: usize,
    /// The last round's limit on threads per template, when it left a thread out.
    pub threads: Option<usize>,
    /// Why it ended.
    pub stop: Stop,
    /// Whether some path was cut at the depth or memory limit.
    pub cut: bool,
}

/// The initial contents of memory that is not zero-initialised, as the search chooses it.
fn zero(_: i128) -> i128 {
    0
}

/// The oracle to replay a [`Found`] schedule with.
pub fn oracle() -> &'static dyn Fn(i128) -> i128 {
    &zero
}

struct Frame<'a> {
    it: Interp<'a>,
    succ: Vec<Step>,
    next: usize,
}

/// Searches for failures of the assertions in `open`, in rounds of more threads per template.
pub fn search(prog: &Program, layout: &Layout, open: &[AssertId], opts: &ExploreOptions) -> Outcome {
    let local: Vec<bool> = prog.locs.iter().map(|l| local_action(prog, &l.action)).collect();
    let mut want: HashSet<AssertId> = open.iter().copied().collect();
    let mut total = Outcome { found: Vec::new(), states: 0, threads: None, stop: Stop::Exhausted, cut: false };
    let mut limits = opts.thread_rounds.clone();
    let mut i = 0;
    loop {
        let cap = match limits.get(i) {
            Some(&c) => c,
            None => {
                let next = limits.iter().rev().find_map(|c| *c).map_or(1, |c| c * 2);
                limits.push(Some(next));
                Some(next)
            }
        };
        i += 1;
        let deadline = match (cap, opts.deadline) {
            (None, Some(d)) => Some(Instant::now() + d.saturating_duration_since(Instant::now()) / 3),
            (_, d) => d,
        };
        let round = search_round(prog, layout, &local, &mut want, &ExploreOptions { deadline, ..opts.clone() }, cap);
        total.found.extend(round.found);
        total.states += round.states;
        total.cut |= round.cut;
        total.stop = round.stop.clone();
        total.threads = round.threads;
        let out_of_time = opts.deadline.is_some_and(|d| Instant::now() > d);
        let go_on = match round.stop {
            Stop::AllFound => false,
            // Every thread ran: nothing is left out, unless its own share of time or states
            // ran out first, which leaves the rounds of fewer threads to try.
            _ if cap.is_none() => round.stop != Stop::Exhausted,
            Stop::Exhausted => round.threads.is_some(),
            Stop::States | Stop::Time => false,
        };
        if !go_on || out_of_time {
            return total;
        }
    }
}

/// One round: at most `cap` threads of each template run.
fn search_round(prog: &Program, layout: &Layout, local: &[bool], want: &mut HashSet<AssertId>, opts: &ExploreOptions, cap: Option<usize>) -> Outcome {
    let mut found = Vec::new();
    let mut capped = false;
    let root = Interp::new(prog, layout, &zero);
    let mut visited: HashSet<u128> = HashSet::new();
    visited.insert(root.fingerprint());
    let succ = successors(prog, local, &root, 0, cap, &mut capped);
    let mut held = root.footprint();
    let mut stack = vec![Frame { it: root, succ, next: 0 }];
    // The steps from the initial state to the top frame's state.
    let mut path: Vec<Step> = Vec::new();
    let mut cut = false;
    let mut tries: u64 = 0;
    let stop = loop {
        // Counted in tries, not states: a search that mostly meets known states must stop too.
        tries += 1;
        if tries.is_multiple_of(1024) && opts.deadline.is_some_and(|d| Instant::now() > d) {
            break Stop::Time;
        }
        let Some(top) = stack.last_mut() else { break Stop::Exhausted };
        if top.next == top.succ.len() {
            held -= top.it.footprint();
            stack.pop();
            path.pop();
            continue;
        }
        let step = top.succ[top.next].clone();
        top.next += 1;
        let mut it = top.it.clone();
        let r = it.step(&step);
        it.trace.clear();
        match r {
            Err(_) => continue,
            // A failing assertion ends the execution, whichever assertion it is.
            Ok(Some(a)) => {
                if it.failure_rests_on().is_none() && want.remove(&a) {
                    let mut steps = path.clone();
                    steps.push(step);
                    found.push(Found { assert: a, steps });
                    if want.is_empty() {
                        break Stop::AllFound;
                    }
                }
                continue;
            }
            Ok(None) => {}
        }
        if !visited.insert(it.fingerprint()) {
            continue;
        }
        if visited.len() > opts.max_states {
            break Stop::States;
        }
        if path.len() + 1 >= opts.max_depth || held + it.footprint() > opts.max_path_entries {
            cut = true;
            continue;
        }
        let succ = successors(prog, local, &it, step.thread(), cap, &mut capped);
        path.push(step);
        held += it.footprint();
        stack.push(Frame { it, succ, next: 0 });
    };
    Outcome { found, states: visited.len(), threads: if capped { cap } else { None }, stop, cut }
}

/// The steps to try from a state: the last thread to move first (fewer context switches make
/// shorter witnesses to read), and only one thread when its next steps are all local.
fn successors(prog: &Program, local: &[bool], it: &Interp, last: u32, cap: Option<usize>, capped: &mut bool) -> Vec<Step> {
    let mut threads = it.runnable();
    threads.sort_by_key(|(id, _)| (*id != last, *id));
    for (id, locs) in &threads {
        if !locs.is_empty() && locs.iter().all(|l| local[l.index()]) {
            // Only if one of them can run: a thread stuck on a local condition must not hide
            // the others.
            let ok: Vec<Step> = steps_of(prog, it, *id, locs, cap, capped).into_iter().filter(|s| it.clone().step(s).is_ok()).collect();
            if !ok.is_empty() {
                return ok;
            }
        }
    }
    threads.iter().flat_map(|(id, locs)| steps_of(prog, it, *id, locs, cap, capped)).collect()
}

/// Thread `id`'s candidate steps to `locs`, one per choice of its nondeterministic inputs; a
/// fork past `cap` threads of its template creates a thread that is never scheduled.
fn steps_of(prog: &Program, it: &Interp, id: u32, locs: &[LocId], cap: Option<usize>, capped: &mut bool) -> Vec<Step> {
    let mut out = Vec::new();
    for &loc in locs {
        let action = &prog.loc(loc).action;
        let children = match action {
            Action::Fork { template, .. } if cap.is_none_or(|c| it.scheduled_of(*template) < c) => vec![it.next_thread_id()],
            Action::Fork { .. } => {
                *capped = true;
                Vec::new()
            }
            _ => Vec::new(),
        };
        for nondets in input_choices(nondet_types(prog, action).len()) {
            out.push(Step::Exec { thread: id, loc, nondets, children: children.clone() });
        }
    }
    out
}

/// Input vectors of `k` values: every combination of 0 and 1 for up to three inputs, else all
/// 0 and all 1.
fn input_choices(k: usize) -> Vec<Vec<i128>> {
    match k {
        0 => vec![Vec::new()],
        1..=3 => (0..1u32 << k).map(|bits| (0..k).map(|i| i128::from(bits >> i & 1)).collect()).collect(),
        _ => vec![vec![0; k], vec![1; k]],
    }
}

/// Whether an action reads and writes only its thread's own scalars that no pointer reaches.
fn local_action(prog: &Program, a: &Action) -> bool {
    match a {
        Action::Skip => true,
        Action::Assign(lv, e) => local_lval(prog, lv) && local_expr(prog, e),
        Action::Assume(e) | Action::Assert(_, e) => local_expr(prog, e),
        _ => false,
    }
}

fn local_var(prog: &Program, v: VarId) -> bool {
    let var = prog.var(v);
    matches!(var.kind, VarKind::Local(_) | VarKind::Temp(_)) && !var.addr_taken
}

fn local_lval(prog: &Program, lv: &Lval) -> bool {
    match lv {
        Lval::Var(v) => local_var(prog, *v),
        Lval::Field(b, ..) => local_lval(prog, b),
        Lval::Deref(..) | Lval::Index(..) => false,
    }
}

fn local_expr(prog: &Program, e: &Expr) -> bool {
    match e {
        Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => true,
        Expr::Load(lv) => local_lval(prog, lv),
        // An address is a constant of the layout; nothing is read.
        Expr::AddrOf(Lval::Var(_)) => true,
        Expr::AddrOf(_) => false,
        Expr::Unary(_, x, _) | Expr::Cast(_, x) => local_expr(prog, x),
        Expr::Binary(_, a, b, _) => local_expr(prog, a) && local_expr(prog, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_cover_every_combination_of_up_to_three_values() {
        assert_eq!(input_choices(0), vec![Vec::<i128>::new()]);
        assert_eq!(input_choices(2), vec![vec![0, 0], vec![1, 0], vec![0, 1], vec![1, 1]]);
        assert_eq!(input_choices(3).len(), 8);
        assert_eq!(input_choices(5), vec![vec![0; 5], vec![1; 5]]);
    }
}
