//! Readable printing of the IR: expressions in C syntax, actions, and whole programs.

use super::types::type_name;
use super::*;
use std::fmt::Write;

/// C-like text of an expression.
pub fn expr(p: &Program, e: &Expr) -> String {
    let mut s = String::new();
    write_expr(p, e, &mut s, 0);
    s
}

/// C-like text of an lvalue.
pub fn lval(p: &Program, lv: &Lval) -> String {
    match lv {
        Lval::Var(v) => p.var(*v).name.clone(),
        Lval::Deref(e, _) => format!("*{}", paren(p, e)),
        Lval::Index(b, i) => format!("{}[{}]", lval(p, b), expr(p, i)),
        Lval::Field(b, r, i) => {
            let rec = &p.records[r.0 as usize];
            let name = rec.fields.get(*i as usize).map(|f| f.0.as_str()).unwrap_or("?");
            match b.as_ref() {
                Lval::Deref(e, _) => format!("{}->{}", paren(p, e), name),
                _ => format!("{}.{}", lval(p, b), name),
            }
        }
    }
}

fn paren(p: &Program, e: &Expr) -> String {
    match e {
        Expr::Load(_) | Expr::Const(..) => expr(p, e),
        _ => format!("({})", expr(p, e)),
    }
}

fn prec(op: BinOp) -> u8 {
    match op {
        BinOp::Mul | BinOp::Div | BinOp::Rem => 10,
        BinOp::Add | BinOp::Sub => 9,
        BinOp::Shl | BinOp::Shr => 8,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 7,
        BinOp::Eq | BinOp::Ne => 6,
        BinOp::BitAnd => 5,
        BinOp::BitXor => 4,
        BinOp::BitOr => 3,
    }
}

fn write_expr(p: &Program, e: &Expr, out: &mut String, ctx: u8) {
    match e {
        Expr::Const(v, _) => {
            let _ = write!(out, "{v}");
        }
        Expr::Load(lv) => out.push_str(&lval(p, lv)),
        Expr::AddrOf(lv) => {
            out.push('&');
            out.push_str(&lval(p, lv));
        }
        Expr::Unary(op, x, _) => {
            out.push(match op {
                UnOp::Neg => '-',
                UnOp::BitNot => '~',
                UnOp::Not => '!',
            });
            write_expr(p, x, out, 11);
        }
        Expr::Binary(op, a, b, _) => {
            let pr = prec(*op);
            if pr < ctx {
                out.push('(');
            }
            write_expr(p, a, out, pr);
            let _ = write!(out, " {} ", op.symbol());
            write_expr(p, b, out, pr + 1);
            if pr < ctx {
                out.push(')');
            }
        }
        Expr::Cast(t, x) => {
            let _ = write!(out, "({t})");
            write_expr(p, x, out, 11);
        }
        Expr::Nondet(t) => {
            let _ = write!(out, "nondet_{t}()");
        }
        Expr::Havoc(t, a) => {
            let _ = write!(out, "havoc_{t}#{}()", a.0);
        }
    }
}

/// Text of an action.
pub fn action(p: &Program, a: &Action) -> String {
    match a {
        Action::Skip => "skip".into(),
        Action::Assign(lv, e) => format!("{} := {}", lval(p, lv), expr(p, e)),
        Action::Assume(e) => format!("assume({})", expr(p, e)),
        Action::Assert(id, e) => format!("assert#{}({})", id.0, expr(p, e)),
        Action::Alloc(lv, site, _) => format!("{} := alloc#{}", lval(p, lv), site.0),
        Action::Acquire(lv) => format!("acquire({})", lval(p, lv)),
        Action::Release(lv) => format!("release({})", lval(p, lv)),
        Action::LockBusy(lv) => format!("busy({})", lval(p, lv)),
        Action::Fork { template, handle, arg } => {
            let mut s = format!("fork {}", p.template(*template).name);
            if let Some(a) = arg {
                let _ = write!(s, "({})", expr(p, a));
            }
            if let Some(h) = handle {
                let _ = write!(s, " -> {}", lval(p, h));
            }
            s
        }
        Action::Join(e) => format!("join({})", expr(p, e)),
        Action::AtomicBegin => "atomic_begin".into(),
        Action::AtomicEnd => "atomic_end".into(),
        Action::Halt(Halt::Abort) => "abort".into(),
        Action::Halt(Halt::Exit) => "exit".into(),
        Action::Halt(Halt::ThreadExit) => "thread_exit".into(),
    }
}

fn names(p: &Program, set: &[AbsLoc]) -> String {
    set.iter().map(|a| p.memory.info(*a).name.clone()).collect::<Vec<_>>().join(", ")
}

/// The whole program, as `duet-rs ir` prints it.
pub fn program(p: &Program) -> String {
    let mut out = String::new();
    let mode = match (p.mode.whole_program, p.mode.parameterized) {
        (true, false) => "whole program",
        (true, true) => "whole program, parameterized",
        (false, false) => "no whole program",
        (false, true) => "no whole program, parameterized",
    };
    let _ = writeln!(out, "program {} ({mode}; {:?})", p.files[0], p.data_model);
    let _ = writeln!(out, "\nvariables:");
    let mut used = vec![false; p.vars.len()];
    for loc in &p.locs {
        crate::ir::visit::action_vars(&loc.action, &mut |v| used[v.index()] = true);
    }
    for (i, v) in p.vars.iter().enumerate() {
        // Declarations that headers bring in and the program never uses are noise.
        if !used[i] && v.span.map(|s| s.file != 0).unwrap_or(false) {
            continue;
        }
        let kind = match v.kind {
            VarKind::Global => "global".to_string(),
            VarKind::ThreadLocal => "thread-local".to_string(),
            VarKind::Local(t) => format!("local of {}", p.template(t).name),
            VarKind::Temp(t) => format!("temp of {}", p.template(t).name),
        };
        let addr = if v.addr_taken { ", address taken" } else { "" };
        let _ = writeln!(out, "  {:<16} {:<24} {kind}{addr}", v.name, type_name(&v.ty, &p.records));
    }
    for (i, t) in p.templates.iter().enumerate() {
        let mult = match t.multiplicity {
            Multiplicity::One => "1 instance",
            Multiplicity::Unbounded => "unboundedly many instances",
        };
        let created = if t.spawned_at.is_empty() { "root".to_string() } else { format!("created at {}", t.spawned_at.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ")) };
        let _ = writeln!(out, "\ntemplate {i} {} (function {}, {created}, {mult}, entry {})", t.name, t.function, t.entry);
        for l in &t.locs {
            let loc = p.loc(*l);
            let acc = p.memory.access(*l);
            let succ = loc.succs.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ");
            let atomic = if loc.atomic { " [atomic]" } else { "" };
            let _ = write!(out, "  {:<6} {:<5} {}{atomic}", l.to_string(), format!("{}:{}", loc.span.line, loc.span.col), action(p, &loc.action));
            if !succ.is_empty() {
                let _ = write!(out, "  -> {succ}");
            }
            if !acc.mods.is_empty() || !acc.refs.is_empty() {
                let _ = write!(out, "   mod {{{}}} ref {{{}}}", names(p, &acc.mods), names(p, &acc.refs));
            }
            out.push('\n');
        }
    }
    let _ = writeln!(out, "\nassertions:");
    for (i, a) in p.assertions.iter().enumerate() {
        let at = if a.locs.is_empty() { "never reached".to_string() } else { a.locs.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ") };
        let _ = writeln!(out, "  #{i} {} '{}' in {} at {at}", p.span_str(a.span), a.text, a.function);
    }
    if !p.unsupported.is_empty() {
        let _ = writeln!(out, "\nunsupported constructs:");
        for u in &p.unsupported {
            let _ = writeln!(out, "  {}: {}", p.span_str(u.span), u.construct);
        }
    }
    if !p.external_calls.is_empty() {
        let _ = writeln!(out, "\nfunctions without a definition (assumed to write through their pointer arguments, and, unless a system header declares them, every global with external linkage):");
        for (n, s) in &p.external_calls {
            let _ = writeln!(out, "  {n} (first called at {})", p.span_str(*s));
        }
    }
    out
}

/// The name a user reads for an abstract location: the source name of its variable (`n`, not
/// the front-end's `n#2`), with the declaration line when another variable of that name is
/// visible in the same thread template. Machine-facing outputs keep `AbsLocInfo::name`.
pub fn source_name(p: &Program, a: AbsLoc) -> String {
    let info = p.memory.info(a);
    let (AbsKind::Var(v) | AbsKind::Cell(v, _)) = &info.kind else { return info.name.clone() };
    let var = p.var(*v);
    let Some(rest) = info.name.strip_prefix(var.name.as_str()) else { return info.name.clone() };
    let base = format!("{}{rest}", var.source_name);
    let scope = |k: &VarKind| match k {
        VarKind::Local(t) | VarKind::Temp(t) => Some(*t),
        _ => None,
    };
    let line = var.span.map(|s| s.line);
    let visible = |w: &Variable| match (scope(&var.kind), scope(&w.kind)) {
        (Some(t), Some(u)) => t == u,
        (a, b) => a.is_none() || b.is_none(),
    };
    let ambiguous = p.vars.iter().any(|w| w.source_name == var.source_name && visible(w) && w.span.map(|s| s.line) != line);
    match line {
        Some(l) if ambiguous => format!("{base} (declared at line {l})"),
        _ => base,
    }
}

/// A read-write lock's value as a word: the front-end keeps `-1` for a writer, the number of
/// readers otherwise.
pub fn rwlock_word(v: i128) -> String {
    match v {
        0 => "free".into(),
        -1 => "write-locked".into(),
        1 => "1 reader".into(),
        n if n > 1 => format!("{n} readers"),
        n => n.to_string(),
    }
}

/// Whether a variable's type (or its array's element type) is `pthread_rwlock_t`.
pub fn is_rwlock(t: &CType) -> bool {
    match t {
        CType::Array(e, _) => is_rwlock(e),
        CType::Int(_, n) => n == "pthread_rwlock_t",
        _ => false,
    }
}
