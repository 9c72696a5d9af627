//! Lowering of a parsed translation unit into the IR: functions are inlined per call site,
//! each `pthread_create` site becomes a thread template, statements become control flow.
//!
//! Initialisers of globals and `static` locals run at the root's entry, those of thread-local
//! ones at every other thread's entry too. A store into a bit-field that another thread may see
//! loads the other bit-fields sharing its bytes and stores them back with it in one atomic
//! section, as GCC's byte read-modify-write does, so no other thread sees a torn unit.

mod call;
mod entries;
mod expr;
mod gnu;
mod indirect;
pub(super) mod library;
mod recursion;
mod stmt;

use super::ctypes::{Declared, TypeEnv};
use super::source_map::SourceMap;
use super::FrontendOptions;
use crate::diag::Diagnostic;
use crate::ir::*;
use hashbrown::{HashMap, HashSet};
use lang_c::ast::*;
use lang_c::span::{Node, Span as LSpan};
use std::collections::VecDeque;

pub(super) use indirect::check_sites as check_indirect_calls;
pub use recursion::{INLINE_LIMIT, RECURSION_DEPTH};

/// Templates larger than this stop the lowering: inlining has exploded.
const MAX_LOCATIONS: usize = 2_000_000;

/// A function definition of the program.
pub(super) struct FuncInfo<'a> {
    pub def: &'a FunctionDefinition,
    pub params: Vec<(Option<String>, CType)>,
    pub ret: CType,
    pub offset: usize,
    /// Where the definition ends (byte offset in the preprocessed text).
    pub end: usize,
}

/// A name in scope.
#[derive(Clone, Copy, Debug)]
enum Binding {
    Var(VarId),
}

/// The frame of one (inlined) function body being lowered.
struct Frame {
    name: String,
    scopes: Vec<HashMap<String, Binding>>,
    labels: HashMap<String, LocId>,
    /// Where `return` jumps to; `None` in a template's start routine (the thread ends).
    ret_target: Option<LocId>,
    ret_var: Option<VarId>,
    ret_ty: CType,
    /// (break target, continue target) of the enclosing loops and switches.
    jumps: Vec<(LocId, Option<LocId>)>,
    /// Case placeholders of the enclosing switches, by the case statement's offset.
    cases: Vec<HashMap<usize, LocId>>,
    /// Inside an atomic section by lexical nesting (for `__VERIFIER_atomic_*` bodies).
    is_main: bool,
    /// The shared copy of recursive functions this body belongs to (see `recursion`).
    region: Option<usize>,
}

/// A thread template still to be lowered.
struct PendingTemplate {
    id: TemplateId,
    function: String,
    /// Start routines of the creators, root first: recreating one of them means recursion
    /// in thread creation, which reuses the existing template as unbounded.
    chain: Vec<(String, TemplateId)>,
    /// The creator passes the start routine's first parameter (`pthread_create`'s `arg`).
    binds_arg: bool,
}

/// The lowering state.
pub(super) struct Lowerer<'a> {
    src: &'a str,
    map: &'a SourceMap,
    opts: &'a FrontendOptions,
    display: String,
    pub types: TypeEnv,
    pub vars: Vec<Variable>,
    pub locs: Vec<Location>,
    pub templates: Vec<Template>,
    pub assertions: Vec<Assertion>,
    assert_index: HashMap<usize, AssertId>,
    pub unsupported: Vec<Unsupported>,
    pub external_calls: Vec<(String, Span)>,
    /// Over-approximated steps; a cell so that `&self` conversions can record one.
    pub approximations: std::cell::RefCell<Vec<Approximation>>,
    external_seen: HashSet<String>,
    pub alloc_sites: u32,
    /// Where the program makes a mutex error-checking, if it does.
    pub errorcheck_mutex: Option<Span>,
    /// The first call of `pthread_self`, and whether the program joins a thread: together
    /// they make the join of a handle the IR does not model (the joiner's own, or the main
    /// thread's).
    pthread_self_at: Option<Span>,
    joins_threads: bool,
    /// The first call that detaches a thread: with a join, a join the IR makes wait.
    detach_at: Option<Span>,
    /// Variables of `_Atomic` type (or arrays of it): their `++`, `--` and compound
    /// assignments are one atomic step.
    atomic_vars: hashbrown::HashSet<VarId>,
    /// The global standing for the C library's random seed in the race check.
    rand_state: Option<VarId>,
    /// Recursive calls lowered (callee, call site), first per callee.
    pub recursive_calls: Vec<(String, Span)>,
    globals: HashMap<String, VarId>,
    pub functions: HashMap<String, FuncInfo<'a>>,
    prototypes: HashMap<String, Declared>,
    global_inits: Vec<(VarId, &'a Node<Initializer>)>,
    /// Thread-local objects with an initialiser (globals and `static` locals): every thread's
    /// copy starts with it, so each thread other than the root stores it at its entry.
    tls_inits: Vec<(VarId, &'a Node<Initializer>)>,
    name_counts: HashMap<String, u32>,
    cur: Vec<LocId>,
    tpl: TemplateId,
    frames: Vec<Frame>,
    pending: VecDeque<PendingTemplate>,
    chain: Vec<(String, TemplateId)>,
    temp_count: u32,
    /// `static` locals by declaration offset: one object however often the function is inlined.
    statics: HashMap<usize, VarId>,
    /// Functions whose address the program takes, in order of first use; the index gives
    /// the address.
    fn_names: Vec<String>,
    fn_index: HashMap<String, usize>,
    /// Signatures of function-pointer variables.
    var_sigs: HashMap<VarId, super::ctypes::Signature>,
    /// Calls through pointers, checked once the program is lowered.
    pub indirect_sites: Vec<indirect::IndirectSite>,
    /// The indeterminate values uninitialised function-pointer locals get at their
    /// declaration (variable and span of the havoc): a call through one is undefined, so
    /// [`check_indirect_calls`] does not count them as pointers that may be no function.
    pub indeterminate_fn_ptrs: HashSet<(VarId, Span)>,
    /// String literals by their text: one constant array each.
    literals: HashMap<String, VarId>,
    /// The bytes each string literal's array is initialised with at the program's start.
    literal_inits: Vec<(VarId, Vec<u8>, Span)>,
    /// Per thread template, the global its start routine's result is stored in.
    thread_results: HashMap<TemplateId, VarId>,
    /// `pthread_join` stores of a havocked result: the location and the handle variable.
    join_results: Vec<(LocId, VarId)>,
    /// Where a block-scope object holding a lock is declared: the location its declaration
    /// passes, and the declaration.
    lock_decls: Vec<(LocId, Span)>,
    /// Objects whose address a call of an undefined function received: any such call may
    /// write them, so each is havocked at every one once the program is lowered.
    escaped: Vec<VarId>,
    /// The steps of calls of undefined functions.
    external_steps: Vec<library::ExternalStep>,
    /// The objects the call being lowered havocs through its arguments.
    step_writes: Vec<VarId>,
    /// Some pointer was converted to an integer: an integer may then carry an address that
    /// the points-to model does not follow.
    address_as_integer: std::cell::Cell<bool>,
    /// Globals with external linkage that the program declares (not a system header's): a
    /// function defined in another translation unit may write them by name.
    linked_globals: Vec<VarId>,
    /// Functions with external linkage that the program defines, other than `main` (not a
    /// system header's): a function defined in another translation unit may call them by name.
    linked_functions: Vec<String>,
    /// See [`Program::known_to_unknown_code`].
    known_to_unknown_code: Vec<VarId>,
    /// Functions whose declaration comes from a system header: the C library, which writes no
    /// program global by name.
    system_functions: HashSet<String>,
    /// Recursive calls: exact copies counted, shared copies lowered.
    rec: recursion::RecursionState,
    /// Lowering the offset that moves a character pointer (`container_of`): an `offsetof`
    /// there counts slots, as the pointer does.
    slot_offset: bool,
    /// Lowering a move of a character pointer by a count of slots (`container_of`).
    moves_by_slots: bool,
    /// Character pointers moved by bytes: see [`Program::byte_moves`].
    byte_moves: Vec<(Expr, Span)>,
    /// Set by [`Lowerer::static_type`] when it met an expression whose type it cannot tell,
    /// so that `sizeof` of it is not a guess.
    untyped: bool,
    /// See [`Program::notes`].
    notes: Vec<(String, String)>,
    /// How the unit uses its functions, which decides the entry points without a whole program.
    entry_uses: entries::Uses,
}

/// An error that stops lowering the file.
pub(super) type Fatal = Diagnostic;

impl<'a> Lowerer<'a> {
    pub(super) fn new(src: &'a str, map: &'a SourceMap, opts: &'a FrontendOptions, display: &str) -> Self {
        let dm = if opts.m32 { DataModel::ILP32 } else { DataModel::LP64 };
        Lowerer {
            src,
            map,
            opts,
            display: display.to_string(),
            types: TypeEnv::new(dm),
            vars: Vec::new(),
            locs: Vec::new(),
            templates: Vec::new(),
            assertions: Vec::new(),
            assert_index: HashMap::new(),
            unsupported: Vec::new(),
            external_calls: Vec::new(),
            approximations: Default::default(),
            external_seen: HashSet::new(),
            alloc_sites: 0,
            errorcheck_mutex: None,
            pthread_self_at: None,
            joins_threads: false,
            detach_at: None,
            atomic_vars: hashbrown::HashSet::new(),
            rand_state: None,
            recursive_calls: Vec::new(),
            globals: HashMap::new(),
            functions: HashMap::new(),
            prototypes: HashMap::new(),
            global_inits: Vec::new(),
            tls_inits: Vec::new(),
            name_counts: HashMap::new(),
            cur: Vec::new(),
            tpl: TemplateId(0),
            frames: Vec::new(),
            pending: VecDeque::new(),
            chain: Vec::new(),
            temp_count: 0,
            statics: HashMap::new(),
            fn_names: Vec::new(),
            fn_index: HashMap::new(),
            var_sigs: HashMap::new(),
            indirect_sites: Vec::new(),
            indeterminate_fn_ptrs: HashSet::new(),
            literals: HashMap::new(),
            literal_inits: Vec::new(),
            thread_results: HashMap::new(),
            join_results: Vec::new(),
            lock_decls: Vec::new(),
            escaped: Vec::new(),
            external_steps: Vec::new(),
            step_writes: Vec::new(),
            address_as_integer: std::cell::Cell::new(false),
            linked_globals: Vec::new(),
            linked_functions: Vec::new(),
            known_to_unknown_code: Vec::new(),
            system_functions: HashSet::new(),
            rec: Default::default(),
            slot_offset: false,
            moves_by_slots: false,
            byte_moves: Vec::new(),
            notes: Vec::new(),
            entry_uses: Default::default(),
            untyped: false,
        }
    }

    /// The data model in use.
    pub(super) fn dm(&self) -> DataModel {
        self.types.dm
    }

    /// Source position of a lang-c span.
    pub(super) fn span(&self, s: LSpan) -> Span {
        self.map.span(s.start)
    }

    /// An input error at a lang-c span.
    pub(super) fn error(&self, s: LSpan, msg: impl Into<String>) -> Fatal {
        let sp = self.span(s);
        let file = self.map.files.get(sp.file as usize).cloned().unwrap_or_else(|| self.display.clone());
        Diagnostic::input(file, sp.line, sp.col, msg)
    }

    /// Records an unsupported construct; verdicts will be `unknown` naming it.
    pub(super) fn unsupported(&mut self, s: LSpan, what: impl Into<String>) {
        let span = self.span(s);
        let construct = what.into();
        if !self.unsupported.iter().any(|u| u.span == span && u.construct == construct) {
            self.unsupported.push(Unsupported { span, construct });
        }
    }

    /// The source text of a node, with whitespace runs collapsed. The preprocessor's line
    /// markers (`# 15 "f.c"`, which it writes inside an expression in place of ten or more
    /// blank or comment lines) are dropped: they are not what the user wrote.
    pub(super) fn text(&self, s: LSpan) -> String {
        let raw = self.src.get(s.start..s.end).unwrap_or("");
        let is_marker = |l: &str| l.trim_start().strip_prefix('#').is_some_and(|r| r.trim_start().starts_with(|c: char| c.is_ascii_digit()) || r.trim_start().starts_with("line"));
        raw.lines().filter(|l| !is_marker(l)).flat_map(str::split_whitespace).collect::<Vec<_>>().join(" ")
    }

    // ---------------------------------------------------------------- declarations (pass 1)

    /// Collects types, globals and function definitions of the translation unit.
    pub(super) fn declare_unit(&mut self, unit: &'a TranslationUnit) -> Result<(), Fatal> {
        self.reject_hidden_calls(unit);
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::Declaration(d) => self.global_declaration(d)?,
                ExternalDeclaration::FunctionDefinition(f) => self.function_definition(f)?,
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        let is_function = |n: &str| self.functions.contains_key(n) || self.prototypes.contains_key(n);
        self.fn_names = indirect::address_taken(unit, &is_function);
        self.fn_index = self.fn_names.iter().enumerate().map(|(k, n)| (n.clone(), k)).collect();
        if !self.opts.whole_program {
            self.entry_uses = entries::uses(unit, &|n| self.functions.contains_key(n));
        }
        Ok(())
    }

    fn global_declaration(&mut self, d: &'a Node<Declaration>) -> Result<(), Fatal> {
        let specs = self.declaration_specs(d)?;
        for id in &d.node.declarators {
            let mut decl = self.types.declarator(specs.ty.clone(), &id.node.declarator.node).map_err(|e| self.error(id.span, format!("unsupported type: {e}")))?;
            self.types.declaration_attributes(&specs, &id.node.declarator.node, &mut decl, id.span.start);
            decl.ty = self.complete_array_length(decl.ty, id.node.initializer.as_ref());
            let Some(name) = decl.name.clone() else { continue };
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
                if self.map.in_system_header(d.span.start) {
                    self.system_functions.insert(name.clone());
                }
                self.prototypes.insert(name, decl);
                continue;
            }
            let var = match self.globals.get(&name) {
                Some(v) => {
                    // A tentative definition or `extern` redeclaration: keep the most complete
                    // type (an array length may only appear in the definition).
                    let v = *v;
                    if matches!(self.vars[v.index()].ty, CType::Array(_, None)) {
                        self.vars[v.index()].ty = decl.ty.clone();
                    }
                    v
                }
                None => {
                    let kind = if specs.is_thread_local { VarKind::ThreadLocal } else { VarKind::Global };
                    let span = self.span(id.span);
                    let v = self.new_var(&name, decl.ty.clone(), kind, Some(span));
                    self.globals.insert(name.clone(), v);
                    if !specs.is_static && kind == VarKind::Global && !self.map.in_system_header(d.span.start) {
                        self.linked_globals.push(v);
                    }
                    v
                }
            };
            if let Some(s) = sig {
                self.var_sigs.insert(var, s);
            }
            self.note_atomic_var(var, specs.is_atomic);
            if let Some(init) = &id.node.initializer {
                self.global_inits.push((var, init));
                if self.vars[var.index()].kind == VarKind::ThreadLocal {
                    self.tls_inits.push((var, init));
                }
            }
        }
        Ok(())
    }

    fn function_definition(&mut self, f: &'a Node<FunctionDefinition>) -> Result<(), Fatal> {
        let specs = self.types.specs(&f.node.specifiers).map_err(|e| self.error(f.span, format!("unsupported type: {e}")))?;
        let decl = self.types.declarator(specs.ty, &f.node.declarator.node).map_err(|e| self.error(f.span, format!("unsupported type: {e}")))?;
        let Some(name) = decl.name.clone() else { return Ok(()) };
        let mut params = decl.params.clone().unwrap_or_default();
        // K&R definitions give parameter types in separate declarations.
        for kr in &f.node.declarations {
            if let Ok(s) = self.types.specs(&kr.node.specifiers) {
                for id in &kr.node.declarators {
                    if let Ok(pd) = self.types.declarator(s.ty.clone(), &id.node.declarator.node) {
                        if let Some(p) = params.iter_mut().find(|(n, _)| n.as_deref() == pd.name.as_deref()) {
                            p.1 = super::ctypes::decay(pd.ty);
                        }
                    }
                }
            }
        }
        let ret = decl.ret.clone().unwrap_or(CType::int());
        // Re-entering `main` from another translation unit is left out of the model: the
        // root thread is the program's only entry.
        if !specs.is_static && name != "main" && !self.map.in_system_header(f.span.start) && !self.linked_functions.contains(&name) {
            self.linked_functions.push(name.clone());
        }
        self.prototypes.insert(name.clone(), decl);
        self.functions.insert(name, FuncInfo { def: &f.node, params, ret, offset: f.span.start, end: f.span.end });
        Ok(())
    }

    /// Whether a defined function comes from a system header or is reserved for the
    /// implementation (`__` prefix): such functions are never taken as thread entries.
    pub(super) fn is_library_function(&self, name: &str) -> bool {
        name.starts_with("__") || self.functions.get(name).map(|f| self.map.in_system_header(f.offset)).unwrap_or(true)
    }

    // ------------------------------------------------------------------ variables

    pub(super) fn new_var(&mut self, name: &str, ty: CType, kind: VarKind, span: Option<Span>) -> VarId {
        let n = self.name_counts.entry(name.to_string()).or_insert(0);
        *n += 1;
        let display = if *n == 1 { name.to_string() } else { format!("{name}#{n}") };
        let id = VarId(self.vars.len() as u32);
        self.vars.push(Variable { name: display, source_name: name.to_string(), ty, kind, addr_taken: false, span });
        id
    }

    /// A fresh temporary of the current template.
    pub(super) fn temp(&mut self, ty: CType) -> VarId {
        self.temp_count += 1;
        let id = VarId(self.vars.len() as u32);
        let name = format!("$t{}", self.temp_count);
        self.vars.push(Variable { name: name.clone(), source_name: name, ty, kind: VarKind::Temp(self.tpl), addr_taken: false, span: None });
        id
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        if let Some(f) = self.frames.last() {
            for scope in f.scopes.iter().rev() {
                if let Some(Binding::Var(v)) = scope.get(name) {
                    return Some(*v);
                }
            }
        }
        self.globals.get(name).copied()
    }

    fn bind(&mut self, name: &str, v: VarId) {
        if let Some(f) = self.frames.last_mut() {
            if let Some(s) = f.scopes.last_mut() {
                s.insert(name.to_string(), Binding::Var(v));
            }
        }
    }

    /// Marks the root variable of an lvalue as address-taken.
    pub(super) fn mark_addr_taken(&mut self, lv: &Lval) {
        if let Some(v) = lv.root_var() {
            self.vars[v.index()].addr_taken = true;
        }
    }

    // ------------------------------------------------------------------ control flow

    /// A new location that is not yet connected to anything.
    pub(super) fn new_loc(&mut self, action: Action, span: Span) -> LocId {
        let action = self.narrow_bit_field(action);
        let id = LocId(self.locs.len() as u32);
        self.locs.push(Location { template: self.tpl, span, action, succs: Vec::new(), atomic: false });
        self.templates[self.tpl.index()].locs.push(id);
        id
    }

    /// A store into a bit-field keeps only the field's width: its low bits, sign-extended for
    /// a signed field (as GCC does).
    fn narrow_bit_field(&self, action: Action) -> Action {
        let Action::Assign(lv @ Lval::Field(_, r, i), e) = action else { return action };
        let (Some(&w), CType::Int(it, _)) = (self.types.bit_widths.get(&(r, i as usize)), &self.types.records[r.0 as usize].fields[i as usize].1) else {
            return Action::Assign(lv, e);
        };
        let t = Ty::Int(*it);
        let c = |v: i128| Box::new(Expr::Const(v, t));
        let low = Expr::Binary(BinOp::BitAnd, Box::new(e.clone()), c((1i128 << w) - 1), t);
        let value = if it.signed {
            let sign = Expr::Binary(BinOp::BitAnd, Box::new(e), c(1i128 << (w - 1)), t);
            Expr::Binary(BinOp::Sub, Box::new(low), Box::new(Expr::Binary(BinOp::Mul, Box::new(sign), c(2), t)), t)
        } else {
            low
        };
        Action::Assign(lv, value)
    }

    /// Connects every location of `preds` to `to`.
    pub(super) fn connect(&mut self, preds: &[LocId], to: LocId) {
        for p in preds {
            let succs = &mut self.locs[p.index()].succs;
            if !succs.contains(&to) {
                succs.push(to);
            }
        }
    }

    /// Emits an action after the current frontier and makes it the frontier.
    pub(super) fn emit(&mut self, action: Action, span: Span) -> LocId {
        let id = self.new_loc(action, span);
        let preds = std::mem::take(&mut self.cur);
        self.connect(&preds, id);
        self.cur = vec![id];
        id
    }

    /// Continues at a placeholder created earlier (a label, loop exit or return point).
    pub(super) fn place(&mut self, target: LocId) {
        let preds = std::mem::take(&mut self.cur);
        self.connect(&preds, target);
        self.cur = vec![target];
    }

    /// Jumps to a target: the frontier ends here.
    pub(super) fn jump(&mut self, target: LocId) {
        let preds = std::mem::take(&mut self.cur);
        self.connect(&preds, target);
    }

    /// Whether the current point is reachable at all in the CFG built so far.
    pub(super) fn live(&self) -> bool {
        !self.cur.is_empty()
    }

    fn check_size(&self, s: LSpan) -> Result<(), Fatal> {
        if self.locs.len() > MAX_LOCATIONS {
            return Err(self.error(s, format!("the program has more than {MAX_LOCATIONS} locations after inlining every call; it is too large to analyse")));
        }
        Ok(())
    }

    // ------------------------------------------------------------------ assertions

    /// The assertion of the failure call at `s`, created on first sight.
    pub(super) fn assertion(&mut self, s: LSpan, text: String, kind: AssertKind, function: &str) -> AssertId {
        if let Some(a) = self.assert_index.get(&s.start) {
            return *a;
        }
        let id = AssertId(self.assertions.len() as u32);
        let span = self.source_column(self.span(s));
        self.assertions.push(Assertion { span, text, kind, function: function.to_string(), locs: Vec::new() });
        self.assert_index.insert(s.start, id);
        id
    }

    /// A failure point's position as the user wrote it. A macro such as <assert.h>'s `assert`
    /// expands into a call whose column lies in the expansion, not in the source line; the
    /// column is then that of the failure call's name in the original line, when it is there.
    fn source_column(&self, span: Span) -> Span {
        const NAMES: [&str; 5] = ["__VERIFIER_assert", "assert", "reach_error", "__VERIFIER_error", "__assert_fail"];
        let Some(path) = self.map.files.get(span.file as usize) else { return span };
        let Ok(text) = std::fs::read_to_string(path) else { return span };
        let Some(line) = text.lines().nth(span.line.saturating_sub(1) as usize) else { return span };
        let word_at = |i: usize| {
            let b = line.as_bytes();
            let before = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
            before && NAMES.iter().any(|n| line[i..].starts_with(n) && line[i + n.len()..].trim_start().starts_with('('))
        };
        let at = span.col.saturating_sub(1) as usize;
        if at < line.len() && line.is_char_boundary(at) && word_at(at) {
            return span;
        }
        match (0..line.len()).find(|&i| line.is_char_boundary(i) && word_at(i)) {
            Some(i) => Span { col: i as u32 + 1, ..span },
            None => span,
        }
    }

    /// Registers the failure points of functions that are never called, so that every
    /// failure point of the source gets a verdict.
    pub(super) fn register_uncalled_assertions(&mut self) {
        let mut names: Vec<&String> = self.functions.keys().collect();
        names.sort_by_key(|n| self.functions[*n].offset);
        let names: Vec<String> = names.into_iter().cloned().collect();
        for name in names {
            if call::is_builtin(&name) || self.is_library_function(&name) {
                continue;
            }
            let body = &self.functions[&name].def.statement;
            let mut found = Vec::new();
            call::collect_failure_calls(body, &mut found);
            for (span, text, kind) in found {
                let text = text.unwrap_or_else(|s| self.text(s));
                self.assertion(span, text, kind, &name);
            }
        }
    }

    // ------------------------------------------------------------------ templates

    fn new_template(&mut self, name: String, function: &str, mult: Multiplicity) -> TemplateId {
        let id = TemplateId(self.templates.len() as u32);
        self.templates.push(Template { name, function: function.to_string(), entry: LocId(u32::MAX), locs: Vec::new(), multiplicity: mult, spawned_at: Vec::new(), params: Vec::new() });
        id
    }

    /// The template a `pthread_create` of `function` at the current point creates.
    pub(super) fn template_for_fork(&mut self, function: &str, binds_arg: bool) -> TemplateId {
        if let Some((_, t)) = self.chain.iter().find(|(f, _)| f == function) {
            // A thread that (transitively) creates another instance of its own routine:
            // unboundedly many instances of one template.
            let t = *t;
            self.templates[t.index()].multiplicity = Multiplicity::Unbounded;
            return t;
        }
        let count = self.templates.iter().filter(|t| t.function == function).count();
        let name = if count == 0 { function.to_string() } else { format!("{function}@{}", count + 1) };
        let id = self.new_template(name, function, Multiplicity::One);
        let mut chain = self.chain.clone();
        chain.push((function.to_string(), id));
        self.pending.push_back(PendingTemplate { id, function: function.to_string(), chain, binds_arg });
        id
    }

    /// Lowers the whole program: the root template, then every template it creates.
    pub(super) fn lower_program(&mut self) -> Result<(), Fatal> {
        // Without a whole program, the root runs `init` and starts the threads: it must not be
        // called `main`, or a `main` among those threads would be taken for the root and never
        // run.
        let root_name = if self.opts.whole_program { "main" } else { "init" };
        let root = self.new_template(root_name.into(), root_name, Multiplicity::One);
        self.tpl = root;
        self.chain = vec![(root_name.into(), root)];
        let entry = self.new_loc(Action::Skip, Span::default());
        self.templates[root.index()].entry = entry;
        self.cur = vec![entry];
        self.lower_global_inits()?;
        let root_fn = if self.opts.whole_program { "main" } else { "init" };
        self.locs[entry.index()].span = self.fn_span(root_fn);
        if self.opts.whole_program {
            if !self.functions.contains_key("main") {
                return Err(Diagnostic::file(&self.display, "no `main` function")
                    .with_note("for a library or driver without `main`, pass --no-whole-program: `init()` then runs first and every other function is a thread"));
            }
            self.lower_entry_body("main", true, false)?;
        } else {
            self.lower_driver()?;
        }
        while let Some(p) = self.pending.pop_front() {
            self.tpl = p.id;
            self.chain = p.chain;
            let entry = self.new_loc(Action::Skip, self.fn_span(&p.function));
            self.templates[p.id.index()].entry = entry;
            self.cur = vec![entry];
            self.lower_entry_body(&p.function, false, p.binds_arg)?;
        }
        // A new thread's thread-local objects hold their initialisers (C11 6.2.4p4), not what
        // the root stored into its own copies: the root's global initialisation does not
        // reach them. Without an initialiser they start as zero, as every engine assumes.
        let tls = std::mem::take(&mut self.tls_inits);
        for t in 1..self.templates.len() {
            for (v, init) in &tls {
                let span = self.span(init.span);
                self.init_at_entry(TemplateId(t as u32), *v, init, span)?;
            }
        }
        self.tls_inits = tls;
        Ok(())
    }

    /// Lowers `init` into `v` right after the entry of template `t`, before anything the
    /// template runs; the current template and position are kept.
    pub(super) fn init_at_entry(&mut self, t: TemplateId, v: VarId, init: &'a Node<Initializer>, span: Span) -> Result<(), Fatal> {
        let saved_cur = std::mem::take(&mut self.cur);
        let saved_tpl = self.tpl;
        self.tpl = t;
        let entry = self.templates[t.index()].entry;
        let old_succs = std::mem::take(&mut self.locs[entry.index()].succs);
        self.cur = vec![entry];
        let saved_frames = std::mem::take(&mut self.frames);
        let ty = self.vars[v.index()].ty.clone();
        let r = self.initialize(Lval::Var(v), &ty, init, span);
        self.frames = saved_frames;
        let tail = std::mem::take(&mut self.cur);
        for s in old_succs {
            self.connect(&tail, s);
        }
        self.tpl = saved_tpl;
        // Still at the entry (nothing lowered after it yet, e.g. a `static` local with an
        // initialiser first in `main` without global initialisers): what comes next must follow
        // the initialisation, not branch beside it from the entry.
        self.cur = saved_cur.into_iter().flat_map(|l| if l == entry { tail.clone() } else { vec![l] }).collect();
        r
    }

    fn fn_span(&self, name: &str) -> Span {
        self.functions.get(name).map(|f| self.map.span(f.offset)).unwrap_or_default()
    }

    /// `--no-whole-program`: the root runs `init()` if present, then starts every entry point
    /// as a thread, unboundedly many of each unless `--once` (a driver's clients may call an
    /// entry point any number of times at once).
    fn lower_driver(&mut self) -> Result<(), Fatal> {
        if self.functions.contains_key("init") {
            let span = self.fn_span("init");
            self.inline_call("init", Vec::new(), span, None)?;
        }
        let candidate = |n: &str| n != "init" && !call::is_builtin(n) && !n.starts_with("__VERIFIER_atomic") && !n.starts_with(super::bp::GENERATED) && !self.is_library_function(n);
        let named = &self.opts.entries;
        for n in named {
            if !self.functions.contains_key(n.as_str()) || !candidate(n) {
                let why = if n == "init" { "`init` runs first, before the entry points" } else { "no function of that name is defined in the program" };
                return Err(Diagnostic::file(&self.display, format!("--entry `{n}`: {why}")));
            }
        }
        let u = &self.entry_uses;
        let mut entries: Vec<(usize, String)> = self
            .functions
            .iter()
            .filter(|(n, _)| if named.is_empty() { candidate(n) && ((!u.called.contains(*n) && !u.internal.contains(*n)) || u.stored.contains(*n)) } else { named.contains(n) })
            .map(|(n, f)| (f.offset, n.clone()))
            .collect();
        entries.sort();
        let how = if named.is_empty() { "the functions with external linkage that no function calls, and those whose address is stored; --entry names others" } else { "named by --entry" };
        let count = if self.opts.entry_once { "one thread each (--once)" } else { "unboundedly many threads each" };
        let list: Vec<String> = entries.iter().map(|(_, n)| format!("`{n}`")).collect();
        let list = if list.is_empty() { "none".to_string() } else { list.join(", ") };
        self.notes.push(("threads".into(), format!("entry points run in {count} after `init`: {list} ({how})\n")));
        for (_, name) in entries {
            let span = self.fn_span(&name);
            let t = self.template_for_fork(&name, false);
            if !self.opts.entry_once {
                self.templates[t.index()].multiplicity = Multiplicity::Unbounded;
            }
            let at = self.emit(Action::Fork { template: t, handle: None, arg: None }, span);
            self.templates[t.index()].spawned_at.push(at);
        }
        let span = self.locs[self.cur.first().map(|l| l.index()).unwrap_or(0)].span;
        self.emit(Action::Halt(Halt::ThreadExit), span);
        self.cur.clear();
        Ok(())
    }

    /// Lowers a start routine (or `main`) as the body of the current template.
    fn lower_entry_body(&mut self, name: &str, is_main: bool, binds_arg: bool) -> Result<(), Fatal> {
        let Some(info) = self.functions.get(name) else {
            // A thread whose routine has no body: it may do anything to its arguments, which
            // we cannot model.
            let span = self.fn_span(name);
            self.unsupported.push(Unsupported { span, construct: format!("thread routine `{name}` has no definition") });
            self.emit(Action::Halt(Halt::ThreadExit), span);
            self.cur.clear();
            return Ok(());
        };
        let def = info.def;
        let params = info.params.clone();
        let ret_ty = info.ret.clone();
        let span = self.map.span(info.offset);
        // A thread's result goes to a global that `pthread_join` can read (the root, whose
        // joins are lowered before any thread, reads one only if it joins with a value).
        let ret_var = (!is_main && ret_ty.is_scalar() && !self.join_results.is_empty()).then(|| self.thread_result(ret_ty.clone()));
        let mut frame =
            Frame { name: name.to_string(), scopes: vec![HashMap::new()], labels: HashMap::new(), ret_target: None, ret_var, ret_ty, jumps: Vec::new(), cases: Vec::new(), is_main, region: None };
        let mut pvars = Vec::new();
        for (i, (pname, pty)) in params.iter().enumerate() {
            let pname = pname.clone().unwrap_or_else(|| format!("$arg{i}"));
            let v = self.new_var(&pname, pty.clone(), VarKind::Local(self.tpl), Some(span));
            frame.scopes[0].insert(pname, Binding::Var(v));
            pvars.push(v);
        }
        self.templates[self.tpl.index()].params = pvars.clone();
        // The creator binds the first parameter of a start routine; any other parameter (a
        // driver function's, or main's argc/argv) may hold any value.
        let bound = usize::from(binds_arg);
        for (i, v) in pvars.iter().enumerate().skip(bound) {
            let t = self.vars[v.index()].ty.scalar(self.dm());
            if is_main && i > 0 {
                // `argv` (and `envp`) point at arrays the environment builds, which the IR does
                // not model: no witness may rest on their value (one once had `argv` null).
                let h = self.havoc(t, format!("`main`'s parameter `{}`", self.vars[v.index()].source_name), span);
                self.emit(Action::Assign(Lval::Var(*v), h), span);
                continue;
            }
            self.emit(Action::Assign(Lval::Var(*v), Expr::Nondet(t)), span);
            if is_main {
                // C11 5.1.2.2.1p2: `argc` is nonnegative.
                let ge = Expr::Binary(BinOp::Ge, Box::new(Expr::Load(Lval::Var(*v))), Box::new(Expr::Const(0, t)), Ty::INT);
                self.emit(Action::Assume(ge), span);
            }
        }
        self.frames.push(frame);
        let atomic = name.starts_with("__VERIFIER_atomic_");
        if atomic {
            self.emit(Action::AtomicBegin, span);
        }
        self.stmt(&def.statement)?;
        let frame = self.frames.pop().expect("frame pushed above");
        debug_assert_eq!(frame.name, name);
        if self.live() {
            let end = self.map.span(def.statement.span.end.saturating_sub(1));
            self.finish_thread(end);
        }
        Ok(())
    }

    /// The end of a start routine (or of `main`): the thread or the program stops.
    fn finish_thread(&mut self, span: Span) {
        let is_main = self.frames.last().map(|f| f.is_main).unwrap_or(self.tpl == TemplateId(0) && self.opts.whole_program);
        if self.tpl_is_atomic_routine() {
            self.emit(Action::AtomicEnd, span);
        }
        let halt = if is_main { Halt::Exit } else { Halt::ThreadExit };
        self.emit(Action::Halt(halt), span);
        self.cur.clear();
    }

    fn tpl_is_atomic_routine(&self) -> bool {
        self.templates[self.tpl.index()].function.starts_with("__VERIFIER_atomic_") && self.frames.len() <= 1
    }

    fn lower_global_inits(&mut self) -> Result<(), Fatal> {
        let inits = std::mem::take(&mut self.global_inits);
        for (v, init) in &inits {
            let span = self.span(init.span);
            let ty = self.vars[v.index()].ty.clone();
            self.initialize(Lval::Var(*v), &ty, init, span)?;
        }
        self.global_inits = inits;
        Ok(())
    }

    /// Stores an initializer into an object, field by field.
    /// Records a typedef of an `_Atomic` type, or of a pointer to one.
    pub(super) fn note_atomic_typedef(&mut self, name: &str, atomic: bool, ty: &CType) {
        if atomic {
            if holds_pointer(ty) {
                self.types.atomic_elsewhere = true;
            } else {
                self.types.atomic_typedefs.insert(name.to_string());
            }
        }
    }

    /// Records a variable declared `_Atomic`: a whole object (or array of them), or the
    /// pointee of a pointer, which the lowerer does not track.
    pub(super) fn note_atomic_var(&mut self, v: VarId, atomic: bool) {
        if atomic {
            if holds_pointer(&self.vars[v.index()].ty) {
                self.types.atomic_elsewhere = true;
            } else {
                self.atomic_vars.insert(v);
            }
        }
    }

    /// Whether a read-modify-write of `lv` is one atomic step, as on an `_Atomic` object. An
    /// lvalue that may designate an `_Atomic` object the lowerer does not track is an
    /// unsupported construct.
    pub(super) fn atomic_rmw(&mut self, lv: &Lval, at: LSpan) -> bool {
        let mut root = lv;
        while let Lval::Index(b, _) = root {
            root = b;
        }
        if let Lval::Var(v) = root {
            if self.atomic_vars.contains(v) {
                return true;
            }
            if !holds_pointer(&self.vars[v.index()].ty) {
                return false;
            }
        }
        if self.types.atomic_elsewhere {
            self.unsupported(at, "`++`, `--` or a compound assignment on an object that may be `_Atomic`");
        }
        false
    }

    /// An array declared without a length takes it from its initializer: `int a[] = {1, 2, 3}`
    /// has 3 elements, `char s[] = "ab"` 3 (C11 6.7.9p22); its `sizeof` and layout need it.
    pub(super) fn complete_array_length(&self, ty: CType, init: Option<&Node<Initializer>>) -> CType {
        let (CType::Array(elem, None), Some(init)) = (&ty, init) else { return ty };
        let literal_len = |e: &Expression| match e {
            Expression::StringLiteral(parts) => library::literal_bytes(&parts.node).map(|b| b.len() as i128 + 1),
            _ => None,
        };
        let len = match &init.node {
            // `char s[] = {"ab"}`: the braces may enclose the literal.
            Initializer::List(items) if matches!(**elem, CType::Int(IntTy { bits: 8, .. }, _)) && items.len() == 1 && items[0].node.designation.is_empty() => match &items[0].node.initializer.node {
                Initializer::Expression(e) => literal_len(&e.node).or(Some(1)),
                Initializer::List(_) => Some(1),
            },
            Initializer::List(items) => Some(self.list_length(items)),
            Initializer::Expression(e) => literal_len(&e.node),
        };
        match len {
            Some(n) if n >= 0 => CType::Array(elem.clone(), Some(n as u64)),
            _ => ty,
        }
    }

    /// Elements a braced list gives an array of unknown length: one past the highest index
    /// it initialises, designators included.
    pub(super) fn list_length(&self, items: &[Node<InitializerListItem>]) -> i128 {
        let (mut idx, mut len) = (0i128, 0i128);
        for item in items {
            if let Some(d) = item.node.designation.first() {
                if let Designator::Index(e) = &d.node {
                    idx = self.types.const_eval(&e.node).unwrap_or(idx);
                }
            }
            idx += 1;
            len = len.max(idx);
        }
        len
    }

    pub(super) fn initialize(&mut self, lv: Lval, ty: &CType, init: &'a Node<Initializer>, span: Span) -> Result<(), Fatal> {
        match (&init.node, ty) {
            // `PTHREAD_MUTEX_INITIALIZER` gives the state every mutex starts in; glibc's
            // `PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP` and its error-checking twin differ only
            // in an integer kind, which the IR's mutexes cannot follow.
            (_, CType::Mutex) => {
                match self.mutex_kind(init) {
                    Some((at, k)) if k == library::MUTEX_ERRORCHECK => self.errorcheck_mutex = Some(self.span(at)),
                    Some((at, _)) => self.unsupported(at, "a recursive mutex initializer: its owner may lock it again"),
                    None => {}
                }
                Ok(())
            }
            (_, CType::Opaque(_)) => Ok(()),
            (Initializer::Expression(e), _) if ty.is_scalar() => {
                let v = self.value(e)?;
                let v = self.convert(v, ty);
                self.emit(Action::Assign(lv, v), span);
                Ok(())
            }
            (Initializer::Expression(e), CType::Array(..)) if matches!(e.node, Expression::StringLiteral(_)) => {
                if let Expression::StringLiteral(parts) = &e.node {
                    self.init_from_literal(lv, ty, &parts.node, span);
                }
                Ok(())
            }
            (Initializer::Expression(e), CType::Record(_)) => {
                let src = self.lvalue(e)?;
                self.copy_aggregate(lv, src.0, ty, span);
                Ok(())
            }
            (Initializer::List(items), _) => self.initialize_list(lv, ty, items, init.span, span),
            _ => {
                self.unsupported(init.span, "this initializer");
                Ok(())
            }
        }
    }

    /// The first integer constant in a mutex initializer that names a kind other than glibc's
    /// normal and adaptive ones (addresses and other non-constants are not kinds).
    fn mutex_kind(&self, init: &Node<Initializer>) -> Option<(LSpan, i128)> {
        match &init.node {
            Initializer::Expression(e) => match self.types.const_eval(&e.node) {
                Some(k) if !library::mutex_kind_blocks(k) => Some((e.span, k)),
                _ => None,
            },
            Initializer::List(items) => items.iter().find_map(|i| self.mutex_kind(&i.node.initializer)),
        }
    }

    /// Stores a braced initializer list into an object, member by member.
    pub(super) fn initialize_list(&mut self, lv: Lval, ty: &CType, items: &'a [Node<InitializerListItem>], at: LSpan, span: Span) -> Result<(), Fatal> {
        match ty {
            CType::Mutex | CType::Opaque(_) => Ok(()),
            CType::Array(elem, _) => {
                let mut idx: i128 = 0;
                for item in items {
                    if let Some(d) = item.node.designation.first() {
                        if let Designator::Index(e) = &d.node {
                            idx = self.types.const_eval(&e.node).unwrap_or(idx);
                        }
                    }
                    let target = Lval::Index(Box::new(lv.clone()), Box::new(Expr::Const(idx, Ty::Int(IntTy { bits: 64, signed: true }))));
                    self.initialize(target, elem, &item.node.initializer, span)?;
                    idx += 1;
                }
                Ok(())
            }
            CType::Record(r) => {
                let fields = self.types.records[r.0 as usize].fields.clone();
                let mut pos = 0usize;
                for item in items {
                    if let Some(d) = item.node.designation.first() {
                        if let Designator::Member(m) = &d.node {
                            if let Some(p) = fields.iter().position(|(n, _)| n == &m.node.name) {
                                pos = p;
                            }
                        }
                    }
                    if pos >= fields.len() {
                        break;
                    }
                    let target = Lval::Field(Box::new(lv.clone()), *r, pos as u32);
                    self.initialize(target, &fields[pos].1, &item.node.initializer, span)?;
                    pos += 1;
                }
                Ok(())
            }
            t if t.is_scalar() => match items.first() {
                Some(first) => self.initialize(lv, ty, &first.node.initializer, span),
                None => Ok(()),
            },
            _ => {
                self.unsupported(at, "this initializer");
                Ok(())
            }
        }
    }

    /// Sets every scalar of an object to zero (the members a braced initializer leaves out).
    pub(super) fn zero_fill(&mut self, lv: Lval, ty: &CType, span: Span) {
        match ty {
            CType::Record(r) => {
                let fields = self.types.records[r.0 as usize].fields.clone();
                let is_union = self.types.records[r.0 as usize].is_union;
                for (i, (_, fty)) in fields.iter().enumerate() {
                    self.zero_fill(Lval::Field(Box::new(lv.clone()), *r, i as u32), fty, span);
                    if is_union {
                        break;
                    }
                }
            }
            CType::Array(elem, Some(n)) if *n <= 4096 => {
                for i in 0..*n as i128 {
                    let ix = Expr::Const(i, Ty::Int(IntTy { bits: 64, signed: true }));
                    self.zero_fill(Lval::Index(Box::new(lv.clone()), Box::new(ix)), elem, span);
                }
            }
            t if t.is_scalar() => {
                let st = t.scalar(self.dm());
                self.emit(Action::Assign(lv, Expr::Const(0, st)), span);
            }
            CType::Mutex | CType::Opaque(_) | CType::Function | CType::Void => {}
            _ => self.unsupported.push(Unsupported { span, construct: "zero-initialising an array of unknown or very large length".into() }),
        }
    }

    /// Copies an aggregate object field by field (arrays element-wise when their length is
    /// known and small).
    pub(super) fn copy_aggregate(&mut self, dst: Lval, src: Lval, ty: &CType, span: Span) {
        match ty {
            CType::Record(r) => {
                let fields = self.types.records[r.0 as usize].fields.clone();
                for (i, (_, fty)) in fields.iter().enumerate() {
                    let d = Lval::Field(Box::new(dst.clone()), *r, i as u32);
                    let s = Lval::Field(Box::new(src.clone()), *r, i as u32);
                    self.copy_aggregate(d, s, fty, span);
                }
            }
            CType::Array(elem, Some(n)) if *n <= 4096 => {
                for i in 0..*n as i128 {
                    let ix = Expr::Const(i, Ty::Int(IntTy { bits: 64, signed: true }));
                    let d = Lval::Index(Box::new(dst.clone()), Box::new(ix.clone()));
                    let s = Lval::Index(Box::new(src.clone()), Box::new(ix));
                    self.copy_aggregate(d, s, elem, span);
                }
            }
            CType::Mutex | CType::Opaque(_) | CType::Function | CType::Void => {}
            t if t.is_scalar() => {
                self.emit(Action::Assign(dst, Expr::Load(src)), span);
            }
            _ => {
                self.unsupported.push(Unsupported { span, construct: "copying an array of unknown or very large length".into() });
            }
        }
    }

    /// Assembles the program.
    pub(super) fn finish(mut self, files: Vec<String>, mode: Mode) -> Program {
        self.emit_literal_prologue();
        self.resolve_join_results(mode);
        self.lock_decls_in_loops();
        self.havoc_escaped();
        self.store_bit_field_units();
        // The IR gives no thread its own handle, and a join of a handle that names no created
        // thread blocks for ever. Glibc's join of the caller's own handle fails at once
        // (EDEADLK), and a join of the main thread's returns once it ends with
        // `pthread_exit`: both go on where the IR would block (a wrong `safe`).
        if let (Some(span), true) = (self.pthread_self_at, self.joins_threads) {
            self.unsupported.push(Unsupported { span, construct: "`pthread_self` in a program that joins threads (a join of the caller's own handle or of the main thread's is not modelled)".into() });
        }
        // A join of a detached thread is undefined; glibc returns EINVAL at once, while the
        // IR's join waits for the thread to end (a wrong `safe` on what the thread writes).
        if let (Some(span), true) = (self.detach_at, self.joins_threads) {
            self.unsupported.push(Unsupported { span, construct: "a detached thread in a program that joins threads (a join of a detached thread returns at once, which is not modelled)".into() });
        }
        // Layout attributes the type environment met but cannot honour.
        for (at, what) in std::mem::take(&mut self.types.unsupported) {
            self.unsupported(LSpan { start: at, end: at }, what);
        }
        let dm = self.dm();
        let mut functions: Vec<crate::ir::SourceFunction> = self
            .functions
            .iter()
            .filter(|(_, f)| !self.map.in_system_header(f.offset))
            .map(|(name, f)| {
                let (a, b) = (self.map.span(f.offset), self.map.span(f.end.saturating_sub(1).max(f.offset)));
                crate::ir::SourceFunction { name: name.clone(), file: a.file, first_line: a.line, last_line: b.line.max(a.line) }
            })
            .collect();
        functions.sort_by(|x, y| (x.file, x.first_line, &x.name).cmp(&(y.file, y.first_line, &y.name)));
        let mut atomic_vars: Vec<VarId> = self.atomic_vars.iter().copied().collect();
        atomic_vars.sort_unstable();
        Program {
            files,
            vars: self.vars,
            records: self.types.records,
            locs: self.locs,
            templates: self.templates,
            assertions: self.assertions,
            unsupported: self.unsupported,
            external_calls: self.external_calls,
            approximations: self.approximations.into_inner(),
            mode,
            data_model: dm,
            alloc_sites: self.alloc_sites,
            errorcheck_mutex: self.errorcheck_mutex,
            byte_moves: self.byte_moves,
            known_to_unknown_code: self.known_to_unknown_code,
            recursive_calls: self.recursive_calls,
            atomic_vars,
            atomic_elsewhere: self.types.atomic_elsewhere,
            memory: MemoryModel::default(),
            functions,
            notes: self.notes,
        }
    }
}

impl Lowerer<'_> {
    /// A store into a bit-field rewrites the bytes that hold it, and GCC does it as a load of
    /// those bytes, a change of the field's bits and a store of the bytes back: the other
    /// bit-fields in those bytes get the values the load saw. A thread that writes one of them
    /// in between loses its write (`s.a = 3` and `s.b = 5` in two threads can end with
    /// `s.b == 0`). The IR gives each member its own slot, so such a store becomes: the value
    /// into a temporary, the neighbours' loads, then one atomic section storing the field
    /// and the neighbours' loaded values back. A struct in a local whose address is never
    /// taken is seen by its own thread only and keeps its single store, and so does a store of
    /// the root's before it creates any thread (the initialisers of globals).
    fn store_bit_field_units(&mut self) {
        let n = self.locs.len();
        let after_fork = self.root_after_fork();
        for (i, &forked) in after_fork.iter().enumerate().take(n) {
            let Action::Assign(Lval::Field(base, r, f), e) = &self.locs[i].action else { continue };
            let (r, f) = (*r, *f as usize);
            if self.locs[i].template == TemplateId(0) && !forked {
                continue;
            }
            let neighbours = self.bit_field_neighbours(r, f);
            if neighbours.is_empty() || self.private_register_path(base) {
                continue;
            }
            let (e, base) = (e.clone(), (**base).clone());
            let (template, span) = (self.locs[i].template, self.locs[i].span);
            let succs = std::mem::take(&mut self.locs[i].succs);
            let mut chain: Vec<Action> = Vec::new();
            // A base that reads memory (`p->f` with `p` shared) is evaluated once: every access
            // of the unit goes to the object the store's own evaluation named.
            let base = if self.reads_memory(&base) {
                let rec_ty = CType::Record(r);
                let tp = self.unit_temp(CType::Pointer(Box::new(rec_ty.clone())), template);
                chain.push(Action::Assign(Lval::Var(tp), Expr::AddrOf(base)));
                Lval::Deref(Box::new(Expr::Load(Lval::Var(tp))), rec_ty)
            } else {
                base
            };
            let field = |j: usize| Lval::Field(Box::new(base.clone()), r, j as u32);
            let ft = |s: &Self, j: usize| s.types.records[r.0 as usize].fields[j].1.clone();
            let value = self.unit_temp(ft(self, f), template);
            chain.push(Action::Assign(Lval::Var(value), e));
            let mut restores = Vec::new();
            for &j in &neighbours {
                let t = self.unit_temp(ft(self, j), template);
                chain.push(Action::Assign(Lval::Var(t), Expr::Load(field(j))));
                restores.push(Action::Assign(field(j), Expr::Load(Lval::Var(t))));
            }
            chain.push(Action::AtomicBegin);
            chain.push(Action::Assign(field(f), Expr::Load(Lval::Var(value))));
            chain.extend(restores);
            chain.push(Action::AtomicEnd);
            // The first action takes the store's own location, so whatever entered it (and a
            // template entry there) now enters the chain.
            let mut actions = chain.into_iter();
            self.locs[i].action = actions.next().expect("the chain has actions");
            let mut prev = i;
            for a in actions {
                let id = LocId(self.locs.len() as u32);
                self.locs.push(Location { template, span, action: a, succs: Vec::new(), atomic: false });
                self.templates[template.index()].locs.push(id);
                self.locs[prev].succs.push(id);
                prev = id.index();
            }
            self.locs[prev].succs = succs;
        }
    }

    /// The root's locations some `pthread_create` of the root reaches: only there may another
    /// thread run.
    fn root_after_fork(&self) -> Vec<bool> {
        let mut seen = vec![false; self.locs.len()];
        let mut work: Vec<usize> = (0..self.locs.len()).filter(|&i| self.locs[i].template == TemplateId(0) && matches!(self.locs[i].action, Action::Fork { .. })).collect();
        while let Some(i) = work.pop() {
            for s in &self.locs[i].succs {
                if !seen[s.index()] {
                    seen[s.index()] = true;
                    work.push(s.index());
                }
            }
        }
        seen
    }

    /// The other named bit-fields of struct `r` that share a byte with bit-field `f`.
    fn bit_field_neighbours(&self, r: RecordId, f: usize) -> Vec<usize> {
        let rec = &self.types.records[r.0 as usize];
        if rec.is_union {
            return Vec::new();
        }
        let Some(&w) = self.types.bit_widths.get(&(r, f)) else { return Vec::new() };
        let layout = self.types.record_layout(r);
        let bytes = |start: u64, w: u8| (start / 8, (start + u64::from(w)).div_ceil(8));
        let (lo, hi) = bytes(layout.bit_offsets[f], w);
        (0..rec.fields.len())
            .filter(|&j| j != f && !rec.fields[j].0.is_empty())
            .filter(|&j| match self.types.bit_widths.get(&(r, j)) {
                Some(&wj) if wj > 0 => {
                    let (l, h) = bytes(layout.bit_offsets[j], wj);
                    l < hi && lo < h
                }
                _ => false,
            })
            .collect()
    }

    /// Whether the lvalue is a path of members and indexes in a local whose address is never
    /// taken, indexed by such locals only: no other thread can reach it.
    fn private_register_path(&self, lv: &Lval) -> bool {
        let register = |v: VarId| {
            let var = &self.vars[v.index()];
            matches!(var.kind, VarKind::Local(_) | VarKind::Temp(_)) && !var.addr_taken
        };
        let mut private = lv.root_var().is_some_and(register);
        lv.for_each_load_inside(&mut |x| private &= matches!(x, Lval::Var(v) if register(*v)));
        private
    }

    /// Whether evaluating the lvalue's address reads anything but registers.
    fn reads_memory(&self, lv: &Lval) -> bool {
        let mut reads = false;
        lv.for_each_load_inside(&mut |x| reads |= !matches!(x, Lval::Var(v) if matches!(self.vars[v.index()].kind, VarKind::Local(_) | VarKind::Temp(_)) && !self.vars[v.index()].addr_taken));
        reads
    }

    /// A temporary of `template`'s (the lowering has left the template it was in).
    fn unit_temp(&mut self, ty: CType, template: TemplateId) -> VarId {
        self.temp_count += 1;
        let id = VarId(self.vars.len() as u32);
        let name = format!("$t{}", self.temp_count);
        self.vars.push(Variable { name: name.clone(), source_name: name, ty, kind: VarKind::Temp(template), addr_taken: false, span: None });
        id
    }
}

/// A pointer, or an array of them.
fn holds_pointer(t: &CType) -> bool {
    match t {
        CType::Array(e, _) => holds_pointer(e),
        t => matches!(t, CType::Pointer(_)),
    }
}
