//! Path summaries of threads that `main` joins, read back by `main`'s tests (issue 13, item 8).
//!
//! A thread that only assigns and tests plain scalar variables, without loops, is a finite set
//! of paths: each path is what it assumes and what it leaves in each variable, both as
//! expressions over the values the variables had when it started ([`summarise`]). When `main`
//! created it once and has definitely joined it, and nothing but the thread itself writes the
//! globals it touches once it is forked, those start values are the globals' values at the
//! fork and still now, and its writes are final: a test of `main` over its results then holds
//! only on the paths it does not contradict ([`Summary::implied`]). What every such path
//! implies (the equalities it tests, `a - b == 0` being `a == b` in any integer type) holds in
//! `main` after the test; no such path means no execution gets past it.
//!
//! This is what the comparator chains of the `chl-*` tasks need: `r = a - b; if (r == 0) r =
//! c - d;` joined, then `assume(r == 0)` says `a == b` and `c == d`, which the twin threads'
//! inputs need (`twins.rs`); and `r = s0 == s1 ? 0 : (s1 ? -1 : 1)` with `assume(r > 0)` says
//! `s1 == 0`. Nothing here reasons about order (`<`): a path is dropped only when one of its
//! tests is the negation of another or folds to false once the constants known are put in.
//!
//! Twins whose inputs are not equal at the fork are used *conditionally*: wherever both have
//! been joined and their read-only inputs are in one class, their outputs join one class too
//! (`chl-time-subst`, `chl-collitem-subst`). A comparison whose two sides compute the same
//! expression over equal variables is decided too (`(r2 > 0) == (r3 > 0)`). Still unproved:
//! `chl-match-symm` (antisymmetry of `<`) and the tasks over arrays (`chl-array-int-*`,
//! `chl-node-subst`: loops, heap cells).

use super::twins::{deterministic_action, rename_expr, substitute};
use crate::ir::{Action, BinOp, Expr, Halt, LocId, Lval, Program, TemplateId, Ty, UnOp, VarId};
use std::collections::{BTreeMap, BTreeSet};

/// Paths a template may take at most before it is not summarised.
const MAX_PATHS: usize = 4096;
/// Locations on one path at most (a loop never ends its paths).
const MAX_STEPS: usize = 2000;
/// Nodes of one expression at most.
const MAX_SIZE: usize = 256;

/// One way through a thread, from its entry to its exit.
#[derive(Clone, Debug)]
pub struct Path {
    /// The conditions it assumed, over start values.
    pub conds: Vec<Expr>,
    /// The value it leaves in each variable it wrote, over start values.
    pub finals: BTreeMap<VarId, Expr>,
}

/// Every path by which a thread reaches its exit.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The template summarised.
    pub template: TemplateId,
    /// Its paths to the exit (paths that abort or block never let a join return).
    pub paths: Vec<Path>,
    /// Globals whose start value some path reads.
    pub reads: BTreeSet<VarId>,
    /// Globals it may write.
    pub writes: BTreeSet<VarId>,
}

fn size(e: &Expr) -> usize {
    match e {
        Expr::Unary(_, x, _) | Expr::Cast(_, x) => 1 + size(x),
        Expr::Binary(_, a, b, _) => 1 + size(a) + size(b),
        _ => 1,
    }
}

/// The variables an expression loads.
pub(super) fn loads(e: &Expr, out: &mut BTreeSet<VarId>) {
    match e {
        Expr::Load(Lval::Var(v)) => {
            out.insert(*v);
        }
        Expr::Unary(_, x, _) | Expr::Cast(_, x) => loads(x, out),
        Expr::Binary(_, a, b, _) => {
            loads(a, out);
            loads(b, out);
        }
        _ => {}
    }
}

/// A scalar variable whose address is never taken and that is one strong cell.
fn scalar_var(prog: &Program, v: VarId) -> bool {
    let var = prog.var(v);
    !var.addr_taken
        && matches!(var.ty.scalar(prog.data_model), Ty::Int(_) | Ty::Bool)
        && prog.memory.lookup(prog, &Lval::Var(v)).is_some_and(|a| {
            let info = prog.memory.info(a);
            info.strong && matches!(info.kind, crate::ir::AbsKind::Var(w) if w == v)
        })
}

/// The paths of template `t`, when it only assigns and tests plain scalar variables, has no
/// loop, and has few enough paths.
pub fn summarise(prog: &Program, t: TemplateId) -> Option<Summary> {
    let tpl = prog.template(t);
    let mut vars = BTreeSet::new();
    for &l in &tpl.locs {
        let a = &prog.loc(l).action;
        if !deterministic_action(a) {
            return None;
        }
        crate::ir::visit::action_vars(a, &mut |v| {
            vars.insert(v);
        });
    }
    if !vars.iter().all(|v| scalar_var(prog, *v)) {
        return None;
    }
    let mut paths = Vec::new();
    // Where a path stands, with what it has written and assumed so far, and its length.
    let mut stack: Vec<(LocId, Path, usize)> = vec![(tpl.entry, Path { conds: Vec::new(), finals: BTreeMap::new() }, 0)];
    while let Some((l, Path { mut conds, finals: mut map }, steps)) = stack.pop() {
        if steps > MAX_STEPS || paths.len() + stack.len() > MAX_PATHS {
            return None;
        }
        let loc = prog.loc(l);
        match &loc.action {
            Action::Assign(Lval::Var(v), e) => {
                let x = substitute(e, &map);
                if size(&x) > MAX_SIZE {
                    return None;
                }
                map.insert(*v, x);
            }
            Action::Assume(c) => conds.push(substitute(c, &map)),
            Action::Halt(Halt::ThreadExit) => {
                paths.push(Path { conds, finals: map });
                continue;
            }
            _ => {}
        }
        // A location without successors (an abort, a failed `assert(0)`) never exits.
        for s in &loc.succs {
            stack.push((*s, Path { conds: conds.clone(), finals: map.clone() }, steps + 1));
        }
    }
    let mut reads = BTreeSet::new();
    for p in &paths {
        for c in p.conds.iter().chain(p.finals.values()) {
            loads(c, &mut reads);
        }
    }
    reads.retain(|v| prog.var(*v).is_global());
    let writes: BTreeSet<VarId> = paths.iter().flat_map(|p| p.finals.keys().copied()).filter(|v| prog.var(*v).is_global()).collect();
    Some(Summary { template: t, paths, reads, writes })
}

/// What a test implies, or that it fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Implied {
    /// No path of the thread lets the test pass.
    Refuted,
    /// Every path that lets it pass implies these: `(g, Ok(h))` is `g == h`, `(g, Err(c))`
    /// is `g == c` (the constant in `g`'s type).
    Facts(Vec<(VarId, Result<VarId, i128>)>),
}

impl Summary {
    /// What `test`, evaluated after the thread ended with its final values, implies about the
    /// start values of the globals it reads, given `known` (start values known to be constants)
    /// and `canon` (a representative for each variable known equal to others).
    pub fn implied(&self, prog: &Program, test: &Expr, known: &dyn Fn(VarId) -> Option<i128>, canon: &dyn Fn(VarId) -> VarId) -> Implied {
        let mut common: Option<BTreeSet<(VarId, Result<VarId, i128>)>> = None;
        for p in &self.paths {
            let mut atoms: Vec<Expr> = p.conds.clone();
            atoms.push(substitute(test, &p.finals));
            let Some(facts) = feasible(prog, &atoms, known, canon) else { continue };
            common = Some(match common {
                None => facts,
                Some(c) => c.intersection(&facts).copied().collect(),
            });
        }
        match common {
            None => Implied::Refuted,
            Some(c) => Implied::Facts(c.into_iter().collect()),
        }
    }
}

/// The constant value of `e` once the variables `env` names are replaced by their constants.
fn fold(prog: &Program, e: &Expr, env: &BTreeMap<VarId, i128>) -> Option<i128> {
    let dm = prog.data_model;
    match e {
        Expr::Const(c, t) if t.is_integral() => Some(t.convert(*c, dm)),
        Expr::Load(Lval::Var(v)) => env.get(v).copied(),
        Expr::Unary(op, x, t) if t.is_integral() => crate::interp::ops::unary(*op, fold(prog, x, env)?, *t, dm).ok(),
        Expr::Binary(op, a, b, t) if t.is_integral() && a.ty(prog).is_integral() && b.ty(prog).is_integral() => crate::interp::ops::binary(*op, fold(prog, a, env)?, fold(prog, b, env)?, *t, dm).ok(),
        Expr::Cast(t, x) if t.is_integral() && x.ty(prog).is_integral() => Some(t.convert(fold(prog, x, env)?, dm)),
        _ => None,
    }
}

/// A condition and whether it is asserted (`true`) or denied: `!c` and `a != b` are denials.
fn polarity(e: &Expr) -> (Expr, bool) {
    match e {
        Expr::Unary(UnOp::Not, x, _) => {
            let (c, p) = polarity(x);
            (c, !p)
        }
        Expr::Binary(BinOp::Ne, a, b, t) => (Expr::Binary(BinOp::Eq, a.clone(), b.clone(), *t), false),
        other => (other.clone(), true),
    }
}

/// The equality `e` states between two variables of one integer type, or a variable and a
/// constant of its type.
fn equality(prog: &Program, e: &Expr) -> Option<(VarId, Result<VarId, i128>)> {
    let Expr::Binary(BinOp::Eq, a, b, _) = e else { return None };
    let var_ty = |v: VarId| prog.var(v).ty.scalar(prog.data_model);
    match (&**a, &**b) {
        (Expr::Load(Lval::Var(g)), Expr::Load(Lval::Var(h))) if var_ty(*g) == var_ty(*h) => Some((*g.min(h), Ok(*g.max(h)))),
        (Expr::Load(Lval::Var(g)), Expr::Const(c, _)) | (Expr::Const(c, _), Expr::Load(Lval::Var(g))) => {
            // Only a constant the variable can hold: `c == g` in a wider type says nothing else.
            let t = var_ty(*g);
            (t.is_integral() && t.convert(*c, prog.data_model) == *c).then_some((*g, Err(*c)))
        }
        // `g - h == 0` wraps to zero exactly when `g == h`, in the subtraction's type.
        (Expr::Binary(BinOp::Sub, x, y, t), Expr::Const(0, _)) | (Expr::Const(0, _), Expr::Binary(BinOp::Sub, x, y, t)) => match (&**x, &**y) {
            (Expr::Load(Lval::Var(g)), Expr::Load(Lval::Var(h))) if var_ty(*g) == *t && var_ty(*h) == *t && matches!(t, Ty::Int(_)) => Some((*g.min(h), Ok(*g.max(h)))),
            _ => None,
        },
        _ => None,
    }
}

/// The equalities a conjunction states, or `None` when it cannot hold: one of its conditions
/// folds to false with the constants known (and those it states itself), or one is the
/// negation of another.
fn feasible(prog: &Program, atoms: &[Expr], known: &dyn Fn(VarId) -> Option<i128>, canon: &dyn Fn(VarId) -> VarId) -> Option<BTreeSet<(VarId, Result<VarId, i128>)>> {
    let atoms: Vec<Expr> = atoms.iter().map(|a| rename_expr(a, canon)).collect();
    let mut vars = BTreeSet::new();
    for a in &atoms {
        loads(a, &mut vars);
    }
    let mut env: BTreeMap<VarId, i128> = vars.iter().filter_map(|v| known(*v).map(|c| (*v, c))).collect();
    let mut facts = BTreeSet::new();
    // Twice: a constant a later condition states may decide an earlier one.
    for _ in 0..2 {
        for a in &atoms {
            if fold(prog, a, &env) == Some(0) {
                return None;
            }
            let (c, positive) = polarity(a);
            if positive {
                if let Some(f) = equality(prog, &c) {
                    if let (g, Err(k)) = f {
                        if env.insert(g, k).is_some_and(|old| old != k) {
                            return None;
                        }
                    }
                    facts.insert(f);
                }
            }
        }
    }
    let signed: std::collections::HashSet<(Expr, bool)> = atoms.iter().map(polarity).collect();
    if signed.iter().any(|(c, p)| *p && signed.contains(&(c.clone(), false))) {
        return None;
    }
    Some(facts)
}
