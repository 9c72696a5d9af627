//! The data-flow graph: an edge `u →c v` says the value of cell `c` written at `u` may be the
//! one `v` reads. Sequential edges come from reaching definitions inside each template;
//! interference edges come from the Datalog rules, round by round.

use super::cells::CellId;
use crate::ir::{LocId, Program, TemplateId};
use hashbrown::{HashMap, HashSet};

/// What an edge carries a value to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Use {
    /// The value may be the one the target's action reads when it executes.
    Exec,
    /// The value may be current while a thread stands at the target, perhaps unable to execute
    /// (another thread is in an atomic section, or holds the lock it waits for). Such values
    /// matter for what the target's invariant says about observable conditions.
    Stand,
}

/// A data-flow graph over the program's locations.
#[derive(Clone, Debug, Default)]
pub struct Dfg {
    /// Per target location: its incoming edges `(cell, source, use)`, sorted.
    pub incoming: Vec<Vec<(CellId, LocId, Use)>>,
    /// Per source location: its outgoing edges `(cell, target)`.
    pub outgoing: Vec<Vec<(CellId, LocId)>>,
    /// The round that added each edge (0 for sequential edges, k for round k's interference)
    /// and its use.
    pub round: HashMap<(LocId, CellId, LocId), (u32, Use)>,
    /// The edges of mixed cells (`cells::Cell::mixed`) that the interference rules derived,
    /// sequential ones among them: their values come from another thread.
    pub cross: HashSet<(LocId, CellId, LocId)>,
}

impl Dfg {
    /// An empty graph over `n` locations.
    pub fn new(n: usize) -> Dfg {
        Dfg { incoming: vec![Vec::new(); n], outgoing: vec![Vec::new(); n], round: HashMap::new(), cross: HashSet::new() }
    }

    /// Adds an edge, or makes a standing edge an execution edge; returns whether that
    /// changed the graph.
    pub fn add(&mut self, from: LocId, cell: CellId, to: LocId, round: u32, usage: Use) -> bool {
        let inc = &mut self.incoming[to.index()];
        if let Some(&(_, old)) = self.round.get(&(from, cell, to)) {
            if old == Use::Stand && usage == Use::Exec {
                self.round.insert((from, cell, to), (round, usage));
                if let Some(e) = inc.iter_mut().find(|e| e.0 == cell && e.1 == from) {
                    e.2 = Use::Exec;
                }
                return true;
            }
            return false;
        }
        self.round.insert((from, cell, to), (round, usage));
        // Kept sorted by cell: the interpreter reads one cell's sources as a contiguous run.
        let at = inc.partition_point(|e| (e.0, e.1) < (cell, from));
        inc.insert(at, (cell, from, usage));
        self.outgoing[from.index()].push((cell, to));
        true
    }

    /// Adds an edge the interference rules derived; for a mixed cell it also records that
    /// the value comes from another thread, even when the edge was already sequential (another
    /// instance of the same template). Returns whether that changed the graph.
    pub fn add_interference(&mut self, from: LocId, cell: CellId, to: LocId, round: u32, usage: Use, mixed: bool) -> bool {
        let added = self.add(from, cell, to, round, usage);
        let crossed = mixed && self.cross.insert((from, cell, to));
        added || crossed
    }

    /// Whether the edge comes from the thread's own control flow (as well as, perhaps, from
    /// another thread).
    pub fn is_sequential(&self, from: LocId, cell: CellId, to: LocId) -> bool {
        self.round.get(&(from, cell, to)).is_some_and(|&(r, _)| r == 0)
    }

    /// Number of edges.
    pub fn len(&self) -> usize {
        self.round.len()
    }

    /// True when the graph has no edge.
    pub fn is_empty(&self) -> bool {
        self.round.is_empty()
    }

    /// Every edge with its round and use, sorted.
    pub fn edges(&self) -> Vec<(LocId, CellId, LocId, u32, Use)> {
        let mut e: Vec<_> = self.round.iter().map(|(&(a, c, b), &(r, u))| (a, c, b, r, u)).collect();
        e.sort();
        e
    }
}

/// Intra-thread edges from reaching definitions. `defines[v]` are the cells location `v`
/// writes (every write ends the reach of earlier ones: a weak write reads the old value, so
/// that value flows on through it); `need[v]` the cells `v` reads. Templates `skip` names
/// (folded into an identical one, which stands for them) get none.
pub(crate) fn sequential(prog: &Program, defines: &[Vec<CellId>], need: &[Vec<CellId>], skip: &dyn Fn(TemplateId) -> bool) -> Dfg {
    let mut dfg = Dfg::new(prog.locs.len());
    for (i, t) in prog.templates.iter().enumerate() {
        if skip(TemplateId(i as u32)) {
            continue;
        }
        let Some(&first) = t.locs.first() else { continue };
        let start = first.index();
        let len = t.locs.len();
        debug_assert!(t.locs.iter().enumerate().all(|(i, l)| l.index() == start + i), "template locations are contiguous");
        let mut cells: Vec<CellId> = t.locs.iter().flat_map(|l| need[l.index()].iter().copied()).collect();
        cells.sort_unstable();
        cells.dedup();
        for c in cells {
            // Reaching definitions of `c` at the entry of each location (local indices).
            let mut reach_in: Vec<Vec<u32>> = vec![Vec::new(); len];
            let mut work: Vec<usize> = (0..len).rev().collect();
            let mut queued = vec![true; len];
            let out_of = |i: usize, reach_in: &Vec<Vec<u32>>| -> Vec<u32> {
                if defines[start + i].contains(&c) {
                    vec![i as u32]
                } else {
                    reach_in[i].clone()
                }
            };
            while let Some(i) = work.pop() {
                queued[i] = false;
                let out = out_of(i, &reach_in);
                for s in &prog.loc(LocId((start + i) as u32)).succs {
                    let j = s.index() - start;
                    let mut changed = false;
                    for d in &out {
                        if !reach_in[j].contains(d) {
                            reach_in[j].push(*d);
                            changed = true;
                        }
                    }
                    if changed && !queued[j] {
                        queued[j] = true;
                        work.push(j);
                    }
                }
            }
            for (i, r) in reach_in.iter().enumerate() {
                if need[start + i].contains(&c) {
                    for d in r {
                        dfg.add(LocId(start as u32 + d), c, LocId((start + i) as u32), 0, Use::Exec);
                    }
                }
            }
        }
    }
    dfg
}
