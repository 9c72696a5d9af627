//! COARSEN as an engine: its proofs for every number of threads, its "not proved" with the
//! invariant that fell short, and the facts it hands the other engines.
//!
//! The finite-state engine gets COARSEN's invariants (with the shipped rules only, never a
//! user's, which may be unsound): the locations some thread reaches, and per location the
//! bounds of the variables its action reads by name. COARSEN computes each action's input, so
//! the bounds hold for what the action reads when it executes, which is what a step needs (the
//! correctness witness, which claims what holds while a thread waits, uses fewer of them).
//! `finite::model::Model::narrow` maps them onto the projection's cells and the step drops what
//! no execution does; the projection is exact on what it tracks, so only steps of no execution
//! are cut. The bounded search gets the data-flow edges and ranges as `bounded::Hints`.

use super::{CheckOptions, Conclusion, Context, Engine, EngineId, Phase};
use crate::coarsen;
use crate::ir::{AssertId, Program};
use crate::verdict::{AssertionVerdict, Decider, Finding, FindingKind, Scope, Section, Status};

/// COARSEN's step.
pub(crate) struct Coarsen;

impl Engine for Coarsen {
    fn runs(&self, id: EngineId) -> bool {
        id == EngineId::Coarsen
    }

    fn run(&mut self, _phase: &Phase, cx: &mut Context<'_>, verdicts: &[AssertionVerdict]) -> Vec<(AssertId, Conclusion)> {
        let (prog, opts) = (cx.prog, cx.opts);
        // The lowering's proofs (no path reaches the failure) stand whatever COARSEN says.
        let open = super::assertions(verdicts, |v| v.status != Status::Safe);
        let copts = coarsen::CoarsenOptions {
            domain: opts.domain,
            rules: opts.rules.clone(),
            workers: opts.datalog_workers.max(1),
            no_symmetry: opts.no_symmetry,
            dump_facts: opts.dump_facts,
            explain: match (&opts.explain, opts.explain_open) {
                (Some((_, line)), _) => Some(coarsen::ExplainTarget::Line(*line)),
                (None, true) => Some(coarsen::ExplainTarget::Open),
                (None, false) => None,
            },
        };
        let mut out = match coarsen::run(prog, &copts) {
            Ok(out) => out,
            Err(e) => return open.into_iter().map(|a| (a, Conclusion::Open { finding: Finding { kind: FindingKind::Open, engine: None, text: e.clone() }, detail: None })).collect(),
        };
        cx.artifacts.facts = out.facts.take();
        let custom_rules = opts.rules.as_ref().map(|r| r.display().to_string());
        let conclusions: Vec<(AssertId, Conclusion)> = open.iter().map(|&a| (a, conclusion(&out.assertions[a.index()], &custom_rules))).collect();
        // A correctness witness carries COARSEN's invariants only when they prove every
        // assertion (the other engines' proofs are not for every thread count).
        if opts.witness && conclusions.iter().all(|(_, c)| matches!(c, Conclusion::Proved { .. })) {
            let mut c = coarsen::witness::correctness(prog, &out);
            c.custom_rules = custom_rules.clone();
            cx.correctness = Some(c);
        }
        sections(prog, opts, &out, &mut cx.sections);
        if opts.hints() && opts.runs(EngineId::Finite) {
            cx.shared.finite_invariants = Some(finite_invariants(prog, &out));
        }
        // Only the bounded search reads the hints, built on its first round.
        if opts.hints() && opts.runs(EngineId::Bounded) {
            cx.shared.coarsen = Some(out);
        }
        conclusions
    }
}

/// COARSEN's result on one assertion as a conclusion.
fn conclusion(r: &coarsen::AssertionResult, custom_rules: &Option<String>) -> Conclusion {
    if r.status == Status::Safe {
        let text = r.reason.strip_prefix("safe: ").unwrap_or(&r.reason).to_string();
        Conclusion::Proved { engine: Decider::Coarsen, text, scope: Scope::EveryThreadCount, bound: None, unreachable: r.unreachable, custom_rules: custom_rules.clone() }
    } else {
        let text = r.reason.strip_prefix("not proved: ").unwrap_or(&r.reason).to_string();
        Conclusion::Open { finding: Finding { kind: FindingKind::NotProved, engine: Some(Decider::Coarsen), text }, detail: r.detail.clone() }
    }
}

/// The sections `--invariants`, `--dot` and `--stats` ask of COARSEN.
fn sections(prog: &Program, opts: &CheckOptions, out: &coarsen::Outcome, sections: &mut Vec<Section>) {
    if opts.invariants {
        sections.push(Section { title: "invariants".into(), body: coarsen::report::invariants(prog, out), data: Some(coarsen::report::invariants_data(prog, out)) });
    }
    if opts.dot {
        sections.push(Section { title: "dfg".into(), body: coarsen::report::dot(prog, out), data: Some(coarsen::report::dfg_data(prog, out)) });
    }
    if opts.stats {
        sections.push(Section { title: "stats".into(), body: coarsen::report::stats(out), data: Some(coarsen::report::stats_data(out)) });
    }
    if let Some(e) = &out.explain {
        sections.push(Section { title: "explain".into(), body: e.text(prog), data: Some(e.data(prog)) });
    }
}

/// COARSEN's facts as the finite-state engine reads them: the locations some thread reaches,
/// and at each, the bounds of the variables its action reads by name. COARSEN computes the
/// input of each action, so these bound what the action reads when it executes, which is
/// what the projection needs (not what holds while a thread waits there).
fn finite_invariants(prog: &Program, out: &coarsen::Outcome) -> crate::finite::Invariants {
    let reads = prog
        .loc_ids()
        .map(|v| {
            let refs = &prog.memory.access(v).refs;
            out.bounds
                .get(v.index())
                .map(|b| b.as_slice())
                .unwrap_or(&[])
                .iter()
                .filter_map(|&(a, (lo, hi))| match prog.memory.info(a).kind {
                    crate::ir::AbsKind::Var(x) if refs.contains(&a) => Some((x, lo, hi)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    crate::finite::Invariants { reached: out.invariants.iter().map(Option::is_some).collect(), reads }
}
