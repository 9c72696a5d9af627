//! Lowering of C expressions: side effects become actions, values become pure [`Expr`]s.

use super::{Fatal, Lowerer};
use crate::ir::*;
use lang_c::ast::*;
use lang_c::span::Node;

/// A lowered value with its C type.
#[derive(Clone, Debug)]
pub(in crate::frontend) struct Val {
    pub e: Expr,
    pub ty: CType,
}

const LONG_SIGNED: Ty = Ty::Int(IntTy { bits: 64, signed: true });

pub(in crate::frontend) use crate::frontend::ctypes::{common, promote};

/// The integer type of a C type for arithmetic, if it has one.
fn int_of(t: &CType) -> Option<IntTy> {
    match t {
        CType::Bool => Some(IntTy { bits: 8, signed: false }),
        CType::Int(i, _) => Some(*i),
        _ => None,
    }
}

pub(super) fn int_ctype(t: IntTy) -> CType {
    let name = match (t.bits, t.signed) {
        (8, true) => "signed char",
        (8, false) => "unsigned char",
        (16, true) => "short",
        (16, false) => "unsigned short",
        (32, true) => "int",
        (32, false) => "unsigned int",
        (64, true) => "long",
        _ => "unsigned long",
    };
    CType::Int(t, name.into())
}

/// Whether an expression contains control flow or side effects that a single pure
/// expression cannot represent.
pub(in crate::frontend) fn has_control_flow(e: &Expression) -> bool {
    match e {
        Expression::Call(_) | Expression::Comma(_) | Expression::Conditional(_) | Expression::Statement(_) => true,
        Expression::BinaryOperator(b) => {
            use BinaryOperator::*;
            matches!(
                b.node.operator.node,
                LogicalAnd
                    | LogicalOr
                    | Assign
                    | AssignMultiply
                    | AssignDivide
                    | AssignModulo
                    | AssignPlus
                    | AssignMinus
                    | AssignShiftLeft
                    | AssignShiftRight
                    | AssignBitwiseAnd
                    | AssignBitwiseXor
                    | AssignBitwiseOr
            ) || has_control_flow(&b.node.lhs.node)
                || has_control_flow(&b.node.rhs.node)
        }
        Expression::UnaryOperator(u) => {
            use UnaryOperator::*;
            matches!(u.node.operator.node, PostIncrement | PostDecrement | PreIncrement | PreDecrement) || has_control_flow(&u.node.operand.node)
        }
        Expression::Cast(c) => has_control_flow(&c.node.expression.node),
        Expression::Member(m) => has_control_flow(&m.node.expression.node),
        _ => false,
    }
}

impl<'a> Lowerer<'a> {
    /// The value of an expression (arrays decay to pointers).
    pub(crate) fn rvalue(&mut self, e: &'a Node<Expression>) -> Result<Expr, Fatal> {
        Ok(self.value(e)?.e)
    }

    /// The value of an expression with its type; `void` expressions give an unknown value.
    pub(crate) fn value(&mut self, e: &'a Node<Expression>) -> Result<Val, Fatal> {
        match self.expr(e, true)? {
            Some(v) => Ok(v),
            None => Ok(Val { e: self.havoc(Ty::INT, "the value of a `void` expression", self.span(e.span)), ty: CType::int() }),
        }
    }

    /// Evaluates an expression for its side effects only.
    pub(crate) fn effect(&mut self, e: &'a Node<Expression>) -> Result<(), Fatal> {
        self.expr(e, false).map(|_| ())
    }

    /// Converts a value to a type, making C's implicit conversion explicit.
    pub(crate) fn convert(&self, v: Val, to: &CType) -> Expr {
        let dm = self.dm();
        let target = to.scalar(dm);
        let source = v.ty.scalar(dm);
        if target == source || matches!(to, CType::Record(_) | CType::Void) {
            return v.e;
        }
        if let Expr::Const(c, _) = v.e {
            return Expr::Const(target.convert(c, dm), target);
        }
        match (source, target) {
            // A pointer stays a pointer whatever it points to.
            (Ty::Ptr, Ty::Ptr) => v.e,
            (_, Ty::Float) | (Ty::Float, _) => self.havoc(target, "a floating-point conversion", self.last_span()),
            (Ty::Ptr, _) => {
                self.address_as_integer.set(true);
                Expr::Cast(target, Box::new(v.e))
            }
            _ => Expr::Cast(target, Box::new(v.e)),
        }
    }

    fn load(&mut self, lv: Lval, ty: CType) -> Val {
        match ty {
            CType::Array(elem, _) => {
                // An array used as a value decays to the address of its first element (not
                // of the array: arithmetic on it counts in elements).
                self.mark_addr_taken(&lv);
                let first = Lval::Index(Box::new(lv), Box::new(Expr::Const(0, LONG_SIGNED)));
                Val { e: Expr::AddrOf(first), ty: CType::Pointer(elem) }
            }
            CType::Function => Val { e: Expr::Nondet(Ty::Ptr), ty: CType::Pointer(Box::new(CType::Function)) },
            ty if lv.through_union(&self.types.records) && ty.is_scalar() => {
                // A union member may hold what another member of its size wrote: the value
                // is reinterpreted in the member's type.
                let t = ty.scalar(self.dm());
                Val { e: Expr::Cast(t, Box::new(Expr::Load(lv))), ty }
            }
            ty => Val { e: Expr::Load(lv), ty },
        }
    }

    /// The type a bit-field's value has in arithmetic, as GCC types it: a field narrower than
    /// `int` promotes to `int` whatever its declared signedness (C11 6.3.1.1: `int` holds
    /// every value of the field), so `s.u3 - 1 < 0` holds; a field of a wider type that is 32
    /// bits wide computes in 32 bits. GCC computes on a field of 33 to 63 bits modulo its
    /// width, which the IR's integer types cannot express: an unsupported construct.
    fn bit_field_value(&mut self, lv: &Lval, v: Val, at: lang_c::span::Span) -> Val {
        let Lval::Field(_, r, i) = lv else { return v };
        let (Some(&w), CType::Int(it, _)) = (self.types.bit_widths.get(&(*r, *i as usize)), &v.ty) else { return v };
        let w = u32::from(w);
        if w < 32 {
            let to = CType::int();
            return Val { e: self.convert(v, &to), ty: to };
        }
        if w == 32 {
            let to = int_ctype(IntTy { bits: 32, signed: it.signed });
            return Val { e: self.convert(v, &to), ty: to };
        }
        if w < u32::from(it.bits) {
            self.unsupported(at, "the value of a bit-field wider than 32 bits and narrower than its type (GCC computes on it modulo its width)");
        }
        v
    }

    /// Lowers an expression; returns its value when `want` is set and it has one.
    pub(crate) fn expr(&mut self, e: &'a Node<Expression>, want: bool) -> Result<Option<Val>, Fatal> {
        let span = self.span(e.span);
        Ok(Some(match &e.node {
            Expression::Identifier(id) => {
                let name = id.node.name.as_str();
                if let Some(v) = self.lookup(name) {
                    let ty = self.vars[v.index()].ty.clone();
                    self.load(Lval::Var(v), ty)
                } else if let Some((c, ty)) = self.types.enum_const(name) {
                    let t = ty.scalar(self.dm());
                    Val { e: Expr::Const(c, t), ty }
                } else if self.functions.contains_key(name) || self.prototypes.contains_key(name) {
                    self.function_value(name)
                } else if matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__") {
                    // The enclosing function's name, as a string literal.
                    let f = self.frames.last().map(|f| f.name.clone()).unwrap_or_default();
                    self.string_literal(&[format!("\"{f}\"")], span)
                } else {
                    return Err(self.error(e.span, format!("use of undeclared identifier `{name}`")));
                }
            }
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => match super::super::ctypes::parse_integer(i) {
                    Some((v, ty)) => {
                        let t = ty.scalar(self.dm());
                        Val { e: Expr::Const(v, t), ty }
                    }
                    None => return Err(self.error(e.span, "integer constant is too large")),
                },
                Constant::Character(s) => match super::super::ctypes::parse_char(s) {
                    Some(v) => Val { e: Expr::Const(v, Ty::INT), ty: CType::int() },
                    None => return Err(self.error(e.span, format!("unsupported character constant {s}"))),
                },
                Constant::Float(f) => Val { e: Expr::Nondet(Ty::Float), ty: self.float_constant_type(f) },
            },
            Expression::StringLiteral(parts) => self.string_literal(&parts.node, span),
            Expression::Member(_) => {
                let (lv, ty) = self.lvalue(e)?;
                let v = self.load(lv.clone(), ty);
                self.bit_field_value(&lv, v, e.span)
            }
            Expression::Call(c) => return self.call(&c.node, e.span, want),
            Expression::SizeOfTy(t) => {
                let ty = self.type_name_at(&t.node.0, e.span)?;
                self.size_of_at(&ty, e.span)
            }
            Expression::SizeOfVal(x) => {
                self.untyped = false;
                let ty = self.static_type(&x.node.0.node);
                if std::mem::take(&mut self.untyped) {
                    return self.unsupported_value(e, "`sizeof` of an expression whose type is not resolved");
                }
                self.size_of_at(&ty, e.span)
            }
            Expression::AlignOf(t) => {
                let ty = self.type_name_at(&t.node.0, e.span)?;
                let align = self.types.type_name_align(&t.node.0.node, &ty).max(1);
                Val { e: Expr::Const(align as i128, Ty::Int(IntTy { bits: 64, signed: false })), ty: int_ctype(IntTy { bits: 64, signed: false }) }
            }
            Expression::UnaryOperator(u) => return self.unary(&u.node, e, want),
            Expression::Cast(c) => return self.cast(&c.node, e, span),
            Expression::BinaryOperator(b) => return self.binary(&b.node, e, want),
            Expression::Conditional(c) => return self.conditional(&c.node, want, span),
            Expression::Comma(items) => {
                let n = items.len();
                for (i, it) in items.iter().enumerate() {
                    if i + 1 < n {
                        self.effect(it)?;
                    } else {
                        return self.expr(it, want);
                    }
                }
                return Ok(None);
            }
            Expression::Statement(s) => return self.statement_expr(s, want),
            Expression::GenericSelection(_) => return self.unsupported_value(e, "_Generic selection"),
            Expression::CompoundLiteral(cl) => {
                // An unnamed object with automatic storage, initialised like a declaration
                // with a braced list: members left out are zero.
                let ty = match self.type_name_at(&cl.node.type_name, e.span)? {
                    CType::Array(elem, None) => CType::Array(elem, Some(self.list_length(&cl.node.initializer_list) as u64)),
                    ty => ty,
                };
                let kind = if self.frames.is_empty() { VarKind::Global } else { VarKind::Local(self.tpl) };
                let v = self.new_var("$literal", ty.clone(), kind, Some(span));
                self.zero_fill(Lval::Var(v), &ty, span);
                self.initialize_list(Lval::Var(v), &ty, &cl.node.initializer_list, e.span, span)?;
                self.load(Lval::Var(v), ty)
            }
            // The memory gives every scalar one slot, so `offsetof` counts slots, not bytes.
            Expression::OffsetOf(_) if !self.slot_offset => {
                return self.unsupported_value(
                    e,
                    "the value of `offsetof` as a number (the memory model counts slots, not bytes; it is exact only as the offset of a character pointer, as in `container_of`)",
                )
            }
            Expression::OffsetOf(o) => self.offset_of(o, e.span)?,
            Expression::VaArg(_) => return self.unsupported_value(e, "va_arg"),
        }))
    }

    /// A cast: to `void` an effect only; a pointer seen at a new pointee type is held in a
    /// temporary of that type.
    fn cast(&mut self, c: &'a CastExpression, e: &'a Node<Expression>, span: Span) -> Result<Option<Val>, Fatal> {
        let ty = self.type_name_at(&c.type_name, e.span)?;
        if matches!(ty, CType::Void) {
            self.effect(&c.expression)?;
            return Ok(None);
        }
        if let CType::Pointer(to) = &ty {
            if !is_byte_type(to) && self.byte_offset(&c.expression.node) {
                self.unsupported(e.span, "an address offset in bytes through a character pointer, converted to a pointer to a wider type");
            }
        }
        // The classic `offsetof`, `(size_t)&((T *)0)->m`, is a slot count here too.
        if int_of(&ty).is_some() && !self.slot_offset && null_member_address(&c.expression.node) {
            return self.unsupported_value(
                e,
                "the value of `(size_t)&((T *)0)->m` (offsetof) as a number (the memory model counts slots, not bytes; it is exact only as the offset of a character pointer, as in `container_of`)",
            );
        }
        let v = self.value(&c.expression)?;
        let retyped = match (&ty, &v.ty) {
            (CType::Pointer(to), CType::Pointer(from) | CType::Array(from, _)) => to != from && !matches!(**to, CType::Function),
            _ => false,
        };
        let conv = self.convert(v, &ty);
        Ok(Some(if retyped && !matches!(conv, Expr::Const(..)) && self.live() {
            // The IR keeps no pointee type on a pointer cast, and engines scale
            // pointer arithmetic by the pointee of the operand's own type: a pointer
            // seen at a new type (`(char *)p - off` in `container_of`) is held in a
            // temporary of that type.
            let t = self.temp(ty.clone());
            self.emit(Action::Assign(Lval::Var(t), conv), span);
            Val { e: Expr::Load(Lval::Var(t)), ty }
        } else {
            Val { e: conv, ty }
        }))
    }

    /// `c ? a : b`: a temporary assigned on each branch, converted to their common type.
    fn conditional(&mut self, c: &'a ConditionalExpression, want: bool, span: Span) -> Result<Option<Val>, Fatal> {
        if !want {
            let (t, f) = self.cond(&c.condition)?;
            self.cur = t;
            self.effect(&c.then_expression)?;
            let after = std::mem::take(&mut self.cur);
            self.cur = f;
            self.effect(&c.else_expression)?;
            self.cur.extend(after);
            return Ok(None);
        }
        let (t, f) = self.cond(&c.condition)?;
        self.cur = t;
        let a = self.value(&c.then_expression)?;
        let a_cur = std::mem::take(&mut self.cur);
        self.cur = f;
        let b = self.value(&c.else_expression)?;
        let ty = match (int_of(&a.ty), int_of(&b.ty)) {
            (Some(x), Some(y)) => int_ctype(common(x, y)),
            _ => a.ty.clone(),
        };
        let tmp = self.temp(ty.clone());
        let bconv = self.convert(b, &ty);
        self.emit(Action::Assign(Lval::Var(tmp), bconv), span);
        let b_cur = std::mem::take(&mut self.cur);
        self.cur = a_cur;
        let aconv = self.convert(a, &ty);
        self.emit(Action::Assign(Lval::Var(tmp), aconv), span);
        self.cur.extend(b_cur);
        Ok(Some(Val { e: Expr::Load(Lval::Var(tmp)), ty }))
    }

    fn unsupported_value(&mut self, e: &Node<Expression>, what: &str) -> Result<Option<Val>, Fatal> {
        self.unsupported(e.span, what);
        Ok(Some(Val { e: Expr::Nondet(Ty::INT), ty: CType::int() }))
    }

    /// Whether `e` moves a character (or `void`) pointer by an integer the memory model
    /// cannot scale: every scalar takes one slot, so `(char *)&s + 4` does not reach the
    /// `int` after the first. Offsets that are themselves addresses (`offsetof`, the classic
    /// `(size_t)&((T *)0)->m` of `container_of`) count slots and are exact; 0 moves nothing.
    fn byte_offset(&mut self, e: &Expression) -> bool {
        match e {
            Expression::Cast(c) => self.byte_offset(&c.node.expression.node),
            Expression::BinaryOperator(b) => match self.byte_pointer_offset(&b.node) {
                Some(offset) => !counts_slots(offset) && self.types.const_eval(offset) != Some(0),
                None => false,
            },
            _ => false,
        }
    }

    /// In `p + k`, `k + p` or `p - k` with `p` a character (or `void`) pointer and `k` an
    /// integer: `k`, which the memory model reads as a count of slots.
    fn byte_pointer_offset<'e>(&mut self, b: &'e BinaryOperatorExpression) -> Option<&'e Expression> {
        if !matches!(b.operator.node, BinaryOperator::Plus | BinaryOperator::Minus) {
            return None;
        }
        let (l, r) = (&b.lhs.node, &b.rhs.node);
        let lt = self.static_type(l);
        let rt = self.static_type(r);
        match (lt.pointee(), rt.pointee()) {
            (Some(p), None) if is_byte_type(p) => Some(r),
            (None, Some(p)) if is_byte_type(p) => Some(l),
            _ => None,
        }
    }

    /// `sizeof` of a type. A variable-length array's size is only known at run time, which
    /// the IR does not keep: its constant would be 0, so the construct is not analysed.
    fn size_of_at(&mut self, ty: &CType, at: lang_c::span::Span) -> Val {
        let mut t = ty;
        while let CType::Array(e, n) = t {
            if n.is_none() {
                self.unsupported(at, "`sizeof` of a variable-length array");
                break;
            }
            t = e;
        }
        self.size_const(ty)
    }

    fn size_const(&self, ty: &CType) -> Val {
        let t = IntTy { bits: if self.dm() == DataModel::ILP32 { 32 } else { 64 }, signed: false };
        Val { e: Expr::Const(self.types.size_of(ty) as i128, Ty::Int(t)), ty: int_ctype(t) }
    }

    /// A GNU statement expression `({ ...; e; })`: its value is that of the last statement.
    fn statement_expr(&mut self, s: &'a Node<Statement>, want: bool) -> Result<Option<Val>, Fatal> {
        let Statement::Compound(items) = &s.node else {
            self.stmt(s)?;
            return Ok(None);
        };
        self.push_scope();
        let n = items.len();
        let mut result = None;
        for (i, item) in items.iter().enumerate() {
            match &item.node {
                BlockItem::Statement(st) if i + 1 == n && want => {
                    if let Statement::Expression(Some(x)) = &st.node {
                        result = self.expr(x, true)?;
                    } else {
                        self.stmt(st)?;
                    }
                }
                BlockItem::Statement(st) => self.stmt(st)?,
                BlockItem::Declaration(d) => self.local_declaration(d)?,
                BlockItem::StaticAssert(_) => {}
            }
        }
        self.pop_scope();
        Ok(result)
    }

    fn unary(&mut self, u: &'a UnaryOperatorExpression, whole: &'a Node<Expression>, want: bool) -> Result<Option<Val>, Fatal> {
        use UnaryOperator::*;
        let span = self.span(whole.span);
        Ok(Some(match u.operator.node {
            PostIncrement | PostDecrement | PreIncrement | PreDecrement => {
                let delta = if matches!(u.operator.node, PostIncrement | PreIncrement) { BinOp::Add } else { BinOp::Sub };
                let post = matches!(u.operator.node, PostIncrement | PostDecrement);
                return self.inc_dec(&u.operand, delta, post, want, span);
            }
            Address => {
                if let Expression::Identifier(id) = &u.operand.node {
                    if self.lookup(&id.node.name).is_none() && (self.functions.contains_key(&id.node.name) || self.prototypes.contains_key(&id.node.name)) {
                        return Ok(Some(self.function_value(&id.node.name)));
                    }
                }
                let (lv, ty) = self.lvalue(&u.operand)?;
                self.mark_addr_taken(&lv);
                Val { e: Expr::AddrOf(lv), ty: CType::Pointer(Box::new(ty)) }
            }
            Indirection => {
                let p = self.value(&u.operand)?;
                match p.ty.pointee().cloned() {
                    Some(CType::Function) => p,
                    Some(t) => self.load(Lval::Deref(Box::new(p.e), t.clone()), t),
                    None => return Err(self.error(whole.span, "dereference of a value that is not a pointer")),
                }
            }
            Plus | Minus | Complement => {
                let v = self.value(&u.operand)?;
                let Some(it) = int_of(&v.ty) else {
                    return Ok(Some(Val { e: self.havoc(v.ty.scalar(self.dm()), "floating-point arithmetic", span), ty: v.ty }));
                };
                let pt = promote(it);
                let ty = int_ctype(pt);
                let arg = self.convert(v, &ty);
                match u.operator.node {
                    Plus => Val { e: arg, ty },
                    Minus => Val { e: fold_unary(UnOp::Neg, arg, Ty::Int(pt)), ty },
                    _ => Val { e: fold_unary(UnOp::BitNot, arg, Ty::Int(pt)), ty },
                }
            }
            Negate => {
                let v = self.value(&u.operand)?;
                Val { e: fold_unary(UnOp::Not, v.e, Ty::INT), ty: CType::int() }
            }
        }))
    }

    /// `x++`, `++x`, `x--`, `--x`.
    fn inc_dec(&mut self, operand: &'a Node<Expression>, op: BinOp, post: bool, want: bool, span: Span) -> Result<Option<Val>, Fatal> {
        let (lv, ty) = self.lvalue(operand)?;
        let lv = self.stabilize(lv, span);
        let atomic = self.atomic_rmw(&lv, operand.span);
        if atomic {
            self.emit(Action::AtomicBegin, span);
        }
        let one = Val { e: Expr::int(1), ty: CType::int() };
        let old = Val { e: Expr::Load(lv.clone()), ty: ty.clone() };
        if !want {
            let new = self.arith(op, old, one);
            let conv = self.convert(new, &ty);
            self.emit(Action::Assign(lv, conv), span);
            if atomic {
                self.emit(Action::AtomicEnd, span);
            }
            return Ok(None);
        }
        let tmp = self.temp(ty.clone());
        if post {
            self.emit(Action::Assign(Lval::Var(tmp), old.e), span);
            let new = self.arith(op, Val { e: Expr::Load(Lval::Var(tmp)), ty: ty.clone() }, one);
            let conv = self.convert(new, &ty);
            self.emit(Action::Assign(lv, conv), span);
        } else {
            let new = self.arith(op, old, one);
            let conv = self.convert(new, &ty);
            self.emit(Action::Assign(Lval::Var(tmp), conv), span);
            self.emit(Action::Assign(lv, Expr::Load(Lval::Var(tmp))), span);
        }
        if atomic {
            self.emit(Action::AtomicEnd, span);
        }
        Ok(Some(Val { e: Expr::Load(Lval::Var(tmp)), ty }))
    }

    /// Evaluates the address parts of an lvalue once, so that reading and then writing it
    /// does not read a pointer or an index twice.
    pub(crate) fn stabilize(&mut self, lv: Lval, span: Span) -> Lval {
        match lv {
            Lval::Var(_) => lv,
            Lval::Deref(p, t) => {
                let p = self.snapshot(*p, span);
                Lval::Deref(Box::new(p), t)
            }
            Lval::Index(b, i) => {
                let b = self.stabilize(*b, span);
                let i = self.snapshot(*i, span);
                Lval::Index(Box::new(b), Box::new(i))
            }
            Lval::Field(b, r, i) => Lval::Field(Box::new(self.stabilize(*b, span)), r, i),
        }
    }

    fn snapshot(&mut self, e: Expr, span: Span) -> Expr {
        match &e {
            Expr::Const(..) => e,
            Expr::Load(Lval::Var(v)) if matches!(self.vars[v.index()].kind, VarKind::Temp(_)) => e,
            Expr::AddrOf(Lval::Var(_)) => e,
            _ => {
                let ty = self.expr_ctype(&e);
                let t = self.temp(ty);
                self.emit(Action::Assign(Lval::Var(t), e), span);
                Expr::Load(Lval::Var(t))
            }
        }
    }

    fn binary(&mut self, b: &'a BinaryOperatorExpression, whole: &'a Node<Expression>, want: bool) -> Result<Option<Val>, Fatal> {
        use BinaryOperator::*;
        let span = self.span(whole.span);
        let op = b.operator.node.clone();
        match op {
            Assign => {
                let (lv, ty) = self.lvalue(&b.lhs)?;
                if matches!(ty, CType::Record(_)) {
                    let (src, _) = self.lvalue(&b.rhs)?;
                    self.copy_aggregate(lv.clone(), src, &ty, span);
                    return Ok(want.then_some(Val { e: Expr::Nondet(Ty::Ptr), ty }));
                }
                if matches!(ty, CType::Mutex | CType::Opaque(_)) {
                    self.effect(&b.rhs)?;
                    return Ok(None);
                }
                let rhs = self.value(&b.rhs)?;
                let mut val = self.convert(rhs, &ty);
                if want && !is_stable(&val) {
                    let t = self.temp(ty.clone());
                    self.emit(Action::Assign(Lval::Var(t), val), span);
                    val = Expr::Load(Lval::Var(t));
                }
                self.emit(Action::Assign(lv, val.clone()), span);
                Ok(Some(Val { e: val, ty }))
            }
            AssignMultiply | AssignDivide | AssignModulo | AssignPlus | AssignMinus | AssignShiftLeft | AssignShiftRight | AssignBitwiseAnd | AssignBitwiseXor | AssignBitwiseOr => {
                let bop = match op {
                    AssignMultiply => BinOp::Mul,
                    AssignDivide => BinOp::Div,
                    AssignModulo => BinOp::Rem,
                    AssignPlus => BinOp::Add,
                    AssignMinus => BinOp::Sub,
                    AssignShiftLeft => BinOp::Shl,
                    AssignShiftRight => BinOp::Shr,
                    AssignBitwiseAnd => BinOp::BitAnd,
                    AssignBitwiseXor => BinOp::BitXor,
                    _ => BinOp::BitOr,
                };
                let (lv, ty) = self.lvalue(&b.lhs)?;
                let lv = self.stabilize(lv, span);
                let rhs = self.value(&b.rhs)?;
                // The operand is evaluated first; only the read and the write are atomic.
                let atomic = self.atomic_rmw(&lv, b.lhs.span);
                if atomic {
                    self.emit(Action::AtomicBegin, span);
                }
                let new = self.arith(bop, Val { e: Expr::Load(lv.clone()), ty: ty.clone() }, rhs);
                let mut val = self.convert(new, &ty);
                if want {
                    let t = self.temp(ty.clone());
                    self.emit(Action::Assign(Lval::Var(t), val), span);
                    val = Expr::Load(Lval::Var(t));
                }
                self.emit(Action::Assign(lv, val.clone()), span);
                if atomic {
                    self.emit(Action::AtomicEnd, span);
                }
                Ok(Some(Val { e: val, ty }))
            }
            LogicalAnd | LogicalOr => {
                let (t, f) = self.cond(whole)?;
                if !want {
                    self.cur = t;
                    self.cur.extend(f);
                    return Ok(None);
                }
                let tmp = self.temp(CType::int());
                self.cur = t;
                self.emit(Action::Assign(Lval::Var(tmp), Expr::int(1)), span);
                let after = std::mem::take(&mut self.cur);
                self.cur = f;
                self.emit(Action::Assign(Lval::Var(tmp), Expr::int(0)), span);
                self.cur.extend(after);
                Ok(Some(Val { e: Expr::Load(Lval::Var(tmp)), ty: CType::int() }))
            }
            Index => {
                let (lv, ty) = self.lvalue(whole)?;
                Ok(Some(self.load(lv, ty)))
            }
            _ => {
                let bop = match op {
                    Multiply => BinOp::Mul,
                    Divide => BinOp::Div,
                    Modulo => BinOp::Rem,
                    Plus => BinOp::Add,
                    Minus => BinOp::Sub,
                    ShiftLeft => BinOp::Shl,
                    ShiftRight => BinOp::Shr,
                    Less => BinOp::Lt,
                    Greater => BinOp::Gt,
                    LessOrEqual => BinOp::Le,
                    GreaterOrEqual => BinOp::Ge,
                    Equals => BinOp::Eq,
                    NotEquals => BinOp::Ne,
                    BitwiseAnd => BinOp::BitAnd,
                    BitwiseXor => BinOp::BitXor,
                    _ => BinOp::BitOr,
                };
                // The difference of two character pointers counts slots: exact inside a
                // character array, not between the scalars of another object seen as bytes.
                let bytes_of_wider = |me: &mut Self, x: &Expression| match x {
                    Expression::Cast(c) => me.static_type(x).pointee().is_some_and(is_byte_type) && me.static_type(&c.node.expression.node).pointee().is_some_and(|p| !is_byte_type(p)),
                    _ => false,
                };
                if op == Minus && (bytes_of_wider(self, &b.lhs.node) || bytes_of_wider(self, &b.rhs.node)) && self.static_type(&b.rhs.node).pointee().is_some() {
                    return self.unsupported_value(whole, "the difference of character pointers into an object of wider scalars (the memory model counts slots, not bytes)");
                }
                // An offset in the memory model's slots (`offsetof`) is exact only where it
                // moves a character pointer, which counts slots too.
                let offset = self.byte_pointer_offset(b).filter(|k| counts_slots(k));
                let (left_off, right_off) = (offset.is_some_and(|k| std::ptr::eq(k, &b.lhs.node)), offset.is_some_and(|k| std::ptr::eq(k, &b.rhs.node)));
                let outer = self.slot_offset;
                self.slot_offset = left_off;
                let l = self.value(&b.lhs);
                self.slot_offset = right_off;
                let r = l.and_then(|l| Ok((l, self.value(&b.rhs)?)));
                self.slot_offset = outer;
                let (l, r) = r?;
                self.moves_by_slots = offset.is_some();
                let v = self.arith(bop, l, r);
                self.moves_by_slots = false;
                Ok(Some(v))
            }
        }
    }

    /// A binary operation after C's conversions.
    pub(crate) fn arith(&mut self, op: BinOp, l: Val, r: Val) -> Val {
        let lp = matches!(l.ty, CType::Pointer(_) | CType::Array(..));
        let rp = matches!(r.ty, CType::Pointer(_) | CType::Array(..));
        if op.is_comparison() {
            if lp || rp {
                return Val { e: fold_binary(op, l.e, r.e, Ty::INT), ty: CType::int() };
            }
            let (Some(a), Some(b)) = (int_of(&l.ty), int_of(&r.ty)) else {
                return Val { e: self.havoc(Ty::INT, "a floating-point comparison", self.last_span()), ty: CType::int() };
            };
            let c = int_ctype(common(a, b));
            let (le, re) = (self.convert(l, &c), self.convert(r, &c));
            return Val { e: fold_cmp(op, le, re), ty: CType::int() };
        }
        if lp || rp {
            // A character pointer moves by bytes in C and by slots here: the same only
            // inside objects of bytes, which `passes` checks once the alias model exists.
            let (p, k) = if lp { (&l, &r) } else { (&r, &l) };
            if lp != rp && matches!(op, BinOp::Add | BinOp::Sub) && p.ty.pointee().is_some_and(is_byte_type) && !self.moves_by_slots && !matches!(k.e, Expr::Const(0, _)) {
                let at = self.last_span();
                self.byte_moves.push((p.e.clone(), at));
            }
            // Pointer arithmetic counts in elements of the pointee type.
            return match (op, lp, rp) {
                (BinOp::Sub, true, true) => Val { e: Expr::Binary(op, Box::new(l.e), Box::new(r.e), LONG_SIGNED), ty: int_ctype(IntTy { bits: 64, signed: true }) },
                (BinOp::Add | BinOp::Sub, true, false) => Val { e: Expr::Binary(op, Box::new(l.e), Box::new(r.e), Ty::Ptr), ty: l.ty },
                (BinOp::Add, false, true) => Val { e: Expr::Binary(op, Box::new(r.e), Box::new(l.e), Ty::Ptr), ty: r.ty },
                _ => Val { e: Expr::Nondet(Ty::Ptr), ty: l.ty },
            };
        }
        let (Some(a), Some(b)) = (int_of(&l.ty), int_of(&r.ty)) else {
            let ty = match (&l.ty, &r.ty) {
                (CType::Float(a), CType::Float(b)) => CType::Float(*a.max(b)),
                (CType::Float(a), _) | (_, CType::Float(a)) => CType::Float(*a),
                _ => CType::int(),
            };
            return Val { e: self.havoc(ty.scalar(self.dm()), "floating-point arithmetic", self.last_span()), ty };
        };
        // Shifts take the promoted type of the left operand; the rest convert both sides.
        let t = if matches!(op, BinOp::Shl | BinOp::Shr) { promote(a) } else { common(a, b) };
        let ct = int_ctype(t);
        let le = self.convert(l, &ct);
        let rt = if matches!(op, BinOp::Shl | BinOp::Shr) { int_ctype(promote(b)) } else { ct.clone() };
        let re = self.convert(r, &rt);
        Val { e: fold_binary(op, le, re, Ty::Int(t)), ty: ct }
    }

    /// The C type of a lowered lvalue.
    pub(super) fn lval_ctype(&self, lv: &Lval) -> CType {
        match lv {
            Lval::Var(v) => self.vars[v.index()].ty.clone(),
            Lval::Deref(_, t) => t.clone(),
            Lval::Index(b, _) => match self.lval_ctype(b) {
                CType::Array(e, _) | CType::Pointer(e) => *e,
                t => t,
            },
            Lval::Field(_, r, i) => self.types.records[r.0 as usize].fields[*i as usize].1.clone(),
        }
    }

    /// A C type for a lowered expression's value, for temporaries that hold it.
    fn expr_ctype(&self, e: &Expr) -> CType {
        match e {
            Expr::Load(lv) => self.lval_ctype(lv),
            Expr::AddrOf(lv) => CType::Pointer(Box::new(self.lval_ctype(lv))),
            Expr::Const(_, t) | Expr::Unary(_, _, t) | Expr::Binary(_, _, _, t) | Expr::Cast(t, _) | Expr::Nondet(t) | Expr::Havoc(t, _) => match t {
                Ty::Ptr => CType::Pointer(Box::new(CType::Void)),
                Ty::Int(i) => int_ctype(*i),
                Ty::Bool => CType::Bool,
                Ty::Float => CType::Float(8),
            },
        }
    }

    /// The lvalue an expression designates, with its type.
    pub(crate) fn lvalue(&mut self, e: &'a Node<Expression>) -> Result<(Lval, CType), Fatal> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(v) => Ok((Lval::Var(v), self.vars[v.index()].ty.clone())),
                None => Err(self.error(e.span, format!("use of undeclared identifier `{}` where an object was expected", id.node.name))),
            },
            Expression::Member(m) => {
                let (base, bty) = match m.node.operator.node {
                    MemberOperator::Direct => self.lvalue(&m.node.expression)?,
                    MemberOperator::Indirect => {
                        let p = self.value(&m.node.expression)?;
                        let Some(t) = p.ty.pointee().cloned() else {
                            return Err(self.error(e.span, "`->` applied to a value that is not a pointer"));
                        };
                        (Lval::Deref(Box::new(p.e), t.clone()), t)
                    }
                };
                let CType::Record(r) = bty else {
                    return Err(self.error(e.span, format!("member `{}` of a value that is not a struct or union", m.node.identifier.node.name)));
                };
                self.field(base, r, &m.node.identifier.node.name)
                    .ok_or_else(|| self.error(m.node.identifier.span, format!("no member named `{}` in `{}`", m.node.identifier.node.name, self.types.records[r.0 as usize].name)))
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                // `a[i]` on an array object stays an element access; on a pointer it is `*(p+i)`.
                let base_is_array = matches!(self.static_type(&b.node.lhs.node), CType::Array(..));
                let (arr, idx) =
                    if !base_is_array && matches!(self.static_type(&b.node.rhs.node), CType::Array(..) | CType::Pointer(_)) { (&b.node.rhs, &b.node.lhs) } else { (&b.node.lhs, &b.node.rhs) };
                if matches!(self.static_type(&arr.node), CType::Array(..)) {
                    if let Ok((lv, CType::Array(elem, _))) = self.lvalue(arr) {
                        let i = self.value(idx)?;
                        let ie = self.convert(i, &int_ctype(IntTy { bits: 64, signed: true }));
                        return Ok((Lval::Index(Box::new(lv), Box::new(ie)), *elem));
                    }
                }
                let p = self.value(arr)?;
                let i = self.value(idx)?;
                let Some(elem) = p.ty.pointee().cloned() else {
                    return Err(self.error(e.span, "subscript of a value that is neither an array nor a pointer"));
                };
                let sum = self.arith(BinOp::Add, p, i);
                Ok((Lval::Deref(Box::new(sum.e), elem.clone()), elem))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let p = self.value(&u.node.operand)?;
                match p.ty.pointee().cloned() {
                    Some(t) => Ok((Lval::Deref(Box::new(p.e), t.clone()), t)),
                    None => Err(self.error(e.span, "dereference of a value that is not a pointer")),
                }
            }
            Expression::Cast(c) => {
                // `(T)x = ...` is not C, but `*(T*)p` reaches here through Indirection; a cast
                // lvalue keeps the object and takes the cast's type.
                let ty = self.type_name_at(&c.node.type_name, e.span)?;
                let (lv, _) = self.lvalue(&c.node.expression)?;
                Ok((lv, ty))
            }
            Expression::CompoundLiteral(cl) => {
                let v = self.value(e)?;
                match v.e {
                    Expr::Load(lv) => Ok((lv, v.ty)),
                    // An array literal decayed to its first element.
                    Expr::AddrOf(lv) => {
                        let ty = self.type_name_at(&cl.node.type_name, e.span)?;
                        Ok((lv, ty))
                    }
                    _ => Err(self.error(e.span, "compound literal of a type that is no object")),
                }
            }
            Expression::Statement(_) | Expression::Comma(_) | Expression::Conditional(_) | Expression::Call(_) => {
                // An rvalue of struct type used where an object is needed (`s = f();`): its
                // content is unknown to us.
                let v = self.value(e)?;
                let t = self.temp(v.ty.clone());
                Ok((Lval::Var(t), v.ty))
            }
            _ => Err(self.error(e.span, "expression is not assignable (expected an lvalue)")),
        }
    }

    /// A field of a record lvalue, looking through anonymous members.
    pub(super) fn field(&self, base: Lval, r: RecordId, name: &str) -> Option<(Lval, CType)> {
        let fields = &self.types.records[r.0 as usize].fields;
        if let Some(i) = fields.iter().position(|(n, _)| n == name) {
            return Some((Lval::Field(Box::new(base), r, i as u32), fields[i].1.clone()));
        }
        for (i, (n, t)) in fields.iter().enumerate() {
            if let (true, CType::Record(inner)) = (n.is_empty(), t) {
                let b = Lval::Field(Box::new(base.clone()), r, i as u32);
                if let Some(found) = self.field(b, *inner, name) {
                    return Some(found);
                }
            }
        }
        None
    }

    /// The C type of an expression without evaluating it (for `sizeof` and subscripts).
    pub(crate) fn static_type(&mut self, e: &Expression) -> CType {
        match e {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(v) => self.vars[v.index()].ty.clone(),
                None if self.functions.contains_key(&id.node.name) || self.prototypes.contains_key(&id.node.name) => CType::Function,
                None => match self.types.enum_const(&id.node.name) {
                    Some((_, ty)) => ty,
                    None => self.untyped(),
                },
            },
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => super::super::ctypes::parse_integer(i).map(|(_, t)| t).unwrap_or_else(CType::int),
                Constant::Float(f) => self.float_constant_type(f),
                Constant::Character(_) => CType::int(),
            },
            Expression::StringLiteral(s) => match super::library::literal_bytes(&s.node) {
                Some(bytes) => CType::Array(Box::new(int_ctype(IntTy { bits: 8, signed: true })), Some(bytes.len() as u64 + 1)),
                None => self.untyped(),
            },
            Expression::Member(m) => {
                let bt = match m.node.operator.node {
                    MemberOperator::Direct => self.static_type(&m.node.expression.node),
                    MemberOperator::Indirect => self.static_type(&m.node.expression.node).pointee().cloned().unwrap_or(CType::Void),
                };
                match bt {
                    CType::Record(r) => match self.field(Lval::Var(VarId(0)), r, &m.node.identifier.node.name) {
                        Some((_, t)) => t,
                        None => self.untyped(),
                    },
                    _ => self.untyped(),
                }
            }
            Expression::BinaryOperator(b) => {
                use BinaryOperator::*;
                let l = self.static_type(&b.node.lhs.node);
                match &b.node.operator.node {
                    Index => match l.pointee().cloned() {
                        Some(t) => t,
                        None => match self.static_type(&b.node.rhs.node).pointee().cloned() {
                            Some(t) => t,
                            None => self.untyped(),
                        },
                    },
                    Less | Greater | LessOrEqual | GreaterOrEqual | Equals | NotEquals | LogicalAnd | LogicalOr => CType::int(),
                    Assign | AssignPlus | AssignMinus | AssignMultiply | AssignDivide | AssignModulo | AssignShiftLeft | AssignShiftRight | AssignBitwiseAnd | AssignBitwiseOr | AssignBitwiseXor => l,
                    // A shift has its promoted left operand's type, whatever the count's.
                    ShiftLeft | ShiftRight => match int_of(&l) {
                        Some(i) => int_ctype(promote(i)),
                        None => self.untyped(),
                    },
                    op => {
                        let r = self.static_type(&b.node.rhs.node);
                        match (int_of(&l), int_of(&r)) {
                            (Some(x), Some(y)) => int_ctype(common(x, y)),
                            // The difference of two pointers is a `ptrdiff_t`.
                            _ if *op == Minus && l.pointee().is_some() && r.pointee().is_some() => int_ctype(IntTy { signed: true, ..crate::ir::types::ptr_int(self.dm()) }),
                            _ if matches!(l, CType::Pointer(_) | CType::Array(..)) => l,
                            _ if matches!(r, CType::Pointer(_) | CType::Array(..)) => r,
                            _ => self.arith_float(&l, &r),
                        }
                    }
                }
            }
            Expression::UnaryOperator(u) => {
                let t = self.static_type(&u.node.operand.node);
                match u.node.operator.node {
                    UnaryOperator::Address => CType::Pointer(Box::new(t)),
                    UnaryOperator::Indirection => match t.pointee().cloned() {
                        Some(p) => p,
                        None => self.untyped(),
                    },
                    UnaryOperator::Negate => CType::int(),
                    UnaryOperator::Plus | UnaryOperator::Minus | UnaryOperator::Complement => match int_of(&t) {
                        Some(i) => int_ctype(promote(i)),
                        None => t,
                    },
                    _ => t,
                }
            }
            Expression::Cast(c) => self.types.type_name(&c.node.type_name.node).unwrap_or_else(|_| CType::int()),
            Expression::Call(c) => {
                let ret = match &c.node.callee.node {
                    Expression::Identifier(id) => match self.lookup(&id.node.name) {
                        Some(v) => self.var_sigs.get(&v).map(|s| s.ret.clone()),
                        None => self.functions.get(&id.node.name).map(|f| f.ret.clone()).or_else(|| self.prototypes.get(&id.node.name).and_then(|p| p.ret.clone())),
                    },
                    _ => None,
                };
                ret.unwrap_or_else(|| self.untyped())
            }
            Expression::Conditional(c) => {
                let a = self.static_type(&c.node.then_expression.node);
                let b = self.static_type(&c.node.else_expression.node);
                match (int_of(&a), int_of(&b)) {
                    (Some(x), Some(y)) => int_ctype(common(x, y)),
                    // A null pointer constant takes the other operand's pointer type.
                    (Some(_), None) if b.pointee().is_some() => b,
                    (None, Some(_)) if a.pointee().is_some() => a,
                    _ if a.pointee().is_some() || matches!(a, CType::Record(_) | CType::Void) => a,
                    _ => self.arith_float(&a, &b),
                }
            }
            Expression::Comma(items) => items.last().map(|i| self.static_type(&i.node)).unwrap_or(CType::Void),
            Expression::CompoundLiteral(cl) => match self.types.type_name(&cl.node.type_name.node) {
                Ok(CType::Array(elem, None)) => CType::Array(elem, Some(self.list_length(&cl.node.initializer_list) as u64)),
                Ok(t) => t,
                Err(_) => self.untyped(),
            },
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) | Expression::OffsetOf(_) => int_ctype(IntTy { bits: 64, signed: false }),
            _ => self.untyped(),
        }
    }

    /// The type of an arithmetic operation one of whose operands is floating: the wider
    /// floating type; what is neither integer nor floating is not resolved.
    fn arith_float(&mut self, a: &CType, b: &CType) -> CType {
        match (a, b) {
            (CType::Float(x), CType::Float(y)) => CType::Float((*x).max(*y)),
            (CType::Float(_), t) | (t, CType::Float(_)) if int_of(t).is_some() => {
                if let CType::Float(_) = a {
                    a.clone()
                } else {
                    b.clone()
                }
            }
            _ => self.untyped(),
        }
    }

    /// Notes that [`Lowerer::static_type`] could not resolve a type, and gives `int`.
    fn untyped(&mut self) -> CType {
        self.untyped = true;
        CType::int()
    }

    /// The type of a floating constant, by its suffix.
    fn float_constant_type(&self, f: &Float) -> CType {
        match f.suffix.format {
            FloatFormat::Float => CType::Float(4),
            FloatFormat::LongDouble => CType::Float(if self.dm() == DataModel::ILP32 { 12 } else { 16 }),
            _ => CType::Float(8),
        }
    }

    /// Lowers a condition into two frontiers: where it holds and where it does not.
    pub(crate) fn cond(&mut self, e: &'a Node<Expression>) -> Result<(Vec<LocId>, Vec<LocId>), Fatal> {
        if let Some(v) = self.types.const_eval(&e.node) {
            let here = std::mem::take(&mut self.cur);
            return Ok(if v != 0 { (here, Vec::new()) } else { (Vec::new(), here) });
        }
        match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalAnd => {
                let (t1, f1) = self.cond(&b.node.lhs)?;
                self.cur = t1;
                let (t2, mut f2) = self.cond(&b.node.rhs)?;
                f2.extend(f1);
                return Ok((t2, f2));
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalOr => {
                let (t1, f1) = self.cond(&b.node.lhs)?;
                self.cur = f1;
                let (mut t2, f2) = self.cond(&b.node.rhs)?;
                t2.extend(t1);
                return Ok((t2, f2));
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                let (t, f) = self.cond(&u.node.operand)?;
                return Ok((f, t));
            }
            Expression::Comma(items) if !items.is_empty() => {
                for it in &items[..items.len() - 1] {
                    self.effect(it)?;
                }
                return self.cond(&items[items.len() - 1]);
            }
            Expression::Call(c) if is_trylock(&c.node) => return self.trylock_branches(&c.node, e.span, false),
            Expression::BinaryOperator(b)
                if matches!(b.node.operator.node, BinaryOperator::Equals | BinaryOperator::NotEquals)
                    && matches!(&b.node.lhs.node, Expression::Call(c) if is_trylock(&c.node))
                    && self.types.const_eval(&b.node.rhs.node) == Some(0) =>
            {
                let Expression::Call(c) = &b.node.lhs.node else { unreachable!() };
                let success = b.node.operator.node == BinaryOperator::Equals;
                return self.trylock_branches(&c.node, e.span, success);
            }
            Expression::Conditional(c) => {
                let (tc, fc) = self.cond(&c.node.condition)?;
                self.cur = tc;
                let (mut t1, mut f1) = self.cond(&c.node.then_expression)?;
                self.cur = fc;
                let (t2, f2) = self.cond(&c.node.else_expression)?;
                t1.extend(t2);
                f1.extend(f2);
                return Ok((t1, f1));
            }
            _ => {}
        }
        let v = self.value(e)?;
        let (pos, neg) = branch_conditions(v.e, v.ty.scalar(self.dm()));
        if !self.live() {
            return Ok((Vec::new(), Vec::new()));
        }
        let span = self.span(e.span);
        let here = std::mem::take(&mut self.cur);
        let a = self.new_loc(Action::Assume(pos), span);
        let b = self.new_loc(Action::Assume(neg), span);
        self.connect(&here, a);
        self.connect(&here, b);
        Ok((vec![a], vec![b]))
    }
}

/// Whether a call is `pthread_mutex_trylock` (or the spinlock variant).
fn is_trylock(c: &CallExpression) -> bool {
    matches!(&c.callee.node, Expression::Identifier(id) if matches!(id.node.name.as_str(), "pthread_mutex_trylock" | "pthread_spin_trylock"))
}

impl<'a> Lowerer<'a> {
    /// A trylock tested directly in a condition: the branch that got the lock starts at the
    /// acquire, the other at the failed attempt, so the lock analysis knows which path holds
    /// it. `success_is_true` when the condition holds on success (`trylock(&m) == 0`).
    fn trylock_branches(&mut self, c: &'a CallExpression, span: lang_c::span::Span, success_is_true: bool) -> Result<(Vec<LocId>, Vec<LocId>), Fatal> {
        let Some(arg) = c.arguments.first() else {
            return Err(self.error(span, "`pthread_mutex_trylock` expects a mutex argument"));
        };
        let m = self.pointee_object(arg, CType::Mutex)?;
        if !self.live() {
            return Ok((Vec::new(), Vec::new()));
        }
        let at = self.span(span);
        let here = std::mem::take(&mut self.cur);
        let got = self.new_loc(Action::Acquire(m.clone()), at);
        let busy = self.new_loc(Action::LockBusy(m), at);
        self.connect(&here, got);
        self.connect(&here, busy);
        Ok(if success_is_true { (vec![got], vec![busy]) } else { (vec![busy], vec![got]) })
    }
}

/// The conditions of the two branches on a value: a comparison and its negation, or
/// `v != 0` and `v == 0`.
pub(in crate::frontend) fn branch_conditions(e: Expr, ty: Ty) -> (Expr, Expr) {
    match e {
        Expr::Binary(op, a, b, t) if op.is_comparison() => {
            let neg = op.negate_comparison().expect("comparison");
            (Expr::Binary(op, a.clone(), b.clone(), t), Expr::Binary(neg, a, b, t))
        }
        Expr::Unary(UnOp::Not, x, _) => {
            let xt = match x.as_ref() {
                Expr::Const(_, t) | Expr::Cast(t, _) | Expr::Binary(_, _, _, t) | Expr::Unary(_, _, t) | Expr::Nondet(t) | Expr::Havoc(t, _) => *t,
                _ => ty,
            };
            (Expr::Binary(BinOp::Eq, x.clone(), Box::new(Expr::Const(0, xt)), Ty::INT), Expr::Binary(BinOp::Ne, x, Box::new(Expr::Const(0, xt)), Ty::INT))
        }
        e => (Expr::Binary(BinOp::Ne, Box::new(e.clone()), Box::new(Expr::Const(0, ty)), Ty::INT), Expr::Binary(BinOp::Eq, Box::new(e), Box::new(Expr::Const(0, ty)), Ty::INT)),
    }
}

/// The condition under which an assertion of value `e` holds.
pub(in crate::frontend) fn holds_condition(e: Expr, ty: Ty) -> Expr {
    branch_conditions(e, ty).0
}

fn is_stable(e: &Expr) -> bool {
    matches!(e, Expr::Const(..)) || matches!(e, Expr::Load(Lval::Var(_)))
}

fn fold_unary(op: UnOp, e: Expr, ty: Ty) -> Expr {
    if let Expr::Const(c, _) = e {
        let v = match op {
            UnOp::Neg => -c,
            UnOp::BitNot => !c,
            UnOp::Not => (c == 0) as i128,
        };
        return Expr::Const(ty.convert(v, DataModel::LP64), ty);
    }
    Expr::Unary(op, Box::new(e), ty)
}

fn fold_binary(op: BinOp, a: Expr, b: Expr, ty: Ty) -> Expr {
    if let (Expr::Const(x, _), Expr::Const(y, _), Ty::Int(_)) = (&a, &b, ty) {
        let v = match op {
            BinOp::Add => x.checked_add(*y),
            BinOp::Sub => x.checked_sub(*y),
            BinOp::Mul => x.checked_mul(*y),
            _ => None,
        };
        if let Some(v) = v {
            return Expr::Const(ty.convert(v, DataModel::LP64), ty);
        }
    }
    Expr::Binary(op, Box::new(a), Box::new(b), ty)
}

fn fold_cmp(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary(op, Box::new(a), Box::new(b), Ty::INT)
}

/// A character type or `void`, whose pointers move by bytes.
fn is_byte_type(t: &CType) -> bool {
    matches!(t, CType::Void | CType::Bool | CType::Int(IntTy { bits: 8, .. }, _))
}

/// `&((T *)0)->m...`: the address of a member of an object at address 0.
fn null_member_address(e: &Expression) -> bool {
    let Expression::UnaryOperator(u) = e else { return false };
    if u.node.operator.node != UnaryOperator::Address {
        return false;
    }
    let mut cur = &u.node.operand.node;
    loop {
        match cur {
            Expression::Member(m) if m.node.operator.node == MemberOperator::Indirect => return is_null_pointer(&m.node.expression.node),
            Expression::Member(m) => cur = &m.node.expression.node,
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => cur = &b.node.lhs.node,
            _ => return false,
        }
    }
}

/// A null pointer constant converted to a pointer type: `(T *)0`.
fn is_null_pointer(e: &Expression) -> bool {
    match e {
        Expression::Cast(c) => is_null_pointer(&c.node.expression.node),
        Expression::Constant(c) => matches!(&c.node, Constant::Integer(i) if i.number.trim_start_matches('0').is_empty()),
        _ => false,
    }
}

/// An integer that is an address offset in the memory model's own unit: `offsetof`, or an
/// address converted to an integer (possibly negated or cast).
fn counts_slots(e: &Expression) -> bool {
    match e {
        Expression::OffsetOf(_) => true,
        Expression::Cast(c) => counts_slots(&c.node.expression.node) || matches!(&c.node.expression.node, Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address),
        Expression::UnaryOperator(u) => matches!(u.node.operator.node, UnaryOperator::Minus | UnaryOperator::Plus) && counts_slots(&u.node.operand.node),
        _ => false,
    }
}
