//! Typed schemas: the relations a rule program exchanges with the program that feeds it,
//! declared once, so that rule files, fact exports, oracles and generators can be checked
//! against one table instead of repeating names and arities.
//!
//! [`INTERFERENCE`] is the schema of duet-rs's interference analysis (`rules/interference.dl`).
//! It lives in this crate because this crate's oracle tests and benchmarks need it as much as
//! duet-rs does, and this is the one crate both see.
//!
//! It is the only declaration of the relations COARSEN and the rules exchange: name, columns
//! with their Soufflé types, and role (input; output COARSEN reads, `may_flow` and `may_stand`;
//! or published for people, `coreachable` and `may_reach`). Every place that names them is
//! checked against it: COARSEN's export (`coarsen::facts` in duet-rs) refuses a relation the
//! table does not have; `coarsen::rules::load` checks `--rules` files at
//! [`Conformance::Compatible`] (outputs required, inputs optional, columns as declared);
//! duet-rs's `tests/it/facts_dump.rs` checks the shipped `.dl` files at [`Conformance::Exact`]
//! and that a renamed, re-aritied or retyped declaration is named in the error; the crepe
//! transcriptions (`tests/it/oracle/crepe_programs.rs`) take their inputs by the table's names,
//! and `tests/it/oracle_interference.rs` checks them and the fact generator (`oracle/gen.rs`)
//! against it. So renaming a relation means editing the table, the `.dl` files, the
//! transcriptions' `feeding!` match and the generator's `Facts`, and each one left out fails a
//! test that names it.

use std::fmt::Write as _;

use crate::program::Program;
use crate::value::ColumnType;

/// Which way a relation crosses between the host program and the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The host feeds it (`.input`).
    Input,
    /// The rules derive it and the host reads it (`.output`; every rule file must have it).
    Output,
    /// The rules derive and publish it (`.output`) for people; the host does not read it.
    Published,
}

/// One column of a relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnSchema {
    /// A name that says what the column holds (rule files may name it differently).
    pub name: &'static str,
    /// The Soufflé type.
    pub ty: ColumnType,
}

/// One relation of a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelationSchema {
    /// The relation's name in rule files, and the stem of its fact file.
    pub name: &'static str,
    /// Who produces it.
    pub role: Role,
    /// Its columns, in order.
    pub columns: &'static [ColumnSchema],
    /// One line saying what a tuple means.
    pub doc: &'static str,
}

/// How closely a rule program must follow a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conformance {
    /// Every relation of the schema declared with its role, and no other `.input` or `.output`
    /// relation: what the shipped rule files must satisfy.
    Exact,
    /// The [`Role::Output`] relations declared as outputs; any other schema relation the
    /// program declares has the schema's columns. Inputs left out are simply not fed: what
    /// a researcher's edited rules must satisfy.
    Compatible,
}

/// A named table of relations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schema {
    /// What the schema is of, for messages.
    pub name: &'static str,
    /// The relations, inputs first.
    pub relations: &'static [RelationSchema],
}

impl RelationSchema {
    /// The number of columns.
    pub const fn arity(&self) -> usize {
        self.columns.len()
    }

    /// The relation's declaration in Soufflé syntax, e.g. `.decl cf(from: number, to: number)`.
    pub fn decl(&self) -> String {
        let cols: Vec<String> = self.columns.iter().map(|c| format!("{}: {}", c.name, c.ty.name())).collect();
        format!(".decl {}({})", self.name, cols.join(", "))
    }

    /// The Soufflé directive that makes the relation cross: `.input NAME` or `.output NAME`.
    pub fn directive(&self) -> String {
        match self.role {
            Role::Input => format!(".input {}", self.name),
            Role::Output | Role::Published => format!(".output {}", self.name),
        }
    }

    /// Rows as the text of a Soufflé fact file (tab-separated, one tuple per line), sorted the
    /// way the engine sorts its outputs (numbers as signed), so that files compare with `diff`.
    /// Rows of another arity, and symbol columns (rows carry no symbol table), are errors.
    pub fn facts_text(&self, rows: &[Vec<u32>]) -> Result<String, String> {
        if let Some(c) = self.columns.iter().find(|c| c.ty == ColumnType::Symbol) {
            return Err(format!("`{}`: column {} is a symbol, which rows of numbers cannot hold", self.name, c.name));
        }
        if let Some(r) = rows.iter().find(|r| r.len() != self.arity()) {
            return Err(format!("`{}` has {} columns, but a row has {}: {r:?}", self.name, self.arity(), r.len()));
        }
        let key = |r: &Vec<u32>| -> Vec<i64> { r.iter().zip(self.columns).map(|(&v, c)| if c.ty == ColumnType::Number { v as i32 as i64 } else { v as i64 }).collect() };
        let mut sorted: Vec<Vec<i64>> = rows.iter().map(key).collect();
        sorted.sort_unstable();
        sorted.dedup();
        let mut text = String::new();
        for r in &sorted {
            if r.is_empty() {
                text.push_str("()");
            }
            for (i, v) in r.iter().enumerate() {
                if i > 0 {
                    text.push('\t');
                }
                let _ = write!(text, "{v}");
            }
            text.push('\n');
        }
        Ok(text)
    }
}

impl Schema {
    /// The relation of that name.
    pub fn get(&self, name: &str) -> Option<&'static RelationSchema> {
        self.relations.iter().find(|r| r.name == name)
    }

    /// The relations of one role, in table order.
    pub fn with_role(&self, role: Role) -> impl Iterator<Item = &'static RelationSchema> {
        self.relations.iter().filter(move |r| r.role == role)
    }

    /// Every way `program` departs from the schema at the given conformance, one message each
    /// (naming the relation and what differs); empty when it conforms.
    pub fn check(&self, program: &Program, level: Conformance) -> Vec<String> {
        let mut errors = Vec::new();
        for r in self.relations {
            let want = || format!("`{}` and `{}`", r.decl(), r.directive());
            let Some(info) = program.relation(r.name) else {
                if level == Conformance::Exact || r.role == Role::Output {
                    errors.push(format!("the rules do not declare `{}`: the {} schema needs {}", r.name, self.name, want()));
                }
                continue;
            };
            if info.arity() != r.arity() {
                errors.push(format!("the rules declare `{}` with {} columns; the {} schema has {}: {}", r.name, info.arity(), self.name, r.arity(), r.decl()));
                continue;
            }
            for (i, (got, col)) in info.columns.iter().zip(r.columns).enumerate() {
                if got.ty != col.ty {
                    errors.push(format!("the rules declare column {} ({}) of `{}` as {}; the {} schema has {}: {}", i + 1, got.name, r.name, got.ty.name(), self.name, col.ty.name(), r.decl()));
                }
            }
            let role_ok = match (r.role, level) {
                (Role::Input, Conformance::Exact) => info.is_input() && !info.is_output(),
                (Role::Input, Conformance::Compatible) | (Role::Published, Conformance::Compatible) => true,
                (Role::Output, _) | (Role::Published, Conformance::Exact) => info.is_output() && !info.is_input(),
            };
            if !role_ok {
                errors.push(format!("the rules declare `{}` without `{}` (or with another direction); the {} schema needs {}", r.name, r.directive(), self.name, want()));
            }
        }
        if level == Conformance::Exact {
            for info in program.relations() {
                if (info.is_input() || info.is_output()) && self.get(&info.name).is_none() {
                    let dir = if info.is_input() { "input" } else { "output" };
                    errors.push(format!("the rules declare the {dir} `{}`, which the {} schema does not have", info.name, self.name));
                }
            }
        }
        errors
    }
}

const fn num(name: &'static str) -> ColumnSchema {
    ColumnSchema { name, ty: ColumnType::Number }
}

const fn input(name: &'static str, columns: &'static [ColumnSchema], doc: &'static str) -> RelationSchema {
    RelationSchema { name, role: Role::Input, columns, doc }
}

const fn derived(name: &'static str, role: Role, columns: &'static [ColumnSchema], doc: &'static str) -> RelationSchema {
    RelationSchema { name, role, columns, doc }
}

/// The interference analysis of duet-rs (`rules/interference.dl`, whose header explains each
/// relation at length). Every column is an id: `loc` a location (global over all thread
/// templates), `cell` a shared abstract location or variable pack, `lock` a lock identity,
/// `cond` an observable condition, `val` a truth value (0 or 1).
pub const INTERFERENCE: Schema = Schema {
    name: "interference",
    relations: &[
        input("cf", &[num("loc"), num("succ")], "succ is a control-flow successor of loc in one thread template"),
        input("spawn", &[num("loc"), num("entry")], "the action at loc forks a thread that starts at entry"),
        input("multi_spawn", &[num("loc")], "the fork at loc may create unboundedly many instances"),
        input("mod", &[num("loc"), num("cell")], "the action at loc defines cell (a write, or an assume mentioning it)"),
        input("kill", &[num("loc"), num("cell")], "the action at loc overwrites cell entirely"),
        input("use", &[num("loc"), num("cell")], "the action at loc reads cell"),
        input("acquires", &[num("loc"), num("lock")], "the action at loc acquires lock"),
        input("holds", &[num("loc"), num("lock")], "a thread at loc definitely holds lock"),
        input("atomic", &[num("loc")], "a thread at loc is inside an atomic section"),
        input("needs", &[num("loc"), num("cond"), num("val")], "the assume at loc proceeds only if cond has truth value val"),
        input("cond_val", &[num("loc"), num("cond"), num("val")], "per round: cond may have value val while a thread is at loc"),
        input("observe", &[num("cell")], "cell is read by an observable condition"),
        input("join_waits", &[num("loc"), num("waited")], "the join at loc cannot pass while the joined thread stands at waited"),
        derived("coreachable", Role::Published, &[num("loc"), num("other")], "one thread may be at loc while another is at other"),
        derived(
            "may_reach",
            Role::Published,
            &[num("def"), num("cell"), num("writer_at"), num("reader_at")],
            "the value def wrote to cell is current while its writer is at writer_at and another thread at reader_at",
        ),
        derived("may_flow", Role::Output, &[num("def"), num("cell"), num("at")], "the value def wrote to cell may be what the action at `at` reads"),
        derived("may_stand", Role::Output, &[num("def"), num("cell"), num("at")], "the value def wrote to observed cell may be current while a thread stands at `at`"),
    ],
};
