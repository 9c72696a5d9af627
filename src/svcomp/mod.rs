//! The SV-COMP runner: task files in, a table per task, a confusion matrix and the score out.
//!
//! - [`task`]: reading `.yml` task definitions;
//! - [`score`]: answers (TRUE/FALSE/UNKNOWN), judgements and SV-COMP points;
//! - this module: one row per task and the rendering of the table and the CSV.

pub(crate) mod score;
pub mod task;

use crate::verdict::{Outcome, Status, TaskResult};
use score::{Answer, Confusion, Judgement};
use std::fmt::Write;

/// One line of the SV-COMP table.
#[derive(Clone, Debug)]
pub struct Row {
    /// The task file as given.
    pub task: String,
    /// The expected verdict, when known.
    pub expected: Option<bool>,
    /// duet-rs's answer.
    pub got: Answer,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// What happened: `checked`, `timeout`, `out-of-memory`, `interrupted`, `error` or `bad-task`.
    pub outcome: &'static str,
    /// Why the answer is what it is, in a line.
    pub note: String,
}

impl Row {
    /// The row of a task that ran.
    pub fn of(task: &str, expected: Option<bool>, r: &TaskResult) -> Row {
        let got = score::answer(r);
        let (outcome, note) = match &r.outcome {
            Outcome::Checked(vs) => {
                let first = |s: Status| vs.iter().find(|v| v.status == s);
                let note = match got {
                    Answer::False => first(Status::Violated).map(|v| format!("violated: {} ({})", v.id, v.reason)),
                    Answer::True => Some(format!("{} assertion(s) safe", vs.len())),
                    Answer::Unknown => vs.iter().find(|v| v.status != Status::Safe).map(|v| format!("{}: {} ({})", v.status.word(), v.id, v.reason)),
                };
                ("checked", note.unwrap_or_default())
            }
            Outcome::Error(d) => ("error", d.to_string().lines().next().unwrap_or("").to_string()),
            Outcome::Timeout(why) | Outcome::OutOfMemory(why) | Outcome::Interrupted(why) => (r.outcome.word(), why.clone()),
        };
        Row { task: task.to_string(), expected, got, seconds: r.seconds, outcome, note }
    }

    /// The row of a task file that could not be used.
    pub fn bad_task(task: &str, why: &str) -> Row {
        Row { task: task.to_string(), expected: None, got: Answer::Unknown, seconds: 0.0, outcome: "bad-task", note: why.to_string() }
    }

    /// SV-COMP points of this row.
    pub fn points(&self) -> i64 {
        score::points(self.expected, self.got)
    }
}

/// The expected verdict as the table prints it: `true`, `false` or `-`.
pub fn expected_word(e: Option<bool>) -> &'static str {
    match e {
        Some(true) => "true",
        Some(false) => "false",
        None => "-",
    }
}

/// The confusion matrix of some rows.
pub fn confusion(rows: &[Row]) -> Confusion {
    let mut c = Confusion::default();
    for r in rows {
        c.add(r.expected, r.got);
    }
    c
}

/// The table, the confusion matrix and the score, as printed on stdout.
pub fn render(rows: &[Row], skipped: usize, total_seconds: f64) -> String {
    let mut out = String::new();
    let w = rows.iter().map(|r| r.task.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(out, "{:<w$}  {:<8}  {:<7}  {:>8}  {:>6}  note", "task", "expected", "got", "time (s)", "points");
    for r in rows {
        let mark = match score::judge(r.expected, r.got) {
            Judgement::Wrong => "  WRONG",
            _ => "",
        };
        let _ = writeln!(
            out,
            "{:<w$}  {:<8}  {:<7}  {:>8.2}  {:>6}  {}{mark}",
            r.task,
            expected_word(r.expected),
            r.got.word(),
            r.seconds,
            r.points(),
            if r.outcome == "checked" { r.note.clone() } else { format!("{}: {}", r.outcome, r.note) },
        );
    }
    let c = confusion(rows);
    let _ = writeln!(out);
    let _ = writeln!(out, "confusion matrix (rows: expected verdict, columns: answer)");
    let _ = writeln!(out, "{:<16}  {:>5}  {:>5}  {:>7}", "", "TRUE", "FALSE", "UNKNOWN");
    for (i, name) in ["expected true", "expected false", "expected none"].iter().enumerate() {
        if i == 2 && c.cells[2].iter().sum::<usize>() == 0 {
            continue;
        }
        let row = c.cells[i];
        let _ = writeln!(out, "{:<16}  {:>5}  {:>5}  {:>7}", name, row[0], row[1], row[2]);
    }
    let _ = writeln!(out);
    let unknown: usize = c.cells.iter().map(|r| r[2]).sum();
    let _ = writeln!(out, "correct true {}, correct false {}, wrong true {}, wrong false {}, unknown {}", c.correct_true(), c.correct_false(), c.wrong_true(), c.wrong_false(), unknown);
    if skipped > 0 {
        let _ = writeln!(out, "{skipped} task file(s) without an unreach-call property skipped");
    }
    let _ = writeln!(out, "time {total_seconds:.2} s");
    let _ = writeln!(out, "score {} (of {} possible; +2 correct TRUE, +1 correct FALSE, -32 wrong TRUE, -16 wrong FALSE)", c.score, c.max_score());
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Whether a row's answer is right, as the CSV says it: `yes`, `no`, or empty when unscored.
pub fn correct_word(r: &Row) -> &'static str {
    match score::judge(r.expected, r.got) {
        Judgement::Correct => "yes",
        Judgement::Wrong => "no",
        Judgement::Unscored => "",
    }
}

/// The rows as CSV with a header line.
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from("task,expected,answer,correct,points,outcome,seconds,note\n");
    for r in rows {
        let correct = correct_word(r);
        let _ = writeln!(out, "{},{},{},{},{},{},{:.3},{}", csv_field(&r.task), expected_word(r.expected), r.got.word(), correct, r.points(), r.outcome, r.seconds, csv_field(&r.note));
    }
    out
}
