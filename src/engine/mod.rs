//! The engine interface: what `check` can run on a lowered program, what each engine concludes
//! about an assertion ([`Conclusion`], one type for every engine), and the facts one engine
//! hands another ([`Shared`]). The adapters in the submodules turn each engine's own result
//! type into conclusions; `strategy` orders them and merges what they conclude.
//!
//! Architecture invariant: only the adapters here know more than one engine, and only
//! `interp::trace::replay` decides whether a violation is real.

pub(crate) mod coarsen;
pub(crate) mod finite;
pub(crate) mod search;

use crate::coarsen::DomainKind;
use crate::interp::trace::TraceStep;
use crate::ir::{AssertId, Program};
use crate::verdict::{Artifacts, AssertionVerdict, Decider, Finding, Note, Scope, Section, Status};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bounds of the bounded search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Bound {
    /// Iterations per loop.
    pub unroll: u32,
    /// Instances per unbounded thread template.
    pub threads: u32,
}

/// An engine `--engines` selects.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EngineId {
    /// DUET's proof for any number of threads.
    Coarsen,
    /// Thread-modular proofs with exception sets on a finite projection, for programs that
    /// create a fixed set of threads (with the transaction-based summaries after it).
    Finite,
    /// The explicit-state search of the concrete program, for violations only.
    Explore,
    /// The bounded search (a fixed bound with `--bound`, else iterative deepening).
    Bounded,
}

impl EngineId {
    /// Every engine built, in the order the default strategy first runs them.
    pub const ALL: [EngineId; 4] = [EngineId::Coarsen, EngineId::Finite, EngineId::Explore, EngineId::Bounded];
    /// Engine names reserved for engines not part of `check` (yet): `duet-rs predict` runs alone.
    pub const PLANNED: [&'static str; 1] = ["predict"];

    /// The name `--engines` takes.
    pub fn name(self) -> &'static str {
        match self {
            EngineId::Coarsen => "coarsen",
            EngineId::Finite => "finite",
            EngineId::Explore => "explore",
            EngineId::Bounded => "bounded",
        }
    }

    /// Parses a comma-separated `--engines` list; the error lists the valid names.
    pub fn parse_list(s: &str) -> Result<Vec<EngineId>, String> {
        let valid = EngineId::ALL.iter().map(|e| e.name()).collect::<Vec<_>>().join(", ");
        let mut out = Vec::new();
        for word in s.split(',').map(str::trim) {
            let e = match EngineId::ALL.iter().find(|e| e.name() == word) {
                Some(e) => *e,
                None if EngineId::PLANNED.contains(&word) => return Err(format!("engine `{word}` is not part of `check` yet (run `duet-rs {word}`); valid engines: {valid}")),
                None => return Err(format!("unknown engine `{word}`; valid engines: {valid}")),
            };
            if !out.contains(&e) {
                out.push(e);
            }
        }
        Ok(out)
    }
}

fn all_engines() -> Vec<EngineId> {
    EngineId::ALL.to_vec()
}

fn default_search_time() -> f64 {
    DEFAULT_SEARCH_TIME
}

fn default_max_unroll() -> u32 {
    crate::bounded::DEFAULT_MAX_UNROLL
}

fn default_max_threads() -> u32 {
    crate::bounded::DEFAULT_MAX_THREADS
}

/// Seconds of bounded search per file when `--search-time` is not given.
pub const DEFAULT_SEARCH_TIME: f64 = 60.0;

/// What to run on a program and what to print besides verdicts.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CheckOptions {
    /// The engines to run, in the strategy's order whatever the order given.
    #[serde(default = "all_engines")]
    pub engines: Vec<EngineId>,
    /// Seconds the bounded search (iterative deepening, or the round of a fixed bound) may spend on a file.
    #[serde(default = "default_search_time")]
    pub search_time: f64,
    /// The task's time limit in seconds, which the search stays within.
    #[serde(default)]
    pub task_timeout: Option<f64>,
    /// Most iterations of a counted loop unrolled exactly.
    #[serde(default = "default_max_unroll")]
    pub max_unroll: u32,
    /// Most instances of a counted thread template created exactly.
    #[serde(default = "default_max_threads")]
    pub max_threads: u32,
    /// Domain of COARSEN's invariants.
    pub domain: DomainKind,
    /// A Datalog file replacing the built-in interference rules.
    pub rules: Option<PathBuf>,
    /// One fixed bound for the bounded search instead of iterative deepening.
    pub bound: Option<Bound>,
    /// Eager copy constraints in the bounded encoding.
    pub no_prune: bool,
    /// Leave COARSEN's facts out of the other engines (bounded encoding, finite projection).
    pub no_hints: bool,
    /// Give the interference rules every thread template apart, even identical ones.
    #[serde(default)]
    pub no_symmetry: bool,
    /// An exceptions file for the finite-state engine, replacing Section 5's automatic ones.
    #[serde(default)]
    pub exceptions: Option<PathBuf>,
    /// Seconds the finite-state engine may spend per file (default: a tenth of the search
    /// budget, at most 5 s).
    #[serde(default)]
    pub finite_time: Option<f64>,
    /// Return a witness: the first violation's, or COARSEN's invariants when it proves every
    /// assertion.
    pub witness: bool,
    /// Return the bounded search's SMT-LIB2 encoding.
    pub dump_smt: bool,
    /// Return COARSEN's Datalog facts, round by round.
    #[serde(default)]
    pub dump_facts: bool,
    /// Print invariants per location.
    pub invariants: bool,
    /// Print the final data-flow graph.
    pub dot: bool,
    /// Print per-round statistics.
    pub stats: bool,
    /// Timely workers for COARSEN's Datalog engine (0 counts as 1); results do not depend on it.
    #[serde(default)]
    pub datalog_workers: usize,
    /// `--explain FILE:LINE`: why COARSEN did not prove the assertions on that line (a section).
    #[serde(default)]
    pub explain: Option<(String, u32)>,
    /// Explain every assertion COARSEN leaves open (for the HTML report), where `explain` names
    /// no line.
    #[serde(default)]
    pub explain_open: bool,
}

impl Default for CheckOptions {
    fn default() -> CheckOptions {
        CheckOptions {
            engines: all_engines(),
            search_time: DEFAULT_SEARCH_TIME,
            task_timeout: None,
            max_unroll: crate::bounded::DEFAULT_MAX_UNROLL,
            max_threads: crate::bounded::DEFAULT_MAX_THREADS,
            domain: DomainKind::default(),
            rules: None,
            bound: None,
            no_prune: false,
            no_hints: false,
            no_symmetry: false,
            exceptions: None,
            finite_time: None,
            witness: false,
            dump_smt: false,
            dump_facts: false,
            invariants: false,
            dot: false,
            stats: false,
            datalog_workers: 0,
            explain: None,
            explain_open: false,
        }
    }
}

impl CheckOptions {
    /// COARSEN alone: proofs for any number of threads, no search.
    pub fn coarsen_only() -> CheckOptions {
        CheckOptions { engines: vec![EngineId::Coarsen], ..CheckOptions::default() }
    }

    /// Whether `--engines` selects `e`.
    pub fn runs(&self, e: EngineId) -> bool {
        self.engines.contains(&e)
    }

    /// Whether COARSEN's facts may flow into the other engines: not without `--no-hints`, and
    /// never from a user's rules, which may be unsound.
    pub fn hints(&self) -> bool {
        self.rules.is_none() && !self.no_hints
    }
}

/// What one step of the strategy asks an engine to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The engine's whole run.
    Run,
    /// A short first try (the finite-state engine's Cartesian phase on a 25th of its budget).
    Quick,
    /// Starts the search budget's clock.
    StartBudget,
    /// The bounded search's sequential round (every thread but the first run without interruption).
    Sequential,
    /// The explicit-state search on this share of the search budget left.
    Share(u32),
    /// Iterative deepening's rounds at these bounds.
    Rounds(u32, u32),
    /// The explicit-state search on what deepening left of the budget.
    Rest,
    /// The bounded search at one fixed bound.
    Fixed(Bound),
}

/// One step of a strategy: an engine and what it is asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The engine (as `--engines` names it).
    pub engine: EngineId,
    /// What it does in this step.
    pub phase: Phase,
}

/// What an engine concluded about one assertion. The strategy applies them in order
/// (`strategy::apply`); an engine never writes a verdict itself.
#[derive(Clone, Debug)]
pub enum Conclusion {
    /// A violation the interpreter replayed.
    Violated {
        /// The engine that found it.
        engine: Decider,
        /// How it was found, after `violated: `.
        text: String,
        /// The printed interleaving.
        detail: String,
        /// The same, step by step.
        trace: Vec<TraceStep>,
        /// The bounded search's bound it was found at.
        bound: Option<u32>,
    },
    /// A proof.
    Proved {
        /// The engine that proved it.
        engine: Decider,
        /// How, after `safe: `.
        text: String,
        /// The thread counts it covers.
        scope: Scope,
        /// The bounded search's bound of an exhaustive exploration.
        bound: Option<u32>,
        /// No thread reaches the assertion at all.
        unreachable: bool,
        /// The `--rules` file it rests on, when not the built-in rules.
        custom_rules: Option<String>,
    },
    /// The first word on an open assertion, replacing what was said before (COARSEN's).
    Open {
        /// The finding.
        finding: Finding,
        /// What the engine shows with it (COARSEN's invariant).
        detail: Option<String>,
    },
    /// No violation up to a bound of the bounded search.
    BoundedSafe {
        /// The bound.
        bound: u32,
        /// What the search said.
        note: Note,
    },
    /// What an engine that did not decide says.
    Note(Note),
}

/// Facts one engine hands another, in types the receiver owns, built on first use.
#[derive(Default)]
pub struct Shared {
    /// COARSEN's outcome, when its facts may flow into the other engines.
    pub coarsen: Option<crate::coarsen::Outcome>,
    /// COARSEN's reachable locations and read bounds, as the finite-state engine reads them.
    pub finite_invariants: Option<crate::finite::Invariants>,
    /// The exact counts of loops and thread instances (the bounded search's and the
    /// finite-state engine's).
    counts: Option<Arc<crate::bounded::unroll::Counts>>,
}

impl Shared {
    /// The exact counts of counted loops and thread templates, computed once.
    pub fn counts(&mut self, prog: &Program, opts: &CheckOptions) -> Arc<crate::bounded::unroll::Counts> {
        self.counts.get_or_insert_with(|| Arc::new(crate::bounded::unroll::Counts::of(prog, opts.max_unroll, opts.max_threads))).clone()
    }
}

/// What every step of a strategy shares: the program, the options, the budget's start, and
/// the outputs besides verdicts.
pub struct Context<'a> {
    /// The program.
    pub prog: &'a Program,
    /// The options.
    pub opts: &'a CheckOptions,
    /// When the check started (the task's time limit counts from here).
    pub start: Instant,
    /// When the search budget started, once a step started it.
    pub budget_start: Option<Instant>,
    /// Extra outputs, in the order they are printed.
    pub sections: Vec<Section>,
    /// The witness, SMT text and facts.
    pub artifacts: Artifacts,
    /// COARSEN's correctness witness, used when every assertion ends proved.
    pub correctness: Option<crate::witness::Correctness>,
    /// Facts between engines.
    pub shared: Shared,
}

impl Context<'_> {
    /// The end of the search budget: `--search-time` from its start, and no later than 85 % of
    /// the task's time limit from the check's start.
    pub fn search_deadline(&mut self) -> Instant {
        let from = *self.budget_start.get_or_insert_with(Instant::now);
        let mut deadline = from + Duration::from_secs_f64(self.opts.search_time.clamp(0.0, 1e6));
        if let Some(t) = self.opts.task_timeout {
            // Leave the task time to report: a search cut short by the batch loses every verdict.
            deadline = deadline.min(self.start + Duration::from_secs_f64((t * 0.85).clamp(0.0, 1e6)));
        }
        deadline
    }
}

/// An engine `check` runs: it looks at the verdicts so far and concludes on the assertions it
/// can. Adding one: implement this, give it an [`EngineId`], and add its steps to the
/// strategy's lists (`strategy::steps`).
pub trait Engine {
    /// Whether this engine runs the steps of `id`.
    fn runs(&self, id: EngineId) -> bool;

    /// One step: conclusions, in order, on the assertions of `verdicts` it looked at.
    fn run(&mut self, phase: &Phase, cx: &mut Context<'_>, verdicts: &[AssertionVerdict]) -> Vec<(AssertId, Conclusion)>;

    /// After the last step: conclusions on what is still open (the bounded search's deepest
    /// bound), and its statistics.
    fn finish(&mut self, _cx: &mut Context<'_>, _verdicts: &[AssertionVerdict]) -> Vec<(AssertId, Conclusion)> {
        Vec::new()
    }
}

/// Whether a proof may still improve a verdict: a fixed bound's `bounded-safe` is no proof.
pub fn still_open(s: &Status) -> bool {
    matches!(s, Status::Unknown | Status::BoundedSafe)
}

/// The assertions of `verdicts` that `keep` selects.
pub fn assertions(verdicts: &[AssertionVerdict], keep: impl Fn(&AssertionVerdict) -> bool) -> Vec<AssertId> {
    verdicts.iter().enumerate().filter(|(_, v)| keep(v)).map(|(i, _)| AssertId(i as u32)).collect()
}
