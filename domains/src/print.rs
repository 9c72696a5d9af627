//! Printing of expressions and conjunctions of constraints, e.g.
//! `0 <= x <= 1 && x - y <= 3`.

use crate::linexpr::{ConsKind, LinCons, LinExpr};
use std::fmt;

/// The default variable name: `x0`, `x1`, …
pub fn default_name(d: usize) -> String {
    format!("x{d}")
}

/// Adapts a closure to [`fmt::Display`].
pub(crate) struct DisplayFn<F>(pub F);

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for DisplayFn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

/// Writes `Σ aᵢ·xᵢ` (no constant), e.g. `2*x - y`; `0` when there is no term.
fn write_terms(f: &mut fmt::Formatter<'_>, terms: &[(usize, i128)], names: &dyn Fn(usize) -> String) -> fmt::Result {
    if terms.is_empty() {
        return write!(f, "0");
    }
    for (k, &(d, a)) in terms.iter().enumerate() {
        let mag = a.unsigned_abs();
        if k == 0 {
            if a < 0 {
                write!(f, "-")?;
            }
        } else if a < 0 {
            write!(f, " - ")?;
        } else {
            write!(f, " + ")?;
        }
        if mag == 1 {
            write!(f, "{}", names(d))?;
        } else {
            write!(f, "{}*{}", mag, names(d))?;
        }
    }
    Ok(())
}

/// Writes a linear expression, e.g. `2*x - y + 3`.
pub(crate) fn write_linexpr(f: &mut fmt::Formatter<'_>, e: &LinExpr, names: &dyn Fn(usize) -> String) -> fmt::Result {
    if e.is_constant() {
        return write!(f, "{}", e.cst());
    }
    write_terms(f, e.terms(), names)?;
    match e.cst() {
        0 => Ok(()),
        c if c < 0 => write!(f, " - {}", c.unsigned_abs()),
        c => write!(f, " + {c}"),
    }
}

/// A constraint rewritten as `T ⋈ v` with the first coefficient of `T` positive.
enum Shape {
    /// A constraint without variables: always true or always false.
    Const(bool),
    /// `T >= v`.
    Ge(Vec<(usize, i128)>, i128),
    /// `T <= v`.
    Le(Vec<(usize, i128)>, i128),
    /// `T == v`.
    Eq(Vec<(usize, i128)>, i128),
    /// `T != v`.
    Ne(Vec<(usize, i128)>, i128),
}

/// Moves the constant to the right and makes the first coefficient positive.
///
/// Falls back to `None` when a negation overflows, and the constraint is
/// then printed in its raw `e >= 0` form.
fn shape(c: &LinCons) -> Option<Shape> {
    let e = &c.expr;
    if e.is_constant() {
        let v = e.cst();
        return Some(Shape::Const(match c.kind {
            ConsKind::Ge0 => v >= 0,
            ConsKind::Eq0 => v == 0,
            ConsKind::Ne0 => v != 0,
        }));
    }
    let flip = e.terms()[0].1 < 0;
    let terms: Vec<(usize, i128)> = if flip { e.terms().iter().map(|&(d, a)| a.checked_neg().map(|n| (d, n))).collect::<Option<_>>()? } else { e.terms().to_vec() };
    // T + c ⋈ 0 becomes T ⋈ −c; −T' + c ⋈ 0 becomes T' ⋈' c.
    let rhs = if flip { e.cst() } else { e.cst().checked_neg()? };
    Some(match (c.kind, flip) {
        (ConsKind::Ge0, false) => Shape::Ge(terms, rhs),
        (ConsKind::Ge0, true) => Shape::Le(terms, rhs),
        (ConsKind::Eq0, _) => Shape::Eq(terms, rhs),
        (ConsKind::Ne0, _) => Shape::Ne(terms, rhs),
    })
}

/// Writes one constraint, e.g. `x - y <= 3`.
pub(crate) fn write_cons(f: &mut fmt::Formatter<'_>, c: &LinCons, names: &dyn Fn(usize) -> String) -> fmt::Result {
    let Some(s) = shape(c) else {
        write_linexpr(f, &c.expr, names)?;
        return write!(
            f,
            " {} 0",
            match c.kind {
                ConsKind::Ge0 => ">=",
                ConsKind::Eq0 => "==",
                ConsKind::Ne0 => "!=",
            }
        );
    };
    let (terms, op, v) = match s {
        Shape::Const(b) => return write!(f, "{b}"),
        Shape::Ge(t, v) => (t, ">=", v),
        Shape::Le(t, v) => (t, "<=", v),
        Shape::Eq(t, v) => (t, "==", v),
        Shape::Ne(t, v) => (t, "!=", v),
    };
    write_terms(f, &terms, names)?;
    write!(f, " {op} {v}")
}

/// Formats a conjunction with the given names, merging the two bounds of one
/// linear term into `lo <= T <= hi` (or `T == v`).
///
/// The empty conjunction prints as `true`; one that contains a false
/// constant constraint prints as `false`. Terms appear in order of first
/// occurrence, so the output is deterministic.
pub fn format_constraints(cons: &[LinCons], names: &dyn Fn(usize) -> String) -> String {
    struct Group {
        terms: Vec<(usize, i128)>,
        lo: Option<i128>,
        hi: Option<i128>,
        ne: Vec<i128>,
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut raw: Vec<String> = Vec::new();
    fn group(groups: &mut Vec<Group>, terms: Vec<(usize, i128)>) -> &mut Group {
        let pos = groups.iter().position(|g| g.terms == terms);
        let i = match pos {
            Some(i) => i,
            None => {
                groups.push(Group { terms, lo: None, hi: None, ne: Vec::new() });
                groups.len() - 1
            }
        };
        &mut groups[i]
    }
    for c in cons {
        match shape(c) {
            None => raw.push(c.display_with(names).to_string()),
            Some(Shape::Const(true)) => {}
            Some(Shape::Const(false)) => return "false".to_string(),
            Some(Shape::Ge(t, v)) => {
                let g = group(&mut groups, t);
                g.lo = Some(g.lo.map_or(v, |l| l.max(v)));
            }
            Some(Shape::Le(t, v)) => {
                let g = group(&mut groups, t);
                g.hi = Some(g.hi.map_or(v, |h| h.min(v)));
            }
            Some(Shape::Eq(t, v)) => {
                let g = group(&mut groups, t);
                g.lo = Some(g.lo.map_or(v, |l| l.max(v)));
                g.hi = Some(g.hi.map_or(v, |h| h.min(v)));
            }
            Some(Shape::Ne(t, v)) => group(&mut groups, t).ne.push(v),
        }
    }
    let mut parts: Vec<String> = Vec::new();
    for g in &groups {
        let t = DisplayFn(|f: &mut fmt::Formatter<'_>| write_terms(f, &g.terms, names)).to_string();
        match (g.lo, g.hi) {
            (Some(l), Some(h)) if l > h => return "false".to_string(),
            (Some(l), Some(h)) if l == h => parts.push(format!("{t} == {l}")),
            (Some(l), Some(h)) => parts.push(format!("{l} <= {t} <= {h}")),
            (Some(l), None) => parts.push(format!("{t} >= {l}")),
            (None, Some(h)) => parts.push(format!("{t} <= {h}")),
            (None, None) => {}
        }
        for v in &g.ne {
            parts.push(format!("{t} != {v}"));
        }
    }
    parts.extend(raw);
    if parts.is_empty() {
        "true".to_string()
    } else {
        parts.join(" && ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(d: usize) -> String {
        ["x", "y", "z"][d].to_string()
    }

    #[test]
    fn single_constraints() {
        let c = LinCons::ge0(LinExpr::from_terms([(0, -1), (1, 1)], 3).unwrap());
        assert_eq!(c.display_with(&names).to_string(), "x - y <= 3");
        let c = LinCons::ge0(LinExpr::from_terms([(0, 2), (2, -1)], -4).unwrap());
        assert_eq!(c.display_with(&names).to_string(), "2*x - z >= 4");
        let c = LinCons::eq0(LinExpr::from_terms([(1, -1)], 5).unwrap());
        assert_eq!(c.display_with(&names).to_string(), "y == 5");
        assert_eq!(LinCons::unsat().to_string(), "false");
        assert_eq!(LinExpr::from_terms([(0, 1), (1, -3)], -2).unwrap().to_string(), "x0 - 3*x1 - 2");
    }

    #[test]
    fn grouped_conjunction() {
        let cs = vec![
            LinCons::ge0(LinExpr::var(0)),
            LinCons::ge0(LinExpr::from_terms([(0, -1)], 1).unwrap()),
            LinCons::ge0(LinExpr::from_terms([(0, -1), (1, 1)], 3).unwrap()),
            LinCons::ge0(LinExpr::from_terms([(2, 1)], -7).unwrap()),
            LinCons::ne0(LinExpr::from_terms([(2, 1)], -9).unwrap()),
        ];
        assert_eq!(format_constraints(&cs, &names), "0 <= x <= 1 && x - y <= 3 && z >= 7 && z != 9");
        assert_eq!(format_constraints(&[], &names), "true");
        assert_eq!(format_constraints(&[LinCons::unsat()], &names), "false");
    }
}
