//! Calls: inlining of defined functions, and the built-ins for threads, locks, atomicity,
//! nondeterminism, assumptions and failure points.

use super::expr::{has_control_flow, holds_condition, Val};
use super::{Binding, Fatal, Frame, Lowerer};
use crate::ir::*;
use hashbrown::HashMap;
use lang_c::ast::*;
use lang_c::span::{Node, Span as LSpan};

/// Names whose meaning is built in. A definition in the program is ignored for them, except
/// for the names [`yields_to_definition`] lists: those the C library, POSIX and SV-COMP do
/// not reserve (`__VERIFIER_*`, `pthread_*`, `assert`, `reach_error`, `abort`, `exit`,
/// `malloc`, ... always keep their built-in meaning).
pub(super) fn is_builtin(name: &str) -> bool {
    matches!(
        name,
        "__VERIFIER_assert"
            | "assert"
            | "reach_error"
            | "__VERIFIER_error"
            | "__assert_fail"
            | "__assert_perror_fail"
            | "__assert"
            | "__VERIFIER_assume"
            | "assume"
            | "assume_abort_if_not"
            | "abort"
            | "exit"
            | "_exit"
            | "_Exit"
            | "pthread_exit"
            | "pthread_create"
            | "pthread_join"
            | "pthread_mutex_lock"
            | "pthread_mutex_unlock"
            | "pthread_mutex_trylock"
            | "pthread_mutex_init"
            | "pthread_mutex_destroy"
            | "pthread_spin_lock"
            | "pthread_spin_unlock"
            | "pthread_spin_trylock"
            | "pthread_spin_init"
            | "pthread_spin_destroy"
            | "spin_lock"
            | "spin_unlock"
            | "pthread_cond_wait"
            | "pthread_cond_signal"
            | "pthread_cond_broadcast"
            | "pthread_cond_init"
            | "pthread_cond_destroy"
            | "pthread_self"
            | "__VERIFIER_atomic_begin"
            | "__VERIFIER_atomic_end"
            | "malloc"
            | "calloc"
            | "alloca"
            | "__builtin_alloca"
            | "free"
    ) || name.starts_with("__VERIFIER_nondet_")
}

/// Built-in names that a definition in the program replaces: they belong to no standard the
/// program must follow (a Linux driver defines its own `spin_lock`).
fn yields_to_definition(name: &str) -> bool {
    matches!(name, "spin_lock" | "spin_unlock")
}

/// Library functions known not to write the program's memory (`time` only with a null
/// argument: see `external_call`), block or synchronise, so that calling them has no effect
/// beyond a result the IR does not compute (`sprintf` writes its buffer and is not among them).
fn is_pure_library(name: &str) -> bool {
    matches!(
        name,
        "printf"
            | "puts"
            | "putchar"
            | "fprintf"
            | "perror"
            | "fflush"
            | "sleep"
            | "usleep"
            | "nanosleep"
            | "sched_yield"
            | "pthread_yield"
            | "srand"
            | "rand"
            | "random"
            | "time"
            | "clock"
            | "pthread_attr_init"
            | "pthread_attr_destroy"
            | "pthread_mutexattr_init"
            | "pthread_mutexattr_destroy"
            | "pthread_attr_setdetachstate"
            | "pthread_detach"
            | "abs"
            | "labs"
            | "atoi"
    )
}

/// Whether a `printf` format may store through an argument: a `%n` conversion, or a format
/// that is not a literal.
fn may_store_count(f: &Expression) -> bool {
    let Expression::StringLiteral(parts) = f else { return true };
    let text: String = parts.node.concat();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        // Flags, width, precision and length modifiers, then the conversion.
        match chars.by_ref().find(|c| !matches!(c, '-' | '+' | ' ' | '#' | '0'..='9' | '.' | '*' | '\'' | '$' | 'h' | 'l' | 'L' | 'q' | 'j' | 'z' | 't')) {
            Some('n') | None => return true,
            _ => {}
        }
    }
    false
}

/// A null pointer constant, possibly converted (`0`, `(void *)0`).
fn is_null_constant(e: &Expr) -> bool {
    match e {
        Expr::Const(0, _) => true,
        Expr::Cast(_, x) => is_null_constant(x),
        _ => false,
    }
}

/// Library functions whose result is an input from the environment (the clock, a random
/// source), not an approximation of a computation.
fn result_is_input(name: &str) -> bool {
    matches!(name, "rand" | "random" | "time" | "clock")
}

/// Code outside the program, as [`Lowerer::unknown_code`] models a call of it.
#[derive(Clone, Copy)]
pub(super) struct UnknownCallee<'n> {
    /// The callee as messages show it.
    pub name: &'n str,
    /// It writes nothing, blocks on nothing, and only its result is unknown.
    pub pure: bool,
    /// A system header declares it: it does not write the program's globals by name.
    pub system: bool,
    /// Its result is an input from the environment, not an approximation.
    pub input: bool,
}

/// A failure call found by scanning: its span, its text (or the span of the argument that
/// gives the text), and its kind.
pub(super) type FailureCall = (LSpan, Result<String, LSpan>, AssertKind);

/// Collects the failure calls in a statement, in source order.
pub(super) fn collect_failure_calls(s: &Node<Statement>, out: &mut Vec<FailureCall>) {
    use lang_c::visit::Visit;
    struct V<'o>(&'o mut Vec<FailureCall>);
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast LSpan) {
            if let Expression::Identifier(id) = &c.callee.node {
                if let Some((text, kind)) = failure_kind(&id.node.name, c) {
                    let text = match (text, c.arguments.first()) {
                        (Some(t), _) => Ok(t),
                        (None, Some(arg)) => Err(arg.span),
                        (None, None) => Err(*span),
                    };
                    self.0.push((*span, text, kind));
                }
            }
            lang_c::visit::visit_call_expression(self, c, span);
        }
    }
    V(out).visit_statement(&s.node, &s.span);
}

/// Whether a call is a failure point: its fixed text (if not the argument's) and kind.
fn failure_kind(name: &str, c: &CallExpression) -> Option<(Option<String>, AssertKind)> {
    match name {
        "__VERIFIER_assert" | "assert" => Some((None, AssertKind::Assert)),
        "reach_error" | "__VERIFIER_error" => Some((Some(format!("{name}()")), AssertKind::Reach)),
        "__assert_fail" | "__assert_perror_fail" | "__assert" => {
            let text = c.arguments.first().and_then(|a| match &a.node {
                Expression::StringLiteral(s) => Some(unquote(&s.node)),
                _ => None,
            });
            Some((Some(text.unwrap_or_else(|| format!("{name}(...)"))), AssertKind::Reach))
        }
        _ => None,
    }
}

fn unquote(parts: &[String]) -> String {
    parts.iter().map(|p| p.trim_start_matches('"').trim_end_matches('"').replace("\\\"", "\"").replace("\\\\", "\\")).collect()
}

impl<'a> Lowerer<'a> {
    /// Lowers a call expression.
    pub(super) fn call(&mut self, c: &'a CallExpression, span_l: LSpan, _want: bool) -> Result<Option<Val>, Fatal> {
        let span = self.span(span_l);
        let name = match &c.callee.node {
            Expression::Identifier(id) if self.lookup(&id.node.name).is_none() => id.node.name.clone(),
            _ => return self.indirect_call(c, span_l),
        };
        let args = &c.arguments;
        let frame_name = self.frames.last().map(|f| f.name.clone()).unwrap_or_default();
        if yields_to_definition(&name) && self.functions.contains_key(&name) {
            let mut vals = Vec::new();
            for a in args {
                vals.push(self.value(a)?);
            }
            return self.inline_call(&name, vals, span, Some(span_l));
        }
        // Built-ins by what they model: control (failures, assumptions, ends, threads), then
        // synchronisation (locks, condition variables, atomic sections), then memory and the rest.
        if let Some(v) = self.control_builtin(&name, c, span_l, &frame_name)? {
            return Ok(v);
        }
        if let Some(v) = self.sync_builtin(&name, args, span_l)? {
            return Ok(v);
        }
        match name.as_str() {
            "calloc" => self.calloc(args, span_l),
            n if super::library::is_kernel_alloc(n) && !self.functions.contains_key(n) => self.kernel_alloc(n, args, span_l),
            "malloc" | "alloca" | "__builtin_alloca" => {
                for a in args {
                    self.effect(a)?;
                }
                let ty = CType::Pointer(Box::new(CType::Void));
                let t = self.temp(ty.clone());
                let site = AllocId(self.alloc_sites);
                self.alloc_sites += 1;
                self.emit(Action::Alloc(Lval::Var(t), site, CType::Void), span);
                Ok(Some(Val { e: Expr::Load(Lval::Var(t)), ty }))
            }
            "__builtin_add_overflow" | "__builtin_sub_overflow" | "__builtin_mul_overflow" => match self.overflow_builtin(&name, args, span)? {
                Some(v) => Ok(Some(v)),
                None => self.external_call(&name, args, span),
            },
            // Reaching it is undefined behaviour, and verdicts cover the executions without
            // it (as for signed overflow). The thread stops there for good, as if never
            // scheduled again: every execution that reaches the call has that defined prefix,
            // so a failure the other threads reach meanwhile is still found, and nothing is
            // found that needs the call to return.
            "__builtin_unreachable" => {
                if self.live() {
                    self.emit(Action::Assume(Expr::int(0)), span);
                }
                self.cur.clear();
                Ok(None)
            }
            // GCC's branch hint: the value of its first argument.
            "__builtin_expect" | "__builtin_expect_with_probability" => {
                let Some(a) = args.first() else { return Err(self.error(span_l, format!("`{name}` expects two arguments"))) };
                let v = self.value(a)?;
                for rest in &args[1..] {
                    self.effect(rest)?;
                }
                Ok(Some(v))
            }
            // Whether the compiler can fold the argument. GCC answers 1 for an integer
            // constant expression at every optimisation level. For anything else the answer
            // depends on how far it propagates constants; duet-rs takes GCC's answer without
            // optimisation, 0. Any value would be sounder for `-O2` builds, but kernel code
            // branches on it before every `test_bit`, and both arms compute the same value
            // there: a havoc would leave every later violation `unknown`. GCC does not
            // evaluate the argument.
            "__builtin_constant_p" => {
                let folded = args.first().is_some_and(|a| self.types.const_eval(&a.node).is_some());
                Ok(Some(Val { e: Expr::int(i128::from(folded)), ty: CType::int() }))
            }
            n if n.starts_with("__VERIFIER_nondet_") => {
                let ty = self.nondet_type(n);
                Ok(Some(Val { e: Expr::Nondet(ty.scalar(self.dm())), ty }))
            }
            n if super::library::is_modelled(n) => self.library_call(n, args, span_l),
            n if super::library::is_counter_sync(n) => self.counter_sync(n, args, span_l),
            n if super::library::is_thread_model(n) => self.thread_model(n, args, span_l),
            n if super::library::is_unmodelled_sync(n) => {
                self.unsupported(span_l, format!("`{n}`, whose semantics are not modelled"));
                for a in args {
                    self.effect(a)?;
                }
                Ok(Some(Val { e: self.havoc(Ty::INT, format!("the result of `{n}`"), span), ty: CType::int() }))
            }
            _ if self.functions.contains_key(&name) => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.value(a)?);
                }
                self.inline_call(&name, vals, span, Some(span_l))
            }
            _ => self.external_call(&name, args, span),
        }
    }

    /// Lowers a call of an assertion, failure or assumption built-in, an end of the program or
    /// thread, or a thread creation or join: `Ok(None)` when `name` is none of them, else the
    /// call's value.
    fn control_builtin(&mut self, name: &str, c: &'a CallExpression, span_l: LSpan, frame_name: &str) -> Result<Option<Option<Val>>, Fatal> {
        let span = self.span(span_l);
        let args = &c.arguments;
        let zero = || Some(Val { e: Expr::int(0), ty: CType::int() });
        let v = match name {
            "__VERIFIER_assert" | "assert" => {
                let Some(arg) = args.first() else {
                    return Err(self.error(span_l, format!("`{name}` expects one argument")));
                };
                let text = self.text(arg.span);
                let id = self.assertion(span_l, text, AssertKind::Assert, frame_name);
                if has_control_flow(&arg.node) {
                    // The condition needs control flow of its own: fail where it is false.
                    let (t, f) = self.cond(arg)?;
                    self.cur = f;
                    self.assert_here(id, Expr::int(0), span);
                    self.cur = t;
                } else {
                    let v = self.value(arg)?;
                    let ty = v.ty.scalar(self.dm());
                    self.assert_here(id, holds_condition(v.e, ty), span);
                }
                None
            }
            "reach_error" | "__VERIFIER_error" | "__assert_fail" | "__assert_perror_fail" | "__assert" => {
                let (text, kind) = failure_kind(name, c).expect("failure built-in");
                let text = text.unwrap_or_else(|| self.text(span_l));
                let id = self.assertion(span_l, text, kind, frame_name);
                self.assert_here(id, Expr::int(0), span);
                None
            }
            "__VERIFIER_assume" | "assume" => {
                let Some(arg) = args.first() else { return Err(self.error(span_l, format!("`{name}` expects one argument"))) };
                let (t, blocked) = self.cond(arg)?;
                // Where the condition is false the thread waits forever: it does not end, so
                // no `pthread_join` on it returns.
                if !blocked.is_empty() {
                    let stuck = self.new_loc(Action::Assume(Expr::int(0)), span);
                    self.connect(&blocked, stuck);
                }
                self.cur = t;
                None
            }
            "assume_abort_if_not" => {
                let Some(arg) = args.first() else { return Err(self.error(span_l, "`assume_abort_if_not` expects one argument")) };
                let (t, f) = self.cond(arg)?;
                self.cur = f;
                self.halt(Halt::Abort, span);
                self.cur = t;
                None
            }
            "abort" => {
                self.halt(Halt::Abort, span);
                None
            }
            "exit" | "_exit" | "_Exit" => {
                for a in args {
                    self.effect(a)?;
                }
                self.halt(Halt::Exit, span);
                None
            }
            "pthread_exit" => {
                let in_thread = (self.tpl != TemplateId(0) || !self.opts.whole_program) && !self.join_results.is_empty();
                match args.first() {
                    Some(a) if in_thread => {
                        let v = self.value(a)?;
                        let ty = CType::Pointer(Box::new(CType::Void));
                        let e = self.convert(v, &ty);
                        let r = self.thread_result(ty);
                        self.emit(Action::Assign(Lval::Var(r), e), span);
                    }
                    _ => {
                        for a in args {
                            self.effect(a)?;
                        }
                    }
                }
                self.halt(Halt::ThreadExit, span);
                None
            }
            "pthread_create" => self.pthread_create(c, span_l).map(|_| zero())?,
            "pthread_join" => {
                let Some(h) = args.first() else { return Err(self.error(span_l, "`pthread_join` expects two arguments")) };
                self.joins_threads = true;
                let hv = self.rvalue(h)?;
                let hv_copy = hv.clone();
                self.emit(Action::Join(hv), span);
                if let Some(ret) = args.get(1) {
                    let rv = self.value(ret)?;
                    if !matches!(rv.e, Expr::Const(0, _)) {
                        // The thread's return value is stored through the second argument. The
                        // IR does not carry it from the thread: a sound havoc, on which no
                        // witness may rest.
                        let lv = Lval::Deref(Box::new(rv.e), CType::Pointer(Box::new(CType::Void)));
                        let h = self.havoc(Ty::Ptr, "the value a joined thread returned", span);
                        let at = self.emit(Action::Assign(lv, h), span);
                        if let Expr::Load(Lval::Var(v)) = hv_copy {
                            self.join_results.push((at, v));
                        }
                    }
                }
                zero()
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// Lowers a call of a lock, condition-variable or atomic-section built-in: `Ok(None)` when
    /// `name` is none of them, else the call's value.
    fn sync_builtin(&mut self, name: &str, args: &'a [Node<Expression>], span_l: LSpan) -> Result<Option<Option<Val>>, Fatal> {
        let span = self.span(span_l);
        let zero = || Some(Val { e: Expr::int(0), ty: CType::int() });
        let v = match name {
            "pthread_mutex_lock" | "pthread_spin_lock" | "spin_lock" => {
                let m = self.mutex_arg(args, span_l, name)?;
                self.emit(Action::Acquire(m), span);
                zero()
            }
            "pthread_mutex_unlock" | "pthread_spin_unlock" | "spin_unlock" => {
                let m = self.mutex_arg(args, span_l, name)?;
                self.emit(Action::Release(m), span);
                zero()
            }
            "pthread_mutex_trylock" | "pthread_spin_trylock" => {
                let m = self.mutex_arg(args, span_l, name)?;
                let r = self.temp(CType::int());
                let here = std::mem::take(&mut self.cur);
                let got = self.new_loc(Action::Acquire(m.clone()), span);
                let busy = self.new_loc(Action::LockBusy(m), span);
                self.connect(&here, got);
                self.connect(&here, busy);
                self.cur = vec![got];
                self.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
                let ok = std::mem::take(&mut self.cur);
                self.cur = vec![busy];
                // EBUSY
                self.emit(Action::Assign(Lval::Var(r), Expr::int(16)), span);
                self.cur.extend(ok);
                Some(Val { e: Expr::Load(Lval::Var(r)), ty: CType::int() })
            }
            "pthread_cond_wait" | "pthread_cond_timedwait" => {
                // Waking up spuriously is allowed, so release-then-reacquire is exact.
                let m = self.mutex_arg(&args[args.len().min(1)..], span_l, name)?;
                if let Some(cv) = args.first() {
                    self.effect(cv)?;
                }
                for a in args.iter().skip(2) {
                    self.effect(a)?;
                }
                self.emit(Action::Release(m.clone()), span);
                self.emit(Action::Acquire(m), span);
                if name == "pthread_cond_timedwait" {
                    // Whether the time ran out is the environment's choice: 0 or ETIMEDOUT.
                    let r = self.temp(CType::int());
                    let here = std::mem::take(&mut self.cur);
                    let ok = self.new_loc(Action::Assign(Lval::Var(r), Expr::int(0)), span);
                    let late = self.new_loc(Action::Assign(Lval::Var(r), Expr::int(110)), span);
                    self.connect(&here, ok);
                    self.connect(&here, late);
                    self.cur = vec![ok, late];
                    return Ok(Some(Some(Val { e: Expr::Load(Lval::Var(r)), ty: CType::int() })));
                }
                zero()
            }
            "pthread_mutex_init"
            | "pthread_mutex_destroy"
            | "pthread_spin_init"
            | "pthread_spin_destroy"
            | "pthread_cond_signal"
            | "pthread_cond_broadcast"
            | "pthread_cond_init"
            | "pthread_cond_destroy"
            | "free" => {
                if name == "free" && self.opts.for_races {
                    for a in args {
                        let v = self.value(a)?;
                        self.release_write(v, name, span);
                    }
                    return Ok(Some(zero()));
                }
                for a in args {
                    self.effect_addr(a)?;
                }
                zero()
            }
            // The IR does not give a thread its own handle: an approximation, not an input.
            "pthread_self" => {
                self.pthread_self_at.get_or_insert(span);
                Some(Val { e: self.havoc(Ty::Int(IntTy { bits: 64, signed: false }), "the result of `pthread_self`", span), ty: CType::Int(IntTy { bits: 64, signed: false }, "pthread_t".into()) })
            }
            "__VERIFIER_atomic_begin" => {
                self.emit(Action::AtomicBegin, span);
                None
            }
            "__VERIFIER_atomic_end" => {
                self.emit(Action::AtomicEnd, span);
                None
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    fn halt(&mut self, h: Halt, span: Span) {
        if self.live() {
            self.emit(Action::Halt(h), span);
        }
        self.cur.clear();
    }

    fn assert_here(&mut self, id: AssertId, cond: Expr, span: Span) {
        if !self.live() {
            return;
        }
        let always_fails = matches!(cond, Expr::Const(0, _));
        let l = self.emit(Action::Assert(id, cond), span);
        self.assertions[id.index()].locs.push(l);
        if always_fails {
            // A failing assertion stops the program; nothing follows it.
            self.cur.clear();
        }
    }

    /// Evaluates an argument that may be `&object` without marking the object address-taken
    /// (mutex and thread-handle arguments).
    fn effect_addr(&mut self, a: &'a Node<Expression>) -> Result<(), Fatal> {
        match &a.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                let _ = self.lvalue(&u.node.operand)?;
                Ok(())
            }
            _ => self.effect(a),
        }
    }

    /// The object a `pthread_mutex_t *` argument points to.
    fn mutex_arg(&mut self, args: &'a [Node<Expression>], span: LSpan, name: &str) -> Result<Lval, Fatal> {
        let Some(a) = args.first() else { return Err(self.error(span, format!("`{name}` expects a mutex argument"))) };
        self.pointee_object(a, CType::Mutex)
    }

    pub(super) fn pointee_object(&mut self, a: &'a Node<Expression>, ty: CType) -> Result<Lval, Fatal> {
        let mut inner = a;
        while let Expression::Cast(c) = &inner.node {
            inner = &c.node.expression;
        }
        if let Expression::UnaryOperator(u) = &inner.node {
            if u.node.operator.node == UnaryOperator::Address {
                return Ok(self.lvalue(&u.node.operand)?.0);
            }
        }
        let p = self.rvalue(a)?;
        Ok(Lval::Deref(Box::new(p), ty))
    }

    fn pthread_create(&mut self, c: &'a CallExpression, span_l: LSpan) -> Result<(), Fatal> {
        let span = self.span(span_l);
        let args = &c.arguments;
        if args.len() != 4 {
            return Err(self.error(span_l, format!("`pthread_create` expects 4 arguments, found {}", args.len())));
        }
        let handle = match &args[0].node {
            Expression::Constant(_) => None,
            _ => Some(self.pointee_object(&args[0], CType::Int(IntTy { bits: 64, signed: false }, "pthread_t".into()))?),
        };
        self.effect_addr(&args[1])?;
        let routine = start_routine(&args[2].node).filter(|r| self.lookup(r).is_none());
        let arg = self.rvalue(&args[3])?;
        let arg = match arg {
            Expr::Const(0, _) => None,
            e => Some(e),
        };
        let Some(routine) = routine else { return self.indirect_fork(&args[2], handle, arg, span) };
        if !self.functions.contains_key(&routine) {
            self.unsupported(args[2].span, format!("thread routine `{routine}` has no definition"));
        }
        let t = self.template_for_fork(&routine, true);
        if self.live() {
            let at = self.emit(Action::Fork { template: t, handle, arg }, span);
            self.templates[t.index()].spawned_at.push(at);
        }
        Ok(())
    }

    fn nondet_type(&self, name: &str) -> CType {
        if let Some(r) = self.prototypes.get(name).and_then(|p| p.ret.clone()) {
            if !matches!(r, CType::Void) {
                return r;
            }
        }
        let i = |bits, signed, n: &str| CType::Int(IntTy { bits, signed }, n.into());
        let long = if self.dm() == DataModel::ILP32 { 32 } else { 64 };
        match name.trim_start_matches("__VERIFIER_nondet_") {
            "bool" | "_Bool" => CType::Bool,
            "char" => i(8, true, "char"),
            "uchar" | "unsigned_char" => i(8, false, "unsigned char"),
            "short" => i(16, true, "short"),
            "ushort" | "unsigned_short" => i(16, false, "unsigned short"),
            "uint" | "unsigned" | "unsigned_int" | "u32" => i(32, false, "unsigned int"),
            "long" => i(long, true, "long"),
            "ulong" | "unsigned_long" | "size_t" => i(long, false, "unsigned long"),
            "longlong" => i(64, true, "long long"),
            "ulonglong" => i(64, false, "unsigned long long"),
            "pointer" => CType::Pointer(Box::new(CType::Void)),
            "float" => CType::Float(4),
            "double" => CType::Float(8),
            _ => CType::int(),
        }
    }

    /// GCC's `__builtin_{add,sub,mul}_overflow(a, b, res)`: the exact result of `a op b`,
    /// wrapped to `*res`'s type and stored there, and whether the wrapping changed it. The
    /// exact result is computed in 64 signed bits, so only operands of at most 32 bits (and,
    /// for a product, magnitudes whose product fits) are lowered here; `None` (nothing
    /// evaluated) leaves the others to [`Self::external_call`].
    fn overflow_builtin(&mut self, name: &str, args: &'a [Node<Expression>], span: Span) -> Result<Option<Val>, Fatal> {
        use super::expr::int_ctype;
        let [a, b, res] = args else { return Ok(None) };
        self.untyped = false;
        let (ta, tb, tr) = (self.static_type(&a.node), self.static_type(&b.node), self.static_type(&res.node));
        if std::mem::take(&mut self.untyped) {
            return Ok(None);
        }
        let (CType::Int(ia, _), CType::Int(ib, _), CType::Pointer(target)) = (&ta, &tb, &tr) else { return Ok(None) };
        let CType::Int(it, _) = &**target else { return Ok(None) };
        let (ia, ib, it) = (*ia, *ib, *it);
        let magnitude = |t: IntTy| if t.signed { 1i128 << (t.bits - 1) } else { (1i128 << t.bits) - 1 };
        let op = match name {
            "__builtin_add_overflow" => BinOp::Add,
            "__builtin_sub_overflow" => BinOp::Sub,
            _ => BinOp::Mul,
        };
        if ia.bits > 32 || ib.bits > 32 || it.bits > 64 || (op == BinOp::Mul && magnitude(ia) * magnitude(ib) > i64::MAX as i128) {
            return Ok(None);
        }
        let wide = IntTy { bits: 64, signed: true };
        let (va, vb) = (self.value(a)?, self.value(b)?);
        let p = self.value(res)?;
        let (ea, eb) = (self.convert(va, &int_ctype(wide)), self.convert(vb, &int_ctype(wide)));
        let exact = self.temp(int_ctype(wide));
        self.emit(Action::Assign(Lval::Var(exact), Expr::Binary(op, Box::new(ea), Box::new(eb), Ty::Int(wide))), span);
        let load = || Box::new(Expr::Load(Lval::Var(exact)));
        let stored = self.convert(Val { e: *load(), ty: int_ctype(wide) }, target);
        self.emit(Action::Assign(Lval::Deref(Box::new(p.e), (**target).clone()), stored), span);
        // Out of the result type's range, clamped to what 64 signed bits hold (the exact
        // result never exceeds them).
        let (lo, hi) = if it.signed { (-(1i128 << (it.bits - 1)), (1i128 << (it.bits - 1)) - 1) } else { (0, (1i128 << it.bits) - 1) };
        let (lo, hi) = (lo.max(i64::MIN as i128), hi.min(i64::MAX as i128));
        let c = |v: i128| Box::new(Expr::Const(v, Ty::Int(wide)));
        let below = Expr::Binary(BinOp::Lt, load(), c(lo), Ty::INT);
        let above = Expr::Binary(BinOp::Gt, load(), c(hi), Ty::INT);
        Ok(Some(Val { e: Expr::Binary(BinOp::BitOr, Box::new(below), Box::new(above), Ty::INT), ty: CType::int() }))
    }

    /// A call to a function without a definition: its result, and every scalar it can reach
    /// through its pointer arguments (and, once the program is lowered, every object whose
    /// address any such call received), get a havoc recorded as an approximation.
    pub(super) fn external_call(&mut self, name: &str, args: &'a [Node<Expression>], span: Span) -> Result<Option<Val>, Fatal> {
        // Pure only in the forms that write nothing: a `nanosleep` interrupted by a signal
        // stores the time left through its second argument, and `%n` stores the count of
        // characters printed.
        // Setting PTHREAD_CREATE_JOINABLE (0) keeps the default: the threads stay joinable.
        let detaches = match name {
            "pthread_detach" => true,
            "pthread_attr_setdetachstate" => !args.get(1).is_some_and(|a| matches!(self.types.const_eval(&a.node), Some(0))),
            _ => false,
        };
        if detaches {
            self.detach_at.get_or_insert(span);
        }
        let mut pure = is_pure_library(name)
            && match name {
                "nanosleep" => args.get(1).is_none_or(|a| matches!(self.types.const_eval(&a.node), Some(0))),
                "printf" | "fprintf" => !args.get(usize::from(name == "fprintf")).is_none_or(|f| may_store_count(&f.node)),
                _ => true,
            };
        // For the race check: these functions keep hidden state in the C library (the random
        // seed) that every thread's call reads and writes, and POSIX does not make them
        // thread-safe. A global of the IR's own stands for it, read and written by each call in
        // one step, so that two unsynchronised calls race on it.
        if self.opts.for_races && matches!(name, "rand" | "random" | "srand" | "srandom") {
            let state = match self.rand_state {
                Some(v) => v,
                None => {
                    let v = self.new_var("<rand state>", CType::int(), VarKind::Global, Some(span));
                    self.rand_state = Some(v);
                    v
                }
            };
            let next = Expr::Binary(BinOp::Add, Box::new(Expr::Load(Lval::Var(state))), Box::new(Expr::int(1)), Ty::INT);
            self.emit(Action::Assign(Lval::Var(state), next), span);
        }
        let mut vals = Vec::new();
        for a in args {
            // A pure function only reads its strings: no literal needs to be materialised.
            if pure && matches!(a.node, Expression::StringLiteral(_)) {
                continue;
            }
            vals.push(self.value(a)?);
        }
        if self.opts.for_races {
            // The caller reads the arguments (C evaluates them before the call): a step of
            // its own, so that a race on them is seen. Floating point is not interpreted.
            for v in &vals {
                let mut loads = false;
                v.e.for_each_load(&mut |_| loads = true);
                if loads && matches!(v.ty, CType::Bool | CType::Int(..) | CType::Pointer(_)) {
                    let t = self.temp(v.ty.clone());
                    self.emit(Action::Assign(Lval::Var(t), v.e.clone()), span);
                }
            }
        }
        let ret = self.prototypes.get(name).and_then(|p| p.ret.clone()).unwrap_or_else(CType::int);
        // `time(&t)` stores its result in `t` too. An argument that is neither null nor the
        // address of an object is written as an unknown function would write it.
        let mut store_result = None;
        if name == "time" {
            match vals.first().map(|v| &v.e) {
                Some(e) if is_null_constant(e) => {}
                Some(Expr::AddrOf(lv)) if self.lval_ctype(lv).scalar(self.dm()) == ret.scalar(self.dm()) => store_result = Some(lv.clone()),
                Some(_) => pure = false,
                None => {}
            }
        }
        let callee = UnknownCallee { name, pure, system: self.system_functions.contains(name), input: result_is_input(name) };
        let Some(t) = self.unknown_code(&callee, vals, &ret, span) else { return Ok(None) };
        if let Some(lv) = store_result {
            self.emit(Action::Assign(lv, Expr::Load(Lval::Var(t))), span);
        }
        if matches!(name, "rand" | "random") {
            // The C library's RAND_MAX.
            let ge = Expr::Binary(BinOp::Ge, Box::new(Expr::Load(Lval::Var(t))), Box::new(Expr::int(0)), Ty::INT);
            self.emit(Action::Assume(ge), span);
        }
        Ok(Some(Val { e: Expr::Load(Lval::Var(t)), ty: ret }))
    }

    /// The effect of code the program does not contain, called with these arguments: for a
    /// pure callee only a result the IR does not compute; otherwise a havoc of every scalar it
    /// can reach through its pointer arguments (and, once the program is lowered, of every
    /// object whose address any such call received), of the globals with external linkage
    /// unless a system header declares it, and a step that taints the replay. Gives the
    /// temporary holding the result, if any.
    pub(super) fn unknown_code(&mut self, callee: &UnknownCallee, vals: Vec<Val>, ret: &CType, span: Span) -> Option<VarId> {
        let UnknownCallee { name, pure, system, input } = *callee;
        let mut wide_integer_arg = false;
        let ap = if pure {
            self.approximation(format!("the result of `{name}`"), span, true, false)
        } else {
            if self.external_seen.insert(name.to_string()) {
                self.external_calls.push((name.to_string(), span));
            }
            // An unknown function may also block or synchronise: a replay through it proves
            // nothing about later steps.
            let ap = self.approximation(format!("a call of `{name}`, which has no definition"), span, true, true);
            let ptr_bits = if self.dm() == DataModel::ILP32 { 32 } else { 64 };
            wide_integer_arg = vals.iter().any(|v| matches!(v.ty.scalar(self.dm()), Ty::Int(i) if i.bits >= ptr_bits));
            self.havoc_arguments(vals, ap, name, span);
            if !system {
                self.havoc_linked_globals(ap, name, span);
                self.calls_linked_functions(name, span);
            }
            ap
        };
        let result = match ret {
            CType::Void => None,
            _ if input => Some(Expr::Nondet(ret.scalar(self.dm()))),
            _ => Some(Expr::Havoc(ret.scalar(self.dm()), ap)),
        };
        let Some(e) = result else {
            if !pure {
                // The call itself is a step the replay must see.
                let t = self.temp(CType::int());
                let at = self.emit(Action::Assign(Lval::Var(t), Expr::Havoc(Ty::INT, ap)), span);
                self.external_step(at, ap, name, span, ret, wide_integer_arg);
            }
            return None;
        };
        let t = self.temp(ret.clone());
        let at = self.emit(Action::Assign(Lval::Var(t), e), span);
        if !pure {
            self.external_step(at, ap, name, span, ret, wide_integer_arg);
        }
        Some(t)
    }

    /// Inlines a call of a defined function: parameters are bound, the body is lowered with
    /// returns jumping to a join point.
    pub(super) fn inline_call(&mut self, name: &str, args: Vec<Val>, span: Span, call_span: Option<LSpan>) -> Result<Option<Val>, Fatal> {
        let atomic = name.starts_with("__VERIFIER_atomic_");
        // Recursion (see `recursion`): exact copies to a depth, then the shared copy. An atomic
        // function's shared copy would nest atomic sections across its call edges.
        let args = if atomic {
            args
        } else {
            match self.recursive_call(name, args, span)? {
                Ok(v) => return Ok(v),
                Err(args) => args,
            }
        };
        if atomic && self.frames.iter().any(|f| f.name == name) {
            let construct = format!("recursive call to `{name}`");
            match call_span {
                Some(s) => self.unsupported(s, construct),
                None => self.unsupported.push(Unsupported { span, construct }),
            }
            let ret = self.functions[name].ret.clone();
            return Ok((!matches!(ret, CType::Void)).then(|| Val { e: Expr::Nondet(ret.scalar(self.dm())), ty: ret }));
        }
        let info = &self.functions[name];
        let def = info.def;
        let params = info.params.clone();
        let ret_ty = info.ret.clone();
        let end = self.map.span(def.statement.span.end.saturating_sub(1));
        let mut scope = HashMap::new();
        let mut binds = Vec::new();
        let mut args = args.into_iter();
        for (i, (pname, pty)) in params.iter().enumerate() {
            let pname = pname.clone().unwrap_or_else(|| format!("$arg{i}"));
            let v = self.new_var(&pname, pty.clone(), VarKind::Local(self.tpl), Some(span));
            scope.insert(pname, Binding::Var(v));
            let value = match args.next() {
                Some(a) => self.convert(a, pty),
                None => Expr::Nondet(pty.scalar(self.dm())),
            };
            binds.push((v, value));
        }
        for (v, value) in binds {
            self.emit(Action::Assign(Lval::Var(v), value), span);
        }
        let ret_var = (!matches!(ret_ty, CType::Void) && ret_ty.is_scalar()).then(|| self.temp(ret_ty.clone()));
        let ret_target = self.new_loc(Action::Skip, end);
        if atomic {
            self.emit(Action::AtomicBegin, span);
        }
        self.frames.push(Frame {
            name: name.to_string(),
            scopes: vec![scope],
            labels: HashMap::new(),
            ret_target: Some(ret_target),
            ret_var,
            ret_ty: ret_ty.clone(),
            jumps: Vec::new(),
            cases: Vec::new(),
            is_main: false,
            region: None,
        });
        let r = self.stmt(&def.statement);
        self.frames.pop();
        r?;
        self.place(ret_target);
        if atomic {
            self.emit(Action::AtomicEnd, end);
        }
        Ok(ret_var.map(|v| Val { e: Expr::Load(Lval::Var(v)), ty: ret_ty }))
    }
}

/// The function a `pthread_create` start-routine argument names, through casts and `&`.
fn start_routine(e: &Expression) -> Option<String> {
    match e {
        Expression::Identifier(id) => Some(id.node.name.clone()),
        Expression::Cast(c) => start_routine(&c.node.expression.node),
        Expression::UnaryOperator(u) if matches!(u.node.operator.node, UnaryOperator::Address | UnaryOperator::Indirection) => start_routine(&u.node.operand.node),
        _ => None,
    }
}
