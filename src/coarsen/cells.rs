//! DFG labels ("cells"): the unit of data that flows along a data-flow edge. For intervals a
//! cell is one abstract memory location; for octagons it is a variable pack (DUET §5.1,
//! Algorithm 2), so that relations inside a pack travel together.
//!
//! Algorithm 2 packs only variables of one scope. A test or a copy made while the thread holds
//! a lock also packs the shared locations it reads with the thread's locals (`dev.len > SIZE -
//! n` relates `dev.len` and `n`). Such a *mixed* cell carries the thread's locals only along its
//! own control flow: a value another thread wrote brings its shared part alone, and the reader's
//! locals are its own (`absint::Solver`); only the actions that write the shared part are
//! interference sources. Inside a critical section, once the thread has read or refined the
//! shared part, no other thread can change it ([`Cells::settled`]): from there on the cell
//! follows the thread's own control flow alone, which keeps `dev.len + n <= SIZE` from the test
//! to the store, and the value at the unlock is what other threads then read.

use crate::ir::memory::{lock_states, LockId};
use crate::ir::{AbsLoc, Action, LocId, LockRef, Program};
use domains::{PackingBuilder, Scope};

/// Index of a cell in [`Cells::cells`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(pub u32);

impl CellId {
    /// The index as usize.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One cell: a set of abstract locations whose values flow together.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Its abstract locations, in increasing order; their position is the cell's dimension.
    pub vars: Vec<AbsLoc>,
    /// Seen by several threads: it holds a shared location.
    pub shared: bool,
    /// The positions of its thread-local locations when it holds shared ones too (a mixed
    /// cell); empty otherwise.
    pub locals: Vec<usize>,
}

impl Cell {
    /// Whether it packs shared locations with thread-local ones.
    pub fn mixed(&self) -> bool {
        !self.locals.is_empty()
    }
}

/// Most locations in a pack that a mixed merge may build: a location's state is an octagon over
/// the packs it needs, and closure is cubic in their size.
const MAX_MIXED_PACK: usize = 12;

/// The partition of the abstract locations into cells, and each IR location's cell sets.
#[derive(Clone, Debug)]
pub struct Cells {
    /// All cells.
    pub cells: Vec<Cell>,
    /// For every abstract location: its cell and its dimension inside the cell.
    pub slot: Vec<(CellId, usize)>,
    /// Per IR location: the cells its action modifies (DUET's `mod_P`).
    pub mods: Vec<Vec<CellId>>,
    /// Per IR location: the cells its action reads.
    pub refs: Vec<Vec<CellId>>,
    /// Per IR location: the cells of the shared locations its action modifies (for a mixed
    /// cell, only these actions write what other threads may read).
    pub shared_mods: Vec<Vec<CellId>>,
    /// Per IR location: the cells of the shared locations its action reads or modifies.
    pub shared_touches: Vec<Vec<CellId>>,
}

impl Cells {
    /// Cells for a program: one per abstract location, or packs when `relational`.
    pub fn build(prog: &Program, relational: bool) -> Cells {
        let n = prog.memory.locs.len();
        let packs: Vec<Vec<usize>> = if relational {
            let scope = |a: AbsLoc| if prog.memory.info(a).shared { Scope::Global } else { Scope::Local };
            let mut b = PackingBuilder::new(n);
            let held = super::locks::must_hold(prog);
            let mut mixed: Vec<Vec<usize>> = Vec::new();
            for (i, loc) in prog.locs.iter().enumerate() {
                let acc = prog.memory.access(LocId(i as u32));
                let tag = |set: &[AbsLoc]| set.iter().map(|a| (a.index(), scope(*a))).collect::<Vec<_>>();
                let (vs, merged, copy) = match &loc.action {
                    Action::Assign(..) => {
                        let mut vs = tag(&acc.mods);
                        vs.extend(tag(&acc.refs));
                        let merged = b.assignment(&vs);
                        (vs, merged, true)
                    }
                    Action::Assume(_) | Action::Assert(..) => {
                        let vs = tag(&acc.refs);
                        let merged = b.assume(&vs);
                        (vs, merged, false)
                    }
                    _ => continue,
                };
                // Only inside a critical section does a relation between a shared location and
                // a local outlive the action: no other thread changes the shared one meanwhile.
                if merged || held[i].is_empty() {
                    continue;
                }
                let mut vs: Vec<usize> = vs.iter().map(|v| v.0).collect();
                vs.sort_unstable();
                vs.dedup();
                // Algorithm 2's sizes: a copy between two locations, a test over several.
                let shared = vs.iter().filter(|&&v| prog.memory.info(AbsLoc(v as u32)).shared).count();
                if shared >= 1 && shared < vs.len() && (vs.len() == 2 || !copy) {
                    mixed.push(vs);
                }
            }
            // After Algorithm 2's own packs, so that the cap sees the packs it would grow.
            for vs in &mixed {
                b.merge_within(vs, MAX_MIXED_PACK);
            }
            let packing = b.build();
            // The packing lists only packs of two or more; every other variable is alone.
            let mut packs = packing.packs().to_vec();
            packs.extend((0..n).filter(|&v| packing.pack_of(v).is_none()).map(|v| vec![v]));
            packs
        } else {
            (0..n).map(|i| vec![i]).collect()
        };
        let mut cells = Vec::with_capacity(packs.len());
        let mut slot = vec![(CellId(0), 0); n];
        let mut ordered = packs;
        for p in &mut ordered {
            p.sort_unstable();
        }
        ordered.sort();
        for p in ordered {
            if p.is_empty() {
                continue;
            }
            let id = CellId(cells.len() as u32);
            let vars: Vec<AbsLoc> = p.iter().map(|&i| AbsLoc(i as u32)).collect();
            let shared = vars.iter().any(|a| prog.memory.info(*a).shared);
            let locals: Vec<usize> = if shared { (0..vars.len()).filter(|&k| !prog.memory.info(vars[k]).shared).collect() } else { Vec::new() };
            for (k, a) in vars.iter().enumerate() {
                slot[a.index()] = (id, k);
            }
            cells.push(Cell { vars, shared, locals });
        }
        let cell_set = |set: &[AbsLoc]| {
            let mut v: Vec<CellId> = set.iter().map(|a| slot[a.index()].0).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let mut mods = Vec::with_capacity(prog.locs.len());
        let mut refs = Vec::with_capacity(prog.locs.len());
        let mut shared_mods = Vec::with_capacity(prog.locs.len());
        let mut shared_touches = Vec::with_capacity(prog.locs.len());
        let shared_only = |set: &[AbsLoc]| set.iter().copied().filter(|a| prog.memory.info(*a).shared).collect::<Vec<AbsLoc>>();
        for i in 0..prog.locs.len() {
            let acc = prog.memory.access(LocId(i as u32));
            mods.push(cell_set(&acc.mods));
            refs.push(cell_set(&acc.refs));
            let mut touched = shared_only(&acc.mods);
            shared_mods.push(cell_set(&touched));
            touched.extend(shared_only(&acc.refs));
            shared_touches.push(cell_set(&touched));
        }
        Cells { cells, slot, mods, refs, shared_mods, shared_touches }
    }

    /// Per location: the mixed cells whose shared part no other thread can change before the
    /// location's action, whatever it reads. A cell is settled when some lock is held at every
    /// store to its shared locations (but the root's deterministic prefix, which runs alone),
    /// and the thread holds that lock and has, since acquiring it, executed an action that
    /// defines the cell and reads or refines its shared part: that action's input took every
    /// other thread's writes, and none can come after it until the release. (An assume writes
    /// nothing, so the lock need not be held there.)
    pub fn settled(&self, prog: &Program) -> Vec<Vec<CellId>> {
        let n = prog.locs.len();
        let mixed: Vec<CellId> = (0..self.cells.len() as u32).map(CellId).filter(|c| self.cells[c.index()].mixed()).collect();
        if mixed.is_empty() {
            return vec![Vec::new(); n];
        }
        let held = super::locks::must_hold(prog);
        let prefix: std::collections::HashSet<LocId> = crate::ir::visit::root_prefix(prog).into_iter().collect();
        // Per mixed cell: the locks every store to its shared part holds (`None`: no store).
        let mut guard: Vec<Option<Vec<LockId>>> = vec![None; self.cells.len()];
        for (i, loc) in prog.locs.iter().enumerate() {
            if matches!(loc.action, Action::Assume(_) | Action::Assert(..)) || prefix.contains(&LocId(i as u32)) {
                continue;
            }
            for c in &self.shared_mods[i] {
                let g = guard[c.index()].get_or_insert_with(|| held[i].clone());
                g.retain(|k| held[i].contains(k));
            }
        }
        let lock_of = |c: CellId| guard[c.index()].as_ref().and_then(|g| g.first().copied());
        let step = |cur: &Vec<CellId>, l: LocId| -> Vec<CellId> {
            let mut out = cur.clone();
            match (&prog.loc(l).action, prog.memory.lock_of[l.index()]) {
                (Action::Acquire(_) | Action::Release(_), Some(LockRef::Exact(k))) => out.retain(|c| lock_of(*c) != Some(k)),
                (Action::Release(_), _) => out.clear(),
                _ => {}
            }
            for &c in &self.shared_touches[l.index()] {
                if self.cells[c.index()].mixed() && self.mods[l.index()].contains(&c) && lock_of(c).is_some_and(|k| held[l.index()].contains(&k)) && !out.contains(&c) {
                    out.push(c);
                }
            }
            out.sort_unstable();
            out
        };
        let meet = |a: &Vec<CellId>, b: &Vec<CellId>| a.iter().copied().filter(|c| b.contains(c)).collect();
        lock_states(prog, Vec::new(), step, meet).into_iter().map(|s| s.unwrap_or_default()).collect()
    }

    /// The cell of an abstract location.
    pub fn cell_of(&self, a: AbsLoc) -> CellId {
        self.slot[a.index()].0
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True when there are no cells.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// A printable name: the abstract location, or `{a, b}` for a pack.
    pub fn name(&self, prog: &Program, c: CellId) -> String {
        let vars = &self.cells[c.index()].vars;
        if vars.len() == 1 {
            prog.memory.info(vars[0]).name.clone()
        } else {
            format!("{{{}}}", vars.iter().map(|a| prog.memory.info(*a).name.clone()).collect::<Vec<_>>().join(", "))
        }
    }
}
