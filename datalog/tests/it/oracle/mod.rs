//! Shared by the tests and the benchmark: crepe versions of the shipped rule files, and random
//! fact generators. The crepe programs transcribe the `.dl` files rule for rule.

#![allow(dead_code)]

pub(crate) mod crepe_programs;
pub(crate) mod gen;
