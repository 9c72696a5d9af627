//! The Datalog engine's integration tests, one binary (one link of timely instead of six).

mod engine_api;
mod errors;
mod oracle;
mod oracle_examples;
mod oracle_interference;
mod oracle_races;
mod run_dir;
mod syntax;
