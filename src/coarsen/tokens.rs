//! Counting threads (issue 37): lower bounds of a shared counter that hold because of how many
//! threads stand where, for any number of threads.
//!
//! A reference count, a reader count or a `pending` count is changed by each thread by a known
//! amount at known places: `main` takes a reference before it creates a worker, the worker puts
//! it when done. Give every location `l` of a template a number of *tokens* `o(l)`, the
//! counter's share that a thread standing at `l` holds. When every write of the counter `x`
//! changes it by the same amount `c` as the writer's tokens (`o(succ) = o(l) + c`), every fork
//! moves the new thread's tokens from its creator (`o(succ) = o(l) - o(entry)`), and every other
//! action keeps them, then `x == Σ o(pc)` over all threads holds in every state: the root starts
//! alone with no tokens and `x` at its initial zero, and each step keeps the sum. This is counter
//! abstraction (Pnueli, Xu & Zuck, CAV 2002) reduced to the one counter a proof needs: the
//! number of threads at each location, weighted by their tokens, is never tracked separately.
//! With every `o >= 0`, a thread at `l` knows `x >= o(l)`, plus the root's least share after its
//! first fork when the thread is not the root (the root then exists and stands after a fork).
//! Symmetrically, with every `o <= 0` but the root's (a thread holding a slot of a counting
//! semaphore holds -1), it knows `x <= o(l)` plus the root's greatest share after a fork. The
//! interpreter meets the state at `l` with these bounds ([`floors`]); the relation between `x`
//! and the threads needs no relational domain.
//!
//! A write's amount is known when its value is `x + c` with `x` read in the same atomic section
//! (the IR's `__sync_*`/`__atomic_*` builtins), while a mutex that every write of `x` holds is
//! held, or in the root's deterministic prefix (no other thread exists yet, and a constant
//! store changes the known value by a known amount). The arithmetic must be in `x`'s own signed type: signed
//! overflow is undefined behaviour, which the analysis excludes (`ir` module), so `x` is the
//! exact sum in every execution it covers; an unsigned counter wraps and is never counted.
//! Each template's entry holds the fewest tokens that keep all of its locations at `o >= 0`
//! (for upper bounds, the most that keep them at `o <= 0`).
//! Anything else that may write `x` (a weak write, a store of an unknown amount, a counter
//! changed on paths that disagree about the tokens, a template created by nobody) leaves `x`
//! without bounds. Not covered: bounds from a bounded number of threads (`x <= N` after `N`
//! one-shot increments), relations between two counters, a template whose entry must hold
//! more tokens than its own puts need (a reference it leaks).

use super::locks::must_hold;
use crate::ir::memory::LockId;
use crate::ir::{AbsKind, AbsLoc, Action, BinOp, Expr, LocId, Lval, Program, TemplateId, Ty, VarKind};
use std::collections::{BTreeMap, BTreeSet};

/// A value a thread knows relative to the counter: a constant, or the counter plus a constant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Sym {
    Const(i128),
    X(i128),
}

/// What a thread knows standing at a location, for one counter.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Know {
    /// Its tokens, relative to its template's entry.
    offset: i128,
    /// Private locations whose value is known.
    sym: BTreeMap<AbsLoc, Sym>,
    /// The root before its first fork: no other thread exists.
    alone: bool,
    /// The counter's value, while the root is alone.
    xval: Option<i128>,
}

/// Per location: bounds `s·x >= v` (`s` is 1 for a lower bound of `x`, -1 for an upper one) of
/// counters that every thread standing there may assume.
pub(crate) fn floors(prog: &Program) -> Vec<Vec<(AbsLoc, i128, i128)>> {
    let mut out = vec![Vec::new(); prog.locs.len()];
    if prog.templates.iter().skip(1).any(|t| t.spawned_at.is_empty()) {
        return out;
    }
    let held = must_hold(prog);
    let mut written: BTreeSet<AbsLoc> = BTreeSet::new();
    for l in prog.loc_ids() {
        if matches!(prog.loc(l).action, Action::Assign(..)) {
            written.extend(prog.memory.access(l).kills.iter().copied().filter(|a| counter_type(prog, *a).is_some()));
        }
    }
    for x in written {
        let Some(counter) = Counter::new(prog, x, &held) else { continue };
        for (lower, s) in [(true, 1), (false, -1)] {
            for (l, f) in counter.bounds(lower).unwrap_or_default() {
                if let Some(v) = f.checked_mul(s) {
                    out[l.index()].push((x, s, v));
                }
            }
        }
    }
    out
}

/// The type of a location that may be a counter: one shared cell of a signed integer type.
fn counter_type(prog: &Program, a: AbsLoc) -> Option<Ty> {
    let info = prog.memory.info(a);
    match info.ty {
        Ty::Int(i) if i.signed && info.shared && info.strong => Some(info.ty),
        _ => None,
    }
}

struct Counter<'a> {
    prog: &'a Program,
    x: AbsLoc,
    ty: Ty,
    /// A mutex every write of `x` holds (but the root's while it is alone).
    guard: Option<LockId>,
    held: &'a [Vec<LockId>],
}

impl<'a> Counter<'a> {
    fn new(prog: &'a Program, x: AbsLoc, held: &'a [Vec<LockId>]) -> Option<Counter<'a>> {
        let ty = counter_type(prog, x)?;
        let prefix: BTreeSet<LocId> = crate::ir::visit::root_prefix(prog).into_iter().collect();
        let writes: Vec<LocId> =
            prog.loc_ids().filter(|l| !matches!(prog.loc(*l).action, Action::Assume(_) | Action::Assert(..)) && !prefix.contains(l) && prog.memory.access(*l).mods.contains(&x)).collect();
        let mut guard: Option<Vec<LockId>> = None;
        for l in &writes {
            let g = guard.get_or_insert_with(|| held[l.index()].clone());
            g.retain(|k| held[l.index()].contains(k));
        }
        let guard = guard.and_then(|g| g.first().copied());
        // A write whose amount can be known runs inside an atomic section or under the guard
        // (or while the root is alone, which this cheap test leaves out): most globals fail here.
        if writes.iter().any(|l| !prog.loc(*l).atomic && !guard.is_some_and(|g| held[l.index()].contains(&g))) {
            return None;
        }
        Some(Counter { prog, x, ty, guard, held })
    }

    /// The lower (or upper) bound at every location some thread may reach, or `None` when `x`
    /// is no counter.
    fn bounds(&self, lower: bool) -> Option<Vec<(LocId, i128)>> {
        let n = self.prog.templates.len();
        let mut offsets: Vec<Option<BTreeMap<LocId, i128>>> = vec![None; n];
        let mut entry: Vec<Option<i128>> = vec![None; n];
        let mut visiting = vec![false; n];
        self.tokens(TemplateId(0), lower, &mut offsets, &mut entry, &mut visiting)?;
        let root = offsets[0].as_ref()?;
        if lower && root.values().any(|&o| o < 0) {
            return None;
        }
        // The root's share once some thread exists: at the locations reachable from a fork.
        let mut after: BTreeSet<LocId> = BTreeSet::new();
        let mut stack: Vec<LocId> = root.keys().filter(|l| matches!(self.prog.loc(**l).action, Action::Fork { .. })).flat_map(|l| self.prog.loc(*l).succs.iter().copied()).collect();
        while let Some(l) = stack.pop() {
            if after.insert(l) {
                stack.extend(self.prog.loc(l).succs.iter().copied());
            }
        }
        let shares = after.iter().filter_map(|l| root.get(l)).copied();
        let root_share = if lower { shares.min() } else { shares.max() }.unwrap_or(0);
        let mut out = Vec::new();
        for (t, offs) in offsets.iter().enumerate() {
            let Some(offs) = offs else { continue };
            let (base, extra) = if t == 0 { (0, 0) } else { (entry[t]?, root_share) };
            for (l, o) in offs {
                out.push((*l, base.checked_add(*o)?.checked_add(extra)?));
            }
        }
        Some(out)
    }

    /// Computes the tokens of template `t` relative to its entry, and the entry's own, after
    /// those of every template it forks: the fewest that keep every location at `o >= 0` for
    /// lower bounds, the most that keep it at `o <= 0` for upper ones.
    fn tokens(&self, t: TemplateId, lower: bool, offsets: &mut [Option<BTreeMap<LocId, i128>>], entry: &mut [Option<i128>], visiting: &mut [bool]) -> Option<()> {
        if offsets[t.index()].is_some() {
            return Some(());
        }
        if visiting[t.index()] {
            return None;
        }
        visiting[t.index()] = true;
        for &l in &self.prog.template(t).locs {
            if let Action::Fork { template, .. } = &self.prog.loc(l).action {
                self.tokens(*template, lower, offsets, entry, visiting)?;
            }
        }
        let root = t == TemplateId(0);
        let start = self.prog.template(t).entry;
        let xval = match &self.prog.memory.info(self.x).kind {
            AbsKind::Var(v) | AbsKind::Cell(v, _) if root && self.prog.var(*v).kind == VarKind::Global => Some(0),
            _ => None,
        };
        let mut know: BTreeMap<LocId, Know> = BTreeMap::new();
        know.insert(start, Know { offset: 0, sym: BTreeMap::new(), alone: root, xval });
        let mut work: BTreeSet<LocId> = BTreeSet::from([start]);
        while let Some(l) = work.pop_first() {
            let k = know[&l].clone();
            let next = self.step(l, k, entry)?;
            for &s in &self.prog.loc(l).succs {
                let mut n = next.clone();
                if !(n.alone || self.prog.loc(s).atomic || self.guard.is_some_and(|g| self.held[s.index()].contains(&g))) {
                    // Another thread may write `x` before the thread's next step.
                    n.sym.retain(|_, v| matches!(v, Sym::Const(_)));
                }
                match know.get_mut(&s) {
                    None => {
                        know.insert(s, n);
                        work.insert(s);
                    }
                    Some(old) => {
                        if old.offset != n.offset {
                            return None;
                        }
                        let mut joined = old.clone();
                        joined.sym.retain(|a, v| n.sym.get(a) == Some(v));
                        joined.alone &= n.alone;
                        if joined.xval != n.xval || !joined.alone {
                            joined.xval = None;
                        }
                        if joined != *old {
                            *old = joined;
                            work.insert(s);
                        }
                    }
                }
            }
        }
        let offs: BTreeMap<LocId, i128> = know.iter().map(|(l, k)| (*l, k.offset)).collect();
        // The entry's offset is 0, so the least is at most 0 and the greatest at least 0.
        let extreme = if lower { offs.values().min() } else { offs.values().max() }.copied().unwrap_or(0);
        entry[t.index()] = Some(if root { 0 } else { extreme.checked_neg()? });
        offsets[t.index()] = Some(offs);
        Some(())
    }

    /// What the thread knows after the action at `l`, or `None` when it may change `x` by an
    /// unknown amount.
    fn step(&self, l: LocId, mut k: Know, entry: &[Option<i128>]) -> Option<Know> {
        let prog = self.prog;
        let acc = prog.memory.access(l);
        let action = &prog.loc(l).action;
        if matches!(action, Action::Assume(_) | Action::Assert(..)) {
            return Some(k);
        }
        let writes_x = acc.mods.contains(&self.x);
        let mut value = None;
        if let Action::Assign(lv, e) = action {
            value = self.eval(e, &k);
            if writes_x {
                if prog.memory.lookup(prog, lv) != Some(self.x) || !acc.kills.contains(&self.x) || e.ty(prog) != self.ty {
                    return None;
                }
                let delta = match (value?, k.xval) {
                    (Sym::X(c), _) => c,
                    (Sym::Const(c), Some(v)) if k.alone => c.checked_sub(v)?,
                    _ => return None,
                };
                k.offset = k.offset.checked_add(delta)?;
                k.xval = k.xval.and_then(|v| v.checked_add(delta));
                for v in k.sym.values_mut() {
                    if let Sym::X(c) = v {
                        *v = Sym::X(c.checked_sub(delta)?);
                    }
                }
            }
        } else if writes_x {
            return None;
        }
        if let Action::Fork { template, .. } = action {
            k.offset = k.offset.checked_sub(entry[template.index()]?)?;
            k.alone = false;
            k.xval = None;
        }
        for a in &acc.mods {
            k.sym.remove(a);
        }
        if let (Action::Assign(lv, _), Some(v)) = (action, value) {
            // A store into another type converts the value: it is no longer known.
            let same_type = prog.lval_type(lv).scalar(prog.data_model) == self.ty;
            if let Some(a) = prog.memory.lookup(prog, lv).filter(|a| same_type && !prog.memory.info(*a).shared && acc.kills.contains(a)) {
                k.sym.insert(a, v);
            }
        }
        Some(k)
    }

    /// The value of `e` relative to `x`, when the thread knows it.
    fn eval(&self, e: &Expr, k: &Know) -> Option<Sym> {
        let prog = self.prog;
        match e {
            // A constant outside the counter's type would change when converted to it.
            Expr::Const(c, _) if super::transfer::type_range(prog, self.ty).contains(*c) => Some(Sym::Const(*c)),
            Expr::Load(lv) => {
                let a = prog.memory.lookup(prog, lv)?;
                if a == self.x {
                    Some(Sym::X(0))
                } else if !prog.memory.info(a).shared && !matches!(lv, Lval::Deref(..)) {
                    k.sym.get(&a).copied()
                } else {
                    None
                }
            }
            Expr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b, ty) if *ty == self.ty => {
                let (a, b) = (self.eval(a, k)?, self.eval(b, k)?);
                match (op, a, b) {
                    (BinOp::Add, Sym::Const(p), Sym::Const(q)) => Some(Sym::Const(p.checked_add(q)?)),
                    (BinOp::Add, Sym::X(p), Sym::Const(q)) | (BinOp::Add, Sym::Const(q), Sym::X(p)) => Some(Sym::X(p.checked_add(q)?)),
                    (BinOp::Sub, Sym::Const(p), Sym::Const(q)) => Some(Sym::Const(p.checked_sub(q)?)),
                    (BinOp::Sub, Sym::X(p), Sym::Const(q)) => Some(Sym::X(p.checked_sub(q)?)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::floors;
    use crate::frontend::{load, FrontendOptions};
    use crate::ir::{Action, Program};
    use std::path::Path;

    fn program(file: &str) -> Program {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/unbounded").join(file);
        load(&path, &FrontendOptions::default()).unwrap()
    }

    /// The bounds at the worker's reads of the counter.
    fn at_worker_reads(prog: &Program, name: &str) -> Vec<i128> {
        let fl = floors(prog);
        let mut out = Vec::new();
        for l in prog.loc_ids() {
            if prog.template(prog.loc(l).template).function != "worker" || !matches!(prog.loc(l).action, Action::Assign(..)) {
                continue;
            }
            for &(x, s, f) in &fl[l.index()] {
                if s == 1 && prog.memory.info(x).name == name && prog.memory.access(l).refs.contains(&x) {
                    out.push(f);
                }
            }
        }
        out
    }

    /// A holder counts its own reference and main's; when main takes the reference only after
    /// creating the worker, main holds none of it between the two, and the bound is the
    /// worker's own.
    #[test]
    fn a_holder_counts_what_surely_stays_held() {
        let got = at_worker_reads(&program("refcount_get_put.c"), "o.refcnt");
        assert!(!got.is_empty() && got.iter().all(|&f| f == 2), "{got:?}");
        let got = at_worker_reads(&program("refcount_get_after_create.c"), "o.refcnt");
        assert!(!got.is_empty() && got.iter().all(|&f| f == 1), "{got:?}");
    }

    /// A client holding a slot of a counting semaphore (`avail` from 3) sees `avail <= 2`; one
    /// that gives back a slot it never took leaves `avail` without an upper bound.
    #[test]
    fn a_slot_holder_sees_one_slot_fewer() {
        let prog = program("count_semaphore.c");
        let fl = floors(&prog);
        let at = prog.assertions[0].locs[0];
        let upper: Vec<i128> = fl[at.index()].iter().filter(|b| b.1 == -1 && prog.memory.info(b.0).name == "avail").map(|b| -b.2).collect();
        assert_eq!(upper, [2]);
        let prog = program("count_semaphore_no_down.c");
        let any = floors(&prog).iter().flatten().find(|b| b.1 == -1).map(|b| b.2);
        assert_eq!(any, None);
    }

    /// No lower bound where a share is unaccounted for: a put with no get, two puts for one
    /// get, a write outside any atomic section or lock, an unsigned (wrapping) counter. (A put
    /// with no get still bounds `refcnt` from above: it only falls.)
    #[test]
    fn no_lower_bound_without_a_balanced_exact_count() {
        for file in [
            "count_semaphore_double_up.c",
            "refcount_get_put_twice.c",
            "refcount_get_put_no_get.c",
            "refcount_mutex_unlocked_put.c",
            "count_inside_plain_inc.c",
            "count_pending_unsigned.c",
            "count_readers_unlocked_inc.c",
        ] {
            let prog = program(file);
            let any = floors(&prog).iter().flatten().filter(|b| b.1 == 1).map(|(x, _, f)| format!("{} >= {f}", prog.memory.info(*x).name)).next();
            assert!(any.is_none(), "{file}: {any:?}");
        }
    }
}
