//! Measures the finite-state engine's exact exploration (every interleaving of the inlined
//! program) against its transaction-based summaries on one C file: states, summary edges and
//! seconds of each. `benchmarks/recursion/transactions.sh` runs it on a family of programs.
//!
//!     cargo run --example tx_bench -- FILE [SECONDS] [exact|tx|tx-per-copy|both]
//!
//! One engine per process (`exact` or `tx`) lets `/usr/bin/time` report each one's memory.
//! `tx-per-copy` runs the transactions without sharing summaries between identical inlined
//! copies of a procedure (every call site summarised on its own), to measure the sharing.

use duet_rs::coarsen::locks::must_hold;
use duet_rs::finite::explicit::Explicit;
use duet_rs::finite::model::Model;
use duet_rs::finite::movers;
use duet_rs::finite::transactions::{Transactions, TxOptions};
use duet_rs::frontend::{self, FrontendOptions};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = args.get(1).expect("usage: tx_bench FILE [SECONDS] [exact|tx|both]");
    let secs: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60.0);
    let which = args.get(3).map(String::as_str).unwrap_or("both");
    let share = which != "tx-per-copy";
    let prog = frontend::load(std::path::Path::new(file), &FrontendOptions::default()).unwrap_or_else(|d| panic!("{d}"));
    let m = Model::build(&prog, None).unwrap_or_else(|e| panic!("{e}"));
    let t0 = Instant::now();
    let exact = match which {
        "tx" | "tx-per-copy" => "not run".to_string(),
        _ => match Explicit::run(&m, 2_000_000, 20_000_000, Some(t0 + Duration::from_secs_f64(secs))) {
            Ok(x) => format!("{} states", x.states.len()),
            Err(e) => format!("declined ({e})"),
        },
    };
    let exact_s = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let mv = movers::classify(&prog, &must_hold(&prog));
    let opts = TxOptions { max_states: 20_000_000, max_stores: 2_000_000, deadline: Some(t1 + Duration::from_secs_f64(secs)), share, ..TxOptions::default() };
    let tx = match which {
        "exact" => "not run".to_string(),
        _ => match Transactions::run(&m, &mv, &opts) {
            Ok(t) => {
                let (computed, reused) = t.shared_summaries();
                format!("{} states, {} summary edges, {} copy summaries computed, {} reused", t.states(), t.transactions(), computed, reused)
            }
            Err(e) => format!("declined ({e})"),
        },
    };
    let tx_s = t1.elapsed().as_secs_f64();
    println!("locations {} | exact: {exact_s:.2} s, {exact} | transactions: {tx_s:.2} s, {tx}", prog.locs.len());
}
