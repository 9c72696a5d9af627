//! A checked and planned Datalog program: what [`crate::Engine`] runs.

use std::path::Path;
use std::sync::Arc;

use hashbrown::HashMap;

use crate::check::check;
use crate::diag::{Diagnostic, Diagnostics};
use crate::plan::{plan, Plan};
use crate::symbols::SymbolTable;
use crate::syntax::ast::CmpOp;
use crate::syntax::resolve::{load, FsResolver, Resolver};
use crate::syntax::Pos;
use crate::value::ColumnType;

/// A named, typed column of a relation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// The attribute name from `.decl`.
    pub name: String,
    /// Its type.
    pub ty: ColumnType,
}

/// Parameters of an `.input` or `.output` directive.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IoParams {
    /// `filename="..."`: overrides `REL.facts` / `REL.csv`.
    pub filename: Option<String>,
    /// `delimiter="..."`: overrides the tab.
    pub delimiter: Option<String>,
}

/// A declared relation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelationInfo {
    /// Its name.
    pub name: String,
    /// Its columns, in order.
    pub columns: Vec<Column>,
    /// Set if the relation is declared `.input`.
    pub input: Option<IoParams>,
    /// Set if the relation is declared `.output`.
    pub output: Option<IoParams>,
    /// True if the relation is declared `.printsize`.
    pub printsize: bool,
    pub(crate) has_rules: bool,
}

impl RelationInfo {
    /// Number of columns.
    pub fn arity(&self) -> usize {
        self.columns.len()
    }
    /// True if declared `.input`.
    pub fn is_input(&self) -> bool {
        self.input.is_some()
    }
    /// True if declared `.output`.
    pub fn is_output(&self) -> bool {
        self.output.is_some()
    }
    /// True if some rule derives tuples of this relation.
    pub fn has_rules(&self) -> bool {
        self.has_rules
    }
}

/// An argument in the checked rule form; constants are in the engine's internal encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Arg {
    Var(u32),
    Const(u32),
    Wild,
}

/// A checked atom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AtomIr {
    pub rel: usize,
    pub args: Vec<Arg>,
}

/// A checked body literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lit {
    Pos(AtomIr),
    Neg(AtomIr),
    Cmp(Arg, CmpOp, Arg),
}

/// A checked rule with one head.
#[derive(Clone, Debug)]
pub(crate) struct Rule {
    pub head: AtomIr,
    pub body: Vec<Lit>,
    pub var_names: Vec<String>,
    pub pos: Pos,
}

/// A set of mutually recursive relations, evaluated together.
#[derive(Clone, Debug)]
pub(crate) struct Stratum {
    pub rels: Vec<usize>,
    pub recursive: bool,
}

/// A parsed, checked and planned program.
///
/// Build one with [`Program::parse`] (rule text plus an include resolver) or
/// [`Program::from_file`], then run it with [`crate::Engine`] or [`crate::run_dir`].
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) files: Vec<String>,
    pub(crate) relations: Vec<RelationInfo>,
    pub(crate) by_name: HashMap<String, usize>,
    pub(crate) facts: Vec<(usize, Vec<u32>)>,
    pub(crate) symbols: SymbolTable,
    pub(crate) strata: Vec<Stratum>,
    pub(crate) plan: Arc<Plan>,
    /// The checked rules, kept to plan the program again around relations fixed at run time.
    pub(crate) rules: Arc<Vec<Rule>>,
}

impl Program {
    /// Parses and checks rule text named `name` (used in diagnostics and to resolve relative
    /// includes); `.include` directives are resolved through `resolver`.
    pub fn parse(text: &str, name: &str, resolver: &mut dyn Resolver) -> Result<Program, Diagnostics> {
        let loaded = load(text, name, resolver)?;
        let checked = check(&loaded.files, &loaded.items)?;
        let plan = plan(&checked).map_err(|(rule, msg)| {
            let pos = checked.rules[rule].pos;
            let file = loaded.files.get(pos.file as usize).cloned().unwrap_or_default();
            Diagnostics::one(Diagnostic::new(file, pos.line, pos.col, msg))
        })?;
        Ok(Program {
            files: loaded.files,
            relations: checked.relations,
            by_name: checked.by_name,
            facts: checked.facts,
            symbols: checked.symbols,
            strata: checked.strata,
            plan: Arc::new(plan),
            rules: Arc::new(checked.rules),
        })
    }

    /// Reads and parses a rule file from disk, resolving includes relative to it.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Program, Diagnostics> {
        let path = path.as_ref();
        let name = path.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).map_err(|e| Diagnostics::one(Diagnostic::new(name.clone(), 0, 0, format!("cannot read rule file: {e}"))))?;
        Program::parse(&text, &name, &mut FsResolver)
    }

    /// All declared relations, in declaration order.
    pub fn relations(&self) -> &[RelationInfo] {
        &self.relations
    }

    /// The relation called `name`.
    pub fn relation(&self, name: &str) -> Option<&RelationInfo> {
        self.by_name.get(name).map(|&i| &self.relations[i])
    }

    /// The symbols interned while loading (string constants in rules and facts).
    pub fn symbols(&self) -> &SymbolTable {
        &self.symbols
    }

    /// The files that were loaded: the main text first, then includes in load order.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// The strata in evaluation order: each entry lists relation names and whether they recurse.
    pub fn strata(&self) -> Vec<(Vec<&str>, bool)> {
        self.strata.iter().map(|s| (s.rels.iter().map(|&r| self.relations[r].name.as_str()).collect(), s.recursive)).collect()
    }

    /// A readable description of the compiled dataflow: strata, rules, joins and shared arrangements.
    pub fn explain(&self) -> String {
        self.plan.explain(&self.relations)
    }
}
