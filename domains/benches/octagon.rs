//! Octagon and interval timings on random non-empty integer octagons built
//! from 3n constraints (as APRON's octagons were measured), for
//! n = 8, 16, 32, 64, 128.
//!
//! A hand-rolled harness: every measurement times a batch of operations on
//! copies prepared beforehand (so copying is not counted), the rounds of all
//! operations and sizes are interleaved to spread the machine's speed drift,
//! and the median over rounds is printed in microseconds.
//!
//! Run with `cargo bench -p duet-domains --bench octagon`; pass `--quick`
//! for fewer rounds.

use domains::{Interval, Intervals, LinCons, LinExpr, NumDomain, Octagon};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// xorshift64*: a small deterministic generator, so runs are comparable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, k: u64) -> u64 {
        self.next() % k
    }

    fn range(&mut self, lo: i128, hi: i128) -> i128 {
        lo + self.below((hi - lo + 1) as u64) as i128
    }
}

/// A random octagonal constraint `±xᵢ ± xⱼ ≤ c` (or `±xᵢ ≤ c`) satisfied by
/// `p`, with slack in `0..=slack`.
fn random_cons(rng: &mut Rng, p: &[i128], slack: i128) -> LinCons {
    let n = p.len();
    let i = rng.below(n as u64) as usize;
    let j = rng.below(n as u64) as usize;
    let si: i128 = if rng.below(2) == 0 { 1 } else { -1 };
    let sj: i128 = if rng.below(2) == 0 { 1 } else { -1 };
    let terms = if i == j || rng.below(8) == 0 { vec![(i, si)] } else { vec![(i, si), (j, sj)] };
    let value: i128 = terms.iter().map(|&(d, a)| a * p[d]).sum();
    let c = value + rng.range(0, slack);
    // Σ terms ≤ c  ⇔  −Σ terms + c ≥ 0.
    LinCons::ge0(LinExpr::from_terms(terms.into_iter().map(|(d, a)| (d, -a)), c).unwrap())
}

/// A random non-empty octagon from 3n constraints, left unclosed.
fn random_octagon(rng: &mut Rng, n: usize) -> (Octagon, Vec<i128>) {
    let p: Vec<i128> = (0..n).map(|_| rng.range(-50, 50)).collect();
    let cons: Vec<LinCons> = (0..3 * n).map(|_| random_cons(rng, &p, 20)).collect();
    let o = Octagon::from_constraints(n, &cons);
    assert!(!o.is_closed());
    (o, p)
}

/// One benchmarked operation on one size: a prepared input and the work.
struct Case {
    name: &'static str,
    n: usize,
    /// Runs the operation on `k` fresh copies and returns the time taken.
    run: Box<dyn Fn(usize) -> Duration>,
    /// Copies per batch: as many as fit in about 256 KiB, so the copies
    /// are still in cache when they are used, as in an analyser.
    k: usize,
    /// Batches per round, calibrated to about a millisecond.
    batches: usize,
    samples: Vec<f64>,
}

/// Times `op` on `k` copies of `input` made just before.
fn timed<T: Clone, R>(input: &T, k: usize, op: impl Fn(&mut T) -> R) -> Duration {
    let mut copies: Vec<T> = (0..k).map(|_| input.clone()).collect();
    let start = Instant::now();
    for c in copies.iter_mut() {
        black_box(op(black_box(c)));
    }
    let t = start.elapsed();
    drop(black_box(copies));
    t
}

fn case<T: Clone + 'static, R: 'static>(name: &'static str, n: usize, bytes: usize, input: T, op: fn(&mut T) -> R) -> Case {
    let k = (256 * 1024 / bytes.max(1)).clamp(1, 256);
    Case { name, n, run: Box::new(move |k| timed(&input, k, op)), k, batches: 1, samples: Vec::new() }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

fn main() {
    // `cargo bench` passes `--bench`; without it (`cargo test --benches`)
    // only a smoke run is done.
    let args: Vec<String> = std::env::args().collect();
    let smoke = !args.iter().any(|a| a == "--bench");
    let quick = args.iter().any(|a| a == "--quick");
    let rounds = if smoke {
        1
    } else if quick {
        5
    } else {
        25
    };
    let sizes = [8usize, 16, 32, 64, 128];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut cases: Vec<Case> = Vec::new();
    for &n in &sizes {
        let (open, p) = random_octagon(&mut rng, n);
        let mut closed = open.clone();
        closed.normalize();
        assert!(!closed.is_bottom());
        let (mut other, _) = random_octagon(&mut rng, n);
        other.normalize();
        // A constraint satisfied by the generating point with little slack,
        // so it usually tightens the closed octagon.
        let extra = random_cons(&mut rng, &p, 2);
        let x0_x1_3 = LinExpr::var(1).with_constant(3);
        let general = LinExpr::from_terms([(1, 1), (2, 2), (3 % n, -1)], 3).unwrap();
        let itv: Vec<Interval> = p.iter().map(|&v| Interval::range(v - 10, v + 10)).collect();
        let boxes = Intervals::from_intervals(itv.clone());
        let boxes2 = Intervals::from_intervals(itv.iter().map(|i| i.add(&Interval::point(5))).collect());

        let mb = 2 * n * (n + 1) * 8;
        let ib = n * 64;
        cases.push(case("closure", n, mb, open.clone(), |o: &mut Octagon| o.normalize()));
        cases.push(case("incremental", n, mb, (closed.clone(), extra.clone()), |(o, c): &mut (Octagon, LinCons)| o.guard(c)));
        cases.push(case("assign x0:=x1+3", n, mb, (closed.clone(), x0_x1_3.clone()), |(o, e): &mut (Octagon, LinExpr)| o.assign_linear(0, e)));
        cases.push(case("join", n, mb, (closed.clone(), other.clone()), |(o, b): &mut (Octagon, Octagon)| o.join_with(b)));
        cases.push(case("assign general", n, mb, (closed.clone(), general.clone()), |(o, e): &mut (Octagon, LinExpr)| o.assign_linear(0, e)));
        cases.push(case("clone", n, mb, closed.clone(), |o: &mut Octagon| o.clone()));
        cases.push(case("clone_from", n, 2 * mb, (closed.clone(), other.clone()), |(o, t): &mut (Octagon, Octagon)| t.clone_from(o)));
        cases.push(case("itv join", n, ib, (boxes.clone(), boxes2.clone()), |(a, b): &mut (Intervals, Intervals)| a.join_with(b)));
        cases.push(case("itv assign", n, ib, (boxes.clone(), x0_x1_3.clone()), |(a, e): &mut (Intervals, LinExpr)| a.assign_linear(0, e)));
        cases.push(case("itv guard", n, ib, (boxes.clone(), extra.clone()), |(a, c): &mut (Intervals, LinCons)| a.guard(c)));
    }

    // Calibrate the batches of each case to about a millisecond per round,
    // then interleave the rounds of all cases.
    for c in cases.iter_mut() {
        let t = (0..3).map(|_| (c.run)(c.k)).min().unwrap_or_default();
        if smoke {
            continue;
        }
        c.batches = (Duration::from_micros(1000).as_secs_f64() / t.as_secs_f64().max(1e-9)).clamp(1.0, 10_000.0) as usize;
    }
    for _ in 0..rounds {
        for c in cases.iter_mut() {
            for _ in 0..c.batches {
                let t = (c.run)(c.k);
                c.samples.push(t.as_secs_f64() * 1e6 / c.k as f64);
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    println!("AVX2 kernels: {}", std::arch::is_x86_feature_detected!("avx2"));
    println!("median µs per operation, batches of copies that fit in 256 KiB, {rounds} interleaved rounds");
    let names: Vec<&str> = {
        let mut v: Vec<&str> = Vec::new();
        for c in &cases {
            if !v.contains(&c.name) {
                v.push(c.name);
            }
        }
        v
    };
    print!("{:>5}", "n");
    for name in &names {
        print!(" | {name:>16}");
    }
    println!();
    for &n in &sizes {
        print!("{n:>5}");
        for name in &names {
            let c = cases.iter_mut().find(|c| c.n == n && c.name == *name).unwrap();
            let m = median(&mut c.samples);
            print!(" | {m:>16.3}");
        }
        println!();
    }
}
