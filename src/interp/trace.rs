//! A replayed interleaving: the replay that decides, for every engine, whether a violation is
//! real, and the steps it executed as reports show them (text, JSON, HTML).

use super::layout::Layout;
use super::{Executed, Interp, Outcome, Step};
use crate::ir::{Action, ApproxId, AssertId, Expr, Program};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Why a replayed schedule is not a violation.
#[derive(Clone, Debug)]
pub(crate) enum ReplayError {
    /// It reaches the failure, but only through a value an over-approximation produced.
    RestsOn(ApproxId),
    /// It does not reach the failure: why, and whether it ran a loop past an engine's bound
    /// (a havocked run), whose summary is coarse.
    Fails { why: String, beyond_bound: bool },
}

/// Appended to a rejection when the schedule ran a loop past the bound.
const BEYOND_BOUND: &str = "; it runs a loop beyond the bound";

impl ReplayError {
    /// The reason, in words, for a program's approximations.
    pub(crate) fn describe(&self, prog: &Program) -> String {
        match self {
            ReplayError::RestsOn(ap) => format!("it rests on an over-approximation: {}", prog.approx_str(*ap)),
            ReplayError::Fails { why, beyond_bound } => format!("{why}{}", if *beyond_bound { BEYOND_BOUND } else { "" }),
        }
    }
}

/// Replays a schedule in the interpreter from the initial state (`oracle` gives memory that
/// does not start as zero): the executed steps when it makes assertion `a` fail, else why it
/// does not. Architecture invariant: every engine reports a violation only after this check.
pub(crate) fn replay(prog: &Program, layout: &Layout, steps: &[Step], oracle: &dyn Fn(i128) -> i128, a: AssertId) -> Result<Vec<Executed>, ReplayError> {
    let mut it = Interp::new(prog, layout, oracle);
    match it.run(steps) {
        Outcome::Failed { assert, rests_on: Some(ap), .. } if assert == a => Err(ReplayError::RestsOn(ap)),
        Outcome::Failed { assert, .. } if assert == a => Ok(std::mem::take(&mut it.trace)),
        Outcome::Failed { assert, .. } => Err(ReplayError::Fails { why: format!("the schedule fails {} first", prog.assertion_id(assert)), beyond_bound: false }),
        Outcome::Rejected { step, reason } => {
            let beyond_bound = steps.iter().any(|s| matches!(s, Step::RunUntil { .. }));
            Err(ReplayError::Fails { why: format!("step {}: {reason}", step + 1), beyond_bound })
        }
        Outcome::Finished => Err(ReplayError::Fails { why: "the schedule ends before the failure".into(), beyond_bound: false }),
    }
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
pub(crate) fn count(n: u32, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// One shown step of a replayed interleaving, as reports print and draw it. Steps that touch
/// only a thread's registers are left out (they tell a reader nothing another step does not).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    /// The thread instance (`T0` is `main`).
    pub thread: u32,
    /// The thread's start routine.
    pub function: String,
    /// The source file's name (without its directory).
    pub file: String,
    /// 1-based source line.
    pub line: u32,
    /// 1-based source column.
    pub column: u32,
    /// The action, as the IR prints it; empty for a loop run to its exit.
    pub action: String,
    /// Steps of a loop run to its exit in one go (a havocked loop); absent for one step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_steps: Option<u64>,
    /// The threads a fork created.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created: Vec<u32>,
    /// The program inputs the step chose, as `x = 3`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<String>,
    /// Its reads and writes of shared memory, as `write c = 1`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<String>,
    /// The step is the failing assertion.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fails: bool,
}

impl TraceStep {
    /// The step's line of the printed interleaving.
    fn line_text(&self) -> String {
        let at = format!("{}:{}", self.file, self.line);
        if let Some(n) = self.loop_steps {
            return format!("  T{:<3} {:<14} {:<28} runs its loop to the exit ({n} steps)", self.thread, self.function, at);
        }
        let mut what = self.action.clone();
        if !self.created.is_empty() {
            let names: Vec<String> = self.created.iter().map(|c| format!("T{c}")).collect();
            let _ = write!(what, "   => {}", names.join(", "));
        }
        if !self.inputs.is_empty() {
            let _ = write!(what, "   [{}]", self.inputs.join(", "));
        }
        let mut line = format!("  T{:<3} {:<14} {:<28} {}", self.thread, self.function, at, what);
        if !self.effects.is_empty() {
            let _ = write!(line, "   ({})", self.effects.join("; "));
        }
        if self.fails {
            line.push_str("   <- fails");
        }
        line
    }
}

/// The shown steps of a replayed interleaving (see [`TraceStep`]).
pub(crate) fn steps(prog: &Program, layout: &Layout, trace: &[Executed]) -> Vec<TraceStep> {
    let mut thread_names: hashbrown::HashMap<u32, String> = hashbrown::HashMap::new();
    thread_names.insert(0, prog.template(crate::ir::TemplateId(0)).function.clone());
    let templates: hashbrown::HashMap<i128, crate::ir::TemplateId> = trace.iter().map(|ex| (ex.thread as i128, prog.loc(ex.loc).template)).collect();
    let template_of = |t: i128| templates.get(&t).copied();
    let describe = |addr: i128| layout.describe_in(prog, addr, &template_of);
    let rwlock = |base: &str| prog.vars.iter().any(|v| v.is_global() && v.name == base && crate::ir::display::is_rwlock(&v.ty));
    let mut out = Vec::new();
    for (i, ex) in trace.iter().enumerate() {
        let l = prog.loc(ex.loc);
        let function = thread_names.get(&ex.thread).cloned().unwrap_or_else(|| prog.template(l.template).function.clone());
        let file = prog.file_name(l.span);
        let file = std::path::Path::new(file).file_name().and_then(|x| x.to_str()).unwrap_or(file).to_string();
        let step = TraceStep {
            thread: ex.thread,
            function,
            file,
            line: l.span.line,
            column: l.span.col,
            action: String::new(),
            loop_steps: None,
            created: Vec::new(),
            inputs: Vec::new(),
            effects: Vec::new(),
            fails: false,
        };
        if ex.count > 1 {
            out.push(TraceStep { loop_steps: Some(ex.count as u64), ..step });
            continue;
        }
        let effects: Vec<String> = ex.accesses.iter().filter(|a| !is_register(prog, layout, a.addr, &template_of)).map(|a| access(&describe(a.addr), a.write, a.value, l.span.line, &rwlock)).collect();
        let last = i + 1 == trace.len();
        let interesting = !effects.is_empty()
            || matches!(
                l.action,
                Action::Fork { .. } | Action::Join(_) | Action::Acquire(_) | Action::Release(_) | Action::LockBusy(_) | Action::Assert(..) | Action::Halt(_) | Action::AtomicBegin | Action::AtomicEnd
            )
            || has_nondet(&l.action)
            || last;
        if let Action::Fork { template, .. } = &l.action {
            for c in &ex.created {
                thread_names.insert(*c, prog.template(*template).function.clone());
            }
        }
        if !interesting {
            continue;
        }
        let inputs = if has_nondet(&l.action) {
            ex.accesses.iter().filter(|a| a.write).map(|a| format!("{} = {}", describe(a.addr).split(':').next_back().unwrap_or(""), a.value)).collect()
        } else {
            Vec::new()
        };
        let fails = last && matches!(l.action, Action::Assert(..));
        out.push(TraceStep { action: crate::ir::display::action(prog, &l.action), created: ex.created.clone(), inputs, effects, fails, ..step });
    }
    out
}

/// The printed interleaving: a line per shown step, repeated spins summarised.
pub(crate) fn text(steps: &[TraceStep]) -> String {
    let lines: Vec<(u32, String, String)> = steps.iter().map(|s| (s.thread, if s.loop_steps.is_some() { "runs its loop to the exit".to_string() } else { s.action.clone() }, s.line_text())).collect();
    let mut out = String::new();
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
