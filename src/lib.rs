//! duet-rs: a verifier for concurrent C programs with any number of threads.
//!
//! Data flows one way: [`frontend`] (C to [`ir`]), the analyses, verdicts, reports.
//! See `ARCHITECTURE.md` for the map.

pub mod batch;
pub mod bounded;
pub mod cli;
pub mod coarsen;
pub mod diag;
pub mod dump;
pub mod engine;
pub mod explore;
pub mod finite;
pub mod frontend;
pub mod inputs;
pub mod interp;
pub mod ir;
pub mod predict;
pub mod races;
pub mod report;
pub mod strategy;
pub mod svcomp;
pub mod verdict;
pub mod witness;
