//! Lowering of C statements and local declarations into control flow.

use super::{Fatal, Lowerer};
use crate::ir::*;
use hashbrown::HashMap;
use lang_c::ast::*;
use lang_c::span::Node;

impl<'a> Lowerer<'a> {
    pub(super) fn push_scope(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.scopes.push(HashMap::new());
        }
    }

    pub(super) fn pop_scope(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.scopes.pop();
        }
    }

    /// Lowers one statement at the current frontier.
    pub(crate) fn stmt(&mut self, s: &'a Node<Statement>) -> Result<(), Fatal> {
        self.check_size(s.span)?;
        let span = self.span(s.span);
        match &s.node {
            Statement::Compound(items) => {
                self.push_scope();
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => self.local_declaration(d)?,
                        BlockItem::Statement(st) => self.stmt(st)?,
                        BlockItem::StaticAssert(_) => {}
                    }
                }
                self.pop_scope();
            }
            Statement::Expression(Some(e)) => self.effect(e)?,
            Statement::Expression(None) => {}
            Statement::If(i) => {
                let (t, f) = self.cond(&i.node.condition)?;
                self.cur = t;
                self.stmt(&i.node.then_statement)?;
                let after_then = std::mem::take(&mut self.cur);
                self.cur = f;
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e)?;
                }
                self.cur.extend(after_then);
            }
            Statement::While(w) => {
                let head = self.new_loc(Action::Skip, span);
                let exit = self.new_loc(Action::Skip, span);
                self.place(head);
                let (t, f) = self.cond(&w.node.expression)?;
                self.connect(&f, exit);
                self.cur = t;
                self.loop_body(&w.node.statement, exit, head)?;
                self.jump(head);
                self.cur = vec![exit];
            }
            Statement::DoWhile(d) => {
                let body = self.new_loc(Action::Skip, span);
                let cont = self.new_loc(Action::Skip, self.span(d.node.expression.span));
                let exit = self.new_loc(Action::Skip, span);
                self.place(body);
                self.loop_body(&d.node.statement, exit, cont)?;
                self.place(cont);
                let (t, f) = self.cond(&d.node.expression)?;
                self.connect(&t, body);
                self.connect(&f, exit);
                self.cur = vec![exit];
            }
            Statement::For(f) => {
                self.push_scope();
                match &f.node.initializer.node {
                    ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                    ForInitializer::Expression(e) => self.effect(e)?,
                    ForInitializer::Declaration(d) => self.local_declaration(d)?,
                }
                let head = self.new_loc(Action::Skip, span);
                let exit = self.new_loc(Action::Skip, span);
                let step_span = f.node.step.as_ref().map(|e| self.span(e.span)).unwrap_or(span);
                let cont = self.new_loc(Action::Skip, step_span);
                self.place(head);
                if let Some(c) = &f.node.condition {
                    let (t, fl) = self.cond(c)?;
                    self.connect(&fl, exit);
                    self.cur = t;
                }
                self.loop_body(&f.node.statement, exit, cont)?;
                self.place(cont);
                if let Some(step) = &f.node.step {
                    self.effect(step)?;
                }
                self.jump(head);
                self.cur = vec![exit];
                self.pop_scope();
            }
            Statement::Goto(label) => {
                let target = self.label(&label.node.name, span);
                self.jump(target);
            }
            Statement::Labeled(l) => {
                match &l.node.label.node {
                    Label::Identifier(id) => {
                        let target = self.label(&id.node.name, span);
                        self.place(target);
                    }
                    Label::Case(_) | Label::CaseRange(_) | Label::Default => {
                        let target = self.frames.last().and_then(|f| f.cases.last()).and_then(|c| c.get(&s.span.start)).copied();
                        match target {
                            Some(t) => self.place(t),
                            None => return Err(self.error(s.span, "`case` or `default` label outside of a switch")),
                        }
                    }
                }
                self.stmt(&l.node.statement)?;
            }
            Statement::Continue => {
                let target = self.frames.last().and_then(|f| f.jumps.iter().rev().find_map(|(_, c)| *c));
                match target {
                    Some(t) => self.jump(t),
                    None => return Err(self.error(s.span, "`continue` outside of a loop")),
                }
            }
            Statement::Break => {
                let target = self.frames.last().and_then(|f| f.jumps.last().map(|(b, _)| *b));
                match target {
                    Some(t) => self.jump(t),
                    None => return Err(self.error(s.span, "`break` outside of a loop or switch")),
                }
            }
            Statement::Return(e) => self.return_stmt(e.as_deref(), span)?,
            Statement::Switch(sw) => self.switch(&sw.node, span)?,
            Statement::Asm(a) => self.inline_asm(a)?,
        }
        Ok(())
    }

    fn loop_body(&mut self, body: &'a Node<Statement>, exit: LocId, cont: LocId) -> Result<(), Fatal> {
        if let Some(f) = self.frames.last_mut() {
            f.jumps.push((exit, Some(cont)));
        }
        let r = self.stmt(body);
        if let Some(f) = self.frames.last_mut() {
            f.jumps.pop();
        }
        r
    }

    fn label(&mut self, name: &str, span: Span) -> LocId {
        if let Some(l) = self.frames.last().and_then(|f| f.labels.get(name)) {
            return *l;
        }
        let l = self.new_loc(Action::Skip, span);
        if let Some(f) = self.frames.last_mut() {
            f.labels.insert(name.to_string(), l);
        }
        l
    }

    fn return_stmt(&mut self, e: Option<&'a Node<Expression>>, span: Span) -> Result<(), Fatal> {
        let (ret_var, ret_target, ret_ty) = match self.frames.last() {
            Some(f) => (f.ret_var, f.ret_target, f.ret_ty.clone()),
            None => (None, None, CType::Void),
        };
        if let Some(e) = e {
            match ret_var {
                Some(v) if ret_ty.is_scalar() => {
                    let val = self.value(e)?;
                    let conv = self.convert(val, &ret_ty);
                    self.emit(Action::Assign(Lval::Var(v), conv), span);
                }
                _ => self.effect(e)?,
            }
        }
        match ret_target {
            Some(t) => self.jump(t),
            None => self.finish_thread(span),
        }
        Ok(())
    }

    fn switch(&mut self, sw: &'a SwitchStatement, span: Span) -> Result<(), Fatal> {
        let v = self.value(&sw.expression)?;
        let it = match &v.ty {
            CType::Int(i, _) => super::expr::promote(*i),
            _ => IntTy { bits: 32, signed: true },
        };
        let ct = CType::Int(it, "int".into());
        let conv = self.convert(v, &ct);
        let scrut = match conv {
            Expr::Const(..) => conv,
            e => {
                let t = self.temp(ct.clone());
                self.emit(Action::Assign(Lval::Var(t), e), span);
                Expr::Load(Lval::Var(t))
            }
        };
        let mut labels = Vec::new();
        collect_cases(&sw.statement, &mut labels);
        let exit = self.new_loc(Action::Skip, span);
        let dispatch = std::mem::take(&mut self.cur);
        let mut targets = HashMap::new();
        let mut default = None;
        // Paths that matched no case so far, for `default`.
        let mut unmatched = dispatch.clone();
        let ty = Ty::Int(it);
        for (offset, label) in labels {
            let target = self.new_loc(Action::Skip, self.span(label.span));
            targets.insert(offset, target);
            match &label.node {
                Label::Case(e) => {
                    let Some(c) = self.types.const_eval(&e.node) else {
                        return Err(self.error(e.span, "case label is not an integer constant"));
                    };
                    let c = Expr::Const(ty.convert(c, self.dm()), ty);
                    let hit = self.new_loc(Action::Assume(Expr::Binary(BinOp::Eq, Box::new(scrut.clone()), Box::new(c.clone()), Ty::INT)), span);
                    self.connect(&dispatch, hit);
                    self.connect(&[hit], target);
                    let miss = self.new_loc(Action::Assume(Expr::Binary(BinOp::Ne, Box::new(scrut.clone()), Box::new(c), Ty::INT)), span);
                    self.connect(&unmatched, miss);
                    unmatched = vec![miss];
                }
                Label::CaseRange(r) => {
                    let (Some(lo), Some(hi)) = (self.types.const_eval(&r.node.low.node), self.types.const_eval(&r.node.high.node)) else {
                        return Err(self.error(r.span, "case range bounds are not integer constants"));
                    };
                    let (lo, hi) = (Expr::Const(ty.convert(lo, self.dm()), ty), Expr::Const(ty.convert(hi, self.dm()), ty));
                    let ge = self.new_loc(Action::Assume(Expr::Binary(BinOp::Ge, Box::new(scrut.clone()), Box::new(lo.clone()), Ty::INT)), span);
                    let le = self.new_loc(Action::Assume(Expr::Binary(BinOp::Le, Box::new(scrut.clone()), Box::new(hi.clone()), Ty::INT)), span);
                    self.connect(&dispatch, ge);
                    self.connect(&[ge], le);
                    self.connect(&[le], target);
                    let below = self.new_loc(Action::Assume(Expr::Binary(BinOp::Lt, Box::new(scrut.clone()), Box::new(lo), Ty::INT)), span);
                    let above = self.new_loc(Action::Assume(Expr::Binary(BinOp::Gt, Box::new(scrut.clone()), Box::new(hi), Ty::INT)), span);
                    self.connect(&unmatched, below);
                    self.connect(&unmatched, above);
                    unmatched = vec![below, above];
                }
                _ => default = Some(target),
            }
        }
        self.connect(&unmatched, default.unwrap_or(exit));
        if let Some(f) = self.frames.last_mut() {
            f.jumps.push((exit, None));
            f.cases.push(targets);
        }
        self.cur = Vec::new();
        let r = self.stmt(&sw.statement);
        if let Some(f) = self.frames.last_mut() {
            f.jumps.pop();
            f.cases.pop();
        }
        r?;
        self.place(exit);
        Ok(())
    }

    /// For the race check: a variable-length array's size is evaluated when its declaration
    /// runs, reading what it names; the IR does not keep the size, so the read is a step of its
    /// own, for a race on it to be seen.
    fn vla_sizes(&mut self, d: &'a Declarator, span: Span) -> Result<(), Fatal> {
        if let DeclaratorKind::Declarator(inner) = &d.kind.node {
            self.vla_sizes(&inner.node, span)?;
        }
        for der in &d.derived {
            let DerivedDeclarator::Array(a) = &der.node else { continue };
            let (ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e)) = &a.node.size else { continue };
            if self.types.const_eval(&e.node).is_some() {
                continue;
            }
            let v = self.value(e)?;
            let t = self.temp(v.ty.clone());
            self.emit(Action::Assign(Lval::Var(t), v.e), span);
        }
        Ok(())
    }

    /// Lowers a declaration inside a function body.
    pub(crate) fn local_declaration(&mut self, d: &'a Node<Declaration>) -> Result<(), Fatal> {
        let specs = self.declaration_specs(d)?;
        for id in &d.node.declarators {
            let mut decl = self.types.declarator(specs.ty.clone(), &id.node.declarator.node).map_err(|e| self.error(id.span, format!("unsupported type: {e}")))?;
            self.types.declaration_attributes(&specs, &id.node.declarator.node, &mut decl, id.span.start);
            decl.ty = self.complete_array_length(decl.ty, id.node.initializer.as_ref());
            let Some(name) = decl.name.clone() else { continue };
            let span = self.span(id.span);
            let sig = self.signature(&d.node, &decl);
            if specs.is_typedef {
                if let Some(s) = sig {
                    self.types.typedef_sigs.insert(name.clone(), s);
                }
                self.note_atomic_typedef(&name, specs.is_atomic, &decl.ty);
                self.types.add_typedef(&name, decl.ty);
                continue;
            }
            if matches!(decl.ty, CType::Function) {
                self.prototypes.insert(name, decl);
                continue;
            }
            if specs.is_extern {
                if let Some(g) = self.globals.get(&name).copied() {
                    self.bind(&name, g);
                }
                continue;
            }
            if specs.is_static {
                let v = self.static_local(&name, decl.ty.clone(), id.span.start, span, id.node.initializer.as_ref(), specs.is_thread_local)?;
                self.note_atomic_var(v, specs.is_atomic);
                self.bind(&name, v);
                continue;
            }
            if self.opts.for_races {
                self.vla_sizes(&id.node.declarator.node, span)?;
            }
            let kind = if specs.is_thread_local { VarKind::ThreadLocal } else { VarKind::Local(self.tpl) };
            let v = self.new_var(&name, decl.ty.clone(), kind, Some(span));
            if !specs.is_thread_local && self.live() && self.holds_mutex(&decl.ty) {
                let at = self.emit(Action::Skip, span);
                self.lock_decls.push((at, span));
            }
            self.bind(&name, v);
            self.note_atomic_var(v, specs.is_atomic);
            if let Some(s) = sig {
                self.var_sigs.insert(v, s);
            }
            match &id.node.initializer {
                Some(init) => {
                    // What a braced list leaves out is zero, as in static storage (C11
                    // 6.7.9p21): `struct P l = { .b = 3 }` has `l.a == 0`.
                    if matches!(init.node, Initializer::List(_)) && !decl.ty.is_scalar() {
                        self.zero_fill(Lval::Var(v), &decl.ty, span);
                    }
                    self.initialize(Lval::Var(v), &decl.ty, init, span)?
                }
                None if decl.ty.is_scalar() && self.live() => {
                    // An uninitialised local holds an indeterminate value, on every iteration
                    // of a loop that declares it.
                    let t = decl.ty.scalar(self.dm());
                    self.emit(Action::Assign(Lval::Var(v), Expr::Nondet(t)), span);
                    if matches!(&decl.ty, CType::Pointer(f) if matches!(**f, CType::Function)) {
                        self.indeterminate_fn_ptrs.insert((v, span));
                    }
                }
                None => {}
            }
        }
        Ok(())
    }

    /// Whether an object of this type holds a mutex (the IR's lock, whose state is kept).
    fn holds_mutex(&self, ty: &CType) -> bool {
        match ty {
            CType::Mutex => true,
            CType::Array(e, _) => self.holds_mutex(e),
            CType::Record(r) => self.types.records[r.0 as usize].fields.iter().any(|(_, f)| self.holds_mutex(f)),
            _ => false,
        }
    }

    /// A `static` local: one global object per declaration (one per thread if `_Thread_local`),
    /// initialised before `main`.
    fn static_local(&mut self, name: &str, ty: CType, offset: usize, span: Span, init: Option<&'a Node<Initializer>>, thread_local: bool) -> Result<VarId, Fatal> {
        if let Some(v) = self.statics.get(&offset) {
            return Ok(*v);
        }
        let fname = self.frames.last().map(|f| f.name.clone()).unwrap_or_default();
        let kind = if thread_local { VarKind::ThreadLocal } else { VarKind::Global };
        let v = self.new_var(&format!("{fname}::{name}"), ty.clone(), kind, Some(span));
        self.statics.insert(offset, v);
        if let Some(init) = init {
            // The initialisation runs once, at the start of the root thread (and of every
            // other thread for a thread-local one, see `lower_program`).
            self.init_at_entry(TemplateId(0), v, init, span)?;
            if thread_local {
                self.tls_inits.push((v, init));
            }
        }
        Ok(v)
    }
}

/// The case and default labels of a switch body, not descending into nested switches.
fn collect_cases<'a>(s: &'a Node<Statement>, out: &mut Vec<(usize, &'a Node<Label>)>) {
    match &s.node {
        Statement::Labeled(l) => {
            if !matches!(l.node.label.node, Label::Identifier(_)) {
                out.push((s.span.start, &l.node.label));
            }
            collect_cases(&l.node.statement, out);
        }
        Statement::Compound(items) => {
            for it in items {
                if let BlockItem::Statement(st) = &it.node {
                    collect_cases(st, out);
                }
            }
        }
        Statement::If(i) => {
            collect_cases(&i.node.then_statement, out);
            if let Some(e) = &i.node.else_statement {
                collect_cases(e, out);
            }
        }
        Statement::While(w) => collect_cases(&w.node.statement, out),
        Statement::DoWhile(d) => collect_cases(&d.node.statement, out),
        Statement::For(f) => collect_cases(&f.node.statement, out),
        _ => {}
    }
}
