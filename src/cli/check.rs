//! `duet-rs check`: verdicts for every assertion of every file.

use super::{expand_inputs, load_program, InputArgs};
use crate::diag::exit;
use crate::engine::{self, Bound, CheckOptions, DomainKind};
use crate::report;
use crate::verdict::{combined_exit_code, Outcome, TaskResult};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// The abstract domain of the invariant analysis.
#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum DomainArg {
    /// Intervals per variable (non-relational).
    Interval,
    /// Octagons over variable packs, intervals for the rest.
    Octagon,
}

/// Arguments of `duet-rs check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// C files or directories.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    /// Numerical domain of the invariants.
    #[arg(long, value_enum, default_value = "interval")]
    pub domain: DomainArg,
    /// Use this Datalog file for the interference rules instead of the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// After the unbounded proof, search for violations with K loop iterations and K
    /// instances per unbounded thread template.
    #[arg(long, value_name = "K")]
    pub bound: Option<u32>,
    /// Loop iterations for the bounded search (overrides --bound for loops).
    #[arg(long, value_name = "N", requires = "bound")]
    pub unroll: Option<u32>,
    /// Instances per unbounded thread template for the bounded search (overrides --bound).
    #[arg(long, value_name = "N", requires = "bound")]
    pub threads: Option<u32>,
    /// Instantiate every copy constraint of the bounded encoding (no MHP/kill pruning).
    #[arg(long, requires = "bound")]
    pub no_prune: bool,
    /// Write the SV-COMP GraphML violation witness of the first violation to FILE.
    #[arg(long, value_name = "FILE", requires = "bound")]
    pub witness: Option<PathBuf>,
    /// Write the bounded encoding as SMT-LIB2 to FILE.
    #[arg(long, value_name = "FILE", requires = "bound")]
    pub dump_smt: Option<PathBuf>,
    /// Print the invariant at every location, on the source lines.
    #[arg(long)]
    pub invariants: bool,
    /// Print the final data-flow graph as Graphviz, interference edges labelled by round.
    #[arg(long)]
    pub dot: bool,
    /// Print per-round statistics of the analysis.
    #[arg(long)]
    pub stats: bool,
}

impl CheckArgs {
    /// The analysis options these flags select.
    pub fn check_options(&self) -> CheckOptions {
        CheckOptions {
            domain: match self.domain {
                DomainArg::Interval => DomainKind::Interval,
                DomainArg::Octagon => DomainKind::Octagon,
            },
            rules: self.rules.clone(),
            bound: self.bound.map(|k| Bound { unroll: self.unroll.unwrap_or(k), threads: self.threads.unwrap_or(k) }),
            no_prune: self.no_prune,
            witness: self.witness.clone(),
            dump_smt: self.dump_smt.clone(),
            invariants: self.invariants,
            dot: self.dot,
            stats: self.stats,
        }
    }
}

/// Runs `duet-rs check`.
pub fn run(a: &CheckArgs) -> i32 {
    let front = a.input.frontend_options();
    let opts = a.check_options();
    // A broken rules file would make every verdict unknown: report it once, up front.
    if let Err(e) = crate::rules::load(opts.rules.as_deref()) {
        eprintln!("error: {e}");
        return exit::INPUT_ERROR;
    }
    let files = expand_inputs(&a.files);
    if files.is_empty() {
        eprintln!("error: no .c or .i files found in the given paths");
        return exit::USAGE;
    }
    let mut results = Vec::new();
    for f in files {
        let start = std::time::Instant::now();
        let (outcome, sections) = match load_program(&f, &front) {
            Ok(p) => {
                let r = engine::check_program(&p, &opts);
                (Outcome::Checked(r.verdicts), r.sections)
            }
            Err(d) => (Outcome::Error(d), Vec::new()),
        };
        let r = TaskResult { file: f.display().to_string(), outcome, seconds: start.elapsed().as_secs_f64(), sections };
        print!("{}", report::text::task(&r));
        results.push(r);
    }
    let code = combined_exit_code(&results);
    print!("\n{}", report::text::summary(&results, code));
    code
}
