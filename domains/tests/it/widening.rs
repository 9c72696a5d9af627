//! Widening terminates on increasing chains, with and without thresholds,
//! and a loop analysed with widening then narrowing gets the expected
//! invariant.

use crate::common;

use common::*;
use domains::{CmpOp, Interval, Intervals, LinCons, LinExpr, NumDomain, NumExpr, Octagon, Thresholds};
use proptest::prelude::*;

/// Widens along `chain` and returns the number of steps that changed the
/// accumulator, checking that every element ends below it.
fn widen_chain<D: NumDomain>(chain: &[D], th: Option<&Thresholds>) -> usize {
    let mut acc = chain[0].clone();
    let mut changes = 0;
    for y in &chain[1..] {
        if y.leq(&acc) {
            continue;
        }
        let before = acc.clone();
        acc.widen_with(y, th);
        assert!(y.leq(&acc) && before.leq(&acc));
        if acc != before {
            changes += 1;
        }
    }
    for y in chain {
        assert!(y.leq(&acc));
    }
    changes
}

#[test]
fn interval_chain_stabilises() {
    let chain: Vec<Intervals> = (0..1000).map(|k| Intervals::from_intervals(vec![Interval::range(0, k), Interval::range(-k, 5)])).collect();
    assert!(widen_chain(&chain, None) <= 2);
    let th = Thresholds::new([10, 100]);
    // Each bound climbs through at most the thresholds, then +∞.
    assert!(widen_chain(&chain, Some(&th)) <= 6);
}

#[test]
fn octagon_chain_stabilises() {
    let chain: Vec<Octagon> = (0..500)
        .map(|k| {
            let mut o = Octagon::top(3);
            o.guard(&LinCons::ge0(LinExpr::from_terms([(0, -1), (1, 1)], k).unwrap())); // x0 - x1 <= k
            o.guard(&LinCons::ge0(LinExpr::from_terms([(2, -1)], 2 * k).unwrap())); // x2 <= 2k
            o.guard(&LinCons::ge0(LinExpr::from_terms([(2, 1)], 0).unwrap())); // x2 >= 0
            o
        })
        .collect();
    let entries = 2 * 3 * 4;
    assert!(widen_chain(&chain, None) <= entries);
    let th = Thresholds::new([10, 100, 1000]);
    assert!(widen_chain(&chain, Some(&th)) <= entries * 4);
}

/// The standard abstract loop iteration: `head = init ∇ (init ⊔ body(head))`
/// until stable, then one narrowing step.
fn analyse_loop<D: NumDomain>(init: &D, body: impl Fn(&D) -> D, th: Option<&Thresholds>) -> (D, usize) {
    let mut head = init.clone();
    let mut iters = 0;
    loop {
        iters += 1;
        assert!(iters < 50, "widening did not terminate");
        let next = init.join(&body(&head));
        if next.leq(&head) {
            break;
        }
        head.widen_with(&next, th);
    }
    let next = init.join(&body(&head));
    head.narrow_with(&next);
    (head, iters)
}

/// `while (x < 100) { x++; y++; }` from `x = y = 0`.
fn counter_body<D: NumDomain>(d: &D) -> D {
    let mut b = d.clone();
    b.guard_expr(&NumExpr::var(0), CmpOp::Lt, &NumExpr::cst(100));
    b.assign_expr(0, &(NumExpr::var(0) + NumExpr::cst(1)));
    b.assign_expr(1, &(NumExpr::var(1) + NumExpr::cst(1)));
    b
}

fn counter_init<D: NumDomain>(top: D) -> D {
    let mut d = top;
    d.assign_interval(0, Interval::point(0));
    d.assign_interval(1, Interval::point(0));
    d
}

#[test]
fn octagon_loop_keeps_the_relation() {
    let (head, iters) = analyse_loop(&counter_init(Octagon::top(2)), counter_body, None);
    assert!(iters <= 4);
    let diff = head.bounds(&LinExpr::from_terms([(0, 1), (1, -1)], 0).unwrap());
    assert_eq!(diff, Interval::point(0));
    assert_eq!(head.bounds_of(0), Interval::range(0, 100), "narrowing should recover x <= 100");
    assert_eq!(head.bounds_of(1), Interval::range(0, 100));
}

#[test]
fn interval_loop_with_thresholds() {
    let (head, _) = analyse_loop(&counter_init(Intervals::top(2)), counter_body, Some(&Thresholds::new([100])));
    assert_eq!(head.bounds_of(0), Interval::range(0, 100));
    // Without the relation to x, y passes the threshold and is unbounded.
    assert_eq!(head.bounds_of(1), Interval::at_least(0));
    let (head, _) = analyse_loop(&counter_init(Intervals::top(2)), counter_body, None);
    assert_eq!(head.bounds_of(0), Interval::range(0, 100));
    assert_eq!(head.bounds_of(1), Interval::at_least(0));
}

fn random_chain_octagons(n: usize, steps: Vec<Vec<LinCons>>) -> Vec<Octagon> {
    let mut chain = Vec::new();
    let mut cur = Octagon::bottom(n);
    for cons in steps {
        let (o, _) = build(Octagon::top(n), &cons);
        cur = cur.join(&o);
        chain.push(cur.clone());
    }
    chain
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Joining random octagons gives an increasing chain; the widened
    /// accumulator can change at most once per entry and threshold.
    #[test]
    fn random_octagon_chains_stabilise((n, steps, th) in (1usize..=3).prop_flat_map(|n| (
        Just(n),
        prop::collection::vec(prop::collection::vec(arb_cons(n), 0..=3), 2..=40),
        prop::collection::vec(-6i128..=6, 0..=3),
    ))) {
        let chain = random_chain_octagons(n, steps);
        let th = Thresholds::new(th);
        let bound = 2 * n * (n + 1) * (th.values().len() + 1);
        prop_assert!(widen_chain(&chain, None) <= 2 * n * (n + 1));
        prop_assert!(widen_chain(&chain, Some(&th)) <= bound);
    }
}
