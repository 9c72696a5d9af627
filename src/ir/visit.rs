//! Traversals of actions and expressions shared by the engines.

use super::*;

/// The root template's deterministic prefix, in execution order: the straight run of skips and
/// assignments from its entry, outside atomic sections, each location with one successor and
/// reached only that way. Nothing else runs before it ends: no other thread exists yet.
pub(crate) fn root_prefix(prog: &Program) -> Vec<LocId> {
    let preds = prog.predecessors();
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let Some(root) = prog.templates.first() else { return out };
    let mut pc = root.entry;
    loop {
        let loc = prog.loc(pc);
        let simple = matches!(loc.action, Action::Skip | Action::Assign(..)) && loc.succs.len() == 1 && !loc.atomic;
        let only_way = if pc == root.entry { preds[pc.index()].is_empty() } else { preds[pc.index()].len() == 1 };
        if !simple || !only_way || !seen.insert(pc) {
            break;
        }
        out.push(pc);
        pc = loc.succs[0];
    }
    out
}

/// Calls `f` on every variable an expression mentions (read or address taken).
pub(crate) fn expr_vars(e: &Expr, f: &mut dyn FnMut(VarId)) {
    match e {
        Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => {}
        Expr::Load(lv) | Expr::AddrOf(lv) => lval_vars(lv, f),
        Expr::Unary(_, x, _) | Expr::Cast(_, x) => expr_vars(x, f),
        Expr::Binary(_, a, b, _) => {
            expr_vars(a, f);
            expr_vars(b, f);
        }
    }
}

/// Calls `f` on every variable an lvalue mentions.
pub(crate) fn lval_vars(lv: &Lval, f: &mut dyn FnMut(VarId)) {
    match lv {
        Lval::Var(v) => f(*v),
        Lval::Deref(e, _) => expr_vars(e, f),
        Lval::Index(b, i) => {
            lval_vars(b, f);
            expr_vars(i, f);
        }
        Lval::Field(b, _, _) => lval_vars(b, f),
    }
}

/// Calls `f` on every variable an action mentions.
pub(crate) fn action_vars(a: &Action, f: &mut dyn FnMut(VarId)) {
    action_parts(a, &mut |p| match p {
        Part::Lval(lv) => lval_vars(lv, f),
        Part::Expr(e) => expr_vars(e, f),
    });
}

/// A top-level operand of an action: an lvalue it writes or designates, or an expression it
/// evaluates.
enum Part<'a> {
    Lval(&'a Lval),
    Expr(&'a Expr),
}

/// Calls `f` on an action's top-level operands, in evaluation order (the written lvalue of an
/// assignment first).
fn action_parts<'a>(a: &'a Action, f: &mut dyn FnMut(Part<'a>)) {
    match a {
        Action::Assign(lv, e) => {
            f(Part::Lval(lv));
            f(Part::Expr(e));
        }
        Action::Assume(e) | Action::Assert(_, e) | Action::Join(e) => f(Part::Expr(e)),
        Action::Alloc(lv, ..) | Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => f(Part::Lval(lv)),
        Action::Fork { handle, arg, .. } => {
            if let Some(h) = handle {
                f(Part::Lval(h));
            }
            if let Some(e) = arg {
                f(Part::Expr(e));
            }
        }
        Action::Skip | Action::AtomicBegin | Action::AtomicEnd | Action::Halt(_) => {}
    }
}

/// Calls `f` on every lvalue an action reads or writes, nested ones (an index, a pointer
/// being dereferenced) included; an `AddrOf` operand is not an access and is left out.
pub(crate) fn action_lvals(a: &Action, f: &mut dyn FnMut(&Lval)) {
    fn expr(e: &Expr, f: &mut dyn FnMut(&Lval)) {
        match e {
            Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => {}
            Expr::Load(lv) => lval(lv, f),
            Expr::AddrOf(lv) => inner(lv, f),
            Expr::Unary(_, x, _) | Expr::Cast(_, x) => expr(x, f),
            Expr::Binary(_, a, b, _) => {
                expr(a, f);
                expr(b, f);
            }
        }
    }
    fn lval(lv: &Lval, f: &mut dyn FnMut(&Lval)) {
        f(lv);
        inner(lv, f);
    }
    // The accesses an lvalue makes on its way, before its own.
    fn inner(lv: &Lval, f: &mut dyn FnMut(&Lval)) {
        match lv {
            Lval::Var(_) => {}
            Lval::Deref(e, _) => expr(e, f),
            Lval::Index(b, i) => {
                inner(b, f);
                expr(i, f);
            }
            Lval::Field(b, _, _) => inner(b, f),
        }
    }
    action_parts(a, &mut |p| match p {
        Part::Lval(lv) => lval(lv, f),
        Part::Expr(e) => expr(e, f),
    });
}

/// Calls `f` on every expression an action evaluates, subexpressions included (those inside
/// lvalues too: an index, a pointer being dereferenced, an address taken).
pub(crate) fn action_exprs(a: &Action, f: &mut dyn FnMut(&Expr)) {
    fn expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
        f(e);
        match e {
            Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => {}
            Expr::Load(lv) | Expr::AddrOf(lv) => lval(lv, f),
            Expr::Unary(_, x, _) | Expr::Cast(_, x) => expr(x, f),
            Expr::Binary(_, a, b, _) => {
                expr(a, f);
                expr(b, f);
            }
        }
    }
    fn lval(lv: &Lval, f: &mut dyn FnMut(&Expr)) {
        match lv {
            Lval::Var(_) => {}
            Lval::Deref(e, _) => expr(e, f),
            Lval::Index(b, i) => {
                lval(b, f);
                expr(i, f);
            }
            Lval::Field(b, _, _) => lval(b, f),
        }
    }
    action_parts(a, &mut |p| match p {
        Part::Lval(lv) => lval(lv, f),
        Part::Expr(e) => expr(e, f),
    });
}
