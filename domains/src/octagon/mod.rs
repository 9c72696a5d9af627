//! Miné's octagon domain over integers: constraints `±x ± y ≤ c` in a
//! half-stored difference-bound matrix, kept in tight closure lazily.
//!
//! An octagon is either known empty, *closed* (its matrix is the tight
//! closure: every entry is the exact maximum of `±x ± y` over the integer
//! points), or *open* (any matrix with the right concretisation, e.g. after a
//! meet or a widening). Transfer functions close an open octagon first, and
//! keep it closed with the O(n²) incremental closure or the O(n) exact
//! assignments. Read-only queries on an open octagon close a temporary copy;
//! call [`NumDomain::normalize`] first to avoid that copy.

mod closure;
pub(crate) mod dbm;

use crate::bound::{div_floor, Bound, Round};
use crate::domain::{is_permutation, removal_list, removal_map, NumDomain};
use crate::interval::Interval;
use crate::intervals::push_interval_constraints;
use crate::linexpr::{ConsKind, LinCons, LinExpr};
use crate::thresholds::Thresholds;
use dbm::{from_bound, idx, matrix_len, row_len, row_start, to_bound, INF};
use std::borrow::Cow;
use std::fmt;

/// Whether the matrix is known empty, closed, or possibly not closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Bottom,
    Closed,
    Open,
}

/// An integer octagon over a fixed number of dimensions.
///
/// Equality is semantic (equality of the tight closures). `clone_from`
/// reuses the target's matrix allocation, which matters for large octagons.
pub struct Octagon {
    n: usize,
    m: Vec<i64>,
    state: State,
}

impl Clone for Octagon {
    fn clone(&self) -> Octagon {
        Octagon { n: self.n, m: self.m.clone(), state: self.state }
    }

    fn clone_from(&mut self, source: &Octagon) {
        self.n = source.n;
        self.state = source.state;
        self.m.clone_from(&source.m);
    }
}

/// The vertex of `s·x` (`s = ±1`).
#[inline]
fn vertex(x: usize, positive: bool) -> usize {
    if positive {
        2 * x
    } else {
        2 * x + 1
    }
}

/// `⌊v / 2⌋` of an entry, as a bound (+∞ stays +∞).
fn half_floor(v: i64) -> Bound {
    if v >= INF {
        Bound::PosInf
    } else {
        Bound::Fin((v >> 1) as i128)
    }
}

/// An octagonal reading of a linear expression: `Σ sᵢ·xᵢ` with at most two
/// unit terms, scaled by a positive factor.
struct OctForm {
    /// Up to two `(variable, is_positive)` terms.
    terms: [(usize, bool); 2],
    len: usize,
    /// The common magnitude of the coefficients.
    scale: i128,
}

/// Reads `e` (without its constant) as `scale · Σ ±xᵢ` when it has at most
/// two terms with equal magnitudes.
fn oct_form(e: &LinExpr) -> Option<OctForm> {
    let t = e.terms();
    match t {
        [] => Some(OctForm { terms: [(0, true); 2], len: 0, scale: 1 }),
        [(x, a)] => Some(OctForm { terms: [(*x, *a > 0), (0, true)], len: 1, scale: a.checked_abs()? }),
        [(x, a), (y, b)] if a.checked_abs()? == b.checked_abs()? => Some(OctForm { terms: [(*x, *a > 0), (*y, *b > 0)], len: 2, scale: a.checked_abs()? }),
        _ => None,
    }
}

impl Octagon {
    /// An octagon over `n` dimensions built from constraints, left unclosed
    /// (non-octagonal constraints are applied after closing).
    pub fn from_constraints(n: usize, cons: &[LinCons]) -> Octagon {
        let mut o = Octagon::top(n);
        o.state = State::Open;
        let mut rest = Vec::new();
        for c in cons {
            match (c.kind, oct_form(&c.expr)) {
                (ConsKind::Ge0, Some(_)) | (ConsKind::Eq0, Some(_)) => o.guard(c),
                _ => rest.push(c.clone()),
            }
        }
        for c in &rest {
            o.guard(c);
        }
        o
    }

    /// Whether the matrix is currently in tight closure (or known empty).
    pub fn is_closed(&self) -> bool {
        self.state != State::Open
    }

    /// Recomputes the tight closure from scratch, even when already closed
    /// (for testing idempotence).
    pub fn recompute_closure(&mut self) {
        if self.state != State::Bottom {
            self.state = State::Open;
            self.close();
        }
    }

    /// The upper bound of `V_j − V_i` stored at `(i, j)` (vertices `2k` for
    /// `+x_k`, `2k+1` for `−x_k`), as currently stored; `None` when bottom.
    pub fn entry(&self, i: usize, j: usize) -> Option<Bound> {
        if self.state == State::Bottom || i >= 2 * self.n || j >= 2 * self.n {
            None
        } else {
            Some(to_bound(self.get(i, j)))
        }
    }

    #[inline]
    fn get(&self, i: usize, j: usize) -> i64 {
        self.m[idx(i, j)]
    }

    #[inline]
    fn set(&mut self, i: usize, j: usize, v: i64) {
        self.m[idx(i, j)] = v;
    }

    fn set_bottom(&mut self) {
        self.state = State::Bottom;
        self.m = Vec::new();
    }

    fn top_matrix(n: usize) -> Vec<i64> {
        let mut m = vec![INF; matrix_len(n)];
        for i in 0..2 * n {
            m[idx(i, i)] = 0;
        }
        m
    }

    /// Brings the matrix to tight closure (or detects emptiness).
    fn close(&mut self) {
        if self.state == State::Open {
            if closure::close(&mut self.m, self.n) {
                self.state = State::Closed;
            } else {
                self.set_bottom();
            }
        }
    }

    /// `self` if closed, else a closed copy.
    fn closed(&self) -> Cow<'_, Octagon> {
        if self.state == State::Open {
            let mut c = self.clone();
            c.close();
            Cow::Owned(c)
        } else {
            Cow::Borrowed(self)
        }
    }

    /// Adds `V_j − V_i ≤ v`, incrementally when closed.
    fn add_entry(&mut self, i: usize, j: usize, v: i64) {
        if self.state == State::Bottom {
            return;
        }
        if i == j {
            if v < 0 {
                self.set_bottom();
            }
            return;
        }
        if v >= self.get(i, j) {
            return;
        }
        match self.state {
            State::Closed => {
                if !closure::add_edge(&mut self.m, self.n, i, j, v) {
                    self.set_bottom();
                }
            }
            _ => self.set(i, j, v),
        }
    }

    /// Adds `Σ sᵢ·xᵢ ≤ c` for an octagonal form with one or two terms.
    fn add_oct(&mut self, f: &OctForm, c: Bound) {
        match f.len {
            0 => {
                if c < Bound::ZERO {
                    self.set_bottom();
                }
            }
            1 => {
                let (x, s) = f.terms[0];
                let v = c.scale(2, Round::Up);
                self.add_entry(vertex(x, !s), vertex(x, s), from_bound(v));
            }
            _ => {
                let ((x, sx), (y, sy)) = (f.terms[0], f.terms[1]);
                self.add_entry(vertex(y, !sy), vertex(x, sx), from_bound(c));
            }
        }
    }

    /// Adds `e ≥ 0` for an octagonal `e`: `scale·Σ sᵢxᵢ + c ≥ 0` becomes
    /// `Σ −sᵢxᵢ ≤ ⌊c / scale⌋`.
    fn guard_oct_ge(&mut self, f: &OctForm, c: i128) {
        let Some(bound) = div_floor(c, f.scale) else { return };
        let neg = OctForm { terms: [(f.terms[0].0, !f.terms[0].1), (f.terms[1].0, !f.terms[1].1)], len: f.len, scale: 1 };
        self.add_oct(&neg, Bound::Fin(bound));
    }

    /// Bounds of `Σ sᵢ·xᵢ` (one or two unit terms) on a closed matrix.
    fn oct_bounds(&self, f: &OctForm) -> Interval {
        match f.len {
            0 => Interval::ZERO,
            1 => {
                let (x, s) = f.terms[0];
                let b = self.bounds_of_closed(x);
                if s {
                    b
                } else {
                    b.neg()
                }
            }
            _ => {
                let ((x, sx), (y, sy)) = (f.terms[0], f.terms[1]);
                let hi = to_bound(self.get(vertex(y, !sy), vertex(x, sx)));
                let lo = to_bound(self.get(vertex(y, sy), vertex(x, !sx))).neg(Round::Down);
                Interval::new(lo, hi)
            }
        }
    }

    /// Bounds of `x` on a closed, non-empty matrix.
    fn bounds_of_closed(&self, x: usize) -> Interval {
        let hi = half_floor(self.get(2 * x + 1, 2 * x));
        let lo = half_floor(self.get(2 * x, 2 * x + 1)).neg(Round::Down);
        Interval::new(lo, hi)
    }

    /// Bounds of a linear expression on a closed, non-empty matrix.
    fn bounds_closed(&self, e: &LinExpr) -> Interval {
        let base = match oct_form(e) {
            Some(f) => self.oct_bounds(&f).scale(f.scale),
            None => {
                let hi = self.sum_hi(e.terms());
                let neg: Option<Vec<(usize, i128)>> = e.terms().iter().map(|&(d, a)| a.checked_neg().map(|n| (d, n))).collect();
                let lo = neg.map_or(Bound::NegInf, |t| self.sum_hi(&t).neg(Round::Down));
                Interval::new(lo, hi)
            }
        };
        base.add(&Interval::point(e.cst()))
    }

    /// An upper bound of `Σ aᵢ·xᵢ` on a closed, non-empty matrix.
    ///
    /// Terms with the same coefficient magnitude are paired greedily when a
    /// binary bound beats the sum of the two unary ones (e.g. `x − y ≤ 0`
    /// bounds `x − y + z` better than the intervals do); the rest use
    /// unary bounds.
    fn sum_hi(&self, terms: &[(usize, i128)]) -> Bound {
        let mut used = vec![false; terms.len()];
        let mut total = Bound::ZERO;
        let unit = |x: usize, a: i128| -> Bound {
            if x >= self.n {
                return Bound::PosInf;
            }
            self.bounds_of_closed(x).scale(a).hi()
        };
        const MAX_PAIRING: usize = 12;
        if terms.len() <= MAX_PAIRING {
            loop {
                // The pair with the largest improvement over its unary bounds.
                let mut best: Option<(usize, usize, Bound, Option<i128>)> = None;
                for i in 0..terms.len() {
                    for j in i + 1..terms.len() {
                        let ((x, a), (y, b)) = (terms[i], terms[j]);
                        let mag = match (a.checked_abs(), b.checked_abs()) {
                            (Some(m), Some(k)) if m == k => m,
                            _ => continue,
                        };
                        if used[i] || used[j] || x >= self.n || y >= self.n {
                            continue;
                        }
                        let f = OctForm { terms: [(x, a > 0), (y, b > 0)], len: 2, scale: 1 };
                        let pair = self.oct_bounds(&f).hi().scale(mag, Round::Up);
                        let singles = unit(x, a).add(unit(y, b), Round::Up);
                        if pair >= singles {
                            continue;
                        }
                        // None stands for an infinite improvement.
                        let gain = match (pair, singles) {
                            (Bound::Fin(p), Bound::Fin(q)) => q.checked_sub(p),
                            _ => None,
                        };
                        let better = match (&best, gain) {
                            (None, _) => true,
                            (Some((_, _, _, Some(g0))), Some(g)) => g > *g0,
                            (Some((_, _, _, Some(_))), None) => true,
                            (Some((_, _, _, None)), _) => false,
                        };
                        if better {
                            best = Some((i, j, pair, gain));
                        }
                    }
                }
                let Some((i, j, pair, _)) = best else { break };
                used[i] = true;
                used[j] = true;
                total = total.add(pair, Round::Up);
            }
        }
        for (k, &(x, a)) in terms.iter().enumerate() {
            if !used[k] {
                total = total.add(unit(x, a), Round::Up);
            }
        }
        total
    }

    /// Sets every entry of `x`'s row and column to +∞ (keeps closure).
    fn forget_closed(&mut self, x: usize) {
        let (u0, u1) = (2 * x, 2 * x + 1);
        for j in 0..2 * self.n {
            if j != u0 && j != u1 {
                self.set(u0, j, INF);
                self.set(u1, j, INF);
            }
        }
        self.set(u0, u1, INF);
        self.set(u1, u0, INF);
    }

    /// `x := [lo, hi]` on a closed matrix, staying closed in O(n).
    fn assign_interval_closed(&mut self, x: usize, v: Interval) {
        self.forget_closed(x);
        let (u0, u1) = (2 * x, 2 * x + 1);
        let lo = v.lo();
        let hi = v.hi();
        for j in 0..2 * self.n {
            if j == u0 || j == u1 {
                continue;
            }
            // ub(V_j) = m(j̄, j) / 2, exact since unary entries are even.
            let ub = half_floor(self.get(j ^ 1, j));
            self.set(u0, j, from_bound(ub.sub(lo, Round::Up)));
            self.set(u1, j, from_bound(ub.add(hi, Round::Up)));
        }
        self.set(u1, u0, from_bound(hi.scale(2, Round::Up)));
        self.set(u0, u1, from_bound(lo.scale(-2, Round::Up)));
    }

    /// `x := s·y + [lo, hi]` on a closed matrix, staying closed in O(n).
    fn assign_unit_closed(&mut self, x: usize, y: usize, s: bool, v: Interval) {
        let (u0, u1) = (2 * x, 2 * x + 1);
        let (lo, hi) = (v.lo(), v.hi());
        let shift = |e: i64, by: Bound| from_bound(to_bound(e).add(by, Round::Up));
        let neg_lo = lo.neg(Round::Up);
        let neg_2lo = lo.scale(-2, Round::Up);
        let two_hi = hi.scale(2, Round::Up);
        if x == y {
            if !s {
                // x := −x swaps the vertices of x.
                for j in 0..2 * self.n {
                    if j != u0 && j != u1 {
                        let (a, b) = (self.get(u0, j), self.get(u1, j));
                        self.set(u0, j, b);
                        self.set(u1, j, a);
                    }
                }
                let (a, b) = (self.get(u0, u1), self.get(u1, u0));
                self.set(u0, u1, b);
                self.set(u1, u0, a);
            }
            for j in 0..2 * self.n {
                if j != u0 && j != u1 {
                    let (a, b) = (self.get(u0, j), self.get(u1, j));
                    self.set(u0, j, shift(a, neg_lo));
                    self.set(u1, j, shift(b, hi));
                }
            }
            let (a, b) = (self.get(u0, u1), self.get(u1, u0));
            self.set(u0, u1, shift(a, neg_2lo));
            self.set(u1, u0, shift(b, two_hi));
            return;
        }
        self.forget_closed(x);
        // x = s·y + k: row +x is row s·y shifted by −k, row −x is row −s·y shifted by k.
        let py = vertex(y, s);
        let ny = py ^ 1;
        for j in 0..2 * self.n {
            if j != u0 && j != u1 {
                let (a, b) = (self.get(py, j), self.get(ny, j));
                self.set(u0, j, shift(a, neg_lo));
                self.set(u1, j, shift(b, hi));
            }
        }
        let (a, b) = (self.get(py, ny), self.get(ny, py));
        self.set(u0, u1, shift(a, neg_2lo));
        self.set(u1, u0, shift(b, two_hi));
    }

    /// `x := lin + noise` for a general `lin` on a closed matrix: bounds of
    /// `x` and of `x ± y` for every other `y`, then closure of `x`'s row.
    fn assign_general_closed(&mut self, x: usize, lin: &LinExpr, noise: Interval) {
        let n = self.n;
        let whole = self.bounds_closed(lin).add(&noise);
        if whole.is_empty() {
            self.set_bottom();
            return;
        }
        let no_cst = lin.clone().with_constant(0);
        let base = self.bounds_closed(&no_cst);
        let cst = Interval::point(lin.cst()).add(&noise);
        // For each y: bounds of x − y and x + y.
        let mut diff = Vec::with_capacity(n);
        let mut sum = Vec::with_capacity(n);
        for y in 0..n {
            if y == x {
                diff.push(Interval::TOP);
                sum.push(Interval::TOP);
                continue;
            }
            let a = lin.coeff(y);
            if a == 0 {
                let by = self.bounds_of_closed(y);
                diff.push(base.sub(&by).add(&cst));
                sum.push(base.add(&by).add(&cst));
            } else {
                let d = no_cst.checked_add_term(y, -1).map_or(Interval::TOP, |e| self.bounds_closed(&e));
                let s = no_cst.checked_add_term(y, 1).map_or(Interval::TOP, |e| self.bounds_closed(&e));
                diff.push(d.add(&cst));
                sum.push(s.add(&cst));
            }
        }
        self.forget_closed(x);
        let (u0, u1) = (2 * x, 2 * x + 1);
        self.set(u1, u0, from_bound(whole.hi().scale(2, Round::Up)));
        self.set(u0, u1, from_bound(whole.lo().scale(-2, Round::Up)));
        for y in 0..n {
            if y == x {
                continue;
            }
            let (v0, v1) = (2 * y, 2 * y + 1);
            let (d, s) = (diff[y], sum[y]);
            self.set(v0, u0, from_bound(d.hi()));
            self.set(u0, v0, from_bound(d.lo().neg(Round::Up)));
            self.set(v1, u0, from_bound(s.hi()));
            self.set(v0, u1, from_bound(s.lo().neg(Round::Up)));
        }
        if !closure::close_var(&mut self.m, n, x) {
            self.set_bottom();
        }
    }

    /// Adds `e ≥ 0`.
    fn guard_ge(&mut self, e: &LinExpr) {
        if self.state == State::Bottom {
            return;
        }
        if let Some(f) = oct_form(e) {
            self.guard_oct_ge(&f, e.cst());
            return;
        }
        self.close();
        if self.state == State::Bottom {
            return;
        }
        // From e ≥ 0: a·x ≥ −ub(e − a·x) for each term, and
        // sx·x + sy·y ≥ −ub(e − sx·x − sy·y) for each pair (Miné).
        let terms = e.terms();
        let mut derived: Vec<LinExpr> = Vec::new();
        for &(x, a) in terms {
            if let Some(rest) = e.checked_add_term(x, a.wrapping_neg()).filter(|_| a != i128::MIN) {
                if let Bound::Fin(u) = self.bounds_closed(&rest).hi() {
                    derived.push(LinExpr::term(x, a).with_constant(u));
                }
            }
        }
        const MAX_PAIR_TERMS: usize = 16;
        if terms.len() <= MAX_PAIR_TERMS {
            for (i, &(x, a)) in terms.iter().enumerate() {
                for &(y, b) in &terms[i + 1..] {
                    let (sx, sy) = (a.signum(), b.signum());
                    let rest = e.checked_add_term(x, -sx).and_then(|r| r.checked_add_term(y, -sy));
                    if let Some(rest) = rest {
                        if let Bound::Fin(u) = self.bounds_closed(&rest).hi() {
                            if let Some(d) = LinExpr::from_terms([(x, sx), (y, sy)], u) {
                                derived.push(d);
                            }
                        }
                    }
                }
            }
        }
        for d in &derived {
            if let Some(f) = oct_form(d) {
                self.guard_oct_ge(&f, d.cst());
            }
            if self.state == State::Bottom {
                return;
            }
        }
    }

    /// Applies `f` to every stored entry pair of `self` and `other`.
    fn zip_entries(&mut self, other: &Octagon, mut f: impl FnMut(usize, &mut i64, i64)) {
        for (k, (a, &b)) in self.m.iter_mut().zip(&other.m).enumerate() {
            f(k, a, b);
        }
    }

    /// Whether `other` has the same number of dimensions.
    fn compatible(&self, other: &Octagon) -> bool {
        debug_assert_eq!(self.n, other.n, "dimension mismatch");
        self.n == other.n
    }

    /// Whether every dimension of `e` is in range.
    fn in_range(&self, e: &LinExpr) -> bool {
        let ok = e.dims_needed() <= self.n;
        debug_assert!(ok, "expression over a dimension out of range");
        ok
    }
}

/// Which stored entries are unary (`m(2k, 2k+1)` and `m(2k+1, 2k)`).
fn unary_mask(n: usize) -> Vec<bool> {
    let mut mask = vec![false; matrix_len(n)];
    for k in 0..n {
        mask[idx(2 * k, 2 * k + 1)] = true;
        mask[idx(2 * k + 1, 2 * k)] = true;
    }
    mask
}

/// The entry a widened entry jumps to: the next threshold above `v`
/// (thresholds bound `x`, so unary entries, which bound `2x`, use doubled
/// thresholds), or +∞.
fn jump(v: i64, unary: bool, th: Option<&Thresholds>) -> i64 {
    let Some(th) = th else { return INF };
    if v >= INF {
        return INF;
    }
    if unary {
        // The entry bounds 2x, so x ≤ v/2 and the threshold must be ≥ ⌈v/2⌉.
        let half = (v as i128 + 1).div_euclid(2);
        from_bound(th.next_up(Bound::Fin(half)).scale(2, Round::Up))
    } else {
        from_bound(th.next_up(Bound::Fin(v as i128)))
    }
}

impl PartialEq for Octagon {
    fn eq(&self, other: &Octagon) -> bool {
        if self.n != other.n {
            return false;
        }
        let (a, b) = (self.closed(), other.closed());
        match (a.state, b.state) {
            (State::Bottom, State::Bottom) => true,
            (State::Bottom, _) | (_, State::Bottom) => false,
            _ => a.m == b.m,
        }
    }
}

impl NumDomain for Octagon {
    fn top(dims: usize) -> Octagon {
        Octagon { n: dims, m: Octagon::top_matrix(dims), state: State::Closed }
    }

    fn bottom(dims: usize) -> Octagon {
        Octagon { n: dims, m: Vec::new(), state: State::Bottom }
    }

    fn dims(&self) -> usize {
        self.n
    }

    fn is_bottom(&self) -> bool {
        self.closed().state == State::Bottom
    }

    fn is_bottom_cheap(&self) -> bool {
        self.state == State::Bottom
    }

    fn is_top(&self) -> bool {
        if self.state == State::Bottom {
            return false;
        }
        // Any finite off-diagonal entry excludes some point of ℤⁿ.
        (0..2 * self.n).all(|i| {
            let s = row_start(i);
            self.m[s..s + row_len(i)].iter().enumerate().all(|(j, &v)| j == i || v == INF)
        })
    }

    fn normalize(&mut self) {
        self.close();
    }

    fn leq(&self, other: &Octagon) -> bool {
        if !self.compatible(other) {
            return false;
        }
        let a = self.closed();
        if a.state == State::Bottom {
            return true;
        }
        if other.state == State::Bottom {
            return false;
        }
        // Entries of a tight closure are exact maxima, so this is exact.
        a.m.iter().zip(&other.m).all(|(x, y)| x <= y)
    }

    fn join_with(&mut self, other: &Octagon) {
        if !self.compatible(other) {
            *self = Octagon::top(self.n);
            return;
        }
        let b = other.closed();
        if b.state == State::Bottom {
            return;
        }
        self.close();
        if self.state == State::Bottom {
            *self = b.into_owned();
            return;
        }
        // The pointwise maximum of tightly closed matrices is tightly closed.
        closure::max_into(&mut self.m, &b.m);
    }

    fn meet_with(&mut self, other: &Octagon) {
        if self.state == State::Bottom || !self.compatible(other) {
            return;
        }
        if other.state == State::Bottom {
            self.set_bottom();
            return;
        }
        closure::min_into(&mut self.m, &other.m);
        self.state = State::Open;
    }

    fn widen_with(&mut self, newer: &Octagon, thresholds: Option<&Thresholds>) {
        if !self.compatible(newer) {
            *self = Octagon::top(self.n);
            return;
        }
        if self.state == State::Bottom {
            *self = newer.clone();
            return;
        }
        let b = newer.closed();
        if b.state == State::Bottom {
            return;
        }
        // The accumulator is deliberately not closed: closing it could bring
        // back finite bounds that widening dropped and break termination.
        let mask = unary_mask(self.n);
        self.zip_entries(&b, |k, a, b| {
            if b > *a {
                *a = jump(b, mask[k], thresholds);
            }
        });
        self.state = State::Open;
    }

    fn narrow_with(&mut self, newer: &Octagon) {
        if self.state == State::Bottom || !self.compatible(newer) {
            return;
        }
        let b = newer.closed();
        if b.state == State::Bottom {
            self.set_bottom();
            return;
        }
        self.zip_entries(&b, |_, a, b| {
            if *a == INF {
                *a = b;
            }
        });
        self.state = State::Open;
    }

    fn forget(&mut self, dim: usize) {
        if dim >= self.n {
            debug_assert!(false, "dimension {dim} out of range");
            return;
        }
        self.close();
        if self.state == State::Bottom {
            return;
        }
        self.forget_closed(dim);
    }

    fn assign_affine(&mut self, dim: usize, lin: &LinExpr, noise: Interval) {
        if dim >= self.n {
            debug_assert!(false, "dimension {dim} out of range");
            return;
        }
        if !self.in_range(lin) {
            self.forget(dim);
            return;
        }
        self.close();
        if self.state == State::Bottom {
            return;
        }
        if noise.is_empty() {
            self.set_bottom();
            return;
        }
        let cst = Interval::point(lin.cst()).add(&noise);
        match lin.terms() {
            [] => self.assign_interval_closed(dim, cst),
            [(y, a)] if *a == 1 || *a == -1 => self.assign_unit_closed(dim, *y, *a == 1, cst),
            _ => self.assign_general_closed(dim, lin, noise),
        }
    }

    fn guard(&mut self, cons: &LinCons) {
        if self.state == State::Bottom || !self.in_range(&cons.expr) {
            return;
        }
        let e = &cons.expr;
        match cons.kind {
            ConsKind::Ge0 => self.guard_ge(e),
            ConsKind::Eq0 => {
                self.guard_ge(e);
                if let Some(ne) = e.checked_neg() {
                    self.guard_ge(&ne);
                }
            }
            ConsKind::Ne0 => {
                self.close();
                if self.state == State::Bottom {
                    return;
                }
                let b = self.bounds_closed(e);
                if b.as_point() == Some(0) {
                    self.set_bottom();
                } else if b.lo() == Bound::ZERO {
                    if let Some(g) = e.checked_add_constant(-1) {
                        self.guard_ge(&g);
                    }
                } else if b.hi() == Bound::ZERO {
                    if let Some(g) = e.checked_neg().and_then(|n| n.checked_add_constant(-1)) {
                        self.guard_ge(&g);
                    }
                }
            }
        }
    }

    fn bounds(&self, e: &LinExpr) -> Interval {
        if !self.in_range(e) {
            return Interval::TOP;
        }
        let c = self.closed();
        if c.state == State::Bottom {
            return Interval::EMPTY;
        }
        c.bounds_closed(e)
    }

    fn bounds_of(&self, dim: usize) -> Interval {
        let c = self.closed();
        if c.state == State::Bottom {
            return Interval::EMPTY;
        }
        if dim >= self.n {
            debug_assert!(false, "dimension {dim} out of range");
            return Interval::TOP;
        }
        c.bounds_of_closed(dim)
    }

    fn add_dims(&mut self, count: usize) {
        let old = self.n;
        self.n += count;
        if self.state == State::Bottom {
            return;
        }
        // Rows never depend on later rows, so new dimensions only append.
        self.m.resize(matrix_len(self.n), INF);
        for i in 2 * old..2 * self.n {
            self.m[idx(i, i)] = 0;
        }
    }

    fn remove_dims(&mut self, dims: &[usize]) {
        let Some(removed) = removal_list(dims, self.n) else {
            debug_assert!(false, "remove_dims: dimension out of range");
            return;
        };
        if removed.is_empty() {
            return;
        }
        // Removing a dimension is projection, which needs the closed form.
        self.close();
        let map = removal_map(&removed, self.n);
        let new_n = self.n - removed.len();
        if self.state == State::Bottom {
            self.n = new_n;
            return;
        }
        let mut m = Vec::with_capacity(matrix_len(new_n));
        for i in 0..2 * self.n {
            if map[i / 2].is_none() {
                continue;
            }
            let s = row_start(i);
            for j in 0..row_len(i) {
                if map[j / 2].is_some() {
                    m.push(self.m[s + j]);
                }
            }
        }
        debug_assert_eq!(m.len(), matrix_len(new_n));
        self.m = m;
        self.n = new_n;
    }

    fn permute(&mut self, perm: &[usize]) {
        if !is_permutation(perm, self.n) {
            debug_assert!(false, "permute: not a permutation");
            *self = Octagon::top(self.n);
            return;
        }
        if self.state == State::Bottom {
            return;
        }
        let mut m = vec![INF; self.m.len()];
        let v = |i: usize| 2 * perm[i / 2] + (i & 1);
        for i in 0..2 * self.n {
            let s = row_start(i);
            for j in 0..row_len(i) {
                m[idx(v(i), v(j))] = self.m[s + j];
            }
        }
        self.m = m;
    }

    fn to_constraints(&self) -> Vec<LinCons> {
        let c = self.closed();
        if c.state == State::Bottom {
            return vec![LinCons::unsat()];
        }
        let n = self.n;
        let itv: Vec<Interval> = (0..n).map(|x| c.bounds_of_closed(x)).collect();
        let mut out = Vec::new();
        for (x, v) in itv.iter().enumerate() {
            push_interval_constraints(&mut out, x, v);
        }
        // Binary constraints that the unary bounds do not already imply.
        for y in 0..n {
            for x in 0..y {
                for sy in [false, true] {
                    let f = OctForm { terms: [(x, true), (y, sy)], len: 2, scale: 1 };
                    let b = c.oct_bounds(&f);
                    let implied = if sy { itv[x].add(&itv[y]) } else { itv[x].sub(&itv[y]) };
                    let e = LinExpr::from_sorted(vec![(x, 1), (y, if sy { 1 } else { -1 })], 0);
                    let (lo_new, hi_new) = (b.lo() > implied.lo(), b.hi() < implied.hi());
                    if let (true, true, Some(l)) = (lo_new, hi_new, b.as_point()) {
                        if let Some(nl) = l.checked_neg() {
                            out.push(LinCons::eq0(e.clone().with_constant(nl)));
                            continue;
                        }
                    }
                    if let (true, Bound::Fin(l)) = (lo_new, b.lo()) {
                        if let Some(nl) = l.checked_neg() {
                            out.push(LinCons::ge0(e.clone().with_constant(nl)));
                        }
                    }
                    if let (true, Bound::Fin(h)) = (hi_new, b.hi()) {
                        if let Some(ne) = e.checked_neg() {
                            out.push(LinCons::ge0(ne.with_constant(h)));
                        }
                    }
                }
            }
        }
        out
    }

    fn contains(&self, point: &[i128]) -> bool {
        if self.state == State::Bottom || point.len() < self.n {
            return false;
        }
        // V_j − V_i may not fit in i128; write each ±p as 2h + l with
        // |h| ≤ 2¹²⁶ and l ∈ {−1, 0, 1}, and compare exactly.
        let half = |i: usize, negate: bool| -> (i128, i128) {
            let p = point[i / 2];
            let (h, l) = (p >> 1, p & 1);
            if negate {
                (-h, -l)
            } else {
                (h, l)
            }
        };
        for i in 0..2 * self.n {
            let (hi, li) = half(i, i & 1 == 0);
            let s = row_start(i);
            for j in 0..row_len(i) {
                let bound = self.m[s + j];
                if bound < INF {
                    let (hj, lj) = half(j, j & 1 == 1);
                    let (h, l) = (hj + hi, lj + li);
                    // 2h + l ≤ bound ⇔ h ≤ ⌊(bound − l) / 2⌋.
                    if h > (bound as i128 - l).div_euclid(2) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

impl fmt::Debug for Octagon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Octagon({} dims, {:?}: {})", self.n, self.state, self.pretty(&crate::print::default_name))
    }
}

impl fmt::Display for Octagon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pretty(&crate::print::default_name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(terms: &[(usize, i128)], c: i128) -> LinCons {
        // Σ terms ≤ c  ⇔  −Σ terms + c ≥ 0.
        LinCons::ge0(LinExpr::from_terms(terms.iter().map(|&(d, a)| (d, -a)), c).unwrap())
    }

    #[test]
    fn closure_derives_transitive_bounds() {
        let mut o = Octagon::top(3);
        o.guard(&le(&[(0, 1), (1, -1)], 2)); // x - y <= 2
        o.guard(&le(&[(1, 1), (2, -1)], 3)); // y - z <= 3
        o.guard(&le(&[(2, 1)], 0)); // z <= 0
        assert_eq!(o.bounds(&LinExpr::from_terms([(0, 1), (2, -1)], 0).unwrap()).hi(), Bound::Fin(5));
        assert_eq!(o.bounds_of(0).hi(), Bound::Fin(5));
        assert!(o.is_closed());
    }

    #[test]
    fn integer_tightening_detects_emptiness() {
        // 2x = 1 has no integer solution: x + x <= 1 and -x - x <= -1.
        let mut o = Octagon::top(1);
        o.guard(&LinCons::ge0(LinExpr::from_terms([(0, -2)], 1).unwrap()));
        o.guard(&LinCons::ge0(LinExpr::from_terms([(0, 2)], -1).unwrap()));
        assert!(o.is_bottom());
        // x + y = 1, x - y = 0 has no integer solution either.
        let mut o = Octagon::top(2);
        o.guard(&LinCons::eq0(LinExpr::from_terms([(0, 1), (1, 1)], -1).unwrap()));
        o.guard(&LinCons::eq0(LinExpr::from_terms([(0, 1), (1, -1)], 0).unwrap()));
        assert!(o.is_bottom());
    }

    #[test]
    fn exact_assignment_keeps_relation() {
        let mut o = Octagon::top(2);
        o.guard(&le(&[(1, 1)], 10));
        o.guard(&le(&[(1, -1)], 0));
        o.assign_linear(0, &LinExpr::var(1).with_constant(3));
        assert_eq!(o.bounds_of(0), Interval::range(3, 13));
        assert_eq!(o.bounds(&LinExpr::from_terms([(0, 1), (1, -1)], 0).unwrap()), Interval::point(3));
        assert_eq!(o.to_string(), "3 <= x0 <= 13 && 0 <= x1 <= 10 && x0 - x1 == 3");
    }

    #[test]
    fn long_expressions_use_binary_bounds() {
        let mut o = Octagon::top(3);
        o.assign_interval(1, Interval::range(0, 10));
        o.assign_linear(0, &LinExpr::var(1)); // x0 = x1
        o.assign_interval(2, Interval::range(0, 1));
        let e = LinExpr::from_terms([(0, 1), (1, -1), (2, 1)], 0).unwrap();
        assert_eq!(o.bounds(&e), Interval::range(0, 1));
        let e2 = LinExpr::from_terms([(0, 2), (1, -2), (2, -3)], 1).unwrap();
        assert_eq!(o.bounds(&e2), Interval::range(-2, 1));
        // x0 - x1 + x2 >= 1 forces x2 = 1.
        o.guard(&LinCons::ge0(e.with_constant(-1)));
        assert_eq!(o.bounds_of(2), Interval::point(1));
    }

    #[test]
    fn widening_stops_at_thresholds() {
        let mut acc = Octagon::top(1);
        acc.assign_interval(0, Interval::point(0));
        let th = Thresholds::new([100]);
        let mut next = acc.clone();
        next.assign_interval(0, Interval::range(0, 1));
        acc.widen_with(&next, Some(&th));
        assert_eq!(acc.bounds_of(0), Interval::range(0, 100));
    }
}
