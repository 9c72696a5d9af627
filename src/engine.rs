//! Runs the analyses on a lowered program and turns their results into verdicts.

use crate::{bounded, coarsen};
use crate::ir::{AssertId, Program};
use crate::verdict::{AssertionVerdict, Section, Status};
use std::path::PathBuf;

/// The numerical domain of the invariant analysis.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DomainKind {
    /// Intervals.
    #[default]
    Interval,
    /// Octagons over variable packs.
    Octagon,
}

/// Bounds of the bounded search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Bound {
    /// Iterations per loop.
    pub unroll: u32,
    /// Instances per unbounded thread template.
    pub threads: u32,
}

/// What to run on a program and what to print besides verdicts.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct CheckOptions {
    /// Domain of COARSEN's invariants.
    pub domain: DomainKind,
    /// A Datalog file replacing the built-in interference rules.
    pub rules: Option<PathBuf>,
    /// Run the bounded search on assertions COARSEN leaves unknown.
    pub bound: Option<Bound>,
    /// Eager copy constraints in the bounded encoding.
    pub no_prune: bool,
    /// Leave COARSEN's data-flow edges and ranges out of the bounded encoding.
    pub no_hints: bool,
    /// Where to write a violation witness.
    pub witness: Option<PathBuf>,
    /// Where to write the SMT-LIB2 encoding.
    pub dump_smt: Option<PathBuf>,
    /// Print invariants per location.
    pub invariants: bool,
    /// Print the final data-flow graph.
    pub dot: bool,
    /// Print per-round statistics.
    pub stats: bool,
    /// Timely workers for COARSEN's Datalog engine (0 counts as 1); results do not depend on it.
    #[serde(default)]
    pub datalog_workers: usize,
}

/// The verdicts on a program, with the extra outputs asked for.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// One verdict per source assertion, in source order.
    pub verdicts: Vec<AssertionVerdict>,
    /// Extra outputs (invariants, DFG, statistics), in the order asked.
    pub sections: Vec<Section>,
}

/// Verdicts for every assertion of the program: COARSEN's proof for any number of threads,
/// then, with a bound, the bounded search on what COARSEN left open.
pub fn check_program(prog: &Program, opts: &CheckOptions) -> CheckReport {
    let verdict = |i: usize, status: Status, reason: String, detail: Option<String>| AssertionVerdict {
        id: prog.assertion_id(AssertId(i as u32)),
        text: prog.assertions[i].text.clone(),
        status,
        reason,
        detail,
    };
    // A construct the IR could not model means the IR may miss behaviours: nothing can be
    // proved, not even that an assertion is unreachable, and a replayed interleaving of the
    // IR need not be one of the program.
    if let Some(u) = prog.unsupported.first() {
        let why = format!("unknown: unsupported construct: {} at {}", u.construct, prog.span_str(u.span));
        let verdicts = (0..prog.assertions.len()).map(|i| verdict(i, Status::Unknown, why.clone(), None)).collect();
        return CheckReport { verdicts, sections: Vec::new() };
    }
    let copts = coarsen::CoarsenOptions { domain: opts.domain, rules: opts.rules.clone(), workers: opts.datalog_workers.max(1), ..Default::default() };
    let mut sections = Vec::new();
    let (mut verdicts, hints) = match coarsen::run(prog, &copts) {
        Ok(out) => {
            let verdicts = out
                .assertions
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    if prog.assertions[i].locs.is_empty() {
                        verdict(i, Status::Safe, format!("safe: `{}` is never called", prog.assertions[i].function), None)
                    } else {
                        verdict(i, r.status.clone(), r.reason.clone(), r.detail.clone())
                    }
                })
                .collect::<Vec<_>>();
            if opts.invariants {
                sections.push(Section { title: "invariants".into(), body: coarsen::report::invariants(prog, &out) });
            }
            if opts.dot {
                sections.push(Section { title: "dfg".into(), body: coarsen::report::dot(prog, &out) });
            }
            if opts.stats {
                sections.push(Section { title: "stats".into(), body: coarsen::report::stats(&out) });
            }
            let hints = (!opts.no_hints).then(|| bounded::Hints { flows: out.read_flows.iter().copied().collect(), ranges: out.read_ranges.iter().copied().collect() });
            (verdicts, hints)
        }
        Err(e) => ((0..prog.assertions.len()).map(|i| verdict(i, Status::Unknown, format!("unknown: {e}"), None)).collect(), None),
    };
    if let Some(b) = opts.bound {
        bounded_pass(prog, opts, b, hints.as_ref(), &mut verdicts, &mut sections);
    }
    // A proof may rest only on havocs that cover everything the approximated code can do.
    if let Some(ap) = prog.incomplete_approximation() {
        for v in verdicts.iter_mut().filter(|v| v.status == Status::Safe) {
            v.status = Status::Unknown;
            v.reason = format!("unknown: no proof can rest on an incomplete over-approximation: {} (without it: {})", prog.approx_str(ap), v.reason);
            v.detail = None;
        }
    }
    CheckReport { verdicts, sections }
}

/// The bounded search on every assertion COARSEN left open.
fn bounded_pass(prog: &Program, opts: &CheckOptions, b: Bound, hints: Option<&bounded::Hints>, verdicts: &mut [AssertionVerdict], sections: &mut Vec<Section>) {
    use crate::bounded::{BoundedOptions, BoundedOutcome};
    let targets: Vec<AssertId> = (0..verdicts.len()).filter(|&i| verdicts[i].status != Status::Safe).map(|i| AssertId(i as u32)).collect();
    if targets.is_empty() {
        return;
    }
    let bo = BoundedOptions { unroll: b.unroll, threads: b.threads, no_prune: opts.no_prune, witness: opts.witness.clone(), dump_smt: opts.dump_smt.clone(), timeout: bounded::DEFAULT_TIMEOUT };
    let report = bounded::run(prog, &bo, hints, &targets);
    if opts.stats {
        let s = &report.stats;
        let e = &s.encoding;
        sections.push(Section {
            title: "bounded".into(),
            body: format!(
                "coarsen hints {}\ninstances {}\nevents {}\nreads {}\nwrites {}\ncopy pairs {}\nbetween constraints {}\nclock units {}\nterm nodes {}\nsummarise s {:.3}\nencode s {:.3}\nsolve s {:.3}\n",
                if hints.is_some() { "on" } else { "off" },
                s.instances, s.events, e.reads, e.writes, e.copy_pairs, e.between, e.units, e.terms, s.summarise, s.encode, s.solve
            ),
        });
    }
    for (a, outcome) in report.outcomes {
        let v = &mut verdicts[a.index()];
        match outcome {
            BoundedOutcome::Violated { trace } => {
                v.status = Status::Violated;
                v.reason = "violated: a replayed interleaving reaches the failure".into();
                v.detail = Some(trace);
            }
            BoundedOutcome::BoundedSafe { reason } => {
                v.status = Status::BoundedSafe;
                v.reason = format!("{}; bounded search: {reason}", v.reason);
            }
            BoundedOutcome::Safe { reason } => {
                v.status = Status::Safe;
                v.reason = format!("safe: bounded search: {reason}");
                v.detail = None;
            }
            BoundedOutcome::Unknown { reason } => {
                v.reason = format!("{}; bounded search: {reason}", v.reason);
            }
        }
    }
}
