//! Reports of verdicts for people and tools.

pub mod text;
