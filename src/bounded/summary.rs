//! Thread-modular summarisation (Sinha & Wang §4, Figure 2): symbolic execution of every
//! thread instance over its unrolled graph, once per instance.
//!
//! The symbolic state at a node is the path condition ψ, the thread's registers 𝓛 (its locals
//! whose address is never taken), and the set E of its last events. Every read of shared memory
//! gets a fresh unknown (interference abstraction) and becomes a `Read` event; every write a
//! `Write` event; both carry the address, the value and ψ. At a join of paths the states merge:
//! ψ₁ ∨ ψ₂, 𝓛 = ite(ψ₁, 𝓛₁, 𝓛₂), E₁ ∪ E₂. A fork starts the child's state with the parent's
//! ψ and E = {fork}. Nothing about other threads is looked at here; the composition links reads
//! to writes later.

use super::skeleton::{EvKind, Event, Instance, NodeInfo, Skeleton};
use super::term::{int_params, Arith, Range, Terms, T};
use super::unroll::{self, BKind, Unrolled};
use crate::interp::layout::{Layout, UNSCHEDULED_HANDLE_BASE};
use crate::interp::ops;
use crate::ir::{Action, BinOp, CType, Expr, Halt, LocId, Lval, Multiplicity, Program, TemplateId, Ty, UnOp, VarId, VarKind};
use hashbrown::{HashMap, HashSet};
use std::collections::BTreeMap;

/// Most thread instances modelled, whatever the bounds.
pub(crate) const MAX_INSTANCES: usize = 4096;
/// Most events in one skeleton.
pub(crate) const MAX_EVENTS: usize = 2_000_000;

/// Why summarising failed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// A construct the engine cannot encode (named).
    Unsupported(String),
}

enum Stop {
    /// A register aggregate is used in a way only memory supports (a symbolic index, its
    /// address): summarise the instance again with it in memory.
    Demote(VarId),
    Fail(Failure),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Reg(VarId, i128),
    Mem(T),
}

#[derive(Clone, Debug)]
enum Gen {
    Init,
    Fresh,
    Merge(T, u32, u32),
}

#[derive(Clone, Debug)]
struct State {
    psi: T,
    regs: BTreeMap<(VarId, i128), T>,
    gens: BTreeMap<VarId, u32>,
    allocs: T,
    last: Vec<u32>,
    unit: Option<u32>,
    depth: u32,
}

struct Pending {
    template: TemplateId,
    fork: Option<u32>,
    psi0: T,
    param: Option<(VarId, T)>,
}

/// Per-action bookkeeping: its unit and the events it made so far.
struct Act {
    unit: Option<u32>,
    prev: Option<u32>,
    events: Vec<u32>,
    nondets: Vec<T>,
    node: u32,
    loc: LocId,
}

/// Builds the skeleton of the bounded program.
pub(crate) struct Summariser<'a> {
    prog: &'a Program,
    layout: &'a Layout,
    unroll: u32,
    threads: u32,
    counts: unroll::Counts,
    sk: Skeleton,
    graph_of: HashMap<TemplateId, usize>,
    demoted: HashSet<VarId>,
    specs: Vec<Pending>,
    per_template: HashMap<TemplateId, u32>,
    unit_rank: Vec<u32>,
    gens: Vec<Gen>,
    gen_memo: HashMap<(u32, VarId, i128), T>,
    ranged: HashSet<T>,
    thread: u32,
    template: TemplateId,
    /// Units of atomic sections, with the path conditions under which the section is left.
    region_exits: BTreeMap<u32, Vec<T>>,
    /// Every instance but the root runs as one atomic unit ([`Summariser::with_atomic_threads`]).
    atomic_threads: bool,
    /// Registers no action reads: an unmodelled call's result stored there (`fprintf`'s count)
    /// cannot reach a failure, so taking it does not count as taking an approximation.
    unread: HashSet<VarId>,
    /// Set while evaluating a value bound for an unread register.
    storing_unread: bool,
}

impl<'a> Summariser<'a> {
    /// A summariser for `unroll` loop iterations and `threads` instances per unbounded template.
    pub(crate) fn new(prog: &'a Program, layout: &'a Layout, unroll: u32, threads: u32) -> Summariser<'a> {
        let sk = Skeleton {
            terms: Terms::new(),
            graphs: Vec::new(),
            instances: Vec::new(),
            events: Vec::new(),
            units: 0,
            constraints: Vec::new(),
            no_overflow: Vec::new(),
            havoc_taken: Vec::new(),
            approx_taken: Vec::new(),
            approximations: Vec::new(),
            cut_loops: Vec::new(),
            havoc_loops: Vec::new(),
            unscheduled_forks: 0,
            incomplete: Vec::new(),
        };
        Summariser {
            prog,
            layout,
            unroll,
            threads,
            counts: unroll::Counts::default(),
            sk,
            graph_of: HashMap::new(),
            demoted: HashSet::new(),
            specs: Vec::new(),
            per_template: HashMap::new(),
            unit_rank: Vec::new(),
            gens: Vec::new(),
            gen_memo: HashMap::new(),
            ranged: HashSet::new(),
            thread: 0,
            template: TemplateId(0),
            region_exits: BTreeMap::new(),
            atomic_threads: false,
            unread: unread_registers(prog),
            storing_unread: false,
        }
    }

    /// Uses exact loop and instance counts where they are known, instead of the bounds.
    pub(crate) fn with_counts(mut self, counts: unroll::Counts) -> Summariser<'a> {
        self.counts = counts;
        self
    }

    /// Makes every thread instance but the root one atomic unit: it runs from its start to its
    /// end (or to where it blocks) without interruption. Fewer interleavings than the program
    /// has, so the skeleton can only serve to find violations (each one replayed), never a
    /// proof; but one clock per thread instead of one per access makes a solver's work far
    /// smaller on long loops.
    pub(crate) fn with_atomic_threads(mut self, on: bool) -> Summariser<'a> {
        self.atomic_threads = on;
        self
    }

    /// Whether the instance being summarised runs as one atomic unit.
    fn whole_unit(&self) -> bool {
        self.atomic_threads && self.thread != 0
    }

    /// Summarises the root and every thread it (transitively) creates within the bounds.
    pub(crate) fn run(mut self) -> Result<Skeleton, Failure> {
        let tt = self.sk.terms.tt();
        self.specs.push(Pending { template: TemplateId(0), fork: None, psi0: tt, param: None });
        let mut i = 0;
        while i < self.specs.len() {
            let mark = (self.sk.events.len(), self.specs.len(), self.sk.units, self.sk.constraints.len(), self.sk.unscheduled_forks, self.sk.approximations.len());
            let counts = self.per_template.clone();
            match self.instance(i as u32) {
                Ok(inst) => {
                    self.sk.instances.push(inst);
                    i += 1;
                }
                Err(Stop::Demote(v)) => {
                    if !self.demoted.insert(v) {
                        return Err(Failure::Unsupported(format!("internal error: `{}` demoted twice", self.prog.var(v).name)));
                    }
                    self.sk.events.truncate(mark.0);
                    self.specs.truncate(mark.1);
                    self.sk.units = mark.2;
                    self.unit_rank.truncate(mark.2 as usize);
                    self.sk.constraints.truncate(mark.3);
                    self.sk.unscheduled_forks = mark.4;
                    self.sk.approximations.truncate(mark.5);
                    self.per_template = counts;
                }
                Err(Stop::Fail(f)) => return Err(f),
            }
        }
        let mut cut = std::mem::take(&mut self.sk.cut_loops);
        for inst in &self.sk.instances {
            cut.extend(self.sk.graphs[inst.graph].cut_headers.iter().copied());
        }
        cut.sort();
        cut.dedup();
        self.sk.cut_loops = cut;
        self.sk.havoc_loops.sort();
        self.sk.havoc_loops.dedup();
        self.sk.approximations.sort();
        self.sk.approximations.dedup();
        Ok(self.sk)
    }

    fn graph(&mut self, t: TemplateId) -> Result<usize, Stop> {
        if let Some(g) = self.graph_of.get(&t) {
            return Ok(*g);
        }
        let u = unroll::unroll_counted(self.prog, t, self.unroll, &self.counts.loops).map_err(|e| Stop::Fail(Failure::Unsupported(e)))?;
        let g = self.sk.graphs.len();
        self.sk.graphs.push(u);
        self.graph_of.insert(t, g);
        Ok(g)
    }

    fn instance(&mut self, id: u32) -> Result<Instance, Stop> {
        let (template, fork, psi0, param) = {
            let s = &self.specs[id as usize];
            (s.template, s.fork, s.psi0, s.param)
        };
        self.thread = id;
        self.template = template;
        self.gens = vec![Gen::Init];
        self.gen_memo.clear();
        let g = self.graph(template)?;
        let graph: Unrolled = self.sk.graphs[g].clone();
        let n = graph.nodes.len();
        let mut infos = vec![NodeInfo::default(); n];
        let mut incoming: Vec<Option<State>> = vec![None; n];
        let zero = self.sk.terms.int(0);
        let mut regs = BTreeMap::new();
        if let Some((p, v)) = param {
            regs.insert((p, 0), v);
        }
        // No exits are recorded for a whole-thread unit: its events happen on their own paths,
        // so a thread that blocks has run up to there, as it would have without interruption.
        let unit = self.whole_unit().then(|| self.new_unit());
        incoming[0] = Some(State { psi: psi0, regs, gens: BTreeMap::new(), allocs: zero, last: fork.into_iter().collect(), unit, depth: 0 });
        let mut ends = Vec::new();
        let first_event = self.sk.events.len();
        self.region_exits.clear();
        for i in 0..n {
            let Some(st) = incoming[i].take() else { continue };
            if self.sk.terms.as_bool(st.psi) == Some(false) {
                continue;
            }
            if self.sk.events.len() > MAX_EVENTS {
                return Err(Stop::Fail(Failure::Unsupported(format!("the bounded program has more than {MAX_EVENTS} events"))));
            }
            let node = graph.nodes[i].clone();
            let info = &mut infos[i];
            info.reached = true;
            info.psi_in = Some(st.psi);
            let (out, act, children) = match &node.kind {
                BKind::Loc(l) => self.action(i as u32, *l, st)?,
                BKind::Havoc { header, vars, allocs, .. } => (self.havoc(*header, vars, *allocs, st), None, Vec::new()),
            };
            let info = &mut infos[i];
            info.psi_out = Some(out.psi);
            info.children = children;
            if let Some(a) = act {
                for &e in &a.events {
                    if self.sk.events[e as usize].kind == EvKind::End {
                        ends.push(e);
                    }
                }
                info.events = a.events;
                info.nondets = a.nondets;
            }
            if self.sk.terms.as_bool(out.psi) == Some(false) || node.succs.is_empty() {
                continue;
            }
            // A branch is a choice the path condition must record: unless both sides are
            // complementary guards over registers, an unknown picks the side.
            let choice = if node.succs.len() > 1 && !self.complementary(&graph, &node.succs) {
                let c = self.sk.terms.fresh((Some(0), Some(node.succs.len() as i128 - 1)));
                infos[i].choice = Some(c);
                Some(c)
            } else {
                if let Some(g) = self.first_guard(&graph, &node.succs, &out)? {
                    infos[i].branch = Some(g);
                }
                None
            };
            for (k, &s) in node.succs.iter().enumerate() {
                let mut st = out.clone();
                if let Some(c) = choice {
                    let kk = self.sk.terms.int(k as i128);
                    let e = self.sk.terms.eq(c, kk);
                    st.psi = self.sk.terms.and(&[st.psi, e]);
                }
                let slot = &mut incoming[s as usize];
                *slot = Some(match slot.take() {
                    None => st,
                    Some(acc) => self.merge(acc, st),
                });
            }
        }
        // An atomic section executes entirely or not at all: a thread that would block inside
        // one never starts it, so its events happen only if the section is left.
        let mut completes: HashMap<u32, T> = HashMap::new();
        for (u, exits) in std::mem::take(&mut self.region_exits) {
            completes.insert(u, self.sk.terms.or(&exits));
        }
        for e in first_event..self.sk.events.len() {
            let ev = &self.sk.events[e];
            if let Some(&c) = completes.get(&ev.unit) {
                let o = self.sk.terms.and(&[ev.occ, c]);
                self.sk.events[e].occ = o;
            }
        }
        Ok(Instance { id, fork, graph: g, nodes: infos, ends })
    }

    /// Whether the two successors are an `assume` and its negation over registers only, so the
    /// path condition already tells which one was taken.
    fn complementary(&self, g: &Unrolled, succs: &[u32]) -> bool {
        if succs.len() != 2 {
            return false;
        }
        let cond = |s: u32| match &g.nodes[s as usize].kind {
            BKind::Loc(l) => match &self.prog.loc(*l).action {
                Action::Assume(c) => Some(c),
                _ => None,
            },
            _ => None,
        };
        let (Some(a), Some(b)) = (cond(succs[0]), cond(succs[1])) else { return false };
        let negated = match (a, b) {
            (Expr::Unary(UnOp::Not, x, _), y) | (y, Expr::Unary(UnOp::Not, x, _)) => x.as_ref() == y,
            (Expr::Binary(o1, a1, b1, t1), Expr::Binary(o2, a2, b2, t2)) => t1 == t2 && a1 == a2 && b1 == b2 && o1.negate_comparison() == Some(*o2),
            _ => false,
        };
        negated && self.register_only(a)
    }

    /// The first successor's guard at a branch between complementary guards, evaluated in the
    /// branch's state (registers only, so it makes no event).
    fn first_guard(&mut self, g: &Unrolled, succs: &[u32], st: &State) -> Result<Option<T>, Stop> {
        if succs.len() != 2 {
            return Ok(None);
        }
        let BKind::Loc(l) = g.nodes[succs[0] as usize].kind else { return Ok(None) };
        let Action::Assume(c) = &self.prog.loc(l).action else { return Ok(None) };
        let mut act = Act { unit: None, prev: None, events: Vec::new(), nondets: Vec::new(), node: succs[0], loc: l };
        let v = self.eval(st, &mut act, c)?;
        debug_assert!(act.events.is_empty() && act.nondets.is_empty(), "a register-only guard makes no event");
        Ok(Some(self.sk.terms.truthy(v)))
    }

    fn register_only(&self, e: &Expr) -> bool {
        let mut ok = true;
        e.for_each_load(&mut |lv| match lv {
            Lval::Var(v) if self.is_register(*v) && self.prog.var(*v).ty.is_scalar() => {}
            _ => ok = false,
        });
        fn no_nondet(e: &Expr) -> bool {
            match e {
                Expr::Nondet(_) | Expr::Havoc(..) => false,
                Expr::Const(..) | Expr::Load(_) | Expr::AddrOf(_) => true,
                Expr::Unary(_, x, _) | Expr::Cast(_, x) => no_nondet(x),
                Expr::Binary(_, a, b, _) => no_nondet(a) && no_nondet(b),
            }
        }
        ok && no_nondet(e)
    }

    fn is_register(&self, v: VarId) -> bool {
        let var = self.prog.var(v);
        matches!(var.kind, VarKind::Local(_) | VarKind::Temp(_)) && !var.addr_taken && !self.demoted.contains(&v) && !contains_mutex(self.prog, &var.ty, 0)
    }

    fn merge(&mut self, acc: State, new: State) -> State {
        let t = &mut self.sk.terms;
        let psi = t.or(&[acc.psi, new.psi]);
        let c = new.psi;
        let mut gens = BTreeMap::new();
        let gvars: std::collections::BTreeSet<VarId> = acc.gens.keys().chain(new.gens.keys()).copied().collect();
        for v in gvars {
            let (ga, gn) = (acc.gens.get(&v).copied().unwrap_or(0), new.gens.get(&v).copied().unwrap_or(0));
            if ga == gn {
                if ga != 0 {
                    gens.insert(v, ga);
                }
            } else {
                let g = self.gens.len() as u32;
                self.gens.push(Gen::Merge(c, gn, ga));
                gens.insert(v, g);
            }
        }
        let keys: std::collections::BTreeSet<(VarId, i128)> = acc.regs.keys().chain(new.regs.keys()).copied().collect();
        let mut regs = BTreeMap::new();
        for k in keys {
            let a = match acc.regs.get(&k) {
                Some(x) => *x,
                None => self.default_value(acc.gens.get(&k.0).copied().unwrap_or(0), k.0, k.1, None),
            };
            let b = match new.regs.get(&k) {
                Some(x) => *x,
                None => self.default_value(new.gens.get(&k.0).copied().unwrap_or(0), k.0, k.1, None),
            };
            let m = self.sk.terms.ite(c, b, a);
            regs.insert(k, m);
        }
        let allocs = self.sk.terms.ite(c, new.allocs, acc.allocs);
        let mut last = acc.last;
        last.extend(new.last);
        last.sort();
        last.dedup();
        // Two different atomic sections meet where the unrolled loop's iterations share a node
        // that leaves the loop from inside a section (an `abort` branch). Keeping either unit
        // would put the node's events in one iteration's section after a later iteration's,
        // a cycle in program order that made every path through the loop infeasible. The
        // merged path opens a new unit at its next atomic action: fewer atomic steps than the
        // program has, which a proof covers and a replay filters out.
        let unit = match (acc.unit, new.unit) {
            (Some(a), Some(b)) if a != b => None,
            (a, b) => a.or(b),
        };
        // A section whose path goes on in another unit (or in none) is left here as far as its
        // events are concerned. Without this exit its events would occur only on its other
        // exits: a read on the path to such a shared node then had a contradictory occurrence,
        // so it was unconstrained and the solver proposed values no execution reads.
        for (u, p) in [(acc.unit, acc.psi), (new.unit, new.psi)] {
            if let Some(u) = u.filter(|u| Some(*u) != unit) {
                if let Some(v) = self.region_exits.get_mut(&u) {
                    v.push(p);
                }
            }
        }
        State { psi, regs, gens, allocs, last, unit, depth: acc.depth.max(new.depth) }
    }

    /// The value a register slot has before this path wrote it.
    fn default_value(&mut self, gen: u32, v: VarId, slot: i128, ty: Option<Ty>) -> T {
        if let Some(t) = self.gen_memo.get(&(gen, v, slot)) {
            return *t;
        }
        let ty = ty.unwrap_or_else(|| slot_scalar(self.prog, self.layout, &self.prog.var(v).ty, slot));
        let range = ty_range(ty, self.prog);
        let t = match self.gens[gen as usize].clone() {
            Gen::Init => {
                let a = self.layout.var_addr(self.prog, v, self.thread) + slot;
                let at = self.sk.terms.int(a);
                let t = self.sk.terms.init_ranged(at, range);
                if self.ranged.insert(t) {
                    if let Some(c) = range_constraint(&mut self.sk.terms, t, range) {
                        self.sk.constraints.push(c);
                    }
                }
                t
            }
            Gen::Fresh => self.sk.terms.fresh(range),
            Gen::Merge(c, a, b) => {
                let x = self.default_value(a, v, slot, Some(ty));
                let y = self.default_value(b, v, slot, Some(ty));
                self.sk.terms.ite(c, x, y)
            }
        };
        self.gen_memo.insert((gen, v, slot), t);
        t
    }

    fn read_reg(&mut self, st: &State, v: VarId, slot: i128, ty: Ty) -> T {
        match st.regs.get(&(v, slot)) {
            Some(t) => *t,
            None => self.default_value(st.gens.get(&v).copied().unwrap_or(0), v, slot, Some(ty)),
        }
    }

    fn havoc(&mut self, header: LocId, vars: &[VarId], allocs: bool, mut st: State) -> State {
        if let Some(v) = vars.iter().find(|v| !self.is_register(**v)) {
            // The loop writes thread-private memory, which a havoc of registers cannot cover.
            self.sk.incomplete.push(format!(
                "the loop at {} cannot be summarised beyond the bound (it writes `{}` through memory)",
                self.prog.span_str(self.prog.loc(header).span),
                self.prog.var(*v).name
            ));
            st.psi = self.sk.terms.ff();
            return st;
        }
        self.sk.havoc_loops.push(header);
        self.sk.havoc_taken.push(st.psi);
        for &v in vars {
            st.regs.retain(|k, _| k.0 != v);
            let g = self.gens.len() as u32;
            self.gens.push(Gen::Fresh);
            st.gens.insert(v, g);
        }
        if allocs {
            let lo = self.sk.terms.range(st.allocs).0;
            st.allocs = self.sk.terms.fresh((lo.or(Some(0)), Some(1 << 15)));
        }
        st
    }

    fn new_unit(&mut self) -> u32 {
        let u = self.sk.units;
        self.sk.units += 1;
        self.unit_rank.push(0);
        u
    }

    #[allow(clippy::too_many_arguments)]
    fn event(&mut self, st: &State, act: &mut Act, kind: EvKind, addr: T, val: T, occ: T, lv: Option<&Lval>) -> u32 {
        let unit = match (st.unit, act.unit) {
            (Some(u), _) => u,
            (None, Some(u)) => u,
            (None, None) => {
                let u = self.new_unit();
                act.unit = Some(u);
                u
            }
        };
        let rank = self.unit_rank[unit as usize];
        self.unit_rank[unit as usize] += 1;
        let preds = match act.prev {
            Some(p) => vec![p],
            None => st.last.clone(),
        };
        let absloc = lv.and_then(|l| self.prog.memory.lookup(self.prog, l));
        let id = self.sk.events.len() as u32;
        self.sk.events.push(Event { kind, thread: self.thread, node: act.node, loc: act.loc, addr, val, occ, unit, rank, preds, absloc });
        act.prev = Some(id);
        act.events.push(id);
        id
    }

    fn approx(&mut self, what: &str, loc: LocId) -> T {
        self.sk.approximations.push(format!("{what} at {}", self.prog.span_str(self.prog.loc(loc).span)));
        self.sk.terms.fresh((None, None))
    }

    /// Executes the action of one node. Returns the state after it, the action's bookkeeping
    /// and the instance a fork created.
    fn action(&mut self, node: u32, loc: LocId, mut st: State) -> Result<(State, Option<Act>, Vec<u32>), Stop> {
        let prog = self.prog;
        let l = prog.loc(loc);
        let mut act = Act { unit: None, prev: None, events: Vec::new(), nondets: Vec::new(), node, loc };
        if (matches!(l.action, Action::AtomicBegin) || l.atomic) && st.unit.is_none() {
            let u = self.new_unit();
            self.region_exits.insert(u, Vec::new());
            st.unit = Some(u);
        }
        let psi = st.psi;
        let mut occ = psi;
        let mut children = Vec::new();
        let zero = self.sk.terms.int(0);
        match &l.action {
            Action::Skip => {}
            Action::Assign(lv, e) => {
                self.storing_unread = matches!(lv, Lval::Var(x) if self.unread.contains(x));
                let v = self.eval(&st, &mut act, e);
                self.storing_unread = false;
                let v = v?;
                let place = self.place(&st, &mut act, lv)?;
                let ty = prog.lval_type(lv).scalar(prog.data_model);
                let v = self.convert(ty, v);
                self.store(&mut st, &mut act, place, v, psi, Some(lv));
            }
            Action::Assume(c) => {
                let v = self.eval(&st, &mut act, c)?;
                let g = self.sk.terms.truthy(v);
                occ = self.sk.terms.and(&[psi, g]);
            }
            Action::Assert(id, c) => {
                let v = self.eval(&st, &mut act, c)?;
                let g = self.sk.terms.truthy(v);
                let ng = self.sk.terms.not(g);
                let fail = self.sk.terms.and(&[psi, ng]);
                self.event(&st, &mut act, EvKind::Fail(*id), zero, zero, fail, None);
                st.psi = self.sk.terms.and(&[psi, g]);
            }
            Action::Alloc(lv, _, _) => {
                let base = self.sk.terms.int(Layout::heap_addr(self.thread, 0));
                let stride = self.sk.terms.int(crate::interp::layout::HEAP_OBJECT_SLOTS);
                let off = self.sk.terms.mul(st.allocs, stride);
                let addr = self.sk.terms.add(base, off);
                let one = self.sk.terms.int(1);
                st.allocs = self.sk.terms.add(st.allocs, one);
                let place = self.place(&st, &mut act, lv)?;
                self.store(&mut st, &mut act, place, addr, psi, Some(lv));
            }
            Action::Acquire(m) | Action::LockBusy(m) => {
                let a = self.mutex_addr(&st, &mut act, m)?;
                let r = self.sk.terms.fresh((Some(0), Some(1)));
                self.event(&st, &mut act, EvKind::Read { mutex: true }, a, r, psi, Some(m));
                let free = self.sk.terms.eq(r, zero);
                if matches!(l.action, Action::Acquire(_)) {
                    occ = self.sk.terms.and(&[psi, free]);
                    let one = self.sk.terms.int(1);
                    self.event(&st, &mut act, EvKind::Write, a, one, occ, Some(m));
                } else {
                    let held = self.sk.terms.not(free);
                    occ = self.sk.terms.and(&[psi, held]);
                }
            }
            Action::Release(m) => {
                let a = self.mutex_addr(&st, &mut act, m)?;
                self.event(&st, &mut act, EvKind::Write, a, zero, psi, Some(m));
            }
            Action::Fork { template, handle, arg } => children = self.fork(&mut st, &mut act, *template, handle.as_ref(), arg.as_ref())?,
            Action::Join(h) => {
                let hv = self.eval(&st, &mut act, h)?;
                let joined = self.sk.terms.fresh_bool();
                occ = self.sk.terms.and(&[psi, joined]);
                self.event(&st, &mut act, EvKind::Join { joined }, zero, hv, occ, None);
            }
            Action::AtomicBegin => {
                st.depth += 1;
                self.event(&st, &mut act, EvKind::AtomicBegin, zero, zero, psi, None);
            }
            Action::AtomicEnd => {
                self.event(&st, &mut act, EvKind::AtomicEnd, zero, zero, psi, None);
                st.depth = st.depth.saturating_sub(1);
            }
            Action::Halt(Halt::Abort | Halt::Exit) => {
                self.event(&st, &mut act, EvKind::Halt, zero, zero, psi, None);
                st.psi = self.sk.terms.ff();
            }
            Action::Halt(Halt::ThreadExit) => {}
        }
        self.close(loc, psi, occ, &mut st, &mut act);
        Ok((st, Some(act), children))
    }

    /// A thread creation: the instances it creates (none once the template's bound is
    /// reached), their handles stored, their parameters bound, their starts pending.
    fn fork(&mut self, st: &mut State, act: &mut Act, template: TemplateId, handle: Option<&Lval>, arg: Option<&Expr>) -> Result<Vec<u32>, Stop> {
        let prog = self.prog;
        let psi = st.psi;
        let zero = self.sk.terms.int(0);
        let mut children = Vec::new();
        // The front-end leaves out a null argument; the parameter is then NULL.
        let argv = match arg {
            Some(e) => Some(self.eval(st, act, e)?),
            None => Some(zero),
        };
        let bounded = prog.template(template).multiplicity == Multiplicity::Unbounded;
        let count = self.per_template.get(&template).copied().unwrap_or(0);
        // In parameterized mode one fork stands for unboundedly many instances.
        let n = if !bounded {
            1
        } else if prog.mode.parameterized {
            self.threads.saturating_sub(count)
        } else {
            u32::from(count < self.counts.threads.get(&template).copied().unwrap_or(self.threads))
        };
        let n = n.min(MAX_INSTANCES.saturating_sub(self.specs.len()) as u32);
        for k in 0..n {
            let id = self.specs.len() as u32 + k;
            children.push(id);
        }
        if bounded {
            self.per_template.insert(template, count + n);
        }
        let handles: Vec<T> = if children.is_empty() {
            self.sk.unscheduled_forks += 1;
            vec![self.sk.terms.fresh((Some(UNSCHEDULED_HANDLE_BASE), Some(UNSCHEDULED_HANDLE_BASE + (1 << 24))))]
        } else {
            children.iter().map(|c| self.sk.terms.int(*c as i128)).collect()
        };
        let mut params = Vec::new();
        for (k, h) in handles.iter().enumerate() {
            if let Some(hl) = handle {
                let place = self.place(st, act, hl)?;
                let ty = prog.lval_type(hl).scalar(prog.data_model);
                let hv = self.convert(ty, *h);
                self.store(st, act, place, hv, psi, Some(hl));
            }
            let mut param = None;
            if let (Some(&c), Some(v), Some(p)) = (children.get(k), argv, prog.template(template).params.first()) {
                let ty = prog.var(*p).ty.scalar(prog.data_model);
                let v = self.convert(ty, v);
                if self.is_register(*p) {
                    param = Some((*p, v));
                } else {
                    let a = self.sk.terms.int(self.layout.var_addr(prog, *p, c));
                    self.event(st, act, EvKind::Write, a, v, psi, Some(&Lval::Var(*p)));
                }
            }
            params.push(param);
        }
        let f = self.event(st, act, EvKind::Fork { children: children.clone() }, zero, zero, psi, None);
        for (k, _) in children.iter().enumerate() {
            // Whether the child runs at all: a created thread may be starved for ever,
            // and leaving the threads a failure does not need unscheduled is what a
            // solver finds easiest.
            let runs = self.sk.terms.fresh_bool();
            let psi0 = self.sk.terms.and(&[psi, runs]);
            self.specs.push(Pending { template, fork: Some(f), psi0, param: params[k] });
        }
        Ok(children)
    }

    /// What follows every action: its accesses' occurrence, the thread's end, its place in
    /// program order and in its atomic unit.
    fn close(&mut self, loc: LocId, psi: T, occ: T, st: &mut State, act: &mut Act) {
        let l = self.prog.loc(loc);
        let zero = self.sk.terms.int(0);
        if !matches!(l.action, Action::Assert(..) | Action::Halt(Halt::Abort | Halt::Exit)) {
            st.psi = occ;
        }
        // The action's accesses happen exactly when its step executes.
        for &e in &act.events {
            let ev = &mut self.sk.events[e as usize];
            if matches!(ev.kind, EvKind::Read { .. } | EvKind::Write) {
                ev.occ = if matches!(l.action, Action::Assert(..)) { psi } else { occ };
            }
        }
        let ends_thread = l.succs.is_empty() && !matches!(l.action, Action::Halt(Halt::Abort | Halt::Exit));
        if ends_thread {
            let o = st.psi;
            self.event(st, act, EvKind::End, zero, zero, o, None);
        }
        if let Some(p) = act.prev {
            st.last = vec![p];
        }
        if let Some(u) = st.unit {
            let leaves = (matches!(l.action, Action::AtomicEnd) && st.depth == 0) || ends_thread || matches!(l.action, Action::Halt(_));
            let mut exits = Vec::new();
            if leaves {
                exits.push(if matches!(l.action, Action::Halt(_)) { psi } else { st.psi });
            }
            for &e in &act.events {
                if let EvKind::Fail(_) = self.sk.events[e as usize].kind {
                    exits.push(self.sk.events[e as usize].occ);
                }
            }
            if let Some(v) = self.region_exits.get_mut(&u) {
                v.extend(exits);
            }
        }
        let leaves_section = matches!(l.action, Action::AtomicEnd) && st.depth == 0;
        if (leaves_section || (!l.atomic && !matches!(l.action, Action::AtomicBegin))) && !self.whole_unit() {
            st.unit = None;
        }
    }

    fn mutex_addr(&mut self, st: &State, act: &mut Act, m: &Lval) -> Result<T, Stop> {
        match self.place(st, act, m)? {
            Place::Mem(a) => Ok(a),
            Place::Reg(v, _) => Err(Stop::Demote(v)),
        }
    }

    fn store(&mut self, st: &mut State, act: &mut Act, place: Place, v: T, occ: T, lv: Option<&Lval>) {
        match place {
            Place::Reg(var, slot) => {
                st.regs.insert((var, slot), v);
            }
            Place::Mem(a) => {
                self.event(st, act, EvKind::Write, a, v, occ, lv);
            }
        }
    }

    fn load(&mut self, st: &State, act: &mut Act, place: Place, ty: Ty, lv: &Lval) -> T {
        match place {
            Place::Reg(v, slot) => self.read_reg(st, v, slot, ty),
            Place::Mem(a) => {
                // A union member may hold what another member wrote, of another range: the
                // front-end converts the value (a cast around the load), so the read itself
                // must not exclude it, or the write would make every path through it vanish.
                let range = if lv.through_union(&self.prog.records) { (None, None) } else { ty_range(ty, self.prog) };
                let r = self.sk.terms.fresh(range);
                let psi = st.psi;
                self.event(st, act, EvKind::Read { mutex: false }, a, r, psi, Some(lv));
                r
            }
        }
    }

    /// Where an lvalue is; evaluates in the interpreter's order (base, then index).
    fn place(&mut self, st: &State, act: &mut Act, lv: &Lval) -> Result<Place, Stop> {
        let prog = self.prog;
        Ok(match lv {
            Lval::Var(v) => {
                if self.is_register(*v) {
                    Place::Reg(*v, 0)
                } else {
                    Place::Mem(self.sk.terms.int(self.layout.var_addr(prog, *v, self.thread)))
                }
            }
            Lval::Deref(e, _) => Place::Mem(self.eval(st, act, e)?),
            Lval::Index(b, i) => {
                let bt = prog.lval_type(b);
                match &bt {
                    CType::Array(elem, _) => {
                        let base = self.place(st, act, b)?;
                        let idx = self.eval(st, act, i)?;
                        let stride = self.layout.slots(elem).max(1);
                        match base {
                            Place::Reg(v, o) => match self.sk.terms.as_const(idx) {
                                Some(c) if (0..self.layout.slots(&prog.var(v).ty)).contains(&(o + c * stride)) => Place::Reg(v, o + c * stride),
                                _ => return Err(Stop::Demote(v)),
                            },
                            Place::Mem(a) => {
                                let s = self.sk.terms.int(stride);
                                let off = self.sk.terms.mul(idx, s);
                                Place::Mem(self.sk.terms.add(a, off))
                            }
                        }
                    }
                    CType::Pointer(elem) => {
                        let pb = self.place(st, act, b)?;
                        let p = self.load(st, act, pb, Ty::Ptr, b);
                        let idx = self.eval(st, act, i)?;
                        let s = self.sk.terms.int(self.layout.slots(elem).max(1));
                        let off = self.sk.terms.mul(idx, s);
                        Place::Mem(self.sk.terms.add(p, off))
                    }
                    _ => return Err(Stop::Fail(Failure::Unsupported(format!("indexing a non-array at {}", prog.span_str(prog.loc(act.loc).span))))),
                }
            }
            Lval::Field(b, r, i) => {
                let off = self.layout.field_offset(*r, *i);
                match self.place(st, act, b)? {
                    Place::Reg(v, o) => Place::Reg(v, o + off),
                    Place::Mem(a) => {
                        let o = self.sk.terms.int(off);
                        Place::Mem(self.sk.terms.add(a, o))
                    }
                }
            }
        })
    }

    /// Records that signed arithmetic producing `v` under `psi` must stay in range.
    fn overflow_guard(&mut self, psi: T, ty: Ty, v: T) {
        let Ty::Int(i) = ty else { return };
        if !i.signed {
            return;
        }
        let (lo, hi) = self.sk.terms.range(v);
        if lo.is_some_and(|l| l >= i.min()) && hi.is_some_and(|h| h <= i.max()) {
            return;
        }
        if let Some(c) = range_constraint(&mut self.sk.terms, v, (Some(i.min()), Some(i.max()))) {
            let g = self.sk.terms.implies(psi, c);
            self.sk.no_overflow.push(g);
        }
    }

    fn convert(&mut self, ty: Ty, v: T) -> T {
        self.sk.terms.convert(ty, v)
    }

    /// The value of an expression, in the interpreter's evaluation order.
    fn eval(&mut self, st: &State, act: &mut Act, e: &Expr) -> Result<T, Stop> {
        let prog = self.prog;
        Ok(match e {
            Expr::Const(v, t) => {
                if *t == Ty::Float {
                    self.approx("a floating-point constant", act.loc)
                } else {
                    self.sk.terms.int(*v)
                }
            }
            Expr::Load(lv) => {
                let ct = prog.lval_type(lv);
                match ct {
                    CType::Array(..) | CType::Function => match self.place(st, act, lv)? {
                        Place::Mem(a) => a,
                        Place::Reg(v, _) => return Err(Stop::Demote(v)),
                    },
                    CType::Float(_) => self.approx("a floating-point value", act.loc),
                    CType::Record(_) | CType::Void | CType::Opaque(_) => self.approx("a load of an aggregate value", act.loc),
                    t => {
                        let ty = t.scalar(prog.data_model);
                        let place = self.place(st, act, lv)?;
                        let v = self.load(st, act, place, ty, lv);
                        self.convert(ty, v)
                    }
                }
            }
            Expr::AddrOf(lv) => match self.place(st, act, lv)? {
                Place::Mem(a) => a,
                Place::Reg(v, _) => return Err(Stop::Demote(v)),
            },
            Expr::Unary(op, x, t) => self.eval_unary(st, act, *op, x, *t)?,
            Expr::Binary(op, a, b, t) => self.eval_binary(st, act, *op, a, b, *t)?,
            Expr::Cast(t, x) => self.eval_cast(st, act, *t, x)?,
            Expr::Nondet(t) | Expr::Havoc(t, _) => {
                if *t == Ty::Float {
                    return Ok(self.approx("a floating-point input", act.loc));
                }
                if matches!(e, Expr::Havoc(..)) && !self.storing_unread {
                    self.sk.approx_taken.push(st.psi);
                }
                let s = self.sk.terms.fresh(ty_range(*t, prog));
                act.nondets.push(s);
                s
            }
        })
    }
    /// A unary operation.
    fn eval_unary(&mut self, st: &State, act: &mut Act, op: UnOp, x: &Expr, t: Ty) -> Result<T, Stop> {
        if t == Ty::Float {
            return Ok(self.approx("floating-point arithmetic", act.loc));
        }
        let v = self.eval(st, act, x)?;
        let tm = &mut self.sk.terms;
        Ok(match op {
            UnOp::Neg => {
                let z = tm.int(0);
                let n = tm.sub(z, v);
                self.overflow_guard(st.psi, t, n);
                self.convert(t, n)
            }
            UnOp::BitNot => {
                let (bits, signed) = int_params(t);
                tm.bitnot(bits, signed, v)
            }
            UnOp::Not => {
                let z = tm.int(0);
                let c = tm.eq(v, z);
                tm.bool_to_int(c)
            }
        })
    }

    /// A binary operation: pointer arithmetic scaled by the pointee, machine integers
    /// otherwise, with signed overflow recorded.
    fn eval_binary(&mut self, st: &State, act: &mut Act, op: BinOp, a: &Expr, b: &Expr, t: Ty) -> Result<T, Stop> {
        let prog = self.prog;
        if t == Ty::Float {
            return Ok(self.approx("floating-point arithmetic", act.loc));
        }
        let x = self.eval(st, act, a)?;
        let y = self.eval(st, act, b)?;
        if t == Ty::Ptr && matches!(op, BinOp::Add | BinOp::Sub) {
            let s = self.layout.pointee_slots(&ops::ctype_of(prog, a));
            let tm = &mut self.sk.terms;
            let sv = tm.int(s);
            let off = tm.mul(y, sv);
            let r = if op == BinOp::Add { tm.add(x, off) } else { tm.sub(x, off) };
            return Ok(self.convert(Ty::Ptr, r));
        }
        if ops::is_pointer_difference(prog, op, a, b) {
            let s = self.layout.pointee_slots(&ops::ctype_of(prog, a));
            let tm = &mut self.sk.terms;
            let d = tm.sub(x, y);
            let sv = tm.int(s);
            let q = tm.div(d, sv);
            return Ok(self.convert(t, q));
        }
        let r = match self.sk.terms.int_binary(op, t, x, y) {
            Arith::Exact(v) => return Ok(v),
            Arith::Unwrapped(r) => r,
        };
        if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) {
            self.overflow_guard(st.psi, t, r);
        }
        Ok(self.convert(t, r))
    }

    /// A conversion to type `t`.
    fn eval_cast(&mut self, st: &State, act: &mut Act, t: Ty, x: &Expr) -> Result<T, Stop> {
        let prog = self.prog;
        if t == Ty::Float {
            return Ok(self.approx("a conversion to floating point", act.loc));
        }
        let v = self.eval(st, act, x)?;
        if let (Ty::Int(i), Ty::Ptr) = (t, x.ty(prog)) {
            if i.bits < 64 {
                // Addresses here lie beyond 32 bits, where a real one need not: an
                // address that does not fit the integer converts to an unknown value.
                let unknown = self.approx("a pointer converted to a narrower integer", act.loc);
                let terms = &mut self.sk.terms;
                let (lo, hi) = (terms.int(i.min()), terms.int(i.max()));
                let (above, below) = (terms.le(lo, v), terms.le(v, hi));
                let fits = terms.and(&[above, below]);
                let v = terms.ite(fits, v, unknown);
                return Ok(self.convert(t, v));
            }
        }
        Ok(self.convert(t, v))
    }
}

/// The range of values of a scalar type.
pub(crate) fn ty_range(t: Ty, prog: &Program) -> Range {
    // A pointer is an address of the flat layout, 64 bits wide whatever the program's data
    // model: a 32-bit range would make every heap or local address read back impossible.
    let dm = if t == Ty::Ptr { crate::interp::layout::ADDRESS_MODEL } else { prog.data_model };
    match t.range(dm) {
        Some((lo, hi)) => (Some(lo), Some(hi)),
        None => (None, None),
    }
}

/// `lo <= t <= hi` as a term, unless unbounded.
pub(crate) fn range_constraint(terms: &mut Terms, t: T, r: Range) -> Option<T> {
    let mut cs = Vec::new();
    if let Some(lo) = r.0 {
        let l = terms.int(lo);
        cs.push(terms.le_raw(l, t));
    }
    if let Some(hi) = r.1 {
        let h = terms.int(hi);
        cs.push(terms.le_raw(t, h));
    }
    (!cs.is_empty()).then(|| terms.and(&cs))
}

/// The scalar type stored at slot offset `off` of an object of type `ty`.
fn slot_scalar(prog: &Program, layout: &Layout, ty: &CType, off: i128) -> Ty {
    match ty {
        CType::Array(e, _) => {
            let s = layout.slots(e).max(1);
            slot_scalar(prog, layout, e, off % s)
        }
        CType::Record(r) => {
            let rec = &prog.records[r.0 as usize];
            for (i, (_, fty)) in rec.fields.iter().enumerate().rev() {
                let fo = layout.field_offset(*r, i as u32);
                if off >= fo && off < fo + layout.slots(fty) {
                    return slot_scalar(prog, layout, fty, off - fo);
                }
            }
            Ty::Ptr
        }
        t => t.scalar(prog.data_model),
    }
}

fn contains_mutex(prog: &Program, t: &CType, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    match t {
        CType::Mutex => true,
        CType::Array(e, _) => contains_mutex(prog, e, depth + 1),
        CType::Record(r) => prog.records[r.0 as usize].fields.iter().any(|(_, f)| contains_mutex(prog, f, depth + 1)),
        _ => false,
    }
}

/// The registers (locals and temporaries without an address) that no action of the program
/// reads: only an assignment's own target names them.
fn unread_registers(prog: &Program) -> HashSet<VarId> {
    let mut read = HashSet::new();
    for loc in &prog.locs {
        match &loc.action {
            Action::Assign(Lval::Var(_), e) => crate::ir::visit::expr_vars(e, &mut |v| {
                read.insert(v);
            }),
            a => crate::ir::visit::action_vars(a, &mut |v| {
                read.insert(v);
            }),
        }
    }
    (0..prog.vars.len()).map(|i| VarId(i as u32)).filter(|v| !read.contains(v) && !prog.var(*v).addr_taken && matches!(prog.var(*v).kind, VarKind::Local(_) | VarKind::Temp(_))).collect()
}
