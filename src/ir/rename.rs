//! Renaming the identifiers an action names, and comparing code up to a renaming of its
//! variables: the one structural answer to "is this the same code?" that COARSEN's symmetry
//! folding, the finite-state engine's interchangeable templates and its shared inlined copies
//! each ask (each adds its own conditions on top).

use super::*;

/// How [`rename_action`] maps each kind of identifier; what a renamer does not override is kept.
pub(crate) trait Renamer {
    /// The variable in place of `v`.
    fn var(&mut self, v: VarId) -> VarId;
    /// The approximation site in place of `a`.
    fn approx(&mut self, a: ApproxId) -> ApproxId {
        a
    }
    /// The assertion in place of `a`.
    fn assertion(&mut self, a: AssertId) -> AssertId {
        a
    }
    /// The allocation site in place of `a`.
    fn alloc(&mut self, a: AllocId) -> AllocId {
        a
    }
}

/// A renamer of variables alone, by a function.
pub(crate) struct Vars<F: FnMut(VarId) -> VarId>(pub F);

impl<F: FnMut(VarId) -> VarId> Renamer for Vars<F> {
    fn var(&mut self, v: VarId) -> VarId {
        (self.0)(v)
    }
}

/// `a` with its identifiers mapped by `r`, operands in evaluation order (the written lvalue of
/// an assignment first).
pub(crate) fn rename_action(a: &Action, r: &mut dyn Renamer) -> Action {
    match a {
        Action::Assign(lv, e) => {
            let lv = rename_lval(lv, r);
            Action::Assign(lv, rename_expr(e, r))
        }
        Action::Assume(e) => Action::Assume(rename_expr(e, r)),
        Action::Assert(id, e) => Action::Assert(r.assertion(*id), rename_expr(e, r)),
        Action::Alloc(lv, id, t) => {
            let lv = rename_lval(lv, r);
            Action::Alloc(lv, r.alloc(*id), t.clone())
        }
        Action::Acquire(lv) => Action::Acquire(rename_lval(lv, r)),
        Action::Release(lv) => Action::Release(rename_lval(lv, r)),
        Action::LockBusy(lv) => Action::LockBusy(rename_lval(lv, r)),
        Action::Join(e) => Action::Join(rename_expr(e, r)),
        Action::Fork { template, handle, arg } => {
            let handle = handle.as_ref().map(|h| rename_lval(h, r));
            Action::Fork { template: *template, handle, arg: arg.as_ref().map(|e| rename_expr(e, r)) }
        }
        Action::Skip | Action::AtomicBegin | Action::AtomicEnd | Action::Halt(_) => a.clone(),
    }
}

/// `lv` with its identifiers mapped by `r`.
pub(crate) fn rename_lval(lv: &Lval, r: &mut dyn Renamer) -> Lval {
    match lv {
        Lval::Var(v) => Lval::Var(r.var(*v)),
        Lval::Deref(e, t) => Lval::Deref(Box::new(rename_expr(e, r)), t.clone()),
        Lval::Index(b, i) => {
            let b = rename_lval(b, r);
            Lval::Index(Box::new(b), Box::new(rename_expr(i, r)))
        }
        Lval::Field(b, rec, k) => Lval::Field(Box::new(rename_lval(b, r)), *rec, *k),
    }
}

/// `e` with its identifiers mapped by `r`.
pub(crate) fn rename_expr(e: &Expr, r: &mut dyn Renamer) -> Expr {
    match e {
        Expr::Load(lv) => Expr::Load(rename_lval(lv, r)),
        Expr::AddrOf(lv) => Expr::AddrOf(rename_lval(lv, r)),
        Expr::Unary(op, x, t) => Expr::Unary(*op, Box::new(rename_expr(x, r)), *t),
        Expr::Binary(op, a, b, t) => {
            let a = rename_expr(a, r);
            Expr::Binary(*op, Box::new(a), Box::new(rename_expr(b, r)), *t)
        }
        Expr::Cast(t, x) => Expr::Cast(*t, Box::new(rename_expr(x, r))),
        Expr::Havoc(t, id) => Expr::Havoc(*t, r.approx(*id)),
        Expr::Const(..) | Expr::Nondet(_) => e.clone(),
    }
}

/// An action's shape: the action with every variable and approximation site (and, when asked,
/// every assertion and allocation number) masked, and its variables in visiting order. Two
/// actions are the same code up to a renaming exactly when their masked forms are equal and
/// their variable lists correspond position by position under that renaming.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Shape {
    /// The action with the masked identifiers all 0.
    pub masked: Action,
    /// The variables it names, in visiting order, with repeats.
    pub vars: Vec<VarId>,
}

/// Masks identifiers for [`Shape::of`], collecting the variables.
struct Mask {
    vars: Vec<VarId>,
    sites: bool,
}

impl Renamer for Mask {
    fn var(&mut self, v: VarId) -> VarId {
        self.vars.push(v);
        VarId(0)
    }
    fn approx(&mut self, _: ApproxId) -> ApproxId {
        ApproxId(0)
    }
    fn assertion(&mut self, a: AssertId) -> AssertId {
        if self.sites {
            AssertId(0)
        } else {
            a
        }
    }
    fn alloc(&mut self, a: AllocId) -> AllocId {
        if self.sites {
            AllocId(0)
        } else {
            a
        }
    }
}

impl Shape {
    /// The shape of `a`; `sites` masks assertion and allocation numbers too (inlined copies of
    /// one assertion differ only there).
    pub(crate) fn of(a: &Action, sites: bool) -> Shape {
        let mut m = Mask { vars: Vec::new(), sites };
        let masked = rename_action(a, &mut m);
        Shape { masked, vars: m.vars }
    }

    /// Whether `other` is this shape's code with each variable `x` renamed to `y` where
    /// `same(x, y)` holds, position by position.
    pub(crate) fn matches(&self, other: &Shape, same: &mut dyn FnMut(VarId, VarId) -> bool) -> bool {
        self.masked == other.masked && self.vars.len() == other.vars.len() && self.vars.iter().zip(&other.vars).all(|(&x, &y)| same(x, y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(v: u32) -> Expr {
        Expr::Load(Lval::Var(VarId(v)))
    }

    #[test]
    fn shapes_agree_exactly_up_to_a_renaming() {
        let add = |x: u32, y: u32| Action::Assign(Lval::Var(VarId(x)), Expr::Binary(BinOp::Add, Box::new(load(y)), Box::new(Expr::int(1)), Ty::INT));
        let (a, b, c) = (Shape::of(&add(1, 2), false), Shape::of(&add(5, 6), false), Shape::of(&add(5, 5), false));
        assert_eq!(a.vars, vec![VarId(1), VarId(2)]);
        let mut map = std::collections::HashMap::new();
        assert!(a.matches(&b, &mut |x, y| *map.entry(x).or_insert(y) == y));
        // `x := x + 1` is not `x := y + 1`: the renaming must be a function.
        let mut map = std::collections::HashMap::new();
        assert!(!c.matches(&a, &mut |x, y| *map.entry(x).or_insert(y) == y));
        let sub = Action::Assign(Lval::Var(VarId(1)), Expr::Binary(BinOp::Sub, Box::new(load(2)), Box::new(Expr::int(1)), Ty::INT));
        assert!(!a.matches(&Shape::of(&sub, false), &mut |_, _| true));
    }

    #[test]
    fn sites_are_masked_only_when_asked() {
        let (x, y) = (Action::Assert(AssertId(3), load(1)), Action::Assert(AssertId(4), load(1)));
        assert_ne!(Shape::of(&x, false), Shape::of(&y, false));
        assert_eq!(Shape::of(&x, true), Shape::of(&y, true));
        let (h, k) = (Action::Assume(Expr::Havoc(Ty::INT, ApproxId(1))), Action::Assume(Expr::Havoc(Ty::INT, ApproxId(9))));
        assert_eq!(Shape::of(&h, false), Shape::of(&k, false));
    }
}
