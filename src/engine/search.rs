//! The searches for violations as one engine, since they share one budget: the bounded search
//! (at a fixed `--bound`, or by iterative deepening with its sequential round) and the
//! explicit-state search between its rounds.
//!
//! Without `--bound` the search deepens (`Deepening`, whose rounds run in ranges so that
//! another engine can take its turn between two of them): a sequential round first (bound 1
//! with every thread but the root one atomic unit, `bounded::BoundedOptions::atomic_threads`, so
//! one clock per thread; at most a quarter of the budget; only its violations count); then the
//! explicit-state search on 5 % of what is left (its depth-first rounds on half of that unless
//! they exhaust a program without inputs, then sampled runs numbered from a fixed seed), given
//! again at the end what deepening left unused, its runs continuing from the last number; then
//! round K, a whole bounded run at unroll K and K instances per unbounded template, on the
//! assertions still open. Counted loops stay exact only while `bounded::encode::estimate` stays
//! under `exact_limit(K)` (50,000 instances at bound 1, four times more per bound, so that a
//! counted loop too costly at bound 1 is exact again, and the round exhaustive, a few bounds
//! later; else `bounded::run` halves the longest exact count until it fits, recording the cut).
//! A violation or an exhaustive `safe` decides an assertion; `bounded-safe` records K as its
//! deepest clean bound. Deepening stops when nothing is open, when a round was exhaustive (a
//! larger bound explores nothing more), when the budget is spent, or when a round would not fit
//! in what is left. Every solver query gets the time left as its limit
//! (`BoundedOptions::deadline`), the searches again after a candidate that did not replay
//! included.
//!
//! Rounds share nothing: each summarises, encodes and loads Z3 afresh. A measured choice: on
//! the 8 open dev tasks and indexer(32), 95 % of the rounds' time is Z3 solving and 5 %
//! summarising, encoding and loading, the most an incremental context could save, while bound
//! K+1 renumbers the unknowns, so the solver's learned clauses would hardly carry over
//! (`benchmarks/bounded/results-20261126.md`; `--stats` prints a line per round,
//! `benchmarks/bounded/deepening.sh` collects them). Z3 runs with its defaults and seed 0;
//! `DUET_Z3_PARAMS="key=value ..."` sets global Z3 parameters for such measurements
//! (`smt.arith.solver=2` was faster on some tasks and slower on others: not adopted).

use super::{Bound, CheckOptions, Conclusion, Context, Engine, EngineId, Phase};
use crate::bounded::{self, BoundedOutcome};
use crate::ir::AssertId;
use crate::verdict::{AssertionVerdict, Decider, Note, Scope, Section, Status};
use hashbrown::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

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

/// The deepest bound iterative deepening tries (it stops far earlier on its time budget).
pub const MAX_DEEPENING: u32 = 64;

/// The searches' state across the strategy's steps.
#[derive(Default)]
pub(crate) struct Search {
    /// COARSEN's facts for the bounded search, built on its first round: expanding a folded
    /// template's flows to every member costs the square of the members, which a program the
    /// other engines settle first (the Figure 3 family at 100 threads) need not pay.
    hints: std::cell::OnceCell<Option<bounded::Hints>>,
    deepening: Option<Deepening>,
}

impl Engine for Search {
    fn runs(&self, id: EngineId) -> bool {
        matches!(id, EngineId::Bounded | EngineId::Explore)
    }

    fn run(&mut self, phase: &Phase, cx: &mut Context<'_>, verdicts: &[AssertionVerdict]) -> Vec<(AssertId, Conclusion)> {
        match phase {
            Phase::StartBudget => {
                let deadline = cx.search_deadline();
                self.deepening = Some(Deepening::new(verdicts, deadline));
                Vec::new()
            }
            Phase::Fixed(b) => self.fixed(*b, cx, verdicts),
            Phase::Run => {
                // Alone (without the bounded search), the explicit-state search has the budget.
                let deadline = cx.search_deadline();
                let (found, stats) = explore(cx, deadline, 0, verdicts);
                if cx.opts.stats {
                    cx.sections.push(Section { title: "explore".into(), body: format!("{}\n", stats.describe()), data: Some(stats.data()) });
                }
                found
            }
            _ => {
                let Some(mut d) = self.deepening.take() else { return Vec::new() };
                d.sync(verdicts);
                let out = match phase {
                    Phase::Sequential => d.sequential(cx, self.hints(cx)),
                    Phase::Share(percent) => d.explore_share(cx, verdicts, *percent),
                    Phase::Rounds(from, to) => d.rounds(*from..=*to, cx, self.hints(cx)),
                    Phase::Rest => d.explore_rest(cx, verdicts),
                    _ => Vec::new(),
                };
                self.deepening = Some(d);
                out
            }
        }
    }

    fn finish(&mut self, cx: &mut Context<'_>, verdicts: &[AssertionVerdict]) -> Vec<(AssertId, Conclusion)> {
        match self.deepening.take() {
            Some(mut d) => {
                d.sync(verdicts);
                d.finish(cx)
            }
            None => Vec::new(),
        }
    }
}

impl Search {
    /// The hints, built on the first call (`None` without hints).
    fn hints(&self, cx: &Context<'_>) -> Option<&bounded::Hints> {
        self.hints.get_or_init(|| cx.shared.coarsen.as_ref().map(|out| bounded::Hints { flows: out.read_flows().into_iter().collect(), ranges: out.read_ranges.iter().copied().collect() })).as_ref()
    }

    /// The bounded search at one fixed bound on every assertion not proved, within the search
    /// budget (`unknown` naming it when the budget is spent).
    fn fixed(&mut self, b: Bound, cx: &mut Context<'_>, verdicts: &[AssertionVerdict]) -> Vec<(AssertId, Conclusion)> {
        let targets = super::assertions(verdicts, |v| v.status != Status::Safe);
        if targets.is_empty() {
            return Vec::new();
        }
        // A fixed bound has one round, but its formula may be as hard as any: it keeps to the
        // budget as iterative deepening does (Z3 once ran a minute on a bit-field program).
        let counts = cx.shared.counts(cx.prog, cx.opts);
        let bo = bounded::BoundedOptions { deadline: Some(cx.search_deadline()), ..bounded_options(cx.opts, b, &counts) };
        let k = bo.unroll.min(bo.threads);
        let hints = self.hints(cx);
        let report = bounded::run(cx.prog, &bo, hints, &targets);
        cx.artifacts.witness = report.witness.map(crate::witness::Witness::Violation);
        cx.artifacts.smt = report.smt;
        if cx.opts.stats {
            cx.sections.push(stats_section(&report.stats, hints.is_some(), "bounded"));
        }
        let conclude = |outcome: BoundedOutcome| match outcome {
            BoundedOutcome::Violated { trace, steps } => {
                Conclusion::Violated { engine: Decider::Bounded, text: "a replayed interleaving reaches the failure".into(), detail: trace, trace: steps, bound: Some(k) }
            }
            BoundedOutcome::BoundedSafe { reason } => Conclusion::BoundedSafe { bound: k, note: Note::Bounded { why: reason } },
            BoundedOutcome::Safe { reason } => {
                Conclusion::Proved { engine: Decider::Bounded, text: format!("bounded search: {reason}"), scope: Scope::ThreadsCreated, bound: Some(k), unreachable: false, custom_rules: None }
            }
            BoundedOutcome::Unknown { reason } => Conclusion::Note(Note::Bounded { why: reason }),
        };
        report.outcomes.into_iter().map(|(a, o)| (a, conclude(o))).collect()
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
fn explore(cx: &mut Context<'_>, deadline: Instant, first_run: u64, verdicts: &[AssertionVerdict]) -> (Vec<(AssertId, Conclusion)>, ExploreStats) {
    let prog = cx.prog;
    let t0 = Instant::now();
    let open = super::assertions(verdicts, |v| super::still_open(&v.status));
    if open.is_empty() || !prog.unsupported.is_empty() {
        return (Vec::new(), ExploreStats { states: 0, runs: 0, complete: false, stop: crate::explore::Stop::AllFound, cut: false, found: 0, seconds: 0.0 });
    }
    let layout = crate::interp::layout::Layout::new(prog);
    let out = crate::explore::search(prog, &layout, &open, &crate::explore::ExploreOptions { deadline: Some(deadline), first_run, ..Default::default() });
    let mut found = Vec::new();
    for f in &out.found {
        let Ok(trace) = crate::interp::trace::replay(prog, &layout, &f.steps, crate::explore::oracle(), f.assert) else { continue };
        let steps = crate::interp::trace::steps(prog, &layout, &trace);
        let by = match f.run {
            None => format!("the explicit-state search, {} states", out.states),
            Some(r) => format!("the explicit-state search's sampled run {r}, after {} states", out.states),
        };
        if cx.opts.witness && cx.artifacts.witness.is_none() {
            cx.artifacts.witness = Some(crate::witness::Witness::Violation(crate::witness::violation(prog, &trace, f.assert, "explore")));
        }
        let detail = format!("interleaving (explicit-state search; replayed):\n{}", crate::interp::trace::text(&steps));
        found.push((f.assert, Conclusion::Violated { engine: Decider::Explore, text: format!("a replayed interleaving reaches the failure (found by {by})"), detail, trace: steps, bound: None }));
    }
    let stats = ExploreStats { states: out.states, runs: out.runs, complete: out.complete, stop: out.stop, cut: out.cut, found: found.len(), seconds: t0.elapsed().as_secs_f64() };
    (found, stats)
}

/// Iterative deepening: the bounded search at bounds 1, 2, 3, ... (loops unrolled `k` times,
/// `k` instances per unbounded template) on the assertions still open, until every one is
/// decided, a round is exhaustive, or the budget (`search_time`, within the task's time
/// limit) is spent. Each verdict names the deepest bound completed for it. The rounds run in
/// ranges so that other engines can take their turn between two rounds.
struct Deepening {
    open: Vec<AssertId>,
    search_start: Instant,
    deadline: Instant,
    /// Per open assertion: the deepest bound with no violation, and the last round's outcome.
    clean: HashMap<AssertId, (u32, String)>,
    last: HashMap<AssertId, (u32, BoundedOutcome)>,
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

impl Deepening {
    fn new(verdicts: &[AssertionVerdict], deadline: Instant) -> Self {
        let open = super::assertions(verdicts, |v| v.status != Status::Safe);
        let stopped = open.is_empty().then(|| "every assertion was decided".to_string());
        Deepening {
            open,
            search_start: Instant::now(),
            deadline,
            clean: HashMap::new(),
            last: HashMap::new(),
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

    /// Drops the assertions decided since the last step (another engine's proofs).
    fn sync(&mut self, verdicts: &[AssertionVerdict]) {
        self.open.retain(|a| !matches!(verdicts[a.index()].status, Status::Safe | Status::Violated));
        for (i, v) in verdicts.iter().enumerate() {
            if v.status == Status::Safe {
                self.clean.remove(&AssertId(i as u32));
                self.last.remove(&AssertId(i as u32));
            }
        }
        if self.open.is_empty() && self.stopped.is_none() {
            self.stopped = Some("every assertion was decided".into());
        }
    }

    /// Drops the assertions a step of its own decided; stops deepening when none is left.
    fn drop_decided(&mut self, decided: &[(AssertId, Conclusion)]) {
        self.open.retain(|a| !decided.iter().any(|(d, c)| d == a && matches!(c, Conclusion::Violated { .. } | Conclusion::Proved { .. })));
        if self.open.is_empty() {
            self.stopped = Some("every assertion was decided".into());
        }
    }

    /// One bounded run within the search's deadline, its figures added to the totals and its
    /// line to `--stats` (named `label`).
    fn run_round(&mut self, cx: &mut Context<'_>, hints: Option<&bounded::Hints>, label: &str, mut bo: bounded::BoundedOptions, now: Instant) -> bounded::Report {
        // The witness is the first violation's.
        bo.witness = cx.opts.witness && cx.artifacts.witness.is_none();
        bo.deadline = Some(bo.deadline.map_or(self.deadline, |d| d.min(self.deadline)));
        bo.exact_limit = Some(exact_limit(bo.unroll));
        let mut report = bounded::run(cx.prog, &bo, hints, &self.open);
        if let Some(w) = report.witness.take() {
            cx.artifacts.witness = Some(crate::witness::Witness::Violation(w));
        }
        if report.smt.is_some() {
            cx.artifacts.smt = report.smt.take();
        }
        self.previous = now.elapsed();
        self.add_stats(&report.stats, label);
        report
    }

    /// Adds a round's figures to the totals and its line to `--stats`.
    fn add_stats(&mut self, s: &bounded::Stats, label: &str) {
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
    }

    /// The sequential round: bound 1 with every thread but the root run without interruption
    /// (one atomic unit each), counted loops exact. A bug that needs many iterations of a
    /// counted loop but no preemption (a thread's whole loop, then main's) costs the full
    /// round 1 minutes on such loops and this one a fraction of a second: one clock per thread
    /// instead of one per access. It can only find violations (each replayed); it leaves
    /// every other verdict to the rounds that follow, and gets at most `SEQUENTIAL_SHARE` of
    /// the budget.
    fn sequential(&mut self, cx: &mut Context<'_>, hints: Option<&bounded::Hints>) -> Vec<(AssertId, Conclusion)> {
        let Some((now, left)) = self.time_left() else { return Vec::new() };
        let counts = cx.shared.counts(cx.prog, cx.opts);
        let mut bo = bounded_options(cx.opts, Bound { unroll: 1, threads: 1 }, &counts);
        bo.atomic_threads = true;
        let slice = left.mul_f64(SEQUENTIAL_SHARE);
        bo.timeout = slice;
        bo.deadline = Some(now + slice);
        let report = self.run_round(cx, hints, "1s", bo, now);
        let found: Vec<(AssertId, Conclusion)> = report
            .outcomes
            .into_iter()
            .filter_map(|(a, outcome)| match outcome {
                BoundedOutcome::Violated { trace, steps } => Some((
                    a,
                    Conclusion::Violated {
                        engine: Decider::Sequential,
                        text: "a replayed interleaving reaches the failure (found at bound 1, with every thread but the first run without interruption)".into(),
                        detail: trace,
                        trace: steps,
                        bound: Some(1),
                    },
                )),
                _ => None,
            })
            .collect();
        self.drop_decided(&found);
        found
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

    /// The explicit-state search, on at most `percent` % of what is left of the budget.
    fn explore_share(&mut self, cx: &mut Context<'_>, verdicts: &[AssertionVerdict], percent: u32) -> Vec<(AssertId, Conclusion)> {
        let Some((now, left)) = self.time_left() else { return Vec::new() };
        self.explore_until(cx, now + left.mul_f64(f64::from(percent) / 100.0), verdicts)
    }

    /// The explicit-state search again on what deepening left of the budget (its next round
    /// would not have finished, or a larger bound cannot help): its depth-first rounds go
    /// further and its sampled runs continue where the first pass stopped.
    fn explore_rest(&mut self, cx: &mut Context<'_>, verdicts: &[AssertionVerdict]) -> Vec<(AssertId, Conclusion)> {
        if self.open.is_empty() || self.explored_all || self.deadline.saturating_duration_since(Instant::now()) < Duration::from_millis(100) {
            return Vec::new();
        }
        self.explore_until(cx, self.deadline, verdicts)
    }

    fn explore_until(&mut self, cx: &mut Context<'_>, deadline: Instant, verdicts: &[AssertionVerdict]) -> Vec<(AssertId, Conclusion)> {
        let (found, stats) = explore(cx, deadline, self.explored_runs, verdicts);
        self.explored_runs += stats.runs;
        self.explored_all |= stats.complete;
        self.per_round.push(stats.describe());
        self.per_round_data.push(stats.data());
        self.drop_decided(&found);
        found
    }

    /// Runs the rounds of `bounds` until deepening stops.
    fn rounds(&mut self, bounds: std::ops::RangeInclusive<u32>, cx: &mut Context<'_>, hints: Option<&bounded::Hints>) -> Vec<(AssertId, Conclusion)> {
        let mut decided = Vec::new();
        for k in bounds {
            if self.stopped.is_some() {
                break;
            }
            let now = Instant::now();
            let left = self.deadline.saturating_duration_since(now);
            // A round costs at least what the last one did; one that cannot finish is not begun.
            if left.is_zero() || (self.rounds > 0 && self.previous > left) {
                self.stopped = Some("the search budget was spent".into());
                break;
            }
            let counts = cx.shared.counts(cx.prog, cx.opts);
            let mut bo = bounded_options(cx.opts, Bound { unroll: k, threads: k }, &counts);
            bo.timeout = left;
            let report = self.run_round(cx, hints, &k.to_string(), bo, now);
            self.rounds = k;
            self.round_outcomes(k, report, &mut decided);
        }
        decided
    }

    /// Records one round's outcomes (its violations and proofs into `decided`) and decides
    /// whether deepening stops.
    fn round_outcomes(&mut self, k: u32, report: bounded::Report, decided: &mut Vec<(AssertId, Conclusion)>) {
        let mut budget_hit = false;
        let mut undecided = false;
        let summarised = report.stats.instances > 0;
        let before = decided.len();
        for (a, outcome) in report.outcomes {
            match &outcome {
                BoundedOutcome::Violated { trace, steps } => decided.push((
                    a,
                    Conclusion::Violated {
                        engine: Decider::Bounded,
                        text: format!("a replayed interleaving reaches the failure (found at bound {k})"),
                        detail: trace.clone(),
                        trace: steps.clone(),
                        bound: Some(k),
                    },
                )),
                BoundedOutcome::Safe { reason } => decided.push((
                    a,
                    Conclusion::Proved {
                        engine: Decider::Bounded,
                        text: format!("bounded search at bound {k}: {reason}"),
                        scope: Scope::ThreadsCreated,
                        bound: Some(k),
                        unreachable: false,
                        custom_rules: None,
                    },
                )),
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
        let now_decided: Vec<AssertId> = decided[before..].iter().map(|(a, _)| *a).collect();
        self.open.retain(|a| !now_decided.contains(a));
        self.stopped = if self.open.is_empty() {
            Some("every assertion was decided".into())
        } else if budget_hit {
            // Checked before exhaustiveness: an exploration whose queries ran out of time
            // decided nothing, however complete its unrolling.
            Some("the search budget was spent".into())
        } else if report.exhaustive && undecided {
            Some(format!("bound {k} unrolls the whole program, so a larger bound would pose the same undecided queries"))
        } else if report.exhaustive {
            Some(format!("the exploration at bound {k} was exhaustive"))
        } else if !summarised {
            // The program could not be summarised at all (an unsupported construct): a larger
            // bound will not help.
            Some("the bounded search cannot encode the program".into())
        } else if k == MAX_DEEPENING {
            Some(format!("bound {MAX_DEEPENING} is the deepest tried"))
        } else {
            None
        };
    }

    /// Every assertion still open gets its final word from the search; `--stats` its section.
    fn finish(self, cx: &mut Context<'_>) -> Vec<(AssertId, Conclusion)> {
        let stopped = self.stopped.clone().unwrap_or_else(|| "the search budget was spent".into());
        if cx.opts.stats {
            let mut sec = stats_section(&self.totals, cx.shared.coarsen.is_some(), "bounded");
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
            cx.sections.push(sec);
        }
        self.open
            .iter()
            .map(|a| {
                let last = match self.last.get(a) {
                    Some((j, BoundedOutcome::Unknown { reason })) => Some((*j, reason.clone())),
                    _ => None,
                };
                let deepest = self.clean.get(a).cloned();
                let note = Note::Deepening { deepest: deepest.clone(), last, stopped: stopped.clone() };
                let c = match deepest {
                    Some((k, _)) => Conclusion::BoundedSafe { bound: k, note },
                    None => Conclusion::Note(note),
                };
                (*a, c)
            })
            .collect()
    }
}
