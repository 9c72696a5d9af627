//! The per-file table of a run as CSV (`check --csv FILE`): a header row, then one row per
//! task in input order with its verdict counts, outcome, time and peak memory.

use crate::verdict::{Summary, TaskRun};
use std::fmt::Write;

/// The header row's columns.
pub(crate) const COLUMNS: &str = "file,safe,violated,bounded-safe,unknown,outcome,seconds,memory_mb";

/// A field quoted as RFC 4180 asks when it holds a comma, a quote or a line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The whole table.
pub(crate) fn render(runs: &[TaskRun]) -> String {
    let mut out = format!("{COLUMNS}\n");
    for run in runs {
        let r = &run.result;
        let mut s = Summary::default();
        s.add(r);
        let memory = run.peak_memory_mb.map(|m| format!("{m:.1}")).unwrap_or_default();
        let _ = writeln!(out, "{},{},{},{},{},{},{:.2},{memory}", field(&r.file), s.safe, s.violated, s.bounded_safe, s.unknown, r.outcome.word(), r.seconds);
    }
    out
}
