//! Accesses through pointers that can only reach one variable, made direct for the projection.
//!
//! The projection tracks no variable whose address is taken ([`super::model`]): memory could
//! reach it unseen. Many programs take an address only to hand it to a helper that is inlined
//! (`tas(&lock, &cond)` with `*o = *v; *v = 1;`), so the flag and the value read would be
//! lost, and with them the test-and-set that Section 5's exception family is built on. When
//! the points-to analysis shows that every access that may reach such a variable designates
//! exactly it, each of those accesses is the variable itself, and the projection may read it
//! as one: [`direct`] rewrites them and clears the variable's address-taken mark in a copy of
//! the program that only the finite-state engine sees (locations, assertions and variables
//! keep their numbers).
//!
//! A local's address names the copy of the thread that took it; the rewrite makes `*p` the
//! *stepping* thread's copy, so a local qualifies only when no other thread can hold its
//! address: every pointer that may hold it is a non-escaping local of its own template that
//! no thread creation writes (not a start routine's parameter).

use crate::ir::memory::AbsKind;
use crate::ir::{Action, CType, Expr, Lval, Program, Ty, VarId, VarKind};
use std::collections::HashSet;

/// The program with every access through a pointer that designates exactly one qualifying
/// variable made direct, or `None` when no variable qualifies.
pub fn direct(prog: &Program) -> Option<Program> {
    let mem = &prog.memory;
    let params: HashSet<VarId> = prog.templates.iter().flat_map(|t| t.params.iter().copied()).collect();
    let mut cand: HashSet<VarId> = HashSet::new();
    for (vi, var) in prog.vars.iter().enumerate() {
        let v = VarId(vi as u32);
        if !var.addr_taken || !var.ty.is_scalar() || matches!(var.ty, CType::Float(_)) || mem.escapes(prog, v) {
            continue;
        }
        let ok = match var.kind {
            VarKind::Global => true,
            VarKind::ThreadLocal => false,
            VarKind::Local(t) | VarKind::Temp(t) => mem.holders_of(v).iter().all(|k| match k {
                AbsKind::Var(p) => {
                    let pv = prog.var(*p);
                    !pv.addr_taken && !params.contains(p) && matches!(pv.kind, VarKind::Local(u) | VarKind::Temp(u) if u == t)
                }
                _ => false,
            }),
        };
        if ok {
            cand.insert(v);
        }
    }
    if cand.is_empty() {
        return None;
    }
    // Any access that may reach a candidate without designating exactly it (one target among
    // several, part of a wider access, a different type) disqualifies the candidate.
    let exact = |lv: &Lval| -> Option<VarId> {
        let Lval::Deref(_, ty) = lv else { return None };
        let v = mem.exact_var(prog, lv)?;
        (ty.scalar(prog.data_model) == prog.var(v).ty.scalar(prog.data_model)).then_some(v)
    };
    for loc in &prog.locs {
        // A lock action's lvalue is left as it is (the projection models locks by their own
        // cells), so whatever it may reach is not made direct.
        let lock = matches!(loc.action, Action::Acquire(_) | Action::Release(_) | Action::LockBusy(_));
        crate::ir::visit::action_lvals(&loc.action, &mut |lv| {
            if matches!(lv, Lval::Var(_)) {
                return;
            }
            let hit = if lock { None } else { exact(lv) };
            for v in mem.reached_vars(prog, lv) {
                if hit != Some(v) {
                    cand.remove(&v);
                }
            }
        });
    }
    if cand.is_empty() {
        return None;
    }
    let mut out = prog.clone();
    for loc in &mut out.locs {
        let mut action = loc.action.clone();
        let rw = Rewrite { cand: &cand, exact: &|lv: &Lval| exact(lv).filter(|v| cand.contains(v)) };
        rw.action(&mut action);
        loc.action = action;
    }
    for &v in &cand {
        out.vars[v.index()].addr_taken = false;
    }
    Some(out)
}

/// The candidates, and the variable an lvalue designates exactly when it is one of them.
struct Rewrite<'a> {
    cand: &'a HashSet<VarId>,
    exact: &'a dyn Fn(&Lval) -> Option<VarId>,
}

impl Rewrite<'_> {
    fn action(&self, a: &mut Action) {
        match a {
            Action::Assign(lv, e) => {
                self.lval(lv);
                self.expr(e);
            }
            Action::Assume(e) | Action::Assert(_, e) | Action::Join(e) => self.expr(e),
            Action::Alloc(lv, ..) => self.lval(lv),
            Action::Fork { handle, arg, .. } => {
                if let Some(h) = handle {
                    self.lval(h);
                }
                if let Some(e) = arg {
                    self.expr(e);
                }
            }
            // Locks are not scalar variables: their lvalues stay as they are.
            Action::Acquire(_) | Action::Release(_) | Action::LockBusy(_) | Action::Skip | Action::AtomicBegin | Action::AtomicEnd | Action::Halt(_) => {}
        }
    }

    fn expr(&self, e: &mut Expr) {
        match e {
            Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => {}
            Expr::Load(lv) => self.lval(lv),
            // The projection would not track a variable whose address it sees taken, and it
            // tracks no pointer into one: the address becomes any pointer.
            Expr::AddrOf(Lval::Var(v)) if self.cand.contains(v) => *e = Expr::Nondet(Ty::Ptr),
            // An address is no access: only what evaluating it reads.
            Expr::AddrOf(lv) => self.inner(lv),
            Expr::Unary(_, x, _) | Expr::Cast(_, x) => self.expr(x),
            Expr::Binary(_, a, b, _) => {
                self.expr(a);
                self.expr(b);
            }
        }
    }

    fn lval(&self, lv: &mut Lval) {
        match (self.exact)(lv) {
            Some(v) => *lv = Lval::Var(v),
            None => self.inner(lv),
        }
    }

    fn inner(&self, lv: &mut Lval) {
        match lv {
            Lval::Var(_) => {}
            Lval::Deref(e, _) => self.expr(e),
            Lval::Index(b, i) => {
                self.inner(b);
                self.expr(i);
            }
            Lval::Field(b, _, _) => self.inner(b),
        }
    }
}
