//! Verdicts: what duet-rs concludes about each assertion, and about each task (file).

use crate::diag::Diagnostic;
use crate::ir::{AssertId, Program};
use serde::{Deserialize, Serialize};

pub mod races;

/// The conclusion about one assertion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// It holds in every execution, for every number of threads the mode allows.
    Safe,
    /// Some execution violates it; a witness shows how.
    Violated,
    /// No violation within the bound; nothing is claimed beyond it.
    BoundedSafe,
    /// The analysis could not decide.
    Unknown,
}

impl Status {
    /// The word printed in reports.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Safe => "safe",
            Status::Violated => "violated",
            Status::BoundedSafe => "bounded-safe",
            Status::Unknown => "unknown",
        }
    }
}

/// The engine whose result decided a verdict.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decider {
    /// The lowering: no path of the IR reaches the failure, or its function is never called.
    Lowering,
    /// COARSEN's proof for any number of threads.
    Coarsen,
    /// The finite-state engine.
    Finite,
    /// The transaction-based summaries.
    Transactions,
    /// The explicit-state search.
    Explore,
    /// The bounded search.
    Bounded,
    /// The bounded search's sequential round (every thread but the first without interruption).
    Sequential,
    /// `duet-rs predict`.
    Predict,
}

impl Decider {
    /// The name reports print.
    pub fn name(self) -> &'static str {
        match self {
            Decider::Lowering => "lowering",
            Decider::Coarsen => "coarsen",
            Decider::Finite => "finite",
            Decider::Transactions => "transactions",
            Decider::Explore => "explore",
            Decider::Bounded => "bounded",
            Decider::Sequential => "sequential",
            Decider::Predict => "predict",
        }
    }
}

/// The verdict on one source assertion.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AssertionVerdict {
    /// Stable id: `file:line:col` of the failure call.
    pub id: String,
    /// The asserted expression as written.
    pub text: String,
    /// The conclusion.
    pub status: Status,
    /// Why: which engine proved it and how, or what stopped it.
    pub reason: String,
    /// The invariant at the assertion when it could not be proved, or a witness trace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The bounded search's bound behind the verdict: the one a violation was found or an
    /// exhaustive exploration done at, or the deepest completed without a violation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<u32>,
    /// The engine that decided it; `None` while it is `unknown`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Decider>,
    /// `safe` because no thread reaches the assertion at all (dead code), as opposed to a
    /// failing branch that is infeasible where the assertion is reached.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unreachable: bool,
    /// The `--rules` file the verdict's proof rests on, when it is not the built-in rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_rules: Option<String>,
}

impl AssertionVerdict {
    /// The status as the text and SARIF reports print it: `safe (unreachable)` for dead code,
    /// `safe (custom rules)` for a proof under `--rules`.
    pub fn label(&self) -> String {
        match self.status {
            Status::Safe if self.custom_rules.is_some() => "safe (custom rules)".into(),
            Status::Safe if self.unreachable => "safe (unreachable)".into(),
            _ => self.status.word().into(),
        }
    }
}

/// An extra output of a task, such as its invariants or data-flow graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// What it is (`invariants`, `dfg`, `stats`, ...).
    pub title: String,
    /// Its text.
    pub body: String,
    /// The same figures as named fields (`--stats`), for the JSON report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

/// The verdict on assertion `i` of the program, with no bound.
pub fn assertion_verdict(prog: &Program, i: usize, status: Status, reason: String, detail: Option<String>) -> AssertionVerdict {
    AssertionVerdict { id: prog.assertion_id(AssertId(i as u32)), text: prog.assertions[i].text.clone(), status, reason, detail, bound: None, engine: None, unreachable: false, custom_rules: None }
}

/// The verdicts on a program, with the extra outputs asked for.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// One verdict per source assertion, in source order.
    pub verdicts: Vec<AssertionVerdict>,
    /// Extra outputs (invariants, DFG, statistics), in the order asked.
    pub sections: Vec<Section>,
    /// Files asked for (witness, SMT-LIB2), for the command line to write.
    pub artifacts: Artifacts,
}

/// How the run on one file ended.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The file was analysed.
    Checked(Vec<AssertionVerdict>),
    /// The file could not be read, preprocessed, parsed or lowered.
    Error(Diagnostic),
    /// The time limit ended the task.
    Timeout(String),
    /// The memory limit ended the task.
    OutOfMemory(String),
    /// An interrupt (SIGINT) stopped the batch before the task finished or started.
    Interrupted(String),
}

impl Outcome {
    /// The word the reports (JSON, CSV, text, the SV-COMP table) give this outcome.
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Checked(_) => "checked",
            Outcome::Error(_) => "error",
            Outcome::Timeout(_) => "timeout",
            Outcome::OutOfMemory(_) => "out-of-memory",
            Outcome::Interrupted(_) => "interrupted",
        }
    }
}

/// The result of one task.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TaskResult {
    /// The input file as given.
    pub file: String,
    /// What happened.
    pub outcome: Outcome,
    /// Wall-clock seconds spent.
    pub seconds: f64,
    /// Extra outputs asked for.
    pub sections: Vec<Section>,
    /// Files asked for (witness, SMT-LIB2 encoding), which the command line writes.
    #[serde(default, skip_serializing_if = "Artifacts::is_empty")]
    pub artifacts: Artifacts,
    /// The data-race verdicts (`--races`), one per shared memory location; `None` when not asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub races: Option<Vec<races::RaceVerdict>>,
}

/// One task's result with what the parent measured about its process.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TaskRun {
    /// The verdicts, or why there are none.
    pub result: TaskResult,
    /// Peak resident memory of the task process in MiB, when known.
    pub peak_memory_mb: Option<f64>,
}

/// What a task returns for the command line to write: engines write no files.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifacts {
    /// The witness: the first violation's, or the proof's when every assertion is safe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness: Option<crate::witness::Witness>,
    /// The bounded search's encoding as SMT-LIB2 (the last round's, when deepening).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smt: Option<String>,
    /// COARSEN's Datalog facts, round by round (`--dump-facts`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<crate::dump::FactsDump>,
}

impl Artifacts {
    /// Nothing to write.
    pub fn is_empty(&self) -> bool {
        self.witness.is_none() && self.smt.is_none() && self.facts.is_none()
    }
}

impl TaskResult {
    /// The exit code this task alone would give.
    pub fn exit_code(&self) -> i32 {
        use crate::diag::{exit, ErrorKind};
        match &self.outcome {
            Outcome::Checked(vs) => {
                let races = self.races.as_deref().map_or(races::RaceStatus::RaceFree, races::worst);
                if vs.iter().any(|v| v.status == Status::Violated) || races == races::RaceStatus::Race {
                    exit::VIOLATED
                } else if vs.iter().all(|v| v.status == Status::Safe) && races == races::RaceStatus::RaceFree {
                    exit::SAFE
                } else {
                    exit::INCONCLUSIVE
                }
            }
            Outcome::Error(d) if d.kind == ErrorKind::Internal => exit::INTERNAL,
            Outcome::Error(_) => exit::INPUT_ERROR,
            Outcome::Timeout(_) | Outcome::OutOfMemory(_) | Outcome::Interrupted(_) => exit::INCONCLUSIVE,
        }
    }
}

/// Counts over a run, shared by the text summary, the JSON report and the progress display.
/// Files and assertions are counted apart: a file that timed out or failed has no assertion
/// verdicts.
#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Tasks (files) counted.
    pub tasks: usize,
    /// Safe assertions.
    pub safe: usize,
    /// Violated assertions.
    pub violated: usize,
    /// Bounded-safe assertions.
    pub bounded_safe: usize,
    /// Unknown assertions.
    pub unknown: usize,
    /// Tasks that reached the time limit.
    pub timeout: usize,
    /// Tasks that reached the memory limit.
    pub out_of_memory: usize,
    /// Tasks that failed with an error.
    pub error: usize,
    /// Tasks an interrupt stopped or kept from starting.
    #[serde(default)]
    pub interrupted: usize,
    /// Wall-clock seconds of the whole run (0 while it runs).
    pub seconds: f64,
    /// The run's exit code (0 while it runs).
    pub exit_code: i32,
}

impl Summary {
    /// Sums up a finished run.
    pub fn of(runs: &[TaskRun], exit_code: i32, seconds: f64) -> Summary {
        let mut s = Summary { seconds, exit_code, ..Summary::default() };
        for r in runs {
            s.add(&r.result);
        }
        s
    }

    /// Counts one more task.
    pub fn add(&mut self, r: &TaskResult) {
        self.tasks += 1;
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
            Outcome::Interrupted(_) => self.interrupted += 1,
        }
    }

    /// Tasks that were analysed to their end.
    pub fn checked(&self) -> usize {
        self.tasks - self.timeout - self.out_of_memory - self.error - self.interrupted
    }

    /// Assertion verdicts counted.
    pub fn assertions(&self) -> usize {
        self.safe + self.violated + self.bounded_safe + self.unknown
    }
}

/// The exit code of a whole run: a violation wins, then an internal error, then an input
/// error, then anything inconclusive; 0 only when every assertion of every file is safe.
pub fn combined_exit_code(results: &[TaskResult]) -> i32 {
    use crate::diag::exit;
    let codes: Vec<i32> = results.iter().map(|r| r.exit_code()).collect();
    for c in [exit::VIOLATED, exit::INTERNAL, exit::INPUT_ERROR, exit::INCONCLUSIVE] {
        if codes.contains(&c) {
            return c;
        }
    }
    exit::SAFE
}
