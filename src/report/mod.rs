//! Reports of verdicts for people and tools: the text table, JSON (schema in
//! `docs/report-json.md`) and SARIF 2.1.0, witnesses (YAML 2.0 and GraphML), the atomic
//! write of a report file, and stdout with its write errors kept.

pub(crate) mod atomic;
pub(crate) mod csv;
pub(crate) mod facts;
pub mod graphml;
pub(crate) mod html;
pub mod json;
pub(crate) mod location;
pub(crate) mod sarif;
pub(crate) mod text;
pub(crate) mod witness;

use crate::verdict::{Summary, TaskRun};

/// A report format (`--format`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A table per file, then a summary.
    Text,
    /// One JSON document: an object per task and a summary.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
}

/// The whole report of a run in `format`.
pub fn render(format: Format, runs: &[TaskRun], exit_code: i32, total_seconds: f64) -> String {
    match format {
        Format::Text => {
            let mut out: String = runs.iter().map(|r| text::task(&r.result)).collect();
            out.push('\n');
            out.push_str(&text_summary(runs, exit_code, total_seconds));
            out
        }
        Format::Json => json::render(runs, exit_code, total_seconds),
        Format::Sarif => sarif::render(runs, exit_code),
    }
}

/// The text summary block of a run, with a line per file when there are several.
pub fn text_summary(runs: &[TaskRun], exit_code: i32, total_seconds: f64) -> String {
    let per_file = if runs.len() > 1 { text::per_file(runs) } else { String::new() };
    per_file + &text::summary(&Summary::of(runs, exit_code, total_seconds))
}
