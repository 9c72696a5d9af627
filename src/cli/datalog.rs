//! `duet-rs datalog`: run Datalog rules on Soufflé-style fact files, without the analyser.

use crate::diag::exit;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `duet-rs datalog`.
#[derive(Args, Debug)]
pub(super) struct DatalogArgs {
    /// The rule file (a Soufflé-compatible subset).
    #[arg(value_name = "RULES.dl")]
    rules: PathBuf,
    /// Directory of the input fact files (`REL.facts`, tab-separated).
    #[arg(short = 'F', long = "facts", value_name = "FACTS_DIR", default_value = ".")]
    facts: PathBuf,
    /// Directory for the output relations (`REL.csv`, tab-separated, sorted); `-` prints
    /// them on stdout instead, each under a header with its name (as Soufflé does).
    #[arg(short = 'D', long = "output", value_name = "OUT_DIR", default_value = ".")]
    out: PathBuf,
    /// Timely worker threads; the results do not depend on it.
    #[arg(long, default_value_t = 1, value_name = "N")]
    workers: usize,
}

/// Runs `duet-rs datalog`.
pub(super) fn run(a: &DatalogArgs) -> i32 {
    if a.workers == 0 {
        crate::stderr!("error: --workers must be at least 1");
        return exit::USAGE;
    }
    // As in Soufflé: a fact directory that is not there is an error, not a run on no facts.
    if !a.facts.is_dir() {
        let what = if a.facts.exists() { "is not a directory" } else { "does not exist" };
        crate::stderr!("error: the fact directory {} (-F) {what}", a.facts.display());
        return exit::INPUT_ERROR;
    }
    match datalog::run_dir(&a.rules, &a.facts, &a.out, a.workers) {
        Ok(summary) => {
            for name in &summary.missing_inputs {
                crate::stderr!("note: no fact file for input `{name}`; it is empty");
            }
            for (name, path, n) in &summary.outputs {
                let to = if path.as_os_str() == datalog::facts::STDOUT { "stdout".into() } else { path.display().to_string() };
                crate::stderr!("{name}: {n} tuples -> {to}");
            }
            for (name, n) in &summary.sizes {
                println!("{name}\t{n}");
            }
            exit::SAFE
        }
        Err(e) => {
            crate::stderr!("{e}");
            exit::INPUT_ERROR
        }
    }
}
