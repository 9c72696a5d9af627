//! A Souffle-compatible Datalog subset, evaluated incrementally on differential-dataflow.
//!
//! Rules are read at run time from `.dl` text (`.decl`, `.input`, `.output`, `.printsize`, `.type`,
//! `.include`, facts, rules with conjunction, disjunction, stratified negation, constants, `_` and
//! the comparisons `= != < <= > >=`). [`Program::parse`] checks them and reports errors with
//! file, line and column; [`Engine`] evaluates them on timely worker threads and accepts further
//! insertions and removals epoch by epoch, reporting only what changed.
//!
//! ```
//! use datalog::{Engine, NoIncludes, Program};
//!
//! let rules = "
//!     .decl edge(a: number, b: number)
//!     .input edge
//!     .decl path(a: number, b: number)
//!     .output path
//!     path(a, b) :- edge(a, b).
//!     path(a, c) :- path(a, b), edge(b, c).
//! ";
//! let program = Program::parse(rules, "tc.dl", &mut NoIncludes).unwrap();
//! let mut engine = Engine::new(&program, 2).unwrap();
//! engine.insert("edge", [&[1, 2][..], &[2, 3]]).unwrap();
//! let changes = engine.advance().unwrap();
//! assert_eq!(changes.get("path").unwrap().added.to_vecs(), [[1, 2], [1, 3], [2, 3]]);
//! engine.remove("edge", [&[1, 2][..]]).unwrap();
//! let changes = engine.advance().unwrap();
//! assert_eq!(changes.get("path").unwrap().removed.to_vecs(), [[1, 2], [1, 3]]);
//! ```
//!
//! Values cross the API as `u32`: a `number` as its two's-complement bit pattern, an `unsigned`
//! as itself, a `symbol` as an id from [`Engine::intern`]. Results are sorted (numbers as signed,
//! symbols by id) and identical whatever the number of workers. [`run_dir`] runs a rule file on a
//! Souffle fact directory, for the standalone `duet-rs datalog` command.
//! [`schema`] declares typed relation tables (the interference analysis's among them) and checks
//! rule programs against them.
//!
//! Internally every collection holds rows of two fixed-width `u32` arrays (a join key and the
//! values carried along); the widths are chosen per program from a few compiled presets, so no
//! tuple is heap-allocated in the dataflow. See [`Program::explain`] for the compiled plan.

#![warn(missing_docs)]

pub mod diag;
pub mod explain;
pub mod facts;
pub mod program;
pub mod schema;
pub mod symbols;
pub mod syntax;
pub mod value;

mod check;
mod dataflow;
mod distinct;
mod engine;
mod plan;
mod split;
mod store;
mod worker;

pub use diag::{Diagnostic, Diagnostics};
pub use engine::{Changes, Engine, EngineConfig, EngineError, RelationChanges};
pub use facts::{run_dir, Error, Summary};
pub use program::{Column, IoParams, Program, RelationInfo};
pub use symbols::SymbolTable;
pub use syntax::resolve::{FsResolver, MapResolver, NoIncludes, Resolver, Source};
pub use value::{ArityError, ColumnType, TupleIter, Tuples, Value};
