//! Inlined copies of one procedure that behave identically in the finite-state projection, up
//! to a one-to-one renaming of their variables, so that the transactions
//! ([`super::transactions`]) summarise a procedure once per entry state and reuse the summary
//! at every call site.
//!
//! The IR inlines every call, so each call site has its own copy of the callee's locations and
//! locals. A copy is the region a call enters: the locations reached from the callee's first
//! location while the inlined call chain is at least as deep ([`InlinedCopy`]). Two copies are
//! *identical* when their locations correspond one to one, in breadth-first order from the
//! entry, with the same control flow (successors inside at the same positions, successors
//! outside, the exits, at the same exit positions), the same actions with the same globals and
//! a consistent renaming of the rest, the same locks, movers, and dead cells among the copy's
//! own. A step inside a copy then reads and writes only the global store, the copy's own
//! cells and the program counter; every other local cell keeps its value unless it is dead
//! where the step arrives, and a cell the copy never names that is dead somewhere inside is
//! dead at every later location of the copy as well (its next use can only come after the
//! copy). So the outcome of running a copy from a state is determined by the position, the
//! copy's own cells, the global store and the phase, and carries over to an identical copy
//! with its own cells renamed and its other cells as they were, less those dead where it ends.

use super::model::Model;
use super::movers::Movers;
use crate::ir::rename::Shape;
use crate::ir::{Action, LocId, VarId, VarKind};
use std::collections::{BTreeSet, HashMap};

/// Regions larger than this are not considered (their comparison would cost more than it saves).
const MAX_REGION: usize = 20_000;

/// One inlined copy of a procedure.
#[derive(Clone, Debug)]
pub(crate) struct InlinedCopy {
    /// Its procedure, as an index into `Program::functions`.
    pub function: usize,
    /// Its class of identical copies.
    pub class: usize,
    /// Depth of its entry's inlined call chain (nested copies are deeper).
    pub depth: u32,
    /// Its locations, breadth-first from the entry: position k corresponds across a class.
    pub locs: Vec<LocId>,
    /// Position of each of its locations.
    pub pos: HashMap<LocId, u32>,
    /// Where control leaves it, in order of discovery: position k corresponds across a class.
    pub exits: Vec<LocId>,
    /// The local-store cells of the variables it names, in corresponding order.
    pub cells: Vec<usize>,
}

/// The copies of every procedure, grouped into classes of identical copies.
#[derive(Clone, Debug, Default)]
pub(crate) struct Copies {
    /// Every copy found.
    pub copies: Vec<InlinedCopy>,
    /// Per class, its members (indexes into `copies`); the first is the representative.
    pub classes: Vec<Vec<usize>>,
    /// Per location: the innermost copy containing it whose class has other members.
    pub at: Vec<Option<u32>>,
}

/// The variables a copy names, in order of first appearance, and each action's shape.
struct CopyShape {
    vars: Vec<VarId>,
    actions: Vec<Shape>,
}

impl Copies {
    /// Finds the copies of the non-recursive procedures of `m`'s program (`func` and `depth`
    /// per location, as the transactions compute them) and groups the identical ones. A copy
    /// holding a location of `excluded` (a thread's initial program counter, where the
    /// initial store matters) or of a recursive function, or an atomic section, is left out.
    pub(crate) fn find(m: &Model, movers: &Movers, func: &[Option<usize>], depth: &[u32], recursive: &BTreeSet<usize>, excluded: &[LocId]) -> Copies {
        let prog = m.prog;
        let mut entries: BTreeSet<LocId> = BTreeSet::new();
        for (pi, p) in prog.locs.iter().enumerate() {
            for &s in &p.succs {
                if let Some(f) = func[s.index()] {
                    if depth[s.index()] > depth[pi] && !recursive.contains(&f) && prog.loc(s).template == p.template {
                        entries.insert(s);
                    }
                }
            }
        }
        let mut copies: Vec<InlinedCopy> = Vec::new();
        let mut shapes: Vec<CopyShape> = Vec::new();
        'entry: for e in entries {
            let (d, f, tpl) = (depth[e.index()], func[e.index()].expect("an entry has a function"), prog.loc(e).template);
            let mut locs = vec![e];
            let mut pos: HashMap<LocId, u32> = HashMap::from([(e, 0)]);
            let mut exits = Vec::new();
            let mut k = 0;
            while k < locs.len() {
                let l = prog.loc(locs[k]);
                let in_recursive = func[locs[k].index()].is_some_and(|g| recursive.contains(&g));
                if l.atomic || matches!(l.action, Action::AtomicBegin | Action::AtomicEnd) || in_recursive || excluded.contains(&locs[k]) || locs.len() > MAX_REGION {
                    continue 'entry;
                }
                for &s in &l.succs {
                    if prog.loc(s).template != tpl {
                        continue 'entry;
                    }
                    if depth[s.index()] >= d {
                        if let std::collections::hash_map::Entry::Vacant(v) = pos.entry(s) {
                            v.insert(locs.len() as u32);
                            locs.push(s);
                        }
                    } else if !exits.contains(&s) {
                        exits.push(s);
                    }
                }
                k += 1;
            }
            let mut vars = Vec::new();
            let mut actions = Vec::with_capacity(locs.len());
            for &l in &locs {
                // Assertion and allocation numbers are masked too: inlined copies of one
                // assertion differ only there (a failure is recorded at the real copy's
                // location), and the projection stores "any value" for every allocation.
                let shape = Shape::of(&prog.loc(l).action, true);
                for &v in &shape.vars {
                    if own(prog.var(v).kind) && !vars.contains(&v) {
                        vars.push(v);
                    }
                }
                actions.push(shape);
            }
            let mut cells = Vec::new();
            for &v in &vars {
                if let Some((false, at, len)) = m.cell_of(v) {
                    cells.extend(at..at + len as usize);
                }
            }
            copies.push(InlinedCopy { function: f, class: usize::MAX, depth: d, locs, pos, exits, cells });
            shapes.push(CopyShape { vars, actions });
        }
        let mut classes: Vec<Vec<usize>> = Vec::new();
        for c in 0..copies.len() {
            let class = classes.iter().position(|members| identical(m, movers, &copies[members[0]], &shapes[members[0]], &copies[c], &shapes[c]));
            match class {
                Some(k) => {
                    classes[k].push(c);
                    copies[c].class = k;
                }
                None => {
                    copies[c].class = classes.len();
                    classes.push(vec![c]);
                }
            }
        }
        let mut at: Vec<Option<u32>> = vec![None; prog.locs.len()];
        for (ci, c) in copies.iter().enumerate() {
            if classes[c.class].len() < 2 {
                continue;
            }
            for &l in &c.locs {
                let slot = &mut at[l.index()];
                if slot.is_none_or(|o| copies[o as usize].depth < c.depth) {
                    *slot = Some(ci as u32);
                }
            }
        }
        Copies { copies, classes, at }
    }
}

/// Whether a variable belongs to a thread's own code (renamed between copies); globals and
/// thread-locals must be the same variable in both.
fn own(kind: VarKind) -> bool {
    matches!(kind, VarKind::Local(_) | VarKind::Temp(_))
}

/// Whether copy `b` behaves as copy `a`, position by position, up to a one-to-one renaming of
/// their own variables.
fn identical(m: &Model, movers: &Movers, a: &InlinedCopy, sa: &CopyShape, b: &InlinedCopy, sb: &CopyShape) -> bool {
    let prog = m.prog;
    if a.function != b.function || a.locs.len() != b.locs.len() || a.exits.len() != b.exits.len() || sa.vars.len() != sb.vars.len() || a.cells.len() != b.cells.len() {
        return false;
    }
    // Variables correspond by order of first appearance; the actions must confirm it.
    let mut ren: HashMap<VarId, VarId> = HashMap::new();
    for (&x, &y) in sa.vars.iter().zip(&sb.vars) {
        let (vx, vy) = (prog.var(x), prog.var(y));
        if vx.ty != vy.ty || vx.addr_taken != vy.addr_taken || m.cell_of(x).map(|(g, _, n)| (g, n)) != m.cell_of(y).map(|(g, _, n)| (g, n)) {
            return false;
        }
        ren.insert(x, y);
    }
    let same_var = |x: VarId, y: VarId| if own(prog.var(x).kind) { ren.get(&x) == Some(&y) } else { x == y };
    // The copy's own dead cells at a location, as positions in `cells`.
    let dead = |c: &InlinedCopy, l: LocId| -> Vec<usize> {
        let d = m.dead_at(l);
        c.cells.iter().enumerate().filter(|(_, cell)| d.contains(cell)).map(|(k, _)| k).collect()
    };
    for (k, (&la, &lb)) in a.locs.iter().zip(&b.locs).enumerate() {
        let (x, y) = (prog.loc(la), prog.loc(lb));
        if x.succs.len() != y.succs.len() || x.atomic != y.atomic {
            return false;
        }
        for (s, t) in x.succs.iter().zip(&y.succs) {
            let inside = match (a.pos.get(s), b.pos.get(t)) {
                (Some(p), Some(q)) => p == q,
                (None, None) => a.exits.iter().position(|e| e == s) == b.exits.iter().position(|e| e == t),
                _ => false,
            };
            if !inside {
                return false;
            }
        }
        let mem = &prog.memory;
        if mem.lock_of.get(la.index()) != mem.lock_of.get(lb.index()) || mem.lock_may.get(la.index()) != mem.lock_may.get(lb.index()) {
            return false;
        }
        if movers.at(la).mover != movers.at(lb).mover {
            return false;
        }
        if !sa.actions[k].matches(&sb.actions[k], &mut |x, y| same_var(x, y)) {
            return false;
        }
        if dead(a, la) != dead(b, lb) {
            return false;
        }
    }
    a.exits.iter().zip(&b.exits).all(|(&x, &y)| dead(a, x) == dead(b, y))
}
