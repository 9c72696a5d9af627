//! The interval (box) domain: one independent interval per dimension.

use crate::bound::{Bound, Round};
use crate::domain::{is_permutation, removal_list, removal_map, NumDomain};
use crate::interval::Interval;
use crate::linexpr::{ConsKind, LinCons, LinExpr};
use crate::thresholds::Thresholds;
use std::fmt;

/// A box: the product of one interval per dimension.
///
/// Bottom is canonical (no stored intervals), so derived equality is
/// equality of the represented sets.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Intervals {
    n: usize,
    bottom: bool,
    vals: Vec<Interval>,
}

impl Intervals {
    /// The box with the given intervals (bottom if one is empty).
    pub fn from_intervals(vals: Vec<Interval>) -> Intervals {
        let n = vals.len();
        if vals.iter().any(Interval::is_empty) {
            Intervals::bottom(n)
        } else {
            Intervals { n, bottom: false, vals }
        }
    }

    /// The intervals, one per dimension (empty slice when bottom).
    pub fn intervals(&self) -> &[Interval] {
        &self.vals
    }

    /// Replaces the interval of `dim` (an empty one makes the box bottom).
    pub fn set(&mut self, dim: usize, itv: Interval) {
        if self.bottom {
            return;
        }
        if itv.is_empty() {
            self.set_bottom();
        } else if let Some(v) = self.vals.get_mut(dim) {
            *v = itv;
        } else {
            debug_assert!(false, "dimension {dim} out of range");
        }
    }

    fn set_bottom(&mut self) {
        self.bottom = true;
        self.vals = Vec::new();
    }

    fn get(&self, dim: usize) -> Interval {
        if self.bottom {
            Interval::EMPTY
        } else {
            self.vals.get(dim).copied().unwrap_or(Interval::TOP)
        }
    }

    /// Whether `other` has the same number of dimensions (a precondition of
    /// every binary operation).
    fn compatible(&self, other: &Intervals) -> bool {
        debug_assert_eq!(self.n, other.n, "dimension mismatch");
        self.n == other.n
    }
}

/// Bounds of `Σ aᵢ·x_dᵢ + c` where `itv(d)` bounds `x_d`.
pub(crate) fn linear_bounds(e: &LinExpr, itv: impl Fn(usize) -> Interval) -> Interval {
    let mut acc = Interval::point(e.cst());
    for &(d, a) in e.terms() {
        acc = acc.add(&itv(d).scale(a));
        if acc.is_top() {
            break;
        }
    }
    acc
}

/// Refines the intervals of the variables of `Σ aᵢ·x_dᵢ + K ≥ 0`, where the
/// constant part `K` is unknown but at most `k_hi` (so the constraint
/// implies `Σ aᵢ·x_dᵢ + k_hi ≥ 0`). Each variable is bounded by the upper
/// bound of the rest. Returns `false` when the result is empty.
pub(crate) fn refine_ge0(terms: &[(usize, i128)], k_hi: Bound, vals: &mut [Interval]) -> bool {
    if terms.is_empty() {
        return k_hi >= Bound::ZERO;
    }
    for i in 0..terms.len() {
        let (d, a) = terms[i];
        let mut u = k_hi;
        for (j, &(dj, aj)) in terms.iter().enumerate() {
            if j != i {
                u = u.add(vals[dj].scale(aj).hi(), Round::Up);
                if u == Bound::PosInf {
                    break;
                }
            }
        }
        if u == Bound::PosInf {
            continue;
        }
        // a·x ≥ −u.
        let allowed = Interval::new(u.neg(Round::Down), Bound::PosInf).exact_div(a);
        let new = vals[d].meet(&allowed);
        vals[d] = new;
        if new.is_empty() {
            return false;
        }
    }
    true
}

impl NumDomain for Intervals {
    fn top(dims: usize) -> Intervals {
        Intervals { n: dims, bottom: false, vals: vec![Interval::TOP; dims] }
    }

    fn bottom(dims: usize) -> Intervals {
        Intervals { n: dims, bottom: true, vals: Vec::new() }
    }

    fn dims(&self) -> usize {
        self.n
    }

    fn is_bottom(&self) -> bool {
        self.bottom
    }

    fn is_top(&self) -> bool {
        !self.bottom && self.vals.iter().all(Interval::is_top)
    }

    fn leq(&self, other: &Intervals) -> bool {
        if self.bottom {
            return true;
        }
        if other.bottom || !self.compatible(other) {
            return false;
        }
        self.vals.iter().zip(&other.vals).all(|(a, b)| a.leq(b))
    }

    fn join_with(&mut self, other: &Intervals) {
        if !self.compatible(other) {
            *self = Intervals::top(self.n);
            return;
        }
        if other.bottom {
            return;
        }
        if self.bottom {
            *self = other.clone();
            return;
        }
        for (a, b) in self.vals.iter_mut().zip(&other.vals) {
            *a = a.join(b);
        }
    }

    fn meet_with(&mut self, other: &Intervals) {
        if self.bottom || !self.compatible(other) {
            return;
        }
        if other.bottom {
            self.set_bottom();
            return;
        }
        for (a, b) in self.vals.iter_mut().zip(&other.vals) {
            *a = a.meet(b);
        }
        if self.vals.iter().any(Interval::is_empty) {
            self.set_bottom();
        }
    }

    fn widen_with(&mut self, newer: &Intervals, thresholds: Option<&Thresholds>) {
        if !self.compatible(newer) {
            *self = Intervals::top(self.n);
            return;
        }
        if newer.bottom {
            return;
        }
        if self.bottom {
            *self = newer.clone();
            return;
        }
        for (a, b) in self.vals.iter_mut().zip(&newer.vals) {
            *a = a.widen(b, thresholds);
        }
    }

    fn narrow_with(&mut self, newer: &Intervals) {
        if self.bottom || !self.compatible(newer) {
            return;
        }
        if newer.bottom {
            self.set_bottom();
            return;
        }
        for (a, b) in self.vals.iter_mut().zip(&newer.vals) {
            *a = a.narrow(b);
        }
        if self.vals.iter().any(Interval::is_empty) {
            self.set_bottom();
        }
    }

    fn forget(&mut self, dim: usize) {
        if !self.bottom {
            self.set(dim, Interval::TOP);
        }
    }

    fn assign_affine(&mut self, dim: usize, lin: &LinExpr, noise: Interval) {
        if self.bottom {
            return;
        }
        let v = self.bounds(lin).add(&noise);
        self.set(dim, v);
    }

    fn guard(&mut self, cons: &LinCons) {
        if self.bottom {
            return;
        }
        let e = &cons.expr;
        if e.dims_needed() > self.n {
            debug_assert!(false, "constraint over a dimension out of range");
            return;
        }
        let ok = match cons.kind {
            ConsKind::Ge0 => self.refine(e),
            ConsKind::Eq0 => self.refine(e) && e.checked_neg().is_none_or(|ne| self.refine(&ne)),
            ConsKind::Ne0 => {
                let b = self.bounds(e);
                if b.as_point() == Some(0) {
                    false
                } else if b.lo() == Bound::ZERO {
                    e.checked_add_constant(-1).is_none_or(|g| self.refine(&g))
                } else if b.hi() == Bound::ZERO {
                    e.checked_neg().and_then(|n| n.checked_add_constant(-1)).is_none_or(|g| self.refine(&g))
                } else {
                    true
                }
            }
        };
        if !ok {
            self.set_bottom();
        }
    }

    fn bounds(&self, e: &LinExpr) -> Interval {
        if self.bottom {
            return Interval::EMPTY;
        }
        linear_bounds(e, |d| self.get(d))
    }

    fn bounds_of(&self, dim: usize) -> Interval {
        self.get(dim)
    }

    fn add_dims(&mut self, count: usize) {
        self.n += count;
        if !self.bottom {
            self.vals.resize(self.n, Interval::TOP);
        }
    }

    fn remove_dims(&mut self, dims: &[usize]) {
        let Some(removed) = removal_list(dims, self.n) else {
            debug_assert!(false, "remove_dims: dimension out of range");
            return;
        };
        let map = removal_map(&removed, self.n);
        self.n -= removed.len();
        if !self.bottom {
            let mut k = 0;
            self.vals.retain(|_| {
                let keep = map[k].is_some();
                k += 1;
                keep
            });
        }
    }

    fn permute(&mut self, perm: &[usize]) {
        if !is_permutation(perm, self.n) {
            debug_assert!(false, "permute: not a permutation");
            *self = Intervals::top(self.n);
            return;
        }
        if self.bottom {
            return;
        }
        let mut vals = vec![Interval::TOP; self.n];
        for (d, &p) in perm.iter().enumerate() {
            vals[p] = self.vals[d];
        }
        self.vals = vals;
    }

    fn to_constraints(&self) -> Vec<LinCons> {
        if self.bottom {
            return vec![LinCons::unsat()];
        }
        let mut out = Vec::new();
        for (d, v) in self.vals.iter().enumerate() {
            push_interval_constraints(&mut out, d, v);
        }
        out
    }

    fn contains(&self, point: &[i128]) -> bool {
        !self.bottom && point.len() >= self.n && self.vals.iter().zip(point).all(|(v, &p)| v.contains(p))
    }

    fn is_bottom_cheap(&self) -> bool {
        self.bottom
    }
}

impl Intervals {
    /// Refines with `e ≥ 0`; `false` when the result is empty.
    fn refine(&mut self, e: &LinExpr) -> bool {
        refine_ge0(e.terms(), Bound::Fin(e.cst()), &mut self.vals)
    }
}

/// Appends the constraints `lo ≤ x_d ≤ hi` (or `x_d = c`) of an interval.
pub(crate) fn push_interval_constraints(out: &mut Vec<LinCons>, d: usize, v: &Interval) {
    if let Some(c) = v.as_point() {
        if let Some(e) = c.checked_neg().map(|nc| LinExpr::var(d).with_constant(nc)) {
            out.push(LinCons::eq0(e));
            return;
        }
    }
    if let Bound::Fin(lo) = v.lo() {
        if let Some(nl) = lo.checked_neg() {
            out.push(LinCons::ge0(LinExpr::var(d).with_constant(nl)));
        }
    }
    if let Bound::Fin(hi) = v.hi() {
        out.push(LinCons::ge0(LinExpr::term(d, -1).with_constant(hi)));
    }
}

impl fmt::Debug for Intervals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bottom {
            write!(f, "Intervals(bottom, {} dims)", self.n)
        } else {
            write!(f, "Intervals{:?}", self.vals)
        }
    }
}

impl fmt::Display for Intervals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pretty(&crate::print::default_name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_propagates_to_every_variable() {
        let mut b = Intervals::from_intervals(vec![Interval::range(0, 10), Interval::range(0, 10)]);
        // x + 2y - 25 >= 0 ⇒ x >= 5, y >= 8 (since 2y >= 15).
        b.guard(&LinCons::ge0(LinExpr::from_terms([(0, 1), (1, 2)], -25).unwrap()));
        assert_eq!(b.bounds_of(0), Interval::range(5, 10));
        assert_eq!(b.bounds_of(1), Interval::range(8, 10));
        b.guard(&LinCons::ne0(LinExpr::var(1).with_constant(-10)));
        assert_eq!(b.bounds_of(1), Interval::range(8, 9));
        b.guard(&LinCons::eq0(LinExpr::var(0).with_constant(-11)));
        assert!(b.is_bottom());
    }

    #[test]
    fn printing() {
        let b = Intervals::from_intervals(vec![Interval::range(0, 1), Interval::at_least(3), Interval::point(4)]);
        assert_eq!(b.to_string(), "0 <= x0 <= 1 && x1 >= 3 && x2 == 4");
        assert_eq!(Intervals::bottom(2).to_string(), "false");
        assert_eq!(Intervals::top(2).to_string(), "true");
    }
}
