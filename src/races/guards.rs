//! Which single-instance threads `main` may have running at each of its steps, path by path:
//! more `join_waits` facts for the race rules (`if (x) pthread_create(..)` ...
//! `if (x) pthread_join(..)`, or a fork in a function whose result main tests before joining).
//!
//! A path-sensitive run of the root alone over abstract states: for each template the root
//! forks once (multiplicity one), whether it is not forked yet, running, or joined; and for the
//! root's locals whose address is never taken (no other thread can write them) a constant, a
//! set of excluded constants, or anything. An `assume` that the state contradicts ends the path.
//! The states at each location over-approximate every execution's, since only the root forks
//! these templates and writes these locals. Then for a step `u -> w` of the root:
//! - if no state after `u` has the template forked, the root cannot take the step while a
//!   thread of it exists: `join_waits(u, v)` for every location `v` of the template;
//! - if none has it running (a join on the handle the fork wrote returned), it may take the
//!   step only once that thread has ended: `join_waits(u, v)` for its locations but the exits.
//!
//! The handle of such a fork is a local of the root or a global no other thread writes, its
//! address never taken: a join on it names that thread until the root writes it again.
//!
//! Both only remove steps that no execution takes, so the race rules stay an
//! over-approximation. Too many states at one location, and nothing is claimed.

use crate::ir::{Action, BinOp, Expr, Halt, LocId, Lval, Multiplicity, Program, TemplateId, VarId, VarKind};
use hashbrown::{HashMap, HashSet};

/// Most states kept at one location before the analysis gives up.
const MAX_STATES: usize = 256;
/// Most constants a local is known to differ from.
const MAX_EXCLUDED: usize = 8;

/// What a local may hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Val {
    Any,
    Is(i128),
    /// None of these (sorted).
    Not(Vec<i128>),
}

/// A thread template's state in the root's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Status {
    NotForked,
    Running,
    Joined,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct State {
    vals: Vec<Val>,
    status: Vec<Status>,
    /// Whether the template's handle still holds the id its fork stored.
    handle: Vec<bool>,
}

struct Ctx<'a> {
    prog: &'a Program,
    /// Tracked local -> its index in `vals`.
    tracked: HashMap<VarId, usize>,
    /// Tracked template -> its index in `status`; with its fork's handle variable.
    templates: Vec<(TemplateId, Option<VarId>)>,
}

/// The lvalue an action writes, if any.
fn written(a: &Action) -> Option<&Lval> {
    match a {
        Action::Assign(lv, _) | Action::Alloc(lv, ..) | Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => Some(lv),
        Action::Fork { handle: Some(lv), .. } => Some(lv),
        _ => None,
    }
}

impl Ctx<'_> {
    /// The value of an expression stored into a local of type `ty` (a constant of another
    /// type, or anything computed, is `Any`).
    fn eval(&self, s: &State, e: &Expr, ty: crate::ir::types::Ty) -> Val {
        match e {
            Expr::Const(k, t) if *t == ty => Val::Is(*k),
            Expr::Load(Lval::Var(w)) if e.ty(self.prog) == ty => self.tracked.get(w).map(|i| s.vals[*i].clone()).unwrap_or(Val::Any),
            _ => Val::Any,
        }
    }

    /// The state after the action, or None when an `assume` cannot pass.
    fn step(&self, s: &State, a: &Action) -> Option<State> {
        let mut n = s.clone();
        match a {
            Action::Assume(c) => return self.assume(n, c),
            Action::Fork { template, .. } => {
                if let Some(i) = self.templates.iter().position(|(t, _)| t == template) {
                    n.status[i] = Status::Running;
                    n.handle[i] = true;
                }
            }
            Action::Join(Expr::Load(Lval::Var(h))) => {
                for (i, (_, hv)) in self.templates.iter().enumerate() {
                    if *hv == Some(*h) && n.status[i] == Status::Running && n.handle[i] {
                        n.status[i] = Status::Joined;
                    }
                }
            }
            _ => {}
        }
        if let Some(lv) = written(a) {
            if let Some(v) = lv.root_var() {
                if !matches!(a, Action::Fork { .. }) {
                    for (i, (_, hv)) in self.templates.iter().enumerate() {
                        if *hv == Some(v) {
                            n.handle[i] = false;
                        }
                    }
                }
                if let Some(&i) = self.tracked.get(&v) {
                    n.vals[i] = match (a, lv) {
                        (Action::Assign(_, e), Lval::Var(_)) => self.eval(s, e, Expr::Load(Lval::Var(v)).ty(self.prog)),
                        _ => Val::Any,
                    };
                }
            }
        }
        Some(n)
    }

    /// `assume(x == k)` or `assume(x != k)` on a tracked local refines it, or ends the path.
    fn assume(&self, mut s: State, c: &Expr) -> Option<State> {
        let Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), l, r, _) = c else { return Some(s) };
        let (v, k) = match (&**l, &**r) {
            (x @ Expr::Load(Lval::Var(v)), Expr::Const(k, t)) | (Expr::Const(k, t), x @ Expr::Load(Lval::Var(v))) if x.ty(self.prog) == *t => (*v, *k),
            _ => return Some(s),
        };
        let Some(&i) = self.tracked.get(&v) else { return Some(s) };
        let eq = *op == BinOp::Eq;
        let next = match (&s.vals[i], eq) {
            (Val::Is(c), true) if *c != k => return None,
            (Val::Is(c), false) if *c == k => return None,
            (Val::Not(ex), true) if ex.contains(&k) => return None,
            (Val::Is(c), _) => Val::Is(*c),
            (_, true) => Val::Is(k),
            (Val::Not(ex), false) => {
                let mut ex = ex.clone();
                if !ex.contains(&k) && ex.len() < MAX_EXCLUDED {
                    ex.push(k);
                    ex.sort_unstable();
                }
                Val::Not(ex)
            }
            (Val::Any, false) => Val::Not(vec![k]),
        };
        s.vals[i] = next;
        Some(s)
    }
}

/// The extra `join_waits(a, v)` facts (see the module comment).
pub(super) fn waits(prog: &Program) -> Vec<[u32; 2]> {
    let root = TemplateId(0);
    let mut templates = Vec::new();
    for (ti, tpl) in prog.templates.iter().enumerate() {
        let &[fork] = &tpl.spawned_at[..] else { continue };
        if ti == 0 || tpl.multiplicity != Multiplicity::One || prog.loc(fork).template != root {
            continue;
        }
        let handle = match &prog.loc(fork).action {
            // A handle the root alone writes: a local of it, or a global no other thread writes.
            Action::Fork { handle: Some(Lval::Var(h)), .. } => Some(*h).filter(|h| {
                let var = prog.var(*h);
                let written_elsewhere = || prog.locs.iter().any(|l| l.template != root && written(&l.action).and_then(Lval::root_var) == Some(*h));
                !var.addr_taken && (matches!(var.kind, VarKind::Local(TemplateId(0)) | VarKind::Temp(TemplateId(0))) || (matches!(var.kind, VarKind::Global) && !written_elsewhere()))
            }),
            _ => None,
        };
        templates.push((TemplateId(ti as u32), handle));
    }
    if templates.is_empty() {
        return Vec::new();
    }
    let tracked: HashMap<VarId, usize> = prog
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.addr_taken && matches!(v.kind, VarKind::Local(TemplateId(0)) | VarKind::Temp(TemplateId(0))))
        .enumerate()
        .map(|(i, (v, _))| (VarId(v as u32), i))
        .collect();
    let cx = Ctx { prog, tracked, templates };
    let init = State { vals: vec![Val::Any; cx.tracked.len()], status: vec![Status::NotForked; cx.templates.len()], handle: vec![false; cx.templates.len()] };
    // States on entry to each location, and after its action.
    let mut at: HashMap<LocId, HashSet<State>> = HashMap::new();
    let mut after: HashMap<LocId, HashSet<State>> = HashMap::new();
    let entry = prog.template(root).entry;
    at.entry(entry).or_default().insert(init.clone());
    let mut work = vec![(entry, init)];
    while let Some((l, s)) = work.pop() {
        let Some(n) = cx.step(&s, &prog.loc(l).action) else { continue };
        let outs = after.entry(l).or_default();
        if !outs.insert(n.clone()) {
            continue;
        }
        for w in &prog.loc(l).succs {
            let set = at.entry(*w).or_default();
            if set.insert(n.clone()) {
                if set.len() > MAX_STATES {
                    return Vec::new();
                }
                work.push((*w, n.clone()));
            }
        }
    }
    let none = HashSet::new();
    let mut out = Vec::new();
    for &u in &prog.template(root).locs {
        let outs = after.get(&u).unwrap_or(&none);
        for (i, (t, _)) in cx.templates.iter().enumerate() {
            let never = outs.iter().all(|s| s.status[i] == Status::NotForked);
            let not_running = outs.iter().all(|s| s.status[i] != Status::Running);
            if !never && !not_running {
                continue;
            }
            for &v in &prog.template(*t).locs {
                if never || !matches!(prog.loc(v).action, Action::Halt(Halt::ThreadExit)) {
                    out.push([u.0, v.0]);
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
