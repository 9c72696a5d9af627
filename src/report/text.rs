//! The plain-text report: a table per file, then a summary.

use crate::verdict::races::{RaceAccess, RaceStatus, RaceVerdict};
use crate::verdict::{Outcome, Summary, TaskResult, TaskRun};
use std::fmt::Write;

/// The note on a checked file without assertions: the exit code 0 then says nothing was found
/// to check, not that something was proved.
pub(crate) const NO_ASSERTIONS: &str = "no assertions (assert, __VERIFIER_assert, reach_error, __VERIFIER_error or __assert_fail): nothing was checked; the file counts as safe for the exit code";

/// Renders one task's verdicts.
pub(crate) fn task(r: &TaskResult) -> String {
    let mut out = String::new();
    match &r.outcome {
        Outcome::Checked(vs) => {
            let _ = writeln!(out, "{}: {} assertion(s) in {:.2} s", r.file, vs.len(), r.seconds);
            if vs.is_empty() && r.races.is_none() {
                let _ = writeln!(out, "  note: {}", NO_ASSERTIONS);
            }
            let width = vs.iter().map(|v| v.id.len()).max().unwrap_or(0);
            for v in vs {
                // The deciding engine closes the verdict line, where the status column stays
                // aligned whatever its width.
                let by = v.engine.map(|e| format!("  [{}]", e.name())).unwrap_or_default();
                let _ = writeln!(out, "  {:<width$}  {:<12}  '{}'{by}", v.id, v.label(), v.text);
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
        Outcome::Interrupted(why) => {
            let _ = writeln!(out, "{}: interrupted after {:.2} s ({why})", r.file, r.seconds);
        }
    }
    if let Some(races) = &r.races {
        out.push_str(&races_text(races));
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

/// The data-race verdicts of one task: a line per memory location, then its pairs that are
/// not race-free, each race with its replayed interleaving.
pub(crate) fn races_text(races: &[RaceVerdict]) -> String {
    let mut out = String::new();
    let count = |s: RaceStatus| races.iter().filter(|v| v.status == s).count();
    let _ =
        writeln!(out, "  data races: {} shared memory location(s): {} race, {} unknown, {} race-free", races.len(), count(RaceStatus::Race), count(RaceStatus::Unknown), count(RaceStatus::RaceFree));
    let width = races.iter().map(|v| v.memory.len()).max().unwrap_or(0);
    let side = |a: &RaceAccess| format!("{} {} [{}] ({})", a.at, if a.write { "write" } else { "read" }, a.locks.join(", "), a.thread);
    for v in races {
        let _ = writeln!(out, "  {:<width$}  {:<9}  {}", v.memory, v.status.word(), v.reason);
        for p in &v.pairs {
            let _ = writeln!(out, "    {:<7}  {}  /  {}", p.status.word(), side(&p.accesses[0]), side(&p.accesses[1]));
            if p.status != RaceStatus::Race {
                let _ = writeln!(out, "             {}", p.reason);
            }
            for step in &p.interleaving {
                let _ = writeln!(out, "             {step}");
            }
        }
    }
    out
}

/// The summary block printed after the tables, with the run's wall-clock time.
pub(crate) fn summary(s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "summary: {} file(s), {} assertion(s)", s.tasks, s.assertions());
    let _ = writeln!(out, "files");
    let _ = writeln!(out, "  checked       {}", s.checked());
    let _ = writeln!(out, "  timeout       {}", s.timeout);
    if s.out_of_memory > 0 {
        let _ = writeln!(out, "  out-of-memory {}", s.out_of_memory);
    }
    let _ = writeln!(out, "  error         {}", s.error);
    if s.interrupted > 0 {
        let _ = writeln!(out, "  interrupted   {}", s.interrupted);
    }
    let _ = writeln!(out, "assertions (in checked files)");
    let _ = writeln!(out, "  safe          {}", s.safe);
    let _ = writeln!(out, "  violated      {}", s.violated);
    if s.bounded_safe > 0 {
        let _ = writeln!(out, "  bounded-safe  {}", s.bounded_safe);
    }
    let _ = writeln!(out, "  unknown       {}", s.unknown);
    let _ = writeln!(out, "time {:.2} s", s.seconds);
    let _ = writeln!(out, "exit code {} (0 all safe, 10 some violated, 5 inconclusive, 2 input error, 6 internal error; the first that applies of 10, 6, 2, 5, 0; 130 interrupted)", s.exit_code);
    out
}

/// One line per file: its verdict counts (or how it ended) and its time, the table `--csv`
/// writes in full.
pub(crate) fn per_file(runs: &[TaskRun]) -> String {
    let width = runs.iter().map(|r| r.result.file.len()).max().unwrap_or(0);
    let mut out = String::from("per file\n");
    for run in runs {
        let r = &run.result;
        let mut s = Summary::default();
        s.add(r);
        let counts = match r.outcome {
            Outcome::Checked(_) => format!("safe {} violated {} bounded-safe {} unknown {}", s.safe, s.violated, s.bounded_safe, s.unknown),
            _ => r.outcome.word().to_string(),
        };
        let _ = writeln!(out, "  {:<width$}  {counts}  {:.2} s", r.file, r.seconds);
    }
    out
}
