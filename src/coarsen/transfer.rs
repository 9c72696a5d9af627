//! Abstract semantics of IR actions in a numerical domain, over a location's local frame of
//! abstract locations. C's machine arithmetic is modelled soundly: a sub-expression whose
//! mathematical value may leave its type's range is replaced by the whole range, which holds
//! whatever it wraps to.

use crate::ir::{AbsLoc, Action, BinOp, Expr, Lval, Program, Ty, UnOp};
use domains::{Bound, CmpOp, Interval, NumDomain, NumExpr};

/// The abstract locations a location's state talks about, in increasing order; a location's
/// position in the list is its dimension.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Frame {
    /// The abstract locations.
    pub dims: Vec<AbsLoc>,
}

impl Frame {
    /// The dimension of an abstract location.
    pub(crate) fn pos(&self, a: AbsLoc) -> Option<usize> {
        self.dims.binary_search(&a).ok()
    }
}

/// The values a scalar type can hold.
pub(crate) fn type_range(prog: &Program, t: Ty) -> Interval {
    match t.range(prog.data_model) {
        Some((lo, hi)) => Interval::range(lo, hi),
        None => Interval::TOP,
    }
}

fn cmp_op(op: BinOp) -> Option<CmpOp> {
    Some(match op {
        BinOp::Lt => CmpOp::Lt,
        BinOp::Le => CmpOp::Le,
        BinOp::Gt => CmpOp::Gt,
        BinOp::Ge => CmpOp::Ge,
        BinOp::Eq => CmpOp::Eq,
        BinOp::Ne => CmpOp::Ne,
        _ => return None,
    })
}

/// Translates IR expressions under one abstract state.
pub(crate) struct Eval<'a, D: NumDomain> {
    /// The program.
    pub prog: &'a Program,
    /// The frame of the state.
    pub frame: &'a Frame,
    /// The state in which expressions are evaluated.
    pub st: &'a D,
}

impl<D: NumDomain> Eval<'_, D> {
    /// The dimensions an lvalue may designate, if all are in the frame.
    fn dims(&self, lv: &Lval) -> Option<Vec<usize>> {
        let ts = self.prog.memory.targets(self.prog, lv);
        if ts.is_empty() {
            return None;
        }
        ts.iter().map(|a| self.frame.pos(*a)).collect()
    }

    fn itv(&self, e: &NumExpr) -> Interval {
        self.st.eval_expr(e)
    }

    /// The value of arithmetic `e` computed in type `t`: `e` itself when it surely fits.
    /// Unsigned arithmetic wraps, so any value of the type is possible. Signed overflow is
    /// undefined behaviour, and the analysis covers executions without it: the result is `e`
    /// clamped to the type.
    fn fit(&self, t: Ty, e: NumExpr) -> NumExpr {
        let range = type_range(self.prog, t);
        if range.is_top() || self.itv(&e).leq(&range) {
            return e;
        }
        match (t, range.lo(), range.hi()) {
            (Ty::Int(i), Bound::Fin(lo), Bound::Fin(hi)) if i.signed => NumExpr::Max(Box::new(NumExpr::Min(Box::new(e), Box::new(NumExpr::cst(hi)))), Box::new(NumExpr::cst(lo))),
            _ => NumExpr::range(self.wrapped(t, &e)),
        }
    }

    /// The values `e` wraps to in type `t`: exact when its range covers less than one period
    /// and does not straddle a wrap point, else the whole type.
    fn wrapped(&self, t: Ty, e: &NumExpr) -> Interval {
        let range = type_range(self.prog, t);
        let dm = self.prog.data_model;
        match (self.itv(e).lo(), self.itv(e).hi(), range.lo(), range.hi()) {
            (Bound::Fin(a), Bound::Fin(b), Bound::Fin(lo), Bound::Fin(hi)) if b - a < hi - lo => {
                let (wa, wb) = (t.convert(a, dm), t.convert(b, dm));
                if wa <= wb {
                    Interval::range(wa, wb)
                } else {
                    range
                }
            }
            _ => range,
        }
    }

    /// A conversion to type `t`: out-of-range values wrap (implementation-defined for signed
    /// targets, and GCC wraps), so any value of the type is possible.
    fn convert(&self, t: Ty, e: NumExpr) -> NumExpr {
        let range = type_range(self.prog, t);
        if range.is_top() || self.itv(&e).leq(&range) {
            e
        } else {
            NumExpr::range(self.wrapped(t, &e))
        }
    }

    fn truth(&self, cond: &Expr) -> NumExpr {
        let (can_true, can_false) = may_hold(self.prog, self.frame, self.st, cond);
        match (can_true, can_false) {
            (true, false) => NumExpr::cst(1),
            (false, true) => NumExpr::cst(0),
            (false, false) => NumExpr::range(Interval::EMPTY),
            (true, true) => NumExpr::range(Interval::range(0, 1)),
        }
    }

    /// The numerical expression of an IR expression.
    pub(crate) fn num(&self, e: &Expr) -> NumExpr {
        let dm = self.prog.data_model;
        match e {
            Expr::Const(v, _) => NumExpr::cst(*v),
            Expr::Nondet(t) | Expr::Havoc(t, _) => NumExpr::range(type_range(self.prog, *t)),
            Expr::Load(lv) => match self.dims(lv).as_deref() {
                Some([d]) => NumExpr::var(*d),
                // One of several locations: any value any of them holds.
                Some(ds) => NumExpr::range(ds.iter().fold(Interval::EMPTY, |acc, d| acc.join(&self.st.bounds_of(*d)))),
                None => NumExpr::range(type_range(self.prog, self.prog.lval_type(lv).scalar(dm))),
            },
            Expr::AddrOf(_) => {
                let (_, hi) = Ty::Ptr.range(dm).expect("pointers have a range");
                NumExpr::range(Interval::range(1, hi))
            }
            Expr::Unary(UnOp::Neg, x, t) => self.fit(*t, NumExpr::Neg(Box::new(self.num(x)))),
            Expr::Unary(UnOp::BitNot, x, t) => self.fit(*t, NumExpr::Sub(Box::new(NumExpr::Neg(Box::new(self.num(x)))), Box::new(NumExpr::cst(1)))),
            Expr::Unary(UnOp::Not, x, _) => {
                let zero = Expr::Const(0, Ty::INT);
                self.truth(&Expr::Binary(BinOp::Eq, x.clone(), Box::new(zero), Ty::INT))
            }
            Expr::Binary(op, a, b, t) if op.is_comparison() => self.truth(&Expr::Binary(*op, a.clone(), b.clone(), *t)),
            Expr::Binary(op, a, b, t) => {
                if !t.is_integral() {
                    return NumExpr::range(type_range(self.prog, *t));
                }
                let (x, y) = (self.num(a), self.num(b));
                let bx = |e: NumExpr| Box::new(e);
                let r = match op {
                    BinOp::Add => NumExpr::Add(bx(x), bx(y)),
                    BinOp::Sub => NumExpr::Sub(bx(x), bx(y)),
                    BinOp::Mul => NumExpr::Mul(bx(x), bx(y)),
                    BinOp::Div => NumExpr::Div(bx(x), bx(y)),
                    BinOp::Rem => NumExpr::Rem(bx(x), bx(y)),
                    BinOp::Shl | BinOp::Shr => match self.itv(&y).as_point() {
                        Some(k) if (0..63).contains(&k) => {
                            let p = NumExpr::cst(1i128 << k);
                            if *op == BinOp::Shl {
                                // GCC defines the signed left shifts C11 leaves undefined:
                                // they wrap, as unsigned ones do, so no clamping here.
                                return self.convert(*t, NumExpr::Mul(bx(x), bx(p)));
                            } else if self.itv(&x).lo() >= Bound::Fin(0) {
                                // For non-negative values a right shift is a division.
                                NumExpr::Div(bx(x), bx(p))
                            } else {
                                return NumExpr::range(type_range(self.prog, *t));
                            }
                        }
                        _ => return NumExpr::range(type_range(self.prog, *t)),
                    },
                    BinOp::BitAnd => {
                        let (ix, iy) = (self.itv(&x), self.itv(&y));
                        let nonneg = |i: &Interval| i.lo() >= Bound::Fin(0);
                        // `x & m` lies in [0, m] when either side is non-negative.
                        let bound = match (nonneg(&ix), nonneg(&iy)) {
                            (true, true) => Some(ix.hi().min(iy.hi())),
                            (true, false) => Some(ix.hi()),
                            (false, true) => Some(iy.hi()),
                            _ => None,
                        };
                        match bound {
                            Some(Bound::Fin(h)) => NumExpr::range(Interval::range(0, h)),
                            _ => return NumExpr::range(type_range(self.prog, *t)),
                        }
                    }
                    BinOp::BitOr | BinOp::BitXor => {
                        let (ix, iy) = (self.itv(&x), self.itv(&y));
                        match (ix.lo(), ix.hi(), iy.lo(), iy.hi()) {
                            (Bound::Fin(l1), Bound::Fin(h1), Bound::Fin(l2), Bound::Fin(h2)) if l1 >= 0 && l2 >= 0 => {
                                let h = h1.max(h2);
                                let bits = 128 - h.leading_zeros();
                                NumExpr::range(Interval::range(0, (1i128 << bits) - 1))
                            }
                            _ => return NumExpr::range(type_range(self.prog, *t)),
                        }
                    }
                    _ => return NumExpr::range(type_range(self.prog, *t)),
                };
                self.fit(*t, r)
            }
            Expr::Cast(t, x) => {
                let inner = self.num(x);
                match t {
                    Ty::Bool => {
                        let i = self.itv(&inner);
                        if i.is_empty() {
                            NumExpr::range(Interval::EMPTY)
                        } else if !i.contains(0) {
                            NumExpr::cst(1)
                        } else if i.as_point() == Some(0) {
                            NumExpr::cst(0)
                        } else {
                            NumExpr::range(Interval::range(0, 1))
                        }
                    }
                    Ty::Float => NumExpr::range(Interval::TOP),
                    _ => self.convert(*t, inner),
                }
            }
        }
    }
}

/// Whether a condition may be true, and whether it may be false, in a state.
pub(crate) fn may_hold<D: NumDomain>(prog: &Program, frame: &Frame, st: &D, cond: &Expr) -> (bool, bool) {
    if st.is_bottom() {
        return (false, false);
    }
    let mut t = st.clone();
    guard(prog, frame, &mut t, cond, true);
    let mut f = st.clone();
    guard(prog, frame, &mut f, cond, false);
    (!t.is_bottom(), !f.is_bottom())
}

/// Restricts a state to where `cond` is non-zero (`truth`) or zero (`!truth`).
pub(crate) fn guard<D: NumDomain>(prog: &Program, frame: &Frame, st: &mut D, cond: &Expr, truth: bool) {
    if st.is_bottom() {
        return;
    }
    match cond {
        Expr::Binary(op, a, b, _) if op.is_comparison() => {
            let op = if truth { *op } else { op.negate_comparison().expect("comparison") };
            let ev = Eval { prog, frame, st: &*st };
            let (x, y) = (ev.num(a), ev.num(b));
            st.guard_expr(&x, cmp_op(op).expect("comparison"), &y);
        }
        Expr::Unary(UnOp::Not, x, _) => guard(prog, frame, st, x, !truth),
        e => {
            let ev = Eval { prog, frame, st: &*st };
            let x = ev.num(e);
            let op = if truth { CmpOp::Ne } else { CmpOp::Eq };
            st.guard_expr(&x, op, &NumExpr::cst(0));
        }
    }
}

/// The positions an assignment may write and whether the write is strong.
fn target(prog: &Program, frame: &Frame, lv: &Lval) -> Option<(Vec<usize>, bool)> {
    let ts = prog.memory.targets(prog, lv);
    let dims: Option<Vec<usize>> = ts.iter().map(|a| frame.pos(*a)).collect();
    let dims = dims.filter(|d| !d.is_empty())?;
    Some((dims, prog.memory.is_strong_write(prog, lv)))
}

fn store<D: NumDomain>(st: &mut D, (dims, strong): (Vec<usize>, bool), value: &NumExpr) {
    if strong && dims.len() == 1 {
        st.assign_expr(dims[0], value);
        return;
    }
    // A weak update: a summary, or one of several possible targets, keeps its old values too.
    for d in dims {
        let mut updated = st.clone();
        updated.assign_expr(d, value);
        st.join_with(&updated);
    }
}

/// Applies an action to the state before it, giving the state after it (for `assert`, the
/// state in which execution continues: the assertion held).
pub(crate) fn post<D: NumDomain>(prog: &Program, frame: &Frame, st: &mut D, action: &Action) {
    if st.is_bottom() {
        return;
    }
    match action {
        Action::Assign(lv, e) => {
            let Some(t) = target(prog, frame, lv) else { return };
            let value = Eval { prog, frame, st: &*st }.num(e);
            store(st, t, &value);
        }
        Action::Assume(c) | Action::Assert(_, c) => guard(prog, frame, st, c, true),
        Action::Alloc(lv, ..) => {
            if let Some(t) = target(prog, frame, lv) {
                let (_, hi) = Ty::Ptr.range(prog.data_model).expect("pointers have a range");
                store(st, t, &NumExpr::range(Interval::range(1, hi)));
            }
        }
        Action::Fork { handle: Some(h), .. } => {
            if let Some(t) = target(prog, frame, h) {
                let range = type_range(prog, prog.lval_type(h).scalar(prog.data_model));
                store(st, t, &NumExpr::range(range));
            }
        }
        Action::Halt(_) => *st = st.bottom_like(),
        _ => {}
    }
}
