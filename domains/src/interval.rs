//! The interval value type: a set `{v ∈ ℤ | lo ≤ v ≤ hi}` and its arithmetic.

use crate::bound::{div_ceil, div_floor, Bound, Round};
use crate::thresholds::Thresholds;
use std::fmt;

/// A possibly empty, possibly unbounded interval of integers.
///
/// The representation is canonical: every empty interval is [`Interval::EMPTY`],
/// so derived equality is set equality.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Interval {
    lo: Bound,
    hi: Bound,
}

impl Interval {
    /// The empty set.
    pub const EMPTY: Interval = Interval { lo: Bound::PosInf, hi: Bound::NegInf };
    /// All integers.
    pub const TOP: Interval = Interval { lo: Bound::NegInf, hi: Bound::PosInf };
    /// `{0}`.
    pub const ZERO: Interval = Interval { lo: Bound::Fin(0), hi: Bound::Fin(0) };

    /// `{v | lo ≤ v ≤ hi}`; empty when `lo > hi` or an endpoint excludes every integer.
    pub fn new(lo: Bound, hi: Bound) -> Interval {
        if lo > hi || lo == Bound::PosInf || hi == Bound::NegInf {
            Interval::EMPTY
        } else {
            Interval { lo, hi }
        }
    }

    /// `[lo, hi]` with finite endpoints.
    pub fn range(lo: i128, hi: i128) -> Interval {
        Interval::new(Bound::Fin(lo), Bound::Fin(hi))
    }

    /// `{c}`.
    pub fn point(c: i128) -> Interval {
        Interval { lo: Bound::Fin(c), hi: Bound::Fin(c) }
    }

    /// `[lo, +∞)`.
    pub fn at_least(lo: i128) -> Interval {
        Interval { lo: Bound::Fin(lo), hi: Bound::PosInf }
    }

    /// `(−∞, hi]`.
    pub fn at_most(hi: i128) -> Interval {
        Interval { lo: Bound::NegInf, hi: Bound::Fin(hi) }
    }

    /// Lower endpoint (`PosInf` when empty).
    pub fn lo(&self) -> Bound {
        self.lo
    }

    /// Upper endpoint (`NegInf` when empty).
    pub fn hi(&self) -> Bound {
        self.hi
    }

    /// Whether the interval has no element.
    pub fn is_empty(&self) -> bool {
        *self == Interval::EMPTY
    }

    /// Whether the interval is all of ℤ.
    pub fn is_top(&self) -> bool {
        *self == Interval::TOP
    }

    /// The single element, if the interval is a singleton.
    pub fn as_point(&self) -> Option<i128> {
        match (self.lo, self.hi) {
            (Bound::Fin(a), Bound::Fin(b)) if a == b => Some(a),
            _ => None,
        }
    }

    /// Whether `v` is in the interval.
    pub fn contains(&self, v: i128) -> bool {
        self.lo <= Bound::Fin(v) && Bound::Fin(v) <= self.hi
    }

    /// Set inclusion.
    pub fn leq(&self, other: &Interval) -> bool {
        self.is_empty() || (other.lo <= self.lo && self.hi <= other.hi)
    }

    /// Convex hull of the union.
    pub fn join(&self, other: &Interval) -> Interval {
        if self.is_empty() {
            *other
        } else if other.is_empty() {
            *self
        } else {
            Interval { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
        }
    }

    /// Intersection.
    pub fn meet(&self, other: &Interval) -> Interval {
        Interval::new(self.lo.max(other.lo), self.hi.min(other.hi))
    }

    /// Standard widening; an unstable bound jumps to the next threshold, or to
    /// infinity when there is none.
    pub fn widen(&self, newer: &Interval, th: Option<&Thresholds>) -> Interval {
        if self.is_empty() {
            return *newer;
        }
        if newer.is_empty() {
            return *self;
        }
        let lo = if newer.lo < self.lo { th.map_or(Bound::NegInf, |t| t.next_down(newer.lo)) } else { self.lo };
        let hi = if newer.hi > self.hi { th.map_or(Bound::PosInf, |t| t.next_up(newer.hi)) } else { self.hi };
        Interval::new(lo, hi)
    }

    /// Standard narrowing: only infinite bounds are refined.
    pub fn narrow(&self, newer: &Interval) -> Interval {
        if self.is_empty() || newer.is_empty() {
            return Interval::EMPTY;
        }
        let lo = if self.lo == Bound::NegInf { newer.lo } else { self.lo };
        let hi = if self.hi == Bound::PosInf { newer.hi } else { self.hi };
        Interval::new(lo, hi)
    }

    /// `{−v | v ∈ self}`.
    pub fn neg(&self) -> Interval {
        if self.is_empty() {
            return *self;
        }
        Interval::new(self.hi.neg(Round::Down), self.lo.neg(Round::Up))
    }

    /// `{a + b}`.
    pub fn add(&self, other: &Interval) -> Interval {
        if self.is_empty() || other.is_empty() {
            return Interval::EMPTY;
        }
        Interval::new(self.lo.add(other.lo, Round::Down), self.hi.add(other.hi, Round::Up))
    }

    /// `{a − b}`.
    pub fn sub(&self, other: &Interval) -> Interval {
        self.add(&other.neg())
    }

    /// `{k·v}`.
    pub fn scale(&self, k: i128) -> Interval {
        if self.is_empty() {
            return *self;
        }
        if k >= 0 {
            Interval::new(self.lo.scale(k, Round::Down), self.hi.scale(k, Round::Up))
        } else {
            Interval::new(self.hi.scale(k, Round::Down), self.lo.scale(k, Round::Up))
        }
    }

    /// `{a · b}`.
    pub fn mul(&self, other: &Interval) -> Interval {
        if self.is_empty() || other.is_empty() {
            return Interval::EMPTY;
        }
        let (a, b, c, d) = (self.lo, self.hi, other.lo, other.hi);
        let lo = [a.mul(c, Round::Down), a.mul(d, Round::Down), b.mul(c, Round::Down), b.mul(d, Round::Down)].into_iter().min().unwrap_or(Bound::NegInf);
        let hi = [a.mul(c, Round::Up), a.mul(d, Round::Up), b.mul(c, Round::Up), b.mul(d, Round::Up)].into_iter().max().unwrap_or(Bound::PosInf);
        Interval::new(lo, hi)
    }

    /// The part of the interval that is ≥ 1.
    fn positive_part(&self) -> Interval {
        self.meet(&Interval::at_least(1))
    }

    /// The part of the interval that is ≤ −1.
    fn negative_part(&self) -> Interval {
        self.meet(&Interval::at_most(-1))
    }

    /// C division (truncating towards zero) of every `a ∈ self` by every
    /// non-zero `b ∈ other`.
    ///
    /// Division by zero is undefined behaviour in C, so the zero divisor
    /// contributes nothing when other divisors are possible. When the divisor
    /// is exactly `{0}` the result is ⊤, not ∅: callers must not conclude
    /// that the state is unreachable from a division by zero.
    pub fn div(&self, other: &Interval) -> Interval {
        if self.is_empty() || other.is_empty() {
            return Interval::EMPTY;
        }
        if other.as_point() == Some(0) {
            return Interval::TOP;
        }
        let pos = other.positive_part();
        let neg = other.negative_part();
        let mut out = Interval::EMPTY;
        if !pos.is_empty() {
            out = out.join(&div_by_positive(self, &pos));
        }
        if !neg.is_empty() {
            // a / b = −(a / −b) for truncating division.
            out = out.join(&div_by_positive(self, &neg.neg()).neg());
        }
        out
    }

    /// C remainder (sign of the dividend, `|r| < |b|`) of every `a ∈ self` by
    /// every non-zero `b ∈ other`; ⊤ when the divisor is exactly `{0}` (see
    /// [`Interval::div`]).
    pub fn rem(&self, other: &Interval) -> Interval {
        if self.is_empty() || other.is_empty() {
            return Interval::EMPTY;
        }
        if other.as_point() == Some(0) {
            return Interval::TOP;
        }
        if let (Some(c), Bound::Fin(a), Bound::Fin(b)) = (other.as_point(), self.lo, self.hi) {
            // One quotient for the whole range: the remainder is a − q·c exactly.
            if let (Some(qa), Some(qb)) = (a.checked_div(c), b.checked_div(c)) {
                if qa == qb {
                    if let Some(qc) = qa.checked_mul(c) {
                        return self.sub(&Interval::point(qc));
                    }
                }
            }
        }
        // |r| ≤ max|b| − 1 over the non-zero divisors, and |r| ≤ |a|.
        let mag = other.lo.neg(Round::Up).max(other.hi);
        let m = mag.add(Bound::Fin(-1), Round::Up);
        let cap = Interval::new(m.neg(Round::Down), m);
        let sign_part = Interval::new(self.lo.min(Bound::ZERO), self.hi.max(Bound::ZERO));
        let mut r = cap.meet(&sign_part);
        if self.lo >= Bound::ZERO {
            r = r.meet(&Interval::at_least(0));
        }
        if self.hi <= Bound::ZERO {
            r = r.meet(&Interval::at_most(0));
        }
        r
    }

    /// `{min(a, b)}`.
    pub fn min(&self, other: &Interval) -> Interval {
        if self.is_empty() || other.is_empty() {
            return Interval::EMPTY;
        }
        Interval::new(self.lo.min(other.lo), self.hi.min(other.hi))
    }

    /// `{max(a, b)}`.
    pub fn max(&self, other: &Interval) -> Interval {
        if self.is_empty() || other.is_empty() {
            return Interval::EMPTY;
        }
        Interval::new(self.lo.max(other.lo), self.hi.max(other.hi))
    }

    /// The integers `v` with `k·v ∈ self` (k ≠ 0), i.e. `self / k` rounded inwards.
    pub(crate) fn exact_div(&self, k: i128) -> Interval {
        if self.is_empty() || k == 0 {
            return if k == 0 { Interval::TOP } else { *self };
        }
        let (lo_src, hi_src) = if k > 0 { (self.lo, self.hi) } else { (self.hi, self.lo) };
        let lo = match lo_src {
            Bound::Fin(v) => div_ceil(v, k).map_or(Bound::NegInf, Bound::Fin),
            b if k > 0 => b,
            b => b.neg(Round::Down),
        };
        let hi = match hi_src {
            Bound::Fin(v) => div_floor(v, k).map_or(Bound::PosInf, Bound::Fin),
            b if k > 0 => b,
            b => b.neg(Round::Up),
        };
        Interval::new(lo, hi)
    }
}

/// Truncating division of `a` by a divisor interval whose elements are all ≥ 1.
fn div_by_positive(a: &Interval, d: &Interval) -> Interval {
    // For a fixed positive divisor the quotient grows with the dividend; for
    // a fixed dividend it moves towards zero as the divisor grows. So the
    // extremes sit at the corners chosen below.
    let q = |x: Bound, y: Bound, r: Round| -> Bound {
        match (x, y) {
            (Bound::Fin(x), Bound::Fin(y)) => match x.checked_div(y) {
                Some(v) => Bound::Fin(v),
                None => match r {
                    Round::Up => Bound::PosInf,
                    Round::Down => Bound::NegInf,
                },
            },
            (Bound::Fin(_), Bound::PosInf) => Bound::Fin(0),
            (inf, _) => inf,
        }
    };
    let lo = if a.lo >= Bound::ZERO { q(a.lo, d.hi, Round::Down) } else { q(a.lo, d.lo, Round::Down) };
    let hi = if a.hi >= Bound::ZERO { q(a.hi, d.lo, Round::Up) } else { q(a.hi, d.hi, Round::Up) };
    Interval::new(lo, hi)
}

impl fmt::Debug for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            write!(f, "[]")
        } else {
            write!(f, "[{}, {}]", self.lo, self.hi)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_empty() {
        assert_eq!(Interval::range(3, 2), Interval::EMPTY);
        assert_eq!(Interval::new(Bound::PosInf, Bound::PosInf), Interval::EMPTY);
        assert!(Interval::range(2, 2).contains(2));
    }

    #[test]
    fn division_by_zero_is_top_not_empty() {
        assert_eq!(Interval::range(1, 5).div(&Interval::point(0)), Interval::TOP);
        assert_eq!(Interval::range(1, 5).rem(&Interval::point(0)), Interval::TOP);
        // A divisor that may be zero covers the quotients by its non-zero values.
        assert_eq!(Interval::range(-6, 6).div(&Interval::range(0, 2)), Interval::range(-6, 6));
        assert_eq!(Interval::range(7, 7).div(&Interval::range(-1, 0)), Interval::point(-7));
    }

    #[test]
    fn truncating_division() {
        assert_eq!(Interval::point(-7).div(&Interval::point(2)), Interval::point(-3));
        assert_eq!(Interval::at_least(5).div(&Interval::at_least(2)), Interval::at_least(0));
        assert_eq!(Interval::range(-9, -3).div(&Interval::at_least(2)), Interval::range(-4, 0));
    }

    #[test]
    fn remainder() {
        assert_eq!(Interval::range(10, 11).rem(&Interval::point(4)), Interval::range(2, 3));
        assert_eq!(Interval::range(-20, 20).rem(&Interval::point(4)), Interval::range(-3, 3));
        assert_eq!(Interval::range(0, 20).rem(&Interval::range(-4, 4)), Interval::range(0, 3));
        assert_eq!(Interval::range(-2, -1).rem(&Interval::point(-4)), Interval::range(-2, -1));
    }

    #[test]
    fn widening_with_thresholds() {
        let th = Thresholds::new([10]);
        let a = Interval::range(0, 1);
        assert_eq!(a.widen(&Interval::range(0, 2), Some(&th)), Interval::range(0, 10));
        assert_eq!(a.widen(&Interval::range(0, 11), Some(&th)), Interval::at_least(0));
        assert_eq!(a.widen(&Interval::range(-1, 1), Some(&th)), Interval::range(-10, 1));
        assert_eq!(a.widen(&Interval::range(0, 2), None), Interval::at_least(0));
    }

    #[test]
    fn exact_division() {
        assert_eq!(Interval::range(-7, 7).exact_div(2), Interval::range(-3, 3));
        assert_eq!(Interval::range(-7, 7).exact_div(-2), Interval::range(-3, 3));
        assert_eq!(Interval::at_least(5).exact_div(-2), Interval::at_most(-3));
        assert_eq!(Interval::range(1, 1).exact_div(2), Interval::EMPTY);
    }
}
