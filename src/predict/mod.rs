//! Predictive analysis (Wang, Kundu, Ganai & Gupta, FM 2009): bugs predicted from observed runs.
//!
//! 1. [`observe`]: the IR interpreter runs the program under a seeded random scheduler and
//!    records every step (events per thread, with the branches taken).
//! 2. [`ctp`]: the run's concurrent trace program and its CSSA encoding: π-functions for the
//!    reads, happens-before over integer execution times, context bounds as assumptions.
//! 3. [`search`]: Z3 under growing context bounds; an unsatisfiable bounded query whose unsat
//!    core does not use the bound covers the whole CTP. A model becomes a schedule that
//!    [`crate::interp::trace::replay`] executes: only a replayed failure is reported.
//!
//! The analysis covers only the interleavings of the events observed, so an assertion without
//! a violation stays `unknown`, never `safe`.

pub mod ctp;
pub mod observe;
pub mod search;

use crate::interp::layout::Layout;
use crate::ir::{AssertId, Program};
use crate::verdict::CheckReport;
use crate::verdict::{Decider, FindingKind, Section, Status, Why};
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::time::{Duration, Instant};

/// The default budget per file in seconds (`predict --search-time`).
pub const DEFAULT_BUDGET_SECS: u64 = 20;

/// What `predict` runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PredictOptions {
    /// Observed runs.
    pub runs: u32,
    /// Seed of the scheduler of the first run (run `i` uses a seed derived from it).
    pub seed: u64,
    /// Steps per run.
    pub max_steps: usize,
    /// Context bound for the search; `None` searches every linearization at once.
    pub context_bound: Option<u32>,
    /// Solver time limit per query (never past the budget).
    pub solver_timeout: Duration,
    /// Time for the whole analysis of a file: runs, encodings and queries; what it leaves
    /// undecided is `unknown`.
    pub budget: Duration,
    /// Print figures per run.
    pub stats: bool,
}

impl Default for PredictOptions {
    fn default() -> PredictOptions {
        PredictOptions {
            runs: 8,
            seed: 0,
            max_steps: 50_000,
            context_bound: Some(2),
            solver_timeout: Duration::from_secs(DEFAULT_BUDGET_SECS),
            budget: Duration::from_secs(DEFAULT_BUDGET_SECS),
            stats: false,
        }
    }
}

/// What happened to one assertion over the runs.
#[derive(Clone, Debug)]
enum Finding {
    Nothing,
    Observed { run: u32, text: String },
    Predicted { run: u32, bound: Option<u32>, text: String },
}

/// Verdicts for every assertion from `opts.runs` observed runs and their predictions.
pub fn run_program(prog: &Program, opts: &PredictOptions) -> CheckReport {
    let n = prog.assertions.len();
    let verdict =
        |i: usize, status: Status, kind: FindingKind, text: String, detail: Option<String>| crate::verdict::assertion_verdict(prog, i, status, Why::new(kind, Some(Decider::Predict), text), detail);
    if let Some(u) = prog.unsupported.first() {
        let why = format!("unsupported construct: {} at {}", u.construct, prog.span_str(u.span));
        return CheckReport { verdicts: (0..n).map(|i| verdict(i, Status::Unknown, FindingKind::Open, why.clone(), None)).collect(), ..CheckReport::default() };
    }
    let layout = Layout::new(prog);
    let mut found = vec![Finding::Nothing; n];
    // Per assertion: runs whose CTP holds it, proved free of violations (whole, or within the bound).
    let mut cleared = vec![(0u32, 0u32); n];
    let mut undecided: Vec<Option<String>> = vec![None; n];
    let mut stats = String::new();
    let start = Instant::now();
    let deadline = start + opts.budget;
    // The runs that ran to their end; a run cut short by the budget does not count.
    let mut finished = 0u32;
    let mut out_of_time = false;
    for r in 0..opts.runs {
        if found.iter().all(|f| !matches!(f, Finding::Nothing)) {
            break;
        }
        if Instant::now() >= deadline {
            out_of_time = true;
            break;
        }
        let seed = opts.seed.wrapping_mul(0x1000_0000_01b3).wrapping_add(r as u64);
        // Runs alternate between long slices (few context switches) and short ones.
        let switch = [0.02, 0.2, 0.5][r as usize % 3];
        let per_template = [2, 3, 1, 4][r as usize % 4];
        let t0 = Instant::now();
        let obs = observe::run(prog, &layout, seed, opts.max_steps, switch, per_template);
        let observe_s = t0.elapsed().as_secs_f64();
        if let observe::End::Failed(a) = obs.end {
            if matches!(found[a.index()], Finding::Nothing) {
                let oracle = |_: i128| 0i128;
                let steps = crate::interp::minimise::minimise(prog, &layout, &oracle, &obs.steps, a);
                if let Ok(trace) = crate::interp::trace::replay(prog, &layout, &steps, &oracle, a) {
                    found[a.index()] = Finding::Observed { run: r, text: render(prog, &layout, &trace, "observed run") };
                }
            }
        }
        let open: Vec<AssertId> = (0..n).filter(|&i| matches!(found[i], Finding::Nothing)).map(|i| AssertId(i as u32)).collect();
        let t1 = Instant::now();
        let c = ctp::Ctp::new(prog, &layout, &obs);
        let (enc, es) = ctp::encode(prog, &layout, &c, opts.context_bound.unwrap_or(0));
        let encode_s = t1.elapsed().as_secs_f64();
        let t2 = Instant::now();
        let mut z3 = match crate::bounded::solve::Z3::load(&enc.terms, &enc.constraints, opts.solver_timeout, Some(deadline)) {
            Ok(z3) => z3,
            Err(_) => {
                out_of_time = true;
                break;
            }
        };
        let mut predicted = 0;
        for a in open {
            if !enc.queries.iter().any(|(x, _)| *x == a) {
                continue;
            }
            let i = a.index();
            match search::search_within(prog, &layout, &c, &enc, &mut z3, a, opts.context_bound.is_some(), Some((opts.solver_timeout, deadline))) {
                search::Found::Violation { trace, bound, .. } => {
                    predicted += 1;
                    let what = match bound {
                        Some(b) => format!("predicted from run {r}, context bound {b}"),
                        None => format!("predicted from run {r}"),
                    };
                    found[i] = Finding::Predicted { run: r, bound, text: render(prog, &layout, &trace, &what) };
                }
                search::Found::NoneInCtp => cleared[i].0 += 1,
                search::Found::NoneWithin(_) => cleared[i].1 += 1,
                search::Found::Undecided(why) => undecided[i] = Some(why),
                search::Found::OutOfTime => out_of_time = true,
            }
        }
        if out_of_time {
            break;
        }
        finished += 1;
        let solve_s = t2.elapsed().as_secs_f64();
        if opts.stats {
            let _ = writeln!(
                stats,
                "run {r} seed {seed} steps {} end {:?} events {} reads {} writes {} pi-args {} sites {} predicted {predicted} observe s {observe_s:.3} encode s {encode_s:.3} solve s {solve_s:.3} elapsed s {:.3}",
                obs.steps.len(),
                obs.end,
                es.events,
                es.reads,
                es.writes,
                es.pi_args,
                enc.sites.len(),
                start.elapsed().as_secs_f64()
            );
        }
    }
    let verdicts = (0..n)
        .map(|i| match &found[i] {
            Finding::Observed { run, text } => crate::verdict::AssertionVerdict {
                engine: Some(Decider::Predict),
                ..verdict(i, Status::Violated, FindingKind::Observed, format!("run {run} reaches the failure, and its schedule replays"), Some(text.clone()))
            },
            Finding::Predicted { run, bound, text } => {
                let b = bound.map(|b| format!(" within {b} context switches")).unwrap_or_default();
                let v = verdict(i, Status::Violated, FindingKind::Predicted, format!("an interleaving of run {run}'s events{b} reaches the failure"), Some(text.clone()));
                crate::verdict::AssertionVerdict { engine: Some(Decider::Predict), ..v }
            }
            Finding::Nothing => {
                let mut why = if out_of_time {
                    format!(
                        "the time budget of {} s (--search-time) ran out after {finished} of {} run(s) with no violation observed or predicted; predictive analysis covers only the interleavings of the events observed",
                        opts.budget.as_secs_f64(),
                        opts.runs
                    )
                } else {
                    format!("no violation observed or predicted in {} run(s); predictive analysis covers only the interleavings of the events observed", opts.runs)
                };
                let (whole, within) = cleared[i];
                if whole + within > 0 {
                    let _ = write!(why, " ({whole} run(s) with no violating interleaving at all");
                    if within > 0 {
                        let _ = write!(why, ", {within} with none within {} context switches", opts.context_bound.unwrap_or(0));
                    }
                    why.push(')');
                }
                if let Some(u) = &undecided[i] {
                    let _ = write!(why, "; {u}");
                }
                verdict(i, Status::Unknown, FindingKind::Open, why, None)
            }
        })
        .collect();
    let sections = if opts.stats { vec![Section { title: "predict".into(), body: stats, data: None }] } else { Vec::new() };
    CheckReport { verdicts, sections, ..CheckReport::default() }
}

/// The readable interleaving of a replayed schedule.
fn render(prog: &Program, layout: &Layout, trace: &[crate::interp::Executed], what: &str) -> String {
    let body = crate::interp::trace::text(&crate::interp::trace::steps(prog, layout, trace));
    format!("interleaving ({what}; replayed):\n{body}")
}
