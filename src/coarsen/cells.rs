//! DFG labels ("cells"): the unit of data that flows along a data-flow edge. For intervals a
//! cell is one abstract memory location; for octagons it is a variable pack (DUET §5.1,
//! Algorithm 2), so that relations inside a pack travel together.

use crate::ir::{AbsLoc, Action, LocId, Program};
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
    /// Seen by several threads (all its locations are shared, by construction of the packs).
    pub shared: bool,
}

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
}

impl Cells {
    /// Cells for a program: one per abstract location, or packs when `relational`.
    pub fn build(prog: &Program, relational: bool) -> Cells {
        let n = prog.memory.locs.len();
        let packs: Vec<Vec<usize>> = if relational {
            let scope = |a: AbsLoc| if prog.memory.info(a).shared { Scope::Global } else { Scope::Local };
            let mut b = PackingBuilder::new(n);
            for (i, loc) in prog.locs.iter().enumerate() {
                let acc = prog.memory.access(LocId(i as u32));
                let tag = |set: &[AbsLoc]| set.iter().map(|a| (a.index(), scope(*a))).collect::<Vec<_>>();
                match &loc.action {
                    Action::Assign(..) => {
                        let mut vs = tag(&acc.mods);
                        vs.extend(tag(&acc.refs));
                        b.assignment(&vs);
                    }
                    Action::Assume(_) | Action::Assert(..) => {
                        b.assume(&tag(&acc.refs));
                    }
                    _ => {}
                }
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
            let shared = vars.iter().all(|a| prog.memory.info(*a).shared);
            for (k, a) in vars.iter().enumerate() {
                slot[a.index()] = (id, k);
            }
            cells.push(Cell { vars, shared });
        }
        let cell_set = |set: &[AbsLoc]| {
            let mut v: Vec<CellId> = set.iter().map(|a| slot[a.index()].0).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let mut mods = Vec::with_capacity(prog.locs.len());
        let mut refs = Vec::with_capacity(prog.locs.len());
        for i in 0..prog.locs.len() {
            let acc = prog.memory.access(LocId(i as u32));
            mods.push(cell_set(&acc.mods));
            refs.push(cell_set(&acc.refs));
        }
        Cells { cells, slot, mods, refs }
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
