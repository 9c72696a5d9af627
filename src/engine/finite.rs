//! The finite-state engine (with the transaction-based summaries on what it builds a
//! projection for but does not prove) as an engine.

use super::{Conclusion, Context, Engine, EngineId, Phase};
use crate::finite;
use crate::ir::{AssertId, Program};
use crate::verdict::{AssertionVerdict, Decider, Note, Scope};
use std::time::{Duration, Instant};

/// The finite-state engine's steps.
pub(crate) struct Finite;

impl Engine for Finite {
    fn runs(&self, id: EngineId) -> bool {
        id == EngineId::Finite
    }

    /// Its proofs cover the threads the program creates, and every number of threads of a
    /// template created unboundedly (the parameterized abstraction); its "not proved" is left
    /// to the bounded search. A `Quick` step runs only the Cartesian phase, on a 25th of the
    /// budget, and says nothing of what it does not prove (the full step says why).
    fn run(&mut self, phase: &Phase, cx: &mut Context<'_>, verdicts: &[AssertionVerdict]) -> Vec<(AssertId, Conclusion)> {
        let quick = *phase == Phase::Quick;
        let prog = cx.prog;
        let open = super::assertions(verdicts, |v| super::still_open(&v.status));
        let open: Vec<AssertId> = open.into_iter().filter(|a| !prog.assertions[a.index()].locs.is_empty()).collect();
        if open.is_empty() {
            return Vec::new();
        }
        // A proof here is worth a little time, not the search's: the exact exploration of many
        // threads can run for minutes, so by default the engine gets a tenth of the search
        // budget, at most 5 s.
        let opts = cx.opts;
        let budget = Duration::from_secs_f64(opts.finite_time.unwrap_or((opts.search_time * 0.1).min(5.0)).clamp(0.0, 1e6));
        let slice = if quick { budget / 25 } else { budget };
        let mut fo = finite::FiniteOptions { deadline: Some(Instant::now() + slice), exact_fallback: !quick, invariants: cx.shared.finite_invariants.clone(), ..Default::default() };
        if let Some(path) = &opts.exceptions {
            match finite::load_exceptions(path, prog, &fo) {
                Ok(spec) => {
                    fo.exceptions = Some(spec);
                    fo.auto_exceptions = false;
                }
                Err(_) if quick => return Vec::new(),
                Err(d) => return open.iter().map(|&a| (a, Conclusion::Note(Note::DidNotRun { engine: Decider::Finite, why: d.to_string() }))).collect(),
            }
        }
        let exact = cx.shared.counts(prog, opts);
        let mut outs = finite::prove(prog, &open, &fo);
        // A template created only by counted loops is first tried for every number of its
        // threads (the stronger claim, and the Cartesian phase's symmetric abstraction is
        // cheap); what that leaves open is tried with the threads the program creates, which
        // lets the exact exploration run.
        let counts: std::collections::HashMap<crate::ir::TemplateId, u32> = if quick { Default::default() } else { exact.threads.iter().map(|(t, n)| (*t, *n)).collect() };
        let again: Vec<AssertId> = outs.iter().filter(|o| !o.proved()).map(|o| o.assertion).collect();
        if !counts.is_empty() && !again.is_empty() && fo.exceptions.is_none() {
            let more = finite::prove(prog, &again, &finite::FiniteOptions { counts: counts.clone(), ..fo.clone() });
            outs.retain(|o| o.proved());
            outs.extend(more);
            outs.sort_by_key(|o| o.assertion);
        }
        let mut conclusions = Vec::new();
        let mut not_proved = Vec::new();
        for out in outs {
            if matches!(out.status, finite::FiniteStatus::NotProved(_)) {
                not_proved.push(out.assertion);
            }
            if let Some(c) = conclusion(prog, &out, &exact.threads, quick) {
                conclusions.push((out.assertion, c));
            }
        }
        if !not_proved.is_empty() && !quick {
            let to = finite::transactions::TxOptions { deadline: Some(Instant::now() + budget), counts, invariants: fo.invariants.clone(), ..Default::default() };
            conclusions.extend(transactions(prog, &to, &not_proved));
        }
        conclusions
    }
}

/// The engine's result on one assertion as a conclusion: saying why it did not prove is what
/// tells a user whether an exceptions file or a smaller projection could help.
fn conclusion(prog: &Program, out: &finite::FiniteOutcome, exact: &hashbrown::HashMap<crate::ir::TemplateId, u32>, quick: bool) -> Option<Conclusion> {
    let (method, threads) = match &out.status {
        _ if quick && !out.proved() => return None,
        finite::FiniteStatus::Declined(why) => return Some(Conclusion::Note(Note::Declined { engine: Decider::Finite, why: why.clone() })),
        finite::FiniteStatus::NotProved(why) => return Some(Conclusion::Note(Note::NotProved { engine: Decider::Finite, why: why.clone() })),
        finite::FiniteStatus::Proved { method, threads } => (method, threads),
    };
    let how = match method {
        finite::Method::Cartesian => "the Cartesian thread-modular abstraction",
        finite::Method::Exceptions => "the Cartesian abstraction refined by exception sets",
        finite::Method::Refined => "the Cartesian abstraction with exception sets found by counterexample-guided refinement",
        finite::Method::Exact => "an exact exploration of its finite-state projection",
    };
    let (claim, scope) = match threads {
        finite::ThreadClaim::AsCreated => ("for every interleaving of the threads the program creates".to_string(), Scope::ThreadsCreated),
        finite::ThreadClaim::Every(names) => {
            // A template a counted loop creates is no unbounded one: the claim covers every
            // number of its threads, the count the program creates among them.
            let created = |n: &str| exact.iter().find(|(t, _)| prog.template(**t).name == n).map(|(_, k)| *k);
            let (counted, unbounded): (Vec<&String>, Vec<&String>) = names.iter().partition(|n| created(n).is_some());
            let mut parts = Vec::new();
            if !unbounded.is_empty() {
                parts.push(format!("the unboundedly created {}", unbounded.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")));
            }
            for n in counted {
                parts.push(format!("`{n}` (the program creates {} by a counted loop)", created(n).unwrap_or(0)));
            }
            (format!("for every interleaving and every number of threads of {} (parameterized)", parts.join(" and of ")), Scope::Parameterized)
        }
        // A fixed instance count is not every execution of the program.
        finite::ThreadClaim::Instances(_) => return None,
    };
    let narrowed = if out.cut > 0 { ", on the projection narrowed by COARSEN's invariants" } else { "" };
    Some(Conclusion::Proved { engine: Decider::Finite, text: format!("proved by {how}{narrowed}, {claim}"), scope, bound: None, unreachable: false, custom_rules: None })
}

/// Transaction-based summaries on what the finite-state engine built a projection for but did
/// not prove: the same projection explored by transactions (fewer interleavings, so it may
/// finish within the budget where the exact exploration does not), with locks the projection
/// does not name (arrays of mutexes) made exact. It proves only for the threads the program
/// creates.
fn transactions(prog: &Program, to: &finite::transactions::TxOptions, open: &[AssertId]) -> Vec<(AssertId, Conclusion)> {
    match finite::transactions::prove(prog, open, &crate::coarsen::locks::must_hold(prog), to) {
        Ok(r) => r
            .outcomes
            .into_iter()
            .map(|(a, outcome)| {
                let c = match outcome {
                    Ok(()) => Conclusion::Proved {
                        engine: Decider::Transactions,
                        text: format!(
                            "proved by transaction-based summaries (reduction by movers) of its finite-state projection, for every interleaving of the {} threads the program creates ({})",
                            r.threads, r.termination
                        ),
                        scope: Scope::ThreadsCreated,
                        bound: None,
                        unreachable: false,
                        custom_rules: None,
                    },
                    Err(why) => Conclusion::Note(Note::NotProved { engine: Decider::Transactions, why }),
                };
                (a, c)
            })
            .collect(),
        Err(why) => open.iter().map(|&a| (a, Conclusion::Note(Note::Declined { engine: Decider::Transactions, why: why.clone() }))).collect(),
    }
}
