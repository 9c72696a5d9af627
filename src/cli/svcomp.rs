//! `duet-rs svcomp`: runs SV-COMP task files and scores the answers.

use super::check::{emit, AnalysisArgs, BatchArgs};
use super::InputArgs;
use crate::batch::TaskSpec;
use crate::diag::exit;
use crate::report;
use crate::svcomp::{self, task, Row};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

/// The exit code when some answer is wrong (a TRUE or FALSE that contradicts the task).
pub(super) const WRONG_ANSWER: i32 = 4;

/// Arguments of `duet-rs svcomp`.
#[derive(Args, Debug)]
pub(super) struct SvcompArgs {
    /// SV-COMP task files (.yml) or directories holding them.
    #[arg(required = true, value_name = "TASK.yml")]
    pub tasks: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Also write the table as CSV to FILE (atomically).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
}

/// Runs `duet-rs svcomp`; exits 0, or [`WRONG_ANSWER`] when some answer is wrong.
pub(super) fn run(a: &SvcompArgs) -> i32 {
    let start = Instant::now();
    let files = task::expand(&a.tasks);
    if files.is_empty() {
        crate::stderr!("error: no .yml task files found in the given paths");
        return exit::USAGE;
    }
    let base = a.input.frontend_options();
    if let Err(e) = a.analysis.validate() {
        crate::stderr!("error: {e}");
        return exit::USAGE;
    }
    if let Err(e) = a.analysis.check_outputs(files.len()) {
        crate::stderr!("error: {e}");
        return exit::USAGE;
    }
    if let Err(e) = a.analysis.prepare_html() {
        crate::stderr!("error: {e}");
        return exit::INPUT_ERROR;
    }
    if let Some(Err(e)) = a.csv.as_deref().map(report::atomic::probe) {
        crate::stderr!("error: cannot write the CSV to {}: {e}", a.csv.as_deref().unwrap_or(std::path::Path::new("")).display());
        return exit::USAGE;
    }
    if let Err(e) = a.analysis.read_inputs() {
        crate::stderr!("error: {e}");
        return exit::INPUT_ERROR;
    }
    let check = a.analysis.check_options(a.batch.timeout);
    // A slot per task file in input order: a row already (bad file), or a batch index.
    enum Slot {
        Done(Row),
        Run(usize, Option<bool>, String),
    }
    let mut slots = Vec::new();
    let mut specs = Vec::new();
    let mut skipped = 0;
    for yml in &files {
        let label = yml.display().to_string();
        match task::read(yml) {
            Ok(task::Read::Task(t)) => {
                let mut front = base.clone();
                front.m32 = t.data_model == task::DataModel::ILP32;
                slots.push(Slot::Run(specs.len(), t.expected, label));
                specs.push(TaskSpec { file: t.input, front, check: check.clone(), predict: None, races: None });
            }
            Ok(task::Read::OtherProperty) => skipped += 1,
            Err(e) => {
                crate::stderr!("error: {e}");
                slots.push(Slot::Done(Row::bad_task(&label, &e.to_string())));
            }
        }
    }
    let runs = match a.batch.run(specs, None) {
        Ok(Some(runs)) => runs,
        Ok(None) => return exit::SAFE,
        Err(code) => return code,
    };
    if let Err(e) = a.analysis.write_artifacts(&runs) {
        crate::stderr!("error: {e}");
        return exit::USAGE;
    }
    let (rows, run_of): (Vec<Row>, Vec<Option<usize>>) = slots
        .into_iter()
        .map(|slot| match slot {
            Slot::Done(row) => (row, None),
            Slot::Run(i, expected, label) => (Row::of(&label, expected, &runs[i].result), Some(i)),
        })
        .unzip();
    if a.analysis.html.is_some() {
        let mut runs = runs;
        let code = crate::verdict::combined_exit_code(&runs.iter().map(|r| r.result.clone()).collect::<Vec<_>>());
        if let Err(e) = a.analysis.write_html(&mut runs, code, start.elapsed().as_secs_f64(), Some(&html_table(&rows, &run_of))) {
            crate::stderr!("error: {e}");
            return exit::OUTPUT_ERROR;
        }
    }
    emit(&svcomp::render(&rows, skipped, start.elapsed().as_secs_f64()));
    if let Some(path) = &a.csv {
        if let Err(e) = report::atomic::write(path, &svcomp::csv(&rows)) {
            crate::stderr!("error: cannot write the CSV to {}: {e}", path.display());
            return exit::OUTPUT_ERROR;
        }
    }
    if crate::batch::interrupted() {
        return exit::INTERRUPTED;
    }
    let c = svcomp::confusion(&rows);
    // A task file that cannot be used (its C file missing, say) is an input error, as in
    // `check`; the other tasks still ran and are in the table.
    let code = if c.wrong_true() + c.wrong_false() > 0 {
        WRONG_ANSWER
    } else if rows.iter().any(|r| r.outcome == "bad-task") {
        exit::INPUT_ERROR
    } else {
        exit::SAFE
    };
    super::check::stdout_failed(code)
}

/// The SV-COMP table as the HTML report shows it: the rows, each linked to its run, and the
/// confusion matrix with the score.
fn html_table(rows: &[Row], run_of: &[Option<usize>]) -> report::html::Svcomp {
    let c = svcomp::confusion(rows);
    let rows = rows
        .iter()
        .zip(run_of)
        .map(|(r, run)| report::html::SvcompRow {
            task: r.task.clone(),
            expected: svcomp::expected_word(r.expected).into(),
            answer: r.got.word().into(),
            correct: svcomp::correct_word(r).into(),
            points: r.points(),
            run: *run,
        })
        .collect();
    report::html::Svcomp { rows, cells: c.cells, score: c.score, max_score: c.max_score() }
}
