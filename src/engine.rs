//! Runs the analyses on a lowered program and turns their results into verdicts.

use crate::coarsen;
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
}

/// The verdicts on a program, with the extra outputs asked for.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// One verdict per source assertion, in source order.
    pub verdicts: Vec<AssertionVerdict>,
    /// Extra outputs (invariants, DFG, statistics), in the order asked.
    pub sections: Vec<Section>,
}

/// Verdicts for every assertion of the program: COARSEN's proof for any number of threads.
pub fn check_program(prog: &Program, opts: &CheckOptions) -> CheckReport {
    let verdict = |i: usize, status: Status, reason: String, detail: Option<String>| AssertionVerdict {
        id: prog.assertion_id(AssertId(i as u32)),
        text: prog.assertions[i].text.clone(),
        status,
        reason,
        detail,
    };
    // A construct the IR could not model means the IR may miss behaviours: nothing can be
    // proved, not even that an assertion is unreachable.
    if let Some(u) = prog.unsupported.first() {
        let why = format!("unknown: unsupported construct: {} at {}", u.construct, prog.span_str(u.span));
        let verdicts = (0..prog.assertions.len()).map(|i| verdict(i, Status::Unknown, why.clone(), None)).collect();
        return CheckReport { verdicts, sections: Vec::new() };
    }
    let copts = coarsen::CoarsenOptions { domain: opts.domain, rules: opts.rules.clone(), workers: 1 };
    match coarsen::run(prog, &copts) {
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
                .collect();
            let mut sections = Vec::new();
            if opts.invariants {
                sections.push(Section { title: "invariants".into(), body: coarsen::report::invariants(prog, &out) });
            }
            if opts.dot {
                sections.push(Section { title: "dfg".into(), body: coarsen::report::dot(prog, &out) });
            }
            if opts.stats {
                sections.push(Section { title: "stats".into(), body: coarsen::report::stats(&out) });
            }
            CheckReport { verdicts, sections }
        }
        Err(e) => {
            let verdicts = (0..prog.assertions.len()).map(|i| verdict(i, Status::Unknown, format!("unknown: {e}"), None)).collect();
            CheckReport { verdicts, sections: Vec::new() }
        }
    }
}
