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
//!
//! The depth-first rounds get half the time when more is left to try: then sampled runs take
//! the rest. Each run executes the program once under random thread priorities that drop at a
//! few random points (PCT, Burckhardt et al., ASPLOS 2010), or under main first and then the
//! newest or oldest thread first, with inputs drawn from the program's own constants and their
//! neighbours. Twenty identical threads that must all finish before a checker reads their
//! count are a state space no depth-first order gets through, but a few runs in a hundred put
//! the checker last.

use crate::interp::layout::Layout;
use crate::interp::nondet_types;
use crate::interp::{Interp, Step};
use crate::ir::{Action, AssertId, Expr, LocId, Lval, Program, VarId, VarKind};
use hashbrown::HashMap;
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
    /// Most sampled runs after the depth-first rounds.
    pub max_runs: u64,
    /// The number of the first sampled run (a later search continues an earlier one's runs).
    pub first_run: u64,
}

impl Default for ExploreOptions {
    fn default() -> Self {
        ExploreOptions {
            deadline: None,
            max_states: 2_000_000,
            max_depth: 20_000,
            max_path_entries: 4_000_000,
            thread_rounds: vec![Some(1), Some(2), Some(3), None, Some(4)],
            max_runs: 1_000_000,
            first_run: 0,
        }
    }
}

/// A failure the search reached, not resting on an over-approximation.
#[derive(Clone, Debug)]
pub struct Found {
    /// The failing assertion.
    pub assert: AssertId,
    /// The schedule from the initial state to the failing step, for [`crate::interp::trace::replay`]
    /// with an oracle that gives 0.
    pub steps: Vec<Step>,
    /// The sampled run that found it (`None`: the depth-first rounds).
    pub run: Option<u64>,
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
    /// The limit on sampled runs.
    Runs,
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
    /// Sampled runs made.
    pub runs: u64,
    /// Whether the depth-first rounds visited every state of every thread count of a program
    /// that reads no input: nothing is left to try.
    pub complete: bool,
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

/// Searches for failures of the assertions in `open`: depth first in rounds of more threads
/// per template, then by sampled runs while something is left to try. Each failure's schedule
/// is shortened ([`crate::interp::minimise`]): a depth-first path carries whatever the search
/// tried first, a sampled run its spins.
pub fn search(prog: &Program, layout: &Layout, open: &[AssertId], opts: &ExploreOptions) -> Outcome {
    let mut out = search_all(prog, layout, open, opts);
    for f in &mut out.found {
        f.steps = crate::interp::minimise::minimise(prog, layout, &zero, &f.steps, f.assert);
    }
    out
}

fn search_all(prog: &Program, layout: &Layout, open: &[AssertId], opts: &ExploreOptions) -> Outcome {
    let mut want: HashSet<AssertId> = open.iter().copied().collect();
    let pool = input_pool(prog);
    let start = Instant::now();
    let half = opts.deadline.map(|d| start + d.saturating_duration_since(start) / 2);
    let mut total = depth_first(prog, layout, &mut want, &ExploreOptions { deadline: half, ..opts.clone() });
    // Every state of every thread count was visited: only inputs other than 0 and 1 are left,
    // which many programs read only as locals' initial values that they overwrite. The runs
    // then get a quarter of the time (or as long as the rounds took), not all of it.
    let complete = total.stop == Stop::Exhausted && total.threads.is_none() && !total.cut;
    total.complete = complete && !reads_inputs(prog);
    if want.is_empty() || total.complete || opts.max_runs == 0 {
        return total;
    }
    let deadline = match opts.deadline {
        Some(d) if complete => Some(d.min(Instant::now() + start.elapsed().max(d.saturating_duration_since(start) / 4))),
        d => d,
    };
    let (found, runs, stop) = sample(prog, layout, &mut want, &ExploreOptions { deadline, ..opts.clone() }, &pool);
    total.found.extend(found);
    total.runs = runs;
    total.stop = stop;
    total
}

/// The depth-first rounds, each with more threads per template.
fn depth_first(prog: &Program, layout: &Layout, want: &mut HashSet<AssertId>, opts: &ExploreOptions) -> Outcome {
    let local: Vec<bool> = prog.locs.iter().map(|l| local_action(prog, &l.action)).collect();
    let mut total = Outcome { found: Vec::new(), states: 0, threads: None, stop: Stop::Exhausted, cut: false, runs: 0, complete: false };
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
        let round = search_round(prog, layout, &local, want, &ExploreOptions { deadline, ..opts.clone() }, cap);
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
            // More threads only add states, but the round of every thread walks them in
            // another order (16 threads that each take the index main raised, then main's
            // check): it still gets its try, and the capped rounds before it are skipped.
            Stop::States => match limits[i..].iter().position(Option::is_none) {
                Some(p) => {
                    i += p;
                    true
                }
                None => false,
            },
            Stop::Time | Stop::Runs => false,
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
                    found.push(Found { assert: a, steps, run: None });
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
    Outcome { found, states: visited.len(), threads: if capped { cap } else { None }, stop, cut, runs: 0, complete: false }
}

/// SplitMix64: the sampled runs depend on their number only, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Steps one thread may take in a row before its priority drops below every other: a
/// thread spinning on a flag another thread must set would otherwise hold the run forever.
const SPIN_STEPS: u32 = 256;

/// Runs of the program under sampled priorities and inputs, from run `opts.first_run` on,
/// until every assertion in `want` failed, the deadline or `opts.max_runs`.
fn sample(prog: &Program, layout: &Layout, want: &mut HashSet<AssertId>, opts: &ExploreOptions, pool: &[i128]) -> (Vec<Found>, u64, Stop) {
    let mut found = Vec::new();
    // The change points fall within the longest run seen, as PCT's bound on a run's length.
    let mut longest = 64usize;
    for n in 0..opts.max_runs {
        if opts.deadline.is_some_and(|d| Instant::now() > d) {
            return (found, n, Stop::Time);
        }
        let run = opts.first_run + n;
        let mut rng = Rng(run.wrapping_mul(0xd134_2543_de82_ef95) ^ 0x5851_f42d_4c95_7f2d);
        // Bug depth 1, 2, 3 in turn: d - 1 points where the running thread's priority drops.
        let changes: Vec<usize> = (0..run % 3).map(|_| rng.below(longest)).collect();
        let (steps, failed) = sample_run(prog, layout, &mut rng, &changes, pool, opts);
        longest = longest.max(steps.len());
        if let Some(a) = failed.filter(|a| want.remove(a)) {
            found.push(Found { assert: a, steps, run: Some(run) });
            if want.is_empty() {
                return (found, n + 1, Stop::AllFound);
            }
        }
    }
    (found, opts.max_runs, Stop::Runs)
}

/// One sampled run: the steps taken, and the assertion its last step failed, when that
/// failure rests on no over-approximation.
fn sample_run(prog: &Program, layout: &Layout, rng: &mut Rng, changes: &[usize], pool: &[i128], opts: &ExploreOptions) -> (Vec<Step>, Option<AssertId>) {
    let mut it = Interp::new(prog, layout, &zero);
    let mut steps: Vec<Step> = Vec::new();
    let mut priority: HashMap<u32, i64> = HashMap::new();
    // Half the runs put off a step that ends the program (main's return, `exit`) while
    // another thread can still move: the check of a thread created before a loop of workers
    // must run after them all, yet before main returns.
    let defers_exit = rng.below(2) == 0;
    let mut deferred_at = usize::MAX;
    // Half the runs order the threads instead of drawing their priorities: main first (it
    // creates the others), then the newest thread first, or the oldest. A checker created
    // before a loop of workers runs after them all under the first; threads that read a
    // shared index only after main has raised it twice, under the second.
    let order = rng.below(4);
    let initial = |id: u32, rng: &mut Rng| -> i64 {
        match (order, id) {
            (0 | 1, _) => 1 + rng.below(1 << 30) as i64,
            (_, 0) => 1 << 40,
            (2, _) => 1 + i64::from(id),
            _ => (1 << 33) - i64::from(id),
        }
    };
    // Dropped priorities go below every other, the latest drop lowest.
    let mut lowest = 0i64;
    let (mut last, mut streak) = (u32::MAX, 0u32);
    while steps.len() < opts.max_depth {
        if steps.len() % 1024 == 1023 && opts.deadline.is_some_and(|d| Instant::now() > d) {
            break;
        }
        let mut threads = it.runnable();
        for (id, _) in &threads {
            if !priority.contains_key(id) {
                let p = initial(*id, rng);
                priority.insert(*id, p);
            }
        }
        if changes.contains(&steps.len()) || streak >= SPIN_STEPS {
            demote(&mut priority, &mut lowest, last);
            streak = 0;
        }
        threads.sort_by_key(|(id, _)| std::cmp::Reverse(priority[id]));
        let others = threads.len() > 1;
        let Some((step, next, r)) = threads.into_iter().find_map(|(id, locs)| first_enabled(prog, &it, id, locs, rng, pool)) else { break };
        if defers_exit && others && r.is_none() && deferred_at != steps.len() && next.runnable().is_empty() {
            deferred_at = steps.len();
            demote(&mut priority, &mut lowest, step.thread());
            continue;
        }
        streak = if step.thread() == last { streak + 1 } else { 1 };
        last = step.thread();
        steps.push(step);
        it = next;
        if let Some(a) = r {
            return (steps, it.failure_rests_on().is_none().then_some(a));
        }
    }
    (steps, None)
}

/// Drops thread `id`'s priority below every other's (`lowest` is the last drop's).
fn demote(priority: &mut HashMap<u32, i64>, lowest: &mut i64, id: u32) {
    if let Some(p) = priority.get_mut(&id) {
        *lowest -= 1;
        *p = *lowest;
    }
}

/// The state after thread `id`'s first enabled step to one of `locs` (tried in a random
/// order, with sampled inputs), and the assertion that step failed.
fn first_enabled<'a>(prog: &Program, it: &Interp<'a>, id: u32, mut locs: Vec<LocId>, rng: &mut Rng, pool: &[i128]) -> Option<(Step, Interp<'a>, Option<AssertId>)> {
    for i in (1..locs.len()).rev() {
        locs.swap(i, rng.below(i + 1));
    }
    locs.into_iter().find_map(|loc| {
        let action = &prog.loc(loc).action;
        let children = if matches!(action, Action::Fork { .. }) { vec![it.next_thread_id()] } else { Vec::new() };
        let nondets = nondet_types(prog, action).iter().map(|_| if rng.below(2) == 0 { rng.below(2) as i128 } else { pool[rng.below(pool.len())] }).collect();
        let step = Step::Exec { thread: id, loc, nondets, children };
        let mut next = it.clone();
        let r = next.step(&step).ok()?;
        next.trace.clear();
        Some((step, next, r))
    })
}

/// Most values in the sampled inputs' pool.
const POOL_SIZE: usize = 64;

/// The values sampled inputs take: 0, 1, -1, and each integer constant of the program with its
/// neighbours (an input the program requires to lie in [20, 40) is tried at 19, 20 and 21), the
/// smallest in magnitude first.
fn input_pool(prog: &Program) -> Vec<i128> {
    let mut values: std::collections::BTreeSet<i128> = [0, 1, -1].into();
    for l in &prog.locs {
        crate::ir::visit::action_exprs(&l.action, &mut |e| {
            if let Expr::Const(c, _) = e {
                values.extend([c.saturating_sub(1), *c, c.saturating_add(1)]);
            }
        });
    }
    let mut pool: Vec<i128> = values.into_iter().collect();
    pool.sort_by_key(|v| (v.unsigned_abs(), *v < 0));
    pool.truncate(POOL_SIZE);
    pool
}

/// Whether some step of the program takes a nondeterministic input.
fn reads_inputs(prog: &Program) -> bool {
    prog.locs.iter().any(|l| !nondet_types(prog, &l.action).is_empty())
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
