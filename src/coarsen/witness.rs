//! COARSEN's invariants as a correctness witness: interval bounds of program variables, as C
//! expressions over their source names, at the source positions where they hold for every
//! number of threads.
//!
//! What COARSEN computes at a location is the input of its action: for a cell the action
//! reads, the values it may read when it executes. A witness claims more: the expression
//! holds whenever a thread stands before the statement. Only bounds where the two coincide
//! are written:
//! - a non-shared local (not address-taken): no other thread changes it while the thread
//!   waits, so the value read is the value throughout;
//! - a global, at an assignment or assertion that reads it by name: such an action never
//!   blocks, so any state with a thread there can continue by executing it, which reads the
//!   global's current value. (A guard or a lock acquisition may wait while other threads
//!   write, so they are left out; so is a read through a pointer, which need not read it.)
//!
//! A source position is reached at the locations of its statement that control enters from
//! another statement (over every template and inlined copy); a variable is written there only
//! if every such location bounds it, and the bound written is their hull, and only if the
//! source line names it from the position's column on (columns come from the preprocessed
//! line, so a macro could otherwise move the position to another statement). Temporaries, fields,
//! array summaries, heap cells and pointers are never written, nor a variable whose source
//! name may not denote it at that position (a global shadowed by a local of the function, a
//! local of another function, a function-scope `static`).

use super::Outcome;
use crate::ir::{AbsKind, Action, LocId, Program, SourceFunction, Span, VarId, VarKind};
use crate::witness::{self, Correctness, Invariant, SourcePoint};
use std::collections::BTreeMap;

/// The correctness witness of a program every assertion of which COARSEN proved.
pub(crate) fn correctness(prog: &Program, out: &Outcome) -> Correctness {
    Correctness { file: witness::input_file(prog), data_model: witness::data_model_name(prog.data_model).into(), invariants: invariants(prog, out), custom_rules: None }
}

/// The invariants, sorted by position.
pub(crate) fn invariants(prog: &Program, out: &Outcome) -> Vec<Invariant> {
    // Columns are those of the preprocessed line, which differ from the source's where a macro
    // was expanded: a variable is written only if the source line names it from the column
    // on, so that the position is the statement that reads it.
    let source = std::fs::read_to_string(witness::input_file(prog)).unwrap_or_default();
    let lines: Vec<&str> = source.lines().collect();
    let preds = prog.predecessors();
    // Entry locations of each source position of the input file.
    let mut points: BTreeMap<(u32, u32), Vec<LocId>> = BTreeMap::new();
    for v in prog.loc_ids() {
        let l = prog.loc(v);
        if l.span.file != 0 || l.span.line == 0 || prog.templates.iter().any(|t| t.entry == v) {
            continue;
        }
        if preds[v.index()].iter().any(|p| prog.loc(*p).span != l.span) {
            points.entry((l.span.line, l.span.col)).or_default().push(v);
        }
    }
    let mut result = Vec::new();
    for ((line, col), locs) in points {
        let span = Span { file: 0, line, col };
        let Some(f) = prog.function_at(span) else { continue };
        // Unreachable locations claim nothing; at least one must be reachable.
        let reached: Vec<LocId> = locs.into_iter().filter(|v| out.invariants.get(v.index()).is_some_and(|i| i.is_some())).collect();
        if reached.is_empty() {
            continue;
        }
        // Per source name: the hull of the bounds over every location, or `None` once a
        // location does not bound it.
        let mut hull: Option<BTreeMap<String, (VarId, i128, i128)>> = None;
        for &v in &reached {
            let mut here: BTreeMap<String, (VarId, i128, i128)> = BTreeMap::new();
            for (a, (lo, hi)) in out.bounds.get(v.index()).map(|b| b.as_slice()).unwrap_or(&[]) {
                let AbsKind::Var(x) = prog.memory.info(*a).kind else { continue };
                if !prog.memory.access(v).refs.contains(a) || !eligible(prog, v, x, prog.memory.info(*a).shared, f, span) {
                    continue;
                }
                let Some((tlo, thi)) = prog.var(x).ty.scalar(prog.data_model).range(prog.data_model) else { continue };
                let (lo, hi) = (lo.unwrap_or(tlo).max(tlo), hi.unwrap_or(thi).min(thi));
                if lo > hi {
                    continue;
                }
                here.insert(prog.var(x).source_name.clone(), (x, lo, hi));
            }
            hull = Some(match hull {
                None => here,
                Some(h) => h.into_iter().filter_map(|(name, (x, lo, hi))| here.get(&name).map(|&(_, l2, h2)| (name, (x, lo.min(l2), hi.max(h2))))).collect(),
            });
        }
        let mut conj = Vec::new();
        let text = lines.get((line as usize).saturating_sub(1)).copied().unwrap_or("");
        for (name, (x, lo, hi)) in hull.unwrap_or_default() {
            if !names_from(text, col as usize, &name) {
                continue;
            }
            let Some((tlo, thi)) = prog.var(x).ty.scalar(prog.data_model).range(prog.data_model) else { continue };
            let unsigned = tlo == 0 && !matches!(prog.var(x).ty, crate::ir::CType::Bool);
            let lit = |n: i128| if unsigned { format!("{n}U") } else { n.to_string() };
            if lo == hi {
                conj.push(format!("{name} == {}", lit(lo)));
                continue;
            }
            if lo > tlo {
                conj.push(format!("{} <= {name}", lit(lo)));
            }
            if hi < thi {
                conj.push(format!("{name} <= {}", lit(hi)));
            }
        }
        if !conj.is_empty() {
            result.push(Invariant { at: SourcePoint { line, column: col, function: f.name.clone() }, value: conj.join(" && ") });
        }
    }
    result
}

/// Whether identifier `name` occurs in `line` at or after the 1-based `column`.
fn names_from(line: &str, column: usize, name: &str) -> bool {
    let Some(rest) = line.get(column.saturating_sub(1)..) else { return false };
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    rest.split(|c: char| !ident(c)).any(|w| w == name)
}

/// Whether `action` is an assignment or assertion that loads `x` by name (not through a
/// pointer that may point elsewhere): when it executes, it reads `x`'s current value.
fn reads_by_name(action: &Action, x: VarId) -> bool {
    let mut found = false;
    let mut check = |lv: &crate::ir::Lval| found |= matches!(lv, crate::ir::Lval::Var(y) if *y == x);
    match action {
        Action::Assign(lv, e) => {
            lv.for_each_load_inside(&mut check);
            e.for_each_load(&mut check);
        }
        Action::Assert(_, e) => e.for_each_load(&mut check),
        _ => {}
    }
    found
}

/// Whether variable `x` (`shared` in the alias model), read at `v`, may be written by its
/// source name at `span` (in function `f`) with the bound COARSEN gives it at `v`.
fn eligible(prog: &Program, v: LocId, x: VarId, shared: bool, f: &SourceFunction, span: Span) -> bool {
    let var = prog.var(x);
    if !var.ty.is_integral() || var.source_name.is_empty() || var.source_name.starts_with('$') {
        return false;
    }
    let Some(decl) = var.span else { return false };
    if decl.file != span.file || decl.line > span.line {
        return false;
    }
    let same = |g: Option<&SourceFunction>| g.is_some_and(|g| g == f);
    match var.kind {
        VarKind::Local(_) => !var.addr_taken && !shared && same(prog.function_at(decl)),
        VarKind::Global => {
            let file_scope = prog.function_at(decl).is_none();
            let shadowed = prog.vars.iter().any(|w| matches!(w.kind, VarKind::Local(_)) && w.source_name == var.source_name && w.span.is_some_and(|d| same(prog.function_at(d))));
            let unique = prog.vars.iter().filter(|w| w.is_global() && w.source_name == var.source_name).count() == 1;
            file_scope && !shadowed && unique && reads_by_name(&prog.loc(v).action, x)
        }
        VarKind::ThreadLocal | VarKind::Temp(_) => false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_whole_identifiers_from_the_column() {
        let l = "  x = count + 1; y2 = 3;";
        assert!(super::names_from(l, 3, "x"));
        assert!(super::names_from(l, 3, "count"));
        assert!(!super::names_from(l, 4, "x"));
        assert!(!super::names_from(l, 1, "y"));
        assert!(super::names_from(l, 1, "y2"));
        assert!(!super::names_from(l, 99, "x"));
    }
}
