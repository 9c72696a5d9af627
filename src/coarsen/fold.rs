//! Thread templates that run the same code, analysed once by the abstract interpreter.
//!
//! One start routine created at n sites (or n routines with identical bodies) makes n
//! templates whose interference edges pair every write of one with every read of the others:
//! n² edges, and a read joins n values each time it is evaluated. Folding analyses one
//! representative per group of identical templates instead: every fork of a group creates the
//! representative (so its parameter is the join of the arguments of every site), and every
//! interference flow between members becomes a flow into and out of the representative, the
//! representative flowing into itself included.
//!
//! Why that is sound: two templates are identical when their locations, in creation order,
//! have the same control flow, atomicity, lock and action up to a bijection between their own
//! locals (the same for their abstract locations, accesses and cells). Mapping every location to
//! its representative's is then a homomorphism of the data-flow equations: the image of every
//! unfolded edge is a folded edge, and the image of every transfer function is the
//! representative's. A post-fixpoint of the folded equations (the interpreter ends with an
//! ascending sweep, so it has one) read back through the map is a post-fixpoint of the unfolded
//! ones, hence covers every execution. The only precision lost is the join of the sites'
//! arguments and the flows from a single-instance template into itself, which the unfolded
//! analysis pairs only across distinct instances; with identical arguments the unfolded
//! invariants of the members are equal anyway.
//!
//! Not folded: the root, templates that fork (their children would need folding too), and
//! templates a definite join waits for (`joins::definite`: the join names one template).

use super::cells::Cells;
use crate::ir::rename::{rename_action, Vars};
use crate::ir::visit::action_vars;
use crate::ir::{AbsKind, AbsLoc, Action, LocId, Program, Template, TemplateId, VarId, VarKind};
use hashbrown::{HashMap, HashSet};
use std::mem::Discriminant;

/// Groups of identical templates, each analysed as its first member.
#[derive(Clone, Debug, Default)]
pub(crate) struct Fold {
    /// Per location: the location whose invariant stands for it (itself unless folded).
    pub rep: Vec<LocId>,
    /// Per folded template (not representatives): the representative's abstract locations
    /// renamed to the template's own (the identity elsewhere).
    rename: HashMap<TemplateId, HashMap<AbsLoc, AbsLoc>>,
    /// Per representative location of a group: every location it stands for, itself first.
    members: HashMap<LocId, Vec<LocId>>,
    /// Per folded template: its representative template.
    template_rep: HashMap<TemplateId, TemplateId>,
}

impl Fold {
    /// No folding: every location stands for itself.
    pub(crate) fn identity(prog: &Program) -> Fold {
        Fold { rep: prog.loc_ids().collect(), ..Fold::default() }
    }

    /// Folds the templates that run identical code (`joined`: templates a definite join waits for).
    pub(crate) fn build(prog: &Program, cells: &Cells, joined: &HashSet<TemplateId>) -> Fold {
        let mut fold = Fold::identity(prog);
        let kinds: HashMap<&AbsKind, AbsLoc> = prog.memory.all().map(|a| (&prog.memory.info(a).kind, a)).collect();
        let owned = owned_locations(prog);
        // Candidates with the same shape only are compared in full.
        let mut buckets: HashMap<(usize, Vec<Discriminant<Action>>), Vec<TemplateId>> = HashMap::new();
        for (i, t) in prog.templates.iter().enumerate().skip(1) {
            let id = TemplateId(i as u32);
            if joined.contains(&id) || t.locs.iter().any(|l| matches!(prog.loc(*l).action, Action::Fork { .. })) || !contiguous(t) {
                continue;
            }
            let key = (t.locs.len(), t.locs.iter().map(|l| std::mem::discriminant(&prog.loc(*l).action)).collect());
            let reps = buckets.entry(key).or_default();
            let found = reps.iter().find_map(|&r| same_code(prog, cells, &kinds, &owned, r, id).map(|m| (r, m)));
            let Some((r, rename)) = found else {
                reps.push(id);
                continue;
            };
            let rt = prog.template(r);
            for (k, l) in t.locs.iter().enumerate() {
                let rl = rt.locs[k];
                fold.rep[l.index()] = rl;
                fold.members.entry(rl).or_insert_with(|| vec![rl]).push(*l);
            }
            fold.rename.insert(id, rename);
            fold.template_rep.insert(id, r);
        }
        fold
    }

    /// Whether nothing is folded.
    pub(crate) fn is_identity(&self) -> bool {
        self.template_rep.is_empty()
    }

    /// Whether a template is analysed as another one.
    pub(crate) fn is_folded(&self, t: TemplateId) -> bool {
        self.template_rep.contains_key(&t)
    }

    /// The program the interpreter analyses: every fork of a folded template creates its
    /// representative instead, so the folded templates are never reached.
    pub(crate) fn program(&self, prog: &Program) -> Option<Program> {
        if self.is_identity() {
            return None;
        }
        let mut p = prog.clone();
        let mut order: Vec<(&TemplateId, &TemplateId)> = self.template_rep.iter().collect();
        order.sort_unstable();
        for (&t, &r) in order {
            let sites = std::mem::take(&mut p.templates[t.index()].spawned_at);
            for &s in &sites {
                if let Action::Fork { template, .. } = &mut p.locs[s.index()].action {
                    *template = r;
                }
            }
            p.templates[r.index()].spawned_at.extend(sites);
        }
        Some(p)
    }

    /// Every location a representative location stands for (itself alone when not folded).
    pub(crate) fn members(&self, l: LocId) -> &[LocId] {
        self.members.get(&l).map(|v| v.as_slice()).unwrap_or(std::slice::from_ref(&self.rep[l.index()]))
    }

    /// The abstract location of `l`'s template that the representative's `a` stands for.
    pub(crate) fn to_copy(&self, prog: &Program, l: LocId, a: AbsLoc) -> AbsLoc {
        self.rename.get(&prog.loc(l).template).and_then(|m| m.get(&a)).copied().unwrap_or(a)
    }

    /// The location of `l`'s template at the place of the representative's `r` (a location of
    /// the representative of `l`'s template).
    pub(crate) fn to_copy_loc(&self, prog: &Program, l: LocId, r: LocId) -> LocId {
        let t = prog.loc(l).template;
        match self.template_rep.get(&t) {
            Some(&rt) => {
                let (rt, ct) = (prog.template(rt), prog.template(t));
                LocId(ct.locs[0].0 + (r.0 - rt.locs[0].0))
            }
            None => r,
        }
    }
}

/// Locations numbered consecutively, as the sequential graph requires of every template.
fn contiguous(t: &Template) -> bool {
    t.locs.windows(2).all(|w| w[1].0 == w[0].0 + 1)
}

/// Per template: the abstract locations of its own locals and temporaries.
fn owned_locations(prog: &Program) -> HashMap<TemplateId, Vec<AbsLoc>> {
    let mut out: HashMap<TemplateId, Vec<AbsLoc>> = HashMap::new();
    for a in prog.memory.all() {
        if let AbsKind::Var(v) | AbsKind::Cell(v, _) = &prog.memory.info(a).kind {
            if let VarKind::Local(t) | VarKind::Temp(t) = prog.var(*v).kind {
                out.entry(t).or_default().push(a);
            }
        }
    }
    out
}

/// If template `c` runs the code of `r` up to a renaming of its own locals: the renaming of
/// `r`'s abstract locations to `c`'s.
fn same_code(prog: &Program, cells: &Cells, kinds: &HashMap<&AbsKind, AbsLoc>, owned: &HashMap<TemplateId, Vec<AbsLoc>>, r: TemplateId, c: TemplateId) -> Option<HashMap<AbsLoc, AbsLoc>> {
    let (rt, ct) = (prog.template(r), prog.template(c));
    if rt.locs.len() != ct.locs.len() || rt.params.len() != ct.params.len() || rt.locs.is_empty() {
        return None;
    }
    let (r0, c0) = (rt.locs[0].0, ct.locs[0].0);
    if rt.entry.0 - r0 != ct.entry.0 - c0 {
        return None;
    }
    // Copy's variables to the representative's, one to one.
    let mut vars: HashMap<VarId, VarId> = HashMap::new();
    let mut taken: HashSet<VarId> = HashSet::new();
    let mut pair = |x: VarId, y: VarId| -> bool {
        let (vx, vy) = (prog.var(x), prog.var(y));
        let own = match (vx.kind, vy.kind) {
            (VarKind::Local(a), VarKind::Local(b)) | (VarKind::Temp(a), VarKind::Temp(b)) => a == c && b == r,
            _ => false,
        };
        if !own {
            return x == y;
        }
        if vx.ty != vy.ty || vx.addr_taken != vy.addr_taken {
            return false;
        }
        match vars.get(&x) {
            Some(&z) => z == y,
            None => {
                vars.insert(x, y);
                taken.insert(y)
            }
        }
    };
    for (lr, lc) in rt.locs.iter().zip(&ct.locs) {
        let (a, b) = (prog.loc(*lr), prog.loc(*lc));
        if a.atomic != b.atomic || a.succs.len() != b.succs.len() || a.succs.iter().zip(&b.succs).any(|(x, y)| x.0.wrapping_sub(r0) != y.0.wrapping_sub(c0)) {
            return None;
        }
        if prog.memory.lock_of[lr.index()] != prog.memory.lock_of[lc.index()] {
            return None;
        }
        let (mut va, mut vb) = (Vec::new(), Vec::new());
        action_vars(&a.action, &mut |v| va.push(v));
        action_vars(&b.action, &mut |v| vb.push(v));
        if va.len() != vb.len() || !vb.iter().zip(&va).all(|(x, y)| pair(*x, *y)) {
            return None;
        }
    }
    if !ct.params.iter().zip(&rt.params).all(|(x, y)| pair(*x, *y)) {
        return None;
    }
    let renamed = |v: VarId| vars.get(&v).copied().unwrap_or(v);
    for (lr, lc) in rt.locs.iter().zip(&ct.locs) {
        let same = match (&prog.loc(*lr).action, rename_action(&prog.loc(*lc).action, &mut Vars(renamed))) {
            (Action::Assert(_, x), Action::Assert(_, y)) => *x == y,
            (x, y) => *x == y,
        };
        if !same {
            return None;
        }
    }
    // The copy's abstract locations to the representative's: every one the copy owns must have
    // its image, with the same facts, and the images must be exactly the representative's own.
    let mut to_rep: HashMap<AbsLoc, AbsLoc> = HashMap::new();
    let empty = Vec::new();
    let (own_c, own_r) = (owned.get(&c).unwrap_or(&empty), owned.get(&r).unwrap_or(&empty));
    if own_c.len() != own_r.len() {
        return None;
    }
    for &a in own_c {
        let image = match &prog.memory.info(a).kind {
            AbsKind::Var(v) => AbsKind::Var(*vars.get(v)?),
            AbsKind::Cell(v, path) => AbsKind::Cell(*vars.get(v)?, path.clone()),
            _ => return None,
        };
        let b = *kinds.get(&image)?;
        let (ia, ib) = (prog.memory.info(a), prog.memory.info(b));
        if ia.strong != ib.strong || ia.shared != ib.shared || ia.ty != ib.ty {
            return None;
        }
        to_rep.insert(a, b);
    }
    let image_set: HashSet<AbsLoc> = to_rep.values().copied().collect();
    if image_set.len() != own_r.len() || !own_r.iter().all(|a| image_set.contains(a)) {
        return None;
    }
    let map = |a: &AbsLoc| to_rep.get(a).copied().unwrap_or(*a);
    let mapped = |xs: &[AbsLoc]| {
        let mut v: Vec<AbsLoc> = xs.iter().map(map).collect();
        v.sort_unstable();
        v
    };
    let sorted = |xs: &[AbsLoc]| {
        let mut v = xs.to_vec();
        v.sort_unstable();
        v
    };
    for (lr, lc) in rt.locs.iter().zip(&ct.locs) {
        let (x, y) = (prog.memory.access(*lr), prog.memory.access(*lc));
        if sorted(&x.mods) != mapped(&y.mods) || sorted(&x.refs) != mapped(&y.refs) || sorted(&x.kills) != mapped(&y.kills) {
            return None;
        }
    }
    // Packs (octagons) must correspond too.
    for (&a, &b) in &to_rep {
        if sorted(&cells.cells[cells.cell_of(b).index()].vars) != mapped(&cells.cells[cells.cell_of(a).index()].vars) {
            return None;
        }
    }
    Some(to_rep.into_iter().map(|(a, b)| (b, a)).collect())
}
