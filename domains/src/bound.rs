//! Interval endpoints: mathematical integers extended with −∞ and +∞, with
//! arithmetic that rounds in a chosen direction when `i128` overflows.

use std::fmt;

/// An endpoint of an interval: −∞, a finite integer, or +∞.
///
/// The derived order is the natural one: `NegInf < Fin(_) < PosInf`, and
/// finite bounds compare by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bound {
    /// −∞.
    NegInf,
    /// A finite integer.
    Fin(i128),
    /// +∞.
    PosInf,
}

/// Direction in which an inexact (overflowed) result is rounded.
///
/// Lower bounds round `Down` and upper bounds round `Up`, so an overflow can
/// only weaken a bound, never make it wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// Towards −∞: the result is ≤ the true value (for lower bounds).
    Down,
    /// Towards +∞: the result is ≥ the true value (for upper bounds).
    Up,
}

impl Round {
    /// The opposite direction, used when a bound is negated.
    pub fn flip(self) -> Round {
        match self {
            Round::Down => Round::Up,
            Round::Up => Round::Down,
        }
    }
}

/// The bound that replaces a finite result that does not fit in `i128`.
///
/// An upper bound that overflowed upwards becomes +∞; one that overflowed
/// downwards becomes `i128::MIN`, which is still above the true value.
fn overflow(positive: bool, r: Round) -> Bound {
    match (positive, r) {
        (true, Round::Up) => Bound::PosInf,
        (true, Round::Down) => Bound::Fin(i128::MAX),
        (false, Round::Up) => Bound::Fin(i128::MIN),
        (false, Round::Down) => Bound::NegInf,
    }
}

impl Bound {
    /// Zero.
    pub const ZERO: Bound = Bound::Fin(0);

    /// Whether the bound is finite.
    pub fn is_finite(self) -> bool {
        matches!(self, Bound::Fin(_))
    }

    /// The finite value, if any.
    pub fn finite(self) -> Option<i128> {
        match self {
            Bound::Fin(v) => Some(v),
            _ => None,
        }
    }

    /// Sign of the bound: −1, 0 or 1.
    pub fn signum(self) -> i32 {
        match self {
            Bound::NegInf => -1,
            Bound::PosInf => 1,
            Bound::Fin(v) => v.signum() as i32,
        }
    }

    /// Sum, rounded in direction `r` when it overflows.
    ///
    /// `−∞ + +∞` has no value; it yields the weakest bound for `r`
    /// (+∞ when rounding up, −∞ when rounding down).
    pub fn add(self, other: Bound, r: Round) -> Bound {
        use Bound::*;
        match (self, other) {
            (NegInf, PosInf) | (PosInf, NegInf) => match r {
                Round::Up => PosInf,
                Round::Down => NegInf,
            },
            (PosInf, _) | (_, PosInf) => PosInf,
            (NegInf, _) | (_, NegInf) => NegInf,
            (Fin(a), Fin(b)) => match a.checked_add(b) {
                Some(s) => Fin(s),
                None => overflow(a > 0, r),
            },
        }
    }

    /// Negation, rounded in direction `r` (only `-i128::MIN` is inexact).
    pub fn neg(self, r: Round) -> Bound {
        match self {
            Bound::NegInf => Bound::PosInf,
            Bound::PosInf => Bound::NegInf,
            Bound::Fin(a) => match a.checked_neg() {
                Some(v) => Bound::Fin(v),
                None => overflow(true, r),
            },
        }
    }

    /// Difference `self − other`, rounded in direction `r`.
    pub fn sub(self, other: Bound, r: Round) -> Bound {
        // Negating `other` is inexact only for i128::MIN; rounding it in the
        // same direction keeps the difference on the safe side.
        self.add(other.neg(r), r)
    }

    /// Product, rounded in direction `r`; `0 × ±∞ = 0` as usual for interval
    /// endpoints (the infinite endpoint is a limit, never a value).
    pub fn mul(self, other: Bound, r: Round) -> Bound {
        use Bound::*;
        let s = self.signum() * other.signum();
        match (self, other) {
            (Fin(0), _) | (_, Fin(0)) => Fin(0),
            (Fin(a), Fin(b)) => match a.checked_mul(b) {
                Some(p) => Fin(p),
                None => overflow(s > 0, r),
            },
            _ => {
                if s > 0 {
                    PosInf
                } else {
                    NegInf
                }
            }
        }
    }

    /// Product with an integer, rounded in direction `r`.
    pub fn scale(self, k: i128, r: Round) -> Bound {
        self.mul(Bound::Fin(k), r)
    }
}

impl From<i128> for Bound {
    fn from(v: i128) -> Bound {
        Bound::Fin(v)
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::NegInf => write!(f, "-oo"),
            Bound::PosInf => write!(f, "+oo"),
            Bound::Fin(v) => write!(f, "{v}"),
        }
    }
}

/// `⌊a / b⌋` for `b ≠ 0`, or `None` when it does not fit in `i128`.
pub(crate) fn div_floor(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div(b)?;
    let r = a.checked_rem(b)?;
    if r != 0 && ((r < 0) != (b < 0)) {
        q.checked_sub(1)
    } else {
        Some(q)
    }
}

/// `⌈a / b⌉` for `b ≠ 0`, or `None` when it does not fit in `i128`.
pub(crate) fn div_ceil(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div(b)?;
    let r = a.checked_rem(b)?;
    if r != 0 && ((r < 0) == (b < 0)) {
        q.checked_add(1)
    } else {
        Some(q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_rounds_outwards() {
        let max = Bound::Fin(i128::MAX);
        assert_eq!(max.add(Bound::Fin(1), Round::Up), Bound::PosInf);
        assert_eq!(max.add(Bound::Fin(1), Round::Down), Bound::Fin(i128::MAX));
        let min = Bound::Fin(i128::MIN);
        assert_eq!(min.add(Bound::Fin(-1), Round::Down), Bound::NegInf);
        assert_eq!(min.add(Bound::Fin(-1), Round::Up), Bound::Fin(i128::MIN));
        assert_eq!(min.neg(Round::Up), Bound::PosInf);
        assert_eq!(min.neg(Round::Down), Bound::Fin(i128::MAX));
        assert_eq!(max.mul(Bound::Fin(-2), Round::Down), Bound::NegInf);
        assert_eq!(max.mul(Bound::Fin(-2), Round::Up), Bound::Fin(i128::MIN));
    }

    #[test]
    fn infinities() {
        assert_eq!(Bound::PosInf.mul(Bound::Fin(0), Round::Up), Bound::Fin(0));
        assert_eq!(Bound::PosInf.mul(Bound::Fin(-3), Round::Up), Bound::NegInf);
        assert_eq!(Bound::NegInf.add(Bound::PosInf, Round::Up), Bound::PosInf);
        assert_eq!(Bound::NegInf.add(Bound::PosInf, Round::Down), Bound::NegInf);
        assert!(Bound::NegInf < Bound::Fin(i128::MIN) && Bound::Fin(i128::MAX) < Bound::PosInf);
    }

    #[test]
    fn floor_and_ceil_division() {
        assert_eq!(div_floor(7, 2), Some(3));
        assert_eq!(div_floor(-7, 2), Some(-4));
        assert_eq!(div_floor(7, -2), Some(-4));
        assert_eq!(div_floor(-7, -2), Some(3));
        assert_eq!(div_ceil(7, 2), Some(4));
        assert_eq!(div_ceil(-7, 2), Some(-3));
        assert_eq!(div_ceil(7, -2), Some(-3));
        assert_eq!(div_ceil(-7, -2), Some(4));
        assert_eq!(div_floor(i128::MIN, -1), None);
        assert_eq!(div_ceil(6, 3), Some(2));
    }
}
