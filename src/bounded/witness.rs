//! From a model to a schedule: each thread's path through its unrolled graph, the steps of all
//! threads ordered by the model's clocks, and the nondeterministic values each step consumes.
//! Then the readable interleaving, printed from the concrete replay.

use super::encode::Encoding;
use super::skeleton::Skeleton;
use super::solve::Z3;
use super::unroll::BKind;
use crate::interp::layout::Layout;
use crate::interp::{Executed, Step};
use crate::ir::{Action, Expr, Program};
use std::fmt::Write;

/// Where a step goes in the schedule: the clock of its atomic unit, the unit, the rank of the
/// event it sits at, its offset from that event, its thread.
type Key = (i128, u32, u32, i64, u32);

/// A schedule extracted from a model.
pub struct Extracted {
    /// The steps, in execution order, ending with the failing step.
    pub steps: Vec<Step>,
}

/// Builds the schedule for the failure event `fail` from the solver's current model.
pub fn extract(prog: &Program, sk: &Skeleton, enc: &Encoding, z3: &mut Z3, fail: u32) -> Extracted {
    // One memo for every term evaluated: the model does not change while the schedule is
    // read off it, and a fresh memo per evaluation cost a table the size of all terms each time.
    let mut memo = Vec::new();
    let terms = &sk.terms;
    let truth = |z3: &mut Z3, memo: &mut Vec<Option<i128>>, t: Option<super::term::T>| -> bool { t.is_some_and(|t| z3.eval(terms, t, memo) != 0) };
    let fe = &sk.events[fail as usize];
    let mut items: Vec<(Key, Step)> = Vec::new();
    let mut fail_key = None;
    for inst in &sk.instances {
        if let Some(f) = inst.fork {
            if !truth(z3, &mut memo, Some(sk.events[f as usize].occ)) {
                continue;
            }
        }
        let g = &sk.graphs[inst.graph];
        let mut path: Vec<u32> = Vec::new();
        let mut node = 0u32;
        loop {
            let info = &inst.nodes[node as usize];
            if !info.reached || !truth(z3, &mut memo, info.psi_in) {
                break;
            }
            let is_fail = inst.id == fe.thread && node == fe.node;
            if !is_fail && !truth(z3, &mut memo, info.psi_out) {
                break;
            }
            path.push(node);
            if is_fail {
                break;
            }
            let succs = &g.nodes[node as usize].succs;
            let next = match info.choice {
                Some(c) => {
                    let k = z3.eval(terms, c, &mut memo);
                    usize::try_from(k).ok().and_then(|k| succs.get(k).copied())
                }
                None if info.branch.is_some() => {
                    // Complementary guards: this path's own test picks the side.
                    Some(succs[usize::from(!truth(z3, &mut memo, info.branch))])
                }
                None => {
                    // A single successor (or, defensively, guards without a recorded test):
                    // the one entered whose guard passes.
                    let mut entered = None;
                    let mut passed = None;
                    for &s in succs {
                        let si = &inst.nodes[s as usize];
                        if truth(z3, &mut memo, si.psi_in) {
                            entered = entered.or(Some(s));
                            let is_fail = inst.id == fe.thread && s == fe.node;
                            if passed.is_none() && (is_fail || truth(z3, &mut memo, si.psi_out)) {
                                passed = Some(s);
                            }
                        }
                    }
                    passed.or(entered)
                }
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        // A thread that stopped inside an atomic section never entered it.
        let mut depth = 0u32;
        let mut entered = 0usize;
        for (i, &n) in path.iter().enumerate() {
            if let BKind::Loc(l) = g.nodes[n as usize].kind {
                match prog.loc(l).action {
                    Action::AtomicBegin => {
                        if depth == 0 {
                            entered = i;
                        }
                        depth += 1;
                    }
                    Action::AtomicEnd => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
        }
        let stops_inside = depth > 0
            && path.last().is_some_and(|&n| {
                let is_fail = inst.id == fe.thread && n == fe.node;
                let ends = matches!(&g.nodes[n as usize].kind, BKind::Loc(l) if matches!(prog.loc(*l).action, Action::Halt(_)) || prog.loc(*l).succs.is_empty());
                !is_fail && !ends
            });
        if stops_inside {
            path.truncate(entered);
        }
        // Keys: a node with events sits at its first event; a local node sits just before the
        // thread's next event, or just after its previous one inside an atomic section.
        let key_of = |z3: &mut Z3, memo: &mut Vec<Option<i128>>, e: u32| -> (i128, u32, u32) {
            let ev = &sk.events[e as usize];
            let c = z3.eval(terms, enc.clocks[ev.unit as usize], memo);
            (c, ev.unit, ev.rank)
        };
        let mut keys: Vec<Option<(i128, u32, u32)>> = Vec::with_capacity(path.len());
        for &n in &path {
            let evs = &inst.nodes[n as usize].events;
            keys.push(evs.first().map(|&e| key_of(z3, &mut memo, e)));
        }
        let atomic_local = |n: u32| match &g.nodes[n as usize].kind {
            BKind::Loc(l) => prog.loc(*l).atomic || matches!(prog.loc(*l).action, Action::AtomicEnd),
            _ => false,
        };
        for (i, &n) in path.iter().enumerate() {
            let (base, sub) = match keys[i] {
                Some(k) => (k, 0i64),
                None => {
                    let prev = (0..i).rev().find_map(|j| keys[j].map(|k| (k, (i - j) as i64)));
                    let next = (i + 1..path.len()).find_map(|j| keys[j].map(|k| (k, -((j - i) as i64))));
                    let choice = if atomic_local(n) { prev.or(next) } else { next.or(prev) };
                    match choice {
                        Some(c) => c,
                        None => continue,
                    }
                }
            };
            let key = (base.0, base.1, base.2, sub, inst.id);
            let info = &inst.nodes[n as usize];
            let step = match &g.nodes[n as usize].kind {
                BKind::Loc(l) => {
                    let nondets = info.nondets.iter().map(|&s| z3.eval(terms, s, &mut memo)).collect();
                    Step::Exec { thread: inst.id, loc: *l, nondets, children: info.children.clone() }
                }
                BKind::Havoc { .. } => {
                    let target = path.get(i + 1).and_then(|&m| match g.nodes[m as usize].kind {
                        BKind::Loc(l) => Some(l),
                        _ => None,
                    });
                    match target {
                        Some(t) => Step::RunUntil { thread: inst.id, target: t },
                        None => continue,
                    }
                }
            };
            if inst.id == fe.thread && n == fe.node {
                fail_key = Some(key);
            }
            items.push((key, step));
        }
    }
    items.sort_by_key(|a| a.0);
    if let Some(fk) = fail_key {
        items.retain(|(k, _)| *k <= fk);
    }
    Extracted { steps: items.into_iter().map(|(_, s)| s).collect() }
}

/// One shared access of a step, for the reader: a cell no source variable names (the layout's
/// bare `@4129`) is placed by its source line, and a read-write lock's value gets its word.
fn access(cell: &str, write: bool, value: i128, line: u32, rwlock: &dyn Fn(&str) -> bool) -> String {
    let what = if write { "write" } else { "read" };
    if cell.starts_with('@') {
        return format!("{what} at line {line} = {value}");
    }
    let base: String = cell.chars().take_while(|c| *c != '[' && *c != '.' && *c != '+').collect();
    if rwlock(&base) {
        format!("{what} {cell} = {value} ({})", crate::ir::display::rwlock_word(value))
    } else {
        format!("{what} {cell} = {value}")
    }
}

/// Whether an address is one of a thread's registers (a local whose address is never taken).
fn is_register(prog: &Program, layout: &Layout, addr: i128, template_of: &dyn Fn(i128) -> Option<crate::ir::TemplateId>) -> bool {
    let d = layout.describe_in(prog, addr, template_of);
    if !d.starts_with('T') {
        return false;
    }
    let name = d.split(':').nth(1).unwrap_or("");
    let base: String = name.chars().take_while(|c| *c != '[' && *c != '.' && *c != '+').collect();
    prog.vars.iter().any(|v| v.name == base && !v.addr_taken && matches!(v.kind, crate::ir::VarKind::Local(_) | crate::ir::VarKind::Temp(_)))
}

/// `n` things, the noun in the plural unless `n` is 1.
pub fn count(n: u32, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// The readable interleaving of a replayed witness.
pub fn render(prog: &Program, layout: &Layout, trace: &[Executed], bound: (u32, u32)) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "interleaving (replayed; bound: {}, {} per template):", count(bound.0, "loop iteration"), count(bound.1, "thread"));
    let mut thread_names: hashbrown::HashMap<u32, String> = hashbrown::HashMap::new();
    thread_names.insert(0, prog.template(crate::ir::TemplateId(0)).function.clone());
    let templates: hashbrown::HashMap<i128, crate::ir::TemplateId> = trace.iter().map(|ex| (ex.thread as i128, prog.loc(ex.loc).template)).collect();
    let template_of = |t: i128| templates.get(&t).copied();
    let describe = |addr: i128| layout.describe_in(prog, addr, &template_of);
    let rwlock = |base: &str| prog.vars.iter().any(|v| v.is_global() && v.name == base && crate::ir::display::is_rwlock(&v.ty));
    // Each shown step: its thread, its action's text, its line.
    let mut lines: Vec<(u32, String, String)> = Vec::new();
    for (i, ex) in trace.iter().enumerate() {
        let l = prog.loc(ex.loc);
        let tname = thread_names.get(&ex.thread).cloned().unwrap_or_else(|| prog.template(l.template).function.clone());
        if ex.count > 1 {
            let line = format!("  T{:<3} {:<14} {:<28} runs its loop to the exit ({} steps)", ex.thread, tname, short_span(prog, l.span), ex.count);
            lines.push((ex.thread, "runs its loop to the exit".into(), line));
            continue;
        }
        let shared: Vec<String> = ex.accesses.iter().filter(|a| !is_register(prog, layout, a.addr, &template_of)).map(|a| access(&describe(a.addr), a.write, a.value, l.span.line, &rwlock)).collect();
        let interesting = !shared.is_empty()
            || matches!(
                l.action,
                Action::Fork { .. } | Action::Join(_) | Action::Acquire(_) | Action::Release(_) | Action::LockBusy(_) | Action::Assert(..) | Action::Halt(_) | Action::AtomicBegin | Action::AtomicEnd
            )
            || has_nondet(&l.action)
            || i + 1 == trace.len();
        if let Action::Fork { template, .. } = &l.action {
            for c in &ex.created {
                thread_names.insert(*c, prog.template(*template).function.clone());
            }
        }
        if !interesting {
            continue;
        }
        let action = crate::ir::display::action(prog, &l.action);
        let mut what = action.clone();
        if !ex.created.is_empty() {
            let names: Vec<String> = ex.created.iter().map(|c| format!("T{c}")).collect();
            let _ = write!(what, "   => {}", names.join(", "));
        }
        if has_nondet(&l.action) {
            let vals: Vec<String> = ex.accesses.iter().filter(|a| a.write).map(|a| format!("{} = {}", describe(a.addr).split(':').next_back().unwrap_or(""), a.value)).collect();
            if !vals.is_empty() {
                let _ = write!(what, "   [{}]", vals.join(", "));
            }
        }
        let mut line = format!("  T{:<3} {:<14} {:<28} {}", ex.thread, tname, short_span(prog, l.span), what);
        if !shared.is_empty() {
            let _ = write!(line, "   ({})", shared.join("; "));
        }
        if i + 1 == trace.len() {
            if let Action::Assert(..) = l.action {
                line.push_str("   <- fails");
            }
        }
        lines.push((ex.thread, action, line));
    }
    summarise_repeats(&lines, &mut out);
    out
}

/// Fewest repetitions of a block of identical lines that are summarised.
const REPEATS_SHOWN: usize = 3;

/// Longest block of lines (one loop iteration of one thread) whose repetitions are summarised.
const LONGEST_PERIOD: usize = 4;

/// Writes the lines, each run of at least [`REPEATS_SHOWN`] identical iterations of a block of
/// one thread's lines (a spin that reads the same values each time) as its first iteration and
/// a line that counts the rest. The schedule and the witness files keep every step.
fn summarise_repeats(lines: &[(u32, String, String)], out: &mut String) {
    let mut i = 0;
    while i < lines.len() {
        let mut best: Option<(usize, usize)> = None;
        for p in 1..=LONGEST_PERIOD.min(lines.len() - i) {
            let block = &lines[i..i + p];
            if block.iter().any(|l| l.0 != block[0].0) {
                break;
            }
            let mut k = 1;
            while i + (k + 1) * p <= lines.len() && (0..p).all(|j| lines[i + k * p + j].2 == block[j].2) {
                k += 1;
            }
            if k >= REPEATS_SHOWN && best.is_none_or(|(bp, bk)| k * p > bp * bk) {
                best = Some((p, k));
            }
        }
        match best {
            Some((p, k)) => {
                for l in &lines[i..i + p] {
                    out.push_str(&l.2);
                    out.push('\n');
                }
                let what: Vec<&str> = lines[i..i + p].iter().map(|l| l.1.as_str()).collect();
                let _ = writeln!(out, "  ... {} more iterations of `{}` by T{} ...", k - 1, what.join("; "), lines[i].0);
                i += k * p;
            }
            None => {
                out.push_str(&lines[i].2);
                out.push('\n');
                i += 1;
            }
        }
    }
}

fn short_span(prog: &Program, s: crate::ir::Span) -> String {
    let f = prog.file_name(s);
    let f = std::path::Path::new(f).file_name().and_then(|x| x.to_str()).unwrap_or(f);
    format!("{f}:{}", s.line)
}

fn has_nondet(a: &Action) -> bool {
    fn e(x: &Expr) -> bool {
        match x {
            Expr::Nondet(_) | Expr::Havoc(..) => true,
            Expr::Const(..) | Expr::Load(_) | Expr::AddrOf(_) => false,
            Expr::Unary(_, a, _) | Expr::Cast(_, a) => e(a),
            Expr::Binary(_, a, b, _) => e(a) || e(b),
        }
    }
    match a {
        Action::Assign(_, x) | Action::Assume(x) | Action::Assert(_, x) => e(x),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(spec: &[(u32, &str)]) -> Vec<(u32, String, String)> {
        spec.iter().map(|(t, a)| (*t, a.to_string(), format!("  T{t} {a}"))).collect()
    }

    #[test]
    fn unnamed_cells_get_their_line_and_rwlocks_a_word() {
        let rw = |b: &str| b == "rw";
        assert_eq!(access("@4129", true, 5, 7, &rw), "write at line 7 = 5");
        assert_eq!(access("rw", true, -1, 6, &rw), "write rw = -1 (write-locked)");
        assert_eq!(access("rw", false, 2, 6, &rw), "read rw = 2 (2 readers)");
        assert_eq!(access("count", false, -1, 6, &rw), "read count = -1");
    }

    #[test]
    fn repeated_iterations_of_one_thread_are_counted_not_printed() {
        let mut out = String::new();
        let mut spec = vec![(0, "fork")];
        spec.extend(std::iter::repeat_n((2, "assume(ready == 0)"), 12));
        spec.push((1, "ready := 1"));
        summarise_repeats(&lines(&spec), &mut out);
        assert_eq!(out, "  T0 fork\n  T2 assume(ready == 0)\n  ... 11 more iterations of `assume(ready == 0)` by T2 ...\n  T1 ready := 1\n");
    }

    #[test]
    fn a_block_of_two_lines_repeats_as_one_iteration() {
        let mut out = String::new();
        let spec: Vec<(u32, &str)> = (0..4).flat_map(|_| [(1, "a"), (1, "b")]).collect();
        summarise_repeats(&lines(&spec), &mut out);
        assert_eq!(out, "  T1 a\n  T1 b\n  ... 3 more iterations of `a; b` by T1 ...\n");
    }

    #[test]
    fn short_runs_and_other_threads_stay_as_they_are() {
        let mut out = String::new();
        let spec = [(1, "a"), (1, "a"), (2, "a"), (1, "a")];
        summarise_repeats(&lines(&spec), &mut out);
        assert_eq!(out, "  T1 a\n  T1 a\n  T2 a\n  T1 a\n");
    }
}
