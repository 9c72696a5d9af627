//! Z3, through the `z3` crate: the constraint terms are built as Z3 terms node by node, with
//! the same sharing and the same names (`s<n>`, `b<n>`, `init`) as the SMT-LIB2 text that
//! `--dump-smt` writes, so what is solved is what a user can check with another solver.
//! (Parsing that text instead took Z3 most of a minute on a 0.5 MB formula.)

use super::term::{BitOp, Node, Terms, T};
use std::time::{Duration, Instant};
use z3::ast::{Bool, Int, BV};
use z3::{FuncDecl, Params, SatResult, Solver, Sort};

#[derive(Clone)]
enum Z {
    I(Int),
    B(Bool),
}

impl Z {
    fn i(&self) -> Int {
        match self {
            Z::I(x) => x.clone(),
            Z::B(b) => b.ite(&Int::from_i64(1), &Int::from_i64(0)),
        }
    }
    fn b(&self) -> Bool {
        match self {
            Z::B(x) => x.clone(),
            Z::I(i) => i.eq(Int::from_i64(0)).not(),
        }
    }
}

fn num(v: i128) -> Int {
    match i64::try_from(v) {
        Ok(x) => Int::from_i64(x),
        Err(_) => Int::from_i128(v),
    }
}

/// Builds the Z3 term of every node reachable from `roots` (`None` once `deadline` passed).
fn build(terms: &Terms, roots: &[T], init: &FuncDecl, deadline: Option<Instant>) -> Option<Vec<Option<Z>>> {
    let mut need = vec![false; terms.len()];
    terms.walk(roots, &mut need, |_| {});
    let mut z: Vec<Option<Z>> = vec![None; terms.len()];
    // Children have smaller ids, so one pass in id order builds every node after its parts.
    for i in 0..terms.len() {
        if !need[i] {
            continue;
        }
        if i % 65536 == 0 && deadline.is_some_and(|d| Instant::now() > d) {
            return None;
        }
        let g = |t: &T| z[t.0 as usize].clone().expect("child built first");
        let node = match terms.node(T(i as u32)) {
            Node::Int(v) => Z::I(num(*v)),
            Node::Bool(b) => Z::B(Bool::from_bool(*b)),
            Node::Sym(n) => Z::I(Int::new_const(format!("s{n}"))),
            Node::BSym(n) => Z::B(Bool::new_const(format!("b{n}"))),
            Node::Init(a) => Z::I(init.apply(&[&g(a).i()]).as_int().expect("init is integer-valued")),
            Node::Add(a, b) => Z::I(Int::add(&[g(a).i(), g(b).i()])),
            Node::Sub(a, b) => Z::I(Int::sub(&[g(a).i(), g(b).i()])),
            Node::Mul(a, b) => Z::I(Int::mul(&[g(a).i(), g(b).i()])),
            Node::Div(a, b) => {
                let (x, y) = (g(a).i(), g(b).i());
                let zero = Int::from_i64(0);
                let neg = |v: &Int| v.unary_minus();
                let q = match terms.as_const(*b) {
                    Some(d) if d > 0 => x.ge(&zero).ite(&x.div(&y), &neg(&neg(&x).div(&y))),
                    _ => x.ge(&zero).ite(&y.ge(&zero).ite(&x.div(&y), &neg(&x.div(neg(&y)))), &y.ge(&zero).ite(&neg(&neg(&x).div(&y)), &neg(&x).div(neg(&y)))),
                };
                Z::I(q)
            }
            Node::Wrap(bits, signed, a) => {
                let it = crate::ir::IntTy { bits: *bits, signed: *signed };
                let m = 1i128 << bits;
                let x = g(a).i();
                let (lo, hi) = terms.range(*a);
                let (mn, mx, mm) = (num(it.min()), num(it.max()), num(m));
                if lo.is_some_and(|l| l >= it.min() - m) && hi.is_some_and(|h| h <= it.max() + m) {
                    Z::I(x.gt(&mx).ite(&Int::sub(&[x.clone(), mm.clone()]), &x.lt(&mn).ite(&Int::add(&[x.clone(), mm.clone()]), &x)))
                } else {
                    Z::I(Int::add(&[mn.clone(), Int::sub(&[x, mn]).modulo(&mm)]))
                }
            }
            Node::Bits(op, bits, signed, a, b) => {
                let (x, y) = (BV::from_int(&g(a).i(), *bits as u32), BV::from_int(&g(b).i(), *bits as u32));
                let r = match op {
                    BitOp::And => x.bvand(&y),
                    BitOp::Or => x.bvor(&y),
                    BitOp::Xor => x.bvxor(&y),
                    BitOp::Shl => x.bvshl(&y),
                    BitOp::Shr if *signed => x.bvashr(&y),
                    BitOp::Shr => x.bvlshr(&y),
                };
                Z::I(signed_of(r.to_int(false), *bits, *signed))
            }
            Node::BitNot(bits, signed, a) => {
                let x = BV::from_int(&g(a).i(), *bits as u32);
                Z::I(signed_of(x.bvnot().to_int(false), *bits, *signed))
            }
            Node::Ite(c, a, b) => {
                let c = g(c).b();
                match (g(a), g(b)) {
                    (Z::B(x), Z::B(y)) => Z::B(c.ite(&x, &y)),
                    (x, y) => Z::I(c.ite(&x.i(), &y.i())),
                }
            }
            Node::Lt(a, b) => Z::B(g(a).i().lt(g(b).i())),
            Node::Le(a, b) => Z::B(g(a).i().le(g(b).i())),
            Node::Eq(a, b) => match (g(a), g(b)) {
                (Z::B(x), Z::B(y)) => Z::B(x.iff(&y)),
                (x, y) => Z::B(x.i().eq(y.i())),
            },
            Node::Not(a) => Z::B(g(a).b().not()),
            Node::And(xs) => Z::B(Bool::and(&xs.iter().map(|x| g(x).b()).collect::<Vec<_>>())),
            Node::Or(xs) => Z::B(Bool::or(&xs.iter().map(|x| g(x).b()).collect::<Vec<_>>())),
        };
        z[i] = Some(node);
    }
    Some(z)
}

fn signed_of(u: Int, bits: u8, signed: bool) -> Int {
    if !signed {
        return u;
    }
    let half = num(1i128 << (bits - 1));
    let m = num(1i128 << bits);
    u.ge(&half).ite(&Int::sub(&[u.clone(), m]), &u)
}

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
    init: FuncDecl,
}

/// Z3 parameters for measurements, from `DUET_Z3_PARAMS` (`key=value` pairs separated by
/// spaces, e.g. `smt.arith.solver=2`), set once for the process before its first solver.
/// Unset, Z3 runs with its defaults and the fixed seed below.
pub fn measurement_params() -> Vec<(String, String)> {
    std::env::var("DUET_Z3_PARAMS").unwrap_or_default().split_whitespace().filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

static PARAMS: std::sync::Once = std::sync::Once::new();

impl Z3 {
    /// Loads the constraints, with a timeout per query.
    pub fn new(terms: &Terms, constraints: &[T], timeout: Duration) -> Z3 {
        Self::load(terms, constraints, timeout, None).expect("no deadline")
    }

    /// Loads the constraints, with a timeout per query; past `deadline`, gives up with
    /// [`super::SEARCH_BUDGET_SPENT`].
    pub fn load(terms: &Terms, constraints: &[T], timeout: Duration, deadline: Option<Instant>) -> Result<Z3, String> {
        PARAMS.call_once(|| {
            for (k, v) in measurement_params() {
                z3::set_global_param(&k, &v);
            }
        });
        let solver = Solver::new();
        let mut p = Params::new();
        p.set_u32("timeout", timeout.as_millis().clamp(1, u32::MAX as u128) as u32);
        // Fixed seeds keep models, and so witnesses, the same from run to run.
        p.set_u32("random_seed", 0);
        solver.set_params(&p);
        let init = FuncDecl::new("init", &[&Sort::int()], &Sort::int());
        let z = build(terms, constraints, &init, deadline).ok_or_else(|| super::SEARCH_BUDGET_SPENT.to_string())?;
        for (i, c) in constraints.iter().enumerate() {
            if i % 4096 == 0 && deadline.is_some_and(|d| Instant::now() > d) {
                return Err(super::SEARCH_BUDGET_SPENT.into());
            }
            if let Some(x) = &z[c.0 as usize] {
                solver.assert(x.b());
            }
        }
        Ok(Z3 { solver, model: None, syms: Vec::new(), bsyms: Vec::new(), init })
    }

    /// Changes the time limit of the following queries.
    pub fn set_timeout(&mut self, timeout: Duration) {
        let mut p = Params::new();
        p.set_u32("timeout", timeout.as_millis().clamp(1, u32::MAX as u128) as u32);
        self.solver.set_params(&p);
    }

    /// Caps the work of each following query at `units` of Z3's resource count, a limit that,
    /// unlike a timeout, ends a query at the same point on a busy machine as on an idle one.
    pub fn set_rlimit(&mut self, units: u32) {
        let mut p = Params::new();
        p.set_u32("rlimit", units);
        self.solver.set_params(&p);
    }

    /// Z3's resource count spent so far by this solver.
    pub fn rlimit_used(&self) -> u64 {
        match self.solver.get_statistics().value("rlimit count") {
            Some(z3::StatisticsValue::UInt(n)) => n as u64,
            Some(z3::StatisticsValue::Double(x)) => x as u64,
            None => 0,
        }
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

    /// The Boolean unknowns (their numbers) among the assumptions of the last check that its
    /// unsat core uses, after an unsatisfiable answer.
    pub fn unsat_core(&self) -> Vec<u32> {
        self.solver.get_unsat_core().iter().filter_map(|b| b.to_string().strip_prefix('b').and_then(|n| n.parse().ok())).collect()
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
        let app = self.init.apply(&[&Int::from_i64(a)]);
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
