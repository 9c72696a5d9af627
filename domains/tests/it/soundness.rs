//! Soundness and lattice laws of every domain, checked against concrete
//! points: the tests sample the integer points of a small box that satisfy
//! random constraints, apply the concrete operation, and check that every
//! result lies in the abstract result.

use crate::common;

use common::*;
use domains::{CmpOp, Interval, Intervals, LinCons, LinExpr, NumDomain, NumExpr, Octagon, Thresholds};
use proptest::prelude::*;

const CASES: u32 = 128;

fn intervals_top(n: usize, _seed: u64) -> Intervals {
    Intervals::top(n)
}

fn octagon_top(n: usize, _seed: u64) -> Octagon {
    Octagon::top(n)
}

fn check_guards<D: NumDomain>(top: D, cons: &[LinCons]) {
    let (d, pts) = build(top, cons);
    assert_contains_all(&d, &pts, "guard");
    if !pts.is_empty() {
        assert!(!d.is_bottom(), "non-empty set abstracted as bottom: {d:?}");
    }
}

fn check_assign<D: NumDomain>(top: D, cons: &[LinCons], x: usize, e: &NumExpr) {
    let (mut d, pts) = build(top, cons);
    d.assign_expr(x, e);
    for p in &pts {
        for v in eval_all(e, p) {
            let mut q = p.clone();
            q[x] = v;
            assert!(d.contains(&q), "assign x{x} := {e:?}: {q:?} not in {d:?}");
        }
    }
}

fn check_assign_linear<D: NumDomain>(top: D, cons: &[LinCons], x: usize, e: &LinExpr) {
    let (mut d, pts) = build(top, cons);
    d.assign_linear(x, e);
    for p in &pts {
        let mut q = p.clone();
        q[x] = e.eval(p).unwrap();
        assert!(d.contains(&q), "assign x{x} := {e}: {q:?} not in {d:?}");
    }
}

fn check_guard_expr<D: NumDomain>(top: D, cons: &[LinCons], l: &NumExpr, op: CmpOp, r: &NumExpr) {
    let (mut d, pts) = build(top, cons);
    d.guard_expr(l, op, r);
    for p in &pts {
        let (vl, vr) = (eval_all(l, p), eval_all(r, p));
        let possible = vl.iter().any(|&a| vr.iter().any(|&b| op.holds(a, b)));
        if possible {
            assert!(d.contains(p), "guard {l:?} {op:?} {r:?}: {p:?} not in {d:?}");
        }
    }
}

fn check_bounds<D: NumDomain>(top: D, cons: &[LinCons], e: &LinExpr) {
    let (d, pts) = build(top, cons);
    let b = d.bounds(e);
    for p in &pts {
        assert!(b.contains(e.eval(p).unwrap()), "bounds of {e}: {b} misses {p:?} in {d:?}");
        for (x, &v) in p.iter().enumerate() {
            assert!(d.bounds_of(x).contains(v));
        }
    }
    let ne = NumExpr::from_linexpr(e) * NumExpr::var(0);
    let be = d.eval_expr(&ne);
    for p in &pts {
        assert!(be.contains(ne.eval(p).unwrap()));
    }
}

fn check_lattice<D: NumDomain>(top: D, c1: &[LinCons], c2: &[LinCons], th: &Thresholds) {
    let n = top.dims();
    let (a, pa) = build(top.clone(), c1);
    let (b, pb) = build(top.clone(), c2);
    let j = a.join(&b);
    let m = a.meet(&b);
    assert!(a.leq(&a) && b.leq(&b));
    assert!(a.leq(&j) && b.leq(&j), "join is not an upper bound");
    assert!(m.leq(&a) && m.leq(&b), "meet is not a lower bound");
    assert_eq!(j, b.join(&a), "join is not commutative");
    assert_eq!(a.join(&a), a, "join is not idempotent");
    assert_eq!(a.meet(&a), a, "meet is not idempotent");
    assert_contains_all(&j, &pa, "join");
    assert_contains_all(&j, &pb, "join");
    let both: Vec<Vec<i128>> = pa.iter().filter(|p| pb.contains(p)).cloned().collect();
    assert_contains_all(&m, &both, "meet");
    let bot = top.bottom_like();
    let top_ = top.top_like();
    assert_eq!(bot.dims(), n);
    assert!(bot.leq(&a) && a.leq(&top_) && bot.is_bottom() && top_.is_top());
    assert!(!a.leq(&bot) || a.is_bottom());
    assert_eq!(a.join(&bot), a);
    assert_eq!(bot.join(&a), a);
    assert!(a.meet(&bot).is_bottom());
    for w in [a.widen(&b, None), a.widen(&j, Some(th)), a.widen(&b, Some(th))] {
        assert!(a.leq(&w), "widening is below its left argument");
        assert_contains_all(&w, &pa, "widen");
    }
    let w = a.widen(&j, None);
    assert!(j.leq(&w), "widening is below its right argument");
    assert_contains_all(&w, &pb, "widen");
    // Narrowing a by m ⊑ a stays between them.
    let nw = a.narrow(&m);
    assert!(m.leq(&nw) && nw.leq(&a), "narrowing out of [m, a]");
    if a.leq(&b) {
        assert_contains_all(&b, &pa, "leq");
    }
}

fn check_dims<D: NumDomain>(top: D, cons: &[LinCons], x: usize, perm_seed: u64) {
    let n = top.dims();
    let (d, pts) = build(top, cons);
    let mut f = d.clone();
    f.forget(x);
    for p in &pts {
        for v in [-R - 2, 0, R + 2] {
            let mut q = p.clone();
            q[x] = v;
            assert!(f.contains(&q), "forget: {q:?} not in {f:?}");
        }
    }
    // A permutation from the seed (Fisher–Yates with a tiny LCG).
    let mut perm: Vec<usize> = (0..n).collect();
    let mut s = perm_seed | 1;
    for i in (1..n).rev() {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        perm.swap(i, (s >> 33) as usize % (i + 1));
    }
    let mut pd = d.clone();
    pd.permute(&perm);
    for p in &pts {
        let mut q = vec![0; n];
        for i in 0..n {
            q[perm[i]] = p[i];
        }
        assert!(pd.contains(&q), "permute {perm:?}: {q:?} not in {pd:?}");
    }
    let mut inv = vec![0; n];
    for i in 0..n {
        inv[perm[i]] = i;
    }
    let mut back = pd.clone();
    back.permute(&inv);
    assert_eq!(back, d, "permuting back does not restore the element");
    // Project onto a prefix of the permutation, in that order.
    let keep = &perm[..n - 1];
    let pr = d.project(keep);
    assert_eq!(pr.dims(), keep.len());
    for p in &pts {
        let q: Vec<i128> = keep.iter().map(|&k| p[k]).collect();
        assert!(pr.contains(&q), "project {keep:?}: {q:?} not in {pr:?}");
    }
    let mut rd = d.clone();
    rd.remove_dims(&[x]);
    for p in &pts {
        let q: Vec<i128> = (0..n).filter(|&i| i != x).map(|i| p[i]).collect();
        assert!(rd.contains(&q), "remove x{x}: {q:?} not in {rd:?}");
    }
    let mut ad = d.clone();
    ad.add_dims(2);
    assert_eq!(ad.dims(), n + 2);
    for p in &pts {
        let mut q = p.clone();
        q.extend([7, -100]);
        assert!(ad.contains(&q), "add_dims: {q:?} not in {ad:?}");
    }
    ad.remove_dims(&[n, n + 1]);
    assert_eq!(ad, d, "adding then removing dimensions changed the element");
}

fn check_to_constraints<D: NumDomain>(top: D, cons: &[LinCons]) {
    let n = top.dims();
    let (d, _) = build(top, cons);
    let cs = d.to_constraints();
    for p in box_points(n, R + 1) {
        let holds = cs.iter().all(|c| c.holds(&p) == Some(true));
        assert_eq!(holds, d.contains(&p), "to_constraints differs from the element at {p:?}: {cs:?} vs {d:?}");
    }
    let _ = d.pretty(&|i| format!("v{i}"));
}

/// Constants at the edges of the representations.
fn arb_huge() -> impl Strategy<Value = i128> {
    prop_oneof![
        Just(i128::MAX),
        Just(i128::MIN),
        Just(i128::MAX - 1),
        Just(1i128 << 62),
        Just(-(1i128 << 62)),
        Just(1i128 << 61),
        Just((1i128 << 60) - 1),
        Just(i64::MAX as i128),
        Just(u64::MAX as i128),
        -3i128..=3,
    ]
}

fn check_huge<D: NumDomain>(top: D, a: i128, b: i128, c: i128) {
    let n = top.dims();
    let t = top.top_like();
    let cons = vec![LinCons::ge0(LinExpr::from_terms([(0, 1)], a).unwrap()), LinCons::ge0(LinExpr::from_terms([(0, b), (n - 1, -1)], c).unwrap_or_default())];
    let (mut d, pts) = build(top, &cons);
    assert_contains_all(&d, &pts, "huge guard");
    let e = LinExpr::from_terms([(n - 1, b)], a).unwrap();
    d.assign_linear(0, &e);
    for p in &pts {
        if let Some(v) = e.eval(p) {
            let mut q = p.clone();
            q[0] = v;
            assert!(d.contains(&q), "huge assign: {q:?} not in {d:?}");
        }
    }
    let _ = d.bounds(&LinExpr::from_terms([(0, a)], b).unwrap());
    let mut w = d.clone();
    w.widen_with(&t, Some(&Thresholds::new([a, b, c])));
    assert!(d.leq(&w));
}

fn setup(max_cons: usize) -> impl Strategy<Value = (usize, u64, Vec<LinCons>)> {
    (1usize..=4).prop_flat_map(move |n| (Just(n), any::<u64>(), prop::collection::vec(arb_cons(n), 0..=max_cons)))
}

macro_rules! domain_tests {
    ($name:ident, $make:path) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(CASES))]

                #[test]
                fn guards_are_sound((n, seed, cons) in setup(4)) {
                    check_guards($make(n, seed), &cons);
                }

                #[test]
                fn assign_expr_is_sound(((n, seed, cons), x, e) in setup(3).prop_flat_map(|(n, s, c)| {
                    (Just((n, s, c)), 0..n, arb_expr(n))
                })) {
                    check_assign($make(n, seed), &cons, x, &e);
                }

                #[test]
                fn assign_linear_is_sound(((n, seed, cons), x, e) in setup(3).prop_flat_map(|(n, s, c)| {
                    (Just((n, s, c)), 0..n, arb_cons(n))
                })) {
                    check_assign_linear($make(n, seed), &cons, x, &e.expr);
                }

                #[test]
                fn guard_expr_is_sound(((n, seed, cons), l, op, r) in setup(2).prop_flat_map(|(n, s, c)| {
                    (Just((n, s, c)), arb_expr(n), arb_cmp(), arb_expr(n))
                })) {
                    check_guard_expr($make(n, seed), &cons, &l, op, &r);
                }

                #[test]
                fn bounds_are_sound(((n, seed, cons), e) in setup(3).prop_flat_map(|(n, s, c)| {
                    (Just((n, s, c)), arb_cons(n))
                })) {
                    check_bounds($make(n, seed), &cons, &e.expr);
                }

                #[test]
                fn lattice_laws((n, seed, c1, c2, th) in (1usize..=3).prop_flat_map(|n| (
                    Just(n),
                    any::<u64>(),
                    prop::collection::vec(arb_cons(n), 0..=3),
                    prop::collection::vec(arb_cons(n), 0..=3),
                    prop::collection::vec(-8i128..=8, 0..=3),
                ))) {
                    check_lattice($make(n, seed), &c1, &c2, &Thresholds::new(th));
                }

                #[test]
                fn dimension_operations_are_sound(((n, seed, cons), x, ps) in setup(3).prop_flat_map(|(n, s, c)| {
                    (Just((n, s, c)), 0..n, any::<u64>())
                })) {
                    check_dims($make(n, seed), &cons, x, ps);
                }

                #[test]
                fn to_constraints_is_exact((n, seed, cons) in setup(4)) {
                    check_to_constraints($make(n, seed), &cons);
                }

                #[test]
                fn huge_constants_stay_sound((n, seed, a, b, c) in (1usize..=3, any::<u64>(), arb_huge(), arb_huge(), arb_huge())) {
                    check_huge($make(n, seed), a, b, c);
                }
            }
        }
    };
}

domain_tests!(intervals, intervals_top);
domain_tests!(octagon, octagon_top);

#[test]
fn division_by_zero_is_not_bottom() {
    // x := 1 / y with y = 0 is undefined behaviour; the element must not
    // become bottom (which would hide the state), it becomes ⊤ for x.
    let mut d = Octagon::top(2);
    d.assign_interval(1, Interval::point(0));
    d.assign_expr(0, &(NumExpr::cst(1) / NumExpr::var(1)));
    assert!(!d.is_bottom());
    assert!(d.bounds_of(0).is_top());
    // A divisor in [0, 2] covers the quotients by 1 and 2.
    let mut d = Intervals::top(2);
    d.assign_interval(1, Interval::range(0, 2));
    d.assign_expr(0, &(NumExpr::cst(6) / NumExpr::var(1)));
    assert_eq!(d.bounds_of(0), Interval::range(3, 6));
}

fn check_contradictions<D: NumDomain>(top: D) {
    let n = top.dims();
    let mut d = top.clone();
    d.guard(&LinCons::unsat());
    assert!(d.is_bottom(), "-1 >= 0 is not bottom: {d:?}");
    let mut d = top.clone();
    d.guard(&LinCons::ge0(LinExpr::var(n - 1).with_constant(-1)));
    d.guard(&LinCons::ge0(LinExpr::term(n - 1, -1)));
    assert!(d.is_bottom(), "x >= 1 && x <= 0 is not bottom: {d:?}");
    let mut d = top.clone();
    d.guard(&LinCons::eq0(LinExpr::var(0).with_constant(-2)));
    d.guard(&LinCons::ne0(LinExpr::var(0).with_constant(-2)));
    assert!(d.is_bottom(), "x == 2 && x != 2 is not bottom: {d:?}");
    let mut d = top.clone();
    d.guard_expr(&NumExpr::var(0), CmpOp::Lt, &NumExpr::var(0));
    assert!(d.is_bottom(), "x < x is not bottom: {d:?}");
    let mut d = top;
    d.assign_interval(0, Interval::range(0, 9));
    assert_eq!(d.bounds_of(0), Interval::range(0, 9));
    assert!(!d.is_bottom() && !d.is_top());
}

#[test]
fn contradictions_are_bottom() {
    for n in 1..=3 {
        check_contradictions(Intervals::top(n));
        check_contradictions(Octagon::top(n));
    }
    // x0 < x1 && x1 < x0 needs a relational domain.
    let mut o = Octagon::top(2);
    o.guard_expr(&NumExpr::var(0), CmpOp::Lt, &NumExpr::var(1));
    o.guard_expr(&NumExpr::var(1), CmpOp::Lt, &NumExpr::var(0));
    assert!(o.is_bottom());
    let mut i = Intervals::top(2);
    i.guard_expr(&NumExpr::var(0), CmpOp::Lt, &NumExpr::var(1));
    i.guard_expr(&NumExpr::var(1), CmpOp::Lt, &NumExpr::var(0));
    assert!(!i.is_bottom());
}
