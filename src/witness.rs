//! Witnesses as engines return them: what a replayed violation or COARSEN's proof says about
//! the source, in no file format. Engines write no files: a witness travels in the task's
//! result (serialized from the task process to the parent in a batch), the report layer
//! renders it (`report::witness`: YAML format 2.0 or GraphML) and the command line writes it.

use crate::interp::Executed;
use crate::ir::{Action, AssertId, DataModel, Expr, Lval, Program};
use serde::{Deserialize, Serialize};

/// A position in the input file, with the function around it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourcePoint {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// The function whose definition contains it.
    pub function: String,
}

/// A witness for one task: a violation's interleaving, or a proof's invariants.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Witness {
    /// A replayed interleaving that reaches a failure.
    Violation(Violation),
    /// Invariants that hold for every number of threads, from a proof of every assertion.
    Correctness(Correctness),
}

impl Witness {
    /// The input file the witness is about.
    pub fn file(&self) -> &str {
        match self {
            Witness::Violation(v) => &v.file,
            Witness::Correctness(c) => &c.file,
        }
    }

    /// `ILP32` or `LP64`.
    pub fn data_model(&self) -> &str {
        match self {
            Witness::Violation(v) => &v.data_model,
            Witness::Correctness(c) => &c.data_model,
        }
    }
}

/// A violation: the executed steps of a replayed schedule and the failure it reaches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// The input file.
    pub file: String,
    /// `ILP32` or `LP64`.
    pub data_model: String,
    /// The engine that found it.
    pub engine: String,
    /// Every executed step, in order.
    pub steps: Vec<Step>,
    /// The failing assertion's call.
    pub target: SourcePoint,
}

/// One executed step of a violation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Source line of the action (0: none).
    pub line: u32,
    /// Source column of the action.
    pub column: u32,
    /// The thread instance that executed it.
    pub thread: u32,
    /// A thread it created, with the start routine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<(u32, String)>,
    /// A program input it read, when it stored one into a named variable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Input>,
}

/// A value chosen for a program input (`__VERIFIER_nondet_*`, an uninitialised local).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// The variable it was stored into, by its source name.
    pub variable: String,
    /// The value, in decimal.
    pub value: String,
    /// The function whose code stored it (the thread's start routine when unknown).
    pub function: String,
}

/// A correctness witness: invariants at source positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correctness {
    /// The input file.
    pub file: String,
    /// `ILP32` or `LP64`.
    pub data_model: String,
    /// The invariants, by position.
    pub invariants: Vec<Invariant>,
    /// The `--rules` file the proof rests on, when not the built-in interference rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_rules: Option<String>,
}

impl Correctness {
    /// The producer's configuration: the engine, and the rules when they are a user's.
    pub fn configuration(&self) -> String {
        match &self.custom_rules {
            Some(r) => format!("coarsen under custom rules {r}"),
            None => "coarsen".into(),
        }
    }
}

/// A C expression over program variables that holds whenever a thread reaches a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invariant {
    /// Where it holds (before the statement there).
    pub at: SourcePoint,
    /// The expression.
    pub value: String,
}

/// The name of a data model in witnesses.
pub fn data_model_name(dm: DataModel) -> &'static str {
    match dm {
        DataModel::LP64 => "LP64",
        DataModel::ILP32 => "ILP32",
    }
}

/// The input file of a program.
pub fn input_file(prog: &Program) -> String {
    prog.files.first().cloned().unwrap_or_default()
}

/// The violation witness of a replayed trace that makes assertion `a` fail.
pub fn violation(prog: &Program, trace: &[Executed], a: AssertId, engine: &str) -> Violation {
    let steps = trace
        .iter()
        .map(|ex| {
            let l = prog.loc(ex.loc);
            let created = match (&l.action, ex.created.first()) {
                (Action::Fork { template, .. }, Some(c)) => Some((*c, prog.template(*template).function.clone())),
                _ => None,
            };
            let mut input = None;
            if let Action::Assign(Lval::Var(v), e) = &l.action {
                let name = &prog.var(*v).source_name;
                if is_input(e) && ex.count == 1 && !name.starts_with('$') {
                    if let Some(w) = ex.accesses.iter().rev().find(|a| a.write) {
                        let function = prog.function_at(l.span).map(|f| f.name.clone()).unwrap_or_else(|| prog.template(l.template).function.clone());
                        input = Some(Input { variable: name.clone(), value: w.value.to_string(), function });
                    }
                }
            }
            Step { line: l.span.line, column: l.span.col, thread: ex.thread, created, input }
        })
        .collect();
    let asrt = prog.assertion(a);
    Violation {
        file: input_file(prog),
        data_model: data_model_name(prog.data_model).into(),
        engine: engine.into(),
        steps,
        target: SourcePoint { line: asrt.span.line, column: asrt.span.col, function: asrt.function.clone() },
    }
}

fn is_input(e: &Expr) -> bool {
    match e {
        Expr::Nondet(_) => true,
        Expr::Cast(_, x) => is_input(x),
        _ => false,
    }
}
