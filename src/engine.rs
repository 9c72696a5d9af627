//! Runs the analyses on a lowered program and turns their results into verdicts.

use crate::coarsen::DomainKind;
use crate::ir::{AssertId, Program};
use crate::verdict::{assertion_verdict, AssertionVerdict, CheckReport, Decider, Section, Status};
use crate::{bounded, coarsen, finite};
use hashbrown::HashMap;
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

/// An engine `check` can run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// DUET's proof for any number of threads.
    Coarsen,
    /// Thread-modular proofs with exception sets on a finite projection, for programs that
    /// create a fixed set of threads.
    Finite,
    /// The explicit-state search of the concrete program, for violations only.
    Explore,
    /// The bounded search (a fixed bound with `--bound`, else iterative deepening).
    Bounded,
}

impl Engine {
    /// Every engine built, in the order the default strategy runs them.
    pub const ALL: [Engine; 4] = [Engine::Coarsen, Engine::Finite, Engine::Explore, Engine::Bounded];
    /// Engine names reserved for engines not part of `check` (yet): `duet-rs predict` runs alone.
    pub const PLANNED: [&'static str; 1] = ["predict"];

    /// The name `--engines` takes.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Coarsen => "coarsen",
            Engine::Finite => "finite",
            Engine::Explore => "explore",
            Engine::Bounded => "bounded",
        }
    }

    /// Parses a comma-separated `--engines` list; the error lists the valid names.
    pub fn parse_list(s: &str) -> Result<Vec<Engine>, String> {
        let valid = Engine::ALL.iter().map(|e| e.name()).collect::<Vec<_>>().join(", ");
        let mut out = Vec::new();
        for word in s.split(',').map(str::trim) {
            let e = match Engine::ALL.iter().find(|e| e.name() == word) {
                Some(e) => *e,
                None if Engine::PLANNED.contains(&word) => return Err(format!("engine `{word}` is not part of `check` yet (run `duet-rs {word}`); valid engines: {valid}")),
                None => return Err(format!("unknown engine `{word}`; valid engines: {valid}")),
            };
            if !out.contains(&e) {
                out.push(e);
            }
        }
        Ok(out)
    }
}

fn all_engines() -> Vec<Engine> {
    Engine::ALL.to_vec()
}

fn default_search_time() -> f64 {
    DEFAULT_SEARCH_TIME
}

fn default_max_unroll() -> u32 {
    bounded::DEFAULT_MAX_UNROLL
}

fn default_max_threads() -> u32 {
    bounded::DEFAULT_MAX_THREADS
}

/// Seconds of bounded search per file when `--search-time` is not given.
pub const DEFAULT_SEARCH_TIME: f64 = 60.0;

/// What to run on a program and what to print besides verdicts.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CheckOptions {
    /// The engines to run, in the default strategy's order whatever the order given.
    #[serde(default = "all_engines")]
    pub engines: Vec<Engine>,
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
}

impl Default for CheckOptions {
    fn default() -> CheckOptions {
        CheckOptions {
            engines: all_engines(),
            search_time: DEFAULT_SEARCH_TIME,
            task_timeout: None,
            max_unroll: bounded::DEFAULT_MAX_UNROLL,
            max_threads: bounded::DEFAULT_MAX_THREADS,
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
        }
    }
}

impl CheckOptions {
    /// COARSEN alone: proofs for any number of threads, no search.
    pub fn coarsen_only() -> CheckOptions {
        CheckOptions { engines: vec![Engine::Coarsen], ..CheckOptions::default() }
    }

    fn runs(&self, e: Engine) -> bool {
        self.engines.contains(&e)
    }
}

/// Most copy-constraint instances for which deepening's first round unrolls counted loops
/// exactly; beyond it a round cuts the longest ones at its bound
/// (`bounded::BoundedOptions::exact_limit`). The limit grows fourfold with each bound, so
/// that deepening still reaches the exact, exhaustive round where one is affordable (a driver
/// whose 96-byte allocation loop only the exact round proves complete).
const EXACT_LIMIT: u64 = 50_000;

/// The exact-unrolling limit of a round at bound `k` (see [`EXACT_LIMIT`]).
fn exact_limit(k: u32) -> u64 {
    EXACT_LIMIT.saturating_mul(1u64 << (2 * k.saturating_sub(1)).min(40))
}

/// The most of the search budget left that the sequential round may spend.
const SEQUENTIAL_SHARE: f64 = 0.25;

/// The share of the search budget left after the sequential round that the explicit-state
/// search may spend before round 1: the bugs it finds where the bounded search struggles
/// (one exact interleaving of counted loops) take it well under a second, and a program
/// with many states leaves the rest to the bounded search.
const EXPLORE_SHARE: f64 = 0.05;

/// The deepest bound iterative deepening tries (it stops far earlier on its time budget).
pub const MAX_DEEPENING: u32 = 64;

/// Verdicts for every assertion of the program. The default strategy: COARSEN's proof for any
/// number of threads, then, on the assertions it left open, the bounded search at bounds 1,
/// 2, 3, ... until each is decided, the exploration is exhaustive or the search budget is
/// spent. `--bound` fixes one bound instead; `--engines` leaves engines out.
pub fn check_program(prog: &Program, opts: &CheckOptions) -> CheckReport {
    let start = Instant::now();
    let verdict = |i: usize, status: Status, reason: String, detail: Option<String>| assertion_verdict(prog, i, status, reason, detail);
    // A construct the IR could not model means the IR may miss behaviours: nothing can be
    // proved, not even that an assertion is unreachable, and a replayed interleaving of the
    // IR need not be one of the program.
    if let Some(u) = prog.unsupported.first() {
        let why = format!("unknown: unsupported construct: {} at {}", u.construct, prog.span_str(u.span));
        let verdicts = (0..prog.assertions.len()).map(|i| verdict(i, Status::Unknown, why.clone(), None)).collect();
        return CheckReport { verdicts, ..CheckReport::default() };
    }
    let never_called = |i: usize| prog.assertions[i].locs.is_empty();
    // The lowering leaves no instance where no path reaches the assertion: its function is
    // never called, or every path to it is cut (a constant condition such as `assert(1 == 1)`
    // folds its failing branch away, a call before it never returns).
    let called = |i: usize| {
        let f = &prog.assertions[i].function;
        AssertionVerdict { engine: Some(Decider::Lowering), ..verdict(i, Status::Safe, format!("safe: no path reaches its failure (or `{f}` is never called)"), None) }
    };
    // What the front-end chose (the entry points taken as threads, the data model) comes first.
    let mut sections: Vec<Section> = prog.notes.iter().map(|(title, body)| Section { title: title.clone(), body: body.clone(), data: None }).collect();
    let mut artifacts = crate::verdict::Artifacts::default();
    let mut proof = None;
    let mut facts = None;
    let mut invariants = None;
    // COARSEN's proofs under a user's rules, held back while the other engines look for a
    // violation (and a proof of their own) on those assertions.
    let mut custom: Vec<Option<AssertionVerdict>> = Vec::new();
    let (mut verdicts, hint_source) = if !opts.runs(Engine::Coarsen) {
        let verdicts = (0..prog.assertions.len()).map(|i| if never_called(i) { called(i) } else { verdict(i, Status::Unknown, "unknown: COARSEN was not run".into(), None) }).collect();
        (verdicts, None)
    } else {
        let copts = coarsen::CoarsenOptions { domain: opts.domain, rules: opts.rules.clone(), workers: opts.datalog_workers.max(1), no_symmetry: opts.no_symmetry, dump_facts: opts.dump_facts };
        match coarsen::run(prog, &copts) {
            Ok(mut out) => {
                facts = out.facts.take();
                let mut verdicts = out
                    .assertions
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        if never_called(i) {
                            called(i)
                        } else {
                            let engine = (r.status == Status::Safe).then_some(Decider::Coarsen);
                            AssertionVerdict { engine, unreachable: r.unreachable, ..verdict(i, r.status.clone(), r.reason.clone(), r.detail.clone()) }
                        }
                    })
                    .collect::<Vec<_>>();
                // A correctness witness carries COARSEN's invariants only when they prove
                // every assertion (the other engines' proofs are not for every thread count).
                if opts.witness && verdicts.iter().all(|v| v.status == Status::Safe) {
                    let mut c = coarsen::witness::correctness(prog, &out);
                    c.custom_rules = opts.rules.as_ref().map(|r| r.display().to_string());
                    proof = Some(c);
                }
                if let Some(rules) = &opts.rules {
                    custom = hold_custom_proofs(&mut verdicts, &rules.display().to_string());
                }
                if opts.invariants {
                    sections.push(Section { title: "invariants".into(), body: coarsen::report::invariants(prog, &out), data: Some(coarsen::report::invariants_data(prog, &out)) });
                }
                if opts.dot {
                    sections.push(Section { title: "dfg".into(), body: coarsen::report::dot(prog, &out), data: Some(coarsen::report::dfg_data(prog, &out)) });
                }
                if opts.stats {
                    sections.push(Section { title: "stats".into(), body: coarsen::report::stats(&out), data: Some(coarsen::report::stats_data(&out)) });
                }
                // Rules a user edits may be unsound; their facts stay out of the other engines.
                if opts.rules.is_none() && !opts.no_hints && opts.runs(Engine::Finite) {
                    invariants = Some(finite_invariants(prog, &out));
                }
                // Only the bounded search reads the hints (`LazyHints`), and not a user's rules'.
                (verdicts, (opts.rules.is_none() && !opts.no_hints && opts.runs(Engine::Bounded)).then_some(out))
            }
            Err(e) => ((0..prog.assertions.len()).map(|i| verdict(i, Status::Unknown, format!("unknown: {e}"), None)).collect(), None),
        }
    };
    let hints = LazyHints { outcome: hint_source.as_ref(), built: std::cell::OnceCell::new() };
    // The exact counts of loops and thread instances, for the search's every round and the
    // finite-state engine's projection alike.
    let counts = Arc::new(if opts.runs(Engine::Bounded) || opts.runs(Engine::Finite) { bounded::unroll::Counts::of(prog, opts.max_unroll, opts.max_threads) } else { Default::default() });
    if opts.runs(Engine::Bounded) && opts.bound.is_none() {
        // Bound 1 usually costs a fraction of a second and finds most shallow bugs, while the
        // finite engine may spend its whole budget before declining: the cheap round goes
        // first, and the finite engine sees only what it left open. But bound 1's solver may
        // also spend the whole search budget on a spin loop (the test-and-set Figure 3 at 3 x 3
        // threads and sections) that the Cartesian phase alone, thread-modular, proves in
        // milliseconds: that phase gets a short first try.
        let mut search = Deepening::new(prog, opts, start, &hints, &counts, &verdicts);
        if opts.runs(Engine::Finite) {
            finite_pass(prog, opts, invariants.as_ref(), &counts, &mut verdicts, true);
            search.forget_proved(&verdicts);
        }
        search.sequential(&mut verdicts);
        if opts.runs(Engine::Explore) {
            search.explore(&mut verdicts);
        }
        search.rounds(1..=1, &mut verdicts);
        // The finite engine has a budget of its own: a search that stopped because its budget
        // was spent at bound 1, or because it cannot encode the program, leaves it every proof
        // to make (only decided assertions are skipped, by `finite_pass` itself).
        if opts.runs(Engine::Finite) {
            finite_pass(prog, opts, invariants.as_ref(), &counts, &mut verdicts, false);
            search.forget_proved(&verdicts);
        }
        search.rounds(2..=MAX_DEEPENING, &mut verdicts);
        if opts.runs(Engine::Explore) {
            search.explore_rest(&mut verdicts);
        }
        artifacts = search.finish(&mut verdicts, &mut sections);
    } else {
        // The fixed bound goes first: it is what the user asked for, and a bug it finds makes
        // the finite engine's budget (up to 5 s spent declining on the indexer) moot. The finite
        // engine then turns what the bound left `bounded-safe` into proofs where it can.
        if let (true, Some(b)) = (opts.runs(Engine::Bounded), opts.bound) {
            // A fixed bound has one round, but its formula may be as hard as any: it keeps to
            // the budget as iterative deepening does (Z3 once ran a minute on a bit-field program).
            let bo = bounded::BoundedOptions { deadline: Some(search_deadline(opts, start)), ..bounded_options(opts, b, &counts) };
            bounded_pass(prog, opts, &bo, hints.get(), &mut verdicts, &mut sections, &mut artifacts);
        }
        if opts.runs(Engine::Finite) {
            finite_pass(prog, opts, invariants.as_ref(), &counts, &mut verdicts, false);
        }
        // Alone (without the bounded search), the explicit-state search has the search budget.
        if opts.runs(Engine::Explore) && !opts.runs(Engine::Bounded) {
            let found = explore_pass(prog, opts, search_deadline(opts, start), 0, &mut verdicts, &mut artifacts);
            if opts.stats {
                sections.push(Section { title: "explore".into(), body: format!("{}\n", found.describe()), data: Some(found.data()) });
            }
        }
    }
    restore_custom_proofs(&mut verdicts, custom);
    // A proof may rest only on havocs that cover everything the approximated code can do, and
    // so may the bounded claim: the executions the approximation leaves out may fail within
    // the bound (a recursive frame beyond the inlined copies, sharing a local with its callee).
    if let Some(ap) = prog.incomplete_approximation() {
        for v in verdicts.iter_mut().filter(|v| matches!(v.status, Status::Safe | Status::BoundedSafe)) {
            let claim = if v.status == Status::Safe { "proof" } else { "bounded claim" };
            v.status = Status::Unknown;
            v.reason = format!("unknown: no {claim} can rest on an incomplete over-approximation: {} (without it: {})", prog.approx_str(ap), v.reason);
            v.detail = None;
            v.engine = None;
            v.unreachable = false;
            v.custom_rules = None;
        }
    }
    if verdicts.iter().all(|v| v.status == Status::Safe) {
        artifacts.witness = proof.map(crate::witness::Witness::Correctness);
    }
    artifacts.facts = facts;
    if !prog.mode.whole_program {
        // Without a whole program, a proof is for the entry points' thread counts, which the
        // engines' own words ("the threads the program creates") do not tell.
        let counts = if prog.mode.parameterized { "every number of threads of each entry point" } else { "one thread of each entry point (--once)" };
        for v in verdicts.iter_mut().filter(|v| v.status == Status::Safe) {
            v.reason.push_str(&format!("; with {counts}"));
        }
    }
    CheckReport { verdicts, sections, artifacts }
}

/// What one explicit-state search did, for `--stats`.
struct ExploreStats {
    states: usize,
    runs: u64,
    complete: bool,
    stop: crate::explore::Stop,
    cut: bool,
    found: usize,
    seconds: f64,
}

impl ExploreStats {
    /// The same figures as named fields, for JSON.
    fn data(&self) -> serde_json::Value {
        serde_json::json!({ "engine": "explore", "states": self.states, "runs": self.runs, "found": self.found, "stopped": format!("{:?}", self.stop), "cut": self.cut, "seconds": self.seconds })
    }

    fn describe(&self) -> String {
        format!(
            "explore states {} runs {} found {} stopped {:?}{} s {:.3}",
            self.states,
            self.runs,
            self.found,
            self.stop,
            if self.cut { " (paths cut at the depth or memory limit)" } else { "" },
            self.seconds
        )
    }
}

/// The explicit-state search on the assertions still open, until `deadline`: each failure it
/// reaches is replayed again (as every engine's) and becomes a violation. It never proves.
fn explore_pass(prog: &Program, opts: &CheckOptions, deadline: Instant, first_run: u64, verdicts: &mut [AssertionVerdict], artifacts: &mut crate::verdict::Artifacts) -> ExploreStats {
    let t0 = Instant::now();
    let open: Vec<AssertId> = (0..verdicts.len()).filter(|&i| still_open(&verdicts[i].status)).map(|i| AssertId(i as u32)).collect();
    if open.is_empty() || !prog.unsupported.is_empty() {
        return ExploreStats { states: 0, runs: 0, complete: false, stop: crate::explore::Stop::AllFound, cut: false, found: 0, seconds: 0.0 };
    }
    let layout = crate::interp::layout::Layout::new(prog);
    let out = crate::explore::search(prog, &layout, &open, &crate::explore::ExploreOptions { deadline: Some(deadline), first_run, ..Default::default() });
    let mut found = 0;
    for f in &out.found {
        let Ok(trace) = bounded::replay(prog, &layout, &f.steps, crate::explore::oracle(), f.assert) else { continue };
        found += 1;
        let text = bounded::witness::render(prog, &layout, &trace, (0, 0));
        let body = text.split_once('\n').map(|x| x.1).unwrap_or("");
        let v = &mut verdicts[f.assert.index()];
        v.status = Status::Violated;
        let by = match f.run {
            None => format!("the explicit-state search, {} states", out.states),
            Some(r) => format!("the explicit-state search's sampled run {r}, after {} states", out.states),
        };
        v.reason = format!("violated: a replayed interleaving reaches the failure (found by {by})");
        v.detail = Some(format!("interleaving (explicit-state search; replayed):\n{body}"));
        v.bound = None;
        v.engine = Some(Decider::Explore);
        if opts.witness && artifacts.witness.is_none() {
            artifacts.witness = Some(crate::witness::Witness::Violation(crate::witness::violation(prog, &trace, f.assert, "explore")));
        }
    }
    ExploreStats { states: out.states, runs: out.runs, complete: out.complete, stop: out.stop, cut: out.cut, found, seconds: t0.elapsed().as_secs_f64() }
}

/// COARSEN's facts for the bounded search, built on the search's first round: expanding a
/// folded template's flows to every member costs the square of the members, which a program
/// the other engines settle first (the Figure 3 family at 100 threads) need not pay.
struct LazyHints<'a> {
    /// COARSEN's outcome, when the search takes its hints.
    outcome: Option<&'a coarsen::Outcome>,
    built: std::cell::OnceCell<bounded::Hints>,
}

impl LazyHints<'_> {
    /// The hints, built on the first call (`None` without hints).
    fn get(&self) -> Option<&bounded::Hints> {
        let out = self.outcome?;
        Some(self.built.get_or_init(|| bounded::Hints { flows: out.read_flows().into_iter().collect(), ranges: out.read_ranges.iter().copied().collect() }))
    }
}

/// Whether a proof may still improve a verdict: a fixed bound's `bounded-safe` is no proof.
fn still_open(s: &Status) -> bool {
    matches!(s, Status::Unknown | Status::BoundedSafe)
}

/// The finite-state engine on the assertions still open. Its proofs cover the threads the
/// program creates, and every number of threads of a template created unboundedly (the
/// parameterized abstraction); its "not proved" is left to the bounded search. A `quick` pass
/// runs only the Cartesian phase, on a 25th of the budget, and leaves the reasons of what it
/// does not prove as they were (the full pass says why).
fn finite_pass(prog: &Program, opts: &CheckOptions, invariants: Option<&finite::Invariants>, counts: &bounded::unroll::Counts, verdicts: &mut [AssertionVerdict], quick: bool) {
    let open: Vec<AssertId> = (0..verdicts.len()).filter(|&i| still_open(&verdicts[i].status) && !prog.assertions[i].locs.is_empty()).map(|i| AssertId(i as u32)).collect();
    if open.is_empty() {
        return;
    }
    // A proof here is worth a little time, not the search's: the exact exploration of many
    // threads can run for minutes, so by default the engine gets a tenth of the search budget,
    // at most 5 s.
    let budget = Duration::from_secs_f64(opts.finite_time.unwrap_or((opts.search_time * 0.1).min(5.0)).clamp(0.0, 1e6));
    let slice = if quick { budget / 25 } else { budget };
    let mut fo = finite::FiniteOptions { deadline: Some(Instant::now() + slice), exact_fallback: !quick, invariants: invariants.cloned(), ..Default::default() };
    if let Some(path) = &opts.exceptions {
        match finite::load_exceptions(path, prog, &fo) {
            Ok(spec) => {
                fo.exceptions = Some(spec);
                fo.auto_exceptions = false;
            }
            Err(_) if quick => return,
            Err(d) => {
                for &a in &open {
                    verdicts[a.index()].reason.push_str(&format!("; the finite-state engine did not run: {d}"));
                }
                return;
            }
        }
    }
    let mut outs = finite::prove(prog, &open, &fo);
    // A template created only by counted loops is first tried for every number of its threads
    // (the stronger claim, and the Cartesian phase's symmetric abstraction is cheap); what
    // that leaves open is tried with the threads the program creates, which lets the exact
    // exploration run.
    let exact = counts;
    let counts = if quick { Default::default() } else { finite_counts(counts) };
    let again: Vec<AssertId> = outs.iter().filter(|o| !o.proved()).map(|o| o.assertion).collect();
    if !counts.is_empty() && !again.is_empty() && fo.exceptions.is_none() {
        let more = finite::prove(prog, &again, &finite::FiniteOptions { counts: counts.clone(), ..fo.clone() });
        outs.retain(|o| o.proved());
        outs.extend(more);
        outs.sort_by_key(|o| o.assertion);
    }
    let mut not_proved = Vec::new();
    for out in outs {
        if matches!(out.status, finite::FiniteStatus::NotProved(_)) {
            not_proved.push(out.assertion);
        }
        // Saying why the engine did not prove is what tells a user whether an exceptions file
        // or a smaller projection could help.
        match &out.status {
            _ if quick => {}
            finite::FiniteStatus::Declined(why) => verdicts[out.assertion.index()].reason.push_str(&format!("; the finite-state engine declined: {why}")),
            finite::FiniteStatus::NotProved(why) => verdicts[out.assertion.index()].reason.push_str(&format!("; the finite-state engine did not prove it: {why}")),
            _ => {}
        }
        if let finite::FiniteStatus::Proved { method, threads } = out.status {
            let how = match method {
                finite::Method::Cartesian => "the Cartesian thread-modular abstraction",
                finite::Method::Exceptions => "the Cartesian abstraction refined by exception sets",
                finite::Method::Refined => "the Cartesian abstraction with exception sets found by counterexample-guided refinement",
                finite::Method::Exact => "an exact exploration of its finite-state projection",
            };
            let claim = match threads {
                finite::ThreadClaim::AsCreated => "for every interleaving of the threads the program creates".to_string(),
                finite::ThreadClaim::Every(names) => {
                    // A template a counted loop creates is no unbounded one: the claim covers
                    // every number of its threads, the count the program creates among them.
                    let created = |n: &str| exact.threads.iter().find(|(t, _)| prog.template(**t).name == n).map(|(_, k)| *k);
                    let (counted, unbounded): (Vec<&String>, Vec<&String>) = names.iter().partition(|n| created(n).is_some());
                    let mut parts = Vec::new();
                    if !unbounded.is_empty() {
                        parts.push(format!("the unboundedly created {}", unbounded.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")));
                    }
                    for n in counted {
                        parts.push(format!("`{n}` (the program creates {} by a counted loop)", created(n).unwrap_or(0)));
                    }
                    format!("for every interleaving and every number of threads of {} (parameterized)", parts.join(" and of "))
                }
                // A fixed instance count is not every execution of the program.
                finite::ThreadClaim::Instances(_) => continue,
            };
            let narrowed = if out.cut > 0 { ", on the projection narrowed by COARSEN's invariants" } else { "" };
            let v = &mut verdicts[out.assertion.index()];
            v.status = Status::Safe;
            v.reason = format!("safe: proved by {how}{narrowed}, {claim}");
            v.detail = None;
            v.bound = None;
            v.engine = Some(Decider::Finite);
        }
    }
    if !not_proved.is_empty() && !quick {
        let to = finite::transactions::TxOptions { deadline: Some(Instant::now() + budget), counts, invariants: fo.invariants.clone(), ..Default::default() };
        transactions_pass(prog, &to, &not_proved, verdicts);
    }
}

/// Transaction-based summaries on what the finite-state engine built a projection for but did
/// not prove: the same projection explored by transactions (fewer interleavings, so it may
/// finish within the budget where the exact exploration does not), with locks the projection
/// does not name (arrays of mutexes) made exact. It proves only for the threads the program
/// creates, and touches only open verdicts.
fn transactions_pass(prog: &Program, to: &finite::transactions::TxOptions, open: &[AssertId], verdicts: &mut [AssertionVerdict]) {
    match finite::transactions::prove(prog, open, &coarsen::locks::must_hold(prog), to) {
        Ok(r) => {
            for (a, outcome) in r.outcomes {
                let v = &mut verdicts[a.index()];
                if !still_open(&v.status) {
                    continue;
                }
                match outcome {
                    Ok(()) => {
                        v.status = Status::Safe;
                        v.reason = format!(
                            "safe: proved by transaction-based summaries (reduction by movers) of its finite-state projection, for every interleaving of the {} threads the program creates ({})",
                            r.threads, r.termination
                        );
                        v.detail = None;
                        v.bound = None;
                        v.engine = Some(Decider::Transactions);
                    }
                    Err(why) => v.reason.push_str(&format!("; the transactions did not prove it: {why}")),
                }
            }
        }
        Err(why) => {
            for a in open {
                verdicts[a.index()].reason.push_str(&format!("; the transactions declined: {why}"));
            }
        }
    }
}

fn bounded_options(opts: &CheckOptions, b: Bound, counts: &Arc<bounded::unroll::Counts>) -> bounded::BoundedOptions {
    bounded::BoundedOptions {
        unroll: b.unroll,
        threads: b.threads,
        no_prune: opts.no_prune,
        witness: opts.witness,
        dump_smt: opts.dump_smt,
        timeout: bounded::DEFAULT_TIMEOUT,
        max_unroll: opts.max_unroll,
        max_threads: opts.max_threads,
        deadline: None,
        exact_limit: None,
        atomic_threads: false,
        counts: Some(counts.clone()),
    }
}

fn stats_section(s: &bounded::Stats, hints: bool, title: &str) -> Section {
    let e = &s.encoding;
    Section {
        title: title.into(),
        body: format!(
            "coarsen hints {}\ninstances {}\ncounted loops {}\ncounted thread templates {}\nevents {}\nreads {}\nwrites {}\ncopy pairs {}\nbetween constraints {}\nclock units {}\nterm nodes {}\nsummarise s {:.3}\nencode s {:.3}\nload s {:.3}\nsolve s {:.3}\n",
            if hints { "on" } else { "off" },
            s.instances, s.counted_loops, s.counted_templates, s.events, e.reads, e.writes, e.copy_pairs, e.between, e.units, e.terms, s.summarise, s.encode, s.load, s.solve
        ) + &format!("slices {}\nfound on a slice {}\n", s.slices.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(","), s.found_on_slice),
        data: Some(serde_json::json!({
            "coarsen_hints": hints, "instances": s.instances, "counted_loops": s.counted_loops, "counted_thread_templates": s.counted_templates, "events": s.events,
            "reads": e.reads, "writes": e.writes, "copy_pairs": e.copy_pairs, "between_constraints": e.between, "clock_units": e.units, "term_nodes": e.terms,
            "summarise_s": s.summarise, "encode_s": s.encode, "load_s": s.load, "solve_s": s.solve, "slices": s.slices, "found_on_slice": s.found_on_slice,
        })),
    }
}

/// The end of the bounded search's budget: `--search-time` from now, and no later than 85 % of
/// the task's time limit from `start`.
fn search_deadline(opts: &CheckOptions, start: Instant) -> Instant {
    let mut deadline = Instant::now() + Duration::from_secs_f64(opts.search_time.clamp(0.0, 1e6));
    if let Some(t) = opts.task_timeout {
        // Leave the task time to report: a search cut short by the batch loses every verdict.
        deadline = deadline.min(start + Duration::from_secs_f64((t * 0.85).clamp(0.0, 1e6)));
    }
    deadline
}

/// The bounded search at one fixed bound (`bo`) on every assertion COARSEN left open, within
/// the search budget its deadline sets (`unknown` naming it when the budget is spent).
fn bounded_pass(
    prog: &Program,
    opts: &CheckOptions,
    bo: &bounded::BoundedOptions,
    hints: Option<&bounded::Hints>,
    verdicts: &mut [AssertionVerdict],
    sections: &mut Vec<Section>,
    artifacts: &mut crate::verdict::Artifacts,
) {
    use crate::bounded::BoundedOutcome;
    let targets: Vec<AssertId> = (0..verdicts.len()).filter(|&i| verdicts[i].status != Status::Safe).map(|i| AssertId(i as u32)).collect();
    if targets.is_empty() {
        return;
    }
    let k = bo.unroll.min(bo.threads);
    let report = bounded::run(prog, bo, hints, &targets);
    artifacts.witness = report.witness.map(crate::witness::Witness::Violation);
    artifacts.smt = report.smt;
    if opts.stats {
        sections.push(stats_section(&report.stats, hints.is_some(), "bounded"));
    }
    for (a, outcome) in report.outcomes {
        let v = &mut verdicts[a.index()];
        match outcome {
            BoundedOutcome::Violated { trace } => {
                v.status = Status::Violated;
                v.reason = "violated: a replayed interleaving reaches the failure".into();
                v.detail = Some(trace);
                v.bound = Some(k);
                v.engine = Some(Decider::Bounded);
            }
            BoundedOutcome::BoundedSafe { reason } => {
                v.status = Status::BoundedSafe;
                v.reason = format!("bounded-safe: {}; bounded search: {reason}", open_reason(&v.reason));
                v.bound = Some(k);
                v.engine = Some(Decider::Bounded);
            }
            BoundedOutcome::Safe { reason } => {
                v.status = Status::Safe;
                v.reason = format!("safe: bounded search: {reason}");
                v.detail = None;
                v.bound = Some(k);
                v.engine = Some(Decider::Bounded);
            }
            BoundedOutcome::Unknown { reason } => {
                v.reason = format!("{}; bounded search: {reason}", v.reason);
            }
        }
    }
}

/// Iterative deepening: the bounded search at bounds 1, 2, 3, ... (loops unrolled `k` times,
/// `k` instances per unbounded template) on the assertions still open, until every one is
/// decided, a round is exhaustive, or the budget (`search_time`, within the task's time
/// limit) is spent. Each verdict names the deepest bound completed for it. The rounds run in
/// ranges so that other engines can take their turn between two rounds.
struct Deepening<'a> {
    prog: &'a Program,
    opts: &'a CheckOptions,
    hints: &'a LazyHints<'a>,
    counts: Arc<bounded::unroll::Counts>,
    open: Vec<AssertId>,
    search_start: Instant,
    deadline: Instant,
    /// Per open assertion: the deepest bound with no violation, and the last round's outcome.
    clean: HashMap<AssertId, (u32, String)>,
    last: HashMap<AssertId, (u32, bounded::BoundedOutcome)>,
    /// The first violation's witness and the last round's SMT text, once asked for.
    artifacts: crate::verdict::Artifacts,
    totals: bounded::Stats,
    /// One line of figures per round, for `--stats`.
    per_round: Vec<String>,
    /// The same figures as named fields, for JSON.
    per_round_data: Vec<serde_json::Value>,
    rounds: u32,
    previous: Duration,
    /// Why deepening stopped, once it has.
    stopped: Option<String>,
    /// The explicit-state search's sampled runs so far, and whether it went through every
    /// state it can reach.
    explored_runs: u64,
    explored_all: bool,
}

impl<'a> Deepening<'a> {
    fn new(prog: &'a Program, opts: &'a CheckOptions, start: Instant, hints: &'a LazyHints<'a>, counts: &Arc<bounded::unroll::Counts>, verdicts: &[AssertionVerdict]) -> Self {
        let open: Vec<AssertId> = (0..verdicts.len()).filter(|&i| verdicts[i].status != Status::Safe).map(|i| AssertId(i as u32)).collect();
        let search_start = Instant::now();
        let deadline = search_deadline(opts, start);
        let stopped = open.is_empty().then(|| "every assertion was decided".to_string());
        Deepening {
            prog,
            opts,
            hints,
            counts: counts.clone(),
            open,
            search_start,
            deadline,
            clean: HashMap::new(),
            last: HashMap::new(),
            artifacts: crate::verdict::Artifacts::default(),
            totals: bounded::Stats::default(),
            per_round: Vec::new(),
            per_round_data: Vec::new(),
            rounds: 0,
            previous: Duration::ZERO,
            stopped,
            explored_runs: 0,
            explored_all: false,
        }
    }

    /// Drops the assertions another engine proved since the last round.
    fn forget_proved(&mut self, verdicts: &[AssertionVerdict]) {
        self.open.retain(|a| verdicts[a.index()].status != Status::Safe);
        for a in (0..verdicts.len()).filter(|&i| verdicts[i].status == Status::Safe).map(|i| AssertId(i as u32)) {
            self.clean.remove(&a);
            self.last.remove(&a);
        }
        if self.open.is_empty() {
            self.stopped = Some("every assertion was decided".into());
        }
    }

    /// One bounded run within the search's deadline, its figures added to the totals and its
    /// line to `--stats` (named `label`).
    fn run_round(&mut self, label: &str, mut bo: bounded::BoundedOptions, now: Instant) -> bounded::Report {
        // The witness is the first violation's.
        bo.witness = self.opts.witness && self.artifacts.witness.is_none();
        bo.deadline = Some(bo.deadline.map_or(self.deadline, |d| d.min(self.deadline)));
        bo.exact_limit = Some(exact_limit(bo.unroll));
        let mut report = bounded::run(self.prog, &bo, self.hints.get(), &self.open);
        if let Some(w) = report.witness.take() {
            self.artifacts.witness = Some(crate::witness::Witness::Violation(w));
        }
        if report.smt.is_some() {
            self.artifacts.smt = report.smt.take();
        }
        self.previous = now.elapsed();
        let s = &report.stats;
        self.totals.instances = s.instances;
        self.totals.events = s.events;
        self.totals.encoding = s.encoding.clone();
        self.totals.counted_loops = s.counted_loops;
        self.totals.counted_templates = s.counted_templates;
        self.totals.summarise += s.summarise;
        self.totals.encode += s.encode;
        self.totals.load += s.load;
        self.totals.solve += s.solve;
        let data = serde_json::json!({
            "round": label, "counted_loops_exact_up_to": s.exact_cap, "events": s.events, "copy_pairs": s.encoding.copy_pairs, "between_constraints": s.encoding.between,
            "term_nodes": s.encoding.terms, "summarise_s": s.summarise, "encode_s": s.encode, "load_s": s.load, "solve_s": s.solve, "total_s": self.previous.as_secs_f64(),
        });
        self.per_round.push(format!(
            "round {label}{} events {} copy pairs {} between constraints {} term nodes {} summarise s {:.3} encode s {:.3} load s {:.3} solve s {:.3} total s {:.3}",
            s.exact_cap.map(|c| format!(" counted loops exact up to {c}")).unwrap_or_default(),
            s.events,
            s.encoding.copy_pairs,
            s.encoding.between,
            s.encoding.terms,
            s.summarise,
            s.encode,
            s.load,
            s.solve,
            self.previous.as_secs_f64()
        ));
        self.per_round_data.push(data);
        report
    }

    /// The sequential round: bound 1 with every thread but the root run without interruption
    /// (one atomic unit each), counted loops exact. A bug that needs many iterations of a
    /// counted loop but no preemption (a thread's whole loop, then main's) costs the full
    /// round 1 minutes on such loops and this one a fraction of a second: one clock per thread
    /// instead of one per access. It can only find violations (each replayed); it leaves
    /// every other verdict to the rounds that follow, and gets at most `SEQUENTIAL_SHARE` of
    /// the budget.
    fn sequential(&mut self, verdicts: &mut [AssertionVerdict]) {
        use crate::bounded::BoundedOutcome;
        let Some((now, left)) = self.time_left() else { return };
        let mut bo = bounded_options(self.opts, Bound { unroll: 1, threads: 1 }, &self.counts);
        bo.atomic_threads = true;
        let slice = left.mul_f64(SEQUENTIAL_SHARE);
        bo.timeout = slice;
        bo.deadline = Some(now + slice);
        let report = self.run_round("1s", bo, now);
        for (a, outcome) in report.outcomes {
            if let BoundedOutcome::Violated { trace } = outcome {
                let v = &mut verdicts[a.index()];
                v.status = Status::Violated;
                v.reason = "violated: a replayed interleaving reaches the failure (found at bound 1, with every thread but the first run without interruption)".into();
                v.detail = Some(trace);
                v.bound = Some(1);
                v.engine = Some(Decider::Sequential);
            }
        }
        self.drop_violated(verdicts);
    }

    /// The start of a pass and the budget left, unless deepening stopped or nothing is left.
    fn time_left(&self) -> Option<(Instant, Duration)> {
        if self.stopped.is_some() {
            return None;
        }
        let now = Instant::now();
        let left = self.deadline.saturating_duration_since(now);
        (!left.is_zero()).then_some((now, left))
    }

    /// Drops the assertions a pass found violated; stops deepening when none is left.
    fn drop_violated(&mut self, verdicts: &[AssertionVerdict]) {
        self.open.retain(|a| verdicts[a.index()].status != Status::Violated);
        if self.open.is_empty() {
            self.stopped = Some("every assertion was decided".into());
        }
    }

    /// The explicit-state search, on at most `EXPLORE_SHARE` of what is left of the budget.
    fn explore(&mut self, verdicts: &mut [AssertionVerdict]) {
        let Some((now, left)) = self.time_left() else { return };
        self.explore_until(now + left.mul_f64(EXPLORE_SHARE), verdicts);
    }

    /// The explicit-state search again on what deepening left of the budget (its next round
    /// would not have finished, or a larger bound cannot help): its depth-first rounds go
    /// further and its sampled runs continue where the first pass stopped.
    fn explore_rest(&mut self, verdicts: &mut [AssertionVerdict]) {
        if self.open.is_empty() || self.explored_all || self.deadline.saturating_duration_since(Instant::now()) < Duration::from_millis(100) {
            return;
        }
        self.explore_until(self.deadline, verdicts);
    }

    fn explore_until(&mut self, deadline: Instant, verdicts: &mut [AssertionVerdict]) {
        let stats = explore_pass(self.prog, self.opts, deadline, self.explored_runs, verdicts, &mut self.artifacts);
        self.explored_runs += stats.runs;
        self.explored_all |= stats.complete;
        self.per_round.push(stats.describe());
        self.per_round_data.push(stats.data());
        self.drop_violated(verdicts);
    }

    /// Runs the rounds of `bounds` until deepening stops.
    fn rounds(&mut self, bounds: std::ops::RangeInclusive<u32>, verdicts: &mut [AssertionVerdict]) {
        use crate::bounded::BoundedOutcome;
        for k in bounds {
            if self.stopped.is_some() {
                return;
            }
            let now = Instant::now();
            let left = self.deadline.saturating_duration_since(now);
            // A round costs at least what the last one did; one that cannot finish is not begun.
            if left.is_zero() || (self.rounds > 0 && self.previous > left) {
                self.stopped = Some("the search budget was spent".into());
                return;
            }
            let mut bo = bounded_options(self.opts, Bound { unroll: k, threads: k }, &self.counts);
            bo.timeout = left;
            let report = self.run_round(&k.to_string(), bo, now);
            self.rounds = k;
            let s = &report.stats;
            let mut budget_hit = false;
            let mut undecided = false;
            let summarised = s.instances > 0;
            for (a, outcome) in report.outcomes {
                let v = &mut verdicts[a.index()];
                match &outcome {
                    BoundedOutcome::Violated { trace } => {
                        v.status = Status::Violated;
                        v.reason = format!("violated: a replayed interleaving reaches the failure (found at bound {k})");
                        v.detail = Some(trace.clone());
                        v.bound = Some(k);
                        v.engine = Some(Decider::Bounded);
                    }
                    BoundedOutcome::Safe { reason } => {
                        v.status = Status::Safe;
                        v.reason = format!("safe: bounded search at bound {k}: {reason}");
                        v.detail = None;
                        v.bound = Some(k);
                        v.engine = Some(Decider::Bounded);
                    }
                    BoundedOutcome::BoundedSafe { reason } => {
                        self.clean.insert(a, (k, reason.clone()));
                    }
                    BoundedOutcome::Unknown { reason } => {
                        undecided = true;
                        budget_hit |= reason.contains(bounded::SEARCH_BUDGET_SPENT) || reason.contains("solver timeout");
                    }
                }
                self.last.insert(a, (k, outcome));
            }
            self.open.retain(|a| !matches!(verdicts[a.index()].status, Status::Violated | Status::Safe));
            if self.open.is_empty() {
                self.stopped = Some("every assertion was decided".into());
            } else if budget_hit {
                // Checked before exhaustiveness: an exploration whose queries ran out of time
                // decided nothing, however complete its unrolling.
                self.stopped = Some("the search budget was spent".into());
            } else if report.exhaustive && undecided {
                self.stopped = Some(format!("bound {k} unrolls the whole program, so a larger bound would pose the same undecided queries"));
            } else if report.exhaustive {
                self.stopped = Some(format!("the exploration at bound {k} was exhaustive"));
            } else if !summarised {
                // The program could not be summarised at all (an unsupported construct): a
                // larger bound will not help.
                self.stopped = Some("the bounded search cannot encode the program".into());
            } else if k == MAX_DEEPENING {
                self.stopped = Some(format!("bound {MAX_DEEPENING} is the deepest tried"));
            }
        }
    }

    /// Gives every assertion still open its final verdict and reason; returns the artifacts.
    fn finish(self, verdicts: &mut [AssertionVerdict], sections: &mut Vec<Section>) -> crate::verdict::Artifacts {
        use crate::bounded::BoundedOutcome;
        let stopped = self.stopped.unwrap_or_else(|| "the search budget was spent".into());
        if self.opts.stats {
            let mut sec = stats_section(&self.totals, self.hints.outcome.is_some(), "bounded");
            sec.body.push_str(&format!("deepening rounds {}\nsearch s {:.3}\n", self.rounds, self.search_start.elapsed().as_secs_f64()));
            for line in &self.per_round {
                sec.body.push_str(line);
                sec.body.push('\n');
            }
            if let Some(serde_json::Value::Object(m)) = &mut sec.data {
                m.insert("deepening_rounds".into(), self.rounds.into());
                m.insert("search_s".into(), self.search_start.elapsed().as_secs_f64().into());
                m.insert("rounds".into(), self.per_round_data.clone().into());
            }
            sections.push(sec);
        }
        for a in self.open {
            let v = &mut verdicts[a.index()];
            let last_why = match self.last.get(&a) {
                Some((j, BoundedOutcome::Unknown { reason })) => Some((*j, reason.clone())),
                _ => None,
            };
            match self.clean.get(&a) {
                Some((k, reason)) => {
                    v.status = Status::BoundedSafe;
                    v.bound = Some(*k);
                    v.engine = Some(Decider::Bounded);
                    v.reason = format!("bounded-safe: {}; bounded search: {reason}; deepest bound completed: {k}", open_reason(&v.reason));
                    if let Some((j, w)) = last_why {
                        v.reason.push_str(&format!("; at bound {j}: {w}"));
                    }
                    v.reason.push_str(&format!("; deepening stopped: {stopped}"));
                }
                None => {
                    let why = last_why.map(|(j, w)| format!("at bound {j}: {w}")).unwrap_or_else(|| "no bound was completed within the budget".into());
                    v.reason = format!("{}; bounded search: {why}; deepening stopped: {stopped}", v.reason);
                }
            }
        }
        self.artifacts
    }
}

/// COARSEN's facts as the finite-state engine reads them: the locations some thread reaches,
/// and at each, the bounds of the variables its action reads by name. COARSEN computes the
/// input of each action, so these bound what the action reads when it executes, which is
/// what the projection needs (not what holds while a thread waits there).
fn finite_invariants(prog: &Program, out: &coarsen::Outcome) -> finite::Invariants {
    let reads = prog
        .loc_ids()
        .map(|v| {
            let refs = &prog.memory.access(v).refs;
            out.bounds
                .get(v.index())
                .map(|b| b.as_slice())
                .unwrap_or(&[])
                .iter()
                .filter_map(|&(a, (lo, hi))| match prog.memory.info(a).kind {
                    crate::ir::AbsKind::Var(x) if refs.contains(&a) => Some((x, lo, hi)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    finite::Invariants { reached: out.invariants.iter().map(Option::is_some).collect(), reads }
}

/// Thread templates created only by counted loops, with the most instances an execution
/// creates (the bounded search's exact counts): the finite-state engine then explores the
/// program as created instead of declining its exact exploration for "unboundedly many".
fn finite_counts(counts: &bounded::unroll::Counts) -> std::collections::HashMap<crate::ir::TemplateId, u32> {
    counts.threads.iter().map(|(t, n)| (*t, *n)).collect()
}

/// What an open verdict's reason says without its `unknown: ` label, to follow another label.
fn open_reason(reason: &str) -> &str {
    reason.strip_prefix("unknown: ").unwrap_or(reason)
}

/// Takes COARSEN's proofs under custom rules out of the verdicts, leaving them open (with a
/// reason naming the rules) for the other engines: edited rules may be unsound, so such a
/// proof must not end the search for a real violation. Returns the proofs, by assertion.
fn hold_custom_proofs(verdicts: &mut [AssertionVerdict], rules: &str) -> Vec<Option<AssertionVerdict>> {
    verdicts
        .iter_mut()
        .map(|v| {
            if v.status != Status::Safe || v.engine != Some(Decider::Coarsen) {
                return None;
            }
            let held = v.clone();
            v.status = Status::Unknown;
            v.reason = format!("unknown: proved only under the custom rules {rules}");
            v.engine = None;
            v.unreachable = false;
            Some(AssertionVerdict { reason: format!("safe under custom rules {rules}: {}", held.reason.strip_prefix("safe: ").unwrap_or(&held.reason)), custom_rules: Some(rules.to_string()), ..held })
        })
        .collect()
}

/// Gives back the proofs [`hold_custom_proofs`] took where no other engine decided: a replayed
/// violation, or a proof that does not rest on the user's rules, stands instead.
fn restore_custom_proofs(verdicts: &mut [AssertionVerdict], held: Vec<Option<AssertionVerdict>>) {
    for (v, h) in verdicts.iter_mut().zip(held) {
        if let (Some(h), true) = (h, still_open(&v.status)) {
            *v = h;
        }
    }
}
