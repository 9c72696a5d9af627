//! The data module: a worklist abstract interpreter over the data-flow graph (DUET §3.1,
//! Definition 3.4). A location's input for a cell is the join of what its DFG predecessors
//! wrote into that cell; its output cells are what its action writes. Widening applies at the
//! targets of edges that go backwards in the location order (every cycle has one); a
//! narrowing pass follows, and a final check re-establishes a post-fixpoint.

use super::cells::{CellId, Cells};
use super::dfg::{Dfg, Use};
use super::transfer::{self, Frame};
use crate::ir::{AbsKind, LocId, Program, TemplateId, VarKind};
use domains::{Interval, NumDomain, Thresholds};
use std::collections::BTreeSet;

/// Updates at a widening point before widening starts.
const WIDEN_DELAY: u32 = 2;
/// Descending iterations after the ascending one.
const NARROW_PASSES: usize = 2;

/// The state of the fixpoint computation.
pub(crate) struct Solver<'a, D: NumDomain> {
    prog: &'a Program,
    cells: &'a Cells,
    /// Per location: the cells whose incoming values its action reads.
    pub need: Vec<Vec<CellId>>,
    /// The cells of observable conditions, whose values matter wherever a thread stands.
    pub observed: Vec<CellId>,
    /// Per location: the cells it writes (for template entries: the cells they initialise).
    pub defs: Vec<Vec<CellId>>,
    /// Per location: the abstract locations of its state.
    pub frames: Vec<Frame>,
    out: Vec<Vec<D>>,
    reach: Vec<bool>,
    widen: Vec<bool>,
    updates: Vec<u32>,
    thresholds: Thresholds,
    preds: Vec<Vec<LocId>>,
    /// For template entries: the fork locations that start the template.
    spawners: Vec<Vec<LocId>>,
    entry_of: Vec<Option<TemplateId>>,
    /// Per fork location whose template has a parameter: the values of the argument it
    /// passes, in the fork's current input (empty while the fork is unreachable).
    fork_args: Vec<Interval>,
    /// Per location: the mixed cells whose shared part no other thread can change before its
    /// action ([`Cells::settled`]).
    pub settled: Vec<Vec<CellId>>,
    /// Per location: cells among its definitions that it writes no value into (a definite
    /// join's thread result, see `joins::results`).
    pub voids: Vec<Vec<CellId>>,
    /// Per location: bounds `s·x >= v` of counters that hold wherever a thread stands there
    /// ([`super::tokens`]).
    pub floors: Vec<Vec<(crate::ir::AbsLoc, i128, i128)>>,
    /// Transfer-function evaluations, for statistics.
    pub evaluations: u64,
    closed: bool,
}

/// Whether every object reachable through a pointer when the program starts is a global
/// (zero-initialised): no heap allocation, no library function that could hand out its own
/// memory, no pointer arriving from outside through a thread's parameters, no strings.
fn closed_world(prog: &Program) -> bool {
    let allocates = prog.locs.iter().any(|l| matches!(l.action, crate::ir::Action::Alloc(..)));
    let outside = prog.templates.iter().any(|t| t.params.iter().any(|p| matches!(prog.var(*p).ty, crate::ir::CType::Pointer(_))));
    !allocates && prog.external_calls.is_empty() && !outside
}

/// The value of an abstract location when its thread (or the program) starts.
fn initial(prog: &Program, a: crate::ir::AbsLoc, root: bool, closed: bool) -> Interval {
    let info = prog.memory.info(a);
    let zero = Interval::point(0);
    match &info.kind {
        AbsKind::Var(v) | AbsKind::Cell(v, _) => match prog.var(*v).kind {
            // C zero-initialises objects of static storage duration.
            VarKind::Global if root => zero,
            VarKind::ThreadLocal => zero,
            _ => transfer::type_range(prog, info.ty),
        },
        // At the start only globals exist; objects created later (locals, which the IR
        // initialises when declared) are written before anyone reads them. Characters are
        // excluded because string literals live there.
        AbsKind::Region(r) if root && closed && r != "int8" => zero,
        AbsKind::Region(_) | AbsKind::Heap(..) => transfer::type_range(prog, info.ty),
    }
}

impl<'a, D: NumDomain> Solver<'a, D> {
    /// A solver with every output at bottom.
    pub(crate) fn new(prog: &'a Program, cells: &'a Cells, need: Vec<Vec<CellId>>, observed: Vec<CellId>, defs: Vec<Vec<CellId>>, thresholds: Thresholds) -> Self {
        let n = prog.locs.len();
        let frames = (0..n)
            .map(|i| {
                let mut dims: Vec<_> = need[i].iter().chain(defs[i].iter()).chain(observed.iter()).flat_map(|c| cells.cells[c.index()].vars.iter().copied()).collect();
                dims.sort_unstable();
                dims.dedup();
                Frame { dims }
            })
            .collect();
        let out = defs.iter().map(|ds| ds.iter().map(|c| D::bottom(cells.cells[c.index()].vars.len())).collect()).collect();
        let mut spawners = vec![Vec::new(); n];
        let mut entry_of = vec![None; n];
        for (i, t) in prog.templates.iter().enumerate() {
            entry_of[t.entry.index()] = Some(TemplateId(i as u32));
            spawners[t.entry.index()] = t.spawned_at.clone();
        }
        let preds = prog.predecessors();
        // A template's entry takes its parameter from its forks, which may sit in loops that
        // feed on the thread's own results: it widens like a loop head.
        let widen = (0..n).map(|v| preds[v].iter().any(|u| u.index() >= v) || entry_of[v].is_some_and(|t| bound_param(prog, t).is_some())).collect();
        Solver {
            prog,
            cells,
            need,
            observed,
            defs,
            frames,
            out,
            reach: vec![false; n],
            widen,
            updates: vec![0; n],
            thresholds,
            preds,
            spawners,
            entry_of,
            fork_args: vec![Interval::EMPTY; n],
            voids: vec![Vec::new(); n],
            floors: vec![Vec::new(); n],
            settled: cells.settled(prog),
            evaluations: 0,
            closed: closed_world(prog),
        }
    }

    /// Records that an edge was added, for widening points.
    pub(crate) fn edge_added(&mut self, from: LocId, to: LocId) {
        if from.index() >= to.index() {
            self.widen[to.index()] = true;
        }
    }

    /// Whether some thread can stand at `v`, as far as control flow says.
    fn reach_in(&self, v: LocId) -> bool {
        match self.entry_of[v.index()] {
            Some(TemplateId(0)) => true,
            Some(_) => self.spawners[v.index()].iter().any(|s| self.reach[s.index()]),
            None => self.preds[v.index()].iter().any(|u| self.reach[u.index()]),
        }
    }

    /// What `u` wrote into cell `c`, if `u` writes it.
    fn out_value(&self, u: LocId, c: CellId) -> Option<&D> {
        let i = self.defs[u.index()].binary_search(&c).ok()?;
        Some(&self.out[u.index()][i])
    }

    /// The non-empty values the edges into `v` bring for cell `c`, with their sources; standing
    /// edges only when `standing`.
    fn incoming_values<'s>(&'s self, dfg: &'s Dfg, v: LocId, c: CellId, standing: bool) -> impl Iterator<Item = (LocId, &'s D)> + 's {
        let incoming = &dfg.incoming[v.index()];
        let lo = incoming.partition_point(|(cc, _, _)| *cc < c);
        incoming[lo..]
            .iter()
            .take_while(move |(cc, _, _)| *cc == c)
            .filter(move |(_, _, usage)| standing || *usage != Use::Stand)
            .filter_map(move |(_, u, _)| self.out_value(*u, c).filter(|val| !val.is_bottom()).map(|val| (*u, val)))
    }

    /// The state in which `v`'s action executes, over its frame, or `None` when it never
    /// executes. Cells the action does not read are unconstrained.
    pub(crate) fn input(&self, dfg: &Dfg, v: LocId) -> Option<D> {
        self.state(dfg, v, &self.need[v.index()], false)
    }

    /// The observable cells while a thread stands at `v`, executing or not, or `None` when no
    /// thread can stand there.
    pub(crate) fn standing(&self, dfg: &Dfg, v: LocId) -> Option<D> {
        self.state(dfg, v, &self.observed, true)
    }

    fn state(&self, dfg: &Dfg, v: LocId, cells: &[CellId], standing: bool) -> Option<D> {
        if !self.reach_in(v) {
            return None;
        }
        let frame = &self.frames[v.index()];
        let mut st = D::top(frame.dims.len());
        for &c in cells {
            let value = if self.cells.cells[c.index()].mixed() {
                self.mixed_value(dfg, v, c, standing)?
            } else {
                let mut acc: Option<D> = None;
                for (_, val) in self.incoming_values(dfg, v, c, standing) {
                    match &mut acc {
                        None => acc = Some(val.clone()),
                        Some(a) => a.join_with(val),
                    }
                }
                acc?
            };
            embed(&mut st, &value, &self.cells.cells[c.index()].vars, frame);
            if st.is_bottom() {
                return None;
            }
        }
        // What the threads' tokens say of a counter holds in every state with a thread here.
        for &(x, s, floor) in &self.floors[v.index()] {
            if let (Some(d), Some(c)) = (frame.pos(x), floor.checked_neg()) {
                st.guard(&domains::LinCons::ge0(domains::LinExpr::term(d, s).with_constant(c)));
            }
        }
        if st.is_bottom() {
            return None;
        }
        Some(st)
    }

    /// The value of mixed cell `c` (shared locations packed with locals) where `v` reads it.
    ///
    /// The thread's locals change only along its own control flow, and a write of the shared
    /// part by any thread is an interference fact. So either no other thread wrote the shared
    /// part since the thread's last definition of the cell (a sequential edge) and the cell is
    /// what that definition left, or another thread's write is the last one (an interference
    /// edge): then the shared part is what that write left, and the locals are the thread's own,
    /// related to it by nothing. A template's entry (but the root's) gives the thread's locals
    /// only: the shared part a thread finds when it starts is some other thread's write. Where
    /// the cell is settled, no other thread's write can be current but through the thread's
    /// own earlier action.
    fn mixed_value(&self, dfg: &Dfg, v: LocId, c: CellId, standing: bool) -> Option<D> {
        let cell = &self.cells.cells[c.index()];
        let join = |acc: &mut Option<D>, val: &D| match acc {
            None => *acc = Some(val.clone()),
            Some(a) => a.join_with(val),
        };
        let (mut full, mut own, mut other): (Option<D>, Option<D>, Option<D>) = (None, None, None);
        let settled = self.settled[v.index()].contains(&c);
        for (u, val) in self.incoming_values(dfg, v, c, standing) {
            let sequential = dfg.is_sequential(u, c, v);
            if sequential {
                join(&mut own, val);
                if self.entry_of[u.index()].is_none_or(|t| t == TemplateId(0)) {
                    join(&mut full, val);
                }
            }
            if (!sequential || dfg.cross.contains(&(u, c, v))) && !settled {
                join(&mut other, val);
            }
        }
        if let Some(mut o) = other {
            for &k in &cell.locals {
                o.forget(k);
            }
            let mut locals = own.unwrap_or_else(|| D::top(cell.vars.len()));
            for k in (0..cell.vars.len()).filter(|k| !cell.locals.contains(k)) {
                locals.forget(k);
            }
            o.meet_with(&locals);
            join(&mut full, &o);
        }
        full
    }

    /// The outputs `v` would write now, and whether a thread can get past it.
    fn evaluate(&mut self, dfg: &Dfg, v: LocId) -> (Vec<D>, bool) {
        self.evaluations += 1;
        let cells = self.cells;
        let bottoms = || self.defs[v.index()].iter().map(|c| D::bottom(cells.cells[c.index()].vars.len())).collect::<Vec<D>>();
        if let Some(t) = self.entry_of[v.index()] {
            if !self.reach_in(v) {
                return (bottoms(), false);
            }
            let root = t == TemplateId(0);
            let param = bound_param(self.prog, t).map(|p| (p, self.param_value(t, p)));
            let vals = self.defs[v.index()]
                .iter()
                .map(|c| {
                    let vars = &cells.cells[c.index()].vars;
                    let mut d = D::top(vars.len());
                    for (k, a) in vars.iter().enumerate() {
                        let value = match (&param, &self.prog.memory.info(*a).kind) {
                            (Some((p, value)), AbsKind::Var(x)) if x == p => *value,
                            _ => initial(self.prog, *a, root, self.closed),
                        };
                        d.assign_interval(k, value);
                    }
                    d
                })
                .collect();
            return (vals, true);
        }
        let Some(mut st) = self.input(dfg, v) else { return (bottoms(), false) };
        let frame = &self.frames[v.index()];
        transfer::post(self.prog, frame, &mut st, &self.prog.loc(v).action);
        if st.is_bottom() {
            return (bottoms(), false);
        }
        let voids = &self.voids[v.index()];
        let vals = self.defs[v.index()].iter().map(|c| if voids.contains(c) { D::bottom(cells.cells[c.index()].vars.len()) } else { project(&st, &cells.cells[c.index()].vars, frame) }).collect();
        (vals, true)
    }

    /// Iterates from the given locations until nothing changes.
    pub(crate) fn solve(&mut self, dfg: &Dfg, seeds: impl IntoIterator<Item = LocId>) {
        let mut work: BTreeSet<u32> = seeds.into_iter().map(|l| l.0).collect();
        while let Some(v) = work.pop_first() {
            let v = LocId(v);
            let (vals, reach) = self.evaluate(dfg, v);
            let widen = self.widen[v.index()] && self.updates[v.index()] >= WIDEN_DELAY;
            let mut changed_cells = Vec::new();
            for (i, new) in vals.into_iter().enumerate() {
                let old = &self.out[v.index()][i];
                if new.leq(old) {
                    continue;
                }
                let mut next = old.join(&new);
                if widen {
                    next = old.widen(&next, Some(&self.thresholds));
                }
                self.out[v.index()][i] = next;
                changed_cells.push(self.defs[v.index()][i]);
            }
            if self.fork_arg_changed(dfg, v) {
                if let crate::ir::Action::Fork { template, .. } = &self.prog.loc(v).action {
                    work.insert(self.prog.template(*template).entry.0);
                }
            }
            let reach_changed = reach && !self.reach[v.index()];
            if reach_changed {
                self.reach[v.index()] = true;
            }
            if changed_cells.is_empty() && !reach_changed {
                continue;
            }
            self.updates[v.index()] += 1;
            for (c, w) in &dfg.outgoing[v.index()] {
                if changed_cells.contains(c) {
                    work.insert(w.0);
                }
            }
            if reach_changed {
                self.push_control_successors(v, &mut work);
            }
        }
    }

    fn push_control_successors(&self, v: LocId, work: &mut BTreeSet<u32>) {
        for s in &self.prog.loc(v).succs {
            work.insert(s.0);
        }
        if let crate::ir::Action::Fork { template, .. } = &self.prog.loc(v).action {
            work.insert(self.prog.template(*template).entry.0);
        }
    }

    /// Descending iterations, then a check that the result is still a post-fixpoint.
    pub(crate) fn narrow(&mut self, dfg: &Dfg) {
        for _ in 0..NARROW_PASSES {
            for v in 0..self.prog.locs.len() {
                let v = LocId(v as u32);
                if !self.reach[v.index()] {
                    continue;
                }
                let (vals, _) = self.evaluate(dfg, v);
                for (i, new) in vals.into_iter().enumerate() {
                    let narrowed = self.out[v.index()][i].narrow(&new);
                    self.out[v.index()][i] = narrowed;
                }
            }
        }
        // Narrowing keeps a post-fixpoint only for monotone transfer functions; one more
        // ascending sweep over everything restores it whatever they are.
        let all: Vec<LocId> = self.prog.loc_ids().collect();
        self.solve(dfg, all);
    }

    /// The parameter of template `t` at its start: the join of the arguments of the forks
    /// that create it, converted to the parameter's type. Every instance starts from one of
    /// those forks, in a state its input covers, so the join covers every instance.
    fn param_value(&self, t: TemplateId, p: crate::ir::VarId) -> Interval {
        let entry = self.prog.template(t).entry;
        let joined = self.spawners[entry.index()].iter().fold(Interval::EMPTY, |acc, s| acc.join(&self.fork_args[s.index()]));
        let range = transfer::type_range(self.prog, self.prog.var(p).ty.scalar(self.prog.data_model));
        if joined.leq(&range) {
            joined
        } else {
            range
        }
    }

    /// Re-evaluates the argument a fork passes; whether it changed (its template's entry then
    /// needs a new evaluation).
    fn fork_arg_changed(&mut self, dfg: &Dfg, v: LocId) -> bool {
        let crate::ir::Action::Fork { template, arg, .. } = &self.prog.loc(v).action else { return false };
        if bound_param(self.prog, *template).is_none() {
            return false;
        }
        let value = match self.input(dfg, v) {
            None => Interval::EMPTY,
            // `pthread_create(.., 0)` passes a null pointer: the IR leaves the argument out.
            Some(st) => match arg {
                None => Interval::point(0),
                Some(e) => {
                    let ev = transfer::Eval { prog: self.prog, frame: &self.frames[v.index()], st: &st };
                    st.eval_expr(&ev.num(e))
                }
            },
        };
        if value == self.fork_args[v.index()] {
            return false;
        }
        self.fork_args[v.index()] = value;
        true
    }
}

/// The parameter of a template that its forks bind (`pthread_create`'s argument): the start
/// routine's first. Templates whose routine takes no argument from its creator (the root, a
/// driver's threads) assign their parameters a nondeterministic value after the entry, so the
/// entry's value is overwritten before any read.
fn bound_param(prog: &Program, t: TemplateId) -> Option<crate::ir::VarId> {
    if t == TemplateId(0) {
        return None;
    }
    prog.template(t).params.first().copied()
}

/// Meets `st` (over `frame`) with a cell value over the cell's variables.
fn embed<D: NumDomain>(st: &mut D, value: &D, vars: &[crate::ir::AbsLoc], frame: &Frame) {
    let m = frame.dims.len();
    let k = vars.len();
    let positions: Vec<usize> = vars.iter().map(|a| frame.pos(*a).expect("cell variables are in the frame")).collect();
    let mut e = value.clone();
    e.add_dims(m - k);
    // Dimension i < k goes to positions[i]; the added ones fill the remaining positions.
    let mut perm = Vec::with_capacity(m);
    perm.extend(positions.iter().copied());
    let mut free = (0..m).filter(|p| !positions.contains(p));
    for _ in k..m {
        perm.push(free.next().expect("enough free positions"));
    }
    e.permute(&perm);
    st.meet_with(&e);
}

/// The part of `st` (over `frame`) about a cell's variables.
fn project<D: NumDomain>(st: &D, vars: &[crate::ir::AbsLoc], frame: &Frame) -> D {
    let keep: Vec<usize> = vars.iter().map(|a| frame.pos(*a).expect("cell variables are in the frame")).collect();
    st.project(&keep)
}
