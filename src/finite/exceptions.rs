//! Exception sets: the states the Cartesian abstraction keeps exact (Malkis, Podelski and
//! Rybalchenko, SAS 2007).
//!
//! An exception set is a union of Cartesian products of thread states, one union per global
//! store (Section 4.3). Two sources:
//!
//! - [`Family`]: Section 5's construction, computed from the program. For a flag or lock
//!   taken by several threads, in every global store where it is taken: the states in which
//!   exactly one thread stands in the region protected by it and the others stand outside.
//!   The `C(i)` products of one family form a maximized antichain, so the inclusion test of
//!   Proposition 7 is exact for them.
//! - [`ProductRule`]: a product given in an exceptions file (format below).
//!
//! Components are restricted to the thread states the analysis has produced for that global
//! store; the set therefore only grows during the fixpoint, and any exception set is sound:
//! what is excluded from the abstraction is added back exactly, and its successors are
//! explored.
//!
//! # The exceptions file
//!
//! ```text
//! # A comment runs to the end of the line. One product per line:
//! exception x=1 y=1 turn=0 : t0@12 t1@14,16-18
//! ```
//!
//! Before the colon, `NAME=INT` pairs restrict the global store (tracked globals by their
//! source name, array elements as `a[2]`); after it, `TEMPLATE@LINES` restricts the threads of
//! that template to program counters on those source lines. A template not named may stand
//! anywhere. A malformed line is an input error at its file, line and column.

use super::model::Model;
use crate::diag::Diagnostic;
use crate::ir::{Action, LocId, LockRef};
use std::collections::HashSet;

/// Section 5's exceptions for one flag or lock.
#[derive(Clone, Debug)]
pub struct Family {
    /// The global cell that is non-zero while the flag is taken.
    pub cell: usize,
    /// What the cell is, for reports.
    pub name: String,
    /// Per IR location: a thread there stands in the protected region.
    pub region: Vec<bool>,
}

/// One exception product from a file.
#[derive(Clone, Debug)]
pub struct ProductRule {
    /// Global cells and the values they must hold.
    pub globals: Vec<(usize, i128)>,
    /// Per template: the source lines its program counter must be on (`None`: anywhere).
    pub lines: Vec<Option<HashSet<u32>>>,
}

/// A parsed exceptions file, still in source terms.
#[derive(Clone, Debug, Default)]
pub struct ExceptionSpec {
    /// The file, for messages.
    pub file: String,
    /// The products: globals `(name, value)`, then `(template, lines)` with the position of
    /// each name for errors.
    pub products: Vec<SpecProduct>,
}

/// One line of an exceptions file.
#[derive(Clone, Debug)]
pub struct SpecProduct {
    /// `(name, value, line, col)` for each global restriction.
    pub globals: Vec<(String, i128, u32, u32)>,
    /// `(template, lines, line, col)` for each thread restriction.
    pub threads: Vec<(String, HashSet<u32>, u32, u32)>,
}

impl ExceptionSpec {
    /// Parses the text of an exceptions file.
    pub fn parse(file: &str, text: &str) -> Result<ExceptionSpec, Diagnostic> {
        let mut products = Vec::new();
        for (ln, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            let mut p = Parser { file, text: line, pos: 0, line: ln as u32 + 1 };
            p.skip_ws();
            if p.at_end() {
                continue;
            }
            p.keyword("exception")?;
            let mut globals = Vec::new();
            loop {
                p.skip_ws();
                if p.eat(':') {
                    break;
                }
                let col = p.col();
                let name = p.ident("a global `NAME=VALUE` or `:`")?;
                p.skip_ws();
                p.expect('=')?;
                p.skip_ws();
                let v = p.int()?;
                globals.push((name, v, p.line, col));
            }
            let mut threads = Vec::new();
            loop {
                p.skip_ws();
                if p.at_end() {
                    break;
                }
                let col = p.col();
                let name = p.ident("a thread restriction `TEMPLATE@LINES`")?;
                p.expect('@')?;
                let mut lines = HashSet::new();
                loop {
                    let a = p.int()?;
                    let b = if p.eat('-') { p.int()? } else { a };
                    if a < 1 || b < a || b - a > 100_000 {
                        return Err(p.error(col, "a line range `A-B` with 1 <= A <= B"));
                    }
                    lines.extend(a as u32..=b as u32);
                    if !p.eat(',') {
                        break;
                    }
                }
                threads.push((name, lines, p.line, col));
            }
            products.push(SpecProduct { globals, threads });
        }
        Ok(ExceptionSpec { file: file.to_string(), products })
    }

    /// Resolves names against the projection: unknown globals or templates are located errors.
    pub fn resolve(&self, m: &Model) -> Result<Vec<ProductRule>, Diagnostic> {
        let mut out = Vec::new();
        for p in &self.products {
            let mut globals = Vec::new();
            for (name, v, line, col) in &p.globals {
                let Some(c) = m.global_cell(name).filter(|&c| c < m.shared_len()) else {
                    return Err(Diagnostic::input(
                        &self.file,
                        *line,
                        *col,
                        format!("`{name}` is not a tracked global of the program; expected one of: {}", m.global_names[..m.shared_len()].join(", ")),
                    ));
                };
                globals.push((c, *v));
            }
            let mut lines = vec![None; m.prog.templates.len()];
            for (name, ls, line, col) in &p.threads {
                let Some(t) = m.prog.templates.iter().position(|t| &t.name == name) else {
                    let names: Vec<&str> = m.prog.templates.iter().map(|t| t.name.as_str()).collect();
                    return Err(Diagnostic::input(&self.file, *line, *col, format!("`{name}` is not a thread template; expected one of: {}", names.join(", "))));
                };
                lines[t] = Some(ls.clone());
            }
            out.push(ProductRule { globals, lines });
        }
        Ok(out)
    }
}

struct Parser<'a> {
    file: &'a str,
    text: &'a str,
    pos: usize,
    line: u32,
}

impl Parser<'_> {
    fn col(&self) -> u32 {
        self.pos as u32 + 1
    }
    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }
    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }
    fn error(&self, col: u32, expected: &str) -> Diagnostic {
        let found = self.text.get(col as usize - 1..).and_then(|r| r.split_whitespace().next()).unwrap_or("end of line");
        Diagnostic::input(self.file, self.line, col, format!("expected {expected}, found `{found}`"))
    }
    fn expect(&mut self, c: char) -> Result<(), Diagnostic> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(self.col(), &format!("`{c}`")))
        }
    }
    fn keyword(&mut self, k: &str) -> Result<(), Diagnostic> {
        let col = self.col();
        let w = self.ident("`exception`").map_err(|_| self.error(col, "`exception`"))?;
        if w != k {
            return Err(self.error(col, "`exception`"));
        }
        Ok(())
    }
    fn ident(&mut self, what: &str) -> Result<String, Diagnostic> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_alphanumeric() || "_#[]".contains(c)) {
            self.pos += 1;
        }
        if start == self.pos || self.text[start..].starts_with(|c: char| c.is_ascii_digit()) {
            self.pos = start;
            return Err(self.error(start as u32 + 1, what));
        }
        Ok(self.text[start..self.pos].to_string())
    }
    fn int(&mut self) -> Result<i128, Diagnostic> {
        let start = self.pos;
        if self.peek() == Some('-') {
            self.pos += 1;
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        self.text[start..self.pos].parse().map_err(|_| {
            self.pos = start;
            self.error(start as u32 + 1, "an integer")
        })
    }
}

/// Section 5's families: every flag or lock that at least two threads take.
///
/// A thread holds a flag from an action that sets it to a non-zero constant (or acquires the
/// lock) until one that resets it (or releases the lock), on every path: a must-analysis over
/// each template's control-flow graph. Which flags are chosen only affects precision.
pub fn families(m: &Model) -> Vec<Family> {
    let prog = m.prog;
    // Candidate cells: what some action sets or acquires.
    let mut cells: Vec<(usize, String)> = Vec::new();
    for (li, loc) in prog.locs.iter().enumerate() {
        if let Some(c) = gen_kill(m, LocId(li as u32), &loc.action).and_then(|(c, gen)| gen.then_some(c)) {
            if !cells.iter().any(|(x, _)| *x == c) {
                cells.push((c, m.global_names[c].clone()));
            }
        }
    }
    let preds = prog.predecessors();
    let mut out = Vec::new();
    for (cell, name) in cells {
        let mut region = vec![false; prog.locs.len()];
        let mut holders = 0;
        for (ti, t) in prog.templates.iter().enumerate() {
            // Must-hold before each location: greatest fixpoint from "held" everywhere but entry.
            let mut held: Vec<bool> = vec![false; prog.locs.len()];
            for &l in &t.locs {
                held[l.index()] = l != t.entry;
            }
            let mut changed = true;
            while changed {
                changed = false;
                for &l in &t.locs {
                    if l == t.entry {
                        continue;
                    }
                    let v = preds[l.index()].iter().all(|&p| after(m, p, cell, held[p.index()]));
                    let v = v && !preds[l.index()].is_empty();
                    if v != held[l.index()] {
                        held[l.index()] = v;
                        changed = true;
                    }
                }
            }
            let mut any = false;
            for &l in &t.locs {
                if held[l.index()] {
                    region[l.index()] = true;
                    any = true;
                }
            }
            if any {
                holders += if prog.templates[ti].multiplicity == crate::ir::Multiplicity::Unbounded { 2 } else { 1 };
            }
        }
        if holders >= 2 {
            out.push(Family { cell, name, region });
        }
    }
    out
}

/// Whether the flag is held after location `p`, given whether it was held before.
fn after(m: &Model, p: LocId, cell: usize, before: bool) -> bool {
    match gen_kill(m, p, &m.prog.loc(p).action) {
        Some((c, gen)) if c == cell => gen,
        _ => before,
    }
}

/// The flag cell an action sets (`true`) or clears (`false`).
fn gen_kill(m: &Model, at: LocId, a: &Action) -> Option<(usize, bool)> {
    match a {
        Action::Acquire(_) | Action::Release(_) => match m.prog.memory.lock_of.get(at.index()).copied().flatten() {
            Some(LockRef::Exact(id)) => Some((m.lock_cell(id), matches!(a, Action::Acquire(_)))),
            _ => None,
        },
        Action::Assign(crate::ir::Lval::Var(v), e) => {
            let c = m.global_cell(&m.prog.var(*v).source_name).filter(|&c| c < m.shared_len() && m.prog.var(*v).is_global())?;
            Some((c, e.as_const().is_some_and(|k| k != 0)))
        }
        _ => None,
    }
}
