//! The strategy: which engine steps run on a program, in which order, and how what each
//! concludes becomes the verdicts. It knows engines only through [`Engine`] and [`EngineId`].
//!
//! The default list: COARSEN's proof for any number of threads; the search budget starts;
//! the finite-state engine's quick Cartesian try; the bounded search's sequential round; the
//! explicit-state search on 5 % of the budget; bound 1; the full finite-state engine (with the
//! transactions); bounds 2, 3, ...; the explicit-state search on what is left. `--bound`
//! gives another list (COARSEN, the fixed bound, the finite-state engine); `--engines` drops
//! the steps of engines left out.
//!
//! Why this order (the reasons at [`steps`], measured): bound 1 costs a fraction of a second
//! and finds most bugs, while the full finite-state engine may spend its whole budget before
//! declining (indexer(32): 5.3 s with the finite engine first, 0.26 s with bound 1 first; at
//! `--bound 5`, 6.7 s of CPU with the finite engine first, 3.3 s after). Bound 1's solver can
//! in turn spend the whole search budget on spin loops that the Cartesian phase alone proves in
//! milliseconds (the test-and-set Figure 3 at 3 x 3), hence the quick try before it. The finite
//! engine has a budget of its own, so a search that stopped at bound 1 (budget spent, program
//! not encodable) leaves it every proof to make. How each engine spends its step is said in
//! `engine::search` (deepening), `engine::finite` and `engine::coarsen` (what COARSEN hands
//! the others).
//!
//! **Architecture invariant:** engines never write verdicts. Each step returns
//! `engine::Conclusion`s and [`apply`] alone merges them, in step order, into the verdicts; an
//! engine reads the verdicts so far only to pick what is still open. The claims are guarded
//! here, in one place: an unsupported construct leaves every assertion `unknown` before any
//! engine runs; a proof under `--rules` is held until no other engine decides; and
//! `withdraw_incomplete` turns every `safe` and `bounded-safe` into `unknown` when the program
//! has an approximation that does not cover what it stands for.

use crate::engine::{self, Conclusion, Context, Engine, EngineId, Phase, Step};
use crate::ir::Program;
use crate::verdict::{assertion_verdict, AssertionVerdict, CheckReport, Decider, EntryPoints, FindingKind, Scope, Section, Status, Why, Withdrawn};
use std::time::Instant;

pub use crate::engine::search::MAX_DEEPENING;

/// The share (in %) of the search budget left after the sequential round that the
/// explicit-state search may spend before round 1: the bugs it finds where the bounded search
/// struggles (one exact interleaving of counted loops) take it well under a second, and a
/// program with many states leaves the rest to the bounded search.
const EXPLORE_SHARE: u32 = 5;

/// The steps `check` runs with these options, in order.
pub fn steps(opts: &engine::CheckOptions) -> Vec<Step> {
    let step = |engine, phase| Step { engine, phase };
    let list = match opts.bound {
        // Bound 1 usually costs a fraction of a second and finds most shallow bugs, while the
        // finite engine may spend its whole budget before declining: the cheap round goes
        // first, and the finite engine sees only what it left open. But bound 1's solver may
        // also spend the whole budget on a spin loop (the test-and-set Figure 3 at 3 x 3
        // threads and sections) that the Cartesian phase alone, thread-modular, proves in
        // milliseconds: that phase gets a short first try. The full finite engine comes after
        // bound 1: a search that stopped there (budget spent, or a program it cannot encode)
        // leaves it every proof to make.
        None if opts.runs(EngineId::Bounded) => vec![
            step(EngineId::Coarsen, Phase::Run),
            step(EngineId::Bounded, Phase::StartBudget),
            step(EngineId::Finite, Phase::Quick),
            step(EngineId::Bounded, Phase::Sequential),
            step(EngineId::Explore, Phase::Share(EXPLORE_SHARE)),
            step(EngineId::Bounded, Phase::Rounds(1, 1)),
            step(EngineId::Finite, Phase::Run),
            step(EngineId::Bounded, Phase::Rounds(2, MAX_DEEPENING)),
            step(EngineId::Explore, Phase::Rest),
        ],
        // The fixed bound goes first: it is what the user asked for, and a bug it finds makes
        // the finite engine's budget (up to 5 s spent declining on the indexer) moot. The
        // finite engine then turns what the bound left `bounded-safe` into proofs where it can.
        // Without the bounded search, the explicit-state search has the search budget.
        bound => {
            let mut list = vec![step(EngineId::Coarsen, Phase::Run)];
            list.extend(bound.map(|b| step(EngineId::Bounded, Phase::Fixed(b))));
            list.push(step(EngineId::Finite, Phase::Run));
            if !opts.runs(EngineId::Bounded) {
                list.push(step(EngineId::Explore, Phase::Run));
            }
            list
        }
    };
    list.into_iter().filter(|s| opts.runs(s.engine)).collect()
}

/// The engines that run the steps.
fn engines() -> Vec<Box<dyn Engine>> {
    vec![Box::new(engine::coarsen::Coarsen), Box::new(engine::finite::Finite), Box::new(engine::search::Search::default())]
}

/// Verdicts for every assertion of the program: the steps of [`steps`], each on what the
/// steps before it left open, then each engine's last word on what is still open.
pub fn check_program(prog: &Program, opts: &engine::CheckOptions) -> CheckReport {
    let start = Instant::now();
    // A construct the IR could not model means the IR may miss behaviours: nothing can be
    // proved, not even that an assertion is unreachable, and a replayed interleaving of the
    // IR need not be one of the program.
    if let Some(u) = prog.unsupported.first() {
        let why = Why::new(FindingKind::Open, None, format!("unsupported construct: {} at {}", u.construct, prog.span_str(u.span)));
        let verdicts = (0..prog.assertions.len()).map(|i| assertion_verdict(prog, i, Status::Unknown, why.clone(), None)).collect();
        return CheckReport { verdicts, ..CheckReport::default() };
    }
    // What the front-end chose (the entry points taken as threads, the data model) comes first.
    let sections: Vec<Section> = prog.notes.iter().map(|(title, body)| Section { title: title.clone(), body: body.clone(), data: None }).collect();
    let mut cx = Context { prog, opts, start, budget_start: None, sections, artifacts: Default::default(), correctness: None, shared: Default::default() };
    let mut verdicts: Vec<AssertionVerdict> = (0..prog.assertions.len()).map(|i| first_verdict(prog, i)).collect();
    // Proofs under a user's rules, held back while the other engines look for a violation
    // (and a proof of their own) on those assertions.
    let mut held: Vec<Option<AssertionVerdict>> = vec![None; verdicts.len()];
    let mut engines = engines();
    for step in steps(opts) {
        let Some(e) = engines.iter_mut().find(|e| e.runs(step.engine)) else { continue };
        for (a, c) in e.run(&step.phase, &mut cx, &verdicts) {
            apply(&mut verdicts[a.index()], &mut held[a.index()], c);
        }
    }
    for e in &mut engines {
        for (a, c) in e.finish(&mut cx, &verdicts) {
            apply(&mut verdicts[a.index()], &mut held[a.index()], c);
        }
    }
    // A held proof stands where no other engine decided: a replayed violation, or a proof
    // that does not rest on the user's rules, stands instead.
    for (v, h) in verdicts.iter_mut().zip(held) {
        if let (Some(h), true) = (h, engine::still_open(&v.status)) {
            *v = h;
        }
    }
    withdraw_incomplete(prog, &mut verdicts);
    if verdicts.iter().all(|v| v.status == Status::Safe) {
        cx.artifacts.witness = cx.correctness.take().map(crate::witness::Witness::Correctness);
    }
    if !prog.mode.whole_program {
        // Without a whole program, a proof is for the entry points' thread counts, which the
        // engines' own words ("the threads the program creates") do not tell.
        let counts = if prog.mode.parameterized { EntryPoints::EveryNumber } else { EntryPoints::Once };
        for v in verdicts.iter_mut().filter(|v| v.status == Status::Safe) {
            v.why.entry_points = Some(counts);
        }
    }
    for v in &mut verdicts {
        v.reason = v.why.text(&v.status, v.custom_rules.as_deref());
    }
    CheckReport { verdicts, sections: cx.sections, artifacts: cx.artifacts }
}

/// An assertion's verdict before any engine: proved by the lowering when no path reaches its
/// failure (its function is never called, or every path to it is cut: a constant condition
/// such as `assert(1 == 1)` folds its failing branch away, a call before it never returns),
/// else open until COARSEN runs.
fn first_verdict(prog: &Program, i: usize) -> AssertionVerdict {
    if prog.assertions[i].locs.is_empty() {
        let f = &prog.assertions[i].function;
        let why = Why { scope: Some(Scope::EveryThreadCount), ..Why::new(FindingKind::Proof, Some(Decider::Lowering), format!("no path reaches its failure (or `{f}` is never called)")) };
        AssertionVerdict { engine: Some(Decider::Lowering), ..assertion_verdict(prog, i, Status::Safe, why, None) }
    } else {
        assertion_verdict(prog, i, Status::Unknown, Why::new(FindingKind::Open, None, "COARSEN was not run"), None)
    }
}

/// Applies one engine's conclusion to an assertion's verdict. A proof under custom rules is
/// held (`held`), leaving the verdict open with a reason naming the rules: edited rules may be
/// unsound, so such a proof must not end the search for a real violation.
pub fn apply(v: &mut AssertionVerdict, held: &mut Option<AssertionVerdict>, c: Conclusion) {
    match c {
        Conclusion::Violated { engine, text, detail, trace, bound } => {
            v.status = Status::Violated;
            v.why = Why::new(FindingKind::Violation, Some(engine), text);
            v.detail = Some(detail);
            v.trace = Some(trace);
            v.bound = bound;
            v.engine = Some(engine);
        }
        Conclusion::Proved { engine, text, scope, bound, unreachable, custom_rules } => {
            let proved = AssertionVerdict {
                status: Status::Safe,
                why: Why { scope: Some(scope), ..Why::new(FindingKind::Proof, Some(engine), text) },
                detail: None,
                bound,
                engine: Some(engine),
                unreachable,
                custom_rules: custom_rules.clone(),
                ..v.clone()
            };
            match custom_rules {
                Some(rules) => {
                    *held = Some(proved);
                    v.status = Status::Unknown;
                    v.why = Why::new(FindingKind::Open, None, format!("proved only under the custom rules {rules}"));
                    v.engine = None;
                    v.unreachable = false;
                }
                None => *v = proved,
            }
        }
        Conclusion::Open { finding, detail } => {
            v.status = Status::Unknown;
            v.why = Why { finding, ..Why::default() };
            v.detail = detail;
        }
        Conclusion::BoundedSafe { bound, note } => {
            v.status = Status::BoundedSafe;
            v.why.notes.push(note);
            v.bound = Some(bound);
            v.engine = Some(Decider::Bounded);
        }
        Conclusion::Note(note) => v.why.notes.push(note),
    }
}

/// A proof may rest only on havocs that cover everything the approximated code can do, and so
/// may the bounded claim: the executions the approximation leaves out may fail within the
/// bound (a recursive frame beyond the inlined copies, sharing a local with its callee).
fn withdraw_incomplete(prog: &Program, verdicts: &mut [AssertionVerdict]) {
    let Some(ap) = prog.incomplete_approximation() else { return };
    for v in verdicts.iter_mut().filter(|v| matches!(v.status, Status::Safe | Status::BoundedSafe)) {
        let claim = if v.status == Status::Safe { "proof" } else { "bounded claim" };
        let without = v.why.text(&v.status, v.custom_rules.as_deref());
        v.why.withdrawn = Some(Box::new(Withdrawn { claim: claim.into(), approximation: prog.approx_str(ap), without }));
        v.status = Status::Unknown;
        v.detail = None;
        v.engine = None;
        v.unreachable = false;
        v.custom_rules = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Bound, CheckOptions};

    fn names(opts: &CheckOptions) -> Vec<String> {
        steps(opts).iter().map(|s| format!("{}:{:?}", s.engine.name(), s.phase)).collect()
    }

    #[test]
    fn the_default_list_interleaves_the_finite_engine_with_deepening() {
        let got = names(&CheckOptions::default());
        let want = ["coarsen:Run", "bounded:StartBudget", "finite:Quick", "bounded:Sequential", "explore:Share(5)", "bounded:Rounds(1, 1)", "finite:Run", "bounded:Rounds(2, 64)", "explore:Rest"];
        assert_eq!(got, want);
    }

    #[test]
    fn a_fixed_bound_is_another_list_and_engines_filter_it() {
        let b = Some(Bound { unroll: 2, threads: 2 });
        assert_eq!(names(&CheckOptions { bound: b, ..CheckOptions::default() }), ["coarsen:Run", "bounded:Fixed(Bound { unroll: 2, threads: 2 })", "finite:Run"]);
        // Without the bounded search, the explicit-state search runs last on the whole budget.
        let explore = CheckOptions { engines: vec![EngineId::Explore, EngineId::Coarsen], ..CheckOptions::default() };
        assert_eq!(names(&explore), ["coarsen:Run", "explore:Run"]);
        assert_eq!(names(&CheckOptions { bound: b, ..explore }), ["coarsen:Run", "explore:Run"]);
        assert_eq!(names(&CheckOptions::coarsen_only()), ["coarsen:Run"]);
    }
}
