//! Surface syntax: lexing, parsing and `.include` resolution.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod resolve;

/// A position in a loaded file: an index into the loader's file table, line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// Index into the list of loaded files.
    pub file: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column in characters.
    pub col: u32,
}
