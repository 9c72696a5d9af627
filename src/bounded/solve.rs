//! Z3, through the `z3` crate: the encoding is handed over as the same SMT-LIB2 text that
//! `--dump-smt` writes, so what is solved is exactly what a user can check with another solver.

use super::term::{Node, Terms, T};
use std::time::Duration;
use z3::ast::{Bool, Int};
use z3::{FuncDecl, Params, SatResult, Solver, Sort};

/// The answer to one query.
pub enum Answer {
    /// Satisfiable: a model is available.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up (the reason it gave).
    Unknown(String),
}

/// A solver loaded with one encoding.
pub struct Z3 {
    solver: Solver,
    model: Option<z3::Model>,
    syms: Vec<Option<i128>>,
    bsyms: Vec<Option<bool>>,
}

impl Z3 {
    /// Loads the encoding, with a timeout per query.
    pub fn new(text: &str, timeout: Duration) -> Z3 {
        let solver = Solver::new();
        let mut p = Params::new();
        p.set_u32("timeout", timeout.as_millis().clamp(1, u32::MAX as u128) as u32);
        // Fixed seeds keep models, and so witnesses, the same from run to run.
        p.set_u32("random_seed", 0);
        solver.set_params(&p);
        solver.from_string(text);
        Z3 { solver, model: None, syms: Vec::new(), bsyms: Vec::new() }
    }

    /// Checks the encoding with the Boolean unknowns `assume` assumed true.
    pub fn check(&mut self, terms: &Terms, assume: &[T]) -> Answer {
        self.model = None;
        self.syms.clear();
        self.bsyms.clear();
        let mut lits = Vec::new();
        for &a in assume {
            match terms.node(a) {
                Node::BSym(n) => lits.push(Bool::new_const(format!("b{n}"))),
                _ => return Answer::Unknown("internal error: an assumption is not a Boolean unknown".into()),
            }
        }
        match self.solver.check_assumptions(&lits) {
            SatResult::Sat => {
                self.model = self.solver.get_model();
                if self.model.is_some() {
                    Answer::Sat
                } else {
                    Answer::Unknown("the solver gave no model".into())
                }
            }
            SatResult::Unsat => Answer::Unsat,
            SatResult::Unknown => Answer::Unknown(self.solver.get_reason_unknown().unwrap_or_else(|| "unknown".into())),
        }
    }

    /// The model's value of integer unknown `n`.
    pub fn sym(&mut self, n: u32) -> i128 {
        if let Some(Some(v)) = self.syms.get(n as usize) {
            return *v;
        }
        let v = match &self.model {
            Some(m) => m.eval(&Int::new_const(format!("s{n}")), true).and_then(|x| int_value(&x)).unwrap_or(0),
            None => 0,
        };
        if self.syms.len() <= n as usize {
            self.syms.resize(n as usize + 1, None);
        }
        self.syms[n as usize] = Some(v);
        v
    }

    /// The model's value of Boolean unknown `n`.
    pub fn bsym(&mut self, n: u32) -> bool {
        if let Some(Some(v)) = self.bsyms.get(n as usize) {
            return *v;
        }
        let v = match &self.model {
            Some(m) => m.eval(&Bool::new_const(format!("b{n}")), true).and_then(|x| x.as_bool()).unwrap_or(false),
            None => false,
        };
        if self.bsyms.len() <= n as usize {
            self.bsyms.resize(n as usize + 1, None);
        }
        self.bsyms[n as usize] = Some(v);
        v
    }

    /// The model's initial memory contents at an address.
    pub fn init(&self, addr: i128) -> i128 {
        let Some(m) = &self.model else { return 0 };
        let Ok(a) = i64::try_from(addr) else { return 0 };
        let f = FuncDecl::new("init", &[&Sort::int()], &Sort::int());
        let app = f.apply(&[&Int::from_i64(a)]);
        m.eval(&app, true).and_then(|v| v.as_int()).and_then(|x| int_value(&x)).unwrap_or(0)
    }

    /// Evaluates a term of the encoding in the current model.
    pub fn eval(&mut self, terms: &Terms, t: T, memo: &mut Vec<Option<i128>>) -> i128 {
        let mut leaf = |n: &Node, arg: i128| -> i128 {
            match n {
                Node::Sym(k) => self.sym(*k),
                Node::BSym(k) => self.bsym(*k) as i128,
                Node::Init(_) => self.init(arg),
                _ => 0,
            }
        };
        terms.eval(t, memo, &mut leaf)
    }
}

fn int_value(x: &Int) -> Option<i128> {
    if let Some(v) = x.as_i64() {
        return Some(v as i128);
    }
    if let Some(v) = x.as_u64() {
        return Some(v as i128);
    }
    let s = x.to_string();
    let neg = s.starts_with("(-");
    let digits: String = s.chars().filter(|c| c.is_ascii_digit()).collect();
    let v: i128 = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}
