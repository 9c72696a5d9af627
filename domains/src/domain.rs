//! The numerical abstract domain trait shared by intervals and octagons.

use crate::interval::Interval;
use crate::linexpr::{LinCons, LinExpr};
use crate::numexpr::{linearize, Affine, CmpOp, NumExpr};
use crate::print::format_constraints;
use crate::thresholds::Thresholds;
use std::fmt;

/// A numerical abstract domain over a fixed number of integer dimensions.
///
/// An element stands for a set of points of ℤⁿ (its concretisation γ).
/// Every operation over-approximates its concrete counterpart: a concrete
/// point or result that is possible is never lost.
///
/// Preconditions, shared by every method: dimensions passed in are
/// `< self.dims()`, and binary operations get elements of the same number of
/// dimensions. Breaking one
/// is a logic error: debug builds panic on a `debug_assert`; release builds
/// neither panic nor cause undefined behaviour, and return an unspecified
/// element (usually ⊤ or the receiver unchanged).
pub trait NumDomain: Clone + PartialEq + fmt::Debug {
    /// The element for all of ℤⁿ.
    fn top(dims: usize) -> Self;
    /// The empty element.
    fn bottom(dims: usize) -> Self;
    /// The number of dimensions.
    fn dims(&self) -> usize;
    /// Whether γ(self) is empty.
    fn is_bottom(&self) -> bool;
    /// Whether γ(self) is all of ℤⁿ.
    fn is_top(&self) -> bool;
    /// Abstract inclusion: `self ⊑ other` implies γ(self) ⊆ γ(other).
    fn leq(&self, other: &Self) -> bool;
    /// In place least upper bound (or an upper bound).
    fn join_with(&mut self, other: &Self);
    /// In place greatest lower bound (or a sound over-approximation of it).
    fn meet_with(&mut self, other: &Self);
    /// In place widening `self ∇ newer`, with unstable bounds stopping at the
    /// next threshold when `thresholds` is given. Chains `xₖ₊₁ = xₖ ∇ yₖ`
    /// stabilise after finitely many steps.
    fn widen_with(&mut self, newer: &Self, thresholds: Option<&Thresholds>);
    /// In place narrowing `self Δ newer`, for `newer ⊑ self`.
    fn narrow_with(&mut self, newer: &Self);
    /// Assigns a non-deterministic value to `dim` (projects it out).
    fn forget(&mut self, dim: usize);
    /// `x_dim := lin + v` for some `v ∈ noise`, evaluated in the pre-state.
    fn assign_affine(&mut self, dim: usize, lin: &LinExpr, noise: Interval);
    /// Restricts to the points that satisfy `cons`.
    fn guard(&mut self, cons: &LinCons);
    /// Bounds of a linear expression over γ(self) (empty when bottom).
    fn bounds(&self, e: &LinExpr) -> Interval;
    /// Bounds of one dimension over γ(self).
    fn bounds_of(&self, dim: usize) -> Interval;
    /// Appends `count` unconstrained dimensions.
    fn add_dims(&mut self, count: usize);
    /// Removes the given dimensions (projecting them out); the remaining
    /// ones are renumbered in increasing order.
    fn remove_dims(&mut self, dims: &[usize]);
    /// Renames dimension `d` to `perm[d]`; `perm` is a permutation of `0..dims`.
    fn permute(&mut self, perm: &[usize]);
    /// A conjunction of constraints whose solutions are exactly γ(self)
    /// (`[−1 ≥ 0]` for bottom, `[]` for top).
    fn to_constraints(&self) -> Vec<LinCons>;
    /// Whether a concrete point is in γ(self).
    fn contains(&self, point: &[i128]) -> bool;

    /// ⊥ over the same space as `self`.
    fn bottom_like(&self) -> Self {
        Self::bottom(self.dims())
    }

    /// ⊤ over the same space as `self`.
    fn top_like(&self) -> Self {
        Self::top(self.dims())
    }

    /// Puts the element in its normal form (closure for octagons) so that
    /// later read-only queries need no temporary copy. Never call it on a
    /// widening accumulator: octagon widening needs the unclosed form.
    fn normalize(&mut self) {}

    /// Least upper bound.
    fn join(&self, other: &Self) -> Self {
        let mut r = self.clone();
        r.join_with(other);
        r
    }

    /// Greatest lower bound.
    fn meet(&self, other: &Self) -> Self {
        let mut r = self.clone();
        r.meet_with(other);
        r
    }

    /// Widening `self ∇ newer`.
    fn widen(&self, newer: &Self, thresholds: Option<&Thresholds>) -> Self {
        let mut r = self.clone();
        r.widen_with(newer, thresholds);
        r
    }

    /// Narrowing `self Δ newer`.
    fn narrow(&self, newer: &Self) -> Self {
        let mut r = self.clone();
        r.narrow_with(newer);
        r
    }

    /// `x_dim := e` for a linear expression.
    fn assign_linear(&mut self, dim: usize, e: &LinExpr) {
        self.assign_affine(dim, e, Interval::ZERO);
    }

    /// `x_dim := v` for some `v ∈ itv`.
    fn assign_interval(&mut self, dim: usize, itv: Interval) {
        self.assign_affine(dim, &LinExpr::zero(), itv);
    }

    /// Restricts to the points satisfying every constraint.
    fn guard_all(&mut self, cons: &[LinCons]) {
        for c in cons {
            if self.is_bottom_cheap() {
                return;
            }
            self.guard(c);
        }
    }

    /// A cheap emptiness test that may answer `false` for an empty element.
    fn is_bottom_cheap(&self) -> bool {
        self.is_bottom()
    }

    /// Linearises an expression under this element.
    fn linearize(&self, e: &NumExpr) -> Affine {
        linearize(e, &|l: &LinExpr| self.bounds(l))
    }

    /// Bounds of an expression over γ(self).
    fn eval_expr(&self, e: &NumExpr) -> Interval {
        let b = |l: &LinExpr| self.bounds(l);
        linearize(e, &b).range(&b)
    }

    /// `x_dim := e`: the linear part of `e` is handled exactly, non-linear
    /// subterms by their bounds under `self`.
    fn assign_expr(&mut self, dim: usize, e: &NumExpr) {
        // Linearising queries bounds; normalising once avoids a temporary
        // closed copy per query.
        self.normalize();
        let a = self.linearize(e);
        if a.noise.is_empty() {
            *self = self.bottom_like();
        } else {
            self.assign_affine(dim, &a.lin, a.noise);
        }
    }

    /// Restricts to the points where `l ⋈ r` may hold.
    fn guard_expr(&mut self, l: &NumExpr, op: CmpOp, r: &NumExpr) {
        self.normalize();
        let d = self.linearize(&NumExpr::Sub(Box::new(l.clone()), Box::new(r.clone())));
        for c in affine_guard(&d, op) {
            match c {
                None => {
                    *self = self.bottom_like();
                    return;
                }
                Some(c) => self.guard(&c),
            }
        }
    }

    /// Keeps the dimensions `keep` (existentially quantifying the others),
    /// `keep[i]` becoming dimension `i`. `keep` must be distinct and in range.
    fn project(&self, keep: &[usize]) -> Self {
        let n = self.dims();
        let mut seen = vec![false; n];
        for &d in keep {
            if d >= n || seen[d] {
                debug_assert!(false, "project: invalid dimension list");
                return Self::top(keep.len());
            }
            seen[d] = true;
        }
        let mut r = self.clone();
        let drop: Vec<usize> = (0..n).filter(|&d| !seen[d]).collect();
        r.remove_dims(&drop);
        // After removal the kept dimensions are numbered by increasing
        // original index; move each to its position in `keep`.
        let mut sorted: Vec<(usize, usize)> = keep.iter().enumerate().map(|(pos, &d)| (d, pos)).collect();
        sorted.sort_unstable();
        let perm: Vec<usize> = sorted.into_iter().map(|(_, pos)| pos).collect();
        r.permute(&perm);
        r
    }

    /// Prints γ(self) with the given names, e.g. `0 <= x <= 1 && x - y <= 3`.
    fn pretty(&self, names: &dyn Fn(usize) -> String) -> String {
        format_constraints(&self.to_constraints(), names)
    }
}

/// The linear constraints implied by `d ⋈ 0` where `d = lin + noise`;
/// `None` in the list means the guard is unsatisfiable.
fn affine_guard(d: &Affine, op: CmpOp) -> Vec<Option<LinCons>> {
    use crate::bound::Bound;
    if d.noise.is_empty() {
        return vec![None];
    }
    // d ≥ k is possible iff lin + hi(noise) ≥ k.
    let at_least = |k: i128| -> Option<LinCons> {
        let Bound::Fin(h) = d.noise.hi() else { return None };
        let c = h.checked_sub(k)?;
        Some(LinCons::ge0(d.lin.checked_add_constant(c)?))
    };
    // d ≤ k is possible iff −lin − lo(noise) + k ≥ 0.
    let at_most = |k: i128| -> Option<LinCons> {
        let Bound::Fin(l) = d.noise.lo() else { return None };
        let c = k.checked_sub(l)?;
        Some(LinCons::ge0(d.lin.checked_neg()?.checked_add_constant(c)?))
    };
    let out: Vec<Option<LinCons>> = match op {
        CmpOp::Ge => vec![at_least(0)],
        CmpOp::Gt => vec![at_least(1)],
        CmpOp::Le => vec![at_most(0)],
        CmpOp::Lt => vec![at_most(-1)],
        CmpOp::Eq => vec![at_least(0), at_most(0)],
        CmpOp::Ne => match d.noise.as_point() {
            Some(p) => vec![d.lin.checked_add_constant(p).map(LinCons::ne0)],
            None => vec![],
        },
    };
    // A constraint that could not be formed (infinite noise, overflow) is
    // dropped: that only loses precision.
    out.into_iter().flatten().map(Some).collect()
}

/// Whether `perm` is a permutation of `0..n`.
pub(crate) fn is_permutation(perm: &[usize], n: usize) -> bool {
    if perm.len() != n {
        return false;
    }
    let mut seen = vec![false; n];
    for &p in perm {
        if p >= n || seen[p] {
            return false;
        }
        seen[p] = true;
    }
    true
}

/// The sorted, duplicate-free list of valid dimensions to remove, or `None`
/// when some dimension is out of range.
pub(crate) fn removal_list(dims: &[usize], n: usize) -> Option<Vec<usize>> {
    let mut v = dims.to_vec();
    v.sort_unstable();
    v.dedup();
    if v.last().is_some_and(|&d| d >= n) {
        return None;
    }
    Some(v)
}

/// For each old dimension, its new index after removing the sorted list
/// `removed` (or `None` when removed).
pub(crate) fn removal_map(removed: &[usize], n: usize) -> Vec<Option<usize>> {
    let mut map = Vec::with_capacity(n);
    let mut next = 0;
    let mut k = 0;
    for d in 0..n {
        if k < removed.len() && removed[k] == d {
            map.push(None);
            k += 1;
        } else {
            map.push(Some(next));
            next += 1;
        }
    }
    map
}
