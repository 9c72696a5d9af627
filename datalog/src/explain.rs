//! Why a tuple holds: a proof tree of minimal height, as Soufflé's `-t explain` gives one.
//!
//! The engine keeps no provenance (recording it would cost every run), so a proof is found
//! afterwards, from the final relations alone. [`Model::evaluate`] runs the program once with
//! every relation observed, then gives each tuple its height by a breadth-first pass over those
//! final relations: input tuples (and facts written in the rules) have height 0, and a derived
//! tuple has height `h` when some rule derives it from positive body tuples of height below `h`
//! with at least one of height `h - 1` (the level at which naive evaluation would first find
//! it). The pass is semi-naive: level `h` only joins instantiations that use a tuple of height
//! `h - 1`. Negated atoms are checked for absence in the final relations, which is their
//! meaning under stratified negation, so they contribute no height. [`Model::explain`] then
//! builds the tree top-down: for a tuple of height `h`, the first rule (in program order) and
//! the first substitution (in the sorted order of the relations) whose positive body tuples all
//! have height below `h`. Every tuple of the tree therefore has a derivation of minimal height,
//! and the tree is the same whatever the number of workers evaluated the program.

use hashbrown::{HashMap, HashSet};

use crate::engine::{Engine, EngineConfig};
use crate::program::{Arg, Lit, Program, Rule};
use crate::syntax::ast::CmpOp;
use crate::value::{ColumnType, Tuples, Value};

/// No height yet.
const UNSET: u32 = u32::MAX;

/// A derived tuple expanded more than once in one tree is shown once; nodes beyond this many
/// are not expanded (a proof of a long chain can be large).
pub const MAX_NODES: usize = 2000;

/// The rule that derived a tuple.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleRef {
    /// Its index among the program's rules (a disjunction counts once per disjunct).
    pub index: usize,
    /// The rule as text, its variables by their names.
    pub text: String,
    /// The rule file it is in.
    pub file: String,
    /// Its line there.
    pub line: u32,
}

/// A proof of one tuple: the rule that derived it and proofs of the tuples its positive body
/// atoms matched, in body order. An input tuple has no rule and no children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The relation.
    pub relation: String,
    /// The tuple, in API form (numbers as their bit pattern, symbols as ids).
    pub tuple: Vec<u32>,
    /// The height of its smallest proof (0 for an input tuple).
    pub height: u32,
    /// The rule; `None` for an input tuple or a fact written in the rules.
    pub rule: Option<RuleRef>,
    /// Proofs of the positive body tuples, in body order.
    pub children: Vec<Proof>,
    /// Its proof was given earlier in the same tree, or the tree reached [`MAX_NODES`]: the
    /// children are left out.
    pub elided: bool,
}

impl Proof {
    /// Number of nodes of the tree.
    pub fn size(&self) -> usize {
        1 + self.children.iter().map(Proof::size).sum::<usize>()
    }
}

/// One step of a join: how the next body literal is matched.
#[derive(Clone, Debug)]
enum Step {
    /// Enumerate the rows of a positive atom that agree with the bound columns `cols`.
    Scan { lit: usize, cols: Vec<usize> },
    /// A negation whose non-wildcard columns `cols` are bound: no row may agree.
    Absent { lit: usize, cols: Vec<usize> },
    /// A comparison with both sides bound.
    Compare(usize),
    /// `var = arg` with `arg` bound.
    Bind { var: u32, from: Arg },
}

/// One relation's final tuples, flat and in the engine's internal encoding, with heights.
struct Rel {
    arity: usize,
    data: Vec<u32>,
    height: Vec<u32>,
}

impl Rel {
    fn row(&self, i: u32) -> &[u32] {
        &self.data[i as usize * self.arity..(i as usize + 1) * self.arity]
    }
    fn len(&self) -> usize {
        self.height.len()
    }
}

/// Rows of one relation by the values of some of their columns.
type Index = HashMap<Vec<u32>, Vec<u32>>;

/// The final relations of one evaluation, with the height of every tuple.
pub struct Model {
    program: Program,
    rels: Vec<Rel>,
    /// Per (relation, bound columns), in increasing row order.
    indexes: HashMap<(usize, Vec<usize>), Index>,
    /// Per rule: its plan with the head bound (top-down), and per positive literal its plan
    /// with that literal seeded (bottom-up).
    head_plans: Vec<Vec<Step>>,
    seed_plans: Vec<Vec<(usize, Vec<Step>)>>,
}

/// Matches `args` against `row` under `bind`, binding unbound variables; false on a clash.
fn unify(args: &[Arg], row: &[u32], bind: &mut [Option<u32>], undo: &mut Vec<u32>) -> bool {
    for (a, &v) in args.iter().zip(row) {
        match a {
            Arg::Const(c) if *c != v => return false,
            Arg::Var(x) => match bind[*x as usize] {
                Some(b) if b != v => return false,
                Some(_) => {}
                None => {
                    bind[*x as usize] = Some(v);
                    undo.push(*x);
                }
            },
            _ => {}
        }
    }
    true
}

fn value(a: &Arg, bind: &[Option<u32>]) -> Option<u32> {
    match a {
        Arg::Const(c) => Some(*c),
        Arg::Var(v) => bind[*v as usize],
        Arg::Wild => None,
    }
}

/// A join plan for `rule` from the variables `bound`, leaving out literal `skip` (the seed):
/// checks as soon as their arguments are bound, then the atom with most bound columns.
fn plan(rule: &Rule, mut bound: Vec<bool>, skip: Option<usize>) -> Vec<Step> {
    let is_bound = |a: &Arg, bound: &[bool]| match a {
        Arg::Var(v) => bound[*v as usize],
        _ => true,
    };
    let mut left: Vec<usize> = (0..rule.body.len()).filter(|&i| Some(i) != skip).collect();
    let mut steps = Vec::new();
    while !left.is_empty() {
        let ready = left.iter().position(|&i| match &rule.body[i] {
            Lit::Neg(a) => a.args.iter().all(|x| matches!(x, Arg::Wild) || is_bound(x, &bound)),
            Lit::Cmp(a, _, b) => is_bound(a, &bound) && is_bound(b, &bound),
            Lit::Pos(_) => false,
        });
        if let Some(k) = ready {
            let i = left.remove(k);
            steps.push(match &rule.body[i] {
                Lit::Neg(a) => Step::Absent { lit: i, cols: (0..a.args.len()).filter(|&c| !matches!(a.args[c], Arg::Wild)).collect() },
                _ => Step::Compare(i),
            });
            continue;
        }
        let binds = left.iter().position(|&i| match &rule.body[i] {
            Lit::Cmp(a, CmpOp::Eq, b) => is_bound(a, &bound) != is_bound(b, &bound),
            _ => false,
        });
        if let Some(k) = binds {
            let i = left.remove(k);
            if let Lit::Cmp(a, _, b) = &rule.body[i] {
                let (var, from) = if is_bound(a, &bound) { (b, a) } else { (a, b) };
                if let Arg::Var(v) = var {
                    bound[*v as usize] = true;
                    steps.push(Step::Bind { var: *v, from: *from });
                }
            }
            continue;
        }
        let scan = left
            .iter()
            .enumerate()
            .filter_map(|(k, &i)| match &rule.body[i] {
                Lit::Pos(a) => Some((k, i, a.args.iter().filter(|x| !matches!(x, Arg::Wild) && is_bound(x, &bound)).count())),
                _ => None,
            })
            .max_by_key(|&(k, _, n)| (n, std::cmp::Reverse(k)));
        // A checked program is range-restricted: some positive atom is always left here.
        let Some((k, i, _)) = scan else { break };
        left.remove(k);
        if let Lit::Pos(a) = &rule.body[i] {
            let cols = (0..a.args.len()).filter(|&c| !matches!(a.args[c], Arg::Wild) && is_bound(&a.args[c], &bound)).collect();
            for x in &a.args {
                if let Arg::Var(v) = x {
                    bound[*v as usize] = true;
                }
            }
            steps.push(Step::Scan { lit: i, cols });
        }
    }
    steps
}

/// Where a join is: the bindings, and the row each positive literal matched so far.
struct Join {
    bind: Vec<Option<u32>>,
    rows: Vec<(usize, u32)>,
}

impl Model {
    /// Evaluates `program` on `inputs` (rows in API form, per input relation) with `workers`
    /// timely workers, observing every relation, and gives every final tuple its height.
    pub fn evaluate(program: &Program, inputs: &[(&str, &[Vec<u32>])], workers: usize) -> Result<Model, String> {
        let mut engine = Engine::with_config(program, &EngineConfig { workers, observe_all: true, ..EngineConfig::default() }).map_err(|e| e.to_string())?;
        for (name, rows) in inputs {
            engine.insert(name, rows.iter().map(Vec::as_slice)).map_err(|e| e.to_string())?;
        }
        engine.advance().map_err(|e| e.to_string())?;
        let mut finals = Vec::with_capacity(program.relations.len());
        for info in &program.relations {
            finals.push(engine.relation(&info.name).map_err(|e| e.to_string())?);
        }
        drop(engine);
        let mut given: Vec<HashSet<Vec<u32>>> = vec![HashSet::new(); program.relations.len()];
        for (name, rows) in inputs {
            let r = program.by_name[*name];
            let cols = &program.relations[r].columns;
            given[r].extend(rows.iter().map(|t| t.iter().zip(cols).map(|(&v, c)| c.ty.flip(v)).collect::<Vec<u32>>()));
        }
        for (r, t) in &program.facts {
            given[*r].insert(t.clone());
        }
        Model::build(program, &finals, &given)
    }

    fn build(program: &Program, finals: &[Tuples], given: &[HashSet<Vec<u32>>]) -> Result<Model, String> {
        let mut rels = Vec::with_capacity(finals.len());
        for (info, t) in program.relations.iter().zip(finals) {
            let mut data = Vec::with_capacity(t.len() * info.arity());
            for row in t.iter() {
                data.extend(row.iter().zip(&info.columns).map(|(&v, c)| c.ty.flip(v)));
            }
            rels.push(Rel { arity: info.arity(), data, height: vec![UNSET; t.len()] });
        }
        let rules = &program.rules;
        let head_plans = rules
            .iter()
            .map(|r| {
                let mut bound = vec![false; r.var_names.len()];
                for a in &r.head.args {
                    if let Arg::Var(v) = a {
                        bound[*v as usize] = true;
                    }
                }
                plan(r, bound, None)
            })
            .collect();
        let seed_plans = rules
            .iter()
            .map(|r| {
                (0..r.body.len())
                    .filter_map(|i| match &r.body[i] {
                        Lit::Pos(a) => {
                            let mut bound = vec![false; r.var_names.len()];
                            for x in &a.args {
                                if let Arg::Var(v) = x {
                                    bound[*v as usize] = true;
                                }
                            }
                            Some((i, plan(r, bound, Some(i))))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let mut model = Model { program: program.clone(), rels, indexes: HashMap::new(), head_plans, seed_plans };
        let mut wanted: Vec<(usize, Vec<usize>)> = Vec::new();
        for (ri, rule) in rules.iter().enumerate() {
            wanted.push((rule.head.rel, (0..rule.head.args.len()).collect()));
            let plans = std::iter::once(&model.head_plans[ri]).chain(model.seed_plans[ri].iter().map(|(_, p)| p));
            for steps in plans {
                for s in steps {
                    if let Step::Scan { lit, cols } | Step::Absent { lit, cols } = s {
                        if let Lit::Pos(a) | Lit::Neg(a) = &rule.body[*lit] {
                            wanted.push((a.rel, cols.clone()));
                        }
                    }
                }
            }
        }
        // Every relation by its whole tuple: to find a tuple's row.
        wanted.extend(model.rels.iter().enumerate().map(|(r, rel)| (r, (0..rel.arity).collect())));
        for key in wanted {
            if model.indexes.contains_key(&key) {
                continue;
            }
            let rel = &model.rels[key.0];
            let mut index: Index = HashMap::new();
            for i in 0..rel.len() as u32 {
                let row = rel.row(i);
                index.entry(key.1.iter().map(|&c| row[c]).collect()).or_default().push(i);
            }
            model.indexes.insert(key, index);
        }
        model.heights(given)?;
        Ok(model)
    }

    /// The row of `tuple` (internal form) in relation `r`.
    fn find(&self, r: usize, tuple: &[u32]) -> Option<u32> {
        let rel = &self.rels[r];
        let all: Vec<usize> = (0..rel.arity).collect();
        match self.indexes.get(&(r, all)) {
            Some(ix) => ix.get(tuple).and_then(|v| v.first().copied()),
            None => (0..rel.len() as u32).find(|&i| rel.row(i) == tuple),
        }
    }

    /// Runs `steps` of `rule` from `j`, calling `found` on each complete substitution (with the
    /// rows of the positive literals) until it returns true; positive rows must have a height
    /// of at most `limit`.
    fn join(&self, rule: &Rule, steps: &[Step], j: &mut Join, limit: u32, found: &mut dyn FnMut(&Join) -> bool) -> bool {
        let Some((step, rest)) = steps.split_first() else { return found(j) };
        match step {
            Step::Compare(i) => {
                let Lit::Cmp(a, op, b) = &rule.body[*i] else { return false };
                match (value(a, &j.bind), value(b, &j.bind)) {
                    (Some(x), Some(y)) if op.holds(x, y) => self.join(rule, rest, j, limit, found),
                    _ => false,
                }
            }
            Step::Bind { var, from } => {
                let Some(v) = value(from, &j.bind) else { return false };
                j.bind[*var as usize] = Some(v);
                let stop = self.join(rule, rest, j, limit, found);
                j.bind[*var as usize] = None;
                stop
            }
            Step::Absent { lit, cols } => {
                let Lit::Neg(a) = &rule.body[*lit] else { return false };
                let key: Vec<u32> = cols.iter().filter_map(|&c| value(&a.args[c], &j.bind)).collect();
                let present = self.indexes.get(&(a.rel, cols.clone())).is_some_and(|ix| ix.contains_key(&key));
                !present && self.join(rule, rest, j, limit, found)
            }
            Step::Scan { lit, cols } => {
                let Lit::Pos(a) = &rule.body[*lit] else { return false };
                let key: Vec<u32> = cols.iter().filter_map(|&c| value(&a.args[c], &j.bind)).collect();
                let Some(rows) = self.indexes.get(&(a.rel, cols.clone())).and_then(|ix| ix.get(&key)) else { return false };
                let rel = &self.rels[a.rel];
                let mut undo = Vec::new();
                for &row in rows {
                    if rel.height[row as usize] > limit {
                        continue;
                    }
                    if unify(&a.args, rel.row(row), &mut j.bind, &mut undo) {
                        j.rows.push((*lit, row));
                        let stop = self.join(rule, rest, j, limit, found);
                        j.rows.pop();
                        if stop {
                            for v in undo.drain(..) {
                                j.bind[v as usize] = None;
                            }
                            return true;
                        }
                    }
                    for v in undo.drain(..) {
                        j.bind[v as usize] = None;
                    }
                }
                false
            }
        }
    }

    /// The head tuple of `rule` under complete bindings.
    fn head(rule: &Rule, bind: &[Option<u32>]) -> Vec<u32> {
        rule.head.args.iter().map(|a| value(a, bind).unwrap_or(0)).collect()
    }

    /// The breadth-first pass: heights level by level, each level joining only instantiations
    /// that use a tuple of the level before.
    fn heights(&mut self, given: &[HashSet<Vec<u32>>]) -> Result<(), String> {
        let mut delta: Vec<(usize, u32)> = Vec::new();
        for (r, set) in given.iter().enumerate() {
            for t in set {
                if let Some(i) = self.find(r, t) {
                    if self.rels[r].height[i as usize] == UNSET {
                        self.rels[r].height[i as usize] = 0;
                        delta.push((r, i));
                    }
                }
            }
        }
        let rules = std::sync::Arc::clone(&self.program.rules);
        let mut level = 0u32;
        loop {
            let mut by_rel: HashMap<usize, Vec<u32>> = HashMap::new();
            for &(r, i) in &delta {
                by_rel.entry(r).or_default().push(i);
            }
            let mut new: Vec<(usize, Vec<u32>)> = Vec::new();
            let mut missing: Option<String> = None;
            for (ri, rule) in rules.iter().enumerate() {
                let mut record = |j: &Join| {
                    new.push((rule.head.rel, Model::head(rule, &j.bind)));
                    false
                };
                if self.seed_plans[ri].is_empty() {
                    // No positive atom: derived at level 1 if at all.
                    if level == 0 {
                        let mut j = Join { bind: vec![None; rule.var_names.len()], rows: Vec::new() };
                        self.join(rule, &self.head_plans_free(ri), &mut j, level, &mut record);
                    }
                    continue;
                }
                for (lit, steps) in &self.seed_plans[ri] {
                    let Lit::Pos(a) = &rule.body[*lit] else { continue };
                    let Some(rows) = by_rel.get(&a.rel) else { continue };
                    for &row in rows {
                        let mut j = Join { bind: vec![None; rule.var_names.len()], rows: vec![(*lit, row)] };
                        let mut undo = Vec::new();
                        if unify(&a.args, self.rels[a.rel].row(row), &mut j.bind, &mut undo) {
                            self.join(rule, steps, &mut j, level, &mut record);
                        }
                    }
                }
            }
            delta.clear();
            for (r, t) in new {
                match self.find(r, &t) {
                    Some(i) => {
                        if self.rels[r].height[i as usize] == UNSET {
                            self.rels[r].height[i as usize] = level + 1;
                            delta.push((r, i));
                        }
                    }
                    None => missing = missing.or_else(|| Some(self.show(r, &t))),
                }
            }
            if let Some(t) = missing {
                return Err(format!("the rules derive {t} from the final relations, which do not hold it (an evaluation bug)"));
            }
            if delta.is_empty() {
                break;
            }
            level += 1;
        }
        for (r, rel) in self.rels.iter().enumerate() {
            if let Some(i) = rel.height.iter().position(|&h| h == UNSET) {
                return Err(format!("no rule derives {} from the final relations (an evaluation bug)", self.show(r, rel.row(i as u32))));
            }
        }
        Ok(())
    }

    /// The plan of a rule without positive atoms: its checks, in order.
    fn head_plans_free(&self, ri: usize) -> Vec<Step> {
        plan(&self.program.rules[ri], vec![false; self.program.rules[ri].var_names.len()], None)
    }

    /// `rel(v, ...)` with the values decoded.
    fn show(&self, r: usize, internal: &[u32]) -> String {
        let info = &self.program.relations[r];
        let vals: Vec<String> = internal.iter().zip(&info.columns).map(|(&v, c)| Value::decode(c.ty, c.ty.flip(v), &self.program.symbols).to_string()).collect();
        format!("{}({})", info.name, vals.join(", "))
    }

    /// The final tuples of relation `name`, sorted, in API form.
    pub fn relation(&self, name: &str) -> Option<Tuples> {
        let r = *self.program.by_name.get(name)?;
        let (info, rel) = (&self.program.relations[r], &self.rels[r]);
        let data: Vec<u32> = rel.data.chunks(rel.arity.max(1)).flat_map(|row| row.iter().zip(&info.columns).map(|(&v, c)| c.ty.flip(v)).collect::<Vec<u32>>()).collect();
        Tuples::from_flat(rel.arity, data, rel.len()).ok()
    }

    /// The height of `tuple` (API form) in relation `name`, if it holds.
    pub fn height(&self, name: &str, tuple: &[u32]) -> Option<u32> {
        let r = *self.program.by_name.get(name)?;
        let internal = self.internal(r, tuple)?;
        self.find(r, &internal).map(|i| self.rels[r].height[i as usize])
    }

    fn internal(&self, r: usize, tuple: &[u32]) -> Option<Vec<u32>> {
        let info = &self.program.relations[r];
        (tuple.len() == info.arity()).then(|| tuple.iter().zip(&info.columns).map(|(&v, c)| c.ty.flip(v)).collect())
    }

    /// A proof of minimal height of `tuple` (API form) in relation `name`; `None` if it does
    /// not hold. A derived tuple met again in the same tree is not expanded twice, and nodes
    /// beyond [`MAX_NODES`] are not expanded at all ([`Proof::elided`]).
    pub fn explain(&self, name: &str, tuple: &[u32]) -> Option<Proof> {
        let r = *self.program.by_name.get(name)?;
        let row = self.find(r, &self.internal(r, tuple)?)?;
        let mut seen = HashSet::new();
        let mut nodes = 0;
        Some(self.prove(r, row, &mut seen, &mut nodes))
    }

    fn prove(&self, r: usize, row: u32, seen: &mut HashSet<(usize, u32)>, nodes: &mut usize) -> Proof {
        *nodes += 1;
        let (info, rel) = (&self.program.relations[r], &self.rels[r]);
        let tuple: Vec<u32> = rel.row(row).iter().zip(&info.columns).map(|(&v, c)| c.ty.flip(v)).collect();
        let height = rel.height[row as usize];
        let mut proof = Proof { relation: info.name.clone(), tuple, height, rule: None, children: Vec::new(), elided: false };
        if height == 0 {
            return proof;
        }
        let Some((ri, rows)) = self.derivation(r, row, height) else { return proof };
        proof.rule = Some(self.rule_ref(ri));
        if !seen.insert((r, row)) || *nodes >= MAX_NODES {
            proof.elided = true;
            return proof;
        }
        for (cr, crow) in rows {
            proof.children.push(self.prove(cr, crow, seen, nodes));
        }
        proof
    }

    /// The first rule and substitution deriving row `row` of `r` from tuples below `height`:
    /// the rule's index and the rows its positive literals matched, in body order.
    fn derivation(&self, r: usize, row: u32, height: u32) -> Option<(usize, Vec<(usize, u32)>)> {
        let target = self.rels[r].row(row).to_vec();
        for (ri, rule) in self.program.rules.iter().enumerate().filter(|(_, ru)| ru.head.rel == r) {
            let mut j = Join { bind: vec![None; rule.var_names.len()], rows: Vec::new() };
            let mut undo = Vec::new();
            if !unify(&rule.head.args, &target, &mut j.bind, &mut undo) {
                continue;
            }
            let mut got: Option<Vec<(usize, u32)>> = None;
            self.join(rule, &self.head_plans[ri], &mut j, height - 1, &mut |j: &Join| {
                got = Some(j.rows.clone());
                true
            });
            if let Some(mut rows) = got {
                rows.sort_unstable();
                let out = rows
                    .into_iter()
                    .filter_map(|(lit, crow)| match &rule.body[lit] {
                        Lit::Pos(a) => Some((a.rel, crow)),
                        _ => None,
                    })
                    .collect();
                return Some((ri, out));
            }
        }
        None
    }

    /// Rule `i` with its text and place.
    pub fn rule_ref(&self, i: usize) -> RuleRef {
        let rule = &self.program.rules[i];
        RuleRef { index: i, text: self.rule_text(rule), file: self.program.files.get(rule.pos.file as usize).cloned().unwrap_or_default(), line: rule.pos.line }
    }

    fn rule_text(&self, rule: &Rule) -> String {
        let arg = |a: &Arg, ty: ColumnType| match a {
            Arg::Var(v) => rule.var_names[*v as usize].clone(),
            Arg::Wild => "_".into(),
            Arg::Const(c) => match Value::decode(ty, ty.flip(*c), &self.program.symbols) {
                Value::Symbol(s) => format!("{s:?}"),
                v => v.to_string(),
            },
        };
        let atom = |a: &crate::program::AtomIr| {
            let cols = &self.program.relations[a.rel].columns;
            let args: Vec<String> = a.args.iter().zip(cols).map(|(x, c)| arg(x, c.ty)).collect();
            format!("{}({})", self.program.relations[a.rel].name, args.join(", "))
        };
        let body: Vec<String> = rule
            .body
            .iter()
            .map(|l| match l {
                Lit::Pos(a) => atom(a),
                Lit::Neg(a) => format!("!{}", atom(a)),
                // Constants in a comparison are shown as numbers: the checker typed them.
                Lit::Cmp(a, op, b) => format!("{} {} {}", arg(a, ColumnType::Number), op.symbol(), arg(b, ColumnType::Number)),
            })
            .collect();
        format!("{} :- {}.", atom(&rule.head), body.join(", "))
    }

    /// The values of `tuple` (API form) of relation `name`, symbols resolved.
    pub fn decode(&self, name: &str, tuple: &[u32]) -> Vec<Value> {
        let Some(info) = self.program.relation(name) else { return Vec::new() };
        tuple.iter().zip(&info.columns).map(|(&v, c)| Value::decode(c.ty, v, &self.program.symbols)).collect()
    }
}

/// What each column of each relation holds, from what some columns are known to hold:
/// a head column gets the label of a body column its variable also fills (the first positive
/// atom that has one), until nothing changes. For reading tuples of rules a user wrote
/// (`seeds`: the input columns the host knows), without declaring every derived relation.
pub fn column_labels<L: Clone>(program: &Program, seeds: &[(&str, usize, L)]) -> HashMap<(String, usize), L> {
    let mut labels: HashMap<(usize, usize), L> = HashMap::new();
    for (name, col, l) in seeds {
        if let Some(&r) = program.by_name.get(*name) {
            labels.insert((r, *col), l.clone());
        }
    }
    loop {
        let mut changed = false;
        for rule in program.rules.iter() {
            for (hc, a) in rule.head.args.iter().enumerate() {
                let Arg::Var(v) = a else { continue };
                if labels.contains_key(&(rule.head.rel, hc)) {
                    continue;
                }
                let from = rule.body.iter().find_map(|l| match l {
                    Lit::Pos(b) => b.args.iter().enumerate().find_map(|(c, x)| (*x == Arg::Var(*v)).then(|| labels.get(&(b.rel, c)).cloned()).flatten()),
                    _ => None,
                });
                if let Some(l) = from {
                    labels.insert((rule.head.rel, hc), l);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    labels.into_iter().map(|((r, c), l)| ((program.relations[r].name.clone(), c), l)).collect()
}
