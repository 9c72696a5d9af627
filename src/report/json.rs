//! The JSON report: one document with an object per task and a summary. The schema is
//! documented in `docs/report-json.md`; fields are only ever added, and `version` changes
//! if one is removed or changes meaning.

use super::location;
use crate::diag::{Diagnostic, ErrorKind};
use crate::verdict::{Decider, Outcome, Section, Status, Summary, TaskRun};
use serde::{Deserialize, Serialize};

/// The value of `format` in every duet-rs JSON report.
pub const FORMAT: &str = "duet-rs-report";
/// The schema version this build writes.
pub const VERSION: u32 = 1;

/// The whole report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The tool that wrote it.
    pub tool: Tool,
    /// One entry per task, in the order of the inputs.
    pub tasks: Vec<Task>,
    /// Counts over the run.
    pub summary: Summary,
}

/// Name and version of the tool.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Tool {
    /// `duet-rs`.
    pub name: String,
    /// The crate version.
    pub version: String,
}

/// One task (one input file).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Task {
    /// Position in the input order, from 0.
    pub index: usize,
    /// The file as given.
    pub file: String,
    /// `checked`, `error`, `timeout`, `out-of-memory` or `interrupted`.
    pub outcome: String,
    /// The exit code this task alone would give.
    pub exit_code: i32,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Peak resident memory of the task process in MiB, when known.
    pub memory_mb: Option<f64>,
    /// The verdicts (empty unless `outcome` is `checked`).
    pub assertions: Vec<Assertion>,
    /// The error when `outcome` is `error`.
    pub error: Option<Error>,
    /// Why, when `outcome` is `timeout`, `out-of-memory` or `interrupted`, or `checked` with no assertions.
    pub reason: Option<String>,
    /// Extra outputs asked for (`--invariants`, `--dot`, `--stats`).
    pub sections: Vec<Section>,
    /// The data-race verdicts (`--races`), one per shared memory location; absent unless asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub races: Option<Vec<crate::verdict::races::RaceVerdict>>,
}

/// The verdict on one assertion.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Assertion {
    /// Stable id `file:line:col`.
    pub id: String,
    /// The file of the failure call.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// The asserted expression as written.
    pub text: String,
    /// `safe`, `violated`, `bounded-safe` or `unknown`.
    pub status: Status,
    /// Which engine decided and how, or what stopped it.
    pub reason: String,
    /// An invariant or a witness trace, or null.
    pub detail: Option<String>,
    /// The bounded search's bound behind the verdict, or null when it did not decide it.
    #[serde(default)]
    pub bound: Option<u32>,
    /// The engine that decided it (`coarsen`, `finite`, `transactions`, `explore`, `bounded`,
    /// `sequential`, `predict`, `lowering`), or null while it is `unknown`.
    #[serde(default)]
    pub engine: Option<Decider>,
    /// `true` when it is `safe` because no thread reaches the assertion at all (dead code).
    #[serde(default)]
    pub unreachable: bool,
    /// `custom` when the verdict rests on rules given with `--rules` (named in `reason`),
    /// else `built-in`.
    #[serde(default = "built_in")]
    pub rules: String,
    /// The reason as data: the finding, the engines' notes, a proof's scope (`reason` renders it).
    #[serde(default)]
    pub why: crate::verdict::Why,
    /// A violation's interleaving step by step, or null.
    #[serde(default)]
    pub trace: Option<Vec<crate::verdict::TraceStep>>,
}

fn built_in() -> String {
    "built-in".into()
}

/// A task that could not be analysed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Error {
    /// `input` (exit code 2) or `internal` (exit code 6).
    pub kind: ErrorKind,
    /// The file the error is in.
    pub file: String,
    /// 1-based line, 0 when the error concerns the whole file.
    pub line: u32,
    /// 1-based column, 0 when unknown.
    pub column: u32,
    /// What went wrong.
    pub message: String,
    /// Further lines.
    pub notes: Vec<String>,
}

fn error_of(d: &Diagnostic) -> Error {
    Error { kind: d.kind, file: d.file.clone(), line: d.line, column: d.col, message: d.message.clone(), notes: d.notes.clone() }
}

/// The report of a run as a value.
pub fn report(runs: &[TaskRun], exit_code: i32, total_seconds: f64) -> Report {
    let tasks = runs
        .iter()
        .enumerate()
        .map(|(index, run)| {
            let r = &run.result;
            let mut t = Task {
                index,
                file: r.file.clone(),
                outcome: r.outcome.word().into(),
                exit_code: r.exit_code(),
                seconds: r.seconds,
                memory_mb: run.peak_memory_mb,
                assertions: Vec::new(),
                error: None,
                reason: None,
                sections: r.sections.clone(),
                races: r.races.clone(),
            };
            match &r.outcome {
                Outcome::Checked(vs) => {
                    if vs.is_empty() {
                        t.reason = Some(super::text::NO_ASSERTIONS.into());
                    }
                    t.assertions = vs
                        .iter()
                        .map(|v| {
                            let p = location::of_id(&v.id);
                            Assertion {
                                id: v.id.clone(),
                                file: p.file,
                                line: p.line,
                                column: p.column,
                                text: v.text.clone(),
                                status: v.status.clone(),
                                reason: v.reason.clone(),
                                detail: v.detail.clone(),
                                bound: v.bound,
                                engine: v.engine,
                                unreachable: v.unreachable,
                                rules: if v.custom_rules.is_some() { "custom".into() } else { built_in() },
                                why: v.why.clone(),
                                trace: v.trace.clone(),
                            }
                        })
                        .collect();
                }
                Outcome::Error(d) => {
                    t.error = Some(error_of(d));
                }
                Outcome::Timeout(why) => {
                    t.reason = Some(why.clone());
                }
                Outcome::OutOfMemory(why) => {
                    t.reason = Some(why.clone());
                }
                Outcome::Interrupted(why) => {
                    t.reason = Some(why.clone());
                }
            }
            t
        })
        .collect();
    Report { format: FORMAT.into(), version: VERSION, tool: Tool { name: "duet-rs".into(), version: env!("CARGO_PKG_VERSION").into() }, tasks, summary: Summary::of(runs, exit_code, total_seconds) }
}

/// The report of a run as pretty-printed JSON, ending with a newline.
pub fn render(runs: &[TaskRun], exit_code: i32, total_seconds: f64) -> String {
    let mut s = serde_json::to_string_pretty(&report(runs, exit_code, total_seconds)).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}
