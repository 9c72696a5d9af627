//! Verdicts: what duet-rs concludes about each assertion, and about each task (file).

use crate::diag::Diagnostic;
use serde::{Deserialize, Serialize};

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
}

/// An extra output of a task, such as its invariants or data-flow graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// What it is (`invariants`, `dfg`, `stats`, ...).
    pub title: String,
    /// Its text.
    pub body: String,
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
                if vs.iter().any(|v| v.status == Status::Violated) {
                    exit::VIOLATED
                } else if vs.iter().all(|v| v.status == Status::Safe) {
                    exit::SAFE
                } else {
                    exit::INCONCLUSIVE
                }
            }
            Outcome::Error(d) if d.kind == ErrorKind::Internal => exit::INTERNAL,
            Outcome::Error(_) => exit::INPUT_ERROR,
            Outcome::Timeout(_) | Outcome::OutOfMemory(_) => exit::INCONCLUSIVE,
        }
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
