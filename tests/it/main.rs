//! The integration tests, one binary: each module was once a test binary of its own (one link of Z3,
//! timely and lang-c instead of thirty). Tests that need a minute or more run only when
//! `DUET_SLOW_TESTS=1` asks for them (`slow()`), in CI's separate step.

mod bad_input;
mod batch;
mod bounded;
mod bounded_benchmarks;
mod bp;
mod cli_edges;
mod cli_misc;
mod coarsen;
mod coarsen_symmetry;
mod common;
mod datalog_cli;
mod docs_and_tables;
mod drivers;
mod entry_points;
mod expect;
mod explain;
mod explore;
mod facts_dump;
mod finite;
mod frontend_benchmarks;
mod fuzz_regressions;
mod guarded_packs;
mod html_report;
mod internal_names;
mod ir_snapshots;
mod layering;
mod library_models;
mod output_safety;
mod portfolio;
mod precision;
mod predict;
mod races;
mod real_calls;
mod reasons;
mod recursion;
mod report_formats;
mod rules_cli;
mod soundness_regressions;
mod svcomp;
mod trace_minimise;
mod transactions;
mod unbounded_locks;
mod verdict_words;
mod witness_yaml;
