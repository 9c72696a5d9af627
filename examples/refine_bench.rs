//! Measures the finite-state engine's refinement loop against its exact exploration on one C
//! file: rounds, exact thread states, explicit states and Cartesian triples of the loop's last
//! fixpoint, states of the exact exploration, and seconds of each. `benchmarks/finite/refine.sh`
//! runs it on the filter lock and the protocols of `tests/programs/finite`.
//!
//!     cargo run --release --example refine_bench -- FILE [SECONDS] [refine|exact|products|both]
//!
//! `REFINE_STORES` bounds the loop's stores of each kind (default 4,000, as in `finite::prove`).
//! `EXACT_STATES` bounds the exact exploration's states (default 16,000,000, as in `finite::prove`).
//! `EXACT_STORES` bounds the global and local stores of the product exploration (default 200,000).
//! `products` runs the exact exploration stored as products per global store
//! (`finite::products`) instead. One engine per process lets `/usr/bin/time` report each
//! one's memory.

use duet_rs::finite::explicit::Explicit;
use duet_rs::finite::model::Model;
use duet_rs::finite::products::Products;
use duet_rs::finite::refine::{refine, Budget, Verdict};
use duet_rs::frontend::{self, FrontendOptions};
use duet_rs::ir::AssertId;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = args.get(1).expect("usage: refine_bench FILE [SECONDS] [refine|exact|both]");
    let secs: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60.0);
    let which = args.get(3).map(String::as_str).unwrap_or("both");
    let prog = frontend::load(std::path::Path::new(file), &FrontendOptions::default()).unwrap_or_else(|d| panic!("{d}"));
    let m = Model::build(&prog, None).unwrap_or_else(|e| panic!("{e}"));
    let open: Vec<AssertId> = (0..prog.assertions.len() as u32).map(AssertId).collect();
    if which != "exact" {
        let t0 = Instant::now();
        let r = refine(
            &m,
            &open,
            Budget {
                rounds: 200,
                max_states: 4_000_000,
                max_stores: std::env::var("REFINE_STORES").ok().and_then(|v| v.parse().ok()).unwrap_or(4_000),
                deadline: Some(t0 + Duration::from_secs_f64(secs)),
            },
        );
        let verdicts: Vec<String> = r
            .verdicts
            .iter()
            .map(|(_, v)| match v {
                Verdict::Proved => "proved".to_string(),
                Verdict::Reached(s) => format!("reached ({s})"),
                Verdict::Open(s) => format!("open ({s})"),
            })
            .collect();
        println!(
            "refine: {} rounds, {} exact thread states, {} explicit states, {} Cartesian triples, {:.2} s: {}",
            r.rounds,
            r.exact,
            r.explicit_states,
            r.cartesian_size,
            t0.elapsed().as_secs_f64(),
            verdicts.join("; ")
        );
    }
    if which == "products" {
        let t0 = Instant::now();
        let stores = std::env::var("EXACT_STORES").ok().and_then(|v| v.parse().ok()).unwrap_or(200_000);
        let res = match Products::run(&m, stores, std::env::var("EXACT_STATES").ok().and_then(|v| v.parse().ok()).unwrap_or(16_000_000), Some(t0 + Duration::from_secs_f64(secs))) {
            Ok(x) => {
                let failing = open.iter().filter(|&&a| !x.failures(a).is_empty()).count();
                format!("{} products standing, {} explored, {} global stores, {} of {} assertions failing", x.products(), x.explored, x.space.globals.items.len(), failing, open.len())
            }
            Err(e) => format!("declined ({e})"),
        };
        println!("products: {res}, {:.2} s", t0.elapsed().as_secs_f64());
        return;
    }
    if which != "refine" {
        let t0 = Instant::now();
        let res = match Explicit::run(&m, 200_000, std::env::var("EXACT_STATES").ok().and_then(|v| v.parse().ok()).unwrap_or(16_000_000), Some(t0 + Duration::from_secs_f64(secs))) {
            Ok(x) => {
                let failing = open.iter().filter(|&&a| !x.failures(a).is_empty()).count();
                format!("{} states, {} global stores, {} of {} assertions failing", x.states.len(), x.space.globals.items.len(), failing, open.len())
            }
            Err(e) => format!("declined ({e})"),
        };
        println!("exact: {res}, {:.2} s", t0.elapsed().as_secs_f64());
    }
}
