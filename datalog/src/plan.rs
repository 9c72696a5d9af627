//! Compiles checked rules into join plans over fixed-width rows.
//!
//! Every collection in the dataflow holds rows `(key, val)` of two fixed-width `u32` arrays.
//! A relation's tuple is stored with its first `K` columns in `key` and the rest in `val`; an
//! intermediate result of a rule is stored with the next join's key in `key` and the variables
//! still needed in `val`. Each rule becomes a chain of binary joins (and antijoins for negation)
//! whose closures are small programs over [`Src`] slots, so one compiled join serves every rule.
//! The widths `(K, V)` are chosen per program from a few presets, so transitive closure runs on
//! 8-byte rows while wider programs still fit.

use std::fmt::Write;

use hashbrown::HashMap;

use crate::check::Checked;
use crate::program::{Arg, AtomIr, Lit, RelationInfo, Rule};
use crate::syntax::ast::CmpOp;

/// The `(key width, value width)` instantiations of the engine, smallest first. Each preset is a
/// full copy of the dataflow code (about 40 s of compile time), so there are few: transitive
/// closure fits `(1, 1)`, the interference rules `(3, 3)`, anything up to 16 columns `(8, 8)`.
pub(crate) const PRESETS: &[(usize, usize)] = &[(1, 1), (2, 2), (3, 3), (8, 8)];

/// The widest relation the largest preset can store.
pub(crate) const MAX_ARITY: usize = 16;

/// Where a closure reads a value: the shared key, the left value, the right value, or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Src {
    K(u8),
    A(u8),
    B(u8),
    C(u32),
}

/// A comparison checked inside a closure; values are in the order-preserving internal encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Filter {
    pub a: Src,
    pub op: CmpOp,
    pub b: Src,
}

/// How a closure builds its output row from its inputs, after checking its filters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Emit {
    pub key: Vec<Src>,
    pub val: Vec<Src>,
    pub filters: Vec<Filter>,
}

/// An arrangement of a relation: `key` columns as the join key, `val` columns carried along.
///
/// A projection (columns omitted) may hold a row several times, which a join only turns into
/// larger counts; an antijoin needs a set, so its arrangements are `distinct`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ArrSpec {
    pub rel: usize,
    pub key: Vec<usize>,
    pub val: Vec<usize>,
    pub distinct: bool,
}

/// How a rule's first intermediate result is produced.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    /// No positive atom: one empty row (`unit`), then constants only.
    Unit(Emit),
    /// One relation, read row by row.
    Scan { rel: usize, emit: Emit },
    /// Two shared arrangements joined directly.
    Join { left: usize, right: usize, emit: Emit },
}

/// A further step on the intermediate result, which arrives keyed for it.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// Join with a shared arrangement.
    Join { right: usize, emit: Emit },
    /// Remove rows whose key is in a (distinct) arrangement.
    Anti { set: usize, emit: Emit },
}

/// One rule as a dataflow fragment.
#[derive(Clone, Debug)]
pub(crate) struct RulePlan {
    pub head: usize,
    pub source: Source,
    pub steps: Vec<Step>,
    /// True if the body reads a relation of the rule's own recursive stratum.
    pub recursive: bool,
    pub label: String,
}

/// A stratum's relations and rules.
#[derive(Clone, Debug)]
pub(crate) struct StratumPlan {
    pub rels: Vec<usize>,
    pub recursive: bool,
    pub rules: Vec<RulePlan>,
    /// Relations whose rule yields each tuple at most once, so `distinct` can be skipped.
    pub set_valued: Vec<usize>,
    /// Relations of a recursive stratum computed inside each round from the loop variables, in
    /// dependency order, instead of being loop variables themselves.
    pub inline: Vec<usize>,
}

/// The whole program as a dataflow plan.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub names: Vec<String>,
    pub columns: Vec<Vec<String>>,
    pub key_width: usize,
    pub val_width: usize,
    pub arity: Vec<usize>,
    pub arrs: Vec<ArrSpec>,
    pub strata: Vec<StratumPlan>,
    /// Per stratum, the later non-recursive strata evaluated inside its loop scope.
    pub attached: Vec<Vec<usize>>,
}

/// Plans `checked` with the smallest preset that fits every rule; the error names a rule index.
pub(crate) fn plan(checked: &Checked) -> Result<Plan, (usize, String)> {
    let mut last = None;
    for &(k, v) in PRESETS {
        match build(checked, k, v) {
            Ok(p) => return Ok(p),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or((0, "no engine preset fits this program".into())))
}

fn build(checked: &Checked, kw: usize, vw: usize) -> Result<Plan, (usize, String)> {
    let arity: Vec<usize> = checked.relations.iter().map(|r| r.columns.len()).collect();
    if let Some(r) = checked.relations.iter().find(|r| r.columns.len() > kw + vw) {
        // Only the last preset reports this; the checker already bounds arity by MAX_ARITY.
        return Err((0, format!("relation '{}' has {} columns; this preset stores at most {}", r.name, r.columns.len(), kw + vw)));
    }
    let mut stratum_of = vec![0; arity.len()];
    for (i, s) in checked.strata.iter().enumerate() {
        for &r in &s.rels {
            stratum_of[r] = i;
        }
    }
    let mut b = Builder { kw, vw, arity: &arity, arrs: Vec::new(), arr_ids: HashMap::new() };
    let mut strata = Vec::new();
    let mut has_input = vec![false; arity.len()];
    for (r, _) in &checked.facts {
        has_input[*r] = true;
    }
    for (r, info) in checked.relations.iter().enumerate() {
        has_input[r] |= info.is_input();
    }
    for (si, s) in checked.strata.iter().enumerate() {
        let mut rules = Vec::new();
        let mut rule_count = vec![0usize; arity.len()];
        let mut set_rule = vec![false; arity.len()];
        for rule in checked.rules.iter().filter(|r| stratum_of[r.head.rel] == si) {
            rule_count[rule.head.rel] += 1;
            set_rule[rule.head.rel] = is_set_preserving(rule);
        }
        let set_valued: Vec<usize> = s.rels.iter().copied().filter(|&r| rule_count[r] == 1 && set_rule[r] && !has_input[r]).collect();
        let inline = if s.recursive { inline_order(checked, s, &set_valued) } else { Vec::new() };
        for (ri, rule) in checked.rules.iter().enumerate() {
            if stratum_of[rule.head.rel] != si {
                continue;
            }
            let in_scc = |rel: usize| s.recursive && stratum_of[rel] == si;
            let label = format!("rule at line {} for '{}'", rule.pos.line, checked.relations[rule.head.rel].name);
            let p = b.rule(rule, &in_scc, label).map_err(|m| (ri, m))?;
            rules.push(p);
        }
        strata.push(StratumPlan { rels: s.rels.clone(), recursive: s.recursive, rules, set_valued, inline });
    }
    let names = checked.relations.iter().map(|r| r.name.clone()).collect();
    let columns = checked.relations.iter().map(|r| r.columns.iter().map(|c| c.name.clone()).collect()).collect();
    let mut plan = Plan { names, columns, key_width: kw, val_width: vw, arity: arity.clone(), arrs: b.arrs, strata, attached: Vec::new() };
    plan.attached = attachments(&plan);
    Ok(plan)
}

/// Relations a stratum's rules read.
pub(crate) fn rule_reads(plan: &Plan, rule: &RulePlan, out: &mut Vec<usize>) {
    let mut push = |r: usize| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    match &rule.source {
        Source::Unit(_) => {}
        Source::Scan { rel, .. } => push(*rel),
        Source::Join { left, right, .. } => {
            push(plan.arrs[*left].rel);
            push(plan.arrs[*right].rel);
        }
    }
    for s in &rule.steps {
        match s {
            Step::Join { right: id, .. } | Step::Anti { set: id, .. } => push(plan.arrs[*id].rel),
        }
    }
}

/// The shared arrangements `rules` join with.
fn arrs_used(rules: &[RulePlan]) -> Vec<usize> {
    let mut ids = Vec::new();
    for rule in rules {
        if let Source::Join { left, right, .. } = &rule.source {
            ids.extend([*left, *right]);
        }
        for s in &rule.steps {
            match s {
                Step::Join { right: id, .. } | Step::Anti { set: id, .. } => ids.push(*id),
            }
        }
    }
    ids
}

/// For each stratum, the later non-recursive strata rendered inside its loop scope.
///
/// A non-recursive stratum that reads a recursive stratum's relations, and otherwise only what
/// that stratum's scope can see (relations computed before it, or by strata already attached to
/// it), is evaluated in the same scope: it then joins the loop's own arrangements instead of
/// arranging the recursive relations again after they leave the loop. Its value at the fixpoint is
/// the same: it is not fed back, so it is a function of the converged relations whatever it
/// negates.
fn attachments(plan: &Plan) -> Vec<Vec<usize>> {
    let mut stratum_of = vec![0; plan.arity.len()];
    for (i, s) in plan.strata.iter().enumerate() {
        for &r in &s.rels {
            stratum_of[r] = i;
        }
    }
    let mut attached: Vec<Vec<usize>> = vec![Vec::new(); plan.strata.len()];
    let mut hosted_arrs: Vec<Vec<usize>> = vec![Vec::new(); plan.strata.len()];
    let mut host = None;
    for (si, s) in plan.strata.iter().enumerate() {
        if s.rules.is_empty() {
            continue;
        }
        if s.recursive {
            host = Some(si);
            hosted_arrs[si] = arrs_used(&s.rules);
            continue;
        }
        let Some(h) = host else { continue };
        let mut reads = Vec::new();
        for rule in &s.rules {
            rule_reads(plan, rule, &mut reads);
        }
        // Strata without rules hold input relations, which every scope can enter.
        let in_scope = |r: usize| {
            let o = stratum_of[r];
            o == h || attached[h].contains(&o)
        };
        let visible = |r: usize| {
            let o = stratum_of[r];
            o < h || in_scope(r) || plan.strata[o].rules.is_empty()
        };
        // Attaching pays only through a shared arrangement of a loop relation: otherwise the
        // stratum would arrange the loop's collection itself, and inside the loop that arrangement
        // keeps each row once per round it changed in, where outside the rounds are merged.
        let shares = arrs_used(&s.rules).iter().any(|&id| in_scope(plan.arrs[id].rel) && hosted_arrs[h].contains(&id));
        if reads.iter().all(|&r| visible(r)) && shares {
            attached[h].push(si);
            hosted_arrs[h].extend(arrs_used(&s.rules));
        }
    }
    attached
}

/// True if every derivation of the rule gives a different head tuple, so that on sets of inputs
/// it yields a set: every variable of a positive atom is in the head, and no atom has a wildcard.
fn is_set_preserving(rule: &Rule) -> bool {
    let head_vars: Vec<u32> = rule.head.args.iter().filter_map(|a| if let Arg::Var(v) = a { Some(*v) } else { None }).collect();
    rule.body.iter().all(|l| match l {
        Lit::Pos(a) => a.args.iter().all(|x| match x {
            Arg::Var(v) => head_vars.contains(v),
            Arg::Const(_) => true,
            Arg::Wild => false,
        }),
        // `x = y` may bind a head variable from a body variable; it never duplicates.
        Lit::Neg(_) | Lit::Cmp(..) => true,
    })
}

/// Chooses which set-valued relations of a recursive stratum are computed inline in each round:
/// those whose rule reads no other inline candidate on a cycle. The rest stay loop variables.
/// Inlining saves the `distinct` and the round of delay that a loop variable costs.
fn inline_order(checked: &Checked, s: &crate::program::Stratum, set_valued: &[usize]) -> Vec<usize> {
    let mut candidates: Vec<usize> = set_valued.to_vec();
    // Dependencies among candidates: head -> SCC relations its rule reads.
    let deps = |r: usize| -> Vec<usize> {
        let mut d = Vec::new();
        for rule in checked.rules.iter().filter(|x| x.head.rel == r) {
            for l in &rule.body {
                if let Lit::Pos(a) | Lit::Neg(a) = l {
                    if s.rels.contains(&a.rel) && !d.contains(&a.rel) {
                        d.push(a.rel);
                    }
                }
            }
        }
        d
    };
    loop {
        // Kahn's algorithm on the candidates; what cannot be ordered is on a cycle.
        let mut order = Vec::new();
        let mut left = candidates.clone();
        loop {
            let ready: Vec<usize> = left.iter().copied().filter(|&r| deps(r).iter().all(|d| !left.contains(d))).collect();
            if ready.is_empty() {
                break;
            }
            left.retain(|r| !ready.contains(r));
            order.extend(ready);
        }
        if left.is_empty() {
            // A stratum needs at least one variable to carry the recursion.
            if order.len() == s.rels.len() {
                order.pop();
            }
            return order;
        }
        // Demote one candidate on a cycle to a loop variable and try again.
        let demote = left[0];
        candidates.retain(|&r| r != demote);
    }
}

struct Builder<'a> {
    kw: usize,
    vw: usize,
    arity: &'a [usize],
    arrs: Vec<ArrSpec>,
    arr_ids: HashMap<ArrSpec, usize>,
}

/// The producer whose output layout is decided once the next step is known.
enum Pending {
    Unit,
    Scan(usize),
    Join(usize, usize),
    Step(Step),
}

impl Builder<'_> {
    fn arr(&mut self, rel: usize, key: Vec<usize>, val: Vec<usize>, for_anti: bool) -> Result<usize, String> {
        if key.len() > self.kw || val.len() > self.vw {
            return Err(format!("a join needs {} key and {} carried columns; the widest engine preset supports {} and {}", key.len(), val.len(), self.kw, self.vw));
        }
        let distinct = for_anti && key.len() + val.len() < self.arity[rel];
        let spec = ArrSpec { rel, key, val, distinct };
        if let Some(&id) = self.arr_ids.get(&spec) {
            return Ok(id);
        }
        let id = self.arrs.len();
        self.arrs.push(spec.clone());
        self.arr_ids.insert(spec, id);
        Ok(id)
    }

    fn canonical(&self, col: usize) -> Src {
        if col < self.kw {
            Src::K(col as u8)
        } else {
            Src::A((col - self.kw) as u8)
        }
    }

    fn rule(&mut self, rule: &Rule, in_scc: &dyn Fn(usize) -> bool, label: String) -> Result<RulePlan, String> {
        let mut body = Body::new(rule);
        let recursive = body.remaining.iter().any(|a| in_scc(a.rel));
        // A recursive rule starts from its recursive atom, so the first join's left side is
        // always an arrangement built inside the loop.
        if let Some(i) = body.remaining.iter().position(|a| in_scc(a.rel)) {
            let a = body.remaining.remove(i);
            body.remaining.insert(0, a);
        }
        let mut pending = self.first_producer(&mut body)?;
        apply_constraints(&mut body.bound, &mut body.filters, &mut body.cmps);

        let mut source: Option<Source> = None;
        let mut steps: Vec<Step> = Vec::new();
        loop {
            let (emit, next) = self.next_step(&mut body, &rule.head)?;
            if emit.key.len() > self.kw || emit.val.len() > self.vw {
                return Err(format!("an intermediate result needs {} key and {} carried values; the widest engine preset supports {} and {}", emit.key.len(), emit.val.len(), self.kw, self.vw));
            }
            // Finish the current producer with the layout the next step needs.
            match pending {
                Pending::Unit => source = Some(Source::Unit(emit)),
                Pending::Scan(rel) => source = Some(Source::Scan { rel, emit }),
                Pending::Join(left, right) => source = Some(Source::Join { left, right, emit }),
                Pending::Step(Step::Join { right, .. }) => steps.push(Step::Join { right, emit }),
                Pending::Step(Step::Anti { set, .. }) => steps.push(Step::Anti { set, emit }),
            }
            match next {
                None => break,
                Some(p) => {
                    pending = p;
                    apply_constraints(&mut body.bound, &mut body.filters, &mut body.cmps);
                }
            }
        }
        let source = source.ok_or_else(|| "internal: rule without a source".to_string())?;
        Ok(RulePlan { head: rule.head.rel, source, steps, recursive, label })
    }

    /// The rule's first producer: nothing, a scan of its only positive atom, or a join of the
    /// first two (the second chosen to share variables with the first).
    fn first_producer(&mut self, body: &mut Body) -> Result<Pending, String> {
        let nvars = body.bound.len();
        Ok(match body.remaining.len() {
            0 => Pending::Unit,
            1 => {
                let a = body.remaining.remove(0);
                for (col, arg) in a.args.iter().enumerate() {
                    bind_or_filter(&mut body.bound, &mut body.filters, *arg, self.canonical(col));
                }
                Pending::Scan(a.rel)
            }
            _ => {
                let a1 = body.remaining.remove(0);
                let bound1: Vec<bool> = (0..nvars).map(|v| a1.args.contains(&Arg::Var(v as u32))).collect();
                let i2 = pick_next(&body.remaining, &bound1);
                let a2 = body.remaining.remove(i2);
                let mut shared: Vec<u32> = Vec::new();
                for arg in &a2.args {
                    if let Arg::Var(v) = arg {
                        if bound1[*v as usize] && !shared.contains(v) {
                            shared.push(*v);
                        }
                    }
                }
                let first_col = |a: &AtomIr, v: u32| a.args.iter().position(|x| *x == Arg::Var(v)).unwrap_or(0);
                let lkey: Vec<usize> = shared.iter().map(|&v| first_col(a1, v)).collect();
                let rkey: Vec<usize> = shared.iter().map(|&v| first_col(a2, v)).collect();
                for (i, &v) in shared.iter().enumerate() {
                    body.bound[v as usize] = Some(Src::K(i as u8));
                }
                let lval: Vec<usize> = (0..a1.args.len()).filter(|c| !lkey.contains(c) && a1.args[*c] != Arg::Wild).collect();
                let rval: Vec<usize> = (0..a2.args.len()).filter(|c| !rkey.contains(c) && a2.args[*c] != Arg::Wild).collect();
                for (j, &c) in lval.iter().enumerate() {
                    bind_or_filter(&mut body.bound, &mut body.filters, a1.args[c], Src::A(j as u8));
                }
                for (j, &c) in rval.iter().enumerate() {
                    bind_or_filter(&mut body.bound, &mut body.filters, a2.args[c], Src::B(j as u8));
                }
                let left = self.arr(a1.rel, lkey, lval, false)?;
                let right = self.arr(a2.rel, rkey, rval, false)?;
                Pending::Join(left, right)
            }
        })
    }

    /// Chooses the next literal and returns the layout the current producer must emit for it,
    /// with the step that consumes it (`None` once only the head is left). `body` moves on to
    /// the variables' places in that step.
    ///
    /// A ready negation goes first (it only removes rows), else the next positive atom. When that
    /// choice would carry more values than the preset holds, the first other ready literal that
    /// fits is taken instead: typically a fully bound atom, which lets a negation after it carry
    /// fewer values, so that the rule runs on narrower rows.
    fn next_step(&mut self, body: &mut Body, head: &AtomIr) -> Result<(Emit, Option<Pending>), String> {
        let bound_set: Vec<bool> = body.bound.iter().map(|b| b.is_some()).collect();
        let is_bound = |a: &AtomIr| a.args.iter().all(|x| !matches!(x, Arg::Var(v) if !bound_set[*v as usize]));
        let mut choices: Vec<Choice> = body.negs.iter().enumerate().filter(|(_, n)| is_bound(n)).map(|(i, _)| Choice::Neg(i)).collect();
        if !body.remaining.is_empty() {
            choices.push(Choice::Pos(pick_next(&body.remaining, &bound_set)));
            choices.extend(body.remaining.iter().enumerate().filter(|(_, a)| is_bound(a)).map(|(i, _)| Choice::Pos(i)));
        }
        let choice = choices.iter().copied().find(|&c| self.fits(body, head, c)).or(choices.first().copied());
        let Some(choice) = choice else {
            let srcs: Vec<Src> = head
                .args
                .iter()
                .map(|a| match a {
                    Arg::Var(v) => body.bound[*v as usize].unwrap_or(Src::C(0)),
                    Arg::Const(c) => Src::C(*c),
                    Arg::Wild => Src::C(0),
                })
                .collect();
            let split = srcs.len().min(self.kw);
            return Ok((Emit { key: srcs[..split].to_vec(), val: srcs[split..].to_vec(), filters: std::mem::take(&mut body.filters) }, None));
        };
        let atom = match choice {
            Choice::Neg(i) => body.negs.remove(i),
            Choice::Pos(i) => body.remaining.remove(i),
        };
        let (key_cols, key_srcs, key_vars, val_vars) = body.layout(atom, head);
        let emit = Emit { key: key_srcs, val: val_vars.iter().map(|v| body.bound[*v as usize].unwrap_or(Src::C(0))).collect(), filters: std::mem::take(&mut body.filters) };
        body.bound = relayout(body.bound.len(), &key_vars, &val_vars);
        let step = match choice {
            Choice::Neg(_) => Step::Anti { set: self.arr(atom.rel, key_cols, Vec::new(), true)?, emit: Emit::default() },
            Choice::Pos(_) => {
                let rval: Vec<usize> = (0..atom.args.len()).filter(|c| !key_cols.contains(c) && atom.args[*c] != Arg::Wild).collect();
                for (j, &c) in rval.iter().enumerate() {
                    bind_or_filter(&mut body.bound, &mut body.filters, atom.args[c], Src::B(j as u8));
                }
                Step::Join { right: self.arr(atom.rel, key_cols, rval, false)?, emit: Emit::default() }
            }
        };
        Ok((emit, Some(Pending::Step(step))))
    }

    /// True if planning `choice` next keeps the producer's output and the atom's arrangement
    /// within the preset's widths.
    fn fits(&self, body: &Body, head: &AtomIr, choice: Choice) -> bool {
        let mut rest = Body { remaining: body.remaining.clone(), negs: body.negs.clone(), cmps: body.cmps.clone(), bound: body.bound.clone(), filters: Vec::new() };
        let atom = match choice {
            Choice::Neg(i) => rest.negs.remove(i),
            Choice::Pos(i) => rest.remaining.remove(i),
        };
        let (key_cols, _, _, val_vars) = rest.layout(atom, head);
        let carried = match choice {
            Choice::Neg(_) => 0,
            Choice::Pos(_) => (0..atom.args.len()).filter(|c| !key_cols.contains(c) && atom.args[*c] != Arg::Wild).count(),
        };
        key_cols.len() <= self.kw && val_vars.len() <= self.vw && carried <= self.vw
    }
}

/// What is left of a rule's body while it is planned, and where each bound variable sits.
struct Body<'r> {
    remaining: Vec<&'r AtomIr>,
    negs: Vec<&'r AtomIr>,
    cmps: Vec<(Arg, CmpOp, Arg)>,
    bound: Vec<Option<Src>>,
    filters: Vec<Filter>,
}

/// The next literal to plan: a negation or a positive atom, by index.
#[derive(Clone, Copy)]
enum Choice {
    Neg(usize),
    Pos(usize),
}

impl<'r> Body<'r> {
    fn new(rule: &'r Rule) -> Body<'r> {
        let mut b = Body { remaining: Vec::new(), negs: Vec::new(), cmps: Vec::new(), bound: vec![None; rule.var_names.len()], filters: Vec::new() };
        for l in &rule.body {
            match l {
                Lit::Pos(a) => b.remaining.push(a),
                Lit::Neg(a) => b.negs.push(a),
                Lit::Cmp(a, op, c) => b.cmps.push((*a, *op, *c)),
            }
        }
        b
    }

    /// The join key with `atom` (already removed from the body) and the bound variables that
    /// later literals or the head still need, carried as values.
    fn layout(&self, atom: &AtomIr, head: &AtomIr) -> (Vec<usize>, Vec<Src>, Vec<Option<u32>>, Vec<u32>) {
        let nvars = self.bound.len();
        let (key_cols, key_srcs, key_vars) = key_terms(atom, &self.bound);
        let live = live_vars(nvars, &self.remaining, &self.negs, &self.cmps, head);
        let val_vars: Vec<u32> = (0..nvars as u32).filter(|v| live[*v as usize] && self.bound[*v as usize].is_some() && !key_vars.contains(&Some(*v))).collect();
        (key_cols, key_srcs, key_vars, val_vars)
    }
}

/// Binds a variable to `src` on first sight; later sightings and constants become filters.
fn bind_or_filter(bound: &mut [Option<Src>], filters: &mut Vec<Filter>, arg: Arg, src: Src) {
    match arg {
        Arg::Var(v) => match bound[v as usize] {
            None => bound[v as usize] = Some(src),
            Some(prev) => filters.push(Filter { a: prev, op: CmpOp::Eq, b: src }),
        },
        Arg::Const(c) => filters.push(Filter { a: src, op: CmpOp::Eq, b: Src::C(c) }),
        Arg::Wild => {}
    }
}

/// Binds variables through `x = t` once `t` is bound, and turns fully bound comparisons into filters.
fn apply_constraints(bound: &mut [Option<Src>], filters: &mut Vec<Filter>, cmps: &mut Vec<(Arg, CmpOp, Arg)>) {
    let src = |bound: &[Option<Src>], a: Arg| match a {
        Arg::Var(v) => bound[v as usize],
        Arg::Const(c) => Some(Src::C(c)),
        Arg::Wild => None,
    };
    loop {
        let mut changed = false;
        cmps.retain(|&(a, op, b)| {
            if op != CmpOp::Eq {
                return true;
            }
            for (x, y) in [(a, b), (b, a)] {
                if let (Arg::Var(v), Some(s)) = (x, src(bound, y)) {
                    if bound[v as usize].is_none() {
                        bound[v as usize] = Some(s);
                        changed = true;
                        return false;
                    }
                }
            }
            true
        });
        if !changed {
            break;
        }
    }
    cmps.retain(|&(a, op, b)| match (src(bound, a), src(bound, b)) {
        (Some(x), Some(y)) => {
            filters.push(Filter { a: x, op, b: y });
            false
        }
        _ => true,
    });
}

/// The next atom to join: the first (in written order) that shares a bound variable, else the first.
fn pick_next(remaining: &[&AtomIr], bound: &[bool]) -> usize {
    remaining.iter().position(|a| a.args.iter().any(|x| matches!(x, Arg::Var(v) if bound[*v as usize]))).unwrap_or(0)
}

/// The key of a join or antijoin with `a`: its bound-variable and constant columns, in column
/// order, with where the current closure finds each value, and the variable (if any) in each slot.
fn key_terms(a: &AtomIr, bound: &[Option<Src>]) -> (Vec<usize>, Vec<Src>, Vec<Option<u32>>) {
    let mut cols = Vec::new();
    let mut srcs = Vec::new();
    let mut vars = Vec::new();
    for (c, arg) in a.args.iter().enumerate() {
        match arg {
            Arg::Var(v) => {
                if let Some(s) = bound[*v as usize] {
                    cols.push(c);
                    srcs.push(s);
                    vars.push(Some(*v));
                }
            }
            Arg::Const(k) => {
                cols.push(c);
                srcs.push(Src::C(*k));
                vars.push(None);
            }
            Arg::Wild => {}
        }
    }
    (cols, srcs, vars)
}

/// Where each carried variable sits in the next closure: key variables in `K`, others in `A`.
fn relayout(nvars: usize, key_vars: &[Option<u32>], val_vars: &[u32]) -> Vec<Option<Src>> {
    let mut nb = vec![None; nvars];
    for (i, v) in key_vars.iter().enumerate() {
        if let Some(v) = v {
            if nb[*v as usize].is_none() {
                nb[*v as usize] = Some(Src::K(i as u8));
            }
        }
    }
    for (j, v) in val_vars.iter().enumerate() {
        nb[*v as usize] = Some(Src::A(j as u8));
    }
    nb
}

/// Variables still needed by later atoms, negations, comparisons or the head.
fn live_vars(nvars: usize, remaining: &[&AtomIr], negs: &[&AtomIr], cmps: &[(Arg, CmpOp, Arg)], head: &AtomIr) -> Vec<bool> {
    let mut live = vec![false; nvars];
    let mut mark = |a: &Arg| {
        if let Arg::Var(v) = a {
            live[*v as usize] = true;
        }
    };
    for a in remaining.iter().chain(negs.iter()).chain(std::iter::once(&head)) {
        a.args.iter().for_each(&mut mark);
    }
    for (a, _, b) in cmps {
        mark(a);
        mark(b);
    }
    live
}

impl Plan {
    /// `rel[key columns | carried columns]`, for operator names and `explain`.
    pub(crate) fn describe_arr(&self, id: usize, names: &[String]) -> String {
        let a = &self.arrs[id];
        let cols = |v: &[usize]| v.iter().map(|c| self.columns[a.rel][*c].clone()).collect::<Vec<_>>().join(",");
        format!("{}[{} | {}]{}", names[a.rel], cols(&a.key), cols(&a.val), if a.distinct { " distinct" } else { "" })
    }

    /// A readable description of the plan.
    pub(crate) fn explain(&self, rels: &[RelationInfo]) -> String {
        let mut s = String::new();
        let name = |r: usize| rels[r].name.as_str();
        let arr = |id: usize| format!("#{id} {}", self.describe_arr(id, &self.names));
        let _ = writeln!(s, "engine preset: key width {}, value width {}", self.key_width, self.val_width);
        for (i, st) in self.strata.iter().enumerate() {
            let names: Vec<&str> = st.rels.iter().map(|&r| name(r)).collect();
            let _ = writeln!(s, "stratum {i}{}: {}", if st.recursive { " (recursive)" } else { "" }, names.join(", "));
            if let Some(h) = self.attached.iter().position(|a| a.contains(&i)) {
                let _ = writeln!(s, "  evaluated in the loop of stratum {h}, sharing its arrangements");
            }
            let list = |v: &[usize]| v.iter().map(|&r| name(r)).collect::<Vec<_>>().join(", ");
            if !st.inline.is_empty() {
                let _ = writeln!(s, "  computed inline each round: {}", list(&st.inline));
            }
            if !st.set_valued.is_empty() && !st.rules.is_empty() {
                let _ = writeln!(s, "  no distinct needed: {}", list(&st.set_valued));
            }
            for r in &st.rules {
                let _ = writeln!(s, "  {}{}", r.label, if r.recursive { " (in the loop)" } else { "" });
                match &r.source {
                    Source::Unit(_) => {
                        let _ = writeln!(s, "    start from one empty row");
                    }
                    Source::Scan { rel, .. } => {
                        let _ = writeln!(s, "    scan {}", name(*rel));
                    }
                    Source::Join { left, right, .. } => {
                        let _ = writeln!(s, "    join {} with {}", arr(*left), arr(*right));
                    }
                }
                for st in &r.steps {
                    let _ = match st {
                        Step::Join { right, .. } => writeln!(s, "    join with {}", arr(*right)),
                        Step::Anti { set, .. } => writeln!(s, "    remove rows found in {}", arr(*set)),
                    };
                }
            }
        }
        s
    }
}
