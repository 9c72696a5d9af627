//! Shared strategies and concrete-semantics helpers for the property tests.
#![allow(dead_code)]

use domains::{CmpOp, ConsKind, Interval, LinCons, LinExpr, NumDomain, NumExpr};
use proptest::prelude::*;

/// Half-width of the box of concrete points enumerated by the tests.
pub(crate) const R: i128 = 3;

/// Every integer point of `[−r, r]^n`.
pub(crate) fn box_points(n: usize, r: i128) -> Vec<Vec<i128>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        let mut next = Vec::with_capacity(out.len() * (2 * r as usize + 1));
        for p in &out {
            for v in -r..=r {
                let mut q = p.clone();
                q.push(v);
                next.push(q);
            }
        }
        out = next;
    }
    out
}

/// The box constraints `−r ≤ x_d ≤ r` for every dimension.
pub(crate) fn box_constraints(n: usize, r: i128) -> Vec<LinCons> {
    let mut out = Vec::new();
    for d in 0..n {
        out.push(LinCons::ge0(LinExpr::var(d).with_constant(r)));
        out.push(LinCons::ge0(LinExpr::term(d, -1).with_constant(r)));
    }
    out
}

/// A random linear constraint over `n` dimensions with small coefficients.
pub(crate) fn arb_cons(n: usize) -> impl Strategy<Value = LinCons> {
    let term = (0..n, -2i128..=2);
    (prop::collection::vec(term, 1..=3), -6i128..=6, prop_oneof![6 => Just(ConsKind::Ge0), 1 => Just(ConsKind::Eq0), 2 => Just(ConsKind::Ne0)])
        .prop_map(|(terms, c, kind)| LinCons { expr: LinExpr::from_terms(terms, c).unwrap(), kind })
}

/// A random octagonal constraint `±x ± y + c ≥ 0` or `±x + c ≥ 0`.
pub(crate) fn arb_oct_cons(n: usize) -> impl Strategy<Value = LinCons> {
    (0..n, 0..n, prop::bool::ANY, prop::bool::ANY, -7i128..=7, prop::bool::ANY).prop_map(|(x, y, sx, sy, c, unary)| {
        let a = if sx { 1 } else { -1 };
        let b = if sy { 1 } else { -1 };
        let terms = if unary || x == y { vec![(x, a)] } else { vec![(x, a), (y, b)] };
        LinCons::ge0(LinExpr::from_terms(terms, c).unwrap())
    })
}

/// A random expression tree over `n` variables.
pub(crate) fn arb_expr(n: usize) -> impl Strategy<Value = NumExpr> {
    let leaf = prop_oneof![
        3 => (-4i128..=4).prop_map(NumExpr::Const),
        4 => (0..n).prop_map(NumExpr::Var),
        1 => (-3i128..=3, 0i128..=2).prop_map(|(a, w)| NumExpr::Range(Interval::range(a, a + w))),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| -a),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a + b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a - b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a * b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a / b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a % b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a.min(b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a.max(b)),
        ]
    })
}

/// A random comparison operator.
pub(crate) fn arb_cmp() -> impl Strategy<Value = CmpOp> {
    prop_oneof![Just(CmpOp::Lt), Just(CmpOp::Le), Just(CmpOp::Eq), Just(CmpOp::Ne), Just(CmpOp::Ge), Just(CmpOp::Gt)]
}

/// Every value `e` can take at `p` (one per choice in its `Range` leaves);
/// choices that divide by zero (undefined in C) are left out.
pub(crate) fn eval_all(e: &NumExpr, p: &[i128]) -> Vec<i128> {
    use NumExpr::*;
    let bin = |a: &NumExpr, b: &NumExpr, f: &dyn Fn(i128, i128) -> Option<i128>| -> Vec<i128> {
        let (va, vb) = (eval_all(a, p), eval_all(b, p));
        let mut out = Vec::new();
        for &x in &va {
            for &y in &vb {
                if let Some(v) = f(x, y) {
                    out.push(v);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    };
    match e {
        Const(c) => vec![*c],
        Var(d) => vec![p[*d]],
        Range(i) => {
            let (lo, hi) = (i.lo().finite().unwrap(), i.hi().finite().unwrap());
            (lo..=hi).collect()
        }
        Neg(a) => eval_all(a, p).into_iter().map(|v| -v).collect(),
        Add(a, b) => bin(a, b, &|x, y| x.checked_add(y)),
        Sub(a, b) => bin(a, b, &|x, y| x.checked_sub(y)),
        Mul(a, b) => bin(a, b, &|x, y| x.checked_mul(y)),
        Div(a, b) => bin(a, b, &|x, y| x.checked_div(y)),
        Rem(a, b) => bin(a, b, &|x, y| x.checked_rem(y)),
        Min(a, b) => bin(a, b, &|x, y| Some(x.min(y))),
        Max(a, b) => bin(a, b, &|x, y| Some(x.max(y))),
    }
}

/// The element built by guarding `top` with `cons`, and the points of the
/// box `[−R, R]^n` that satisfy every constraint (so must be in it).
pub(crate) fn build<D: NumDomain>(top: D, cons: &[LinCons]) -> (D, Vec<Vec<i128>>) {
    let n = top.dims();
    let mut all = box_constraints(n, R);
    all.extend(cons.iter().cloned());
    let mut d = top;
    for c in &all {
        d.guard(c);
    }
    let pts = box_points(n, R).into_iter().filter(|p| all.iter().all(|c| c.holds(p) == Some(true))).collect();
    (d, pts)
}

/// Asserts that every point is in the element.
pub(crate) fn assert_contains_all<D: NumDomain>(d: &D, pts: &[Vec<i128>], what: &str) {
    for p in pts {
        assert!(d.contains(p), "{what}: {p:?} not in {d:?}");
    }
}
