//! Linear expressions `Σ aᵢ·xᵢ + c` and linear constraints over them.

use crate::print;
use std::fmt;

/// A linear expression `Σ aᵢ·x_dᵢ + c` with integer coefficients.
///
/// Terms are kept sorted by dimension, with one term per dimension and no
/// zero coefficient, so derived equality is equality of expressions.
/// Combining expressions uses checked arithmetic and returns `None` when a
/// coefficient would overflow `i128`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LinExpr {
    terms: Vec<(usize, i128)>,
    cst: i128,
}

impl LinExpr {
    /// The expression `0`.
    pub fn zero() -> LinExpr {
        LinExpr::default()
    }

    /// The constant expression `c`.
    pub fn constant(c: i128) -> LinExpr {
        LinExpr { terms: Vec::new(), cst: c }
    }

    /// The expression `x_dim`.
    pub fn var(dim: usize) -> LinExpr {
        LinExpr { terms: vec![(dim, 1)], cst: 0 }
    }

    /// The expression `a·x_dim`.
    pub fn term(dim: usize, a: i128) -> LinExpr {
        let terms = if a == 0 { Vec::new() } else { vec![(dim, a)] };
        LinExpr { terms, cst: 0 }
    }

    /// `Σ aᵢ·x_dᵢ + c`; repeated dimensions are summed. `None` on overflow.
    pub fn from_terms<I: IntoIterator<Item = (usize, i128)>>(terms: I, c: i128) -> Option<LinExpr> {
        let mut v: Vec<(usize, i128)> = terms.into_iter().collect();
        v.sort_by_key(|&(d, _)| d);
        let mut out: Vec<(usize, i128)> = Vec::with_capacity(v.len());
        for (d, a) in v {
            match out.last_mut() {
                Some(last) if last.0 == d => last.1 = last.1.checked_add(a)?,
                _ => out.push((d, a)),
            }
        }
        out.retain(|&(_, a)| a != 0);
        Some(LinExpr { terms: out, cst: c })
    }

    /// The same expression with constant `c`.
    pub fn with_constant(mut self, c: i128) -> LinExpr {
        self.cst = c;
        self
    }

    /// The terms `(dim, coefficient)`, sorted by dimension, coefficients non-zero.
    pub fn terms(&self) -> &[(usize, i128)] {
        &self.terms
    }

    /// The constant `c`.
    pub fn cst(&self) -> i128 {
        self.cst
    }

    /// The coefficient of `x_dim` (0 when absent).
    pub fn coeff(&self, dim: usize) -> i128 {
        self.terms.binary_search_by_key(&dim, |&(d, _)| d).map_or(0, |i| self.terms[i].1)
    }

    /// Whether the expression has no variable.
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// One more than the largest dimension used (0 for a constant).
    pub fn dims_needed(&self) -> usize {
        self.terms.last().map_or(0, |&(d, _)| d + 1)
    }

    /// `self + other`, or `None` on overflow.
    pub fn checked_add(&self, other: &LinExpr) -> Option<LinExpr> {
        let mut terms = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            let a = self.terms.get(i);
            let b = other.terms.get(j);
            match (a, b) {
                (Some(&(da, ca)), Some(&(db, cb))) if da == db => {
                    let s = ca.checked_add(cb)?;
                    if s != 0 {
                        terms.push((da, s));
                    }
                    i += 1;
                    j += 1;
                }
                (Some(&(da, ca)), Some(&(db, _))) if da < db => {
                    terms.push((da, ca));
                    i += 1;
                }
                (Some(&t), None) => {
                    terms.push(t);
                    i += 1;
                }
                (_, Some(&t)) => {
                    terms.push(t);
                    j += 1;
                }
                (None, None) => break,
            }
        }
        Some(LinExpr { terms, cst: self.cst.checked_add(other.cst)? })
    }

    /// `k·self`, or `None` on overflow.
    pub fn checked_scale(&self, k: i128) -> Option<LinExpr> {
        if k == 0 {
            return Some(LinExpr::zero());
        }
        let mut terms = Vec::with_capacity(self.terms.len());
        for &(d, a) in &self.terms {
            terms.push((d, a.checked_mul(k)?));
        }
        Some(LinExpr { terms, cst: self.cst.checked_mul(k)? })
    }

    /// `−self`, or `None` on overflow.
    pub fn checked_neg(&self) -> Option<LinExpr> {
        self.checked_scale(-1)
    }

    /// `self − other`, or `None` on overflow.
    pub fn checked_sub(&self, other: &LinExpr) -> Option<LinExpr> {
        self.checked_add(&other.checked_neg()?)
    }

    /// `self + c`, or `None` on overflow.
    pub fn checked_add_constant(&self, c: i128) -> Option<LinExpr> {
        Some(LinExpr { terms: self.terms.clone(), cst: self.cst.checked_add(c)? })
    }

    /// `self + a·x_dim`, or `None` on overflow.
    pub fn checked_add_term(&self, dim: usize, a: i128) -> Option<LinExpr> {
        self.checked_add(&LinExpr::term(dim, a))
    }

    /// The value at a concrete point, or `None` on overflow or a dimension
    /// outside the point.
    pub fn eval(&self, point: &[i128]) -> Option<i128> {
        let mut s = self.cst;
        for &(d, a) in &self.terms {
            s = s.checked_add(a.checked_mul(*point.get(d)?)?)?;
        }
        Some(s)
    }

    /// The expression with every dimension `d` replaced by `f(d)`; `None`
    /// when `f` drops a dimension or the merge overflows.
    pub fn map_dims(&self, f: impl Fn(usize) -> Option<usize>) -> Option<LinExpr> {
        let mut terms = Vec::with_capacity(self.terms.len());
        for &(d, a) in &self.terms {
            terms.push((f(d)?, a));
        }
        LinExpr::from_terms(terms, self.cst)
    }

    /// Formats the expression with the given variable names.
    pub fn display_with<'a>(&'a self, names: &'a dyn Fn(usize) -> String) -> impl fmt::Display + 'a {
        print::DisplayFn(move |f: &mut fmt::Formatter<'_>| print::write_linexpr(f, self, names))
    }

    /// Builds an expression from already normalised parts.
    pub(crate) fn from_sorted(terms: Vec<(usize, i128)>, cst: i128) -> LinExpr {
        debug_assert!(terms.windows(2).all(|w| w[0].0 < w[1].0));
        debug_assert!(terms.iter().all(|&(_, a)| a != 0));
        LinExpr { terms, cst }
    }
}

impl fmt::Display for LinExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print::write_linexpr(f, self, &print::default_name)
    }
}

/// The kind of a linear constraint `e ⋈ 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConsKind {
    /// `e ≥ 0`.
    Ge0,
    /// `e = 0`.
    Eq0,
    /// `e ≠ 0`.
    Ne0,
}

/// A linear constraint `e ≥ 0`, `e = 0` or `e ≠ 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinCons {
    /// The expression compared with zero.
    pub expr: LinExpr,
    /// The comparison.
    pub kind: ConsKind,
}

impl LinCons {
    /// `e ≥ 0`.
    pub fn ge0(expr: LinExpr) -> LinCons {
        LinCons { expr, kind: ConsKind::Ge0 }
    }

    /// `e = 0`.
    pub fn eq0(expr: LinExpr) -> LinCons {
        LinCons { expr, kind: ConsKind::Eq0 }
    }

    /// `e ≠ 0`.
    pub fn ne0(expr: LinExpr) -> LinCons {
        LinCons { expr, kind: ConsKind::Ne0 }
    }

    /// The always-false constraint `−1 ≥ 0`.
    pub fn unsat() -> LinCons {
        LinCons::ge0(LinExpr::constant(-1))
    }

    /// Whether the constraint holds at a concrete point (`None` on overflow).
    pub fn holds(&self, point: &[i128]) -> Option<bool> {
        let v = self.expr.eval(point)?;
        Some(match self.kind {
            ConsKind::Ge0 => v >= 0,
            ConsKind::Eq0 => v == 0,
            ConsKind::Ne0 => v != 0,
        })
    }

    /// Formats the constraint with the given variable names, e.g. `x - y <= 3`.
    pub fn display_with<'a>(&'a self, names: &'a dyn Fn(usize) -> String) -> impl fmt::Display + 'a {
        print::DisplayFn(move |f: &mut fmt::Formatter<'_>| print::write_cons(f, self, names))
    }
}

impl fmt::Display for LinCons {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print::write_cons(f, self, &print::default_name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation() {
        let e = LinExpr::from_terms([(3, 2), (1, 1), (3, -2), (0, 5)], 7).unwrap();
        assert_eq!(e.terms(), &[(0, 5), (1, 1)]);
        assert_eq!(e.coeff(3), 0);
        let f = LinExpr::var(1).checked_sub(&LinExpr::term(0, 5)).unwrap();
        let g = e.checked_add(&f).unwrap();
        assert_eq!(g.terms(), &[(1, 2)]);
        assert_eq!(g.cst(), 7);
        assert_eq!(LinExpr::from_terms([(0, i128::MAX), (0, 1)], 0), None);
        assert_eq!(LinExpr::constant(i128::MIN).checked_neg(), None);
    }

    #[test]
    fn evaluation() {
        let e = LinExpr::from_terms([(0, 2), (2, -1)], 3).unwrap();
        assert_eq!(e.eval(&[1, 100, 4]), Some(1));
        assert_eq!(e.eval(&[1]), None);
        assert_eq!(LinCons::ne0(e.clone()).holds(&[1, 0, 5]), Some(false));
    }
}
