//! The packed product domain: one octagon per pack of a [`Packing`] and one
//! interval for every variable that is alone.
//!
//! A constraint or an assignment whose variables lie in one pack is handled
//! by that pack's octagon exactly. One that spans packs is split: each pack
//! sees its own linear part with the other parts replaced by their bounds
//! (an interval), which is sound and keeps what relations it can.

use crate::bound::{Bound, Round};
use crate::domain::{is_permutation, removal_list, removal_map, NumDomain};
use crate::interval::Interval;
use crate::intervals::{push_interval_constraints, refine_ge0};
use crate::linexpr::{ConsKind, LinCons, LinExpr};
use crate::octagon::Octagon;
use crate::packs::Packing;
use crate::thresholds::Thresholds;
use std::fmt;
use std::sync::Arc;

/// Octagons over the packs of a shared [`Packing`], intervals for the rest.
#[derive(Clone)]
pub struct Packed {
    packing: Arc<Packing>,
    octs: Vec<Octagon>,
    /// Indexed by variable; entries of packed variables stay ⊤ and unused.
    free: Vec<Interval>,
    bottom: bool,
}

/// A linear expression split by pack.
struct Split {
    /// `(pack, expression over the pack's local dimensions)`, by pack.
    packs: Vec<(usize, LinExpr)>,
    /// Terms over variables that are alone.
    free: Vec<(usize, i128)>,
    cst: i128,
}

impl Packed {
    /// ⊤ over the variables of `packing`.
    pub fn top_with(packing: Arc<Packing>) -> Packed {
        let octs = packing.packs().iter().map(|p| Octagon::top(p.len())).collect();
        let free = vec![Interval::TOP; packing.num_vars()];
        Packed { packing, octs, free, bottom: false }
    }

    /// ⊥ over the variables of `packing`.
    pub fn bottom_with(packing: Arc<Packing>) -> Packed {
        let mut p = Packed::top_with(packing);
        p.bottom = true;
        p
    }

    /// The packing.
    pub fn packing(&self) -> &Arc<Packing> {
        &self.packing
    }

    /// The octagon of pack `p` (over the pack's variables in increasing order).
    pub fn octagon(&self, p: usize) -> Option<&Octagon> {
        self.octs.get(p)
    }

    /// Replaces the cell (pack or lone variable) of `var` by the one of
    /// `other`: the values of that cell's variables flow from `other`, as on
    /// an edge of a relational data-flow graph (DUET §5.1). To assemble an
    /// element from several sources, start from [`NumDomain::top_like`].
    pub fn copy_cell_from(&mut self, other: &Packed, var: usize) {
        self.cell_op(other, var, |a, b| a.clone_from(b), |a, b| *a = b);
    }

    /// Joins the cell (pack or lone variable) of `var` with the one of
    /// `other`, leaving the other cells unchanged.
    pub fn join_cell_from(&mut self, other: &Packed, var: usize) {
        self.cell_op(other, var, |a, b| a.join_with(b), |a, b| *a = a.join(&b));
    }

    fn cell_op(&mut self, other: &Packed, var: usize, oct: impl FnOnce(&mut Octagon, &Octagon), itv: impl FnOnce(&mut Interval, Interval)) {
        if !self.compatible(other) || var >= self.n() {
            debug_assert!(var < self.n(), "dimension {var} out of range");
            return;
        }
        if self.bottom {
            // Some other cell has no value, so no state has one; to build an
            // element cell by cell, start from ⊤.
            return;
        }
        if other.bottom {
            // The cell's values come from no state, so none remains.
            match self.packing.pack_of(var) {
                Some(p) => {
                    let n = self.octs[p].dims();
                    oct(&mut self.octs[p], &Octagon::bottom(n));
                }
                None => itv(&mut self.free[var], Interval::EMPTY),
            }
        } else {
            match self.packing.pack_of(var) {
                Some(p) => oct(&mut self.octs[p], &other.octs[p]),
                None => itv(&mut self.free[var], other.free[var]),
            }
        }
        self.sync_bottom();
    }

    fn n(&self) -> usize {
        self.packing.num_vars()
    }

    fn set_bottom(&mut self) {
        self.bottom = true;
    }

    /// Marks the element bottom when a component is known to be empty.
    fn sync_bottom(&mut self) {
        if self.octs.iter().any(|o| o.is_bottom_cheap()) || self.free.iter().any(Interval::is_empty) {
            self.bottom = true;
        }
    }

    fn compatible(&self, other: &Packed) -> bool {
        let ok = Arc::ptr_eq(&self.packing, &other.packing) || self.packing == other.packing;
        debug_assert!(ok, "packed elements over different packings");
        ok
    }

    fn split(&self, e: &LinExpr) -> Split {
        let mut packs: Vec<(usize, Vec<(usize, i128)>)> = Vec::new();
        let mut free = Vec::new();
        for &(d, a) in e.terms() {
            match self.packing.slot_of(d) {
                Some((p, l)) => match packs.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, t)) => t.push((l, a)),
                    None => packs.push((p, vec![(l, a)])),
                },
                None => free.push((d, a)),
            }
        }
        packs.sort_unstable_by_key(|(p, _)| *p);
        let packs = packs.into_iter().map(|(p, t)| (p, LinExpr::from_terms(t, 0).unwrap_or_default())).collect();
        Split { packs, free, cst: e.cst() }
    }

    fn free_bounds(&self, terms: &[(usize, i128)]) -> Interval {
        let mut acc = Interval::ZERO;
        for &(d, a) in terms {
            acc = acc.add(&self.free[d].scale(a));
        }
        acc
    }

    /// `e ≥ 0` for an expression that spans packs.
    fn guard_ge_split(&mut self, s: &Split) {
        let pack_b: Vec<Interval> = s.packs.iter().map(|(p, e)| self.octs[*p].bounds(e)).collect();
        let free_b = self.free_bounds(&s.free);
        let hi_sum = |skip: Option<usize>, with_free: bool| -> Bound {
            let mut u = Bound::Fin(s.cst);
            for (k, b) in pack_b.iter().enumerate() {
                if Some(k) != skip {
                    u = u.add(b.hi(), Round::Up);
                }
            }
            if with_free {
                u = u.add(free_b.hi(), Round::Up);
            }
            u
        };
        for (k, (p, e)) in s.packs.iter().enumerate() {
            if let Bound::Fin(u) = hi_sum(Some(k), true) {
                self.octs[*p].guard(&LinCons::ge0(e.clone().with_constant(u)));
            }
        }
        // With no free term this still checks a constraint without variables.
        if (!s.free.is_empty() || s.packs.is_empty()) && !refine_ge0(&s.free, hi_sum(None, false), &mut self.free) {
            self.set_bottom();
        }
        self.sync_bottom();
    }

    fn negate_split(s: &Split) -> Option<Split> {
        let mut packs = Vec::with_capacity(s.packs.len());
        for (p, e) in &s.packs {
            packs.push((*p, e.checked_neg()?));
        }
        let free = s.free.iter().map(|&(d, a)| a.checked_neg().map(|n| (d, n))).collect::<Option<Vec<_>>>()?;
        Some(Split { packs, free, cst: s.cst.checked_neg()? })
    }

    fn in_range(&self, e: &LinExpr) -> bool {
        let ok = e.dims_needed() <= self.n();
        debug_assert!(ok, "expression over a dimension out of range");
        ok
    }

    /// Rebuilds the element over `new_packing`, where pack `q` of the new
    /// packing comes from old pack `from[q]` with its local dimensions
    /// permuted by `local_perm[q]`, and free variable `d` gets `free[d]`.
    fn rebuild(new_packing: Packing, mut octs: Vec<Option<Octagon>>, from: Vec<usize>, local_perm: Vec<Vec<usize>>, free: Vec<Interval>, bottom: bool) -> Packed {
        let mut out = Vec::with_capacity(from.len());
        for (q, &p) in from.iter().enumerate() {
            let mut o = octs[p].take().unwrap_or_else(|| Octagon::top(local_perm[q].len()));
            o.permute(&local_perm[q]);
            out.push(o);
        }
        let mut r = Packed { packing: Arc::new(new_packing), octs: out, free, bottom };
        r.sync_bottom();
        r
    }
}

impl PartialEq for Packed {
    fn eq(&self, other: &Packed) -> bool {
        let (a, b) = (self.is_bottom(), other.is_bottom());
        if a || b {
            return a && b && self.n() == other.n();
        }
        if !(Arc::ptr_eq(&self.packing, &other.packing) || self.packing == other.packing) {
            return false;
        }
        self.octs == other.octs && (0..self.n()).all(|d| self.packing.pack_of(d).is_some() || self.free[d] == other.free[d])
    }
}

impl NumDomain for Packed {
    fn top(dims: usize) -> Packed {
        Packed::top_with(Arc::new(Packing::trivial(dims)))
    }

    fn bottom(dims: usize) -> Packed {
        Packed::bottom_with(Arc::new(Packing::trivial(dims)))
    }

    fn dims(&self) -> usize {
        self.n()
    }

    fn bottom_like(&self) -> Packed {
        Packed::bottom_with(self.packing.clone())
    }

    fn top_like(&self) -> Packed {
        Packed::top_with(self.packing.clone())
    }

    fn is_bottom(&self) -> bool {
        self.bottom || self.octs.iter().any(|o| o.is_bottom())
    }

    fn is_bottom_cheap(&self) -> bool {
        self.bottom
    }

    fn is_top(&self) -> bool {
        !self.bottom && self.octs.iter().all(|o| o.is_top()) && (0..self.n()).all(|d| self.packing.pack_of(d).is_some() || self.free[d].is_top())
    }

    fn normalize(&mut self) {
        for o in &mut self.octs {
            o.normalize();
        }
        self.sync_bottom();
    }

    fn leq(&self, other: &Packed) -> bool {
        if self.is_bottom() {
            return true;
        }
        if !self.compatible(other) || other.is_bottom() {
            return false;
        }
        self.octs.iter().zip(&other.octs).all(|(a, b)| a.leq(b)) && (0..self.n()).all(|d| self.packing.pack_of(d).is_some() || self.free[d].leq(&other.free[d]))
    }

    fn join_with(&mut self, other: &Packed) {
        if !self.compatible(other) {
            *self = Packed::top_with(self.packing.clone());
            return;
        }
        if other.is_bottom() {
            return;
        }
        if self.is_bottom() {
            *self = other.clone();
            return;
        }
        for (a, b) in self.octs.iter_mut().zip(&other.octs) {
            a.join_with(b);
        }
        for (a, b) in self.free.iter_mut().zip(&other.free) {
            *a = a.join(b);
        }
    }

    fn meet_with(&mut self, other: &Packed) {
        if self.bottom || !self.compatible(other) {
            return;
        }
        if other.bottom {
            self.set_bottom();
            return;
        }
        for (a, b) in self.octs.iter_mut().zip(&other.octs) {
            a.meet_with(b);
        }
        for (a, b) in self.free.iter_mut().zip(&other.free) {
            *a = a.meet(b);
        }
        self.sync_bottom();
    }

    fn widen_with(&mut self, newer: &Packed, thresholds: Option<&Thresholds>) {
        if !self.compatible(newer) {
            *self = Packed::top_with(self.packing.clone());
            return;
        }
        if self.bottom {
            *self = newer.clone();
            return;
        }
        if newer.bottom {
            return;
        }
        for (a, b) in self.octs.iter_mut().zip(&newer.octs) {
            a.widen_with(b, thresholds);
        }
        for (a, b) in self.free.iter_mut().zip(&newer.free) {
            *a = a.widen(b, thresholds);
        }
    }

    fn narrow_with(&mut self, newer: &Packed) {
        if self.bottom || !self.compatible(newer) {
            return;
        }
        if newer.bottom {
            self.set_bottom();
            return;
        }
        for (a, b) in self.octs.iter_mut().zip(&newer.octs) {
            a.narrow_with(b);
        }
        for (a, b) in self.free.iter_mut().zip(&newer.free) {
            *a = a.narrow(b);
        }
        self.sync_bottom();
    }

    fn forget(&mut self, dim: usize) {
        if self.bottom {
            return;
        }
        match self.packing.slot_of(dim) {
            Some((p, l)) => self.octs[p].forget(l),
            None => match self.free.get_mut(dim) {
                Some(v) => *v = Interval::TOP,
                None => debug_assert!(false, "dimension {dim} out of range"),
            },
        }
        self.sync_bottom();
    }

    fn assign_affine(&mut self, dim: usize, lin: &LinExpr, noise: Interval) {
        if self.bottom {
            return;
        }
        if dim >= self.n() {
            debug_assert!(false, "dimension {dim} out of range");
            return;
        }
        if !self.in_range(lin) {
            self.forget(dim);
            return;
        }
        if noise.is_empty() {
            self.set_bottom();
            return;
        }
        let s = self.split(lin);
        match self.packing.slot_of(dim) {
            Some((p, l)) => {
                // The other packs' parts and the free terms become noise.
                let mut rest = noise.add(&self.free_bounds(&s.free));
                let mut own = LinExpr::zero();
                for (q, e) in &s.packs {
                    if *q == p {
                        own = e.clone();
                    } else {
                        rest = rest.add(&self.octs[*q].bounds(e));
                    }
                }
                self.octs[p].assign_affine(l, &own.with_constant(s.cst), rest);
            }
            None => {
                let v = self.bounds(lin).add(&noise);
                self.free[dim] = v;
            }
        }
        self.sync_bottom();
    }

    fn guard(&mut self, cons: &LinCons) {
        if self.bottom || !self.in_range(&cons.expr) {
            return;
        }
        let s = self.split(&cons.expr);
        if s.free.is_empty() && s.packs.len() == 1 {
            let (p, e) = &s.packs[0];
            self.octs[*p].guard(&LinCons { expr: e.clone().with_constant(s.cst), kind: cons.kind });
            self.sync_bottom();
            return;
        }
        match cons.kind {
            ConsKind::Ge0 => self.guard_ge_split(&s),
            ConsKind::Eq0 => {
                self.guard_ge_split(&s);
                if let (false, Some(n)) = (self.bottom, Self::negate_split(&s)) {
                    self.guard_ge_split(&n);
                }
            }
            ConsKind::Ne0 => {
                let b = self.bounds(&cons.expr);
                let e = &cons.expr;
                let g = if b.as_point() == Some(0) {
                    self.set_bottom();
                    None
                } else if b.lo() == Bound::ZERO {
                    e.checked_add_constant(-1)
                } else if b.hi() == Bound::ZERO {
                    e.checked_neg().and_then(|n| n.checked_add_constant(-1))
                } else {
                    None
                };
                if let Some(g) = g {
                    self.guard(&LinCons::ge0(g));
                }
            }
        }
    }

    fn bounds(&self, e: &LinExpr) -> Interval {
        if self.bottom {
            return Interval::EMPTY;
        }
        if !self.in_range(e) {
            return Interval::TOP;
        }
        let s = self.split(e);
        let mut acc = Interval::point(s.cst).add(&self.free_bounds(&s.free));
        for (p, pe) in &s.packs {
            acc = acc.add(&self.octs[*p].bounds(pe));
        }
        acc
    }

    fn bounds_of(&self, dim: usize) -> Interval {
        if self.bottom {
            return Interval::EMPTY;
        }
        match self.packing.slot_of(dim) {
            Some((p, l)) => self.octs[p].bounds_of(l),
            None => self.free.get(dim).copied().unwrap_or(Interval::TOP),
        }
    }

    fn add_dims(&mut self, count: usize) {
        let n = self.n() + count;
        let packing = Packing::from_packs(n, self.packing.packs().to_vec()).unwrap_or_else(|| Packing::trivial(n));
        self.packing = Arc::new(packing);
        self.free.resize(n, Interval::TOP);
    }

    fn remove_dims(&mut self, dims: &[usize]) {
        let n = self.n();
        let Some(removed) = removal_list(dims, n) else {
            debug_assert!(false, "remove_dims: dimension out of range");
            return;
        };
        let map = removal_map(&removed, n);
        let new_n = n - removed.len();
        let mut free = vec![Interval::TOP; new_n];
        for (d, nd) in map.iter().enumerate() {
            if let (Some(nd), None) = (*nd, self.packing.pack_of(d)) {
                free[nd] = self.free[d];
            }
        }
        let mut octs: Vec<Option<Octagon>> = Vec::new();
        let mut new_packs = Vec::new();
        let mut from = Vec::new();
        for (p, vars) in self.packing.packs().iter().enumerate() {
            let mut o = self.octs[p].clone();
            let drop: Vec<usize> = (0..vars.len()).filter(|&l| map[vars[l]].is_none()).collect();
            o.remove_dims(&drop);
            let kept: Vec<usize> = vars.iter().filter_map(|&v| map[v]).collect();
            match kept.len() {
                0 => {}
                1 => free[kept[0]] = o.bounds_of(0),
                _ => {
                    from.push(octs.len());
                    octs.push(Some(o));
                    new_packs.push(kept);
                }
            }
        }
        // Kept packs stay in order of their smallest variable, and their
        // variables in order, because the renumbering is monotone.
        let perms: Vec<Vec<usize>> = new_packs.iter().map(|p| (0..p.len()).collect()).collect();
        let packing = Packing::from_packs(new_n, new_packs).unwrap_or_else(|| Packing::trivial(new_n));
        *self = Packed::rebuild(packing, octs, from, perms, free, self.bottom);
    }

    fn permute(&mut self, perm: &[usize]) {
        let n = self.n();
        if !is_permutation(perm, n) {
            debug_assert!(false, "permute: not a permutation");
            *self = Packed::top_with(self.packing.clone());
            return;
        }
        let mut free = vec![Interval::TOP; n];
        for d in 0..n {
            free[perm[d]] = self.free[d];
        }
        let renamed: Vec<Vec<usize>> = self.packing.packs().iter().map(|p| p.iter().map(|&v| perm[v]).collect()).collect();
        let packing = Packing::from_packs(n, renamed).unwrap_or_else(|| Packing::trivial(n));
        let mut from = Vec::with_capacity(packing.packs().len());
        let mut perms = Vec::with_capacity(packing.packs().len());
        for newp in packing.packs() {
            // Find the old pack through any of its variables.
            let old_var = perm.iter().position(|&t| t == newp[0]).unwrap_or(0);
            let p = self.packing.pack_of(old_var).unwrap_or(0);
            let old = &self.packing.packs()[p];
            // Old local index l (variable old[l]) goes to the position of
            // perm[old[l]] in the new, sorted pack.
            let lp: Vec<usize> = old.iter().map(|&v| newp.binary_search(&perm[v]).unwrap_or(0)).collect();
            from.push(p);
            perms.push(lp);
        }
        let octs = std::mem::take(&mut self.octs).into_iter().map(Some).collect();
        *self = Packed::rebuild(packing, octs, from, perms, free, self.bottom);
    }

    fn to_constraints(&self) -> Vec<LinCons> {
        if self.is_bottom() {
            return vec![LinCons::unsat()];
        }
        let mut out = Vec::new();
        for d in 0..self.n() {
            if self.packing.pack_of(d).is_none() {
                push_interval_constraints(&mut out, d, &self.free[d]);
            }
        }
        for (p, vars) in self.packing.packs().iter().enumerate() {
            for c in self.octs[p].to_constraints() {
                if let Some(expr) = c.expr.map_dims(|l| vars.get(l).copied()) {
                    out.push(LinCons { expr, kind: c.kind });
                }
            }
        }
        out
    }

    fn contains(&self, point: &[i128]) -> bool {
        if self.bottom || point.len() < self.n() {
            return false;
        }
        let free_ok = (0..self.n()).all(|d| self.packing.pack_of(d).is_some() || self.free[d].contains(point[d]));
        free_ok
            && self.packing.packs().iter().zip(&self.octs).all(|(vars, o)| {
                let local: Vec<i128> = vars.iter().map(|&v| point[v]).collect();
                o.contains(&local)
            })
    }
}

impl fmt::Debug for Packed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Packed({:?}: {})", self.packing.packs(), self.pretty(&crate::print::default_name))
    }
}

impl fmt::Display for Packed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pretty(&crate::print::default_name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packs::PackingBuilder;

    fn packing() -> Arc<Packing> {
        let mut b = PackingBuilder::new(4);
        b.merge(&[0, 2]);
        Arc::new(b.build())
    }

    #[test]
    fn relations_inside_a_pack_survive() {
        let mut p = Packed::top_with(packing());
        p.assign_interval(2, Interval::range(0, 5));
        p.assign_linear(0, &LinExpr::var(2).with_constant(1));
        p.assign_linear(1, &LinExpr::var(2));
        assert_eq!(p.bounds(&LinExpr::from_terms([(0, 1), (2, -1)], 0).unwrap()), Interval::point(1));
        // x1 is alone, so x1 − x2 is only known through intervals.
        assert_eq!(p.bounds(&LinExpr::from_terms([(1, 1), (2, -1)], 0).unwrap()), Interval::range(-5, 5));
        assert_eq!(p.to_string(), "0 <= x1 <= 5 && 1 <= x0 <= 6 && 0 <= x2 <= 5 && x0 - x2 == 1");
    }

    #[test]
    fn constraints_across_packs_refine_both_sides() {
        let mut p = Packed::top_with(packing());
        p.assign_interval(1, Interval::range(0, 3));
        p.assign_interval(2, Interval::range(0, 10));
        // x2 <= x1 + x3 with x3 in [0, 1]
        p.assign_interval(3, Interval::range(0, 1));
        p.guard(&LinCons::ge0(LinExpr::from_terms([(1, 1), (3, 1), (2, -1)], 0).unwrap()));
        assert_eq!(p.bounds_of(2), Interval::range(0, 4));
    }

    #[test]
    fn cells_flow_between_elements() {
        let mut a = Packed::top_with(packing());
        a.assign_interval(2, Interval::range(0, 5));
        a.assign_linear(0, &LinExpr::var(2));
        a.assign_interval(1, Interval::point(7));
        let mut b = Packed::top_with(packing());
        b.assign_interval(2, Interval::point(9));
        b.assign_linear(0, &LinExpr::var(2).with_constant(1));
        b.assign_interval(1, Interval::point(8));
        let mut c = a.clone();
        c.copy_cell_from(&b, 0);
        assert_eq!(c.bounds_of(2), Interval::point(9));
        assert_eq!(c.bounds_of(1), Interval::point(7));
        c.join_cell_from(&a, 2);
        assert_eq!(c.bounds_of(2), Interval::range(0, 9));
        assert_eq!(c.bounds(&LinExpr::from_terms([(0, 1), (2, -1)], 0).unwrap()), Interval::range(0, 1));
        c.join_cell_from(&b, 1);
        assert_eq!(c.bounds_of(1), Interval::range(7, 8));
        c.copy_cell_from(&Packed::bottom_with(packing()), 1);
        assert!(c.is_bottom());
    }

    #[test]
    fn dimension_changes_keep_packs_consistent() {
        let mut p = Packed::top_with(packing());
        p.assign_interval(2, Interval::range(0, 5));
        p.assign_linear(0, &LinExpr::var(2).with_constant(1));
        let mut q = p.clone();
        q.permute(&[3, 2, 1, 0]);
        assert_eq!(q.packing().packs(), &[vec![1, 3]]);
        assert_eq!(q.bounds(&LinExpr::from_terms([(3, 1), (1, -1)], 0).unwrap()), Interval::point(1));
        q.remove_dims(&[1]);
        assert!(q.packing().packs().is_empty());
        assert_eq!(q.bounds_of(2), Interval::range(1, 6));
    }
}
