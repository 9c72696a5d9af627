//! Expression trees over integer variables, and their linearisation into
//! `linear part + interval` for the transfer functions.

use crate::interval::Interval;
use crate::linexpr::LinExpr;
use std::ops;

/// An integer expression tree, as translated from C by the analyser.
///
/// Values are mathematical integers: the caller models C wrap-around itself.
/// `Div` and `Rem` follow C (truncation towards zero, remainder with the
/// sign of the dividend), which is also Rust's `/` and `%` on integers.
/// Trees are processed recursively, so their depth is bounded by the stack
/// (thousands of levels are fine; C expressions are far shallower).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NumExpr {
    /// A constant.
    Const(i128),
    /// A variable (dimension).
    Var(usize),
    /// Any value of the interval (a non-deterministic choice).
    Range(Interval),
    /// `−a`.
    Neg(Box<NumExpr>),
    /// `a + b`.
    Add(Box<NumExpr>, Box<NumExpr>),
    /// `a − b`.
    Sub(Box<NumExpr>, Box<NumExpr>),
    /// `a · b`.
    Mul(Box<NumExpr>, Box<NumExpr>),
    /// `a / b`, truncating.
    Div(Box<NumExpr>, Box<NumExpr>),
    /// `a % b`, C remainder.
    Rem(Box<NumExpr>, Box<NumExpr>),
    /// `min(a, b)`.
    Min(Box<NumExpr>, Box<NumExpr>),
    /// `max(a, b)`.
    Max(Box<NumExpr>, Box<NumExpr>),
}

impl NumExpr {
    /// The constant `c`.
    pub fn cst(c: i128) -> NumExpr {
        NumExpr::Const(c)
    }

    /// The variable `x_dim`.
    pub fn var(dim: usize) -> NumExpr {
        NumExpr::Var(dim)
    }

    /// Any value in `itv`.
    pub fn range(itv: Interval) -> NumExpr {
        NumExpr::Range(itv)
    }

    /// `min(self, other)`.
    pub fn min(self, other: NumExpr) -> NumExpr {
        NumExpr::Min(Box::new(self), Box::new(other))
    }

    /// `max(self, other)`.
    pub fn max(self, other: NumExpr) -> NumExpr {
        NumExpr::Max(Box::new(self), Box::new(other))
    }

    /// The expression for a linear expression.
    pub fn from_linexpr(e: &LinExpr) -> NumExpr {
        let mut out = NumExpr::Const(e.cst());
        for &(d, a) in e.terms() {
            out = out + NumExpr::Const(a) * NumExpr::Var(d);
        }
        out
    }

    /// The value at a concrete point; `None` when undefined (division by
    /// zero), on overflow of `i128`, or for a `Range` that is not a singleton.
    pub fn eval(&self, point: &[i128]) -> Option<i128> {
        use NumExpr::*;
        Some(match self {
            Const(c) => *c,
            Var(d) => *point.get(*d)?,
            Range(i) => i.as_point()?,
            Neg(a) => a.eval(point)?.checked_neg()?,
            Add(a, b) => a.eval(point)?.checked_add(b.eval(point)?)?,
            Sub(a, b) => a.eval(point)?.checked_sub(b.eval(point)?)?,
            Mul(a, b) => a.eval(point)?.checked_mul(b.eval(point)?)?,
            Div(a, b) => a.eval(point)?.checked_div(b.eval(point)?)?,
            Rem(a, b) => a.eval(point)?.checked_rem(b.eval(point)?)?,
            Min(a, b) => a.eval(point)?.min(b.eval(point)?),
            Max(a, b) => a.eval(point)?.max(b.eval(point)?),
        })
    }
}

impl From<i128> for NumExpr {
    fn from(c: i128) -> NumExpr {
        NumExpr::Const(c)
    }
}

macro_rules! binop {
    ($tr:ident, $m:ident, $v:ident) => {
        impl ops::$tr for NumExpr {
            type Output = NumExpr;
            fn $m(self, rhs: NumExpr) -> NumExpr {
                NumExpr::$v(Box::new(self), Box::new(rhs))
            }
        }
    };
}
binop!(Add, add, Add);
binop!(Sub, sub, Sub);
binop!(Mul, mul, Mul);
binop!(Div, div, Div);
binop!(Rem, rem, Rem);

impl ops::Neg for NumExpr {
    type Output = NumExpr;
    fn neg(self) -> NumExpr {
        NumExpr::Neg(Box::new(self))
    }
}

/// A comparison operator of a guard `a ⋈ b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `>=`
    Ge,
    /// `>`
    Gt,
}

impl CmpOp {
    /// The operator of the negated comparison (for the else branch).
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Ge => CmpOp::Lt,
            CmpOp::Gt => CmpOp::Le,
        }
    }

    /// Whether `a ⋈ b` holds.
    pub fn holds(self, a: i128, b: i128) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Ge => a >= b,
            CmpOp::Gt => a > b,
        }
    }
}

/// An over-approximation of an expression as `lin + noise`: every value of
/// the expression in a state equals `lin` at that state plus some element of
/// `noise`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affine {
    /// The exact linear part.
    pub lin: LinExpr,
    /// The interval that stands for the non-linear parts.
    pub noise: Interval,
}

impl Affine {
    fn exact(lin: LinExpr) -> Affine {
        Affine { lin, noise: Interval::ZERO }
    }

    fn interval(noise: Interval) -> Affine {
        match noise.as_point() {
            Some(c) => Affine::exact(LinExpr::constant(c)),
            None => Affine { lin: LinExpr::zero(), noise },
        }
    }

    /// The value if the form is a known constant.
    fn as_const(&self) -> Option<i128> {
        if self.lin.is_constant() {
            self.lin.cst().checked_add(self.noise.as_point()?)
        } else {
            None
        }
    }

    /// The range of values under the given bounds of linear expressions.
    pub fn range(&self, bounds: &dyn Fn(&LinExpr) -> Interval) -> Interval {
        if self.lin.is_constant() {
            Interval::point(self.lin.cst()).add(&self.noise)
        } else {
            bounds(&self.lin).add(&self.noise)
        }
    }

    fn scale(&self, k: i128, bounds: &dyn Fn(&LinExpr) -> Interval) -> Affine {
        match self.lin.checked_scale(k) {
            Some(lin) => Affine { lin, noise: self.noise.scale(k) },
            None => Affine::interval(self.range(bounds).scale(k)),
        }
    }

    fn add(&self, other: &Affine, bounds: &dyn Fn(&LinExpr) -> Interval) -> Affine {
        match self.lin.checked_add(&other.lin) {
            Some(lin) => Affine { lin, noise: self.noise.add(&other.noise) },
            None => Affine::interval(self.range(bounds).add(&other.range(bounds))),
        }
    }
}

/// Linearises `e`: linear parts stay exact and every non-linear subterm is
/// replaced by its range under `bounds` (the bounds of the current element).
pub fn linearize(e: &NumExpr, bounds: &dyn Fn(&LinExpr) -> Interval) -> Affine {
    use NumExpr::*;
    let itv2 = |a: &NumExpr, b: &NumExpr| (linearize(a, bounds).range(bounds), linearize(b, bounds).range(bounds));
    match e {
        Const(c) => Affine::exact(LinExpr::constant(*c)),
        Var(d) => Affine::exact(LinExpr::var(*d)),
        Range(i) => Affine::interval(*i),
        Neg(a) => linearize(a, bounds).scale(-1, bounds),
        Add(a, b) => linearize(a, bounds).add(&linearize(b, bounds), bounds),
        Sub(a, b) => linearize(a, bounds).add(&linearize(b, bounds).scale(-1, bounds), bounds),
        Mul(a, b) => {
            let (la, lb) = (linearize(a, bounds), linearize(b, bounds));
            if let Some(k) = la.as_const() {
                lb.scale(k, bounds)
            } else if let Some(k) = lb.as_const() {
                la.scale(k, bounds)
            } else {
                Affine::interval(la.range(bounds).mul(&lb.range(bounds)))
            }
        }
        Div(a, b) => {
            let (la, lb) = (linearize(a, bounds), linearize(b, bounds));
            match lb.as_const() {
                Some(1) => la,
                Some(-1) => la.scale(-1, bounds),
                _ => Affine::interval(la.range(bounds).div(&lb.range(bounds))),
            }
        }
        Rem(a, b) => {
            let (ia, ib) = itv2(a, b);
            Affine::interval(ia.rem(&ib))
        }
        Min(a, b) => {
            let (ia, ib) = itv2(a, b);
            Affine::interval(ia.min(&ib))
        }
        Max(a, b) => {
            let (ia, ib) = itv2(a, b);
            Affine::interval(ia.max(&ib))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box(e: &LinExpr) -> Interval {
        // Every variable in [0, 10].
        let mut acc = Interval::point(e.cst());
        for &(_, a) in e.terms() {
            acc = acc.add(&Interval::range(0, 10).scale(a));
        }
        acc
    }

    #[test]
    fn linear_parts_stay_exact() {
        let e = NumExpr::var(0) * NumExpr::cst(3) - (NumExpr::var(1) + NumExpr::cst(2)) * NumExpr::cst(2);
        let a = linearize(&e, &unit_box);
        assert_eq!(a.lin, LinExpr::from_terms([(0, 3), (1, -2)], -4).unwrap());
        assert_eq!(a.noise, Interval::ZERO);
    }

    #[test]
    fn nonlinear_parts_become_intervals() {
        let e = NumExpr::var(0) + NumExpr::var(1) * NumExpr::var(2);
        let a = linearize(&e, &unit_box);
        assert_eq!(a.lin, LinExpr::var(0));
        assert_eq!(a.noise, Interval::range(0, 100));
        let d = NumExpr::var(0) / NumExpr::var(1);
        assert_eq!(linearize(&d, &unit_box).noise, Interval::range(0, 10));
    }

    #[test]
    fn concrete_evaluation_follows_c() {
        let e = NumExpr::cst(-7) / NumExpr::cst(2);
        assert_eq!(e.eval(&[]), Some(-3));
        assert_eq!((NumExpr::cst(-7) % NumExpr::cst(2)).eval(&[]), Some(-1));
        assert_eq!((NumExpr::cst(1) / NumExpr::var(0)).eval(&[0]), None);
    }
}
