//! Function addresses and calls through function pointers.
//!
//! Every function whose name is used as a value gets a fixed address (see
//! [`crate::ir::memory::function_address`]): an exact, distinct, non-null pointer constant that
//! every engine reads as a number. A call through a pointer becomes a choice, one branch per
//! function of the program the pointer may hold, each guarded by `assume(p == &f)` and
//! inlining `f`; a null pointer crashes the program. After lowering, [`check_sites`] proves
//! that each called pointer can hold nothing else; where it cannot, the call is an
//! unsupported construct and the verdicts are `unknown`. A pointer that can hold no function
//! of the program at all holds code outside it: the call is one of an undefined function.

use super::expr::Val;
use super::{Fatal, Lowerer};
use crate::frontend::ctypes::{typedef_name, Signature};
use crate::ir::memory::{function_address, function_index};
use crate::ir::*;
use hashbrown::HashSet;
use lang_c::ast::*;
use lang_c::span::{Node, Span as LSpan};
use lang_c::visit::Visit;

/// A call through a pointer, checked once the whole program is lowered.
#[derive(Clone, Debug)]
pub(in crate::frontend) struct IndirectSite {
    /// The temporary holding the called pointer.
    pub callee: VarId,
    /// The call.
    pub span: Span,
    /// The callee as written.
    pub text: String,
}

/// The functions whose name the unit uses other than as the callee of a direct call, in order
/// of first use.
pub(super) fn address_taken(unit: &TranslationUnit, is_function: &dyn Fn(&str) -> bool) -> Vec<String> {
    struct V<'f> {
        out: Vec<String>,
        seen: HashSet<String>,
        is_function: &'f dyn Fn(&str) -> bool,
    }
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast LSpan) {
            if !matches!(c.callee.node, Expression::Identifier(_)) {
                self.visit_expression(&c.callee.node, &c.callee.span);
            }
            for a in &c.arguments {
                self.visit_expression(&a.node, &a.span);
            }
            let _ = span;
        }
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast LSpan) {
            if let Expression::Identifier(id) = e {
                let n = &id.node.name;
                if (self.is_function)(n) && self.seen.insert(n.clone()) {
                    self.out.push(n.clone());
                }
            }
            lang_c::visit::visit_expression(self, e, span);
        }
    }
    let mut v = V { out: Vec::new(), seen: HashSet::new(), is_function };
    v.visit_translation_unit(unit);
    v.out
}

/// Whether a function declarator accepts `n` arguments: its parameter count, more when it is
/// variadic, any when it is an old-style declaration without parameters.
fn accepts(d: &Declarator, params: usize, n: usize) -> bool {
    for dd in &d.derived {
        match &dd.node {
            DerivedDeclarator::Function(f) => return n == params || (f.node.ellipsis == Ellipsis::Some && n > params),
            DerivedDeclarator::KRFunction(names) => return names.is_empty() || n == params,
            _ => {}
        }
    }
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        return accepts(&inner.node, params, n);
    }
    n == params
}

/// Whether two types may be the same parameter or return type of compatible function types,
/// loosely: the same kind of scalar (any pointers, integers of one width), or both `void`.
fn loosely_compatible(a: &CType, b: &CType, dm: DataModel) -> bool {
    match (a, b) {
        (CType::Void, CType::Void) => true,
        (CType::Void, _) | (_, CType::Void) => false,
        (CType::Record(x), CType::Record(y)) => x == y,
        _ if a.is_scalar() && b.is_scalar() => match (a.scalar(dm), b.scalar(dm)) {
            (Ty::Int(x), Ty::Int(y)) => x.bits == y.bits,
            (x, y) => x == y,
        },
        _ => true,
    }
}

impl<'a> Lowerer<'a> {
    /// The function-pointer signature a declarator spells out or its typedef carries.
    pub(super) fn signature(&self, d: &Declaration, decl: &crate::frontend::ctypes::Declared) -> Option<Signature> {
        let tname = typedef_name(d.specifiers.iter().filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        }));
        Signature::of(decl, tname.and_then(|n| self.types.typedef_sigs.get(n)))
    }

    /// The declared signature of a called pointer, where its declaration is at hand.
    fn callee_signature(&mut self, e: &Expression) -> Option<Signature> {
        match e {
            Expression::Identifier(id) => self.lookup(&id.node.name).and_then(|v| self.var_sigs.get(&v).cloned()),
            Expression::Member(m) => {
                let base = match m.node.operator.node {
                    MemberOperator::Direct => self.static_type(&m.node.expression.node),
                    MemberOperator::Indirect => self.static_type(&m.node.expression.node).pointee().cloned()?,
                };
                let CType::Record(r) = base else { return None };
                let i = self.types.records[r.0 as usize].fields.iter().position(|(n, _)| *n == m.node.identifier.node.name)?;
                self.types.field_sigs.get(&(r, i)).cloned()
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => self.callee_signature(&b.node.lhs.node),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => self.callee_signature(&u.node.operand.node),
            _ => None,
        }
    }

    /// Whether a function may be called through a pointer of this signature without
    /// undefined behaviour.
    fn fits(&self, name: &str, sig: &Signature) -> bool {
        let (params, ret): (Vec<CType>, CType) = match (self.functions.get(name), self.prototypes.get(name)) {
            (Some(f), _) => (f.params.iter().map(|(_, t)| t.clone()).collect(), f.ret.clone()),
            (None, Some(p)) => (p.params.iter().flatten().map(|(_, t)| t.clone()).collect(), p.ret.clone().unwrap_or(CType::int())),
            _ => return false,
        };
        let dm = self.dm();
        if !loosely_compatible(&ret, &sig.ret, dm) {
            return false;
        }
        if sig.params.is_empty() || params.is_empty() {
            return true;
        }
        params.len() == sig.params.len() && params.iter().zip(&sig.params).all(|(a, b)| loosely_compatible(a, b, dm))
    }

    /// The value of a function designator: its fixed address.
    pub(super) fn function_value(&mut self, name: &str) -> Val {
        let ty = CType::Pointer(Box::new(CType::Function));
        match self.fn_index.get(name) {
            Some(&k) if function_index(function_address(k)) == Some(k) => Val { e: Expr::Const(function_address(k), Ty::Ptr), ty },
            // Beyond the reserved range: an unknown pointer, and calls through it are
            // reported by `check_sites`.
            _ => Val { e: Expr::Nondet(Ty::Ptr), ty },
        }
    }

    /// The functions a pointer called with `nargs` arguments may hold: those whose address
    /// the program takes and that accept that many arguments (a call through a pointer of
    /// an incompatible type is undefined).
    fn candidates(&self, nargs: usize) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        for (k, name) in self.fn_names.iter().enumerate() {
            let ok = match (self.functions.get(name), self.prototypes.get(name)) {
                (Some(f), _) => accepts(&f.def.declarator.node, f.params.len(), nargs),
                (None, Some(p)) => p.params.as_ref().map(|ps| ps.len() == nargs || ps.is_empty()).unwrap_or(true),
                (None, None) => false,
            };
            if ok {
                out.push((name.clone(), k));
            }
        }
        out
    }

    /// Copies a called pointer into a temporary (one read of the pointer for all guards) and
    /// registers the site for [`check_sites`].
    fn pin_callee(&mut self, callee: Expr, span: Span, text: String) -> VarId {
        let t = self.temp(CType::Pointer(Box::new(CType::Function)));
        self.emit(Action::Assign(Lval::Var(t), callee), span);
        self.indirect_sites.push(IndirectSite { callee: t, span, text });
        t
    }

    /// Branches on the value of a pinned pointer: one frontier per candidate (its address)
    /// and one for null, which crashes the program. The frontier is left empty.
    fn branch_on(&mut self, p: VarId, targets: &[(String, usize)], span: Span) -> Vec<Vec<LocId>> {
        let here = std::mem::take(&mut self.cur);
        let is = |v: i128| Expr::Binary(BinOp::Eq, Box::new(Expr::Load(Lval::Var(p))), Box::new(Expr::Const(v, Ty::Ptr)), Ty::INT);
        let mut out = Vec::new();
        for (_, k) in targets {
            let g = self.new_loc(Action::Assume(is(function_address(*k))), span);
            self.connect(&here, g);
            out.push(vec![g]);
        }
        // Calling a null pointer faults: the program stops there, failing no assertion.
        let null = self.new_loc(Action::Assume(is(0)), span);
        self.connect(&here, null);
        self.cur = vec![null];
        self.emit(Action::Halt(Halt::Abort), span);
        self.cur.clear();
        out
    }

    /// A call whose callee is not a function name: each function the pointer may hold is
    /// inlined under a guard on the pointer's value.
    pub(super) fn indirect_call(&mut self, c: &'a CallExpression, span_l: LSpan) -> Result<Option<Val>, Fatal> {
        let span = self.span(span_l);
        let callee = self.value(&c.callee)?;
        if let Some(name) = callee.e.as_const().and_then(function_index).and_then(|k| self.fn_names.get(k)).cloned() {
            // `(*f)(x)` or `(&f)(x)`: a direct call after all.
            return self.call_target(&name, c, span_l);
        }
        if !self.live() {
            return Ok(None);
        }
        let text = self.text(c.callee.span);
        let sig = self.callee_signature(&c.callee.node);
        let targets: Vec<(String, usize)> = self.candidates(c.arguments.len()).into_iter().filter(|(n, _)| sig.as_ref().is_none_or(|s| self.fits(n, s))).collect();
        if targets.is_empty() {
            return self.call_outside(callee.e, sig, c, &text, span);
        }
        let p = self.pin_callee(callee.e, span, text.clone());
        let branches = self.branch_on(p, &targets, span);
        let ret_ty = targets.iter().find_map(|(n, _)| self.return_type(n)).unwrap_or(CType::Void);
        let result = (!matches!(ret_ty, CType::Void) && ret_ty.is_scalar()).then(|| self.temp(ret_ty.clone()));
        let mut ends = Vec::new();
        for ((name, _), start) in targets.iter().zip(branches) {
            self.cur = start;
            let v = self.call_target(name, c, span_l)?;
            if let (Some(r), true) = (result, self.live()) {
                let value = match v {
                    Some(v) => self.convert(v, &ret_ty),
                    None => Expr::Nondet(ret_ty.scalar(self.dm())),
                };
                self.emit(Action::Assign(Lval::Var(r), value), span);
            }
            ends.extend(std::mem::take(&mut self.cur));
        }
        self.cur = ends;
        Ok(result.map(|r| Val { e: Expr::Load(Lval::Var(r)), ty: ret_ty }))
    }

    /// A call through a pointer that can hold no function of the program (none whose address
    /// it takes fits the call): a function another module or the kernel stored there
    /// (`chan->device->device_control(chan, cmd, arg)`), so a call of code without a
    /// definition, with the havoc such a call gets. Null, and a pointer to no code at all, are
    /// undefined to call (C11 6.5.2.2p9, J.2): that havoc covers them too. The pointer is read
    /// once, as the call reads it; no [`check_sites`] check is needed, since every value it may
    /// hold is covered.
    fn call_outside(&mut self, callee: Expr, sig: Option<Signature>, c: &'a CallExpression, text: &str, span: Span) -> Result<Option<Val>, Fatal> {
        let t = self.temp(CType::Pointer(Box::new(CType::Function)));
        self.emit(Action::Assign(Lval::Var(t), callee), span);
        let mut vals = Vec::new();
        for a in &c.arguments {
            vals.push(self.value(a)?);
        }
        // Without a declared type the call is read as C90 read an undeclared function: `int`.
        let ret = sig.map(|s| s.ret).unwrap_or_else(CType::int);
        let outside = super::call::UnknownCallee { name: text, pure: false, system: false, input: false };
        let r = self.unknown_code(&outside, vals, &ret, span);
        Ok(r.map(|r| Val { e: Expr::Load(Lval::Var(r)), ty: ret }))
    }

    fn return_type(&self, name: &str) -> Option<CType> {
        self.functions.get(name).map(|f| f.ret.clone()).or_else(|| self.prototypes.get(name).and_then(|p| p.ret.clone()))
    }

    /// Lowers the call of one target: inlined if defined, an external call if not.
    fn call_target(&mut self, name: &str, c: &'a CallExpression, span_l: LSpan) -> Result<Option<Val>, Fatal> {
        let span = self.span(span_l);
        if super::call::is_builtin(name) {
            self.unsupported(span_l, format!("call of the built-in `{name}` through a pointer"));
            for a in &c.arguments {
                self.effect(a)?;
            }
            return Ok(None);
        }
        if self.functions.contains_key(name) {
            let mut vals = Vec::new();
            for a in &c.arguments {
                vals.push(self.value(a)?);
            }
            return self.inline_call(name, vals, span, Some(span_l));
        }
        self.external_call(name, &c.arguments, span)
    }

    /// `pthread_create` whose start routine is not a function name: one fork per function
    /// the pointer may hold, under a guard on its value.
    pub(super) fn indirect_fork(&mut self, routine: &'a Node<Expression>, handle: Option<Lval>, arg: Option<Expr>, span: Span) -> Result<(), Fatal> {
        let v = self.value(routine)?;
        let text = self.text(routine.span);
        if !self.live() {
            return Ok(());
        }
        let p = self.pin_callee(v.e, span, text);
        let targets: Vec<(String, usize)> = self.candidates(1).into_iter().filter(|(n, _)| self.functions.contains_key(n)).collect();
        let branches = self.branch_on(p, &targets, span);
        let mut ends = Vec::new();
        for ((name, _), start) in targets.iter().zip(branches) {
            self.cur = start;
            let t = self.template_for_fork(name, true);
            let at = self.emit(Action::Fork { template: t, handle: handle.clone(), arg: arg.clone() }, span);
            self.templates[t.index()].spawned_at.push(at);
            ends.extend(std::mem::take(&mut self.cur));
        }
        self.cur = ends;
        Ok(())
    }
}

/// Proves, for every call through a pointer, that the pointer holds null or the address of a
/// function of the program; otherwise the call is an unsupported construct.
///
/// A flow-insensitive pass over the alias model: an abstract location is *foreign* when some
/// store may put into it a value that is neither null nor a function address (an unknown
/// value, a data address, arithmetic), or when its content is unknown to begin with (heap
/// objects are arbitrary until written; regions of unknown memory hold anything).
///
/// The havoc an uninitialised function-pointer local gets at its declaration (`indeterminate`)
/// is no such source: calling through an indeterminate pointer is undefined (C11 6.2.4p6,
/// J.2), and the lowered call, a choice of `assume(p == &f)` branches and the null branch,
/// has no branch for another value, so the thread stops there, as if not scheduled again,
/// and only the defined prefix of such an execution is kept.
pub(in crate::frontend) fn check_sites(prog: &mut Program, sites: &[IndirectSite], indeterminate: &HashSet<(VarId, Span)>) {
    if sites.is_empty() {
        return;
    }
    let mem = &prog.memory;
    let mut foreign: HashSet<AbsLoc> = mem.all().filter(|a| matches!(mem.info(*a).kind, AbsKind::Heap(..) | AbsKind::Region(_))).collect();
    let stores: Vec<(Vec<AbsLoc>, &Expr)> = prog
        .locs
        .iter()
        .filter_map(|l| match &l.action {
            Action::Assign(Lval::Var(v), Expr::Nondet(Ty::Ptr)) if indeterminate.contains(&(*v, l.span)) => None,
            Action::Assign(lv, e) if prog.lval_type(lv).scalar(prog.data_model) == Ty::Ptr => Some((mem.targets(prog, lv), e)),
            _ => None,
        })
        .chain(prog.locs.iter().filter_map(|l| match &l.action {
            Action::Fork { template, arg: Some(e), .. } => prog.template(*template).params.first().map(|p| (mem.targets(prog, &Lval::Var(*p)), e)),
            _ => None,
        }))
        .collect();
    loop {
        let mut changed = false;
        for (dst, e) in &stores {
            if dst.iter().all(|a| foreign.contains(a)) {
                continue;
            }
            if !holds_function(prog, &foreign, e) {
                for a in dst {
                    changed |= foreign.insert(*a);
                }
            }
        }
        // Allocations store data addresses.
        for l in &prog.locs {
            if let Action::Alloc(lv, ..) = &l.action {
                for a in mem.targets(prog, lv) {
                    changed |= foreign.insert(a);
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut found = Vec::new();
    for s in sites {
        // A call that dead-code removal dropped reads no location.
        if mem.targets(prog, &Lval::Var(s.callee)).is_empty() {
            continue;
        }
        if !holds_function(prog, &foreign, &Expr::Load(Lval::Var(s.callee))) {
            found.push(Unsupported {
                span: s.span,
                construct: format!("call through `{}`, which may hold a pointer that is no function of the program (from unknown memory, an undefined function or a conversion)", s.text),
            });
        }
    }
    for u in found {
        if !prog.unsupported.iter().any(|x| x.span == u.span && x.construct == u.construct) {
            prog.unsupported.push(u);
        }
    }
}

/// Whether an expression's value is null or a function address whatever the foreign
/// locations hold otherwise.
fn holds_function(prog: &Program, foreign: &HashSet<AbsLoc>, e: &Expr) -> bool {
    match e {
        Expr::Const(v, _) => *v == 0 || function_index(*v).is_some(),
        Expr::Load(lv) => {
            if prog.lval_type(lv).scalar(prog.data_model) != Ty::Ptr {
                return false;
            }
            let ts = prog.memory.targets(prog, lv);
            !ts.is_empty() && ts.iter().all(|a| !foreign.contains(a))
        }
        Expr::Cast(Ty::Ptr, x) => holds_function(prog, foreign, x),
        _ => false,
    }
}
