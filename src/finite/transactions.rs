//! Transaction-based summaries (Qadeer, Rajamani & Rehof, "Summarizing procedures in
//! concurrent programs", POPL 2004) on the finite-state projection of [`super::model`].
//!
//! A thread's execution is a sequence of transactions, each a run of right movers, one action
//! of any kind (the commit) and a run of left movers ([`super::movers`]); other threads need
//! not be interleaved inside one. A phase bit per thread records whether its transaction is
//! before its commit (`pre`) or after it (Section 4: `p' = RM ∧ (p ∨ ¬LM)`). A thread state
//! is in N, "outside a transaction", when it is the thread's initial state, when an assertion
//! may fail there, or when it is after the commit and its next action is not a left mover (or
//! it has none); else it is in R (before the commit) or L (after it), conditions C1 and C2.
//!
//! The two levels of Section 5: level II (`Transactions::summarize`) runs one thread alone
//! from a state in which every other thread is in N until its transaction ends, and caches the
//! ends as summary edges (`Sum`: entry node to exit node, no stack frames); level I explores
//! the global states in which every thread is in N, stepping one thread by a summary edge at a
//! time. The IR inlines every call, so the call stack is part of the program counter: level
//! II's `PUSH` and `POP` are ordinary steps, and [`Transactions::procedure_summaries`]
//! recovers the paper's per-procedure edges (`Sum⁻`, from a procedure's entry or a transaction
//! start inside it to its return; `Sum`, to a transaction's end inside it) from the cached
//! steps, by the source extent of each location's function. Each call site is an inlined copy
//! of its procedure; copies identical up to a renaming of their locals ([`super::copies`])
//! share their level-II runs: a run inside a copy, from a position to where it leaves the copy
//! or its transaction ends there, is computed once per class of copies and entry state (the
//! copy's own cells, the global store, the phase) and replayed at every other call site.
//!
//! Soundness rests on C1, C2 (by construction) and C3' (every committed transaction can
//! finish: checked on each level-II graph, and the engine declines when it fails), and on the
//! movers being movers of the projection's transitions. Termination (Theorem 3) needs every
//! recursive call inside a transaction: the engine reports whether that holds for the
//! functions the front-end lowered recursively, and declines when it does not.
//!
//! Also declined: atomic sections (other threads cannot be commuted across them), a thread
//! template created in a loop (the symmetric projection gives its class no thread slots, and
//! the exploration runs the slots), and a lock array element whose index is not known (the
//! engine adds cells for the elements the projection does not name). The strategy hands it
//! what the finite engine built a projection for but did not prove, with the same budget
//! (`engine::finite`); `tests/it/transactions.rs` checks the paper's summary edges for Figures
//! 2, 3 and 4. A run shared between copies is checked: the replay of the computing copy's own
//! run must give the run, else the engine declines; C3' is checked on the runs inside copies
//! and on the level-II graph around them. Copies of recursive functions, copies holding a
//! thread's initial program counter, and atomic ones are not shared.
//!
//! The sharing saves level II only: level I's states (one per call site) are unchanged.
//! `benchmarks/recursion/transactions.sh` (with `examples/tx_bench.rs`) measures them against the
//! exact exploration: k call sites of one locked procedure over 4 threads give 501,126 level-I
//! states in 10.8 s against 19,218,918 states in 57.8 s at k = 64
//! (`benchmarks/recursion/results-transactions-20261126.md`); `benchmarks/transactions/sharing.sh`
//! measures shared summaries against summaries per copy: the same states, time and memory at
//! k = 64, with 62 runs inside copies computed and 186 reused
//! (`benchmarks/transactions/results-20261127.md`).

use super::copies::Copies;
use super::model::{Decline, Model, TOP};
use super::movers::{array_element, Mover, Movers};
use super::space::Interner;
use crate::ir::{Action, AssertId, BinOp, Expr, LocId, Program, Ty};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::rc::Rc;
use std::time::Instant;

/// A thread's state as level II sees it: global store, its local store, its phase.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Node {
    g: u32,
    l: u32,
    pre: bool,
}

/// Limits of a run.
#[derive(Clone, Debug)]
pub struct TxOptions {
    /// Global states level I may visit.
    pub max_states: usize,
    /// Global or local stores (each) the projection may have.
    pub max_stores: usize,
    /// When to give up.
    pub deadline: Option<Instant>,
    /// Share the summaries of identical inlined copies of a procedure between call sites
    /// (off only to measure what the sharing saves).
    pub share: bool,
    /// Templates created only by counted loops, with their most threads (see
    /// [`super::FiniteOptions::counts`]): without a count such a template has no slots here.
    pub counts: HashMap<crate::ir::TemplateId, u32>,
    /// Facts of every execution that narrow the projection ([`super::FiniteOptions::invariants`]).
    pub invariants: Option<super::Invariants>,
}

impl Default for TxOptions {
    fn default() -> Self {
        TxOptions { max_states: 2_000_000, max_stores: 200_000, deadline: None, share: true, counts: HashMap::new(), invariants: None }
    }
}

/// A thread's state inside a copy of a procedure, independent of the call site: the class of
/// identical copies, the position in it, the copy's own cells, the global store and the phase.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CopyKey {
    class: u32,
    pos: u32,
    cells: Box<[i128]>,
    g: u32,
    pre: bool,
}

/// Where a run inside a copy stops, independent of the call site.
#[derive(Clone, Debug)]
struct CopyEnd {
    /// Left the copy through its k-th exit (`Ok(k)`), or its transaction ended at position
    /// `Err(pos)` inside it.
    at: Result<u32, u32>,
    cells: Box<[i128]>,
    g: u32,
    pre: bool,
}

/// How the summaries of one procedure's inlined copies were shared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sharing {
    /// Inlined copies found (every call site the threads reach once or more).
    pub copies: usize,
    /// Classes of identical copies among them.
    pub classes: usize,
    /// Summaries computed for the classes with several members (one per entry state).
    pub computed: usize,
    /// Times such a summary was reused instead of being computed again.
    pub reused: usize,
}

/// Where a procedure summary edge ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EdgeKind {
    /// At the procedure's return (the paper's `Sum⁻`).
    Return,
    /// Where the transaction ends inside the procedure (the paper's `Sum`, with `Mark`).
    TransactionEnd,
}

/// A node of a procedure summary, readable: the source line of the program counter, the
/// phase, and the values of the shared cells and of the procedure's locals.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NodeView {
    /// Source line of the program counter.
    pub line: u32,
    /// Before the transaction's commit.
    pub pre_commit: bool,
    /// Cell name to value (`?` for any value); locks are `lock NAME`.
    pub values: BTreeMap<String, String>,
}

impl NodeView {
    /// The value of a cell, if shown.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(|s| s.as_str())
    }
}

impl fmt::Display for NodeView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(line {}, {}", self.line, if self.pre_commit { "pre-commit" } else { "post-commit" })?;
        for (k, v) in &self.values {
            write!(f, ", {k}={v}")?;
        }
        write!(f, ")")
    }
}

/// One edge of a procedure's summary.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SummaryEdge {
    /// Return or transaction end.
    pub kind: EdgeKind,
    /// The entry node (the procedure's entry, or a transaction's start inside it).
    pub from: NodeView,
    /// The exit node.
    pub to: NodeView,
}

impl fmt::Display for SummaryEdge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = match self.kind {
            EdgeKind::Return => "returns",
            EdgeKind::TransactionEnd => "transaction ends",
        };
        write!(f, "{} -> {} ({k})", self.from, self.to)
    }
}

/// The two-level exploration of a projection.
pub struct Transactions<'m, 'p> {
    m: &'m Model<'p>,
    movers: &'m Movers,
    globals: Interner,
    locals: Vec<Interner>,
    /// Length of the projection's own global store; lock-array cells follow it.
    n_model: usize,
    /// Per lock array (in `movers.lock_arrays` order): its first cell in the global store.
    arr_base: Vec<usize>,
    /// Per slot: the local store it starts with (C1 keeps it in N).
    init_l: Vec<u32>,
    succ: Vec<HashMap<Node, Vec<Node>>>,
    sums: Vec<HashMap<Node, Vec<Node>>>,
    /// Level I's states: global store, then per slot its local store and phase.
    states: HashSet<Box<[u32]>>,
    failures: BTreeMap<AssertId, String>,
    /// Per location, the index of its function in `Program::functions`.
    func: Vec<Option<usize>>,
    /// Per location, the depth of its inlined call chain (0 where no thread reaches).
    depth: Vec<u32>,
    /// Functions the front-end lowered recursively (indexes into `Program::functions`).
    recursive: BTreeSet<usize>,
    /// Inlined copies of procedures, and which ones are identical.
    copies: Copies,
    /// Summaries of runs inside copies, shared by every copy of a class.
    copy_sums: HashMap<CopyKey, Rc<[CopyEnd]>>,
    /// Per class of copies: summaries reused.
    copy_reused: Vec<usize>,
    limit: usize,
    deadline: Option<Instant>,
}

impl<'m, 'p> Transactions<'m, 'p> {
    /// Explores the projection by transactions; declines on limits, when a committed
    /// transaction may not finish (C3'), or when a recursive function is not inside one.
    pub fn run(m: &'m Model<'p>, movers: &'m Movers, opts: &TxOptions) -> Result<Self, Decline> {
        if let Some(why) = &movers.unusable {
            return Err(why.clone());
        }
        let prog = m.prog;
        let n_model = m.global_len();
        let mut arr_base = Vec::new();
        let mut ext = 0;
        for a in &movers.lock_arrays {
            arr_base.push(n_model + ext);
            ext += a.len as usize;
        }
        let func: Vec<Option<usize>> = prog.locs.iter().map(|l| function_index(prog, l.span)).collect();
        let depth = call_depths(prog, &func);
        let recursive = prog.recursive_calls.iter().filter_map(|(f, _)| prog.functions.iter().position(|sf| &sf.name == f)).collect();
        let mut t = Transactions {
            m,
            movers,
            globals: Interner::default(),
            locals: (0..m.slots.len()).map(|_| Interner::default()).collect(),
            n_model,
            arr_base,
            init_l: Vec::new(),
            succ: vec![HashMap::new(); m.slots.len()],
            sums: vec![HashMap::new(); m.slots.len()],
            states: HashSet::new(),
            failures: BTreeMap::new(),
            func,
            depth,
            recursive,
            copies: Copies::default(),
            copy_sums: HashMap::new(),
            copy_reused: Vec::new(),
            limit: opts.max_stores,
            deadline: opts.deadline,
        };
        let mut g0 = m.init_global.to_vec();
        g0.extend(std::iter::repeat_n(0, ext));
        let g0 = t.globals.intern(g0.into()).0;
        let mut init = vec![g0];
        for i in 0..m.slots.len() {
            let l = t.locals[i].intern(m.init_locals[m.slots[i].class].clone()).0;
            t.init_l.push(l);
            init.extend([l, 1]);
        }
        if opts.share {
            // An initial store is in N by itself: a copy holding an initial program counter
            // does not behave as its twins there.
            let initial: Vec<LocId> = m.init_locals.iter().filter_map(|l| m.pc(l)).collect();
            t.copies = Copies::find(m, movers, &t.func, &t.depth, &t.recursive, &initial);
            t.copy_reused = vec![0; t.copies.classes.len()];
        }
        let init: Box<[u32]> = init.into();
        t.states.insert(init.clone());
        let mut stack = vec![init];
        while let Some(s) = stack.pop() {
            let n = m.slots.len();
            let node = |i: usize| Node { g: s[0], l: s[1 + 2 * i], pre: s[2 + 2 * i] == 1 };
            let mut outside = Vec::with_capacity(n);
            for i in 0..n {
                t.check(i, node(i));
                outside.push(t.is_n(i, node(i))?);
            }
            let busy: Vec<usize> = (0..n).filter(|&i| !outside[i]).collect();
            // C3' also for a committed transaction that level I does not schedule.
            for &i in &busy {
                if !node(i).pre {
                    t.summarize(i, node(i))?;
                }
            }
            let runnable: Vec<usize> = match busy.as_slice() {
                [] => (0..n).collect(),
                [one] => vec![*one],
                _ => Vec::new(),
            };
            for i in runnable {
                let ends = t.summarize(i, node(i))?.to_vec();
                for e in ends {
                    let mut s2 = s.clone();
                    s2[0] = e.g;
                    s2[1 + 2 * i] = e.l;
                    s2[2 + 2 * i] = e.pre as u32;
                    if t.states.insert(s2.clone()) {
                        if t.states.len() > opts.max_states {
                            return Err(format!("the transactions' exploration exceeds {} states", opts.max_states));
                        }
                        if t.states.len().is_multiple_of(1024) && t.deadline.is_some_and(|d| Instant::now() > d) {
                            return Err(format!("the transactions' exploration ran out of time after {} states", t.states.len()));
                        }
                        stack.push(s2);
                    }
                }
            }
        }
        Ok(t)
    }

    /// Level I's states (every thread outside a transaction, or one thread inside one).
    pub fn states(&self) -> usize {
        self.states.len()
    }

    /// Summary edges (transactions) computed by level II, over every thread.
    pub fn transactions(&self) -> usize {
        self.sums.iter().map(|s| s.values().map(|v| v.len()).sum::<usize>()).sum()
    }

    /// A failing state of the assertion, described; `None` when it holds in every state.
    pub fn failure(&self, a: AssertId) -> Option<&str> {
        self.failures.get(&a).map(|s| s.as_str())
    }

    /// The termination report (Theorem 3): the recursive functions, every one of which lies
    /// inside a transaction (the run declines otherwise).
    pub fn termination(&self) -> String {
        if self.recursive.is_empty() {
            return "no recursion".into();
        }
        let names: Vec<String> = self.recursive.iter().map(|&f| format!("`{}`", self.m.prog.functions[f].name)).collect();
        format!("every recursive call lies inside a transaction ({})", names.join(", "))
    }

    fn tick(&self) -> Result<(), Decline> {
        if self.deadline.is_some_and(|d| Instant::now() > d) {
            return Err("the transactions' exploration ran out of time".into());
        }
        Ok(())
    }

    /// The successors of a thread's node, with the phase updated by the mover of its action.
    fn succs(&mut self, i: usize, n: Node) -> Result<&[Node], Decline> {
        if !self.succ[i].contains_key(&n) {
            let out = self.compute_succs(i, n)?;
            self.succ[i].insert(n, out);
        }
        Ok(&self.succ[i][&n])
    }

    fn compute_succs(&mut self, i: usize, n: Node) -> Result<Vec<Node>, Decline> {
        let m = self.m;
        let gv = self.globals.items[n.g as usize].clone();
        let lv = self.locals[i].items[n.l as usize].clone();
        let base = &gv[..self.n_model];
        let pc = m.pc(&lv);
        let mover = pc.map(|pc| self.movers.at(pc).mover).unwrap_or(Mover::Both);
        // An element of a lock array: the projection does not name it, this engine does.
        let mut lock_op: Option<(usize, bool)> = None;
        if let Some(pc) = pc.filter(|_| m.may_step(base, &lv)) {
            let action = &m.prog.loc(pc).action;
            if let Action::Acquire(lval) | Action::Release(lval) | Action::LockBusy(lval) = action {
                if let Some((a, e)) = array_element(lval, &self.movers.lock_arrays) {
                    let k = self.movers.lock_arrays.iter().position(|x| x.var == a).expect("listed");
                    let len = self.movers.lock_arrays[k].len;
                    let ty = e.ty(m.prog);
                    let idx = (0..len as i128).find(|&v| m.holds(base, &lv, &Expr::Binary(BinOp::Eq, Box::new(e.clone()), Box::new(Expr::Const(v, ty)), Ty::INT)) == Some(true));
                    let Some(idx) = idx else {
                        return Err(format!("the element of lock array `{}` locked at {} is not known in the projection", m.prog.var(a).source_name, m.prog.span_str(m.prog.loc(pc).span)));
                    };
                    let cell = self.arr_base[k] + idx as usize;
                    match action {
                        Action::Acquire(_) if gv[cell] != 0 => return Ok(Vec::new()),
                        Action::LockBusy(_) if gv[cell] == 0 => return Ok(Vec::new()),
                        Action::Acquire(_) => lock_op = Some((cell, true)),
                        Action::Release(_) => lock_op = Some((cell, false)),
                        _ => {}
                    }
                }
            }
        }
        let mut out = Vec::new();
        m.step(m.slots[i].class, base, &lv, &mut out)?;
        let pre = mover.is_right() && (n.pre || !mover.is_left());
        let mut succ = Vec::with_capacity(out.len());
        for (ng, nl) in out {
            let mut g2 = ng.to_vec();
            g2.extend_from_slice(&gv[self.n_model..]);
            if let Some((cell, held)) = lock_op {
                g2[cell] = held as i128;
            }
            let g = self.globals.intern(g2.into()).0;
            let l = self.locals[i].intern(nl).0;
            succ.push(Node { g, l, pre });
        }
        if self.globals.items.len() > self.limit || self.locals[i].items.len() > self.limit {
            return Err(format!("the finite-state projection exceeds {} stores (a counter or value that does not stay small)", self.limit));
        }
        Ok(succ)
    }

    /// Whether an assertion may fail in the node; the failure is recorded.
    fn check(&mut self, i: usize, n: Node) -> bool {
        let m = self.m;
        let lv = &self.locals[i].items[n.l as usize];
        let gv = &self.globals.items[n.g as usize][..self.n_model];
        let Some((_, a)) = m.may_fail(gv, lv) else { return false };
        self.failures.entry(a).or_insert_with(|| format!("{} at {}{}", m.slots[i].name, m.show_line(lv), m.with_global(gv)));
        true
    }

    /// Whether the thread is outside a transaction in the node (the set N).
    fn is_n(&mut self, i: usize, n: Node) -> Result<bool, Decline> {
        let lv = &self.locals[i].items[n.l as usize];
        let Some(pc) = self.m.pc(lv) else { return Ok(true) };
        let fails = self.check(i, n);
        if n.l == self.init_l[i] || fails {
            return Ok(true);
        }
        if n.pre {
            return Ok(false);
        }
        let left = self.movers.at(pc).mover.is_left();
        Ok(!left || self.succs(i, n)?.is_empty())
    }

    /// Level II: runs thread `i` alone from `start` until its transaction ends; the ends,
    /// cached (the summary edges from `start`). Inside an inlined copy of a procedure whose
    /// class has other members, the run takes the class's shared summary ([`Self::in_copy`]).
    fn summarize(&mut self, i: usize, start: Node) -> Result<&[Node], Decline> {
        if !self.sums[i].contains_key(&start) {
            self.tick()?;
            let mut visited: HashSet<Node> = HashSet::new();
            let mut order = Vec::new();
            let mut edges: HashMap<Node, Vec<Node>> = HashMap::new();
            let mut ends: BTreeSet<Node> = BTreeSet::new();
            let mut stack = vec![start];
            visited.insert(start);
            while let Some(n) = stack.pop() {
                order.push(n);
                if n != start && self.is_n(i, n)? {
                    ends.insert(n);
                    continue;
                }
                let copy = self.pc_of(i, n).and_then(|pc| self.copies.at.get(pc.index()).copied().flatten());
                let next = match copy {
                    Some(c) => {
                        let (exits, inner) = self.in_copy(i, c as usize, n)?;
                        ends.extend(inner.iter().copied());
                        edges.entry(n).or_default().extend(inner);
                        exits
                    }
                    None => self.succs(i, n)?.to_vec(),
                };
                for s in next {
                    edges.entry(n).or_default().push(s);
                    if s == start && self.is_n(i, s)? {
                        ends.insert(s);
                    }
                    if visited.insert(s) {
                        stack.push(s);
                    }
                }
            }
            let finish: HashSet<Node> = ends.iter().copied().collect();
            self.check_c3(i, start, &order, &edges, &finish)?;
            for e in &ends {
                self.check_recursion(i, *e)?;
            }
            self.sums[i].insert(start, ends.into_iter().collect());
        }
        Ok(&self.sums[i][&start])
    }

    /// Runs thread `i` from `r` inside copy `c` until its transaction ends there or it leaves
    /// the copy: the nodes after leaving (`.0`) and the transaction ends inside (`.1`, in N).
    /// The run is summarised once per [`CopyKey`] and replayed in every identical copy.
    fn in_copy(&mut self, i: usize, c: usize, r: Node) -> Result<(Vec<Node>, Vec<Node>), Decline> {
        let key = self.copy_key(i, c, r);
        if let Some(out) = self.copy_sums.get(&key).cloned() {
            self.copy_reused[key.class as usize] += 1;
            return Ok(self.replay(i, c, r, &out));
        }
        let mut visited: HashSet<Node> = HashSet::from([r]);
        let mut order = Vec::new();
        let mut edges: HashMap<Node, Vec<Node>> = HashMap::new();
        let mut exits: BTreeSet<Node> = BTreeSet::new();
        let mut inner: BTreeSet<Node> = BTreeSet::new();
        let mut stack = vec![r];
        while let Some(n) = stack.pop() {
            order.push(n);
            for s in self.succs(i, n)?.to_vec() {
                edges.entry(n).or_default().push(s);
                let inside = self.pc_of(i, s).is_some_and(|pc| self.copies.copies[c].pos.contains_key(&pc));
                if !inside {
                    exits.insert(s);
                } else if self.is_n(i, s)? {
                    inner.insert(s);
                } else if visited.insert(s) {
                    stack.push(s);
                }
            }
        }
        let finish: HashSet<Node> = exits.iter().chain(&inner).copied().collect();
        self.check_c3(i, r, &order, &edges, &finish)?;
        let exits: Vec<Node> = exits.into_iter().collect();
        let inner: Vec<Node> = inner.into_iter().collect();
        let copy = &self.copies.copies[c];
        let mut out = Vec::with_capacity(exits.len() + inner.len());
        for (n, leaves) in exits.iter().map(|n| (n, true)).chain(inner.iter().map(|n| (n, false))) {
            let lv = &self.locals[i].items[n.l as usize];
            let pc = self.m.pc(lv).expect("a thread inside a copy has started");
            let at = if leaves { Ok(copy.exits.iter().position(|&e| e == pc).expect("an exit of the copy") as u32) } else { Err(copy.pos[&pc]) };
            out.push(CopyEnd { at, cells: copy.cells.iter().map(|&k| lv[k]).collect(), g: n.g, pre: n.pre });
        }
        let out: Rc<[CopyEnd]> = out.into();
        // The replay must give this copy's own run back (the frame argument of `copies`); it
        // is cheap next to the run, so it is checked always.
        if self.replay(i, c, r, &out) != (exits.clone(), inner.clone()) {
            let f = &self.m.prog.functions[self.copies.copies[c].function].name;
            return Err(format!("internal: the summary of a copy of `{f}` does not replay its own run; the transactions decline"));
        }
        self.copy_sums.insert(key, out);
        Ok((exits, inner))
    }

    /// The call-site-independent form of thread `i`'s node `r` inside copy `c`.
    fn copy_key(&self, i: usize, c: usize, r: Node) -> CopyKey {
        let copy = &self.copies.copies[c];
        let lv = &self.locals[i].items[r.l as usize];
        let pc = self.m.pc(lv).expect("a thread inside a copy has started");
        CopyKey { class: copy.class as u32, pos: copy.pos[&pc], cells: copy.cells.iter().map(|&k| lv[k]).collect(), g: r.g, pre: r.pre }
    }

    /// A copy summary's ends as nodes of thread `i` run from `r` in copy `c`: the copy's own
    /// cells from the summary, every other local cell as in `r` unless dead where it ends.
    fn replay(&mut self, i: usize, c: usize, r: Node, out: &[CopyEnd]) -> (Vec<Node>, Vec<Node>) {
        let base = self.locals[i].items[r.l as usize].clone();
        let (mut exits, mut inner) = (BTreeSet::new(), BTreeSet::new());
        for e in out {
            let copy = &self.copies.copies[c];
            let pc = match e.at {
                Ok(k) => copy.exits[k as usize],
                Err(p) => copy.locs[p as usize],
            };
            let mut l = base.to_vec();
            l[0] = pc.0 as i128;
            for (&k, &v) in copy.cells.iter().zip(e.cells.iter()) {
                l[k] = v;
            }
            for &d in self.m.dead_at(pc) {
                l[d] = TOP;
            }
            let node = Node { g: e.g, l: self.locals[i].intern(l.into()).0, pre: e.pre };
            if e.at.is_ok() {
                exits.insert(node);
            } else {
                inner.insert(node);
            }
        }
        (exits.into_iter().collect(), inner.into_iter().collect())
    }

    /// How the summaries of a procedure's inlined copies (by its source name) were shared.
    pub fn sharing(&self, function: &str) -> Sharing {
        let prog = self.m.prog;
        let Some(f) = prog.functions.iter().position(|sf| sf.name == function) else { return Sharing::default() };
        let classes: BTreeSet<usize> = self.copies.copies.iter().filter(|c| c.function == f).map(|c| c.class).collect();
        let shared = |k: &usize| self.copies.classes[*k].len() > 1;
        Sharing {
            copies: self.copies.copies.iter().filter(|c| c.function == f).count(),
            classes: classes.len(),
            computed: self.copy_sums.keys().filter(|k| classes.contains(&(k.class as usize))).count(),
            reused: classes.iter().filter(|k| shared(k)).map(|&k| self.copy_reused[k]).sum(),
        }
    }

    /// Summaries of runs inside copies computed and reused, over every procedure.
    pub fn shared_summaries(&self) -> (usize, usize) {
        (self.copy_sums.len(), self.copy_reused.iter().sum())
    }

    /// C3': every node after a commit reaches the end of its transaction (a node of `finish`),
    /// on the graph `edges` explored from `start` in `order`.
    fn check_c3(&mut self, i: usize, start: Node, order: &[Node], edges: &HashMap<Node, Vec<Node>>, finish: &HashSet<Node>) -> Result<(), Decline> {
        let mut after_commit = Vec::new();
        for &n in order {
            if !n.pre && !finish.contains(&n) && (n != start || !self.is_n(i, n)?) {
                after_commit.push(n);
            }
        }
        if after_commit.is_empty() {
            return Ok(());
        }
        let mut preds: HashMap<Node, Vec<Node>> = HashMap::new();
        for (&n, succs) in edges {
            for &s in succs {
                preds.entry(s).or_default().push(n);
            }
        }
        let mut finishes: HashSet<Node> = finish.clone();
        let mut work: Vec<Node> = finish.iter().copied().collect();
        while let Some(n) = work.pop() {
            for &p in preds.get(&n).map(|v| v.as_slice()).unwrap_or(&[]) {
                if finishes.insert(p) {
                    work.push(p);
                }
            }
        }
        if let Some(n) = after_commit.iter().find(|n| !finishes.contains(n)) {
            let lv = &self.locals[i].items[n.l as usize];
            return Err(format!("a committed transaction of {} may not finish (condition C3'): it is stuck after {}", self.m.slots[i].name, self.m.show_line(lv)));
        }
        Ok(())
    }

    /// Theorem 3's condition, checked on the recursive functions' own code: no transaction
    /// ends inside one.
    fn check_recursion(&self, i: usize, end: Node) -> Result<(), Decline> {
        let lv = &self.locals[i].items[end.l as usize];
        let Some(pc) = self.m.pc(lv) else { return Ok(()) };
        let Some(f) = self.func[pc.index()].filter(|f| self.recursive.contains(f)) else { return Ok(()) };
        let prog = self.m.prog;
        let name = &prog.functions[f].name;
        let site = prog.recursive_calls.iter().find(|(g, _)| g == name).map(|(_, s)| prog.span_str(*s)).unwrap_or_default();
        Err(format!("the recursive call of `{name}` at {site} does not lie inside a transaction (a transaction ends at {}): the summaries need not terminate", prog.span_str(prog.loc(pc).span)))
    }

    /// The paper's summary of a procedure (by its source name), from the cached level-II
    /// steps: edges from its entry, or from a transaction's start inside it, to its return or
    /// to the transaction's end. Empty when no thread runs it.
    pub fn procedure_summaries(&mut self, function: &str) -> Result<Vec<SummaryEdge>, Decline> {
        let prog = self.m.prog;
        let Some(f) = prog.functions.iter().position(|sf| sf.name == function) else { return Ok(Vec::new()) };
        let mut edges = BTreeSet::new();
        for i in 0..self.m.slots.len() {
            let starts: Vec<Node> = {
                let mut v: Vec<Node> = self.sums[i].keys().copied().collect();
                v.sort();
                v
            };
            let mut sources: BTreeSet<Node> = BTreeSet::new();
            for s in starts {
                if self.func_of(i, s) == Some(f) {
                    sources.insert(s);
                }
                // The procedure's entries reached in this transaction.
                let mut seen = HashSet::from([s]);
                let mut stack = vec![s];
                while let Some(n) = stack.pop() {
                    if n != s && self.is_n(i, n)? {
                        continue;
                    }
                    let d = self.pc_of(i, n).map_or(0, |pc| self.depth[pc.index()]);
                    for x in self.succs(i, n)?.to_vec() {
                        let entered = self.pc_of(i, x).is_some_and(|pc| self.depth[pc.index()] > d && self.func[pc.index()] == Some(f));
                        if entered && self.pc_of(i, n).is_some() {
                            sources.insert(x);
                        }
                        if seen.insert(x) {
                            stack.push(x);
                        }
                    }
                }
            }
            for src in sources {
                let mut seen = HashSet::from([src]);
                let mut stack = vec![src];
                while let Some(n) = stack.pop() {
                    if n != src {
                        let at_return = self.pc_of(i, n).is_some_and(|pc| self.func[pc.index()] == Some(f) && self.is_return_point(pc));
                        if at_return {
                            // The exit is the state after the return step, the procedure's
                            // locals as they were at it (the caller's code forgets them).
                            for x in self.succs(i, n)?.to_vec() {
                                let mut to = self.view(i, x, f);
                                let at = self.view(i, n, f);
                                to.line = at.line;
                                for (k, v) in at.values {
                                    if !self.is_shared_name(&k) {
                                        to.values.insert(k, v);
                                    }
                                }
                                edges.insert(SummaryEdge { kind: EdgeKind::Return, from: self.view(i, src, f), to });
                            }
                            continue;
                        }
                        if self.is_n(i, n)? {
                            if self.dead_branch(i, n)? {
                                continue;
                            }
                            edges.insert(SummaryEdge { kind: EdgeKind::TransactionEnd, from: self.view(i, src, f), to: self.view(i, n, f) });
                            continue;
                        }
                    }
                    for x in self.succs(i, n)?.to_vec() {
                        if seen.insert(x) {
                            stack.push(x);
                        }
                    }
                }
            }
        }
        Ok(edges.into_iter().collect())
    }

    /// A branch not taken: the thread blocks for ever on a condition of its own locals. Its
    /// transaction ends there (other threads must see what it committed before), but it is
    /// no edge of a procedure's summary.
    fn dead_branch(&mut self, i: usize, n: Node) -> Result<bool, Decline> {
        let Some(pc) = self.pc_of(i, n) else { return Ok(false) };
        let Action::Assume(c) = &self.m.prog.loc(pc).action else { return Ok(false) };
        let mut local = true;
        crate::ir::visit::expr_vars(c, &mut |v| local &= matches!(self.m.prog.var(v).kind, crate::ir::VarKind::Local(_) | crate::ir::VarKind::Temp(_)));
        Ok(local && self.succs(i, n)?.is_empty())
    }

    /// Whether a displayed cell is a shared one (a global or a lock).
    fn is_shared_name(&self, name: &str) -> bool {
        name.starts_with("lock ") || self.m.global_names.iter().any(|g| g == name)
    }

    fn pc_of(&self, i: usize, n: Node) -> Option<LocId> {
        self.m.pc(&self.locals[i].items[n.l as usize])
    }

    fn func_of(&self, i: usize, n: Node) -> Option<usize> {
        self.pc_of(i, n).and_then(|pc| self.func[pc.index()])
    }

    /// A function's last step before its caller continues (a return's store, or its last
    /// statement).
    fn is_return_point(&self, pc: LocId) -> bool {
        let d = self.depth[pc.index()];
        self.m.prog.loc(pc).succs.iter().any(|s| self.depth[s.index()] < d)
    }

    /// A node for display: line, phase, shared cells and the function's locals.
    fn view(&self, i: usize, n: Node, f: usize) -> NodeView {
        let m = self.m;
        let prog = m.prog;
        let gv = &self.globals.items[n.g as usize];
        let lv = &self.locals[i].items[n.l as usize];
        let show = |v: i128| if v == TOP { "?".to_string() } else { v.to_string() };
        let mut values = BTreeMap::new();
        for k in 0..m.global_len() {
            let name = &m.global_names[k];
            if name == "atomic owner" || name == "halted" {
                continue;
            }
            values.insert(name.clone(), show(gv[k]));
        }
        for (a, base) in self.movers.lock_arrays.iter().zip(&self.arr_base) {
            for k in 0..a.len as usize {
                values.insert(format!("lock {}[{k}]", prog.var(a.var).source_name), show(gv[base + k]));
            }
        }
        let tpl = m.slots[i].template;
        for (vi, var) in prog.vars.iter().enumerate() {
            let mine = matches!(var.kind, crate::ir::VarKind::Local(t) if t == tpl) && var.span.and_then(|s| function_index(prog, s)) == Some(f);
            if !mine {
                continue;
            }
            let Some((false, at, 1)) = m.cell_of(crate::ir::VarId(vi as u32)) else { continue };
            let v = show(lv[at]);
            let e = values.entry(var.source_name.clone()).or_insert_with(|| v.clone());
            if e == "?" {
                *e = v;
            }
        }
        let pc = m.pc(lv);
        NodeView { line: pc.map(|pc| prog.loc(pc).span.line).unwrap_or(0), pre_commit: n.pre, values }
    }
}

/// The depth of each location's inlined call chain, from the source function of each location
/// along every template's control flow: a step into another function than the current one
/// and its caller is a call, a step into the caller a return. A function calling itself stays
/// at one depth (its recursion is summarised as a whole); a location of no function (a
/// system header's) belongs to the current one.
fn call_depths(prog: &Program, func: &[Option<usize>]) -> Vec<u32> {
    let mut stack_at: Vec<Option<Vec<usize>>> = vec![None; prog.locs.len()];
    for t in &prog.templates {
        stack_at[t.entry.index()] = Some(func[t.entry.index()].into_iter().collect());
        let mut work = vec![t.entry];
        while let Some(a) = work.pop() {
            let sa = stack_at[a.index()].clone().expect("visited");
            for b in &prog.loc(a).succs {
                if stack_at[b.index()].is_some() {
                    continue;
                }
                let sb = match func[b.index()] {
                    None => sa.clone(),
                    Some(fb) if sa.last() == Some(&fb) => sa.clone(),
                    Some(fb) if sa.len() >= 2 && sa[sa.len() - 2] == fb => sa[..sa.len() - 1].to_vec(),
                    Some(fb) => {
                        let mut s = sa.clone();
                        s.push(fb);
                        s
                    }
                };
                stack_at[b.index()] = Some(sb);
                work.push(*b);
            }
        }
    }
    stack_at.into_iter().map(|s| s.map_or(0, |s| s.len() as u32)).collect()
}

/// The function definition a source position lies in, as an index into `Program::functions`.
fn function_index(prog: &Program, s: crate::ir::Span) -> Option<usize> {
    let f = prog.function_at(s)?;
    prog.functions.iter().position(|g| std::ptr::eq(g, f))
}

/// The engine's answer for the open assertions.
#[derive(Clone, Debug)]
pub struct TxReport {
    /// Per assertion: proved, or a failing state of the reduced exploration.
    pub outcomes: Vec<(AssertId, Result<(), String>)>,
    /// Theorem 3's condition, as [`Transactions::termination`] reports it.
    pub termination: String,
    /// Thread slots of the projection: the threads the program creates.
    pub threads: usize,
    /// Level I's states.
    pub states: usize,
    /// Summary edges (transactions).
    pub transactions: usize,
}

/// Tries to prove the open assertions for the threads the program creates; `must_hold` is
/// COARSEN's must-held locks per location. Declines (with the reason) where it does not apply.
pub fn prove(prog: &Program, open: &[AssertId], must_hold: &[Vec<crate::ir::memory::LockId>], opts: &TxOptions) -> Result<TxReport, Decline> {
    let mut m = Model::build_counted(prog, None, &opts.counts, true)?;
    if let Some(inv) = &opts.invariants {
        m.narrow(inv);
    }
    // The projection makes a template created in a loop a class of any number of threads,
    // with no slots: the exploration by transactions runs the slots only, so it needs them all.
    if let Some(c) = m.classes.iter().find(|c| c.count.is_none()) {
        return Err(format!("thread template `{}` has unboundedly many instances; the transactions need a fixed count", c.name));
    }
    let movers = super::movers::classify(prog, must_hold);
    let t = Transactions::run(&m, &movers, opts)?;
    let outcomes = open.iter().map(|&a| (a, t.failure(a).map_or(Ok(()), |f| Err(format!("a state of the reduced exploration fails it: {f}"))))).collect();
    Ok(TxReport { outcomes, termination: t.termination(), threads: m.slots.len(), states: t.states(), transactions: t.transactions() })
}
