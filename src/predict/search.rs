//! The search of Section 5: for each assertion, the CSSA formula under growing context bounds;
//! a model becomes a schedule that the interpreter replays, and an unsatisfiable bounded query
//! whose unsat core does not use the bound covers every linearization of the CTP.

use super::ctp::{Ctp, Encoding, FailSite};
use crate::bounded::solve::{Answer, Z3};
use crate::interp::layout::Layout;
use crate::interp::{Executed, Step};
use crate::ir::{AssertId, Program};
use std::time::{Duration, Instant};

/// What the search found for one assertion of one CTP.
#[derive(Clone, Debug)]
pub enum Found {
    /// A schedule the interpreter replayed to the failure.
    Violation {
        /// The schedule.
        steps: Vec<Step>,
        /// What the replay executed.
        trace: Vec<Executed>,
        /// The context bound under which it was found (`None`: unbounded).
        bound: Option<u32>,
    },
    /// No linearization of the CTP violates it: the unsat core did not need the bound (or
    /// there was none).
    NoneInCtp,
    /// No linearization with at most this many context switches violates it, and the unsat
    /// core needs the bound.
    NoneWithin(u32),
    /// Undecided: a candidate did not replay, or the solver gave up.
    Undecided(String),
    /// The analysis's time budget ran out before the search decided.
    OutOfTime,
}

/// Searches the CTP for a violation of `a`: bounds `1..=max` in turn when bounding, else the
/// whole CTP at once, with the solver's own timeout and no deadline.
pub fn search(prog: &Program, layout: &Layout, ctp: &Ctp, enc: &Encoding, z3: &mut Z3, a: AssertId, bounded: bool) -> Found {
    search_within(prog, layout, ctp, enc, z3, a, bounded, None)
}

/// [`search`], each query with the solver timeout of `limits`, never past its deadline
/// ([`Found::OutOfTime`] when the deadline is reached first).
#[allow(clippy::too_many_arguments)]
pub fn search_within(prog: &Program, layout: &Layout, ctp: &Ctp, enc: &Encoding, z3: &mut Z3, a: AssertId, bounded: bool, limits: Option<(Duration, Instant)>) -> Found {
    let Some(&(_, q)) = enc.queries.iter().find(|(x, _)| *x == a) else { return Found::NoneInCtp };
    let levels: Vec<Option<(u32, crate::bounded::term::T)>> = if bounded { enc.bounds.iter().map(|&(b, l)| Some((b, l))).collect() } else { vec![None] };
    let mut last = Found::NoneInCtp;
    for lv in levels {
        let mut assume = vec![q];
        if let Some((_, l)) = lv {
            assume.push(l);
        }
        if let Some((timeout, deadline)) = limits {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Found::OutOfTime;
            }
            z3.set_timeout(timeout.min(left));
        }
        match z3.check(&enc.terms, &assume) {
            Answer::Sat => {
                let oracle = |_: i128| 0i128;
                let steps = crate::interp::minimise::minimise(prog, layout, &oracle, &extract(prog, ctp, enc, z3, a), a);
                return match crate::interp::trace::replay(prog, layout, &steps, &oracle, a) {
                    Ok(trace) => Found::Violation { steps, trace, bound: lv.map(|x| x.0) },
                    Err(why) => Found::Undecided(format!("a predicted interleaving is no violation: {}", why.describe(prog))),
                };
            }
            Answer::Unsat => match lv {
                None => return Found::NoneInCtp,
                Some((b, l)) => {
                    // Section 5.3: an unsat core without the bound proves the whole CTP.
                    let core = z3.unsat_core();
                    let used = matches!(enc.terms.node(l), crate::bounded::term::Node::BSym(n) if core.contains(n));
                    if !used {
                        return Found::NoneInCtp;
                    }
                    last = Found::NoneWithin(b);
                }
            },
            Answer::Unknown(_) if limits.is_some_and(|(_, deadline)| Instant::now() >= deadline) => return Found::OutOfTime,
            Answer::Unknown(why) => return Found::Undecided(format!("solver gave up ({why})")),
        }
    }
    last
}

/// The schedule of the current model: every thread's events while their path conditions hold,
/// ordered by execution time, up to the failing event.
fn extract(prog: &Program, ctp: &Ctp, enc: &Encoding, z3: &mut Z3, a: AssertId) -> Vec<Step> {
    let terms = &enc.terms;
    let mut memo = Vec::new();
    let mut truth = |z3: &mut Z3, t| z3.eval(terms, t, &mut memo) != 0;
    let site: Option<&FailSite> = enc.sites.iter().find(|s| s.assert == a && truth(z3, s.cond));
    let Some(site) = site else { return Vec::new() };
    let fe = &ctp.events[site.event];
    let time = |z3: &mut Z3, e: usize| z3.eval(terms, enc.order[ctp.events[e].unit], &mut Vec::new());
    let fail_key = (time(z3, site.event), fe.thread, fe.idx);
    let mut items: Vec<((i128, usize, usize), Step)> = Vec::new();
    for (ti, evs) in ctp.by_thread.iter().enumerate() {
        for &e in evs {
            let ev = &ctp.events[e];
            if e == site.event {
                break;
            }
            if !truth(z3, enc.guard[e]) {
                break;
            }
            let key = (time(z3, e), ti, ev.idx);
            if key > fail_key {
                break;
            }
            let Step::Exec { thread, loc, children, .. } = &ev.step else { continue };
            let nondets = enc.nondets[e].iter().map(|&s| z3.eval(terms, s, &mut Vec::new())).collect();
            items.push((key, Step::Exec { thread: *thread, loc: *loc, nondets, children: children.clone() }));
        }
    }
    items.sort_by_key(|x| x.0);
    let mut steps: Vec<Step> = items.into_iter().map(|x| x.1).collect();
    let Step::Exec { thread, loc, children, .. } = &fe.step else { return steps };
    match &site.flipped {
        None => {
            let nondets = enc.nondets[site.event].iter().map(|&s| z3.eval(terms, s, &mut Vec::new())).collect();
            steps.push(Step::Exec { thread: *thread, loc: *loc, nondets, children: children.clone() });
        }
        Some(path) => {
            for (l, nds) in path {
                let nondets = nds.iter().map(|&s| z3.eval(terms, s, &mut Vec::new())).collect();
                steps.push(Step::Exec { thread: *thread, loc: *l, nondets, children: Vec::new() });
            }
        }
    }
    let _ = prog;
    steps
}
