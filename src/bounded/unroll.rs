//! Structural bounding: each template's control-flow graph unrolled into an acyclic graph.
//!
//! Loops are the natural loops of the (reducible) graph. A copy of a location is identified by
//! the location and the iteration of every loop around it.
//!
//! An *iteration* of a loop is one pass from its header back to its header (one back edge
//! taken). Bound `K` covers every execution in which each loop, per entry, takes its back edges
//! at most `K` times: its header is entered at most `K + 1` times, and the pass after the
//! `K`-th back edge (the *last pass*) may still run the loop's *tail*, the body locations from
//! which the loop can be left without passing its header again: the rest of a condition such
//! as `!stop && i < 2`, the decrement of `while (x--)`, a final partial pass that `break`s,
//! returns or fails an assertion (a failing assertion's branch leaves the body, so it is an
//! exit too). Only a location from which every way out of the loop passes the header again is
//! beyond the bound: the last pass cannot reach it, and the header is recorded as an unwinding
//! assumption. A thread may stop anywhere in the last pass, as anywhere else. So for
//! `while (c) body` bound `K` runs the body `K` times and tests `c` `K + 1` times, and a
//! `do body while (c)` runs its body up to `K + 1` times.
//!
//! A loop whose body only changes the thread's own registers (and may create threads) gets, at
//! its last header copy, an extra *havoc* node: "the loop ran any number of further iterations
//! and then left through one of its exits", with the registers it writes set to arbitrary
//! values. Threads created in those iterations are never scheduled. This lets `main` reach the
//! code after `for (i = 0; i < 10000; i++) pthread_create(...)` at any bound; the replay then
//! runs such a loop concretely to its end.
//!
//! A *counted* loop ([`Counts`]) is unrolled exactly as often as it can run, without a cut: its
//! last header copy can only leave, so the exploration of that loop is complete. A thread
//! template created only by counted loops gets exactly as many instances as can be created.
//! Counts are independent of the bound: a loop whose every entry into the body passes a guard
//! `v < E` (or `<=`, `>`, `>=`) on a register `v` with a constant `E` (or a register the body
//! never writes that enters the loop holding constants, taking its extreme value), whose every
//! iteration steps `v` exactly once by one towards `E` (a data-flow over the body counting steps
//! along every path from the header to a back edge), and which `v` enters with constant bounds
//! (constant propagation over the template, through copies of registers up to two deep; a
//! global counts as a constant when `fixed_globals` finds its one write in the run of constant
//! global stores that opens `main`, with no address taken and nothing outside the program able
//! to see it) runs at most `E - lo` times, and the guard keeps the step from wrapping. A
//! template's instances are the sum over its creation sites of the product of the counts of the
//! loops around the site, times the creator's instances. The counts are computed once per check
//! (`--max-unroll`, `--max-threads`) and shared by every bounded round and the finite-state
//! engine; a round that must lower the exact limit derives its counts with [`Counts::capped`],
//! which drops the longer loops and the templates whose count multiplies one of them, without
//! analysing the program again. If the counted program is too large to summarise, the run falls
//! back to plain bounds.

use crate::ir::visit;
use crate::ir::{Action, BinOp, Expr, IntTy, LocId, Lval, Multiplicity, Program, TemplateId, Ty, VarId, VarKind};
use hashbrown::{HashMap, HashSet};

/// Largest unrolled graph built for one template.
pub const MAX_NODES: usize = 400_000;

/// What a node of the unrolled graph does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BKind {
    /// A copy of an IR location.
    Loc(LocId),
    /// The iterations of the loop at `header` beyond the bound, summarised.
    Havoc {
        /// The loop's header.
        header: LocId,
        /// Registers the loop writes.
        vars: Vec<VarId>,
        /// Whether the loop allocates (the allocation counter moves on).
        allocs: bool,
        /// Whether the loop creates threads.
        forks: bool,
    },
}

/// A node of the unrolled graph.
#[derive(Clone, Debug)]
pub struct BNode {
    /// What it does.
    pub kind: BKind,
    /// Successors (indices into [`Unrolled::nodes`]).
    pub succs: Vec<u32>,
    /// Iteration numbers of the enclosing loops (outermost first), for display.
    pub iters: Vec<u32>,
}

/// A template's unrolled graph.
#[derive(Clone, Debug)]
pub struct Unrolled {
    /// The template.
    pub template: TemplateId,
    /// Nodes; node 0 is the entry, and every edge goes from a smaller to a larger index.
    pub nodes: Vec<BNode>,
    /// Loop headers where the bound cut a path (an unwinding assumption).
    pub cut_headers: Vec<LocId>,
}

struct Loop {
    header: LocId,
    body: HashSet<LocId>,
    havoc: Option<(Vec<VarId>, bool, bool)>,
    exits: Vec<LocId>,
    /// The body locations (the header excepted, inner loops included) from which an exit is
    /// reachable without passing the header: what the last pass may run.
    tail: HashSet<LocId>,
}

/// Unrolls a template with at most `k` iterations per loop.
pub fn unroll(prog: &Program, template: TemplateId, k: u32) -> Result<Unrolled, String> {
    unroll_counted(prog, template, k, &HashMap::new())
}

/// Unrolls a template: a loop whose header is in `counted` exactly that many times, without a
/// cut; every other loop at most `k` times.
pub fn unroll_counted(prog: &Program, template: TemplateId, k: u32, counted: &HashMap<LocId, u32>) -> Result<Unrolled, String> {
    let tpl = prog.template(template);
    let loops = find_loops(prog, template)?;
    // Enclosing loops of every location, outermost first.
    let mut enclosing: HashMap<LocId, Vec<usize>> = HashMap::new();
    let mut order: Vec<usize> = (0..loops.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(loops[i].body.len()));
    for &i in &order {
        for &l in &loops[i].body {
            enclosing.entry(l).or_default().push(i);
        }
    }
    let header_of: HashMap<LocId, usize> = loops.iter().enumerate().map(|(i, l)| (l.header, i)).collect();
    let none: Vec<usize> = Vec::new();

    #[derive(Clone, PartialEq, Eq, Hash)]
    enum Key {
        Loc(LocId, Vec<u32>),
        Havoc(LocId, Vec<u32>),
    }
    let mut ids: HashMap<Key, u32> = HashMap::new();
    let mut keys: Vec<Key> = Vec::new();
    let mut succs: Vec<Vec<u32>> = Vec::new();
    let mut cut: Vec<LocId> = Vec::new();
    let intern = |key: Key, ids: &mut HashMap<Key, u32>, keys: &mut Vec<Key>, succs: &mut Vec<Vec<u32>>| -> u32 {
        if let Some(i) = ids.get(&key) {
            return *i;
        }
        let i = keys.len() as u32;
        ids.insert(key.clone(), i);
        keys.push(key);
        succs.push(Vec::new());
        i
    };
    intern(Key::Loc(tpl.entry, Vec::new()), &mut ids, &mut keys, &mut succs);
    let mut next = 0usize;
    while next < keys.len() {
        if keys.len() > MAX_NODES {
            return Err(format!("the unrolled thread `{}` exceeds {MAX_NODES} locations", tpl.name));
        }
        let me = next as u32;
        let key = keys[next].clone();
        next += 1;
        let (loc, ctx) = match key {
            Key::Loc(l, c) => (l, c),
            Key::Havoc(h, ctx) => {
                let li = header_of[&h];
                let mut out = Vec::new();
                for &x in &loops[li].exits {
                    let xl = enclosing.get(&x).unwrap_or(&none);
                    let xc = ctx_for(&ctx, enclosing.get(&h).unwrap_or(&none), xl);
                    out.push(intern(Key::Loc(x, xc), &mut ids, &mut keys, &mut succs));
                }
                succs[me as usize] = out;
                continue;
            }
        };
        let mine = enclosing.get(&loc).unwrap_or(&none).clone();
        let bound = |li: usize| counted.get(&loops[li].header).copied().unwrap_or(k);
        let last_copy = match header_of.get(&loc) {
            Some(&li) if mine.last() == Some(&li) && ctx.last() == Some(&bound(li)) => Some(li),
            _ => None,
        };
        // The loops around `loc` in their last pass (the header's own included): a successor
        // in such a loop's body must be in its tail. A back edge to the header never is.
        let last_passes: Vec<usize> = mine.iter().zip(&ctx).filter(|&(&li, &it)| it == bound(li)).map(|(&li, _)| li).collect();
        let mut out = Vec::new();
        let mut was_cut = false;
        for &s in &prog.loc(loc).succs {
            let sl = enclosing.get(&s).unwrap_or(&none);
            if let Some(li) = last_copy {
                if loops[li].body.contains(&s) {
                    was_cut = true;
                    // A counted loop's last header copy cannot enter the body: its guard is
                    // false there.
                    if counted.contains_key(&loc) {
                        continue;
                    }
                }
            }
            if last_passes.iter().any(|&li| loops[li].body.contains(&s) && !loops[li].tail.contains(&s)) {
                continue;
            }
            let target = match header_of.get(&s) {
                // A back edge: the next iteration of that loop.
                Some(&li) if mine.contains(&li) => {
                    let pos = mine.iter().position(|&m| m == li).unwrap_or(0);
                    let mut c = ctx[..=pos].to_vec();
                    c[pos] += 1;
                    c
                }
                _ => ctx_for(&ctx, &mine, sl),
            };
            out.push(intern(Key::Loc(s, target), &mut ids, &mut keys, &mut succs));
        }
        // The last pass may not complete this iteration: a cut, unless the loop is counted,
        // whose count is exact.
        if was_cut && !counted.contains_key(&loc) {
            let li = last_copy.unwrap_or(0);
            cut.push(loc);
            if loops[li].havoc.is_some() && !loops[li].exits.is_empty() {
                out.push(intern(Key::Havoc(loc, ctx.clone()), &mut ids, &mut keys, &mut succs));
            }
        }
        succs[me as usize] = out;
    }
    // Renumber in a topological order so that every edge goes forwards.
    let n = keys.len();
    let mut indeg = vec![0u32; n];
    for s in &succs {
        for &t in s {
            indeg[t as usize] += 1;
        }
    }
    let mut topo = Vec::with_capacity(n);
    let mut ready: std::collections::VecDeque<u32> = std::collections::VecDeque::new();
    ready.push_back(0);
    while let Some(x) = ready.pop_front() {
        topo.push(x);
        for &t in &succs[x as usize] {
            indeg[t as usize] -= 1;
            if indeg[t as usize] == 0 {
                ready.push_back(t);
            }
        }
    }
    if topo.len() != n {
        return Err(format!("internal error: the unrolled thread `{}` is cyclic", tpl.name));
    }
    let mut pos = vec![0u32; n];
    for (i, &x) in topo.iter().enumerate() {
        pos[x as usize] = i as u32;
    }
    let nodes = topo
        .iter()
        .map(|&x| {
            let (kind, iters) = match &keys[x as usize] {
                Key::Loc(l, c) => (BKind::Loc(*l), c.clone()),
                Key::Havoc(h, c) => {
                    let (vars, allocs, forks) = loops[header_of[h]].havoc.clone().unwrap_or_default();
                    (BKind::Havoc { header: *h, vars, allocs, forks }, c.clone())
                }
            };
            BNode { kind, succs: succs[x as usize].iter().map(|&t| pos[t as usize]).collect(), iters }
        })
        .collect();
    cut.sort();
    cut.dedup();
    Ok(Unrolled { template, nodes, cut_headers: cut })
}

/// The iteration context of a location entered from a location with loops `from` and
/// context `ctx`: the loops they share keep their iteration, a newly entered loop starts at 0.
fn ctx_for(ctx: &[u32], from: &[usize], to: &[usize]) -> Vec<u32> {
    let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    let mut c = ctx[..common.min(ctx.len())].to_vec();
    while c.len() < to.len() {
        c.push(0);
    }
    c
}

fn find_loops(prog: &Program, template: TemplateId) -> Result<Vec<Loop>, String> {
    let tpl = prog.template(template);
    let idx: HashMap<LocId, usize> = tpl.locs.iter().enumerate().map(|(i, l)| (*l, i)).collect();
    let n = tpl.locs.len();
    let succ = |i: usize| -> Vec<usize> { prog.loc(tpl.locs[i]).succs.iter().filter_map(|s| idx.get(s).copied()).collect() };
    let Some(&entry) = idx.get(&tpl.entry) else { return Ok(Vec::new()) };
    // Depth-first order, back edges to nodes on the stack.
    let mut rpo = Vec::new();
    let mut state = vec![0u8; n];
    let mut retreating = Vec::new();
    let mut stack: Vec<(usize, usize)> = vec![(entry, 0)];
    state[entry] = 1;
    while let Some((v, i)) = stack.pop() {
        let ss = succ(v);
        if i < ss.len() {
            stack.push((v, i + 1));
            let w = ss[i];
            match state[w] {
                0 => {
                    state[w] = 1;
                    stack.push((w, 0));
                }
                1 => retreating.push((v, w)),
                _ => {}
            }
        } else {
            state[v] = 2;
            rpo.push(v);
        }
    }
    rpo.reverse();
    // Dominators (Cooper, Harvey and Kennedy's iterative scheme).
    let mut order = vec![usize::MAX; n];
    for (i, &v) in rpo.iter().enumerate() {
        order[v] = i;
    }
    let mut preds = vec![Vec::new(); n];
    for &v in &rpo {
        for w in succ(v) {
            preds[w].push(v);
        }
    }
    let mut idom = vec![usize::MAX; n];
    idom[entry] = entry;
    let mut changed = true;
    while changed {
        changed = false;
        for &v in rpo.iter().skip(1) {
            let mut new = usize::MAX;
            for &p in &preds[v] {
                if idom[p] == usize::MAX {
                    continue;
                }
                new = if new == usize::MAX {
                    p
                } else {
                    let (mut a, mut b) = (p, new);
                    while a != b {
                        while order[a] > order[b] {
                            a = idom[a];
                        }
                        while order[b] > order[a] {
                            b = idom[b];
                        }
                    }
                    a
                };
            }
            if new != idom[v] {
                idom[v] = new;
                changed = true;
            }
        }
    }
    let dominates = |a: usize, mut b: usize| -> bool {
        loop {
            if a == b {
                return true;
            }
            if b == entry || idom[b] == usize::MAX {
                return false;
            }
            b = idom[b];
        }
    };
    let mut bodies: HashMap<usize, HashSet<usize>> = HashMap::new();
    for &(u, h) in &retreating {
        if !dominates(h, u) {
            return Err(format!("irreducible control flow in `{}` at {}", tpl.name, prog.span_str(prog.loc(tpl.locs[h]).span)));
        }
        let body = bodies.entry(h).or_insert_with(|| [h].into_iter().collect());
        let mut work = vec![u];
        while let Some(x) = work.pop() {
            if body.insert(x) {
                work.extend(preds[x].iter().copied());
            }
        }
    }
    let mut headers: Vec<usize> = bodies.keys().copied().collect();
    headers.sort();
    let mut loops = Vec::new();
    for h in headers {
        let body: HashSet<LocId> = bodies[&h].iter().map(|&i| tpl.locs[i]).collect();
        let mut exits: Vec<LocId> = body.iter().flat_map(|&b| prog.loc(b).succs.iter().copied()).filter(|s| !body.contains(s)).collect();
        exits.sort();
        exits.dedup();
        let havoc = havoc_summary(prog, &body);
        let tail = tail_of(prog, tpl.locs[h], &body);
        loops.push(Loop { header: tpl.locs[h], body, havoc, exits, tail });
    }
    Ok(loops)
}

/// The body locations but the header from which a location outside the body is reachable
/// without passing the header (inner loops' back edges may be taken on the way).
fn tail_of(prog: &Program, header: LocId, body: &HashSet<LocId>) -> HashSet<LocId> {
    let mut locs: Vec<LocId> = body.iter().copied().filter(|l| *l != header).collect();
    locs.sort();
    let mut tail: HashSet<LocId> = HashSet::new();
    let mut changed = true;
    while changed {
        changed = false;
        for &l in &locs {
            if !tail.contains(&l) && prog.loc(l).succs.iter().any(|s| !body.contains(s) || tail.contains(s)) {
                tail.insert(l);
                changed = true;
            }
        }
    }
    tail
}

/// Exact bounds the bounded search uses instead of its bound K where it can prove them.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Loop header → most iterations of that loop per entry, on every path.
    pub loops: HashMap<LocId, u32>,
    /// Unbounded template → most instances created in one execution of the program.
    pub threads: HashMap<TemplateId, u32>,
    /// Counted template → the headers of the loops whose counts its number of instances
    /// multiplies (around its creation sites and its creators'), so that [`Counts::capped`]
    /// knows which templates lose their count with a loop.
    thread_loops: HashMap<TemplateId, Vec<LocId>>,
}

impl Counts {
    /// The counted loops of every template (those of at most `max_unroll` iterations), and the
    /// unbounded templates created only by counted loops (at most `max_threads` instances).
    /// Nothing is counted in parameterized mode, where every template is unbounded by
    /// definition.
    pub fn of(prog: &Program, max_unroll: u32, max_threads: u32) -> Counts {
        let mut c = Counts::default();
        if prog.mode.parameterized {
            return c;
        }
        let fixed = fixed_globals(prog);
        let mut loops_of: Vec<Option<Vec<Loop>>> = Vec::new();
        for t in 0..prog.templates.len() {
            let tid = TemplateId(t as u32);
            let Ok(loops) = find_loops(prog, tid) else {
                loops_of.push(None);
                continue;
            };
            for lp in &loops {
                if let Some(n) = trip_count(prog, &fixed, tid, lp).filter(|n| *n <= max_unroll) {
                    c.loops.insert(lp.header, n);
                }
            }
            loops_of.push(Some(loops));
        }
        let mut memo: HashMap<TemplateId, Option<Made>> = HashMap::new();
        for t in 0..prog.templates.len() {
            let tid = TemplateId(t as u32);
            if prog.template(tid).multiplicity != Multiplicity::Unbounded {
                continue;
            }
            let mut visiting = HashSet::new();
            if let Some((n, via)) = instances(prog, tid, &c.loops, &loops_of, &mut memo, &mut visiting).filter(|(n, _)| *n <= u64::from(max_threads)) {
                c.threads.insert(tid, n as u32);
                c.thread_loops.insert(tid, via);
            }
        }
        c
    }

    /// The counts `Counts::of` gives with `max_unroll` lowered to `cap` (the same
    /// `max_threads`), derived without analysing the program again: the loops longer than
    /// `cap` are dropped, and with them the templates whose count multiplies one of them (a
    /// count of instances never depends on `max_unroll` otherwise).
    pub fn capped(&self, cap: u32) -> Counts {
        let loops: HashMap<LocId, u32> = self.loops.iter().filter(|(_, n)| **n <= cap).map(|(h, n)| (*h, *n)).collect();
        let keeps = |t: &TemplateId| self.thread_loops.get(t).is_some_and(|via| via.iter().all(|h| loops.contains_key(h)));
        let threads = self.threads.iter().filter(|(t, _)| keeps(t)).map(|(t, n)| (*t, *n)).collect();
        let thread_loops = self.thread_loops.iter().filter(|(t, _)| keeps(t)).map(|(t, v)| (*t, v.clone())).collect();
        Counts { loops, threads, thread_loops }
    }
}

/// A template's most instances in one execution, and the loop headers that count multiplies.
type Made = (u64, Vec<LocId>);

/// Most instances of `t` in one execution: over every site that creates it, the product of
/// the counts of the loops around the site times the instances of the creating template; with
/// the headers of every loop so multiplied. `None` when a loop around a site is not counted.
fn instances(
    prog: &Program,
    t: TemplateId,
    counted: &HashMap<LocId, u32>,
    loops_of: &[Option<Vec<Loop>>],
    memo: &mut HashMap<TemplateId, Option<Made>>,
    visiting: &mut HashSet<TemplateId>,
) -> Option<Made> {
    if t == TemplateId(0) {
        return Some((1, Vec::new()));
    }
    if let Some(m) = memo.get(&t) {
        return m.clone();
    }
    if !visiting.insert(t) {
        return None;
    }
    let mut total: Option<Made> = Some((0, Vec::new()));
    for &site in &prog.template(t).spawned_at {
        let parent = prog.loc(site).template;
        let per_parent = match loops_of.get(parent.0 as usize) {
            Some(Some(loops)) => loops.iter().filter(|lp| lp.body.contains(&site)).try_fold((1u64, Vec::new()), |(acc, mut via), lp| {
                let n = counted.get(&lp.header)?;
                via.push(lp.header);
                Some((acc.saturating_mul(u64::from(*n)), via))
            }),
            _ => None,
        };
        let parents = instances(prog, parent, counted, loops_of, memo, visiting);
        total = match (total, per_parent, parents) {
            (Some((a, mut via)), Some((b, vb)), Some((c, vc))) => {
                via.extend(vb);
                via.extend(vc);
                Some((a.saturating_add(b.saturating_mul(c)), via))
            }
            _ => None,
        };
    }
    if prog.template(t).spawned_at.is_empty() {
        total = None;
    }
    if let Some((_, via)) = &mut total {
        via.sort();
        via.dedup();
    }
    visiting.remove(&t);
    memo.insert(t, total.clone());
    total
}

/// Whether the loop counts up (`v < E`, `v += 1`) or down (`v > E`, `v -= 1`).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Dir {
    Up,
    Down,
}

/// The most iterations of a loop per entry, when the loop has the shape of a counted `for`:
/// every way from the header into the body is a guard `v < E` (or `<=`, or downwards `>`,
/// `>=`) on one register `v` with a constant `E`; every iteration changes `v` exactly once, by
/// one step in the guard's direction, and nothing else writes it in the body; and `v` enters
/// the loop with a constant lower (upwards) or upper (downwards) bound. Then iteration `n`
/// meets the guard with `v` at least `lo + n`, so at most `E - lo` iterations pass it. The step
/// cannot wrap: `v` passed the guard in the same iteration, and the guard's bound is
/// representable in `v`'s type.
fn trip_count(prog: &Program, fixed: &Fixed, template: TemplateId, lp: &Loop) -> Option<u32> {
    let h = lp.header;
    let hl = prog.loc(h);
    let inside: Vec<LocId> = hl.succs.iter().copied().filter(|s| lp.body.contains(s)).collect();
    if inside.is_empty() {
        return None;
    }
    // (register, direction, exclusive limit) of every guard; all must agree.
    let mut guard: Option<(VarId, Dir, i128)> = None;
    for g in &inside {
        let Action::Assume(c) = &prog.loc(*g).action else { return None };
        let (v, d, e) = parse_guard(prog, fixed, template, lp, c)?;
        guard = match guard {
            None => Some((v, d, e)),
            Some((v0, d0, e0)) if v0 == v && d0 == d => Some((v, d, if d == Dir::Up { e0.max(e) } else { e0.min(e) })),
            _ => return None,
        };
    }
    let (v, dir, limit) = guard?;
    let Ty::Int(vt) = prog.var(v).ty.scalar(prog.data_model) else { return None };
    // The value after a step (at most `limit` upwards) must be representable.
    if (dir == Dir::Up && limit > vt.max()) || (dir == Dir::Down && limit < vt.min()) {
        return None;
    }
    if writes(&hl.action, v) {
        return None;
    }
    // Steps taken since the header, as a set of {0, 1, 2 or more}, over the body without the
    // back edges.
    let mut steps: HashMap<LocId, u8> = HashMap::new();
    steps.insert(h, 0b001);
    let mut work: Vec<LocId> = vec![h];
    while let Some(x) = work.pop() {
        let out = steps[&x];
        for &s in &prog.loc(x).succs {
            if s == h || !lp.body.contains(&s) {
                continue;
            }
            let a = &prog.loc(s).action;
            let after = if writes(a, v) {
                if !is_step(prog, a, v, dir, limit) {
                    return None;
                }
                ((out << 1) | (out & 0b100)) & 0b110
            } else {
                out
            };
            let old = steps.get(&s).copied().unwrap_or(0);
            if old | after != old {
                steps.insert(s, old | after);
                work.push(s);
            }
        }
    }
    for &u in &lp.body {
        if prog.loc(u).succs.contains(&h) && steps.get(&u).is_some_and(|m| *m != 0b010) {
            return None;
        }
    }
    let entry = entry_range(prog, fixed, template, v, h, &lp.body, COPY_DEPTH)?;
    let n = match dir {
        Dir::Up => limit - entry.0,
        Dir::Down => entry.1 - limit,
    };
    u32::try_from(n.max(0)).ok()
}

/// `v op E` or `E op v` as (register, direction, exclusive limit), with only value-preserving
/// conversions around `v` and `E`. `E` is a constant, or a register the body never writes
/// that enters the loop holding constants (`i < size` where `size` was bound to a constant
/// by inlining): then its largest (upwards) or smallest (downwards) entry value bounds it.
fn parse_guard(prog: &Program, fixed: &Fixed, template: TemplateId, lp: &Loop, c: &Expr) -> Option<(VarId, Dir, i128)> {
    let Expr::Binary(op, a, b, _) = c else { return None };
    let (v, k, op) = match (register_load(prog, a), fixed.value(b), register_load(prog, b), fixed.value(a)) {
        (Some(v), Some(k), _, _) => (v, k, *op),
        (_, _, Some(v), Some(k)) => (v, k, op.swap_operands()?),
        (Some(x), None, Some(y), None) => {
            let written = |w: VarId| lp.body.iter().any(|l| writes(&prog.loc(*l).action, w));
            let (v, w, op) = match (written(x), written(y)) {
                (true, false) => (x, y, *op),
                (false, true) => (y, x, op.swap_operands()?),
                _ => return None,
            };
            let (lo, hi) = entry_range(prog, fixed, template, w, lp.header, &lp.body, COPY_DEPTH)?;
            let k = if matches!(op, BinOp::Lt | BinOp::Le) { hi } else { lo };
            (v, k, op)
        }
        _ => return None,
    };
    match op {
        BinOp::Lt => Some((v, Dir::Up, k)),
        BinOp::Le => Some((v, Dir::Up, k + 1)),
        BinOp::Gt => Some((v, Dir::Down, k)),
        BinOp::Ge => Some((v, Dir::Down, k - 1)),
        _ => None,
    }
}

/// The register read by `e`, through conversions that keep every value of its type.
fn register_load(prog: &Program, e: &Expr) -> Option<VarId> {
    match e {
        Expr::Load(Lval::Var(v)) => {
            let var = prog.var(*v);
            let reg = matches!(var.kind, VarKind::Local(_) | VarKind::Temp(_)) && !var.addr_taken;
            (reg && matches!(var.ty.scalar(prog.data_model), Ty::Int(_))).then_some(*v)
        }
        Expr::Cast(Ty::Int(to), inner) => {
            let v = register_load(prog, inner)?;
            let Ty::Int(from) = prog.var(v).ty.scalar(prog.data_model) else { return None };
            (IntTy::min(*to) <= from.min() && IntTy::max(*to) >= from.max()).then_some(v)
        }
        _ => None,
    }
}

/// An integer constant, through conversions that keep its value.
fn constant(e: &Expr) -> Option<i128> {
    match e {
        Expr::Const(k, _) => Some(*k),
        Expr::Cast(Ty::Int(to), inner) => constant(inner).filter(|k| IntTy::min(*to) <= *k && *k <= IntTy::max(*to)),
        _ => None,
    }
}

/// Globals that hold one constant for the whole run (`const int N = 5;`, or a global nothing
/// writes after its initialiser), so a loop bound may read them like a literal.
#[derive(Default)]
struct Fixed(HashMap<VarId, i128>);

impl Fixed {
    /// An integer constant, or a fixed global's load, through conversions that keep its value.
    fn value(&self, e: &Expr) -> Option<i128> {
        match e {
            Expr::Load(Lval::Var(v)) => self.0.get(v).copied(),
            Expr::Cast(Ty::Int(to), inner) => self.value(inner).filter(|k| IntTy::min(*to) <= *k && *k <= IntTy::max(*to)),
            _ => constant(e),
        }
    }
}

/// The fixed globals: integer globals without an address (so written only by name, and a
/// call of unknown code writes them by an explicit havoc) that code outside the program cannot
/// see, written at exactly one location, a constant assignment in the straight run of constant
/// global assignments that opens the root's prefix ([`visit::root_prefix`]). Nothing runs
/// before that run (it reads nothing, and no other thread exists), so every read of such a
/// global sees that constant.
fn fixed_globals(prog: &Program) -> Fixed {
    let mut prologue: HashMap<VarId, (LocId, i128)> = HashMap::new();
    for at in visit::root_prefix(prog) {
        match &prog.loc(at).action {
            Action::Skip => {}
            Action::Assign(Lval::Var(g), e) if prog.var(*g).kind == VarKind::Global => {
                let Some(k) = constant(e) else { break };
                prologue.insert(*g, (at, k));
            }
            _ => break,
        }
    }
    prologue.retain(|g, (_, k)| {
        let var = prog.var(*g);
        let fits = matches!(var.ty.scalar(prog.data_model), Ty::Int(t) if t.min() <= *k && *k <= t.max());
        fits && !var.addr_taken && !prog.known_to_unknown_code.contains(g)
    });
    for (i, loc) in prog.locs.iter().enumerate() {
        let here = LocId(i as u32);
        prologue.retain(|g, (at, _)| *at == here || !writes(&loc.action, *g));
    }
    Fixed(prologue.into_iter().map(|(g, (_, k))| (g, k)).collect())
}

/// Whether the action writes register `v` (which has no address, so only by name).
fn writes(a: &Action, v: VarId) -> bool {
    match a {
        Action::Assign(lv, _) | Action::Alloc(lv, _, _) => lv.root_var() == Some(v),
        Action::Fork { handle: Some(h), .. } => h.root_var() == Some(v),
        _ => false,
    }
}

/// Whether the action is `v = v + 1` (upwards) or `v = v - 1` (downwards), where the guard
/// keeps the result within `limit`, so no conversion on the way changes it.
fn is_step(prog: &Program, a: &Action, v: VarId, dir: Dir, limit: i128) -> bool {
    let Action::Assign(Lval::Var(w), e) = a else { return false };
    if *w != v {
        return false;
    }
    let Ty::Int(vt) = prog.var(v).ty.scalar(prog.data_model) else { return false };
    let mut e = e;
    if let Expr::Cast(Ty::Int(to), inner) = e {
        // The result lies between a value of `v`'s type and the guard's limit: a conversion
        // to a type holding both keeps it.
        let keeps = match dir {
            Dir::Up => IntTy::min(*to) <= vt.min() && IntTy::max(*to) >= limit,
            Dir::Down => IntTy::max(*to) >= vt.max() && IntTy::min(*to) <= limit,
        };
        if !keeps {
            return false;
        }
        e = inner;
    }
    let Expr::Binary(op, x, y, Ty::Int(bt)) = e else { return false };
    if (dir == Dir::Up && limit > IntTy::max(*bt)) || (dir == Dir::Down && limit < IntTy::min(*bt)) {
        return false;
    }
    let one = |a: &Expr, b: &Expr, k: i128| register_load(prog, a) == Some(v) && constant(b) == Some(k);
    match (op, dir) {
        (BinOp::Add, Dir::Up) => one(x, y, 1) || one(y, x, 1),
        (BinOp::Sub, Dir::Up) => one(x, y, -1),
        (BinOp::Add, Dir::Down) => one(x, y, -1) || one(y, x, -1),
        (BinOp::Sub, Dir::Down) => one(x, y, 1),
        _ => false,
    }
}

/// How many copies between registers `entry_range` follows back (`n := sz` where the inlined
/// parameter `sz` was bound to a constant, as `calloc`'s zeroing loop reads its count).
const COPY_DEPTH: u32 = 2;

/// The range of constants `v` may hold when the loop at `h` is entered from outside its body:
/// constant assignments propagated over the template, and copies of registers that hold
/// constants there (`copies` levels deep); `None` when `v` may hold anything else.
fn entry_range(prog: &Program, fixed: &Fixed, template: TemplateId, v: VarId, h: LocId, body: &HashSet<LocId>, copies: u32) -> Option<(i128, i128)> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum R {
        Range(i128, i128),
        Any,
    }
    let join = |a: Option<R>, b: R| -> R {
        match (a, b) {
            (None, b) => b,
            (Some(R::Range(a0, a1)), R::Range(b0, b1)) => R::Range(a0.min(b0), a1.max(b1)),
            _ => R::Any,
        }
    };
    let tpl = prog.template(template);
    let Ty::Int(vt) = prog.var(v).ty.scalar(prog.data_model) else { return None };
    // The value after each location; the entry holds anything (a parameter, or uninitialised).
    let mut out: HashMap<LocId, R> = HashMap::new();
    let transfer = |a: &Action, inp: R| -> R {
        if !writes(a, v) {
            return inp;
        }
        match a {
            Action::Assign(Lval::Var(_), e) => match fixed.value(e) {
                Some(k) if vt.min() <= k && k <= vt.max() => R::Range(k, k),
                _ => R::Any,
            },
            _ => R::Any,
        }
    };
    // A copy `v := w` of a register holds what `w` holds where the copy runs; each such
    // location is asked once.
    let mut copied: HashMap<LocId, R> = HashMap::new();
    let mut transfer = |x: LocId, inp: R| -> R {
        let a = &prog.loc(x).action;
        let Action::Assign(Lval::Var(_), e) = a else { return transfer(a, inp) };
        match register_load(prog, e) {
            Some(w) if copies > 0 && w != v && writes(a, v) => *copied.entry(x).or_insert_with(|| match entry_range(prog, fixed, template, w, x, &HashSet::new(), copies - 1) {
                Some((lo, hi)) if vt.min() <= lo && hi <= vt.max() => R::Range(lo, hi),
                _ => R::Any,
            }),
            _ => transfer(a, inp),
        }
    };
    let mut inputs: HashMap<LocId, R> = HashMap::new();
    inputs.insert(tpl.entry, R::Any);
    let mut work = vec![tpl.entry];
    while let Some(x) = work.pop() {
        let r = transfer(x, inputs[&x]);
        if out.get(&x) == Some(&r) {
            continue;
        }
        out.insert(x, r);
        for &s in &prog.loc(x).succs {
            let old = inputs.get(&s).copied();
            let new = join(old, r);
            if old != Some(new) {
                inputs.insert(s, new);
                work.push(s);
            }
        }
    }
    let mut acc: Option<R> = None;
    for &p in &tpl.locs {
        if body.contains(&p) || !prog.loc(p).succs.contains(&h) {
            continue;
        }
        if let Some(r) = out.get(&p) {
            acc = Some(join(acc, *r));
        }
    }
    match acc? {
        R::Range(lo, hi) => Some((lo, hi)),
        R::Any => None,
    }
}

/// When a loop body only writes its thread's registers (and may create threads), the registers
/// it writes, whether it allocates and whether it forks; otherwise `None`.
fn havoc_summary(prog: &Program, body: &HashSet<LocId>) -> Option<(Vec<VarId>, bool, bool)> {
    let mut vars = Vec::new();
    let mut allocs = false;
    let mut forks = false;
    let register = |lv: &Lval| -> Option<VarId> {
        let v = lv.root_var()?;
        let var = prog.var(v);
        let local = matches!(var.kind, VarKind::Local(_) | VarKind::Temp(_));
        (local && !var.addr_taken).then_some(v)
    };
    let mut locs: Vec<&LocId> = body.iter().collect();
    locs.sort();
    for l in locs {
        match &prog.loc(*l).action {
            Action::Skip | Action::Assume(_) => {}
            Action::Assign(lv, _) => vars.push(register(lv)?),
            Action::Alloc(lv, _, _) => {
                vars.push(register(lv)?);
                allocs = true;
            }
            Action::Fork { handle, .. } => {
                if let Some(h) = handle {
                    vars.push(register(h)?);
                }
                forks = true;
            }
            _ => return None,
        }
    }
    vars.sort();
    vars.dedup();
    Some((vars, allocs, forks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{lower_text, FrontendOptions};

    fn prog(src: &str) -> Program {
        lower_text(src, "t.c", "t.c", &FrontendOptions::default()).expect("lowers")
    }

    #[test]
    fn loops_unroll_to_a_bounded_dag() {
        let p = prog("int g; int main(void) { int i; for (i = 0; i < 3; i++) { g = g + i; } return 0; }");
        let u1 = unroll(&p, TemplateId(0), 1).unwrap();
        let u3 = unroll(&p, TemplateId(0), 3).unwrap();
        assert!(u3.nodes.len() > u1.nodes.len());
        assert_eq!(u1.cut_headers.len(), 1);
        for (i, n) in u3.nodes.iter().enumerate() {
            for &s in &n.succs {
                assert!(s as usize > i, "edges go forwards");
            }
        }
        // The body writes a global, so no havoc node summarises the rest.
        assert!(u1.nodes.iter().all(|n| matches!(n.kind, BKind::Loc(_))));
    }

    #[test]
    fn the_last_pass_runs_the_rest_of_the_condition_and_no_more() {
        let p = prog("int g, stop; int main(void) { int i = 0; while (!stop && i < 2) { g = g + 1; i = i + 1; } return 0; }");
        let u = unroll(&p, TemplateId(0), 1).unwrap();
        let copies = |what: &dyn Fn(&Action) -> bool| -> Vec<Vec<u32>> {
            let mut v: Vec<Vec<u32>> = u.nodes.iter().filter(|n| matches!(n.kind, BKind::Loc(l) if what(&p.loc(l).action))).map(|n| n.iters.clone()).collect();
            v.sort();
            v
        };
        let not_stopped = |a: &Action| matches!(a, Action::Assume(Expr::Binary(BinOp::Eq, ..)));
        let enters = |a: &Action| matches!(a, Action::Assume(Expr::Binary(BinOp::Lt, ..)));
        let writes_g = |a: &Action| matches!(a, Action::Assign(Lval::Var(v), _) if p.var(*v).name == "g");
        // After one iteration `!stop` holds again and `i < 2` is tested (its failing side
        // leaves the loop), but the body does not run a second time.
        assert_eq!(copies(&not_stopped), vec![vec![0], vec![1]]);
        assert_eq!(copies(&enters), vec![vec![0]]);
        assert_eq!(copies(&writes_g), vec![vec![0]]);
        assert_eq!(u.cut_headers.len(), 1);
    }

    #[test]
    fn thread_creation_loops_get_a_havoc_exit() {
        let p = prog("typedef unsigned long pthread_t; int pthread_create(pthread_t *t, void *a, void *(*f)(void *), void *x); int g; void *f(void *a) { g = 1; return 0; } int main(void) { pthread_t t[100]; for (int i = 0; i < 100; i++) pthread_create(&t[i], 0, f, 0); return g; }");
        let u = unroll(&p, TemplateId(0), 2).unwrap();
        let havocs: Vec<_> = u.nodes.iter().filter(|n| matches!(n.kind, BKind::Havoc { .. })).collect();
        assert_eq!(havocs.len(), 1);
        match &havocs[0].kind {
            BKind::Havoc { forks, vars, .. } => {
                assert!(*forks);
                assert_eq!(vars.len(), 2, "i and t are havocked: {vars:?}");
            }
            _ => unreachable!(),
        }
    }
}
