//! Exception sets: the states the Cartesian abstraction keeps exact (Malkis, Podelski and
//! Rybalchenko, SAS 2007).
//!
//! An exception set is a union of Cartesian products of thread states, one union per global
//! store (Section 4.3). Two sources:
//!
//! - [`Family`]: Section 5's construction, computed from the program. For a flag or lock
//!   taken by several threads, in every global store where it is taken: the states in which
//!   exactly one thread stands in the region protected by it and the others stand outside
//!   (after a test-and-set, a thread stands inside when the value it read is 0). The `C(i)` products of one family form a maximized antichain, so the inclusion test of
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
use crate::ir::{Action, BinOp, Expr, LocId, LockRef, Lval, UnOp, VarId};
use std::collections::HashSet;

/// Section 5's exceptions for one flag or lock.
#[derive(Clone, Debug)]
pub struct Family {
    /// The global cell that is non-zero while the flag is taken.
    pub cell: usize,
    /// What the cell is, for reports.
    pub name: String,
    /// Per IR location: whether a thread there stands in the protected region.
    pub region: Vec<Region>,
}

/// Whether a thread at a location stands in a family's protected region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Region {
    /// Outside it.
    Out,
    /// Inside it.
    In,
    /// After a test-and-set, before the branch on what it read: inside exactly when one of
    /// these local cells (indexes into the local store), which hold the value read, is 0.
    IfZero(Vec<usize>),
}

impl Family {
    /// Whether a thread in local store `l` stands in the protected region.
    pub fn inside(&self, m: &Model, l: &[i128]) -> bool {
        let Some(pc) = m.pc(l) else { return false };
        match &self.region[pc.index()] {
            Region::Out => false,
            Region::In => true,
            Region::IfZero(cells) => cells.iter().any(|&c| l.get(c) == Some(&0)),
        }
    }
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
/// each template's control-flow graph ([`Hold`]). A test-and-set, an atomic section that reads
/// the flag into a local and then sets it, is no acquire by itself: the thread holds the flag
/// only once a branch has found the value it read to be 0, and until then it is inside exactly
/// when that value (still in its local store) is 0 ([`Region::IfZero`]). Which flags are chosen
/// and where their regions lie only affects precision: the exception set is part of the
/// concretisation (`γ_E(X) = γ(X) ∪ E`), so a state it takes out of `X` is still explored.
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
        let taken = taken_value(m, cell);
        let mut region = vec![Region::Out; prog.locs.len()];
        let mut holders = 0;
        for t in &prog.templates {
            // Greatest fixpoint from "not yet reached" everywhere but the entry.
            let mut hold: Vec<Hold> = vec![Hold::Unreached; prog.locs.len()];
            hold[t.entry.index()] = Hold::Free;
            let mut changed = true;
            let mut passes = 0usize;
            while changed {
                changed = false;
                passes += 1;
                for &l in &t.locs {
                    if l == t.entry {
                        continue;
                    }
                    let mut v = if preds[l.index()].is_empty() { Hold::Free } else { Hold::Unreached };
                    for &p in &preds[l.index()] {
                        v = v.meet(transfer(m, p, cell, taken, &hold[p.index()]));
                    }
                    // `transfer` is not monotone (a test-and-set inside a spin loop turns `Free`
                    // into `Read` and a re-read turns `Tested` into `Free`), so plain iteration
                    // can cycle for ever. Past a few passes every value may only descend, which
                    // ends in at most (locals + 3) changes per location; the regions only
                    // decide precision, so any result is sound.
                    if passes > DESCENT_AFTER {
                        v = v.meet(hold[l.index()].clone());
                    }
                    if v != hold[l.index()] {
                        hold[l.index()] = v;
                        changed = true;
                    }
                }
            }
            let mut any = false;
            for &l in &t.locs {
                let r = match &hold[l.index()] {
                    Hold::Held => Region::In,
                    Hold::Tested(vs) => Region::IfZero(vs.iter().filter_map(|&v| m.cell_of(v).filter(|&(g, _, len)| !g && len == 1).map(|(_, c, _)| c)).collect()),
                    _ => Region::Out,
                };
                any |= r != Region::Out;
                region[l.index()] = r;
            }
            if any {
                holders += if t.multiplicity == crate::ir::Multiplicity::Unbounded { 2 } else { 1 };
            }
        }
        if holders >= 2 {
            out.push(Family { cell, name, region });
        }
    }
    out
}

/// The one non-zero value a flag cell ever holds, when it only holds 0 and that value: its
/// initial value and every write to it are constants among them.
fn taken_value(m: &Model, cell: usize) -> Option<i128> {
    let mut vals = vec![m.init_global[cell]];
    for loc in &m.prog.locs {
        if let Action::Assign(lv, e) = &loc.action {
            let to_cell = match lv {
                Lval::Var(v) => m.prog.var(*v).is_global() && m.cell_of(*v) == Some((true, cell, 1)),
                // Writes through pointers reach no tracked cell, and array elements are not flags.
                _ => false,
            };
            if to_cell {
                vals.push(e.as_const()?);
            }
        }
    }
    if vals.contains(&super::model::TOP) {
        return None;
    }
    let nonzero: Vec<i128> = vals.into_iter().filter(|&v| v != 0).collect();
    match nonzero.as_slice() {
        [k, rest @ ..] if rest.iter().all(|x| x == k) => Some(*k),
        _ => None,
    }
}

/// Passes of [`families`]' must-analysis before its values are forced to descend.
const DESCENT_AFTER: usize = 32;

/// Where a thread stands with respect to a flag, before an action (the must-analysis' values).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Hold {
    /// No path reaches the location yet (the fixpoint's top).
    Unreached,
    /// The thread may not hold the flag.
    Free,
    /// The thread holds the flag on every path.
    Held,
    /// Inside an atomic section that read the flag and has not written it: these locals hold
    /// its current value.
    Read(Vec<VarId>),
    /// After a test-and-set (an atomic section that read the flag, then set it): these locals
    /// hold the value it read, so the thread holds the flag exactly when they are 0.
    Tested(Vec<VarId>),
}

impl Hold {
    fn meet(self, o: Hold) -> Hold {
        match (self, o) {
            (Hold::Unreached, x) | (x, Hold::Unreached) => x,
            (Hold::Read(a), Hold::Read(b)) => Hold::read(a.into_iter().filter(|v| b.contains(v)).collect()),
            (Hold::Tested(a), Hold::Tested(b)) => Hold::tested(a.into_iter().filter(|v| b.contains(v)).collect()),
            (a, b) if a == b => a,
            _ => Hold::Free,
        }
    }
    fn read(vs: Vec<VarId>) -> Hold {
        if vs.is_empty() {
            Hold::Free
        } else {
            Hold::Read(vs)
        }
    }
    fn tested(vs: Vec<VarId>) -> Hold {
        if vs.is_empty() {
            Hold::Free
        } else {
            Hold::Tested(vs)
        }
    }
}

/// The flag's state after location `p`, given the state before it.
fn transfer(m: &Model, p: LocId, cell: usize, taken: Option<i128>, before: &Hold) -> Hold {
    let loc = m.prog.loc(p);
    if *before == Hold::Unreached {
        return Hold::Unreached;
    }
    if let Some((c, gen)) = gen_kill(m, p, &loc.action) {
        if c == cell {
            return match before {
                // The set of a test-and-set: the thread holds the flag only if it read 0.
                Hold::Read(vs) if gen && loc.atomic => Hold::Tested(vs.clone()),
                Hold::Tested(vs) if gen => Hold::Tested(vs.clone()),
                _ if gen => Hold::Held,
                _ => Hold::Free,
            };
        }
    }
    // A write to a local that holds the value drops it, unless it copies another that does.
    let copies = |vs: &[VarId], w: VarId, e: Option<&Expr>| -> Vec<VarId> {
        let mut out: Vec<VarId> = vs.iter().copied().filter(|&v| v != w).collect();
        if matches!(e, Some(Expr::Load(Lval::Var(u))) if vs.contains(u)) && local_cell(m, w) {
            out.push(w);
        }
        out
    };
    let written = match &loc.action {
        Action::Assign(Lval::Var(w), e) => Some((*w, Some(e))),
        Action::Alloc(Lval::Var(w), ..) | Action::Fork { handle: Some(Lval::Var(w)), .. } => Some((*w, None)),
        _ => None,
    };
    match (&loc.action, before) {
        (Action::Assign(Lval::Var(w), e), _) if is_flag_read(m, e, cell) && loc.atomic && local_cell(m, *w) => match before {
            Hold::Free => Hold::Read(vec![*w]),
            Hold::Read(vs) => Hold::read({
                let mut vs = vs.clone();
                if !vs.contains(w) {
                    vs.push(*w);
                }
                vs
            }),
            Hold::Tested(vs) => Hold::tested(vs.iter().copied().filter(|v| v != w).collect()),
            other => other.clone(),
        },
        (_, Hold::Read(vs)) if written.is_some() => written.map_or(Hold::Free, |(w, e)| Hold::read(copies(vs, w, e))),
        (_, Hold::Tested(vs)) if written.is_some() => written.map_or(Hold::Free, |(w, e)| Hold::tested(copies(vs, w, e))),
        // A section that read the flag and ends without setting it only looked.
        (Action::AtomicEnd, Hold::Read(_)) => Hold::Free,
        (Action::Assume(e), Hold::Tested(vs)) => match zero_test(e, taken) {
            Some((v, true)) if vs.contains(&v) => Hold::Held,
            Some((v, false)) if vs.contains(&v) => Hold::Free,
            _ => before.clone(),
        },
        _ => before.clone(),
    }
}

/// Whether a variable is a scalar local the projection keeps in the local store.
fn local_cell(m: &Model, v: VarId) -> bool {
    m.cell_of(v).is_some_and(|(global, _, len)| !global && len == 1)
}

/// Whether an expression is a plain read of the flag's cell.
fn is_flag_read(m: &Model, e: &Expr, cell: usize) -> bool {
    matches!(e, Expr::Load(Lval::Var(v)) if m.prog.var(*v).is_global() && m.cell_of(*v) == Some((true, cell, 1)))
}

/// A condition that tests a variable against 0: the variable, and whether it says "is 0"
/// (`v == k` for a non-zero `k` says "is not 0", and `v != k` says "is 0" when `taken` is
/// `k`: the flag only ever holds 0 and `k`, and the variable holds a value read from it).
/// Casts are not looked through (a narrowing one may map a non-zero value to 0).
fn zero_test(e: &Expr, taken: Option<i128>) -> Option<(VarId, bool)> {
    match e {
        Expr::Load(Lval::Var(v)) => Some((*v, false)),
        Expr::Unary(UnOp::Not, a, _) => zero_test(a, taken).map(|(v, z)| (v, !z)),
        Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b, _) => {
            let (v, k) = match (&**a, &**b) {
                (Expr::Load(Lval::Var(v)), k) | (k, Expr::Load(Lval::Var(v))) => (*v, k.as_const()?),
                _ => return None,
            };
            match (k == 0, op) {
                (true, _) => Some((v, *op == BinOp::Eq)),
                // Equal to a non-zero constant: not 0 (a spin loop's "it was taken").
                (false, BinOp::Eq) => Some((v, false)),
                // Of a flag that only holds 0 and `k`, a value other than `k` is 0.
                (false, _) if taken == Some(k) => Some((v, true)),
                (false, _) => None,
            }
        }
        _ => None,
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
