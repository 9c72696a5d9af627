//! Recursion. The IR has no procedures, so a recursive call is inlined like any other call up
//! to `--recursion-depth` nested copies of the function on one call chain (exact: fresh
//! variables per copy). A call nested deeper enters the template's *shared copy* of the
//! recursive functions (their strongly connected component of the call graph): one body per
//! function, lowered once per template, behind one entry and one return join (so the control
//! flow stays reducible), with an explicit call stack:
//! - a call saves every local of the shared copy and its return site's number on the stack
//!   (one array per local, [`STACK_DEPTH`] frames), binds the callee's parameters (through
//!   temporaries: the arguments may read the parameters being rebound) and jumps to the entry;
//! - a return pops, branches on the saved number and restores the caller's locals.
//!
//! Globals, the heap, locks and threads are the program's own, so every effect of the deeper
//! calls is executed, not summarised, and within the stack's depth the IR is exact: a
//! violation anywhere in the recursion replays as a real one. A frame deeper than the stack
//! saved nothing: its return havocs the caller's locals and may reach any return site, under
//! an approximation with the control flag (covering; a failure after it is `unknown`).
//!
//! What the shared copy cannot cover: a local whose address is taken or a local lock (a deeper
//! frame's object would be the caller's object in the IR). Then an incomplete approximation is
//! recorded (no verdict of the program is `safe`) and every call inside the shared copy taints
//! the replay.
//!
//! The depth is raised past `--recursion-depth` (when that is at least the default) for the
//! outermost call of a recursive function whose argument the caller compares with constants
//! (`if (n > 10) return;`): to the largest plus two, at most [`GUARD_DEPTH`], enough for a
//! count-down to 0 to stay within the exact copies. Any depth is sound; this one only buys
//! the exact copies' precision where a guard says the recursion is shallow.
//!
//! COARSEN analyses the shared copy as any code, so a proof holds for every depth; it cannot
//! bound the stack pointer, so after a return inside the shared copy it also sees the havoc
//! of a frame deeper than the stack (an integer local of the caller may be any value), while a
//! pointer local keeps the targets it can have (a deeper return restores it as a saved pointer
//! plus any offset). Proofs that do not read a caller's integer locals after a recursive call
//! hold (a list walk, `r < 0 ? 0 : r + 1`); `n + sum(n - 1)` is proved only within the exact
//! copies. When the exact copies already cover the recursion (an argument bounded by the
//! caller), COARSEN finds the shared copy unreachable and keeps their precision.
//!
//! The shared copy is a cycle in the CFG: the bounded search cuts it like a loop and reports
//! the cut (`bounded-safe`, never `safe`, for an assertion the shared copy can reach). Its known
//! limits there: a recursive call inside a loop of a function that can also return before the
//! loop makes the shared copy irreducible, and the search declines the program (COARSEN does not
//! need reducibility); the stack arrays are memory read at a symbolic index, so a branching
//! recursion may exceed the encoding's size limit beyond bound 1. A function-pointer local
//! restored beyond the stack makes a call through it an unsupported construct (the check of
//! called pointers cannot name its functions). Recursion inside `__VERIFIER_atomic_*` functions
//! is unsupported (the shared copy would nest atomic sections across its edges).
//!
//! The call graph takes a call through a pointer, or through a name that is no declared
//! function, as a call of every address-taken function; should it still miss an edge, a call
//! that enters a shared copy while that copy is being lowered is lowered as a call inside it.
//! `benchmarks/recursion/summaries.sh` measures the shared copy alone (`--recursion-depth 1`)
//! against 8 exact copies: exact copies multiply the cells and cost 7 times as much at 16 call
//! sites, and do not finish at 64 (`benchmarks/recursion/results-20261126.md`).
//!
//! The same shared copy serves calls too large to inline: a call of a defined function whose
//! inlined size (the callee's C statements and expressions, with the calls it inlines in turn)
//! exceeds `--inline-limit` ([`INLINE_LIMIT`]; the largest call in the shared benchmarks
//! measures 550) enters the callee's shared copy from outside, with the stack pointer reset.
//! Such a copy is a context-insensitive procedure: its return joins every caller's state. A
//! copy reached from inside an atomic section and from outside one is marked atomic only where
//! every path to it is, so it is interruptible for every caller: more interleavings than the
//! program has, which a proof covers and the replay (which tracks atomic sections as they run)
//! filters out. Calls inside a `__VERIFIER_atomic_*` function are always inlined
//! (`benchmarks/recursion/inline.sh`, `results-inline-20261126.md`).

use super::expr::Val;
use super::{Fatal, Frame, Lowerer};
use crate::ir::*;
use hashbrown::{HashMap, HashSet};
use lang_c::ast::*;
use lang_c::span::Span as LSpan;
use lang_c::visit::Visit;

/// The default of `--recursion-depth`: copies of a recursive function inlined exactly on one
/// call chain, the outermost call included, before a deeper call enters the shared copy.
pub const RECURSION_DEPTH: usize = 8;

/// The most exact copies a guard on the outermost call's argument raises the depth to (see
/// `guard_bound`); `--recursion-depth` below the default is kept as given (a request for the
/// shared copy).
pub(crate) const GUARD_DEPTH: usize = 16;

/// Exact recursive copies (beyond the first call) inlined per thread template before every
/// further recursive call enters the shared copy: bounds the code a branching recursion
/// (a tree walk) multiplies.
pub(super) const RECURSION_COPIES: usize = 256;

/// The default of `--inline-limit`: the size of an inlined call (C statements and expressions
/// of the callee, with the callees it inlines in turn) above which a non-recursive call enters
/// the callee's shared copy instead. Large enough that no program of the shared benchmarks,
/// drivers included, is affected: their largest call measures 550 (the bounded search
/// cuts a shared copy like a loop, so a call that enters one gives `bounded-safe` at most).
pub const INLINE_LIMIT: usize = 2_000;

/// Frames of a shared copy whose locals are saved on its explicit stack; a deeper frame's
/// locals are havocked when it returns (covering, and recorded as an approximation).
pub(super) const STACK_DEPTH: u64 = 1024;

/// One function's body in a shared copy.
#[derive(Clone)]
pub(super) struct GenericCopy {
    /// The function's number: the value of the callee variable that leads to its body.
    index: usize,
    params: Vec<VarId>,
    ret_var: Option<VarId>,
    ret_ty: CType,
}

/// A call that enters a shared copy.
struct Site {
    /// Inside the shared copy: the caller's locals are saved and restored.
    inside: bool,
    /// Where the push starts (its predecessors are the call's code) and where it continues.
    push: (LocId, LocId),
    /// Where the caller continues after the return.
    cont: LocId,
}

/// The explicit stack of a shared copy: its pointer, the return site of each frame, and one
/// array per local of the shared copy.
struct Stack {
    sp: VarId,
    ret: VarId,
    saved: Vec<(VarId, VarId)>,
}

/// The shared copy of one strongly connected component of recursive functions in one
/// thread template.
pub(super) struct Region {
    scc: Vec<String>,
    /// Every call of the shared copy enters here, and every return leaves there: one header
    /// each keeps the control flow reducible (a loop the bounded search can unroll) when
    /// several functions call each other.
    entry: LocId,
    ret_join: LocId,
    /// Which function a call enters (for a component of several functions).
    callee: Option<VarId>,
    /// After the return's pop: the branch of the frames the stack holds and that of a frame
    /// deeper than it (built when the shared copy is finished).
    dispatch: Option<(LocId, LocId)>,
    copies: HashMap<String, GenericCopy>,
    /// The control approximation a return from a frame deeper than [`STACK_DEPTH`] passes.
    ret_ap: ApproxId,
    /// Calls entering the shared copy, in order: the index is the return site's number.
    sites: Vec<Site>,
    stack: Option<Stack>,
    /// Locals of the shared copy (saved by calls inside it), known when it is finished.
    locals: Vec<VarId>,
    /// An approximation that taints every call inside the shared copy (a local's address is
    /// taken, so a deeper frame's object is the caller's in the IR).
    alias_ap: Option<ApproxId>,
}

/// Per-lowering state of recursion.
#[derive(Default)]
pub(super) struct RecursionState {
    /// Callees of each defined function (direct, by name; every address-taken function for a
    /// call through a pointer).
    callees: Option<HashMap<String, Vec<String>>>,
    pub regions: Vec<Region>,
    /// The shared copy of (template, smallest function name of the component).
    keys: HashMap<(TemplateId, String), usize>,
    /// Exact recursive copies inlined per template.
    copies: HashMap<TemplateId, usize>,
    /// Each function's size once inlined (see [`INLINE_LIMIT`]).
    sizes: HashMap<String, usize>,
    /// Functions whose size is being measured (on the measuring call chain).
    measuring: HashSet<String>,
    /// Whether each function lies on a cycle of the call graph.
    recursive: HashMap<String, bool>,
    /// Per recursive function: the exact copies its outermost call's guard asks for (see
    /// [`GUARD_DEPTH`]).
    guard_depth: HashMap<String, usize>,
}

impl<'a> Lowerer<'a> {
    /// Lowers a call of `name` through a shared copy when it must (a call inside one, or a
    /// recursive call beyond the exact copies), giving its value; otherwise gives the
    /// arguments back for an exact inlined copy (counted when it is recursive).
    pub(super) fn recursive_call(&mut self, name: &str, args: Vec<Val>, span: Span) -> Result<Result<Option<Val>, Vec<Val>>, Fatal> {
        if let Some(r) = self.frames.last().and_then(|f| f.region).filter(|r| self.rec.regions[*r].scc.iter().any(|g| g == name)) {
            if !self.recursive_calls.iter().any(|(f, _)| f == name) {
                self.recursive_calls.push((name.to_string(), span));
            }
            return self.region_call(r, name, args, span, true).map(Ok);
        }
        let depth = self.frames.iter().filter(|f| f.name == name).count();
        if depth == 0 && self.inline_size(name) > self.opts.inline_limit && !self.frames.iter().any(|f| f.name.starts_with("__VERIFIER_atomic_")) {
            // Too large to copy at every call: one copy per template, with call and return
            // edges. A copy called from inside and outside atomic sections is atomic only
            // where every path to it is: more interleavings, which a proof covers and a replay
            // filters out (the interpreter tracks atomic sections as they run).
            let r = self.region_for(name, span)?;
            let inside = self.rec.regions[r].stack.is_none();
            return self.region_call(r, name, args, span, inside).map(Ok);
        }
        if depth == 0 {
            if self.is_recursive(name) {
                match self.guard_bound(&args) {
                    Some(d) => self.rec.guard_depth.insert(name.to_string(), d),
                    None => self.rec.guard_depth.remove(name),
                };
            }
            return Ok(Err(args));
        }
        if !self.recursive_calls.iter().any(|(f, _)| f == name) {
            self.recursive_calls.push((name.to_string(), span));
        }
        let limit = match self.opts.recursion_depth.max(1) {
            d if d < RECURSION_DEPTH => d,
            d => d.max(self.rec.guard_depth.get(name).copied().unwrap_or(0)),
        };
        let copies = self.rec.copies.entry(self.tpl).or_insert(0);
        if depth < limit && *copies < RECURSION_COPIES {
            *copies += 1;
            return Ok(Err(args));
        }
        let r = self.region_for(name, span)?;
        // A shared copy still being lowered is entered from code inside it (a call graph that
        // missed an edge): that call must save the frame like any call inside it.
        let inside = self.rec.regions[r].stack.is_none();
        self.region_call(r, name, args, span, inside).map(Ok)
    }

    /// Whether `name` calls itself, directly or through other functions.
    fn is_recursive(&mut self, name: &str) -> bool {
        if let Some(&r) = self.rec.recursive.get(name) {
            return r;
        }
        let direct = self.callees().get(name).cloned().unwrap_or_default();
        let r = direct.iter().any(|g| self.reachable(g).contains(name));
        self.rec.recursive.insert(name.to_string(), r);
        r
    }

    /// The exact copies a guard asks for at the outermost call of a recursive function: when an
    /// argument is a variable that the calling function compares with constants
    /// (`if (n < 0 || n > 10) return 0;`, `assume(n <= 10)`), the largest of them plus two (a
    /// recursion that counts the argument down to 0 needs that many copies, the outermost call
    /// included), at most [`GUARD_DEPTH`]. Found syntactically, anywhere in the caller: the
    /// depth only trades precision for size, since deeper calls enter the shared copy, which
    /// covers every depth.
    fn guard_bound(&mut self, args: &[Val]) -> Option<usize> {
        struct Cmp<'n, 'ast> {
            names: &'n [String],
            bounds: Vec<&'ast Expression>,
        }
        impl<'ast> Visit<'ast> for Cmp<'_, 'ast> {
            fn visit_binary_operator_expression(&mut self, b: &'ast BinaryOperatorExpression, span: &'ast LSpan) {
                use BinaryOperator::*;
                if matches!(b.operator.node, Less | Greater | LessOrEqual | GreaterOrEqual | Equals) {
                    let is_arg = |e: &Expression| matches!(e, Expression::Identifier(id) if self.names.contains(&id.node.name));
                    if is_arg(&b.lhs.node) {
                        self.bounds.push(&b.rhs.node);
                    } else if is_arg(&b.rhs.node) {
                        self.bounds.push(&b.lhs.node);
                    }
                }
                lang_c::visit::visit_binary_operator_expression(self, b, span);
            }
        }
        let caller = self.frames.last()?.name.clone();
        let def = self.functions.get(&caller)?.def;
        let names: Vec<String> = args
            .iter()
            .filter_map(|a| {
                let mut e = &a.e;
                while let Expr::Cast(_, x) = e {
                    e = x;
                }
                match e {
                    Expr::Load(Lval::Var(v)) => Some(self.vars[v.index()].name.clone()),
                    _ => None,
                }
            })
            .collect();
        if names.is_empty() {
            return None;
        }
        let mut v = Cmp { names: &names, bounds: Vec::new() };
        v.visit_statement(&def.statement.node, &def.statement.span);
        let most = v.bounds.iter().filter_map(|e| self.types.const_eval(e)).max()?;
        (most >= 0).then(|| usize::try_from(most).unwrap_or(usize::MAX).saturating_add(2).min(GUARD_DEPTH))
    }

    /// The call graph's edges out of every defined function.
    fn callees(&mut self) -> &HashMap<String, Vec<String>> {
        if self.rec.callees.is_none() {
            struct V<'f> {
                out: HashSet<String>,
                indirect: bool,
                is_function: &'f dyn Fn(&str) -> bool,
                /// Names a call can reach directly: defined or declared functions, built-ins.
                is_direct: &'f dyn Fn(&str) -> bool,
                /// Names this function declares as variables (parameters and locals): a call
                /// through one is indirect even when a function or built-in has the name, as
                /// the lowering's scopes decide.
                variables: HashSet<String>,
            }
            impl<'ast> Visit<'ast> for V<'_> {
                fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast LSpan) {
                    match &c.callee.node {
                        Expression::Identifier(id) if (self.is_direct)(&id.node.name) && !self.variables.contains(&id.node.name) => {}
                        _ => self.indirect = true,
                    }
                    lang_c::visit::visit_call_expression(self, c, span);
                }
                fn visit_identifier(&mut self, id: &'ast Identifier, _: &'ast LSpan) {
                    if (self.is_function)(&id.name) {
                        self.out.insert(id.name.clone());
                    }
                }
            }
            let mut all = HashMap::new();
            let is_function = |n: &str| self.functions.contains_key(n);
            // A name that is no function of the program, no declared function and no built-in
            // is a pointer variable: a call through it may reach any address-taken function. So
            // is a global variable named like a built-in: a call graph that missed that edge
            // let mutual recursion through it inline without end.
            let is_direct =
                |n: &str| !self.globals.contains_key(n) && (self.functions.contains_key(n) || self.prototypes.contains_key(n) || super::call::is_builtin(n) || super::library::is_modelled(n));
            for (name, info) in &self.functions {
                let mut variables: HashSet<String> = info.params.iter().filter_map(|(p, _)| p.clone()).collect();
                declared_names(&info.def.statement, &mut variables);
                let mut v = V { out: HashSet::new(), indirect: false, is_function: &is_function, is_direct: &is_direct, variables };
                v.visit_statement(&info.def.statement.node, &info.def.statement.span);
                let mut out: Vec<String> = v.out.into_iter().collect();
                if v.indirect {
                    // A call through a pointer may reach any function whose address is taken.
                    out.extend(self.fn_names.iter().filter(|n| self.functions.contains_key(*n)).cloned());
                }
                out.sort();
                out.dedup();
                all.insert(name.clone(), out);
            }
            self.rec.callees = Some(all);
        }
        self.rec.callees.as_ref().expect("computed above")
    }

    /// The size of a call of `name` once inlined: its C statements and expressions, plus the
    /// size of every call it makes to a defined function (a recursive callee counts once).
    pub(super) fn inline_size(&mut self, name: &str) -> usize {
        if let Some(n) = self.rec.sizes.get(name) {
            return *n;
        }
        struct Count<'f> {
            nodes: usize,
            calls: Vec<String>,
            defined: &'f dyn Fn(&str) -> bool,
        }
        impl<'ast> Visit<'ast> for Count<'_> {
            fn visit_statement(&mut self, s: &'ast Statement, span: &'ast LSpan) {
                self.nodes += 1;
                lang_c::visit::visit_statement(self, s, span);
            }
            fn visit_expression(&mut self, e: &'ast Expression, span: &'ast LSpan) {
                self.nodes += 1;
                if let Expression::Call(c) = e {
                    if let Expression::Identifier(id) = &c.node.callee.node {
                        if (self.defined)(&id.node.name) {
                            self.calls.push(id.node.name.clone());
                        }
                    }
                }
                lang_c::visit::visit_expression(self, e, span);
            }
        }
        let Some(info) = self.functions.get(name) else { return 0 };
        let def = info.def;
        let defined = |n: &str| self.functions.contains_key(n);
        let mut c = Count { nodes: 0, calls: Vec::new(), defined: &defined };
        c.visit_statement(&def.statement.node, &def.statement.span);
        let (own, calls) = (c.nodes, c.calls);
        // A call back into a function still being measured (recursion) adds nothing: its body
        // is counted once.
        self.rec.measuring.insert(name.to_string());
        let total = calls.iter().fold(own, |n, g| n.saturating_add(if self.rec.measuring.contains(g) { 0 } else { self.inline_size(g) }));
        self.rec.measuring.remove(name);
        self.rec.sizes.insert(name.to_string(), total);
        total
    }

    /// The functions reachable from `name` in the call graph, `name` included.
    fn reachable(&mut self, name: &str) -> HashSet<String> {
        let g = self.callees();
        let mut seen: HashSet<String> = HashSet::new();
        let mut stack = vec![name.to_string()];
        while let Some(f) = stack.pop() {
            if seen.insert(f.clone()) {
                stack.extend(g.get(&f).into_iter().flatten().cloned());
            }
        }
        seen
    }

    /// The strongly connected component of `name`, ordered by position in the source.
    fn scc_of(&mut self, name: &str) -> Vec<String> {
        let reach = self.reachable(name);
        let mut scc: Vec<String> = reach.into_iter().filter(|g| g == name || self.reachable(g).contains(name)).collect();
        scc.sort_by_key(|g| (self.functions[g].offset, g.clone()));
        scc
    }

    /// The shared copy of the recursive functions around `name` in the current template,
    /// lowered on first use.
    fn region_for(&mut self, name: &str, span: Span) -> Result<usize, Fatal> {
        let scc = self.scc_of(name);
        let key = (self.tpl, scc.iter().min().cloned().unwrap_or_default());
        if let Some(r) = self.rec.keys.get(&key) {
            return Ok(*r);
        }
        let ret_ap =
            self.approximation(format!("a return from `{name}` nested deeper than {STACK_DEPTH} frames of its shared copy (the frame's locals and return site were not saved)"), span, true, true);
        let r = self.rec.regions.len();
        let entry = self.new_loc(Action::Skip, span);
        let ret_join = self.new_loc(Action::Skip, span);
        let callee = (scc.len() > 1).then(|| self.temp(CType::int()));
        self.rec.regions.push(Region { scc: scc.clone(), entry, ret_join, callee, dispatch: None, copies: HashMap::new(), ret_ap, sites: Vec::new(), stack: None, locals: Vec::new(), alias_ap: None });
        self.rec.keys.insert(key, r);
        let var_start = self.vars.len();
        for (index, g) in scc.iter().enumerate() {
            let info = &self.functions[g];
            let (params, ret_ty) = (info.params.clone(), info.ret.clone());
            let at = self.map.span(info.offset);
            let body = match callee {
                Some(c) => self.new_loc(Action::Assume(bin(BinOp::Eq, load(c), Expr::int(index as i128))), at),
                None => self.new_loc(Action::Skip, at),
            };
            self.connect(&[entry], body);
            let mut pvars = Vec::new();
            for (i, (pname, pty)) in params.iter().enumerate() {
                let pname = pname.clone().unwrap_or_else(|| format!("$arg{i}"));
                pvars.push(self.new_var(&pname, pty.clone(), VarKind::Local(self.tpl), Some(at)));
            }
            // Functions of one return type share the variable: a return reaches the common
            // dispatch, and a call site's read then always sees a value some function returned.
            let shared = self.rec.regions[r].copies.values().find(|c| c.ret_ty == ret_ty).and_then(|c| c.ret_var);
            let ret_var = (!matches!(ret_ty, CType::Void) && ret_ty.is_scalar()).then(|| shared.unwrap_or_else(|| self.temp(ret_ty.clone())));
            self.rec.regions[r].copies.insert(g.clone(), GenericCopy { index, params: pvars, ret_var, ret_ty });
        }
        // The bodies are lowered apart from the code being lowered now.
        let saved_cur = std::mem::take(&mut self.cur);
        let saved_frames = std::mem::take(&mut self.frames);
        for g in &scc {
            let copy = self.rec.regions[r].copies[g].clone();
            let def = self.functions[g].def;
            let body = self.locs[entry.index()].succs[copy.index];
            let params = self.functions[g].params.clone();
            let mut scope = HashMap::new();
            for (i, ((pname, _), v)) in params.iter().zip(&copy.params).enumerate() {
                scope.insert(pname.clone().unwrap_or_else(|| format!("$arg{i}")), super::Binding::Var(*v));
            }
            self.cur = vec![body];
            self.frames.push(Frame {
                name: g.clone(),
                scopes: vec![scope],
                labels: HashMap::new(),
                ret_target: Some(ret_join),
                ret_var: copy.ret_var,
                ret_ty: copy.ret_ty.clone(),
                jumps: Vec::new(),
                cases: Vec::new(),
                is_main: false,
                region: Some(r),
            });
            let res = self.stmt(&def.statement);
            self.frames.pop();
            res?;
            if self.live() {
                self.jump(ret_join);
            }
        }
        let var_end = self.vars.len();
        self.finish_region(r, var_start, var_end, span);
        self.cur = saved_cur;
        self.frames = saved_frames;
        Ok(r)
    }

    /// Finishes a shared copy once all its locals are known: its stack, the pushes of the calls
    /// inside it, and the return dispatch of each function.
    fn finish_region(&mut self, r: usize, var_start: usize, var_end: usize, span: Span) {
        let mut rets: HashSet<VarId> = self.rec.regions[r].copies.values().filter_map(|c| c.ret_var).collect();
        // A called pointer's copy is read only by the branches right before the call: it is
        // dead across every call, so it needs no saving (and restoring it from a frame deeper
        // than the stack would make it any pointer, failing the check of called pointers).
        rets.extend(self.indirect_sites.iter().map(|s| s.callee));
        let locals: Vec<VarId> = (var_start..var_end).map(|i| VarId(i as u32)).filter(|v| matches!(self.vars[v.index()].kind, VarKind::Local(_) | VarKind::Temp(_)) && !rets.contains(v)).collect();
        if locals.iter().any(|v| self.vars[v.index()].addr_taken || self.has_lock(&self.vars[v.index()].ty)) {
            let names = self.rec.regions[r].scc.join("`, `");
            let ap = self.approximation(format!("recursive calls of `{names}` beyond the inlined copies share one copy of a local whose address is taken (or of a local lock)"), span, false, true);
            self.rec.regions[r].alias_ap = Some(ap);
        }
        let long = CType::Int(IntTy { bits: 64, signed: true }, "long".into());
        let sp = self.temp(long.clone());
        let ret = self.temp(CType::Array(Box::new(long), Some(STACK_DEPTH)));
        let mut saved = Vec::new();
        for v in &locals {
            let ty = self.vars[v.index()].ty.clone();
            // A pointer is saved as `void *`: see the restore of a frame deeper than the stack.
            let elem = if matches!(ty, CType::Pointer(_)) { CType::Pointer(Box::new(CType::Void)) } else { ty };
            saved.push((*v, self.temp(CType::Array(Box::new(elem), Some(STACK_DEPTH)))));
        }
        self.rec.regions[r].stack = Some(Stack { sp, ret, saved });
        self.rec.regions[r].locals = locals;
        let ret_join = self.rec.regions[r].ret_join;
        let at = self.locs[ret_join.index()].span;
        // The pop, then the frames the stack holds, or a frame deeper than it.
        self.cur = vec![ret_join];
        let one = Expr::Const(1, Ty::Int(IntTy { bits: 64, signed: true }));
        self.emit(Action::Assign(Lval::Var(sp), bin(BinOp::Sub, load(sp), one)), at);
        let popped = std::mem::take(&mut self.cur);
        let held = self.new_loc(Action::Assume(bin(BinOp::Lt, load(sp), depth())), at);
        let deep = self.new_loc(Action::Assume(bin(BinOp::Ge, load(sp), depth())), at);
        self.connect(&popped, held);
        self.connect(&popped, deep);
        self.cur = vec![deep];
        let ctl = self.temp(CType::int());
        let ap = self.rec.regions[r].ret_ap;
        let lost = self.emit(Action::Assign(Lval::Var(ctl), Expr::Havoc(Ty::INT, ap)), at);
        self.cur.clear();
        self.rec.regions[r].dispatch = Some((held, lost));
        for k in 0..self.rec.regions[r].sites.len() {
            self.finish_site(r, k);
        }
    }

    /// The push of a call entering the shared copy and the branches of its return.
    fn finish_site(&mut self, r: usize, k: usize) {
        let region = &self.rec.regions[r];
        let site = &region.sites[k];
        let (inside, push, cont) = (site.inside, site.push, site.cont);
        let stack = region.stack.as_ref().expect("finished shared copy");
        let (sp, ret, saved) = (stack.sp, stack.ret, stack.saved.clone());
        let (alias_ap, ret_ap) = (region.alias_ap, region.ret_ap);
        let at = self.locs[cont.index()].span;
        let top = |a: VarId| Lval::Index(Box::new(Lval::Var(a)), Box::new(load(sp)));
        let id = Expr::Const(k as i128, Ty::Int(IntTy { bits: 64, signed: true }));
        let one = Expr::Const(1, Ty::Int(IntTy { bits: 64, signed: true }));
        // The push: a frame within the stack's depth saves the return site and the locals.
        self.cur = vec![push.0];
        if !inside {
            // No frame of this shared copy is active when a call enters it from outside: a
            // function calling into the component from the shared copy would belong to it.
            self.emit(Action::Assign(Lval::Var(sp), Expr::Const(0, Ty::Int(IntTy { bits: 64, signed: true }))), at);
        }
        if let (true, Some(ap)) = (inside, alias_ap) {
            let t = self.temp(CType::int());
            self.emit(Action::Assign(Lval::Var(t), Expr::Havoc(Ty::INT, ap)), at);
        }
        let before = std::mem::take(&mut self.cur);
        let fits = self.new_loc(Action::Assume(bin(BinOp::Lt, load(sp), depth())), at);
        let deep = self.new_loc(Action::Assume(bin(BinOp::Ge, load(sp), depth())), at);
        self.connect(&before, fits);
        self.connect(&before, deep);
        self.cur = vec![fits];
        self.emit(Action::Assign(top(ret), id.clone()), at);
        if inside {
            for (v, a) in &saved {
                let ty = self.vars[v.index()].ty.clone();
                self.copy_aggregate(top(*a), Lval::Var(*v), &ty, at);
            }
        }
        self.cur.push(deep);
        self.emit(Action::Assign(Lval::Var(sp), bin(BinOp::Add, load(sp), one)), at);
        self.place(push.1);
        // The return: this site's frame, restored from the stack, or any frame deeper than it.
        let (held, lost) = self.rec.regions[r].dispatch.expect("finished shared copy");
        self.cur = vec![held];
        self.emit(Action::Assume(bin(BinOp::Eq, Expr::Load(top(ret)), id)), at);
        if inside {
            for (v, a) in &saved {
                let ty = self.vars[v.index()].ty.clone();
                self.copy_aggregate(Lval::Var(*v), top(*a), &ty, at);
            }
        }
        self.place(cont);
        self.cur = vec![lost];
        if inside {
            for (v, a) in &saved {
                let ty = self.vars[v.index()].ty.clone();
                if matches!(ty, CType::Pointer(_)) {
                    // Any address (a byte offset from a saved pointer): a plain pointer havoc
                    // would make the alias model let the local point anywhere, while the value
                    // the frame held is one the local took, which the saved pointers' targets
                    // already include.
                    let last = Lval::Index(Box::new(Lval::Var(*a)), Box::new(Expr::Const(STACK_DEPTH as i128 - 1, Ty::Int(IntTy { bits: 64, signed: true }))));
                    let any = Expr::Binary(BinOp::Add, Box::new(Expr::Load(last)), Box::new(Expr::Havoc(Ty::Int(IntTy { bits: 64, signed: true }), ret_ap)), Ty::Ptr);
                    self.emit(Action::Assign(Lval::Var(*v), any), at);
                } else {
                    self.havoc_object(Lval::Var(*v), &ty, ret_ap, at);
                }
            }
        }
        self.place(cont);
        self.cur.clear();
    }

    /// Assigns a havoc to every scalar of an object; an object the IR cannot enumerate makes
    /// the shared copy incomplete.
    fn havoc_object(&mut self, lv: Lval, ty: &CType, ap: ApproxId, span: Span) {
        match ty {
            CType::Record(rec) => {
                let fields = self.types.records[rec.0 as usize].fields.clone();
                for (i, (_, fty)) in fields.iter().enumerate() {
                    self.havoc_object(Lval::Field(Box::new(lv.clone()), *rec, i as u32), fty, ap, span);
                }
            }
            CType::Array(elem, Some(n)) if *n <= 4096 => {
                for i in 0..*n as i128 {
                    let ix = Expr::Const(i, Ty::Int(IntTy { bits: 64, signed: true }));
                    self.havoc_object(Lval::Index(Box::new(lv.clone()), Box::new(ix)), elem, ap, span);
                }
            }
            t if t.is_scalar() => {
                let st = t.scalar(self.dm());
                self.emit(Action::Assign(lv, Expr::Havoc(st, ap)), span);
            }
            CType::Mutex | CType::Opaque(_) | CType::Function | CType::Void => {}
            _ => {
                self.approximation("a local of a recursive function too large to havoc when a deeper call returns", span, false, false);
            }
        }
    }

    /// A call that enters the shared copy `r` at `name`: from inside it (`inside`) or from an
    /// exact copy nested [`RECURSION_DEPTH`] deep.
    fn region_call(&mut self, r: usize, name: &str, args: Vec<Val>, span: Span, inside: bool) -> Result<Option<Val>, Fatal> {
        let copy = self.rec.regions[r].copies[name].clone();
        let params = self.functions[name].params.clone();
        let mut args = args.into_iter();
        let mut values = Vec::new();
        for (_, pty) in &params {
            let e = match args.next() {
                Some(a) => self.convert(a, pty),
                None => Expr::Nondet(pty.scalar(self.dm())),
            };
            // The argument may read a parameter that the binding below overwrites.
            let t = self.temp(pty.clone());
            self.emit(Action::Assign(Lval::Var(t), e), span);
            values.push(Expr::Load(Lval::Var(t)));
        }
        if !self.live() {
            return Ok(copy.ret_var.map(|_| Val { e: Expr::Nondet(copy.ret_ty.scalar(self.dm())), ty: copy.ret_ty.clone() }));
        }
        // The push is built once the shared copy's locals are known: it runs from `push` to
        // `bind`.
        let push = self.emit(Action::Skip, span);
        self.cur.clear();
        let bind = self.new_loc(Action::Skip, span);
        self.cur = vec![bind];
        for (p, e) in copy.params.iter().zip(values) {
            self.emit(Action::Assign(Lval::Var(*p), e), span);
        }
        if let Some(c) = self.rec.regions[r].callee {
            self.emit(Action::Assign(Lval::Var(c), Expr::int(copy.index as i128)), span);
        }
        let entry = self.rec.regions[r].entry;
        self.jump(entry);
        let cont = self.new_loc(Action::Skip, span);
        self.rec.regions[r].sites.push(Site { inside, push: (push, bind), cont });
        if self.rec.regions[r].stack.is_some() {
            let k = self.rec.regions[r].sites.len() - 1;
            self.finish_site(r, k);
        }
        self.cur = vec![cont];
        let Some(rv) = copy.ret_var else { return Ok(None) };
        // Another call of the same function overwrites the shared return variable.
        let t = self.temp(copy.ret_ty.clone());
        self.emit(Action::Assign(Lval::Var(t), Expr::Load(Lval::Var(rv))), span);
        Ok(Some(Val { e: Expr::Load(Lval::Var(t)), ty: copy.ret_ty }))
    }
}

fn load(v: VarId) -> Expr {
    Expr::Load(Lval::Var(v))
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    let t = if op.is_comparison() { Ty::INT } else { Ty::Int(IntTy { bits: 64, signed: true }) };
    Expr::Binary(op, Box::new(a), Box::new(b), t)
}

/// The stack's depth as an expression.
fn depth() -> Expr {
    Expr::Const(STACK_DEPTH as i128, Ty::Int(IntTy { bits: 64, signed: true }))
}

impl Lowerer<'_> {
    /// Whether an object of this type holds a lock.
    fn has_lock(&self, ty: &CType) -> bool {
        match ty {
            CType::Mutex | CType::Opaque(_) => true,
            CType::Array(e, _) => self.has_lock(e),
            CType::Record(r) => self.types.records[r.0 as usize].fields.iter().any(|(_, f)| self.has_lock(f)),
            _ => false,
        }
    }
}

/// Every name a statement declares as a variable, in any block.
fn declared_names(s: &lang_c::span::Node<Statement>, out: &mut HashSet<String>) {
    struct D<'o>(&'o mut HashSet<String>);
    impl<'ast> Visit<'ast> for D<'_> {
        fn visit_declarator(&mut self, d: &'ast lang_c::ast::Declarator, span: &'ast LSpan) {
            if let lang_c::ast::DeclaratorKind::Identifier(id) = &d.kind.node {
                self.0.insert(id.node.name.clone());
            }
            lang_c::visit::visit_declarator(self, d, span);
        }
    }
    D(out).visit_statement(&s.node, &s.span);
}
