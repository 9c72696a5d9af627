//! Boolean programs (`.bp`, the concurrent dialect DUET reads): parsed here and translated to
//! C, which the C front-end lowers into the same IR.
//!
//! Going through C keeps one lowering and one set of IR invariants. The translation is exact
//! for the dialect's semantics, not DUET's implementation of it:
//! - a variable is a C `int` that only ever holds 0 or 1; every operator yields 0 or 1;
//! - variables start with arbitrary Boolean values (a Boolean program has no initialisers),
//!   chosen as program inputs;
//! - `*` is a nondeterministic Boolean, `schoose[a, b]` is true if `a`, false if `b`, else
//!   either (SLAM's reading);
//! - an assignment, parallel or with `constrain`, is one atomic step, and a parallel one reads
//!   every right-hand side before it writes (DUET writes in order, which breaks `a, b := b, a`);
//! - `start_thread goto L` starts a thread at label `L` of the current procedure, with its own
//!   locals (arbitrary values): the procedure's body is copied into a thread function that
//!   begins with `goto L`;
//! - `end_thread`, and the end of `main`, end the current thread only: the other threads go on
//!   (in C, returning from `main` would end the program);
//! - `bool<n>` procedures return through pointers, so threads calling one procedure share no
//!   return slot.
//!
//! Line markers and column padding put every statement at its `.bp` line and column, so
//! verdicts, reasons and witnesses name `.bp` positions. `enforce` and `abortif` have no
//! translation and are located errors.

use super::FrontendOptions;
use crate::diag::Diagnostic;
use crate::ir::Program;
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

/// Prefix of the functions and variables the translation adds. In `--no-whole-program` mode
/// every function of a C program is a thread; functions with this prefix are not.
pub(crate) const GENERATED: &str = "__duet_bp_";

/// Reads, parses and lowers one Boolean program.
pub(crate) fn load(path: &Path, opts: &FrontendOptions) -> Result<Program, Diagnostic> {
    let display = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Diagnostic::file(&display, format!("cannot read the file: {e}")))?;
    let c = translate(&text, &display, opts)?;
    let mut prog = super::lower_text(&c, &display, &display, opts)?;
    merge_assertions(&mut prog);
    Ok(prog)
}

/// One assertion per `.bp` position: a statement copied into several C functions (a
/// procedure and the threads started inside it) is one assertion with the instances of all.
fn merge_assertions(prog: &mut Program) {
    use crate::ir::{Action, AssertId};
    let mut keep: Vec<crate::ir::Assertion> = Vec::new();
    let mut map = Vec::with_capacity(prog.assertions.len());
    for a in std::mem::take(&mut prog.assertions) {
        match keep.iter().position(|k| k.span == a.span) {
            Some(j) => {
                keep[j].locs.extend(a.locs);
                map.push(AssertId(j as u32));
            }
            None => {
                map.push(AssertId(keep.len() as u32));
                keep.push(a);
            }
        }
    }
    for k in &mut keep {
        k.locs.sort_unstable();
        k.locs.dedup();
    }
    for l in &mut prog.locs {
        if let Action::Assert(id, _) = &mut l.action {
            *id = map[id.index()];
        }
    }
    prog.assertions = keep;
}

/// The C translation of a Boolean program's text (with line markers naming `display`).
pub(crate) fn translate(text: &str, display: &str, opts: &FrontendOptions) -> Result<String, Diagnostic> {
    let toks = lex(text, display)?;
    let mut p = Parser { toks, i: 0, file: display };
    let prog = p.program()?;
    Emitter::new(&prog, display, opts).emit()
}

// ---------------------------------------------------------------- lexing

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Id(String),
    Int(u64),
    /// Punctuation and keywords, as written.
    P(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: u32,
    col: u32,
}

const KEYWORDS: [&str; 27] = [
    "return",
    "goto",
    "skip",
    "dfs",
    "do",
    "od",
    "else",
    "elsif",
    "if",
    "then",
    "fi",
    "decl",
    "while",
    "begin",
    "end",
    "bool",
    "void",
    "assert",
    "assume",
    "enforce",
    "constrain",
    "schoose",
    "abortif",
    "start_thread",
    "end_thread",
    "atomic_begin",
    "atomic_end",
];

const PUNCT: [&str; 21] = [":=", "!=", "=>", "&&", "||", "*", "?", "=", ";", "'", ",", ":", "(", ")", "[", "]", "&", "!", "^", "|", "<"];

fn lex(text: &str, file: &str) -> Result<Vec<Token>, Diagnostic> {
    let b = text.as_bytes();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let mut out = Vec::new();
    let advance = |i: &mut usize, line: &mut u32, col: &mut u32, n: usize| {
        for &c in &b[*i..*i + n] {
            if c == b'\n' {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
        }
        *i += n;
    };
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            advance(&mut i, &mut line, &mut col, 1);
        } else if text[i..].starts_with("//") {
            let n = text[i..].find('\n').unwrap_or(b.len() - i);
            advance(&mut i, &mut line, &mut col, n);
        } else if text[i..].starts_with("/*") {
            let Some(n) = text[i + 2..].find("*/") else { return Err(Diagnostic::input(file, line, col, "unterminated comment: expected `*/`")) };
            advance(&mut i, &mut line, &mut col, n + 4);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let n = text[i..].find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).unwrap_or(b.len() - i);
            let word = &text[i..i + n];
            let tok = match KEYWORDS.iter().find(|k| **k == word) {
                Some(k) => Tok::P(k),
                None => Tok::Id(word.to_string()),
            };
            out.push(Token { tok, line, col });
            advance(&mut i, &mut line, &mut col, n);
        } else if c.is_ascii_digit() {
            let n = text[i..].find(|ch: char| !ch.is_ascii_digit()).unwrap_or(b.len() - i);
            let v = text[i..i + n].parse::<u64>().map_err(|_| Diagnostic::input(file, line, col, "integer constant too large"))?;
            out.push(Token { tok: Tok::Int(v), line, col });
            advance(&mut i, &mut line, &mut col, n);
        } else if c == b'>' {
            out.push(Token { tok: Tok::P(">"), line, col });
            advance(&mut i, &mut line, &mut col, 1);
        } else if let Some(p) = PUNCT.iter().find(|p| text[i..].starts_with(**p)) {
            out.push(Token { tok: Tok::P(p), line, col });
            advance(&mut i, &mut line, &mut col, p.len());
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(Diagnostic::input(file, line, col, format!("unexpected character `{ch}` in a Boolean program")));
        }
    }
    out.push(Token { tok: Tok::Eof, line, col });
    Ok(out)
}

// ---------------------------------------------------------------- syntax

#[derive(Clone, Debug)]
enum Expr {
    Const(bool),
    Havoc,
    Var(String),
    Primed(String, Pos),
    Not(Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Choose(Box<Expr>, Box<Expr>),
}

#[derive(Copy, Clone, Debug)]
struct Pos {
    line: u32,
    col: u32,
}

#[derive(Clone, Debug)]
enum Kind {
    Skip,
    Goto(Vec<String>),
    Return(Vec<Expr>),
    Assign(Vec<String>, Vec<Expr>, Option<Expr>),
    Call(Vec<String>, String, Vec<Expr>),
    Assert(Expr),
    Assume(Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    While(Expr, Vec<Stmt>),
    AtomicBegin,
    AtomicEnd,
    StartGoto(String),
    StartCall(String),
    EndThread,
}

#[derive(Clone, Debug)]
struct Stmt {
    labels: Vec<String>,
    kind: Kind,
    pos: Pos,
}

#[derive(Clone, Debug)]
struct Func {
    name: String,
    /// Number of Boolean results (0 for `void`).
    returns: usize,
    formals: Vec<String>,
    locals: Vec<String>,
    body: Vec<Stmt>,
    pos: Pos,
}

#[derive(Clone, Debug)]
struct BoolProgram {
    globals: Vec<String>,
    funcs: Vec<Func>,
}

struct Parser<'a> {
    toks: Vec<Token>,
    i: usize,
    file: &'a str,
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.i].tok
    }
    fn peek2(&self) -> &Tok {
        &self.toks[(self.i + 1).min(self.toks.len() - 1)].tok
    }
    fn pos(&self) -> Pos {
        let t = &self.toks[self.i];
        Pos { line: t.line, col: t.col }
    }
    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::P(q) if *q == p)
    }
    fn eat(&mut self, p: &str) -> bool {
        let yes = self.is(p);
        if yes {
            self.i += 1;
        }
        yes
    }
    fn error(&self, what: &str) -> Diagnostic {
        let t = &self.toks[self.i];
        let found = match &t.tok {
            Tok::Id(s) => format!("`{s}`"),
            Tok::Int(v) => format!("`{v}`"),
            Tok::P(p) => format!("`{p}`"),
            Tok::Eof => "the end of the file".into(),
        };
        Diagnostic::input(self.file, t.line, t.col, format!("syntax error at {found}: expected {what}"))
    }
    fn expect(&mut self, p: &str) -> Result<(), Diagnostic> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(self.error(&format!("`{p}`")))
        }
    }
    fn ident(&mut self) -> Result<String, Diagnostic> {
        match self.peek().clone() {
            Tok::Id(s) => {
                self.i += 1;
                Ok(s)
            }
            _ => Err(self.error("an identifier")),
        }
    }
    fn ident_list(&mut self) -> Result<Vec<String>, Diagnostic> {
        let mut v = vec![self.ident()?];
        while self.eat(",") {
            v.push(self.ident()?);
        }
        Ok(v)
    }
    fn decls(&mut self) -> Result<Vec<String>, Diagnostic> {
        let mut v = Vec::new();
        while self.eat("decl") {
            v.extend(self.ident_list()?);
            self.expect(";")?;
        }
        Ok(v)
    }

    fn program(&mut self) -> Result<BoolProgram, Diagnostic> {
        let globals = self.decls()?;
        let mut funcs = Vec::new();
        while *self.peek() != Tok::Eof {
            funcs.push(self.func()?);
        }
        if funcs.is_empty() {
            return Err(self.error("a procedure (`void name() begin ... end`)"));
        }
        Ok(BoolProgram { globals, funcs })
    }

    fn func(&mut self) -> Result<Func, Diagnostic> {
        let pos = self.pos();
        if self.is("dfs") {
            return Err(self.unsupported("`dfs`"));
        }
        let returns = if self.eat("void") {
            0
        } else if self.eat("bool") {
            if self.eat("<") {
                let n = match *self.peek() {
                    Tok::Int(n) if (1..=64).contains(&n) => n as usize,
                    _ => return Err(self.error("a number of results from 1 to 64")),
                };
                self.i += 1;
                self.expect(">")?;
                n
            } else {
                1
            }
        } else {
            return Err(self.error("`void` or `bool` (a procedure)"));
        };
        let name = self.ident()?;
        self.expect("(")?;
        let formals = if self.is(")") { Vec::new() } else { self.ident_list()? };
        self.expect(")")?;
        self.expect("begin")?;
        let locals = self.decls()?;
        for k in ["enforce", "abortif"] {
            if self.is(k) {
                return Err(self.unsupported(&format!("`{k}`")));
            }
        }
        let body = self.stmts()?;
        self.expect("end")?;
        Ok(Func { name, returns, formals, locals, body, pos })
    }

    fn unsupported(&self, what: &str) -> Diagnostic {
        let t = &self.toks[self.i];
        Diagnostic::input(self.file, t.line, t.col, format!("{what} has no translation in duet-rs's Boolean programs"))
    }

    /// Statements up to a closing keyword (`end`, `od`, `fi`, `else`, `elsif`).
    fn stmts(&mut self) -> Result<Vec<Stmt>, Diagnostic> {
        let mut out = Vec::new();
        let mut labels = Vec::new();
        let mut label_pos = None;
        loop {
            if let (Tok::Id(l), Tok::P(":")) = (self.peek().clone(), self.peek2().clone()) {
                label_pos.get_or_insert(self.pos());
                labels.push(l);
                self.i += 2;
                continue;
            }
            if matches!(self.peek(), Tok::Eof) || ["end", "od", "fi", "else", "elsif"].iter().any(|k| self.is(k)) {
                if !labels.is_empty() {
                    out.push(Stmt { labels: std::mem::take(&mut labels), kind: Kind::Skip, pos: label_pos.take().unwrap_or(self.pos()) });
                }
                return Ok(out);
            }
            let pos = label_pos.take().unwrap_or(self.pos());
            let kind = self.stmt()?;
            out.push(Stmt { labels: std::mem::take(&mut labels), kind, pos });
        }
    }

    fn stmt(&mut self) -> Result<Kind, Diagnostic> {
        if self.eat("while") {
            let c = self.expr()?;
            self.expect("do")?;
            let body = self.stmts()?;
            self.expect("od")?;
            self.eat(";");
            return Ok(Kind::While(c, body));
        }
        if self.eat("if") {
            let k = self.if_rest()?;
            self.eat(";");
            return Ok(k);
        }
        let k = if self.eat("start_thread") {
            if self.eat("goto") {
                Kind::StartGoto(self.ident()?)
            } else {
                let f = self.ident()?;
                self.expect("(")?;
                self.expect(")")?;
                Kind::StartCall(f)
            }
        } else if self.eat("end_thread") {
            Kind::EndThread
        } else if self.eat("atomic_begin") {
            Kind::AtomicBegin
        } else if self.eat("atomic_end") {
            Kind::AtomicEnd
        } else if self.eat("skip") {
            Kind::Skip
        } else if self.eat("goto") {
            Kind::Goto(self.ident_list()?)
        } else if self.eat("return") {
            Kind::Return(if self.is(";") { Vec::new() } else { self.expr_list()? })
        } else if self.eat("assert") {
            self.expect("(")?;
            let e = self.expr()?;
            self.expect(")")?;
            Kind::Assert(e)
        } else if self.eat("assume") {
            self.expect("(")?;
            let e = self.expr()?;
            self.expect(")")?;
            Kind::Assume(e)
        } else if matches!(self.peek(), Tok::Id(_)) && matches!(self.peek2(), Tok::P("(")) {
            let f = self.ident()?;
            Kind::Call(Vec::new(), f, self.args()?)
        } else if matches!(self.peek(), Tok::Id(_)) {
            let targets = self.ident_list()?;
            self.expect(":=")?;
            if let (Tok::Id(f), Tok::P("(")) = (self.peek().clone(), self.peek2().clone()) {
                self.i += 1;
                Kind::Call(targets, f, self.args()?)
            } else {
                let pos = self.pos();
                let values = self.expr_list()?;
                if values.len() != targets.len() {
                    return Err(Diagnostic::input(self.file, pos.line, pos.col, format!("{} variables are assigned {} values", targets.len(), values.len())));
                }
                let constrain = if self.eat("constrain") { Some(self.expr()?) } else { None };
                Kind::Assign(targets, values, constrain)
            }
        } else {
            return Err(self.error("a statement"));
        };
        self.expect(";")?;
        Ok(k)
    }

    fn if_rest(&mut self) -> Result<Kind, Diagnostic> {
        let c = self.expr()?;
        self.expect("then")?;
        let then = self.stmts()?;
        let pos = self.pos();
        let els = if self.eat("elsif") {
            vec![Stmt { labels: Vec::new(), kind: self.if_rest()?, pos }]
        } else if self.eat("else") {
            let e = self.stmts()?;
            self.expect("fi")?;
            e
        } else {
            self.expect("fi")?;
            Vec::new()
        };
        Ok(Kind::If(c, then, els))
    }

    fn args(&mut self) -> Result<Vec<Expr>, Diagnostic> {
        self.expect("(")?;
        let a = if self.is(")") { Vec::new() } else { self.expr_list()? };
        self.expect(")")?;
        Ok(a)
    }

    fn expr_list(&mut self) -> Result<Vec<Expr>, Diagnostic> {
        let mut v = vec![self.expr()?];
        while self.eat(",") {
            v.push(self.expr()?);
        }
        Ok(v)
    }

    fn expr(&mut self) -> Result<Expr, Diagnostic> {
        let c = self.or_expr()?;
        if self.eat("?") {
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.or_expr()?;
            return Ok(Expr::Ternary(Box::new(c), Box::new(a), Box::new(b)));
        }
        Ok(c)
    }

    fn or_expr(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.xor_expr()?;
        loop {
            let op = if self.eat("|") || self.eat("||") {
                "|"
            } else if self.eat("=>") {
                "=>"
            } else {
                return Ok(e);
            };
            e = Expr::Bin(op, Box::new(e), Box::new(self.xor_expr()?));
        }
    }

    fn xor_expr(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.and_expr()?;
        while self.eat("^") {
            e = Expr::Bin("^", Box::new(e), Box::new(self.and_expr()?));
        }
        Ok(e)
    }

    fn and_expr(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.eq_expr()?;
        while self.eat("&") || self.eat("&&") {
            e = Expr::Bin("&", Box::new(e), Box::new(self.eq_expr()?));
        }
        Ok(e)
    }

    fn eq_expr(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.unary()?;
        loop {
            let op = if self.eat("=") {
                "="
            } else if self.eat("!=") {
                "!="
            } else {
                return Ok(e);
            };
            e = Expr::Bin(op, Box::new(e), Box::new(self.unary()?));
        }
    }

    fn unary(&mut self) -> Result<Expr, Diagnostic> {
        if self.eat("!") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, Diagnostic> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Int(0) => {
                self.i += 1;
                Ok(Expr::Const(false))
            }
            Tok::Int(1) => {
                self.i += 1;
                Ok(Expr::Const(true))
            }
            Tok::Int(_) => Err(self.error("a Boolean constant (0 or 1)")),
            Tok::Id(s) => {
                self.i += 1;
                Ok(Expr::Var(s))
            }
            Tok::P("*") => {
                self.i += 1;
                Ok(Expr::Havoc)
            }
            Tok::P("'") => {
                self.i += 1;
                Ok(Expr::Primed(self.ident()?, pos))
            }
            Tok::P("(") => {
                self.i += 1;
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::P("schoose") => {
                self.i += 1;
                self.expect("[")?;
                let a = self.expr()?;
                self.expect(",")?;
                let b = self.expr()?;
                self.expect("]")?;
                Ok(Expr::Choose(Box::new(a), Box::new(b)))
            }
            _ => Err(self.error("an expression")),
        }
    }
}

// ---------------------------------------------------------------- translation to C

const C_KEYWORDS: [&str; 44] = [
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Bool",
    "_Complex",
    "_Atomic",
    "asm",
    "typeof",
    "pthread_create",
    "pthread_exit",
    "pthread_t",
    "main",
    "init",
];

/// Where a procedure's body is being written: as itself, or as a thread started at a label.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Procedure,
    ThreadAt,
}

struct Emitter<'a> {
    prog: &'a BoolProgram,
    file: &'a str,
    opts: &'a FrontendOptions,
    out: String,
    /// (procedure, label) pairs that some `start_thread goto` starts a thread at.
    forks: BTreeSet<(String, String)>,
    /// Procedures some `start_thread f()` starts.
    started: BTreeSet<String>,
    tmp: u32,
    /// The statements the body being written can reach; the others become empty statements.
    live: BTreeSet<*const Stmt>,
}

fn c_name(v: &str) -> String {
    if C_KEYWORDS.contains(&v) || v.starts_with(GENERATED) {
        format!("{v}_bp")
    } else {
        v.to_string()
    }
}

impl<'a> Emitter<'a> {
    fn new(prog: &'a BoolProgram, file: &'a str, opts: &'a FrontendOptions) -> Self {
        Emitter { prog, file, opts, out: String::new(), forks: BTreeSet::new(), started: BTreeSet::new(), tmp: 0, live: BTreeSet::new() }
    }

    fn err(&self, pos: Pos, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::input(self.file, pos.line, pos.col, msg)
    }

    fn fname(&self, f: &str) -> String {
        // `main` and `init` keep their names: they are the program's entry points.
        if f == "main" || f == "init" {
            f.to_string()
        } else {
            c_name(f)
        }
    }

    fn emit(mut self) -> Result<String, Diagnostic> {
        let names: Vec<&str> = self.prog.funcs.iter().map(|f| f.name.as_str()).collect();
        for (i, f) in self.prog.funcs.iter().enumerate() {
            if names[..i].contains(&f.name.as_str()) {
                return Err(self.err(f.pos, format!("procedure `{}` is defined twice", f.name)));
            }
            collect_starts(&f.name, &f.body, &mut self.forks, &mut self.started);
        }
        for (f, l) in &self.forks {
            let func = self.prog.funcs.iter().find(|g| &g.name == f).expect("fork site in a known procedure");
            if !has_label(&func.body, l) {
                let pos = find_start(&func.body, l).unwrap_or(func.pos);
                return Err(self.err(pos, format!("`start_thread goto {l}`: no label `{l}` in procedure `{f}`")));
            }
        }
        for s in &self.started {
            if !names.contains(&s.as_str()) {
                return Err(Diagnostic::input(self.file, 1, 1, format!("`start_thread {s}()`: no procedure `{s}`")));
            }
        }
        let mut o = String::new();
        let _ = writeln!(o, "# 1 \"<duet-rs bp prelude>\"");
        o.push_str("typedef unsigned long pthread_t;\nint pthread_create(pthread_t *, void *, void *(*)(void *), void *);\nvoid pthread_exit(void *);\n");
        o.push_str("_Bool __VERIFIER_nondet_bool(void);\nvoid __VERIFIER_assume(int);\nvoid __VERIFIER_assert(int);\nvoid __VERIFIER_atomic_begin(void);\nvoid __VERIFIER_atomic_end(void);\n");
        let _ = writeln!(o, "# 1 \"{}\"", self.file);
        for g in &self.prog.globals {
            let _ = writeln!(o, "int {};", c_name(g));
        }
        self.out = o;
        // Prototypes first: procedures may call each other in any order.
        for f in &self.prog.funcs {
            let proto = self.signature(f);
            let _ = writeln!(self.out, "{proto};");
        }
        for (f, l) in self.forks.clone() {
            let _ = writeln!(self.out, "void *{GENERATED}{}_at_{l}(void *);", self.fname(&f));
        }
        for f in self.started.clone() {
            let _ = writeln!(self.out, "void *{GENERATED}run_{}(void *);", self.fname(&f));
        }
        if !names.contains(&self.entry()) {
            if !self.opts.whole_program {
                // The globals' arbitrary start values are chosen where the program starts.
                let _ = writeln!(self.out, "void init(void) {{");
                self.init_globals();
                let _ = writeln!(self.out, "}}");
            } else {
                return Err(Diagnostic::input(self.file, 1, 1, "a Boolean program needs a `main` procedure (or `--no-whole-program`, where `init` runs first and every procedure is a thread)"));
            }
        }
        for f in &self.prog.funcs {
            self.function(f, Role::Procedure, None)?;
        }
        for (f, l) in self.forks.clone() {
            let func = self.prog.funcs.iter().find(|g| g.name == f).expect("known procedure");
            self.function(func, Role::ThreadAt, Some(&l))?;
        }
        for f in self.started.clone() {
            let func = self.prog.funcs.iter().find(|g| g.name == f).expect("known procedure");
            if !func.formals.is_empty() {
                return Err(self.err(func.pos, format!("`start_thread {f}()`: `{f}` takes parameters")));
            }
            let call = if func.returns >= 2 {
                let rs: Vec<String> = (0..func.returns).map(|i| format!("&r{i}")).collect();
                format!("int {}; {}({});", (0..func.returns).map(|i| format!("r{i}")).collect::<Vec<_>>().join(", "), self.fname(&f), rs.join(", "))
            } else {
                format!("{}();", self.fname(&f))
            };
            let _ = writeln!(self.out, "void *{GENERATED}run_{}(void *a) {{ {call} return 0; }}", self.fname(&f));
        }
        Ok(self.out)
    }

    /// The procedure the program starts in: `main`, or `init` without a whole program.
    fn entry(&self) -> &'static str {
        if self.opts.whole_program {
            "main"
        } else {
            "init"
        }
    }

    /// Whether `v` names a variable visible in procedure `f`.
    fn declared(&self, f: &Func, v: &str) -> bool {
        f.locals.iter().chain(&f.formals).chain(&self.prog.globals).any(|x| x == v)
    }

    fn init_globals(&mut self) {
        for g in &self.prog.globals {
            let _ = writeln!(self.out, "{} = __VERIFIER_nondet_bool();", c_name(g));
        }
    }

    fn signature(&self, f: &Func) -> String {
        let name = self.fname(&f.name);
        if f.name == "main" && self.opts.whole_program {
            return "int main(void)".into();
        }
        let mut params: Vec<String> = Vec::new();
        if f.returns >= 2 {
            params.extend((0..f.returns).map(|i| format!("int *{GENERATED}r{i}")));
        }
        params.extend(f.formals.iter().map(|p| format!("int {}", c_name(p))));
        let ret = if f.returns == 1 { "int" } else { "void" };
        format!("{ret} {name}({})", if params.is_empty() { "void".to_string() } else { params.join(", ") })
    }

    /// Whether ending this body ends the thread (rather than returning to a caller).
    fn ends_thread(&self, f: &Func, role: Role) -> bool {
        role == Role::ThreadAt || (f.name == "main" && self.opts.whole_program)
    }

    fn line(&mut self, pos: Pos, code: &str) {
        let _ = writeln!(self.out, "# {} \"{}\"", pos.line, self.file);
        let pad = " ".repeat(pos.col.saturating_sub(1) as usize);
        let _ = writeln!(self.out, "{pad}{code}");
    }

    /// A statement's code after the code `pre` that reads its values, in a block of their
    /// own; the statement keeps its column.
    fn wrapped(&mut self, pos: Pos, pre: &str, code: &str) {
        if pre.is_empty() {
            self.line(pos, code);
        } else {
            self.line(pos, &format!("{{ {pre}"));
            self.line(pos, &format!("{code} }}"));
        }
    }

    fn function(&mut self, f: &Func, role: Role, at: Option<&str>) -> Result<(), Diagnostic> {
        let header = match role {
            Role::Procedure => self.signature(f),
            Role::ThreadAt => format!("void *{GENERATED}{}_at_{}(void *{GENERATED}arg)", self.fname(&f.name), at.unwrap_or_default()),
        };
        self.line(f.pos, &format!("{header} {{"));
        if role == Role::ThreadAt {
            // A thread started at a label has fresh locals and parameters: arbitrary values.
            for p in &f.formals {
                let _ = writeln!(self.out, "int {} = __VERIFIER_nondet_bool();", c_name(p));
            }
        }
        for l in &f.locals {
            let _ = writeln!(self.out, "int {} = __VERIFIER_nondet_bool();", c_name(l));
        }
        if role == Role::Procedure && f.name == self.entry() {
            self.init_globals();
        }
        if let Some(l) = at {
            let _ = writeln!(self.out, "goto {};", c_name(l));
        }
        self.live = reachable(&f.body, at);
        self.stmts(f, role, &f.body)?;
        // Falling off the end: a thread ends, a procedure returns (a Boolean result that was
        // never given is arbitrary, as in the dialect).
        let end = self.end_code(f, role, None);
        let _ = writeln!(self.out, "{end}\n}}");
        Ok(())
    }

    fn end_code(&mut self, f: &Func, role: Role, values: Option<Vec<String>>) -> String {
        if self.ends_thread(f, role) {
            return match role {
                Role::ThreadAt => "return 0;".into(),
                Role::Procedure => "pthread_exit(0);".into(),
            };
        }
        let values = values.unwrap_or_else(|| vec!["__VERIFIER_nondet_bool()".to_string(); f.returns]);
        match f.returns {
            0 => "return;".into(),
            1 => format!("return {};", values[0]),
            n => {
                let t = self.fresh();
                let decl: Vec<String> = values.iter().enumerate().map(|(i, v)| format!("{t}{i} = {v}")).collect();
                let stores: Vec<String> = (0..n).map(|i| format!("*{GENERATED}r{i} = {t}{i};")).collect();
                format!("{{ int {}; {} return; }}", decl.join(", "), stores.join(" "))
            }
        }
    }

    fn fresh(&mut self) -> String {
        self.tmp += 1;
        format!("{GENERATED}t{}_", self.tmp)
    }

    /// How many times the expressions read a global (every read is shared memory).
    fn global_reads(&self, f: &Func, es: &[&Expr]) -> usize {
        fn walk(t: &Emitter, f: &Func, e: &Expr, n: &mut usize) {
            match e {
                Expr::Var(v) | Expr::Primed(v, _) => {
                    if !f.locals.iter().chain(&f.formals).any(|x| x == v) && t.prog.globals.iter().any(|x| x == v) {
                        *n += 1;
                    }
                }
                Expr::Not(a) => walk(t, f, a, n),
                Expr::Bin(_, a, b) | Expr::Choose(a, b) => {
                    walk(t, f, a, n);
                    walk(t, f, b, n);
                }
                Expr::Ternary(a, b, c) => {
                    walk(t, f, a, n);
                    walk(t, f, b, n);
                    walk(t, f, c, n);
                }
                Expr::Const(_) | Expr::Havoc => {}
            }
        }
        let mut n = 0;
        for e in es {
            walk(self, f, e, &mut n);
        }
        n
    }

    /// A statement reads its expressions in one step of the dialect, but C reads each global
    /// on its own: when they read globals more than once, the values are taken together in an
    /// atomic section first. The code to put before the statement, and the C expressions it
    /// then uses in place of `es`.
    fn snapshot(&mut self, f: &Func, es: &[&Expr], pos: Pos) -> Result<(String, Vec<String>), Diagnostic> {
        let cs = es.iter().map(|e| self.expr(f, e, pos, &[])).collect::<Result<Vec<_>, _>>()?;
        if self.global_reads(f, es) < 2 {
            return Ok((String::new(), cs));
        }
        let t = self.fresh();
        let names: Vec<String> = (0..cs.len()).map(|i| format!("{t}{i}")).collect();
        let mut code = format!("int {}; __VERIFIER_atomic_begin(); ", names.join(", "));
        for (n, c) in names.iter().zip(&cs) {
            let _ = write!(code, "{n} = {c}; ");
        }
        code.push_str("__VERIFIER_atomic_end(); ");
        Ok((code, names))
    }

    fn stmts(&mut self, f: &Func, role: Role, body: &[Stmt]) -> Result<(), Diagnostic> {
        for s in body {
            for l in &s.labels {
                self.line(s.pos, &format!("{}: ;", c_name(l)));
            }
            self.stmt(f, role, s)?;
        }
        Ok(())
    }

    fn check_vars(&self, f: &Func, e: &Expr, primes: &[(String, String)], pos: Pos) -> Result<(), Diagnostic> {
        match e {
            Expr::Var(v) => {
                if !self.declared(f, v) {
                    return Err(self.err(pos, format!("undeclared variable `{v}`")));
                }
            }
            Expr::Primed(v, p) => {
                if !primes.iter().any(|(x, _)| x == v) {
                    return Err(self.err(*p, format!("`'{v}`: only variables assigned by this statement have a primed value")));
                }
            }
            Expr::Not(a) => self.check_vars(f, a, primes, pos)?,
            Expr::Bin(_, a, b) | Expr::Choose(a, b) => {
                self.check_vars(f, a, primes, pos)?;
                self.check_vars(f, b, primes, pos)?;
            }
            Expr::Ternary(a, b, c) => {
                self.check_vars(f, a, primes, pos)?;
                self.check_vars(f, b, primes, pos)?;
                self.check_vars(f, c, primes, pos)?;
            }
            Expr::Const(_) | Expr::Havoc => {}
        }
        Ok(())
    }

    fn expr(&self, f: &Func, e: &Expr, pos: Pos, primes: &[(String, String)]) -> Result<String, Diagnostic> {
        self.check_vars(f, e, primes, pos)?;
        Ok(c_expr(e, primes))
    }

    fn check_target(&self, f: &Func, v: &str, pos: Pos) -> Result<String, Diagnostic> {
        if self.declared(f, v) {
            Ok(c_name(v))
        } else {
            Err(self.err(pos, format!("undeclared variable `{v}`")))
        }
    }

    fn stmt(&mut self, f: &Func, role: Role, s: &Stmt) -> Result<(), Diagnostic> {
        let pos = s.pos;
        let structured = matches!(s.kind, Kind::If(..) | Kind::While(..));
        if !structured && !self.live.contains(&(s as *const Stmt)) {
            // Dead in this copy: written to a scratch buffer only, so that its errors are
            // still reported wherever it is dead.
            let kept = std::mem::take(&mut self.out);
            self.live.insert(s as *const Stmt);
            let r = self.stmt(f, role, s);
            self.live.remove(&(s as *const Stmt));
            self.out = kept;
            r?;
            self.line(pos, ";");
            return Ok(());
        }
        match &s.kind {
            Kind::Skip => self.line(pos, ";"),
            Kind::Goto(ls) => {
                for l in ls {
                    if !has_label(&f.body, l) {
                        return Err(self.err(pos, format!("`goto {l}`: no label `{l}` in procedure `{}`", f.name)));
                    }
                }
                // Several targets: a nondeterministic choice among them.
                let mut code = String::new();
                for l in &ls[..ls.len() - 1] {
                    let _ = write!(code, "if (__VERIFIER_nondet_bool()) goto {}; ", c_name(l));
                }
                let _ = write!(code, "goto {};", c_name(&ls[ls.len() - 1]));
                self.line(pos, &code);
            }
            Kind::Return(vs) => {
                // A thread that started inside the procedure has no caller: its return values
                // go nowhere.
                if vs.len() != f.returns && !self.ends_thread(f, role) {
                    return Err(self.err(pos, format!("`{}` returns {} value(s), not {}", f.name, f.returns, vs.len())));
                }
                let (pre, values) = self.snapshot(f, &vs.iter().collect::<Vec<_>>(), pos)?;
                let code = self.end_code(f, role, (!values.is_empty()).then_some(values));
                self.wrapped(pos, &pre, &code);
            }
            Kind::Assign(targets, values, constrain) => {
                let mut seen = BTreeSet::new();
                for t in targets {
                    if !seen.insert(t) {
                        return Err(self.err(pos, format!("`{t}` is assigned twice in one statement")));
                    }
                }
                // Every right-hand side is read before any variable is written, in one step.
                let temps: Vec<(String, String)> = targets.iter().map(|t| (t.clone(), format!("{}{}", self.fresh(), c_name(t)))).collect();
                let mut code = String::from("__VERIFIER_atomic_begin(); { ");
                for ((_, tmp), v) in temps.iter().zip(values) {
                    let _ = write!(code, "int {tmp} = {}; ", self.expr(f, v, pos, &[])?);
                }
                if let Some(c) = constrain {
                    let _ = write!(code, "__VERIFIER_assume({}); ", self.expr(f, c, pos, &temps)?);
                }
                for (t, tmp) in &temps {
                    let _ = write!(code, "{} = {tmp}; ", self.check_target(f, t, pos)?);
                }
                code.push_str("} __VERIFIER_atomic_end();");
                self.line(pos, &code);
            }
            Kind::Call(targets, callee, args) => {
                let Some(g) = self.prog.funcs.iter().find(|g| &g.name == callee) else {
                    return Err(self.err(pos, format!("call of undefined procedure `{callee}`")));
                };
                if args.len() != g.formals.len() {
                    return Err(self.err(pos, format!("`{callee}` takes {} argument(s), not {}", g.formals.len(), args.len())));
                }
                if !targets.is_empty() && targets.len() != g.returns {
                    return Err(self.err(pos, format!("`{callee}` returns {} value(s), assigned to {} variable(s)", g.returns, targets.len())));
                }
                let (pre, mut a) = self.snapshot(f, &args.iter().collect::<Vec<_>>(), pos)?;
                let name = self.fname(callee);
                let code = if g.returns >= 2 {
                    let t = self.fresh();
                    let slots: Vec<String> = (0..g.returns).map(|i| format!("&{t}{i}")).collect();
                    let mut all = slots;
                    all.append(&mut a);
                    let mut code = format!("{{ int {}; {name}({}); ", (0..g.returns).map(|i| format!("{t}{i}")).collect::<Vec<_>>().join(", "), all.join(", "));
                    for (i, v) in targets.iter().enumerate() {
                        let _ = write!(code, "{} = {t}{i}; ", self.check_target(f, v, pos)?);
                    }
                    code.push('}');
                    code
                } else if let Some(v) = targets.first() {
                    format!("{} = {name}({});", self.check_target(f, v, pos)?, a.join(", "))
                } else {
                    format!("{name}({});", a.join(", "))
                };
                self.wrapped(pos, &pre, &code);
            }
            Kind::Assert(e) => {
                let (pre, c) = self.snapshot(f, &[e], pos)?;
                self.wrapped(pos, &pre, &format!("__VERIFIER_assert({});", c[0]));
            }
            Kind::Assume(e) => {
                // Assuming what one atomic read saw passes exactly the executions in which
                // the condition held at some moment, as the dialect's one-step `assume`.
                let (pre, c) = self.snapshot(f, &[e], pos)?;
                self.wrapped(pos, &pre, &format!("__VERIFIER_assume({});", c[0]));
            }
            Kind::If(c, then, els) => {
                let (pre, c) = self.snapshot(f, &[c], pos)?;
                if !pre.is_empty() {
                    self.line(pos, &format!("{{ {pre}"));
                }
                self.line(pos, &format!("if ({}) {{", c[0]));
                self.stmts(f, role, then)?;
                let _ = writeln!(self.out, "}} else {{");
                self.stmts(f, role, els)?;
                let _ = writeln!(self.out, "{}", if pre.is_empty() { "}" } else { "} }" });
            }
            Kind::While(c, body) => {
                let (pre, c) = self.snapshot(f, &[c], pos)?;
                if pre.is_empty() {
                    self.line(pos, &format!("while ({}) {{", c[0]));
                } else {
                    // The condition is read again, in one step, before every iteration.
                    self.line(pos, &format!("while (1) {{ {pre}"));
                    self.line(pos, &format!("if (!{}) break;", c[0]));
                }
                self.stmts(f, role, body)?;
                let _ = writeln!(self.out, "}}");
            }
            Kind::AtomicBegin => self.line(pos, "__VERIFIER_atomic_begin();"),
            Kind::AtomicEnd => self.line(pos, "__VERIFIER_atomic_end();"),
            Kind::StartGoto(l) => {
                let code = format!("{{ pthread_t {GENERATED}h; pthread_create(&{GENERATED}h, 0, {GENERATED}{}_at_{l}, 0); }}", self.fname(&f.name));
                self.line(pos, &code);
            }
            Kind::StartCall(g) => {
                let code = format!("{{ pthread_t {GENERATED}h; pthread_create(&{GENERATED}h, 0, {GENERATED}run_{}, 0); }}", self.fname(g));
                self.line(pos, &code);
            }
            Kind::EndThread => {
                let code = if role == Role::ThreadAt { "return 0;" } else { "pthread_exit(0);" };
                self.line(pos, code);
            }
        }
        Ok(())
    }
}

fn c_expr(e: &Expr, primes: &[(String, String)]) -> String {
    let r = |x: &Expr| c_expr(x, primes);
    match e {
        Expr::Const(b) => (if *b { "1" } else { "0" }).into(),
        Expr::Havoc => "__VERIFIER_nondet_bool()".into(),
        Expr::Var(v) => c_name(v),
        Expr::Primed(v, _) => primes.iter().find(|(x, _)| x == v).map(|(_, t)| t.clone()).unwrap_or_else(|| c_name(v)),
        Expr::Not(a) => format!("!{}", r(a)),
        Expr::Bin(op, a, b) => match *op {
            "&" => format!("({} && {})", r(a), r(b)),
            "|" => format!("({} || {})", r(a), r(b)),
            "^" | "!=" => format!("({} != {})", r(a), r(b)),
            "=" => format!("({} == {})", r(a), r(b)),
            _ => format!("(!{} || {})", r(a), r(b)),
        },
        Expr::Ternary(c, a, b) => format!("({} ? {} : {})", r(c), r(a), r(b)),
        Expr::Choose(a, b) => format!("({} ? 1 : {} ? 0 : __VERIFIER_nondet_bool())", r(a), r(b)),
    }
}

/// The statements (by address) that control can reach from the one labelled `start`, or
/// from the body's first statement: a thread started at a label runs only those, and a copy
/// that kept the rest would create threads (and hold assertions) its thread never reaches.
fn reachable(body: &[Stmt], start: Option<&str>) -> BTreeSet<*const Stmt> {
    // Flatten into nodes with the statement that follows each one when it completes.
    struct Node<'s> {
        stmt: &'s Stmt,
        /// Where control goes after the statement completes normally.
        follow: Option<usize>,
    }
    fn flatten<'s>(list: &'s [Stmt], after: Option<usize>, nodes: &mut Vec<Node<'s>>, firsts: &mut Vec<(usize, Option<usize>)>) -> Option<usize> {
        let base = nodes.len();
        for s in list {
            nodes.push(Node { stmt: s, follow: None });
        }
        for i in 0..list.len() {
            nodes[base + i].follow = if i + 1 < list.len() { Some(base + i + 1) } else { after };
        }
        for (i, stmt) in list.iter().enumerate() {
            let me = base + i;
            match &stmt.kind {
                Kind::If(_, a, b) => {
                    let f = nodes[me].follow;
                    let fa = flatten(a, f, nodes, firsts).or(f);
                    let fb = flatten(b, f, nodes, firsts).or(f);
                    firsts.push((me, fa));
                    firsts.push((me, fb));
                }
                Kind::While(_, a) => {
                    let fa = flatten(a, Some(me), nodes, firsts).or(Some(me));
                    firsts.push((me, fa));
                }
                _ => {}
            }
        }
        (!list.is_empty()).then_some(base)
    }
    let mut nodes = Vec::new();
    let mut firsts = Vec::new();
    let entry = flatten(body, None, &mut nodes, &mut firsts);
    let label_of = |l: &str| nodes.iter().position(|n| n.stmt.labels.iter().any(|x| x == l));
    let mut work: Vec<usize> = match start {
        Some(l) => label_of(l).into_iter().collect(),
        None => entry.into_iter().collect(),
    };
    let mut seen = vec![false; nodes.len()];
    while let Some(i) = work.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        let mut next: Vec<Option<usize>> = Vec::new();
        match &nodes[i].stmt.kind {
            Kind::If(..) => next.extend(firsts.iter().filter(|(n, _)| *n == i).map(|(_, f)| *f)),
            Kind::While(..) => {
                next.extend(firsts.iter().filter(|(n, _)| *n == i).map(|(_, f)| *f));
                next.push(nodes[i].follow);
            }
            Kind::Goto(ls) => next.extend(ls.iter().map(|l| label_of(l))),
            Kind::Return(_) | Kind::EndThread => {}
            _ => next.push(nodes[i].follow),
        }
        work.extend(next.into_iter().flatten());
    }
    nodes.iter().zip(&seen).filter(|(_, s)| **s).map(|(n, _)| n.stmt as *const Stmt).collect()
}

fn has_label(body: &[Stmt], l: &str) -> bool {
    body.iter().any(|s| {
        s.labels.iter().any(|x| x == l)
            || match &s.kind {
                Kind::If(_, a, b) => has_label(a, l) || has_label(b, l),
                Kind::While(_, a) => has_label(a, l),
                _ => false,
            }
    })
}

fn find_start(body: &[Stmt], l: &str) -> Option<Pos> {
    body.iter().find_map(|s| match &s.kind {
        Kind::StartGoto(x) if x == l => Some(s.pos),
        Kind::If(_, a, b) => find_start(a, l).or_else(|| find_start(b, l)),
        Kind::While(_, a) => find_start(a, l),
        _ => None,
    })
}

fn collect_starts(f: &str, body: &[Stmt], forks: &mut BTreeSet<(String, String)>, started: &mut BTreeSet<String>) {
    for s in body {
        match &s.kind {
            Kind::StartGoto(l) => {
                forks.insert((f.to_string(), l.clone()));
            }
            Kind::StartCall(g) => {
                started.insert(g.clone());
            }
            Kind::If(_, a, b) => {
                collect_starts(f, a, forks, started);
                collect_starts(f, b, forks, started);
            }
            Kind::While(_, a) => collect_starts(f, a, forks, started),
            _ => {}
        }
    }
}
