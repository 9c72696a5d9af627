//! The domains' integration tests, one binary.

mod common;
mod octagon_closure;
mod soundness;
mod widening;
