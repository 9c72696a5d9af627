//! The parsed form of a rule file, before names and types are checked.

use super::Pos;

/// A name and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    /// The identifier text.
    pub text: String,
    /// Its position.
    pub pos: Pos,
}

/// A top-level item of a rule file.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `.decl rel(a: T, ...)`
    Decl(Decl),
    /// `.type Name <: base` or `.type Name = base`
    Type(TypeDecl),
    /// `.input rel(...)`, `.output rel(...)`, `.printsize rel`
    Io(IoDecl),
    /// A fact or rule.
    Clause(Clause),
    /// `.include "path"`, resolved by the loader.
    Include(String, Pos),
}

/// A relation declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// The relation's name.
    pub name: Name,
    /// Attribute names and type names.
    pub attrs: Vec<(Name, Name)>,
}

/// A type alias or subtype of a base type.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDecl {
    /// The new type's name.
    pub name: Name,
    /// The type it stands for.
    pub base: Name,
}

/// Which I/O directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoKind {
    /// `.input`
    Input,
    /// `.output`
    Output,
    /// `.printsize`
    PrintSize,
}

/// An I/O directive on one relation with its `key = "value"` parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct IoDecl {
    /// Which directive.
    pub kind: IoKind,
    /// The relation.
    pub rel: Name,
    /// Parameters such as `filename` and `delimiter`.
    pub params: Vec<(Name, String)>,
}

/// An argument of an atom or a side of a constraint.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    /// A variable.
    Var(Name),
    /// `_`
    Wild(Pos),
    /// An integer literal.
    Num(i64, Pos),
    /// A string literal.
    Str(String, Pos),
}

impl Term {
    /// Where the term was written.
    pub fn pos(&self) -> Pos {
        match self {
            Term::Var(n) => n.pos,
            Term::Wild(p) | Term::Num(_, p) | Term::Str(_, p) => *p,
        }
    }
}

/// `rel(t1, ..., tn)`
#[derive(Clone, Debug, PartialEq)]
pub struct Atom {
    /// The relation.
    pub rel: Name,
    /// The arguments.
    pub args: Vec<Term>,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// A body literal.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// A positive atom.
    Pos(Atom),
    /// `!atom`, with the position of the `!`.
    Neg(Atom, Pos),
    /// `t1 op t2`
    Cmp(Term, CmpOp, Term, Pos),
}

/// A fact (empty body) or rule; disjunctions in the body are expanded, so `bodies` has one
/// conjunction per alternative.
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    /// One or more head atoms.
    pub heads: Vec<Atom>,
    /// Alternatives; a fact has a single empty body.
    pub bodies: Vec<Vec<Literal>>,
    /// True for a fact (no `:-`).
    pub is_fact: bool,
    /// Where the clause starts.
    pub pos: Pos,
}
