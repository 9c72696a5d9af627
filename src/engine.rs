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
pub fn check_program(prog: &Program, _opts: &CheckOptions) -> CheckReport {
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
    CheckReport { verdicts, sections: Vec::new() }
}
