//! A Souffle-compatible Datalog subset, evaluated incrementally on differential-dataflow.

pub mod diag;
pub mod facts;
pub mod program;
pub mod symbols;
pub mod syntax;
pub mod value;

mod check;
mod dataflow;
mod distinct;
mod engine;
mod plan;
mod store;
mod worker;

pub use diag::{Diagnostic, Diagnostics};
pub use engine::{Changes, Engine, EngineConfig, EngineError, RelationChanges};
pub use facts::{run_dir, Error, Summary};
pub use program::{Column, IoParams, Program, RelationInfo};
pub use symbols::SymbolTable;
pub use syntax::resolve::{FsResolver, MapResolver, NoIncludes, Resolver, Source};
pub use value::{ArityError, ColumnType, TupleIter, Tuples, Value};
