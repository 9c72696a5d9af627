//! The plain-text report: a table per file, then a summary.

use crate::verdict::{Outcome, Status, TaskResult};
use std::fmt::Write;

/// Renders one task's verdicts.
pub fn task(r: &TaskResult) -> String {
    let mut out = String::new();
    match &r.outcome {
        Outcome::Checked(vs) => {
            let _ = writeln!(out, "{}: {} assertion(s) in {:.2} s", r.file, vs.len(), r.seconds);
            let width = vs.iter().map(|v| v.id.len()).max().unwrap_or(0);
            for v in vs {
                let _ = writeln!(out, "  {:<width$}  {:<12}  '{}'", v.id, v.status.word(), v.text);
                let _ = writeln!(out, "  {:<width$}  {:<12}  {}", "", "", v.reason);
                if let Some(d) = &v.detail {
                    for line in d.lines() {
                        let _ = writeln!(out, "  {:<width$}  {:<12}  {}", "", "", line);
                    }
                }
            }
        }
        Outcome::Error(d) => {
            let _ = writeln!(out, "{}: error after {:.2} s", r.file, r.seconds);
            for line in d.to_string().lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        Outcome::Timeout(why) => {
            let _ = writeln!(out, "{}: timeout after {:.2} s ({why})", r.file, r.seconds);
        }
        Outcome::OutOfMemory(why) => {
            let _ = writeln!(out, "{}: out-of-memory after {:.2} s ({why})", r.file, r.seconds);
        }
    }
    for s in &r.sections {
        let _ = writeln!(out, "--- {} of {} ---", s.title, r.file);
        out.push_str(&s.body);
        if !s.body.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// Counts of assertion verdicts and failed tasks over a run.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Safe assertions.
    pub safe: usize,
    /// Violated assertions.
    pub violated: usize,
    /// Bounded-safe assertions.
    pub bounded_safe: usize,
    /// Unknown assertions.
    pub unknown: usize,
    /// Tasks that timed out.
    pub timeout: usize,
    /// Tasks that ran out of memory.
    pub out_of_memory: usize,
    /// Tasks that failed with an error.
    pub error: usize,
}

impl Summary {
    /// Sums up a run.
    pub fn of(results: &[TaskResult]) -> Summary {
        let mut s = Summary::default();
        for r in results {
            s.add(r);
        }
        s
    }

    /// Counts one more task.
    pub fn add(&mut self, r: &TaskResult) {
        match &r.outcome {
            Outcome::Checked(vs) => {
                for v in vs {
                    match v.status {
                        Status::Safe => self.safe += 1,
                        Status::Violated => self.violated += 1,
                        Status::BoundedSafe => self.bounded_safe += 1,
                        Status::Unknown => self.unknown += 1,
                    }
                }
            }
            Outcome::Error(_) => self.error += 1,
            Outcome::Timeout(_) => self.timeout += 1,
            Outcome::OutOfMemory(_) => self.out_of_memory += 1,
        }
    }
}

/// The summary block printed after the tables, with the run's wall-clock time. Files and
/// assertions are counted apart: a file that timed out or failed has no assertion verdicts.
pub fn summary(results: &[TaskResult], code: i32, total_seconds: f64) -> String {
    let s = Summary::of(results);
    let checked = results.len() - s.timeout - s.out_of_memory - s.error;
    let assertions = s.safe + s.violated + s.bounded_safe + s.unknown;
    let mut out = String::new();
    let _ = writeln!(out, "summary: {} file(s), {assertions} assertion(s)", results.len());
    let _ = writeln!(out, "files");
    let _ = writeln!(out, "  checked       {checked}");
    let _ = writeln!(out, "  timeout       {}", s.timeout);
    if s.out_of_memory > 0 {
        let _ = writeln!(out, "  out-of-memory {}", s.out_of_memory);
    }
    let _ = writeln!(out, "  error         {}", s.error);
    let _ = writeln!(out, "assertions (in checked files)");
    let _ = writeln!(out, "  safe          {}", s.safe);
    let _ = writeln!(out, "  violated      {}", s.violated);
    if s.bounded_safe > 0 {
        let _ = writeln!(out, "  bounded-safe  {}", s.bounded_safe);
    }
    let _ = writeln!(out, "  unknown       {}", s.unknown);
    let _ = writeln!(out, "time {total_seconds:.2} s");
    let _ = writeln!(out, "exit code {code} (0 all safe, 10 some violated, 5 inconclusive, 2 input error, 6 internal error; the first that applies of 10, 6, 2, 5, 0)");
    out
}
