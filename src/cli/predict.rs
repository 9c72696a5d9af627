//! `duet-rs predict`: violations predicted from observed runs, with `check`'s reports and batch.

use super::check::BatchArgs;
use super::{expand_inputs, InputArgs};
use crate::batch::TaskSpec;
use crate::diag::exit;
use crate::engine::CheckOptions;
use crate::predict::PredictOptions;
use crate::report::Format;
use clap::Args;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `duet-rs predict`.
#[derive(Args, Debug)]
pub(super) struct PredictArgs {
    /// C files or directories.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    /// Observed runs per file (fewer when every assertion is violated sooner).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Seed of the random scheduler; the same seed gives the same runs and predictions.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Steps per observed run.
    #[arg(long, value_name = "N", default_value_t = 50_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub steps: u64,
    /// Search interleavings with up to 1, then 2, ... K context switches (symbolic context
    /// bounding); an unsat core that does not need the bound covers every interleaving.
    #[arg(long, value_name = "K", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub context_bound: u32,
    /// Search every interleaving of the observed events at once.
    #[arg(long, conflicts_with = "context_bound")]
    pub no_context_bound: bool,
    /// Seconds the analysis may spend on a file (runs, encodings and solver queries); the
    /// assertions it leaves undecided are `unknown`, with the budget named as the reason.
    #[arg(long, value_name = "SECS", default_value_t = crate::predict::DEFAULT_BUDGET_SECS as f64, value_parser = super::check::positive_seconds)]
    pub search_time: f64,
    /// Solver time limit per query, in seconds (default: what is left of --search-time).
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub solver_timeout: Option<u64>,
    /// Print per-run figures (trace length, encoding size, times).
    #[arg(long)]
    pub stats: bool,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Report format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Write the report to FILE (atomically: a stopped run leaves no partial report).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl PredictArgs {
    /// The predictive analysis these flags select.
    pub(super) fn options(&self) -> PredictOptions {
        let budget = Duration::from_secs_f64(self.search_time);
        PredictOptions {
            runs: self.runs,
            seed: self.seed,
            max_steps: self.steps as usize,
            context_bound: (!self.no_context_bound).then_some(self.context_bound),
            solver_timeout: self.solver_timeout.map_or(budget, Duration::from_secs),
            budget,
            stats: self.stats,
        }
    }
}

/// Runs `duet-rs predict`.
pub(super) fn run(a: &PredictArgs) -> i32 {
    let start = Instant::now();
    let front = a.input.frontend_options();
    let opts = a.options();
    let files = expand_inputs(&a.files);
    if files.is_empty() {
        crate::stderr!("error: no .c or .i files found in the given paths");
        return exit::USAGE;
    }
    // Each file's `// duet-rs:` pragma is read by its own task (`frontend::pragma`).
    let specs: Vec<TaskSpec> = files.into_iter().map(|file| TaskSpec { file, front: front.clone(), check: CheckOptions::default(), predict: Some(opts.clone()), races: None }).collect();
    super::check::run_and_report(&a.batch, specs, a.format, (a.output.as_deref(), None), start, None)
}
