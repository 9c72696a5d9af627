//! Shorter witnesses: a schedule that replays to a failure is cut down to one that replays to
//! the same failure with fewer steps, before any engine reports it.
//!
//! The engines find schedules that carry much the failure does not need: a sampled run spins
//! hundreds of times on a flag, a depth-first path runs an unrelated thread's loop to the
//! search's depth limit. Every candidate below is only a proposal; it is kept only when the
//! interpreter replays it from the initial state (with the same oracle for the initial
//! contents of memory) to a failure of the same assertion that rests on no over-approximation.
//! Each step keeps its own nondeterministic values, so every choice in the result is still a
//! program input, and the result is a replayed execution as the original was.
//!
//! Three reductions, in turn:
//! - cycles of a thread: between two of its steps that leave it at the same location, its
//!   steps in between go, all such cycles of every thread at once (a spin iteration that
//!   writes nothing changes no state, so its removal cannot change what follows);
//! - if that does not replay, only the cycles whose steps write nothing, then the writing
//!   cycles one by one;
//! - suffixes of threads: of each thread but the failing one, the longest run of its last
//!   steps whose removal still replays (found by bisection; a thread that only added noise
//!   goes whole).
//!
//! The work is bounded by [`BUDGET`] interpreted steps (not by time, so the same schedule
//! always gives the same result), after which the shortest schedule replayed so far is kept.

use super::layout::Layout;
use super::{Executed, Interp, Step};
use crate::ir::{Action, AssertId, LocId, Program};

/// Most interpreted steps (over every trial replay) one minimisation may spend.
pub(crate) const BUDGET: usize = 400_000;

/// Most rounds of the reductions (a round that removes nothing ends the work earlier).
const ROUNDS: usize = 3;

/// What one replayed step did, for finding cycles.
#[derive(Clone, Copy)]
struct Info {
    thread: u32,
    /// The location the thread is at after the step (`None`: a run of steps, whose end the
    /// schedule does not name).
    at: Option<LocId>,
    /// It wrote memory.
    writes: bool,
    /// It changed state that is not memory (created a thread, allocated, entered or left an
    /// atomic section, ended something): never part of a cycle.
    fixed: bool,
}

struct Minimiser<'p, 'o> {
    prog: &'p Program,
    layout: &'p Layout,
    oracle: &'o dyn Fn(i128) -> i128,
    assert: AssertId,
    left: usize,
}

impl Minimiser<'_, '_> {
    /// Replays `steps`: when they fail `self.assert` for real, the length of the prefix that
    /// does (the failing step last) and what each step did. `None` also when the budget is spent.
    fn replay(&mut self, steps: &[Step]) -> Option<(usize, Vec<Info>)> {
        if self.left == 0 {
            return None;
        }
        let mut it = Interp::new(self.prog, self.layout, self.oracle);
        let mut info = Vec::with_capacity(steps.len());
        let mut spent = 0usize;
        let mut end = None;
        for (i, s) in steps.iter().enumerate() {
            let before = it.trace.len();
            let r = it.step(s);
            let ex: Option<&Executed> = it.trace.get(before);
            spent += ex.map_or(1, |e| e.count.max(1));
            if spent >= self.left {
                self.left = 0;
                return None;
            }
            match r {
                Err(_) => break,
                Ok(Some(a)) => {
                    if a == self.assert && it.failure_rests_on().is_none() {
                        end = Some(i + 1);
                    }
                    break;
                }
                Ok(None) => {}
            }
            let (at, writes, fixed) = match s {
                Step::Exec { loc, .. } => {
                    let action = &self.prog.loc(*loc).action;
                    let fixed = matches!(action, Action::Fork { .. } | Action::Alloc(..) | Action::AtomicBegin | Action::AtomicEnd | Action::Halt(_)) || self.prog.loc(*loc).succs.is_empty();
                    (Some(*loc), ex.is_some_and(|e| e.accesses.iter().any(|a| a.write)), fixed)
                }
                Step::RunUntil { .. } => (None, true, true),
            };
            info.push(Info { thread: s.thread(), at, writes, fixed });
        }
        self.left -= spent.min(self.left);
        // The failing step itself stays (it is no cycle's part).
        let n = end?;
        info.push(Info { thread: steps[n - 1].thread(), at: None, writes: true, fixed: true });
        Some((n, info))
    }
}

/// The steps of every thread's cycles: each thread's steps between two of its steps that leave
/// it at the same location (the earliest such pair first, within a stretch of its steps that
/// are not `fixed`), counting only cycles of steps that write nothing when `quiet`. One list
/// per cycle.
fn cycles(info: &[Info], quiet: bool) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    // Per thread: its kept steps since its last fixed one, as (location after, index).
    let mut runs: hashbrown::HashMap<u32, Vec<(Option<LocId>, usize)>> = hashbrown::HashMap::new();
    for (i, s) in info.iter().enumerate() {
        let run = runs.entry(s.thread).or_default();
        if s.fixed || s.at.is_none() || (quiet && s.writes) {
            run.clear();
            run.push((s.at, i));
            continue;
        }
        match run.iter().position(|(at, _)| *at == s.at) {
            Some(p) => {
                let mut cycle: Vec<usize> = run.drain(p + 1..).map(|(_, j)| j).collect();
                cycle.push(i);
                out.push(cycle);
            }
            None => run.push((s.at, i)),
        }
    }
    out
}

fn without(steps: &[Step], drop: &[usize]) -> Vec<Step> {
    let mut gone = vec![false; steps.len()];
    for &i in drop {
        gone[i] = true;
    }
    steps.iter().zip(&gone).filter(|(_, g)| !**g).map(|(s, _)| s.clone()).collect()
}

/// Tries a candidate: kept (as `best`, with what its steps did in `info`) when it is shorter
/// and replays to the failure.
fn attempt(m: &mut Minimiser, best: &mut Vec<Step>, info: &mut Vec<Info>, cand: Vec<Step>) -> bool {
    if cand.len() >= best.len() {
        return false;
    }
    match m.replay(&cand) {
        Some((n, i)) => {
            *best = cand[..n].to_vec();
            *info = i;
            true
        }
        None => false,
    }
}

/// [`attempt`] on `best` without the steps at `drop`.
fn try_without(m: &mut Minimiser, best: &mut Vec<Step>, info: &mut Vec<Info>, drop: &[usize]) -> bool {
    let cand = without(best, drop);
    attempt(m, best, info, cand)
}

/// A schedule no longer than `steps` that the interpreter replays (from the initial state,
/// with `oracle`) to a real failure of assertion `a`, as short as the reductions of this
/// module find within [`BUDGET`]; `steps` themselves when they do not replay to that failure.
pub(crate) fn minimise(prog: &Program, layout: &Layout, oracle: &dyn Fn(i128) -> i128, steps: &[Step], a: AssertId) -> Vec<Step> {
    let mut m = Minimiser { prog, layout, oracle, assert: a, left: BUDGET };
    let Some((n, mut info)) = m.replay(steps) else { return steps.to_vec() };
    let mut best = steps[..n].to_vec();
    for _ in 0..ROUNDS {
        let len = best.len();
        // Cycles: all at once, else the quiet ones at once, else each writing one alone.
        let all = cycles(&info, false);
        if !all.is_empty() && !try_without(&mut m, &mut best, &mut info, &all.concat()) {
            let quiet = cycles(&info, true);
            if !quiet.is_empty() {
                try_without(&mut m, &mut best, &mut info, &quiet.concat());
            }
            loop {
                let quiet: std::collections::HashSet<usize> = cycles(&info, true).concat().into_iter().collect();
                let mut noisy: Vec<Vec<usize>> = cycles(&info, false).into_iter().filter(|c| c.iter().any(|i| !quiet.contains(i))).collect();
                // The longest first; each success renumbers the steps, so the cycles are found again.
                noisy.sort_by_key(|c| std::cmp::Reverse(c.len()));
                let before = best.len();
                for c in noisy {
                    if try_without(&mut m, &mut best, &mut info, &c) {
                        break;
                    }
                    if m.left == 0 {
                        break;
                    }
                }
                if best.len() == before || m.left == 0 {
                    break;
                }
            }
        }
        // Suffixes of the threads that do not fail, the newest thread first (it is the one
        // most likely to have been run only because the search was there).
        let failing = best.last().map(Step::thread);
        let mut threads: Vec<u32> = best.iter().map(Step::thread).filter(|t| Some(*t) != failing).collect();
        threads.sort_unstable_by(|a, b| b.cmp(a));
        threads.dedup();
        for t in threads {
            if m.left == 0 {
                break;
            }
            let base = best.clone();
            let at: Vec<usize> = base.iter().enumerate().filter(|(_, s)| s.thread() == t).map(|(i, _)| i).collect();
            if attempt(&mut m, &mut best, &mut info, without(&base, &at)) {
                continue;
            }
            // The last `lo` steps of `t` can go (none at first); the last `hi` cannot.
            let (mut lo, mut hi) = (0usize, at.len());
            while hi - lo > 1 && m.left > 0 {
                let mid = lo + (hi - lo) / 2;
                if attempt(&mut m, &mut best, &mut info, without(&base, &at[at.len() - mid..])) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        }
        if best.len() == len || m.left == 0 {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{lower_text, FrontendOptions};
    use crate::interp::{nondet_types, Outcome};

    const FLAG: &str = "typedef unsigned long pthread_t; int pthread_create(pthread_t *t, void *a, void *(*f)(void *), void *x); int pthread_join(pthread_t t, void **r);
        void __VERIFIER_assert(int c); int data; int ready; int noise;
        void *producer(void *a) { ready = 1; data = 42; return 0; }
        void *consumer(void *a) { int spins = 0; while (!ready) { spins++; } __VERIFIER_assert(data == 42); return 0; }
        void *busy(void *a) { for (int i = 0; i < 1000; i++) { noise = i; } return 0; }
        int main(void) { pthread_t c, p, b; pthread_create(&c, 0, consumer, 0); pthread_create(&b, 0, busy, 0); pthread_create(&p, 0, producer, 0); pthread_join(p, 0); return 0; }";

    fn zero(_: i128) -> i128 {
        0
    }

    /// Runs each `(thread, n)` of the plan in turn: the thread takes up to `n` steps (its first
    /// enabled successor each time, inputs 0), fewer when it is blocked; stops at a failure.
    fn schedule(prog: &Program, layout: &Layout, plan: &[(u32, usize)]) -> Vec<Step> {
        let mut it = Interp::new(prog, layout, &zero);
        let mut steps = Vec::new();
        for &(t, n) in plan {
            for _ in 0..n {
                let Some((_, locs)) = it.runnable().into_iter().find(|(id, _)| *id == t) else { break };
                let next = locs.into_iter().find_map(|loc| {
                    let action = &prog.loc(loc).action;
                    let children = if matches!(action, Action::Fork { .. }) { vec![it.next_thread_id()] } else { Vec::new() };
                    let s = Step::Exec { thread: t, loc, nondets: vec![0; nondet_types(prog, action).len()], children };
                    let mut c = it.clone();
                    c.step(&s).ok().map(|r| (s, c, r))
                });
                let Some((s, c, r)) = next else { break };
                steps.push(s);
                it = c;
                if r.is_some() {
                    return steps;
                }
            }
        }
        steps
    }

    fn replays(prog: &Program, layout: &Layout, steps: &[Step]) -> Outcome {
        Interp::new(prog, layout, &zero).run(steps)
    }

    #[test]
    fn spins_and_an_unrelated_thread_go_and_the_failure_stays() {
        let prog = lower_text(FLAG, "t.c", "t.c", &FrontendOptions::default()).expect("lowers");
        let layout = Layout::new(&prog);
        // main forks all three; the consumer spins 200 steps; the busy thread runs 300; the
        // producer raises the flag; the consumer fails.
        let steps = schedule(&prog, &layout, &[(0, 40), (1, 200), (2, 300), (3, 2), (1, 100)]);
        let a = AssertId(0);
        assert!(matches!(replays(&prog, &layout, &steps), Outcome::Failed { assert, rests_on: None, .. } if assert == a), "the plan fails");
        assert!(steps.len() > 500);
        let short = minimise(&prog, &layout, &zero, &steps, a);
        assert!(matches!(replays(&prog, &layout, &short), Outcome::Failed { assert, step, rests_on: None } if assert == a && step + 1 == short.len()));
        assert!(short.len() < 40, "{} steps: {short:?}", short.len());
        assert!(!short.iter().any(|s| s.thread() == 2), "the busy thread is not needed");
        // The same schedule gives the same witness.
        assert_eq!(minimise(&prog, &layout, &zero, &steps, a), short);
    }

    #[test]
    fn a_schedule_that_does_not_fail_is_returned_as_it_is() {
        let prog = lower_text(FLAG, "t.c", "t.c", &FrontendOptions::default()).expect("lowers");
        let layout = Layout::new(&prog);
        let steps = schedule(&prog, &layout, &[(0, 40), (1, 50)]);
        assert!(matches!(replays(&prog, &layout, &steps), Outcome::Finished));
        assert_eq!(minimise(&prog, &layout, &zero, &steps, AssertId(0)), steps);
    }

    fn info(thread: u32, at: usize, writes: bool) -> Info {
        Info { thread, at: Some(LocId(at as u32)), writes, fixed: false }
    }

    #[test]
    fn a_spin_between_two_visits_of_a_location_is_a_cycle() {
        // Thread 1 spins at 5 -> 6 -> 5 -> 6 -> 5, thread 2 runs in between.
        let s = [info(1, 5, false), info(1, 6, false), info(2, 9, true), info(1, 5, false), info(1, 6, false), info(1, 5, false), info(1, 7, false)];
        assert_eq!(cycles(&s, true), vec![vec![1, 3], vec![4, 5]]);
    }

    #[test]
    fn quiet_cycles_leave_out_the_ones_that_write() {
        let s = [info(1, 5, false), info(1, 6, true), info(1, 5, false), info(1, 6, false), info(1, 5, false)];
        assert_eq!(cycles(&s, false), vec![vec![1, 2], vec![3, 4]]);
        assert_eq!(cycles(&s, true), vec![vec![2, 3]]);
    }

    #[test]
    fn a_fixed_step_ends_every_cycle_through_it() {
        let mut s = vec![info(1, 5, false), info(1, 6, false), info(1, 5, false)];
        s[1].fixed = true;
        assert!(cycles(&s, false).is_empty());
    }
}
