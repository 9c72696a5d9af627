//! COARSEN (DUET's Algorithm 1): invariants that hold for every number of threads.
//!
//! The data module ([`absint`]) computes invariants on the data-flow graph ([`dfg`]); the
//! control module ([`facts`] and `rules/interference.dl`) derives from those invariants which
//! inter-thread data flows are feasible; the new flows go into the graph and the loop repeats
//! until no edge is added. The final invariants over-approximate every reachable thread state
//! (Theorem 5.2), so an assertion they imply is safe.
//!
//! # The loop
//!
//! A location's input for a cell is the join of what its DFG predecessors wrote there. The
//! control module exports the program (`cf`, `spawn`, `mod`/`kill`/`use`, locks, atomic
//! sections, what each `assume` needs) once, and each round only the truth values each
//! observable condition may take where a thread stands (`cond_val`): those are decided in Rust
//! with the numerical domain, because Datalog has no numbers. `rules/interference.dl` derives
//! `may_flow` (values an action may read when it executes) and `may_stand` (values of observed
//! cells while a thread waits); new tuples become DFG edges, the interpreter resumes from their
//! targets, and the loop stops when a round adds no edge. Since a round changes only
//! `cond_val`, the Datalog engine runs incrementally, and every other input is given to it as
//! *fixed* (`datalog::EngineConfig::fixed`), which lets it evaluate what those inputs alone
//! determine once and read it by lookup (`datalog/src/split.rs` says why that holds fewer rows).
//! Costs and the crepe comparison: `benchmarks/datalog/run.sh`, `benchmarks/datalog/results-*.md`.
//!
//! # Identical templates, arguments and results
//!
//! n identical templates pair every write of one with every read of the others (n² edges).
//! Two levels fold them: the rules see one template per group with identical facts
//! (`facts::Symmetry`), and the interpreter analyses one representative per group ([`fold`],
//! which says why that is sound); `Outcome::read_flows` expands a folded read's sources to every
//! member for the bounded search, and `--no-symmetry` turns both off
//! (`benchmarks/coarsen/results-20261127-scale.md`). A template's entry gives its parameter the
//! join, over the forks that create it, of the argument each passes (every instance starts from
//! one of them, so no fact is needed). For a *definite* join (`ir::joins`) the rules get
//! `join_waits`: the joiner cannot step past the join while the joined thread stands anywhere
//! but at an exit. If the joined thread stores its result (`$result@T`) on every path to an
//! exit, the join also defines the result's cell with no value of its own, so the joiner's
//! earlier definitions (the initial zero) no longer reach the read of the result.
//!
//! # Counting threads
//!
//! A counter that every thread changes by known amounts at known places (a reference count, a
//! reader count, a semaphore's free slots) equals the sum of the shares the threads hold where
//! they stand; [`tokens`] turns that into bounds each location's state is met with
//! (`Solver::floors`), for any number of threads.
//!
//! # The extra analysis
//!
//! When the first run leaves an assertion unproved, [`run`] analyses once more a rewritten
//! program that over-approximates this one (or has the same executions), taking only its
//! verdicts: its invariants speak of other locations, so the invariants, flows and witness stay
//! the first run's. The rewrites are chained in this order, each on the previous one's result:
//! [`publish`] (reads of published data), [`monotone`] (tests a growing global settles), [`twins`] with [`paths`] (equalities `main`
//! knows), [`counts`] (net counts after joins), [`partition`] (correlated locking) and
//! [`privatise`] (locks relative to the accessed object). Nothing in the rules changes. Each
//! module says what it does not cover.

pub(crate) mod absint;
pub(crate) mod cells;
pub(crate) mod conditions;
pub mod counts;
pub(crate) mod dfg;
pub(crate) mod explain;
pub(crate) mod facts;
pub(crate) mod fold;
pub mod locks;
pub mod monotone;
pub mod partition;
pub mod paths;
pub mod privatise;
pub mod publish;
pub(crate) mod report;
pub mod rules;
pub(crate) mod tokens;
pub(crate) mod transfer;
pub mod twins;
pub(crate) mod witness;

pub use cells::CellId;
pub use dfg::Use;

use crate::ir::joins;
use crate::ir::memory::stores_to;
use crate::ir::{AbsKind, AbsLoc, Action, AssertId, Expr, LocId, Program, TemplateId, VarKind};
use crate::verdict::Status;
use absint::Solver;
use domains::{Intervals, NumDomain, Octagon, Thresholds};
use hashbrown::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::Instant;

/// The numerical domain of the invariant analysis.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DomainKind {
    /// Intervals.
    #[default]
    Interval,
    /// Octagons over variable packs.
    Octagon,
}

/// How to run COARSEN.
#[derive(Clone, Debug, Default)]
pub struct CoarsenOptions {
    /// The numerical domain.
    pub domain: DomainKind,
    /// Interference rules from a file instead of the built-in ones.
    pub rules: Option<PathBuf>,
    /// Timely workers for the Datalog engine.
    pub workers: usize,
    /// Give the rules every thread template separately, even those with identical facts
    /// (see [`facts::Symmetry`]).
    pub no_symmetry: bool,
    /// Keep the Datalog facts of every round ([`Outcome::facts`]).
    pub dump_facts: bool,
    /// Explain assertions COARSEN leaves open ([`Outcome::explain`]).
    pub explain: Option<ExplainTarget>,
}

/// Which assertions `--explain` (or the HTML report) asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainTarget {
    /// Those on this line of the main file, proved or not (`--explain FILE:LINE`).
    Line(u32),
    /// Every assertion left open (`--html`).
    Open,
}

/// What one round cost and produced.
#[derive(Clone, Debug, Default)]
pub struct RoundStats {
    /// Round number, from 1.
    pub round: u32,
    /// Data-flow edges the round's interference analysis added.
    pub edges_added: usize,
    /// Seconds in the abstract interpreter before the round's Datalog run.
    pub absint_seconds: f64,
    /// Seconds in the Datalog engine.
    pub datalog_seconds: f64,
    /// Transfer-function evaluations in the abstract interpreter.
    pub evaluations: u64,
}

/// The verdict on one assertion.
#[derive(Clone, Debug)]
pub struct AssertionResult {
    /// Safe or unknown.
    pub status: Status,
    /// How it was proved, or why not.
    pub reason: String,
    /// The invariant that failed to imply it.
    pub detail: Option<String>,
    /// Safe because no thread reaches the assertion at all (see [`unreached`]).
    pub unreachable: bool,
}

/// Everything COARSEN found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// One result per assertion of the program.
    pub assertions: Vec<AssertionResult>,
    /// Per round.
    pub rounds: Vec<RoundStats>,
    /// The final data-flow graph, with cell names.
    pub dfg: dfg::Dfg,
    /// The cells.
    pub cells: cells::Cells,
    /// The invariant at every location (`None`: no thread reaches it), printed.
    pub invariants: Vec<Option<String>>,
    /// Sequential edges of the first graph.
    pub sequential_edges: usize,
    /// Where each read of a shared location of a representative may get its value (see
    /// [`Outcome::read_flows`]).
    folded_read_flows: Vec<(LocId, AbsLoc, LocId)>,
    /// Per location: the location whose invariant stands for it, itself unless its template
    /// was folded into an identical one ([`fold::Fold`]); the data-flow graph has edges only
    /// between such representatives.
    pub representative: Vec<LocId>,
    /// Bounds of shared locations where they are read, from the invariants.
    pub read_ranges: Vec<((LocId, AbsLoc), Range)>,
    /// Locations the interference rules never saw because an identical template stood for
    /// them ([`facts::Symmetry`]).
    pub folded_locations: usize,
    /// Per location, the bounds the invariant gives each abstract location it tracks there,
    /// before the action (empty where no thread reaches): the structured form of
    /// [`Outcome::invariants`], for correctness witnesses.
    pub bounds: Vec<Vec<(AbsLoc, Range)>>,
    /// The interference rules' input facts and derived flows, round by round, when
    /// [`CoarsenOptions::dump_facts`] asked for them.
    pub facts: Option<crate::dump::FactsDump>,
    /// Why the assertions [`CoarsenOptions::explain`] names are not proved.
    pub explain: Option<explain::Explanation>,
}

impl Outcome {
    /// Where each read of a shared location may get its value: `(write, location, read)`. A
    /// source is a location that stores (or the root's entry, for initial values); values
    /// that pass through an `assume`, or through a weak store, are traced back to their stores.
    /// A folded template's read may get what any member of its group stored.
    pub fn read_flows(&self) -> Vec<(LocId, AbsLoc, LocId)> {
        let mut members: HashMap<LocId, Vec<LocId>> = HashMap::new();
        for (i, r) in self.representative.iter().enumerate() {
            members.entry(*r).or_default().push(LocId(i as u32));
        }
        let of = |l: LocId| members.get(&l).map(|v| v.as_slice()).unwrap_or(&[]);
        let mut out = Vec::new();
        for &(s, a, v) in &self.folded_read_flows {
            for &w in of(v) {
                out.extend(of(s).iter().map(|&s1| (s1, a, w)));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The constants of the program, with their neighbours, as widening thresholds.
fn thresholds(prog: &Program) -> Thresholds {
    fn consts(e: &Expr, out: &mut Vec<i128>) {
        match e {
            Expr::Const(v, _) => out.push(*v),
            Expr::Unary(_, x, _) | Expr::Cast(_, x) => consts(x, out),
            Expr::Binary(_, a, b, _) => {
                consts(a, out);
                consts(b, out);
            }
            _ => {}
        }
    }
    let mut cs = vec![0, 1, -1];
    for loc in &prog.locs {
        match &loc.action {
            Action::Assign(_, e) | Action::Assume(e) | Action::Assert(_, e) => consts(e, &mut cs),
            _ => {}
        }
    }
    let mut all = Vec::with_capacity(cs.len() * 3);
    for c in cs {
        all.extend([c.saturating_sub(1), c, c.saturating_add(1)]);
    }
    Thresholds::new(all)
}

/// The template whose thread-local storage a cell lives in (`None` for shared cells and
/// thread-local globals, which every template has).
fn owner(prog: &Program, cells: &cells::Cells, c: CellId) -> Option<TemplateId> {
    if cells.cells[c.index()].shared {
        return None;
    }
    let a = cells.cells[c.index()].vars[0];
    match &prog.memory.info(a).kind {
        AbsKind::Var(v) | AbsKind::Cell(v, _) => match prog.var(*v).kind {
            VarKind::Local(t) | VarKind::Temp(t) => Some(t),
            _ => None,
        },
        AbsKind::Region(_) | AbsKind::Heap(..) => None,
    }
}

/// Runs COARSEN to its fixed point.
pub fn run(prog: &Program, opts: &CoarsenOptions) -> Result<Outcome, String> {
    let rules = rules::load(opts.rules.as_deref())?;
    let go = |p: &Program| match opts.domain {
        DomainKind::Interval => run_with::<Intervals>(p, opts, &rules),
        DomainKind::Octagon => run_with::<Octagon>(p, opts, &rules),
    };
    let mut out = go(prog)?;
    // Locks held on correlated paths (partition.rs), and locks relative to the accessed object
    // (privatise.rs): the rewritten program over-approximates this one, so what it proves
    // holds here. Its invariants speak of other locations, so only the verdicts are taken; the
    // rest of the outcome stays this program's.
    if out.assertions.iter().any(|a| a.status != Status::Safe) {
        // Equalities `main` knows, twin threads' among them (twins.rs), settle tests first;
        // the other rewrites keep its locations and variables.
        // Only a test the first run did not decide is worth another run: an `assume` some
        // thread got past, an `assert` not proved.
        let news = |l: LocId| match &prog.loc(l).action {
            Action::Assume(_) => prog.loc(l).succs.iter().any(|s| out.invariants[s.index()].is_some()),
            Action::Assert(id, _) => out.assertions[id.0 as usize].status != Status::Safe,
            _ => false,
        };
        // Tests that a monotone global decides (monotone.rs) are settled first: the rewrite
        // keeps every location, so the twins' `news` still speaks of the same ones.
        // Reads of published data (publish.rs) become the constant first: the rewrite keeps
        // every location and variable.
        let (published, data) = publish::rewrite(prog);
        let base0 = published.as_ref().unwrap_or(prog);
        let (settled, grown) = monotone::rewrite(base0);
        let zeroth = settled.as_ref().unwrap_or(base0);
        let (equal, twins) = twins::rewrite(zeroth, &news);
        let first = equal.as_ref().unwrap_or(zeroth);
        let counts = counts::facts(first);
        let counted = counts::rewrite(first, &counts);
        let start = counted.as_ref().unwrap_or(first);
        let partitioned = partition::partition(start);
        let split = partitioned.is_some();
        let base = partitioned.as_ref().unwrap_or(start);
        let plan = privatise::plan(base);
        let cached = privatise::rewrite(base, &plan);
        let mut how = Vec::new();
        if published.is_some() {
            how.push(format!("{} published (only ever stored one constant, read after that store or a flag set after it)", data.join(", ")));
        }
        if settled.is_some() {
            let names: Vec<&str> = grown.iter().map(|g| prog.var(*g).source_name.as_str()).collect();
            how.push(format!("{} only growing (every write a guarded increment that cannot wrap)", names.join(", ")));
        }
        if equal.is_some() {
            let mut names: Vec<String> = twins.iter().map(|t| format!("{} and {}", prog.template(t.first).name, prog.template(t.second).name)).collect();
            names.dedup();
            how.push(if names.is_empty() { "the equalities main knows".to_string() } else { format!("the equal results of the twin threads {}", names.join(", ")) });
        }
        if counted.is_some() {
            let mut names: Vec<&str> = counts.iter().map(|f| prog.var(f.var).source_name.as_str()).collect();
            names.dedup();
            how.push(format!("the net count of {} after joining its writers", names.join(", ")));
        }
        if split {
            how.push("locations split by the locks held".to_string());
        }
        if cached.is_some() {
            how.push(format!("{} cached under the lock of its object while held", plan.protected.join(", ")));
        }
        if let Some(rewritten) = cached.or(partitioned).or(counted).or(equal).or(settled).or(published) {
            // The rewritten program's locations are not the ones explained.
            let plain = CoarsenOptions { explain: None, ..opts.clone() };
            let more = match opts.domain {
                DomainKind::Interval => run_with::<Intervals>(&rewritten, &plain, &rules),
                DomainKind::Octagon => run_with::<Octagon>(&rewritten, &plain, &rules),
            }?;
            for (a, b) in out.assertions.iter_mut().zip(more.assertions) {
                if a.status != Status::Safe && b.status == Status::Safe {
                    *a = AssertionResult { status: Status::Safe, reason: format!("{}, with {}", b.reason, how.join(" and ")), detail: None, unreachable: b.unreachable };
                }
            }
            if let Some(e) = out.explain.as_mut() {
                e.settle(&out.assertions);
            }
        }
    }
    // Intervals lose what a test inside a critical section says about a global and a local
    // (`dev.len <= SIZE - n`); octagons over the packs that relate them keep it (cells.rs). Only
    // the verdicts are taken, as for the rewrites above.
    if opts.domain == DomainKind::Interval && out.assertions.iter().any(|a| a.status != Status::Safe) {
        let packs = cells::Cells::build(prog, true);
        let mut related: Vec<String> =
            packs.cells.iter().filter(|c| c.mixed()).flat_map(|c| c.vars.iter().filter(|a| prog.memory.info(**a).shared)).map(|a| crate::ir::display::source_name(prog, *a)).collect();
        related.sort();
        related.dedup();
        if !related.is_empty() {
            let plain = CoarsenOptions { explain: None, domain: DomainKind::Octagon, ..opts.clone() };
            let more = run_with::<Octagon>(prog, &plain, &rules)?;
            for (a, b) in out.assertions.iter_mut().zip(more.assertions) {
                if a.status != Status::Safe && b.status == Status::Safe {
                    let (it, its) = if related.len() > 1 { ("them", "their locks") } else { ("it", "its lock") };
                    let how = format!("octagons relating {} to the locals tested against {it} under {its}", related.join(", "));
                    *a = AssertionResult { status: Status::Safe, reason: format!("{}, with {how}", b.reason), detail: None, unreachable: b.unreachable };
                }
            }
            if let Some(e) = out.explain.as_mut() {
                e.settle(&out.assertions);
            }
        }
    }
    Ok(out)
}

/// The cells each location's action reads (a pack it writes keeps its other variables).
fn needed_cells(cells: &cells::Cells, n: usize, relational: bool) -> Vec<Vec<CellId>> {
    (0..n)
        .map(|i| {
            let mut v = cells.refs[i].clone();
            if relational {
                v.extend(cells.mods[i].iter().copied());
            }
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect()
}

fn run_with<D: NumDomain>(prog: &Program, opts: &CoarsenOptions, rules: &datalog::Program) -> Result<Outcome, String> {
    let symmetry = !opts.no_symmetry;
    let relational = opts.domain == DomainKind::Octagon;
    let cells = cells::Cells::build(prog, relational);
    let conds = conditions::extract(prog, &cells);
    let n = prog.locs.len();

    let mut need = needed_cells(&cells, n, relational);
    // The cells of observable conditions are tracked wherever a thread stands: the invariant
    // there must tell which conditions may hold.
    let observed = conds.cells.clone();
    let mut defs: Vec<Vec<CellId>> = cells.mods.clone();
    for (ti, t) in prog.templates.iter().enumerate() {
        let root = ti == 0;
        let entry_defs: Vec<CellId> = (0..cells.len() as u32)
            .map(CellId)
            .filter(|&c| {
                let cell = &cells.cells[c.index()];
                // Every thread starts its locals in a mixed cell; the shared part it finds
                // comes from the threads that wrote it (`absint::Solver`).
                match owner(prog, &cells, c) {
                    Some(o) => o.index() == ti,
                    None => root || !cell.shared || cell.mixed(),
                }
            })
            .collect();
        defs[t.entry.index()] = entry_defs;
        // The entry only initialises: it reads nothing.
        need[t.entry.index()].clear();
    }
    // After a definite join, a joined thread's result holds only the thread's own stores: the
    // join defines the result's cell with no value of its own (`voids`), which ends the reach
    // of the joiner's earlier definitions; the thread's stores arrive through interference.
    let mut voids: Vec<Vec<CellId>> = vec![Vec::new(); n];
    for (a, x) in joins::results(prog) {
        let c = cells.cell_of(x);
        // In a pack, the join would also hide the other variables' values.
        if cells.cells[c.index()].vars.len() == 1 && !defs[a.index()].contains(&c) {
            defs[a.index()].push(c);
            defs[a.index()].sort_unstable();
            voids[a.index()].push(c);
        }
    }
    let tracked: Vec<Vec<CellId>> = need
        .iter()
        .map(|v| {
            let mut t = v.clone();
            t.extend(observed.iter().copied());
            t.sort_unstable();
            t.dedup();
            t
        })
        .collect();
    // Identical templates are analysed once, as their representative (fold.rs).
    let joined: HashSet<TemplateId> = joins::definite(prog).into_iter().map(|(_, t)| t).collect();
    let fold = if symmetry { fold::Fold::build(prog, &cells, &joined) } else { fold::Fold::identity(prog) };
    let folded_prog = fold.program(prog);
    let aprog = folded_prog.as_ref().unwrap_or(prog);
    let mut dfg = dfg::sequential(aprog, &defs, &tracked, &|t| fold.is_folded(t));
    let sequential_edges = dfg.len();
    let mut solver: Solver<D> = Solver::new(aprog, &cells, need.clone(), observed.clone(), defs, thresholds(prog));
    solver.voids = voids;
    // A folded location stands for its members: it takes the bounds that hold at all of them.
    let floors = tokens::floors(prog);
    for v in prog.loc_ids().filter(|v| fold.rep[v.index()] == *v) {
        let members = fold.members(v);
        let weakest = |&(x, s, _): &(AbsLoc, i128, i128)| members.iter().map(|m| floors[m.index()].iter().find(|b| b.0 == x && b.1 == s).map(|b| b.2)).min().flatten().map(|f| (x, s, f));
        solver.floors[v.index()] = floors[v.index()].iter().filter_map(weakest).collect();
    }
    for &(from, _, to, _, _) in &dfg.edges() {
        solver.edge_added(from, to);
    }

    let start = Instant::now();
    solver.solve(&dfg, prog.loc_ids());
    solver.narrow(&dfg);
    let mut absint_seconds = start.elapsed().as_secs_f64();

    let mut interference = facts::Interference::new(rules, prog, &cells, &conds, &need, opts.workers.max(1), symmetry, opts.dump_facts, opts.explain.is_some())?;
    let mut rounds = Vec::new();
    for round in 1u32.. {
        let cond_val = cond_values(prog, aprog, &fold, &solver, &dfg, &conds);
        let t0 = Instant::now();
        let flows = interference.round(cond_val, &fold.rep)?;
        let datalog_seconds = t0.elapsed().as_secs_f64();
        let mut targets = Vec::new();
        for (usage, [u, c, v]) in flows {
            let (u, c, v) = (LocId(u), CellId(c), LocId(v));
            if u.index() >= n || v.index() >= n || c.index() >= cells.len() {
                return Err(format!("the rules derived a data flow ({}, {}, {}) that names no location or cell", u.0, c.0, v.0));
            }
            if dfg.add_interference(u, c, v, round, usage, cells.cells[c.index()].mixed()) {
                solver.edge_added(u, v);
                targets.push(v);
            }
        }
        rounds.push(RoundStats { round, edges_added: targets.len(), absint_seconds, datalog_seconds, evaluations: solver.evaluations });
        if targets.is_empty() {
            break;
        }
        let t1 = Instant::now();
        targets.sort_unstable();
        targets.dedup();
        solver.solve(&dfg, targets);
        solver.narrow(&dfg);
        absint_seconds = t1.elapsed().as_secs_f64();
    }

    // A folded location has its representative's state (over the representative's frame),
    // reported over its own template's variables.
    let mut invariants = Vec::with_capacity(n);
    let mut states: Vec<Option<D>> = Vec::with_capacity(n);
    for v in prog.loc_ids() {
        let r = fold.rep[v.index()];
        let st = if r == v { solver.input(&dfg, v) } else { states[r.index()].clone() };
        let locs: Vec<AbsLoc> = solver.frames[r.index()].dims.iter().map(|a| fold.to_copy(prog, v, *a)).collect();
        let ns: Vec<String> = locs.iter().map(|a| crate::ir::display::source_name(prog, *a)).collect();
        invariants.push(st.as_ref().map(|s| pretty(prog, s, &locs, &ns)));
        states.push(st);
    }
    let bounds = prog
        .loc_ids()
        .map(|v| {
            let frame = &solver.frames[fold.rep[v.index()].index()];
            states[v.index()].as_ref().map(|st| frame_bounds(st, frame).into_iter().map(|(a, r)| (fold.to_copy(prog, v, a), r)).collect()).unwrap_or_default()
        })
        .collect();
    let (folded_read_flows, rep_ranges) = read_facts(aprog, &cells, &dfg, &states, &solver.frames, &fold.rep);
    let read_ranges = rep_ranges.into_iter().flat_map(|((v, a), r)| fold.members(v).iter().map(move |&w| ((w, a), r)).collect::<Vec<_>>()).collect();
    let assertions: Vec<AssertionResult> = prog.assertions.iter().enumerate().map(|(i, a)| judge(prog, AssertId(i as u32), a, &states, &solver.frames, &fold)).collect();
    let explain = opts.explain.map(|target| {
        let run = explain::Run {
            prog,
            rules,
            rules_file: opts.rules.as_deref(),
            interference: &interference,
            dfg: &dfg,
            rep: &fold.rep,
            cells: &cells,
            conds: &conds,
            results: &assertions,
            rounds: rounds.len(),
            workers: opts.workers.max(1),
        };
        explain::explain(&run, target)
    });
    let folded_locations = interference.folded();
    let facts = interference.take_dump();
    let representative = fold.rep;
    Ok(Outcome { assertions, rounds, dfg, cells, invariants, sequential_edges, folded_read_flows, representative, read_ranges, folded_locations, bounds, facts, explain })
}

/// The `cond_val` facts of a round: which observable conditions may hold, and which may fail,
/// where each thread stands. Conditions read only shared cells, which every frame tracks: a
/// folded location's values are its representative's.
fn cond_values<D: NumDomain>(prog: &Program, aprog: &Program, fold: &fold::Fold, solver: &Solver<D>, dfg: &dfg::Dfg, conds: &conditions::Conditions) -> HashSet<[u32; 3]> {
    let mut cond_val: HashSet<[u32; 3]> = HashSet::new();
    let mut at_rep: HashMap<LocId, Vec<(u32, u32)>> = HashMap::new();
    for v in prog.loc_ids() {
        let r = fold.rep[v.index()];
        if r != v {
            cond_val.extend(at_rep.get(&r).into_iter().flatten().map(|&(i, b)| [v.0, i, b]));
            continue;
        }
        let Some(st) = solver.standing(dfg, v) else { continue };
        let frame = &solver.frames[v.index()];
        let mut vals = Vec::new();
        for (i, c) in conds.conds.iter().enumerate() {
            let (t, f) = transfer::may_hold(aprog, frame, &st, c);
            if t {
                vals.push((i as u32, 1));
            }
            if f {
                vals.push((i as u32, 0));
            }
        }
        cond_val.extend(vals.iter().map(|&(i, b)| [v.0, i, b]));
        if fold.members(v).len() > 1 {
            at_rep.insert(v, vals);
        }
    }
    cond_val
}

/// The bounds a state gives every abstract location of its frame.
fn frame_bounds<D: NumDomain>(st: &D, frame: &transfer::Frame) -> Vec<(AbsLoc, Range)> {
    use domains::Bound;
    let fin = |x: Bound| match x {
        Bound::Fin(n) => Some(n),
        _ => None,
    };
    frame
        .dims
        .iter()
        .enumerate()
        .map(|(d, a)| {
            let b = st.bounds_of(d);
            (*a, (fin(b.lo()), fin(b.hi())))
        })
        .collect()
}

/// Bounds of a value (`None`: unbounded on that side).
pub type Range = (Option<i128>, Option<i128>);

/// The stores each shared read may copy, and the bounds of what it reads.
#[allow(clippy::type_complexity)]
fn read_facts<D: NumDomain>(
    prog: &Program,
    cells: &cells::Cells,
    dfg: &dfg::Dfg,
    states: &[Option<D>],
    frames: &[transfer::Frame],
    rep: &[LocId],
) -> (Vec<(LocId, AbsLoc, LocId)>, Vec<((LocId, AbsLoc), Range)>) {
    use domains::Bound;
    // The stores behind the values that reach `v` in cell `c`: walking back along execution
    // edges, a store ends the walk unless it is weak (it kept older values), and a refinement
    // (assume, assert) passes values on without storing.
    let sources = |v: LocId, a: AbsLoc| -> Vec<LocId> {
        let c = cells.cell_of(a);
        let mut out = Vec::new();
        let mut seen: HashSet<LocId> = HashSet::new();
        let mut stack: Vec<LocId> = dfg.incoming[v.index()].iter().filter(|(cc, _, u)| *cc == c && *u == dfg::Use::Exec).map(|(_, w, _)| *w).collect();
        while let Some(u) = stack.pop() {
            if !seen.insert(u) {
                continue;
            }
            let entry_of = prog.templates.iter().position(|t| t.entry == u);
            // A thread's start gives a mixed cell's locals only: what the thread found in the
            // shared part arrives through the interference edges.
            if entry_of.is_some_and(|t| t != 0) && cells.cells[c.index()].mixed() {
                continue;
            }
            let entry = entry_of.is_some();
            // In a pack, a store to another variable passes `a` on unchanged.
            let writes_a = stores_to(prog, u, a);
            let stores = entry || writes_a;
            if stores {
                out.push(u);
            }
            let strong = entry || (writes_a && prog.memory.access(u).kills.contains(&a));
            if !strong {
                stack.extend(dfg.incoming[u.index()].iter().filter(|(cc, _, usage)| *cc == c && *usage == dfg::Use::Exec).map(|(_, w, _)| *w));
            }
        }
        out.sort_unstable();
        out
    };
    let mut flows = Vec::new();
    let mut ranges = Vec::new();
    for v in prog.loc_ids().filter(|v| rep[v.index()] == *v) {
        let Some(st) = &states[v.index()] else { continue };
        for a in &prog.memory.access(v).refs {
            if !prog.memory.info(*a).shared {
                continue;
            }
            for s in sources(v, *a) {
                flows.push((s, *a, v));
            }
            if let Some(d) = frames[v.index()].pos(*a) {
                let b = st.bounds_of(d);
                let fin = |x: Bound| match x {
                    Bound::Fin(n) => Some(n),
                    _ => None,
                };
                ranges.push(((v, *a), (fin(b.lo()), fin(b.hi()))));
            }
        }
    }
    flows.sort_unstable();
    flows.dedup();
    (flows, ranges)
}

/// The invariant as a user reads it, over source names (`locs` are the state's dimensions).
/// Conjuncts on compiler temporaries (`$r21` is no source variable) and bounds equal to a
/// type's own extreme (`p <= 18446744073709551615` for an unsigned long says nothing) are left
/// out of the text; the invariant itself is unchanged.
fn pretty<D: NumDomain>(prog: &Program, st: &D, locs: &[AbsLoc], names: &[String]) -> String {
    let hidden = |d: usize| prog.memory.info(locs[d]).name.starts_with('$');
    let cons = st.to_constraints();
    // `a·x + k >= 0` with a = ±1 is `x >= -k` or `x <= k`: (dimension, is lower, bound).
    let one_bound = |c: &domains::LinCons| match (c.expr.terms(), c.kind) {
        (&[(d, 1)], domains::ConsKind::Ge0) => c.expr.cst().checked_neg().map(|m| (d, true, m)),
        (&[(d, -1)], domains::ConsKind::Ge0) => Some((d, false, c.expr.cst())),
        _ => None,
    };
    let bounds: Vec<(usize, bool, i128)> = cons.iter().filter_map(one_bound).collect();
    // A variable at its type's extreme (`b == 1` for a `_Bool`) keeps both bounds.
    let point = |d: usize, v: i128| [true, false].iter().all(|&side| bounds.contains(&(d, side, v)));
    let says_nothing = |c: &domains::LinCons| {
        let Some((d, lower, v)) = one_bound(c) else { return false };
        let Some((lo, hi)) = prog.memory.info(locs[d]).ty.range(prog.data_model) else { return false };
        ((lower && v <= lo) || (!lower && v >= hi)) && !point(d, v)
    };
    let kept: Vec<domains::LinCons> = cons.iter().filter(|c| !c.expr.terms().iter().any(|&(d, _)| hidden(d)) && !says_nothing(c)).cloned().collect();
    let text = domains::format_constraints(&kept, &|d| names[d].clone());
    if text.is_empty() {
        "true".into()
    } else {
        text
    }
}

/// Decides one assertion from the invariants at its instances.
/// An instance in a folded template is judged by its representative's condition and state.
fn judge<D: NumDomain>(prog: &Program, id: AssertId, a: &crate::ir::Assertion, states: &[Option<D>], frames: &[transfer::Frame], fold: &fold::Fold) -> AssertionResult {
    let mut proved = Vec::new();
    for &l in &a.locs {
        let r = fold.rep[l.index()];
        let Action::Assert(aid, cond) = &prog.loc(r).action else { continue };
        debug_assert!(r != l || *aid == id);
        let Some(st) = &states[l.index()] else { continue };
        let (_, may_fail) = transfer::may_hold(prog, &frames[r.index()], st, cond);
        if may_fail {
            let template = &prog.template(prog.loc(l).template).name;
            let (at, inv) = shown_invariant(prog, r, cond, states, frames, &|x| fold.to_copy(prog, l, x));
            let at = fold.to_copy_loc(prog, l, at);
            return AssertionResult {
                status: Status::Unknown,
                reason: format!("not proved: the invariant at line {} (thread {template}) does not imply it", prog.loc(at).span.line),
                detail: Some(format!("invariant: {inv}")),
                unreachable: false,
            };
        }
        proved.push(l);
    }
    if proved.is_empty() {
        // `assert` from <assert.h> and `reach_error()` are failure calls on a branch: they are
        // proved when no thread can take that branch.
        let preds = prog.predecessors();
        if a.locs.iter().all(|&l| unreached(prog, a, l, states, &preds)) {
            AssertionResult { status: Status::Safe, reason: "safe: unreachable (no thread reaches the assertion)".into(), detail: None, unreachable: true }
        } else {
            AssertionResult { status: Status::Safe, reason: "safe: the failing branch is infeasible (no thread reaches the failure)".into(), detail: None, unreachable: false }
        }
    } else {
        let mut lines: Vec<u32> = proved.iter().map(|&l| prog.loc(l).span.line).collect();
        lines.sort_unstable();
        lines.dedup();
        let at = lines.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ");
        let s = if lines.len() > 1 { "s" } else { "" };
        AssertionResult { status: Status::Safe, reason: format!("safe: proved by the invariant at line{s} {at}"), detail: None, unreachable: false }
    }
}

/// Whether no thread reaches the assertion instance at `l` itself, not only its failure. An
/// assertion whose condition reads the program (`assert(c)`, `__VERIFIER_assert(c)`) is tested
/// at `l`. A failure call has the constant condition `0` and may stand on a branch of the
/// assertion's own test (`assert` from <assert.h>, a condition with `&&`, a one-line
/// `if (!c) reach_error()`): walking back from it over unreached locations, a reached `assume`
/// on the assertion's source line is that test, so the assertion is reached and only its
/// failing branch is infeasible. A test on another line is the program's, guarding dead code.
fn unreached<D: NumDomain>(prog: &Program, a: &crate::ir::Assertion, l: LocId, states: &[Option<D>], preds: &[Vec<LocId>]) -> bool {
    if states[l.index()].is_some() {
        return false;
    }
    let Action::Assert(_, cond) = &prog.loc(l).action else { return true };
    let mut reads_nothing = true;
    cond.for_each_load(&mut |_| reads_nothing = false);
    if !reads_nothing {
        return true;
    }
    let own_line = |p: LocId| {
        let s = prog.loc(p).span;
        s.file == a.span.file && s.line == a.span.line
    };
    let mut seen: HashSet<LocId> = HashSet::new();
    let mut stack = vec![l];
    while let Some(u) = stack.pop() {
        for &p in &preds[u.index()] {
            if !seen.insert(p) {
                continue;
            }
            match (&prog.loc(p).action, states[p.index()].is_some()) {
                (Action::Assume(_), true) if own_line(p) => return false,
                // The program's own test, or a reached action that never completes: the
                // assertion is not reached this way.
                (_, true) => {}
                (_, false) => stack.push(p),
            }
        }
    }
    true
}

/// The location and text of the invariant that explains an unproved assertion, over the
/// program variables its condition reads (temporaries are hidden). A failure call on a
/// branch (`assert` from <assert.h>, `if (!c) reach_error()`) has the constant condition
/// `0`: its condition is the `assume` that guards the branch, and the invariant shown is the
/// one where that condition is tested, before the branch refines it.
fn shown_invariant<D: NumDomain>(prog: &Program, l: LocId, cond: &Expr, states: &[Option<D>], frames: &[transfer::Frame], copy: &dyn Fn(AbsLoc) -> AbsLoc) -> (LocId, String) {
    let mut at = l;
    let mut cond = cond;
    let mut reads_nothing = true;
    cond.for_each_load(&mut |_| reads_nothing = false);
    if reads_nothing {
        let preds = prog.predecessors();
        let guard = preds[l.index()].iter().find_map(|&p| match &prog.loc(p).action {
            Action::Assume(c) if states[p.index()].is_some() => Some((p, c)),
            _ => None,
        });
        if let Some((p, c)) = guard {
            at = p;
            cond = c;
        }
    }
    let (Some(st), frame) = (&states[at.index()], &frames[at.index()]) else { return (l, "false".into()) };
    let mut vars = Vec::new();
    cond.for_each_load(&mut |lv| {
        if let Some(x) = prog.memory.lookup(prog, lv).and_then(|x| frame.pos(x)) {
            vars.push(x);
        }
    });
    vars.retain(|&d| !prog.memory.info(frame.dims[d]).name.starts_with('$'));
    vars.sort_unstable();
    vars.dedup();
    let locs: Vec<AbsLoc> = vars.iter().map(|&d| copy(frame.dims[d])).collect();
    let names: Vec<String> = locs.iter().map(|a| crate::ir::display::source_name(prog, *a)).collect();
    (at, pretty(prog, &st.project(&vars), &locs, &names))
}
