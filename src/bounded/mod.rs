//! Bounded mode: finds real violations within a bound, after Sinha & Wang's staged analysis
//! (FSE 2010).
//!
//! 1. [`unroll`]: loops unrolled and unbounded thread templates replicated up to the bound.
//! 2. [`summary`]: each thread instance summarised once by symbolic execution into an
//!    interference skeleton ([`skeleton`]) over hash-consed [`term`]s.
//! 3. [`encode`]: sequential-consistency composition for Z3 ([`solve`]): integer clocks for
//!    happens-before, integer IDs for the copy relation.
//! 4. [`prune`]: may-happen-in-parallel, kill and may-copy sets shrink the copy constraints.
//! 5. [`witness`]: a model becomes a schedule, which the concrete interpreter
//!    ([`crate::interp`]) replays; only a replayed failure is reported as a violation, printed
//!    as an interleaving and returned as a [`crate::witness::Violation`] for the command line
//!    to write.
//!
//! It runs after COARSEN, on the assertions it left open, and COARSEN's `read_flows` narrow the
//! may-copy sets further ([`Hints`]). `prune`'s order reads an edge as "if both events happen,
//! this one first", so a join's edge from the joined thread's end is added only when the join
//! precedes every later event on every path (after `if (c) pthread_join(t, 0);` the thread may
//! still run). Building the copy constraints and loading them into Z3 check the search's
//! deadline, so one large round cannot overrun `--search-time` by minutes. Before a violation is
//! reported, `interp::minimise` cuts the schedule down to the steps that still replay to it,
//! within a fixed budget of interpreted steps, so deterministically.
//!
//! Slices. With four or more thread instances besides the root, each query is first posed on
//! slices of 2, 4, 8, ... instances (`sliced`, ordered by `relevance`: the failure's thread,
//! then breadth first the writers its reads may copy), each a formula and a solver of its own in
//! which the other instances do not run before the failure. A slice is an under-approximation:
//! only its replayed violation is taken, and `unsat` or an exhausted budget (20 M Z3 resource
//! units, a limit that does not depend on load, and a fifth of the query's time) hands the
//! query to the whole formula, which alone may answer that no violation exists. On indexer(32)
//! at `--bound 5` the slice of 4 holds the collision.
//!
//! Candidates that do not replay. One that overflows a signed integer or runs a loop past the
//! bound is searched for again with those excluded (`no_overflow`, `no_havoc`); if nothing is
//! left, the bound is clean (`bounded-safe`, never `safe`: the claim leaves undefined behaviour
//! out). One that fails only through a value an over-approximation made up (an unmodelled call)
//! is searched for again among paths that evaluate no such value (`no_approx`); if nothing is
//! left the answer stays `unknown`, naming the approximation.
//!
//! Both the encoding and the replay use `interp::layout`, the flat memory in which pointers are
//! 64-bit addresses, so a witness never depends on how an engine laid out memory. Under ILP32 a
//! pointer is such an address too: its reads are ranged to 64 bits, and COARSEN's range hints,
//! which bound the program's real (32-bit) addresses, are not applied to pointers.

pub(crate) mod encode;
pub(crate) mod prune;
pub(crate) mod skeleton;
pub mod solve;
pub(crate) mod summary;
pub(crate) mod term;
pub mod unroll;
pub(crate) mod witness;

use crate::interp::layout::Layout;
use crate::interp::trace::{self, replay, ReplayError};
use crate::ir::{AbsLoc, AssertId, LocId, Program};
use hashbrown::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Solver time per query when none is given.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// What to explore and what to write.
#[derive(Clone, Debug)]
pub struct BoundedOptions {
    /// Iterations per loop.
    pub unroll: u32,
    /// Instances per unbounded thread template.
    pub threads: u32,
    /// Instantiate every copy constraint (no MHP/kill/may-copy pruning).
    pub no_prune: bool,
    /// Return the witness of the first violation ([`Report::witness`]).
    pub witness: bool,
    /// Return the encoding as SMT-LIB2 text ([`Report::smt`]).
    pub dump_smt: bool,
    /// Solver time limit per assertion.
    pub timeout: Duration,
    /// Most iterations of a loop with a known trip count unrolled exactly (0: none).
    pub max_unroll: u32,
    /// Most instances of a thread template with a known count created exactly (0: none).
    pub max_threads: u32,
    /// When the whole search must end: queries after it are not started.
    pub deadline: Option<Instant>,
    /// Most copy-constraint instances ([`encode::estimate`]) for which counted loops are
    /// unrolled exactly; beyond it the longest are cut at the bound instead (`None`: always
    /// exact).
    pub exact_limit: Option<u64>,
    /// Every thread but the root runs without interruption
    /// ([`summary::Summariser::with_atomic_threads`]): only violations can come of it, every
    /// other outcome is `Unknown`.
    pub atomic_threads: bool,
    /// The program's exact counts with `max_unroll` and `max_threads`, when the caller has them
    /// already (`None`: computed here); one check computes them once for every round and engine.
    pub counts: Option<std::sync::Arc<unroll::Counts>>,
}

/// Default of `--max-unroll`: enough for the drivers' 112-byte allocation loops, at no cost
/// measured on the dev set.
pub const DEFAULT_MAX_UNROLL: u32 = 128;
/// Default of `--max-threads`.
pub const DEFAULT_MAX_THREADS: u32 = 64;

impl BoundedOptions {
    /// `k` iterations and `k` instances, pruning on, no artifacts.
    pub fn new(k: u32) -> BoundedOptions {
        BoundedOptions {
            unroll: k,
            threads: k,
            no_prune: false,
            witness: false,
            dump_smt: false,
            timeout: DEFAULT_TIMEOUT,
            max_unroll: DEFAULT_MAX_UNROLL,
            max_threads: DEFAULT_MAX_THREADS,
            deadline: None,
            exact_limit: None,
            atomic_threads: false,
            counts: None,
        }
    }
}

/// Bounds of a value read (`None`: unbounded on that side).
pub type ReadRange = (Option<i128>, Option<i128>);

/// Facts from COARSEN that make the encoding smaller; both are sound because COARSEN
/// over-approximates every execution.
#[derive(Clone, Debug, Default)]
pub struct Hints {
    /// Data-flow edges `(writing location, abstract location, reading location)`, within and
    /// across threads. A read at `l` of `a` that appears as the target of some edge may only
    /// copy writes with an edge to it; the initial contents of memory count as written at a
    /// template's entry (the root's, for globals). A read with no edge at all is unconstrained.
    pub flows: HashSet<(LocId, AbsLoc, LocId)>,
    /// Bounds on the value of `a` read at `l` (`None`: unbounded on that side).
    pub ranges: HashMap<(LocId, AbsLoc), ReadRange>,
}

/// The bounded verdict on one assertion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoundedOutcome {
    /// A replayed interleaving reaches the failure.
    Violated {
        /// The interleaving, readably.
        trace: String,
        /// The same interleaving, step by step.
        steps: Vec<trace::TraceStep>,
    },
    /// No violation within the bound.
    BoundedSafe {
        /// What was explored.
        reason: String,
    },
    /// No violation, and the exploration was exhaustive (no bound was reached).
    Safe {
        /// Why the exploration was complete.
        reason: String,
    },
    /// Undecided, with the reason.
    Unknown {
        /// What stopped it.
        reason: String,
    },
}

/// Figures of one bounded run (the paper's Figure 3 columns and more).
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Thread instances modelled.
    pub instances: usize,
    /// Skeleton events.
    pub events: usize,
    /// Size of the encoding.
    pub encoding: encode::EncodingStats,
    /// Seconds summarising and pruning (every try, when counted loops were cut to fit).
    pub summarise: f64,
    /// Seconds encoding.
    pub encode: f64,
    /// Seconds building the encoding's terms in Z3 and asserting them.
    pub load: f64,
    /// Seconds in the solver (all queries).
    pub solve: f64,
    /// Loops unrolled exactly by their trip count.
    pub counted_loops: usize,
    /// Thread templates given exactly their number of instances.
    pub counted_templates: usize,
    /// The longest counted loop unrolled exactly, when the encoding could not afford longer
    /// ones (`BoundedOptions::exact_limit`).
    pub exact_cap: Option<u32>,
    /// The sizes (thread instances but the root) of the slices queried before the whole
    /// formula, in order.
    pub slices: Vec<usize>,
    /// Violations found on a slice (the whole formula not queried for them).
    pub found_on_slice: usize,
}

/// Verdicts and figures of a bounded run.
pub struct Report {
    /// One outcome per target, in the order given.
    pub outcomes: Vec<(AssertId, BoundedOutcome)>,
    /// Per target: the replayed schedule of its violation.
    pub schedules: Vec<Option<Vec<crate::interp::Step>>>,
    /// Figures.
    pub stats: Stats,
    /// No loop was cut and no thread left out: a larger bound explores nothing more.
    pub exhaustive: bool,
    /// The first violation's witness, when asked for.
    pub witness: Option<crate::witness::Violation>,
    /// The encoding as SMT-LIB2, when asked for.
    pub smt: Option<String>,
}

/// Bounded verdicts for `targets`.
pub fn check(prog: &Program, opts: &BoundedOptions, hints: Option<&Hints>, targets: &[AssertId]) -> Vec<(AssertId, BoundedOutcome)> {
    run(prog, opts, hints, targets).outcomes
}

/// Bounded verdicts for `targets`, with figures.
pub fn run(prog: &Program, opts: &BoundedOptions, hints: Option<&Hints>, targets: &[AssertId]) -> Report {
    let all = |reason: String| Report {
        outcomes: targets.iter().map(|a| (*a, BoundedOutcome::Unknown { reason: reason.clone() })).collect(),
        schedules: vec![None; targets.len()],
        stats: Stats::default(),
        exhaustive: false,
        witness: None,
        smt: None,
    };
    if let Some(u) = prog.unsupported.first() {
        return all(format!("unsupported construct: {} at {}", u.construct, prog.span_str(u.span)));
    }
    let mut stats = Stats::default();
    let layout = Layout::new(prog);
    let t0 = Instant::now();
    let (mut sk, pr) = match summarise(prog, &layout, opts, hints, &mut stats) {
        Ok(x) => x,
        Err(why) => return all(why),
    };
    stats.summarise = t0.elapsed().as_secs_f64();
    stats.instances = sk.instances.len();
    stats.events = sk.events.len();
    let t1 = Instant::now();
    let summary = sk.constraints.clone();
    let enc = match encode::encode(prog, &layout, &mut sk, &pr, hints, targets, opts.deadline, None) {
        Ok(e) => e,
        Err(why) => {
            let mut r = all(why);
            r.stats = stats;
            return r;
        }
    };
    stats.encode = t1.elapsed().as_secs_f64();
    stats.encoding = enc.stats.clone();
    let smt = opts.dump_smt.then(|| encode::smt_text(prog, &sk.terms, &enc));
    // The slices' formulas are built after the whole one, so the whole one is the same,
    // term for term, as without them (Z3's time on it depends on the order of its terms).
    let mut witness: Option<crate::witness::Violation> = None;
    let mut found: HashMap<AssertId, (BoundedOutcome, Vec<crate::interp::Step>)> = HashMap::new();
    let ts = Instant::now();
    if pr.pruned {
        for q in &enc.queries {
            if let Some(v) = sliced(prog, &layout, &mut sk, &pr, hints, &summary, q, opts, &mut witness, &mut stats.slices) {
                found.insert(q.assert, v);
            }
        }
    }
    stats.solve += ts.elapsed().as_secs_f64();
    stats.found_on_slice = found.len();
    let exhaustive = sk.cut_loops.is_empty() && sk.havoc_loops.is_empty() && sk.unscheduled_forks == 0 && sk.incomplete.is_empty() && !prog.mode.parameterized && !opts.atomic_threads;
    // (In parameterized mode a template always has more instances than any bound models.)
    let bound_text = format!("{}, {} per unbounded thread template", trace::count(opts.unroll, "loop iteration"), trace::count(opts.threads, "instance"));
    let safe = |what: &str| -> BoundedOutcome {
        if exhaustive {
            BoundedOutcome::Safe { reason: format!("{what}; the bounded exploration was exhaustive (no loop reached its unrolling bound and no thread template its instance bound)") }
        } else {
            let mut cuts: Vec<String> = sk.cut_loops.iter().take(4).map(|l| prog.span_str(prog.loc(*l).span)).collect();
            if sk.cut_loops.len() > 4 {
                cuts.push("...".into());
            }
            let mut why = format!("{what} within the bound ({bound_text})");
            if !cuts.is_empty() {
                why.push_str(&format!("; loops cut at {}", cuts.join(", ")));
            }
            if sk.unscheduled_forks > 0 {
                why.push_str("; further threads are never scheduled");
            }
            BoundedOutcome::BoundedSafe { reason: why }
        }
    };
    let tl = Instant::now();
    // When the slices found every violation, the whole formula is never loaded.
    let needed = enc.queries.iter().any(|q| !found.contains_key(&q.assert));
    let mut z3 = match needed.then(|| solve::Z3::load(&sk.terms, &enc.constraints, opts.timeout, opts.deadline)).transpose() {
        Ok(z) => z,
        Err(why) => {
            let mut r = all(why);
            stats.load = tl.elapsed().as_secs_f64();
            r.stats = stats;
            return r;
        }
    };
    stats.load = tl.elapsed().as_secs_f64();
    let mut outcomes = Vec::new();
    let mut schedules = Vec::new();
    let t2 = Instant::now();
    for &a in targets {
        let Some(q) = enc.queries.iter().find(|q| q.assert == a) else {
            outcomes.push((a, safe("no failing instance of the assertion is reachable")));
            schedules.push(None);
            continue;
        };
        if let Some((v, s)) = found.remove(&a) {
            outcomes.push((a, v));
            schedules.push(Some(s));
            continue;
        }
        let Some(z3) = z3.as_mut() else { unreachable!("the whole formula is loaded while a query is open") };
        let mut schedule = None;
        if let Some(d) = opts.deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                outcomes.push((a, BoundedOutcome::Unknown { reason: SEARCH_BUDGET_SPENT.into() }));
                schedules.push(None);
                continue;
            }
            z3.set_timeout(left.min(opts.timeout));
        }
        let first = z3.check(&sk.terms, &[q.activate]);
        let mut outcome = match first {
            solve::Answer::Unsat => safe("no violation"),
            solve::Answer::Unknown(why) => unknown_from_solver(&why, opts),
            solve::Answer::Sat => {
                let cx = Candidate { prog, layout: &layout, sk: &sk, enc: &enc, opts };
                let first = cx.confirm(z3, q, &mut witness, &mut schedule);
                cx.search_again(z3, q, &mut witness, &mut schedule, first, &bound_text)
            }
        };
        if let BoundedOutcome::Unknown { reason } = &mut outcome {
            if let Some(n) = sk.incomplete.first() {
                reason.push_str(&format!(" ({n})"));
            }
        }
        outcomes.push((a, outcome));
        schedules.push(schedule);
    }
    stats.solve += t2.elapsed().as_secs_f64();
    if opts.atomic_threads {
        // No violation among the schedules that run threads without interruption says nothing
        // about the others.
        for (_, o) in &mut outcomes {
            if let BoundedOutcome::Safe { reason } | BoundedOutcome::BoundedSafe { reason } = o {
                *o = BoundedOutcome::Unknown { reason: format!("{reason} (only schedules that run each thread without interruption were searched)") };
            }
        }
    }
    Report { outcomes, schedules, stats, exhaustive, witness, smt }
}

/// Summarises the program for the bounded encoding. Counted loops are unrolled exactly while
/// the encoding can afford them: past `opts.exact_limit` the longest ones are cut at the bound
/// instead (the cut recorded, so no exhaustive claim), halving the longest count kept until the
/// encoding fits. An error is why the program cannot be summarised.
fn summarise(prog: &Program, layout: &Layout, opts: &BoundedOptions, hints: Option<&Hints>, stats: &mut Stats) -> Result<(skeleton::Skeleton, prune::Pruned), String> {
    let all_counts = opts.counts.clone().unwrap_or_else(|| std::sync::Arc::new(unroll::Counts::of(prog, opts.max_unroll, opts.max_threads)));
    let mut cap = opts.max_unroll;
    loop {
        let counts = all_counts.capped(cap);
        let longest = counts.loops.values().copied().max().unwrap_or(0);
        let counted = (counts.loops.len(), counts.threads.len());
        let mut sk = match summary::Summariser::new(prog, layout, opts.unroll, opts.threads).with_counts(counts).with_atomic_threads(opts.atomic_threads).run() {
            Ok(s) => {
                (stats.counted_loops, stats.counted_templates) = counted;
                s
            }
            // Exact counts can make the program too large to summarise where the bounds do not.
            Err(_) if counted != (0, 0) => match summary::Summariser::new(prog, layout, opts.unroll, opts.threads).with_atomic_threads(opts.atomic_threads).run() {
                Ok(s) => s,
                Err(summary::Failure::Unsupported(why)) => return Err(why),
            },
            Err(summary::Failure::Unsupported(why)) => return Err(why),
        };
        let pr = prune::prune(prog, &mut sk, !opts.no_prune, hints);
        let (pairs, between) = encode::estimate(&pr);
        match opts.exact_limit {
            Some(limit) if pairs + between > limit && longest > opts.unroll => {
                // A counted loop no longer than the bound costs no more exact than cut.
                cap = (longest / 2).max(opts.unroll);
                stats.exact_cap = Some(cap);
            }
            _ => return Ok((sk, pr)),
        }
    }
}

/// What replaying a model of one encoding needs: the program, its layout, the unrolled
/// skeleton and the encoding the model satisfies.
#[derive(Clone, Copy)]
struct Candidate<'a> {
    prog: &'a Program,
    layout: &'a Layout,
    sk: &'a skeleton::Skeleton,
    enc: &'a encode::Encoding,
    opts: &'a BoundedOptions,
}

impl Candidate<'_> {
    /// A candidate that did not replay, searched for again: one that overflowed a signed integer
    /// (no C execution) or ran a loop beyond the bound (whose summary is coarse) is searched for
    /// without that licence; so is one that failed only through a value an over-approximation made
    /// up, among executions that read no such value (a path around the unmodelled call may fail
    /// for real).
    fn search_again(
        &self,
        z3: &mut solve::Z3,
        q: &encode::Query,
        witness: &mut Option<crate::witness::Violation>,
        schedule: &mut Option<Vec<crate::interp::Step>>,
        first: Attempt,
        bound_text: &str,
    ) -> BoundedOutcome {
        let Candidate { sk, enc, opts, .. } = *self;
        let mut o = first;
        let mut assume = vec![q.activate];
        let mut approx_reason: Option<String> = None;
        for _ in 0..3 {
            let beyond = matches!(&o, Attempt::Rejected(_, true));
            let (licence, why) = match &o {
                Attempt::Rejected(why, _) if why.contains(crate::interp::ops::SIGNED_OVERFLOW) && !assume.contains(&enc.no_overflow) => (enc.no_overflow, why.clone()),
                Attempt::Rejected(why, true) if !assume.contains(&enc.no_havoc) => (enc.no_havoc, why.clone()),
                Attempt::RestsOn(why) if !assume.contains(&enc.no_approx) => {
                    approx_reason = Some(why.clone());
                    (enc.no_approx, why.clone())
                }
                _ => break,
            };
            assume.push(licence);
            // Each search again gets only what is left of the budget: with the first
            // query's limit again, each could run that long past the deadline.
            if let Some(d) = opts.deadline {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    o = Attempt::Rejected(format!("{why}; searching again: {SEARCH_BUDGET_SPENT}"), beyond);
                    break;
                }
                z3.set_timeout(left.min(opts.timeout));
            }
            o = match z3.check(&sk.terms, &assume) {
                solve::Answer::Sat => self.confirm(z3, q, witness, schedule),
                solve::Answer::Unsat => match &approx_reason {
                    // No candidate avoids the unmodelled values: what those calls really
                    // return may still make the assertion fail.
                    Some(a) => Attempt::RestsOn(a.clone()),
                    // Every candidate left overflows a signed integer or runs a loop past
                    // the bound: no execution within the bound that C defines fails. Never
                    // `safe`, even when exhaustive: the claim leaves undefined behaviour out.
                    None => Attempt::Done(BoundedOutcome::BoundedSafe {
                        reason: format!("no violation within the bound ({bound_text}) that avoids signed overflow and runs no loop past the bound (a candidate did not replay: {why})"),
                    }),
                },
                solve::Answer::Unknown(w) => match &approx_reason {
                    Some(a) => Attempt::RestsOn(format!("{a}; searching again for a violation that avoids it: {w}")),
                    None => Attempt::Rejected(format!("{why}; searching again: {w}"), beyond),
                },
            };
        }
        match o {
            Attempt::Done(x) => x,
            Attempt::RestsOn(why) => BoundedOutcome::Unknown { reason: why },
            Attempt::Rejected(why, _) => {
                let mut why = format!("a candidate violation did not replay ({why})");
                if let Some(ap) = sk.approximations.first() {
                    why.push_str(&format!("; the encoding over-approximates {ap}"));
                }
                BoundedOutcome::Unknown { reason: why }
            }
        }
    }
}

/// The share of a query's time limit the under-approximating slices may spend before the
/// whole query is posed.
const SLICE_SHARE: f64 = 0.2;

/// Z3's resource units all the slices of one query may spend. Their answers must not depend
/// on the machine's load, so the time share above is only a backstop: the slices that found
/// the indexer's (32 threads, `--bound 5`) collision spent 2.0 M units (0.6 M on the `unsat`
/// slice of 2, 1.4 M on the slice of 4), about a second.
const SLICE_RLIMIT: u64 = 20_000_000;

/// Fewest thread instances (the root aside) for which slices are tried first: below it the
/// whole query is about as cheap as a slice.
const SLICE_MIN_INSTANCES: usize = 4;

/// The under-approximating first queries: the query on a slice of the threads, every
/// instance outside it kept from running before the failure, for slices of 2, 4, 8, ...
/// instances in the order of [`relevance`], each a formula and a solver of its own (assumed
/// clocks on the whole formula left Z3 as slow as the whole query). Only a replayed violation
/// is returned, with its schedule; every other answer (`unsat`, a timeout, a candidate that
/// does not replay) leaves the verdict to the whole query, which alone may claim there is no
/// violation. They spend at most [`SLICE_RLIMIT`] of Z3's resource units, and at most
/// `SLICE_SHARE` of the query's time limit.
#[allow(clippy::too_many_arguments)]
fn sliced(
    prog: &Program,
    layout: &Layout,
    sk: &mut skeleton::Skeleton,
    pr: &prune::Pruned,
    hints: Option<&Hints>,
    summary: &[term::T],
    q: &encode::Query,
    opts: &BoundedOptions,
    witness: &mut Option<crate::witness::Violation>,
    sizes: &mut Vec<usize>,
) -> Option<(BoundedOutcome, Vec<crate::interp::Step>)> {
    let order = relevance(sk, pr, q);
    if order.len() < SLICE_MIN_INSTANCES {
        return None;
    }
    let start = Instant::now();
    let limit = match opts.deadline {
        Some(d) => d.saturating_duration_since(start).min(opts.timeout),
        None => opts.timeout,
    };
    let end = start + limit.mul_f64(SLICE_SHARE);
    let mut size = 2;
    let mut units = SLICE_RLIMIT;
    while size < order.len() {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() || units == 0 {
            return None;
        }
        let mut keep = vec![false; sk.instances.len()];
        keep[0] = true;
        for &i in &order[..size] {
            keep[i as usize] = true;
        }
        sizes.push(size);
        let spr = pr.restrict(|e| keep[sk.events[e as usize].thread as usize]);
        sk.constraints = summary.to_vec();
        let enc = encode::encode(prog, layout, sk, &spr, hints, &[q.assert], Some(end), Some(&keep)).ok()?;
        let ans = match enc.queries.first() {
            None => solve::Answer::Unsat,
            Some(sq) => {
                let mut z3 = solve::Z3::load(&sk.terms, &enc.constraints, left, Some(end)).ok()?;
                z3.set_timeout(end.saturating_duration_since(Instant::now()));
                z3.set_rlimit(units.min(u32::MAX as u64) as u32);
                let ans = z3.check(&sk.terms, &[sq.activate]);
                units = units.saturating_sub(z3.rlimit_used());
                if let solve::Answer::Sat = ans {
                    let mut schedule = None;
                    let cx = Candidate { prog, layout, sk, enc: &enc, opts };
                    return match cx.confirm(&mut z3, sq, witness, &mut schedule) {
                        Attempt::Done(v @ BoundedOutcome::Violated { .. }) => schedule.map(|s| (v, s)),
                        _ => None,
                    };
                }
                ans
            }
        };
        match ans {
            solve::Answer::Unsat => size *= 2,
            _ => return None,
        }
    }
    None
}

/// The thread instances but the root, most relevant to the query's failure first: the
/// instance of the failure whose condition reads the fewest values, then, breadth first, the
/// instances of the writes those reads may copy, and of the writes the reads behind those
/// writes (their condition, address and value) may copy; the instances never reached follow
/// in their order.
fn relevance(sk: &skeleton::Skeleton, pr: &prune::Pruned, q: &encode::Query) -> Vec<u32> {
    let t = &sk.terms;
    let read_of: HashMap<term::T, usize> = pr.reads.iter().enumerate().map(|(i, &r)| (sk.events[r as usize].val, i)).collect();
    // The reads a set of terms depends on, each term node visited once (`seen` shared).
    let reads_under = |roots: &[term::T], seen: &mut [bool], out: &mut Vec<usize>| t.walk(roots, seen, |x| out.extend(read_of.get(&x)));
    let mut best: Option<(usize, u32, Vec<usize>)> = None;
    for &(f, _) in &q.failures {
        let mut reads = Vec::new();
        reads_under(&[sk.events[f as usize].occ], &mut vec![false; t.len()], &mut reads);
        if best.as_ref().is_none_or(|b| (reads.len(), f) < (b.0, b.1)) {
            best = Some((reads.len(), f, reads));
        }
    }
    let mut order: Vec<u32> = Vec::new();
    let mut placed = vec![false; sk.instances.len()];
    placed[0] = true;
    let mut place = |i: u32, order: &mut Vec<u32>| {
        if !std::mem::replace(&mut placed[i as usize], true) {
            order.push(i);
        }
    };
    if let Some((_, f, mut reads)) = best {
        // The reads nearest the failure first: the last ones before it guard it most directly
        // (the earlier ones mostly decide how the thread got there).
        reads.sort_unstable_by(|a, b| b.cmp(a));
        place(sk.events[f as usize].thread, &mut order);
        let mut seen = vec![false; t.len()];
        let mut queued: HashSet<usize> = reads.iter().copied().collect();
        let mut queue: std::collections::VecDeque<usize> = reads.into();
        while let Some(ri) = queue.pop_front() {
            place(sk.events[pr.reads[ri] as usize].thread, &mut order);
            for src in &pr.may_copy[ri] {
                let prune::Source::Write(w) = src else { continue };
                let we = &sk.events[*w as usize];
                place(we.thread, &mut order);
                let mut more = Vec::new();
                reads_under(&[we.occ, we.addr, we.val], &mut seen, &mut more);
                for m in more {
                    if queued.insert(m) {
                        queue.push_back(m);
                    }
                }
            }
        }
    }
    for i in 1..sk.instances.len() as u32 {
        place(i, &mut order);
    }
    order
}

enum Attempt {
    Done(BoundedOutcome),
    /// The replay did not reach the failure: why, and whether it ran a loop past the bound.
    Rejected(String, bool),
    /// The candidate fails only through a value an over-approximation made up: why, in words.
    RestsOn(String),
}

/// The reason of an outcome left undecided because the search's deadline passed.
pub const SEARCH_BUDGET_SPENT: &str = "the search budget was spent";

fn unknown_from_solver(why: &str, opts: &BoundedOptions) -> BoundedOutcome {
    let timeout = why.contains("timeout") || why.contains("canceled");
    let reason = if timeout && opts.deadline.is_some_and(|d| Instant::now() + Duration::from_millis(200) >= d) {
        SEARCH_BUDGET_SPENT.to_string()
    } else if timeout {
        format!("solver timeout after {} s", opts.timeout.as_secs())
    } else {
        format!("solver gave up ({why})")
    };
    BoundedOutcome::Unknown { reason }
}

impl Candidate<'_> {
    /// Turns the current model into a schedule and replays it.
    fn confirm(&self, z3: &mut solve::Z3, q: &encode::Query, witness: &mut Option<crate::witness::Violation>, schedule: &mut Option<Vec<crate::interp::Step>>) -> Attempt {
        let Candidate { prog, layout, sk, enc, opts } = *self;
        let a = q.assert;
        let fail = q.failures.iter().find(|(_, sel)| match sk.terms.node(*sel) {
            term::Node::BSym(n) => z3.bsym(*n),
            _ => false,
        });
        let Some(&(f, _)) = fail else { return Attempt::Done(BoundedOutcome::Unknown { reason: "internal error: the model selects no failing instance".into() }) };
        let ex = witness::extract(prog, sk, enc, z3, f);
        let oracle = |addr: i128| z3.init(addr);
        let steps = crate::interp::minimise::minimise(prog, layout, &oracle, &ex.steps, a);
        match replay(prog, layout, &steps, &oracle, a) {
            Ok(trace) => {
                let shown = trace::steps(prog, layout, &trace);
                let text = format!("interleaving (replayed; bound: {}, {} per template):\n{}", trace::count(opts.unroll, "loop iteration"), trace::count(opts.threads, "thread"), trace::text(&shown));
                if opts.witness && witness.is_none() {
                    *witness = Some(crate::witness::violation(prog, &trace, a, "bounded"));
                }
                *schedule = Some(steps);
                Attempt::Done(BoundedOutcome::Violated { trace: text, steps: shown })
            }
            // The replay reached the failure only through a value the IR over-approximates: that
            // is no execution of the C program.
            Err(ReplayError::RestsOn(ap)) => Attempt::RestsOn(format!("a candidate violation rests on an over-approximation: {}", prog.approx_str(ap))),
            Err(e @ ReplayError::Fails { beyond_bound, .. }) => Attempt::Rejected(e.describe(prog), beyond_bound),
        }
    }
}
