//! Verdicts: what duet-rs concludes about each assertion, and about each task (file).
//!
//! These are data, below every engine and above every report, so that engines produce
//! conclusions without knowing how they are run or reported, and reports render them without
//! knowing any engine. A verdict's reason is structured ([`Why`]) and rendered to text in one
//! place ([`Why::text`]).
//!
//! Artifacts flow one way too: engines write no files. What a task is asked to produce besides
//! verdicts travels in its result: [`CheckReport::artifacts`] (a `witness::Witness`, the
//! bounded search's SMT-LIB2 text, COARSEN's Datalog facts as a `dump::FactsDump`) becomes
//! [`TaskResult::artifacts`], which is serialized with the rest from the task process to the
//! parent. COARSEN's invariants become a correctness witness only when every assertion ends
//! proved. The command line checks every output path before the analysis, and after the batch
//! renders each artifact (`report::witness`, `report::facts`) and writes it with
//! `report::atomic`. The DFG (`--dot`) and invariants are [`Section`]s of the result; with
//! `--dot=FILE` or `--invariants=FILE` the command line moves that section out of the result and
//! writes it (one input only), and prints the text report whole at the end instead of streaming,
//! so that the section cannot reach stdout.

use crate::diag::Diagnostic;
use crate::ir::{AssertId, Program};
use serde::{Deserialize, Serialize};

/// A shown step of a replayed interleaving (reports draw violations from it).
pub use crate::interp::trace::TraceStep;

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
    /// The engine as a reason names it.
    pub fn phrase(self) -> &'static str {
        match self {
            Decider::Finite => "the finite-state engine",
            Decider::Transactions => "the transactions",
            Decider::Coarsen => "COARSEN",
            Decider::Explore => "the explicit-state search",
            Decider::Bounded | Decider::Sequential => "the bounded search",
            Decider::Lowering => "the lowering",
            Decider::Predict => "predict",
        }
    }

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
    /// The reason as data; [`Why::text`] renders `reason` from it.
    #[serde(default)]
    pub why: Why,
    /// A violation's replayed interleaving, step by step (the same steps `detail` prints).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<TraceStep>>,
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

/// Why a verdict is what it is, as data: the finding that decided it or left it open, what
/// the engines that ran after it said without deciding, and, for a proof, the threads it covers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Why {
    /// The first clause: what decided the verdict, or what left it open.
    pub finding: Finding,
    /// What each engine that ran afterwards said without deciding, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// A proof's claim: the thread counts it covers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    /// Without a whole program, the entry points' thread counts a proof covers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_points: Option<EntryPoints>,
    /// A proof or bounded claim withdrawn because it rested on an incomplete over-approximation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn: Option<Box<Withdrawn>>,
}

/// The first clause of a reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// What kind of finding it is.
    pub kind: FindingKind,
    /// The engine that found it, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Decider>,
    /// Its words, after the label.
    pub text: String,
}

/// What kind of finding a reason starts with; it chooses the label before the words.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// A proof.
    Proof,
    /// A replayed violation.
    Violation,
    /// A proof attempt whose invariant does not imply the assertion (COARSEN's "not proved").
    NotProved,
    /// Nothing decided it: an engine did not run, declined, or failed.
    #[default]
    Open,
    /// `duet-rs predict`: an observed run reached the failure.
    Observed,
    /// `duet-rs predict`: a predicted interleaving of an observed run, replayed.
    Predicted,
}

/// What an engine that ran on an assertion said without deciding it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Note {
    /// The engine did not run on it.
    DidNotRun {
        /// The engine.
        engine: Decider,
        /// Why.
        why: String,
    },
    /// The engine declined it (outside what it handles).
    Declined {
        /// The engine.
        engine: Decider,
        /// Why.
        why: String,
    },
    /// The engine ran and did not prove it.
    NotProved {
        /// The engine.
        engine: Decider,
        /// Why.
        why: String,
    },
    /// The bounded search at one bound found no violation, or stopped: what it said.
    Bounded {
        /// Its words.
        why: String,
    },
    /// Iterative deepening ended without deciding.
    Deepening {
        /// The deepest bound completed with no violation, with the search's words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deepest: Option<(u32, String)>,
        /// The last round that left it undecided, with why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last: Option<(u32, String)>,
        /// Why deepening stopped.
        stopped: String,
    },
}

/// The thread counts a proof covers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Every number of threads of every template.
    EveryThreadCount,
    /// Every number of threads of some templates, the others as the program creates them.
    Parameterized,
    /// The threads the program creates.
    ThreadsCreated,
}

/// The entry points' thread counts a proof covers, without a whole program.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EntryPoints {
    /// Every number of threads of each entry point.
    EveryNumber,
    /// One thread of each (`--once`).
    Once,
}

/// A claim withdrawn because the program's IR over-approximates incompletely.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withdrawn {
    /// `proof` or `bounded claim`.
    pub claim: String,
    /// The over-approximation, in words.
    pub approximation: String,
    /// The reason the claim had, without the approximation.
    pub without: String,
}

impl Note {
    /// The note's clause of the reason.
    pub fn text(&self) -> String {
        match self {
            Note::DidNotRun { engine, why } => format!("{} did not run: {why}", engine.phrase()),
            Note::Declined { engine, why } => format!("{} declined: {why}", engine.phrase()),
            Note::NotProved { engine, why } => format!("{} did not prove it: {why}", engine.phrase()),
            Note::Bounded { why } => format!("bounded search: {why}"),
            Note::Deepening { deepest, last, stopped } => {
                let mut t = String::from("bounded search: ");
                match deepest {
                    Some((k, why)) => {
                        t.push_str(&format!("{why}; deepest bound completed: {k}"));
                        if let Some((j, w)) = last {
                            t.push_str(&format!("; at bound {j}: {w}"));
                        }
                    }
                    None => match last {
                        Some((j, w)) => t.push_str(&format!("at bound {j}: {w}")),
                        None => t.push_str("no bound was completed within the budget"),
                    },
                }
                t.push_str(&format!("; deepening stopped: {stopped}"));
                t
            }
        }
    }
}

impl Why {
    /// A first clause alone.
    pub fn new(kind: FindingKind, engine: Option<Decider>, text: impl Into<String>) -> Why {
        Why { finding: Finding { kind, engine, text: text.into() }, ..Why::default() }
    }

    /// The reason line of a verdict with this status (and `--rules` file its proof rests on).
    /// Every reason duet-rs prints is rendered here.
    pub fn text(&self, status: &Status, custom_rules: Option<&str>) -> String {
        if let Some(w) = &self.withdrawn {
            return format!("unknown: no {} can rest on an incomplete over-approximation: {} (without it: {})", w.claim, w.approximation, w.without);
        }
        let label = match (status, self.finding.kind) {
            (Status::Safe, _) => match custom_rules {
                Some(r) => format!("safe under custom rules {r}"),
                None => "safe".into(),
            },
            (Status::BoundedSafe, FindingKind::NotProved) => "bounded-safe: not proved".into(),
            (Status::Unknown, FindingKind::NotProved) => "not proved".into(),
            (_, FindingKind::Observed) => "violated (observed)".into(),
            (_, FindingKind::Predicted) => "violated (predicted, replayed)".into(),
            (s, _) => s.word().into(),
        };
        let mut t = format!("{label}: {}", self.finding.text);
        for n in &self.notes {
            t.push_str("; ");
            t.push_str(&n.text());
        }
        match self.entry_points {
            Some(EntryPoints::EveryNumber) => t.push_str("; with every number of threads of each entry point"),
            Some(EntryPoints::Once) => t.push_str("; with one thread of each entry point (--once)"),
            None => {}
        }
        t
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

/// The verdict on assertion `i` of the program, with no bound; its reason is rendered from `why`.
pub fn assertion_verdict(prog: &Program, i: usize, status: Status, why: Why, detail: Option<String>) -> AssertionVerdict {
    let reason = why.text(&status, None);
    AssertionVerdict {
        id: prog.assertion_id(AssertId(i as u32)),
        text: prog.assertions[i].text.clone(),
        status,
        reason,
        detail,
        bound: None,
        engine: None,
        unreachable: false,
        custom_rules: None,
        why,
        trace: None,
    }
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
