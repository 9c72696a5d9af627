//! Octagon closure properties: the tight closure is exact against brute
//! force, idempotent, and the incremental, per-variable and O(n) paths give
//! the same matrix as the full closure.

use crate::common;

use common::*;
use domains::{Bound, Interval, LinCons, LinExpr, NumDomain, NumExpr, Octagon};
use proptest::prelude::*;

const CASES: u32 = 128;

/// The value of vertex `i` (`+x` for even, `−x` for odd) at a point.
fn vertex_value(p: &[i128], i: usize) -> i128 {
    if i & 1 == 0 {
        p[i / 2]
    } else {
        -p[i / 2]
    }
}

/// Asserts that every entry of a closed octagon is the exact maximum of
/// `V_j − V_i` over `pts`, or that it is bottom when `pts` is empty.
fn assert_exact(o: &Octagon, pts: &[Vec<i128>]) {
    let n = o.dims();
    if pts.is_empty() {
        assert!(o.is_bottom(), "no integer point but not bottom: {o:?}");
        return;
    }
    assert!(o.is_closed());
    for i in 0..2 * n {
        for j in 0..2 * n {
            let max = pts.iter().map(|p| vertex_value(p, j) - vertex_value(p, i)).max().unwrap();
            assert_eq!(o.entry(i, j), Some(Bound::Fin(max)), "entry ({i}, {j}) of {o:?}");
        }
    }
}

/// An octagon from octagonal constraints inside the box, its closure, and
/// its integer points.
fn closed_octagon(n: usize, cons: &[LinCons]) -> (Octagon, Vec<Vec<i128>>) {
    let mut all = box_constraints(n, R);
    all.extend(cons.iter().cloned());
    let mut o = Octagon::from_constraints(n, &all);
    assert!(!o.is_closed() || o.is_bottom());
    o.normalize();
    let pts = box_points(n, R).into_iter().filter(|p| all.iter().all(|c| c.holds(p) == Some(true))).collect();
    (o, pts)
}

/// Asserts that a closed octagon is a fixpoint of the full closure.
fn assert_fixpoint(o: &Octagon, what: &str) {
    if o.is_closed() {
        let mut r = o.clone();
        r.recompute_closure();
        assert_eq!(&r, o, "{what}: claimed closed but the closure changes it");
        if !o.is_bottom() {
            for i in 0..2 * o.dims() {
                for j in 0..2 * o.dims() {
                    assert_eq!(r.entry(i, j), o.entry(i, j), "{what}: entry ({i}, {j})");
                }
            }
        }
    }
}

fn oct_setup(max: usize) -> impl Strategy<Value = (usize, Vec<LinCons>)> {
    (1usize..=4).prop_flat_map(move |n| (Just(n), prop::collection::vec(arb_oct_cons(n), 0..=max)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn tight_closure_is_exact((n, cons) in oct_setup(8)) {
        let (o, pts) = closed_octagon(n, &cons);
        assert_exact(&o, &pts);
    }

    #[test]
    fn closure_is_idempotent((n, cons) in oct_setup(8)) {
        let (o, _) = closed_octagon(n, &cons);
        assert_fixpoint(&o, "closure");
    }

    #[test]
    fn incremental_closure_equals_full_closure(((n, cons), extra) in oct_setup(8).prop_flat_map(|(n, c)| {
        (Just((n, c)), prop::collection::vec(arb_oct_cons(n), 1..=3))
    })) {
        let (base, _) = closed_octagon(n, &cons);
        let mut inc = base.clone();
        let mut full = base.clone();
        full.meet_with(&Octagon::top(n)); // forget that it is closed
        for c in &extra {
            inc.guard(c);
            full.guard(c);
        }
        assert!(inc.is_closed(), "incremental guard left the octagon open");
        assert!(!full.is_closed() || full.is_bottom());
        full.normalize();
        assert_eq!(inc.is_bottom(), full.is_bottom());
        if !inc.is_bottom() {
            for i in 0..2 * n {
                for j in 0..2 * n {
                    assert_eq!(inc.entry(i, j), full.entry(i, j), "entry ({i}, {j})");
                }
            }
        }
    }

    #[test]
    fn exact_assignments_are_exact(((n, cons), x, y, s, c, w) in oct_setup(6).prop_flat_map(|(n, cs)| {
        (Just((n, cs)), 0..n, 0..n, prop::bool::ANY, -4i128..=4, 0i128..=2)
    })) {
        let (o, pts) = closed_octagon(n, &cons);
        // x := ±y + c
        let a = if s { 1 } else { -1 };
        let mut r = o.clone();
        r.assign_linear(x, &LinExpr::term(y, a).with_constant(c));
        let image: Vec<Vec<i128>> = pts.iter().map(|p| {
            let mut q = p.clone();
            q[x] = a * p[y] + c;
            q
        }).collect();
        assert_exact(&r, &image);
        // x := ±y + [c, c + w]
        let mut r = o.clone();
        r.assign_affine(x, &LinExpr::term(y, a), Interval::range(c, c + w));
        let image: Vec<Vec<i128>> = pts.iter().flat_map(|p| (c..=c + w).map(move |k| {
            let mut q = p.clone();
            q[x] = a * p[y] + k;
            q
        })).collect();
        assert_exact(&r, &image);
        // x := [c, c + w]
        let mut r = o.clone();
        r.assign_interval(x, Interval::range(c, c + w));
        let image: Vec<Vec<i128>> = pts.iter().flat_map(|p| (c..=c + w).map(move |k| {
            let mut q = p.clone();
            q[x] = k;
            q
        })).collect();
        assert_exact(&r, &image);
        // forget x: exact on the box-free projection, so only check closure.
        let mut f = o.clone();
        f.forget(x);
        assert_fixpoint(&f, "forget");
    }

    #[test]
    fn operations_that_claim_closure_are_closed(((n, cons), x, e, g, h) in oct_setup(6).prop_flat_map(|(n, cs)| {
        (Just((n, cs)), 0..n, arb_expr(n), arb_cons(n), prop::collection::vec(arb_oct_cons(n), 0..=4))
    })) {
        let (o, _) = closed_octagon(n, &cons);
        let mut a = o.clone();
        a.assign_expr(x, &e);
        assert_fixpoint(&a, "assign_expr");
        let mut b = o.clone();
        b.assign_linear(x, &g.expr);
        assert_fixpoint(&b, "assign_linear (general)");
        let mut c = o.clone();
        c.guard(&g);
        assert_fixpoint(&c, "guard (general)");
        let (other, _) = closed_octagon(n, &h);
        let j = o.join(&other);
        assert_fixpoint(&j, "join");
        let mut p = o.clone();
        p.permute(&(0..n).rev().collect::<Vec<_>>());
        assert_fixpoint(&p, "permute");
        let mut r = o.clone();
        r.remove_dims(&[x]);
        assert_fixpoint(&r, "remove_dims");
        let mut ad = o.clone();
        ad.add_dims(2);
        assert_fixpoint(&ad, "add_dims");
    }

    #[test]
    fn general_assignment_matches_a_fresh_closure(((n, cons), x, terms, cst) in oct_setup(6).prop_flat_map(|(n, cs)| {
        (Just((n, cs)), 0..n, prop::collection::vec((0..n, -3i128..=3), 2..=3), -3i128..=3)
    })) {
        // The per-variable closure after a general assignment must find every
        // consequence: compare with the closure of the same matrix computed
        // from scratch (a fixpoint check), and with soundness on points.
        let (o, pts) = closed_octagon(n, &cons);
        let e = LinExpr::from_terms(terms, cst).unwrap();
        let mut r = o.clone();
        r.assign_linear(x, &e);
        assert_fixpoint(&r, "general assignment");
        for p in &pts {
            let mut q = p.clone();
            q[x] = e.eval(p).unwrap();
            assert!(r.contains(&q));
        }
    }
}

#[test]
fn closure_through_two_pivots() {
    // x0 + x1 <= 4, x2 - x1 <= -1, x2 + x0 >= 7 ⇒ contradiction through x1.
    let cs = [
        LinCons::ge0(LinExpr::from_terms([(0, -1), (1, -1)], 4).unwrap()),
        LinCons::ge0(LinExpr::from_terms([(1, 1), (2, -1)], -1).unwrap()),
        LinCons::ge0(LinExpr::from_terms([(2, 1), (0, 1)], -7).unwrap()),
    ];
    let mut o = Octagon::from_constraints(3, &cs[..2]);
    o.normalize();
    assert!(!o.is_bottom());
    assert_eq!(o.bounds(&LinExpr::from_terms([(0, 1), (2, 1)], 0).unwrap()).hi(), Bound::Fin(3));
    o.guard(&cs[2]);
    assert!(o.is_bottom());
}

#[test]
fn nonlinear_assignment_keeps_linear_part() {
    // x0 := x1 + x2 * x2 keeps x0 - x1 in [0, 9] when x2 in [-3, 3].
    let mut o = Octagon::top(3);
    o.assign_interval(2, Interval::range(-3, 3));
    o.assign_interval(1, Interval::range(0, 100));
    o.assign_expr(0, &(NumExpr::var(1) + NumExpr::var(2) * NumExpr::var(2)));
    let d = o.bounds(&LinExpr::from_terms([(0, 1), (1, -1)], 0).unwrap());
    assert_eq!(d, Interval::range(-9, 9));
    assert!(o.is_closed());
}
