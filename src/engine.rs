//! Runs the analyses on a lowered program and turns their results into verdicts.

use crate::ir::Program;
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

/// Verdicts for every assertion of the program.
pub fn check_program(prog: &Program, opts: &CheckOptions) -> CheckReport {
    let unsupported = prog.unsupported.first().map(|u| format!("unsupported construct: {} at {}", u.construct, prog.span_str(u.span)));
    let verdicts = prog
        .assertions
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let id = prog.assertion_id(crate::ir::AssertId(i as u32));
            let (status, reason) = if a.locs.is_empty() {
                (Status::Safe, format!("never reached: `{}` is never called", a.function))
            } else if let Some(u) = &unsupported {
                (Status::Unknown, u.clone())
            } else {
                (Status::Unknown, "no analysis engine has run".to_string())
            };
            AssertionVerdict { id, text: a.text.clone(), status, reason, detail: None }
        })
        .collect();
    let mut verdicts: Vec<AssertionVerdict> = verdicts;
    let mut sections = Vec::new();
    if let Some(b) = opts.bound {
        bounded_pass(prog, opts, b, &mut verdicts, &mut sections);
    }
    CheckReport { verdicts, sections }
}

/// The bounded search on every assertion the earlier analyses left open.
fn bounded_pass(prog: &Program, opts: &CheckOptions, b: Bound, verdicts: &mut [AssertionVerdict], sections: &mut Vec<Section>) {
    use crate::bounded::{self, BoundedOptions, BoundedOutcome};
    let targets: Vec<crate::ir::AssertId> = (0..verdicts.len()).filter(|&i| verdicts[i].status != Status::Safe).map(|i| crate::ir::AssertId(i as u32)).collect();
    if targets.is_empty() {
        return;
    }
    let bo = BoundedOptions { unroll: b.unroll, threads: b.threads, no_prune: opts.no_prune, witness: opts.witness.clone(), dump_smt: opts.dump_smt.clone(), timeout: bounded::DEFAULT_TIMEOUT };
    let report = bounded::run(prog, &bo, None, &targets);
    if opts.stats {
        let s = &report.stats;
        let e = &s.encoding;
        sections.push(Section {
            title: "bounded".into(),
            body: format!(
                "instances {}\nevents {}\nreads {}\nwrites {}\ncopy pairs {}\nbetween constraints {}\nclock units {}\nterm nodes {}\nsummarise s {:.3}\nencode s {:.3}\nsolve s {:.3}\n",
                s.instances, s.events, e.reads, e.writes, e.copy_pairs, e.between, e.units, e.terms, s.summarise, s.encode, s.solve
            ),
        });
    }
    for (a, outcome) in report.outcomes {
        let v = &mut verdicts[a.index()];
        match outcome {
            BoundedOutcome::Violated { trace } => {
                v.status = Status::Violated;
                v.reason = "bounded search: a replayed interleaving reaches the failure".into();
                v.detail = Some(trace);
            }
            BoundedOutcome::BoundedSafe { reason } => {
                v.status = Status::BoundedSafe;
                v.reason = format!("bounded search: {reason}");
            }
            BoundedOutcome::Safe { reason } => {
                v.status = Status::Safe;
                v.reason = format!("bounded search: {reason}");
            }
            BoundedOutcome::Unknown { reason } => {
                v.reason = format!("{}; bounded search: {reason}", v.reason);
            }
        }
    }
}
