//! DUET's observable conditions (ExtractCond): the predicates over shared memory only that
//! occur in an `assume`. Each assume location needs one condition to have one truth value;
//! the invariants say which truth values a condition may have where another thread stands.

use super::cells::{CellId, Cells};
use crate::ir::{Action, BinOp, Expr, LocId, Lval, Program};
use hashbrown::HashMap;

/// The observable conditions of a program.
#[derive(Clone, Debug, Default)]
pub(crate) struct Conditions {
    /// Each condition in canonical form (`<`, `<=` or `==`; or a non-comparison).
    pub conds: Vec<Expr>,
    /// Per location: the condition its `assume` needs and the truth value it needs.
    pub needs: Vec<Option<(u32, bool)>>,
    /// The cells the conditions read: their values are tracked at every location so that the
    /// invariant there can say which conditions may hold.
    pub cells: Vec<CellId>,
}

/// Puts a condition in canonical form, with the truth value the original asks of it.
fn canonical(e: &Expr) -> (Expr, bool) {
    match e {
        Expr::Binary(op @ (BinOp::Gt | BinOp::Ge | BinOp::Ne), a, b, t) => (Expr::Binary(op.negate_comparison().expect("comparison"), a.clone(), b.clone(), *t), false),
        e => (e.clone(), true),
    }
}

/// Finds the observable conditions.
pub(crate) fn extract(prog: &Program, cells: &Cells) -> Conditions {
    let mut index: HashMap<Expr, u32> = HashMap::new();
    let mut out = Conditions { needs: vec![None; prog.locs.len()], ..Default::default() };
    for (i, loc) in prog.locs.iter().enumerate() {
        let Action::Assume(e) = &loc.action else { continue };
        let mut loads: Vec<&Lval> = Vec::new();
        e.for_each_load(&mut |lv| loads.push(lv));
        if loads.is_empty() || !loads.iter().all(|lv| prog.memory.is_shared(prog, lv)) {
            continue;
        }
        let (c, value) = canonical(e);
        let next = index.len() as u32;
        let id = *index.entry(c.clone()).or_insert_with(|| {
            out.conds.push(c);
            next
        });
        out.needs[i] = Some((id, value));
        for lv in loads {
            if let Some(a) = prog.memory.lookup(prog, lv) {
                out.cells.push(cells.cell_of(a));
            }
        }
    }
    out.cells.sort_unstable();
    out.cells.dedup();
    out
}

impl Conditions {
    /// The condition needed at a location.
    pub(crate) fn need(&self, l: LocId) -> Option<(u32, bool)> {
        self.needs[l.index()]
    }
}
