//! The control module's input: the program exported as Datalog facts for the interference
//! rules (`rules/interference.dl`), evaluated incrementally from round to round.
//!
//! The compatibility test "ι♯(v) ∧ enabled(u) satisfiable" is split between Rust and the
//! rules. Rust decides, per location and observable condition, which truth values the
//! invariant allows (`cond_val`): that needs the numerical domain, which Datalog does not
//! have, and each test only over-approximates satisfiability (a truth value is dropped only
//! when guarding the invariant with it gives bottom). The rules then combine those facts with
//! what each step needs (`needs`, `acquires`/`holds`, `atomic`), which keeps the quadratic
//! pairing of locations inside the incremental engine instead of materialising it here.
//!
//! What an `assume` defines. An `assume` writes no memory, yet here, as in DUET, it counts as a
//! definition (`mod` and `kill`) of the strong single cells its condition reads, for every
//! thread: its output (the value current when it ran, restricted to the executions where it
//! passes) may flow to other threads. Sound, since every value it passes on was in memory when
//! it ran and `may_reach` lets it flow only while no write of that thread has overwritten it;
//! not precise, since another thread may have overwritten it since and receives a stale value.
//! A `refines` relation (a refinement only for the assuming thread and the children it forks
//! next) proves more (`tests/programs/coarsen/atomic_function.c`) but is not merged: with its
//! fewer flows as hints, the bounded search no longer finds
//! `tests/programs/finite/bakery_no_tiebreak.c`'s violation within its budget (a candidate that
//! does not replay ends a bound), so that search must first learn to exclude such candidates.
//!
//! Every relation exported is matched to `datalog::schema::INTERFERENCE` (which says what
//! checks that table), and one not in it is refused.

use super::cells::Cells;
use super::conditions::Conditions;
use super::locks;
use crate::ir::{Action, LocId, Multiplicity, Program, TemplateId};
use datalog::schema::{Conformance, RelationSchema, Role, INTERFERENCE as SCHEMA};
use datalog::{Engine, EngineConfig, Program as Rules};
use hashbrown::{HashMap, HashSet};

/// A Datalog error, with a message for the user.
pub(crate) type FactError = String;

/// The output relation of flows into what an action reads when it executes.
pub(crate) const FLOW: &str = "may_flow";
/// The output relation of flows into observed cells while a thread stands somewhere.
pub(crate) const STAND: &str = "may_stand";
/// The input relation that changes from round to round.
const COND_VAL: &str = "cond_val";

/// The interference analysis of one program, alive across COARSEN rounds.
pub(crate) struct Interference {
    engine: Engine,
    cond_val: HashSet<[u32; 3]>,
    feeds_cond_val: bool,
    sym: Symmetry,
    /// The facts and derived relations of every round, when asked for (`--dump-facts`).
    dump: Option<Recorder>,
    /// The facts that never change, kept for `--explain` only (the default run keeps none).
    fixed: Option<crate::dump::Relations>,
}

/// What `--dump-facts` needs beyond what the rounds keep anyway: the derived relations as
/// COARSEN took them in, change by change.
struct Recorder {
    out: crate::dump::FactsDump,
    derived: [std::collections::BTreeSet<[u32; 3]>; 2],
}

/// Thread templates with identical facts (one start routine created at many sites), folded
/// into one representative before the rules see them.
///
/// The folded facts are the image of the program's facts under `rep`, and every input relation
/// the rules negate (`kill`, `atomic`, `holds`, `blocks` via `acquires`/`needs`) holds at a
/// location exactly when it holds at its representative, so every tuple the rules derive for the
/// program has its image among the tuples they derive for the folded facts. Expanding each
/// output tuple to all preimages therefore over-approximates the unfolded result; `cond_val` is
/// joined over the copies, which only adds tuples. Folding is skipped for templates that fork,
/// and for templates a definite join waits for: `join_waits` names locations of one template, and
/// its image would also stop the joiner against the other copies.
#[derive(Clone, Debug, Default)]
pub(crate) struct Symmetry {
    /// Per location, the location of the representative template that stands for it.
    rep: Vec<u32>,
    /// Per representative location of a folded group: every location it stands for, with the
    /// template's multiplicity being one.
    copies: HashMap<u32, Vec<(u32, TemplateId, bool)>>,
}

/// What the rules can see of one location, relative to its template.
#[derive(Clone, PartialEq, Eq, Hash)]
struct LocSig {
    succs: Vec<usize>,
    mods: Vec<u32>,
    uses: Vec<u32>,
    acquires: Option<u32>,
    holds: Vec<u32>,
    atomic: bool,
    needs: Option<(u32, bool)>,
}

impl Symmetry {
    /// No folding: every location stands for itself.
    pub(crate) fn identity(prog: &Program) -> Symmetry {
        Symmetry { rep: (0..prog.locs.len() as u32).collect(), copies: HashMap::new() }
    }

    /// Folds templates whose locations, in creation order, carry identical facts.
    pub(crate) fn fold(prog: &Program, cells: &Cells, conds: &Conditions, reads: &[Vec<super::CellId>], lk: &locks::Held, joined: &HashSet<TemplateId>) -> Symmetry {
        let held = &lk.held;
        let mut sym = Symmetry::identity(prog);
        let signature = |t: &crate::ir::Template| -> Option<(usize, Vec<LocSig>)> {
            let pos: HashMap<LocId, usize> = t.locs.iter().enumerate().map(|(k, l)| (*l, k)).collect();
            let mut sig = Vec::with_capacity(t.locs.len());
            for l in &t.locs {
                let loc = prog.loc(*l);
                if matches!(loc.action, Action::Fork { .. }) {
                    return None;
                }
                let succs = loc.succs.iter().map(|s| pos.get(s).copied()).collect::<Option<Vec<usize>>>()?;
                let mut mods: Vec<u32> = cells.shared_mods[l.index()].iter().map(|c| c.0).collect();
                let mut uses: Vec<u32> = reads[l.index()].iter().filter(|c| cells.cells[c.index()].shared).map(|c| c.0).collect();
                let mut holds: Vec<u32> = held[l.index()].iter().map(|k| k.0).collect();
                mods.sort_unstable();
                uses.sort_unstable();
                holds.sort_unstable();
                sig.push(LocSig { succs, mods, uses, acquires: lk.acquires[l.index()].map(|k| k.0), holds, atomic: loc.atomic, needs: conds.need(*l) });
            }
            Some((*pos.get(&t.entry)?, sig))
        };
        let mut groups: HashMap<(usize, Vec<LocSig>), TemplateId> = HashMap::new();
        for (i, t) in prog.templates.iter().enumerate().skip(1) {
            if joined.contains(&TemplateId(i as u32)) {
                continue;
            }
            let Some(sig) = signature(t) else { continue };
            let first = *groups.entry(sig).or_insert(TemplateId(i as u32));
            let one = t.multiplicity == Multiplicity::One;
            let first_locs = &prog.template(first).locs;
            for (k, l) in t.locs.iter().enumerate() {
                let r = first_locs[k].0;
                sym.rep[l.index()] = r;
                sym.copies.entry(r).or_default().push((l.0, TemplateId(i as u32), one));
            }
        }
        // A group of one template is no folding at all.
        sym.copies.retain(|_, v| v.len() > 1);
        sym
    }

    /// Locations folded into another one.
    pub(crate) fn folded(&self) -> usize {
        self.rep.iter().enumerate().filter(|(i, r)| *i as u32 != **r).count()
    }

    /// The flows a folded `(u, x, v)` stands for, each location replaced by its image under
    /// `to` (the interpreter's representative, see `fold::Fold`). Two locations of the same
    /// template with multiplicity one are never in two threads at once, so a pair of images all
    /// of whose preimages are such pairs gets no flow.
    fn expand(&self, [u, x, v]: [u32; 3], to: &[LocId], cache: &mut HashMap<u32, Side>, out: &mut Vec<[u32; 3]>) {
        if !self.copies.contains_key(&u) && !self.copies.contains_key(&v) {
            out.push([to[u as usize].0, x, to[v as usize].0]);
            return;
        }
        let us = cache.entry(u).or_insert_with(|| self.side(u, to)).clone();
        let vs = cache.entry(v).or_insert_with(|| self.side(v, to));
        for &(iu, tu) in &us {
            for &(iv, tv) in vs.iter() {
                if let (Some((a, true)), Some((b, _))) = (tu, tv) {
                    if a == b {
                        continue;
                    }
                }
                out.push([iu, x, iv]);
            }
        }
    }

    /// The images under `to` of the locations `l` stands for, each with the template of its
    /// preimages when they all have the same one (and whether it has a single instance).
    fn side(&self, l: u32, to: &[LocId]) -> Side {
        let Some(cs) = self.copies.get(&l) else { return vec![(to[l as usize].0, None)] };
        let mut out: Side = Vec::new();
        for &(c, t, one) in cs {
            let image = to[c as usize].0;
            match out.iter_mut().find(|(i, _)| *i == image) {
                Some(e) => {
                    if e.1 != Some((t, one)) {
                        e.1 = None;
                    }
                }
                None => out.push((image, Some((t, one)))),
            }
        }
        out
    }
}

/// Images of the locations a folded location stands for (see `Symmetry::side`).
type Side = Vec<(u32, Option<(TemplateId, bool)>)>;

/// What the ids in the facts stand for: the locations the rules see (representatives), the
/// shared cells, the locks and the observable conditions, with their source lines.
fn symbols(prog: &Program, cells: &Cells, conds: &Conditions, sym: &Symmetry) -> Vec<crate::dump::Symbol> {
    use crate::dump::Symbol;
    use crate::ir::display;
    let line = |s: crate::ir::Span| format!("{}:{}", prog.file_name(s), s.line);
    let mut out = Vec::new();
    for (i, loc) in prog.locs.iter().enumerate().filter(|&(i, _)| sym.rep[i] == i as u32) {
        let name = format!("{}: {}", prog.template(loc.template).name, display::action(prog, &loc.action));
        out.push(Symbol { kind: "loc".into(), id: i as u32, name, source: line(loc.span) });
    }
    for (i, _) in cells.cells.iter().enumerate().filter(|(_, c)| c.shared) {
        out.push(Symbol { kind: "cell".into(), id: i as u32, name: cells.name(prog, super::CellId(i as u32)), source: String::new() });
    }
    for (i, name) in prog.memory.locks.iter().enumerate() {
        out.push(Symbol { kind: "lock".into(), id: i as u32, name: name.clone(), source: String::new() });
    }
    for (i, c) in conds.conds.iter().enumerate() {
        // A condition's line: the first assume that needs it.
        let at = conds.needs.iter().position(|n| n.is_some_and(|(id, _)| id == i as u32));
        out.push(Symbol { kind: "cond".into(), id: i as u32, name: display::expr(prog, c), source: at.map(|l| line(prog.locs[l].span)).unwrap_or_default() });
    }
    out
}

impl Interference {
    /// Starts the engine on the rules and feeds the facts that never change; `dump` keeps
    /// every round's facts for [`Interference::take_dump`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        rules: &Rules,
        prog: &Program,
        cells: &Cells,
        conds: &Conditions,
        reads: &[Vec<super::CellId>],
        workers: usize,
        symmetry: bool,
        dump: bool,
        explain: bool,
    ) -> Result<Interference, FactError> {
        // Only cond_val changes between rounds: the other inputs are joined and negated by lookup.
        let fixed = SCHEMA.with_role(Role::Input).map(|r| r.name).filter(|&n| n != COND_VAL && rules.relation(n).is_some_and(|r| r.is_input() && !r.has_rules())).map(String::from).collect();
        let mut engine = Engine::with_config(rules, &EngineConfig { workers, fixed, ..EngineConfig::default() }).map_err(|e| format!("cannot start the Datalog engine: {e}"))?;
        let declared = |name: &str| rules.relation(name).map(|r| r.is_input()).unwrap_or(false);
        let mut facts: Vec<(&str, Vec<Vec<u32>>)> = Vec::new();
        let shared = |c: &super::CellId| cells.cells[c.index()].shared;
        let root_entry = prog.template(TemplateId(0)).entry;
        let lk = locks::analyse(prog);
        let held = &lk.held;
        let joins = crate::ir::joins::definite(prog);
        let joined: HashSet<TemplateId> = joins.iter().map(|(_, t)| *t).collect();
        let sym = if symmetry { Symmetry::fold(prog, cells, conds, reads, &lk, &joined) } else { Symmetry::identity(prog) };
        let (mut cf, mut spawn, mut multi, mut modf, mut usef, mut acq, mut holds, mut atomic, mut needs) = (vec![], vec![], vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
        for (i, loc) in prog.locs.iter().enumerate() {
            let l = i as u32;
            if sym.rep[i] != l {
                continue;
            }
            for s in &loc.succs {
                cf.push(vec![l, s.0]);
            }
            if let Action::Fork { template, .. } = &loc.action {
                let t = prog.template(*template);
                spawn.push(vec![l, sym.rep[t.entry.index()]]);
                if t.multiplicity == Multiplicity::Unbounded {
                    multi.push(vec![l]);
                }
            }
            // The root's entry gives every shared cell its initial value.
            let written: Vec<super::CellId> = if LocId(l) == root_entry { (0..cells.len() as u32).map(super::CellId).filter(|c| shared(c)).collect() } else { cells.shared_mods[i].clone() };
            for c in written {
                modf.push(vec![l, c.0]);
            }
            // A mixed cell is used wherever its thread needs it: its shared part flows on with the
            // locals, and must be current where it does. Only stores of the shared part define it.
            for c in reads[i].iter().filter(|c| shared(c)) {
                usef.push(vec![l, c.0]);
            }
            if let Some(k) = lk.acquires[i] {
                acq.push(vec![l, k.0]);
            }
            for k in &held[i] {
                holds.push(vec![l, k.0]);
            }
            if loc.atomic {
                atomic.push(vec![l]);
            }
            if let Some((c, v)) = conds.need(LocId(l)) {
                needs.push(vec![l, c, v as u32]);
            }
        }
        // Every write ends the reach of earlier ones: a weak write reads the old value,
        // which then flows on through it.
        let kill = modf.clone();
        facts.push(("cf", cf));
        facts.push(("spawn", spawn));
        facts.push(("multi_spawn", multi));
        facts.push(("mod", modf));
        facts.push(("kill", kill));
        facts.push(("use", usef));
        facts.push(("acquires", acq));
        facts.push(("holds", holds));
        facts.push(("atomic", atomic));
        facts.push(("needs", needs));
        facts.push(("observe", conds.cells.iter().filter(|c| shared(c)).map(|c| vec![c.0]).collect()));
        // Joiners are root locations and joined templates are never folded: no mapping needed.
        facts.push(("join_waits", crate::ir::joins::waits(prog).iter().map(|t| t.to_vec()).collect()));
        let facts = typed(facts)?;
        for (rel, tuples) in &facts {
            if declared(rel.name) {
                engine.insert(rel.name, tuples.iter().map(|t| t.as_slice())).map_err(|e| format!("Datalog relation `{}`: {e}", rel.name))?;
            }
        }
        let fixed = explain.then(|| facts.iter().filter(|(r, _)| declared(r.name)).map(|(r, t)| (r.name.to_string(), t.clone())).collect());
        let dump = dump.then(|| Recorder {
            out: crate::dump::FactsDump { fixed: facts.into_iter().map(|(r, t)| (r.name.to_string(), t)).collect(), rounds: Vec::new(), symbols: symbols(prog, cells, conds, &sym) },
            derived: Default::default(),
        });
        Ok(Interference { engine, cond_val: HashSet::new(), feeds_cond_val: declared(COND_VAL), sym, dump, fixed })
    }

    /// Locations folded into an identical template's.
    pub(crate) fn folded(&self) -> usize {
        self.sym.folded()
    }

    /// Replaces the `cond_val` facts and returns the data flows that appeared, between the
    /// images of their locations under `to` (per location: the one the interpreter analyses for it).
    pub(crate) fn round(&mut self, cond_val: HashSet<[u32; 3]>, to: &[LocId]) -> Result<Vec<(super::Use, [u32; 3])>, FactError> {
        let cond_val: HashSet<[u32; 3]> =
            if self.sym.copies.is_empty() { cond_val } else { cond_val.into_iter().map(|[b, c, v]| [self.sym.rep.get(b as usize).copied().unwrap_or(b), c, v]).collect() };
        if self.feeds_cond_val {
            let mut added: Vec<[u32; 3]> = cond_val.difference(&self.cond_val).copied().collect();
            let mut removed: Vec<[u32; 3]> = self.cond_val.difference(&cond_val).copied().collect();
            added.sort_unstable();
            removed.sort_unstable();
            self.engine.insert(COND_VAL, added.iter().map(|t| t.as_slice())).map_err(|e| e.to_string())?;
            self.engine.remove(COND_VAL, removed.iter().map(|t| t.as_slice())).map_err(|e| e.to_string())?;
        }
        self.cond_val = cond_val;
        let changes = self.engine.advance().map_err(|e| format!("Datalog evaluation failed: {e}"))?;
        let mut flows = Vec::new();
        for (k, (rel, usage)) in [(FLOW, super::Use::Exec), (STAND, super::Use::Stand)].into_iter().enumerate() {
            if let (Some(c), Some(rec)) = (changes.get(rel), self.dump.as_mut()) {
                for t in c.removed.iter() {
                    rec.derived[k].remove(&[t[0], t[1], t[2]]);
                }
                rec.derived[k].extend(c.added.iter().map(|t| [t[0], t[1], t[2]]));
            }
            if let Some(c) = changes.get(rel) {
                let mut unfolded = Vec::new();
                let mut cache = HashMap::new();
                let mut seen: HashSet<[u32; 3]> = HashSet::new();
                for t in c.added.iter() {
                    unfolded.clear();
                    self.sym.expand([t[0], t[1], t[2]], to, &mut cache, &mut unfolded);
                    flows.extend(unfolded.iter().filter(|f| seen.insert(**f)).map(|f| (usage, *f)));
                }
            }
        }
        if let Some(rec) = self.dump.as_mut() {
            let mut cond_val: Vec<Vec<u32>> = self.cond_val.iter().map(|t| t.to_vec()).collect();
            cond_val.sort_unstable();
            let derived = [FLOW, STAND].iter().zip(&rec.derived).map(|(name, set)| (name.to_string(), set.iter().map(|t| t.to_vec()).collect())).collect();
            rec.out.rounds.push(crate::dump::FactsRound { inputs: vec![(COND_VAL.to_string(), cond_val)], derived });
        }
        Ok(flows)
    }

    /// The last round's relations, every tuple with a proof (`--explain`): the rules evaluated
    /// afresh on the facts that round fed them, with every relation observed. `None` unless
    /// [`Interference::new`] was asked to keep the facts.
    pub(crate) fn last_round(&self, rules: &Rules, workers: usize) -> Option<Result<datalog::explain::Model, FactError>> {
        let fixed = self.fixed.as_ref()?;
        let mut cond_val: Vec<Vec<u32>> = self.cond_val.iter().map(|t| t.to_vec()).collect();
        cond_val.sort_unstable();
        let mut inputs: Vec<(&str, &[Vec<u32>])> = fixed.iter().map(|(n, t)| (n.as_str(), t.as_slice())).collect();
        if self.feeds_cond_val {
            inputs.push((COND_VAL, &cond_val));
        }
        Some(datalog::explain::Model::evaluate(rules, &inputs, workers).map_err(|e| format!("Datalog evaluation for --explain failed: {e}")))
    }

    /// Per data-flow edge between the interpreter's locations (`to`, as in [`Interference::round`]),
    /// the tuples of `rel` the rules derived that stand for it.
    pub(crate) fn preimages(&self, model: &datalog::explain::Model, rel: &str, to: &[LocId]) -> HashMap<[u32; 3], Vec<[u32; 3]>> {
        let mut out: HashMap<[u32; 3], Vec<[u32; 3]>> = HashMap::new();
        let Some(tuples) = model.relation(rel) else { return out };
        let (mut cache, mut unfolded) = (HashMap::new(), Vec::new());
        for t in tuples.iter() {
            unfolded.clear();
            self.sym.expand([t[0], t[1], t[2]], to, &mut cache, &mut unfolded);
            for e in &unfolded {
                out.entry(*e).or_default().push([t[0], t[1], t[2]]);
            }
        }
        out
    }

    /// What the ids of the facts stand for, with source lines.
    pub(crate) fn symbols(&self, prog: &Program, cells: &Cells, conds: &Conditions) -> Vec<crate::dump::Symbol> {
        symbols(prog, cells, conds, &self.sym)
    }

    /// Every round's facts so far, if they were asked for.
    pub(crate) fn take_dump(&mut self) -> Option<crate::dump::FactsDump> {
        self.dump.take().map(|r| r.out)
    }
}

/// One exported relation with its rows.
type Typed = (&'static RelationSchema, Vec<Vec<u32>>);

/// The exported facts, each matched to its relation in the schema: a relation the schema does
/// not have as an input, a row of another arity, or a fixed input left out is a bug here.
fn typed(facts: Vec<(&str, Vec<Vec<u32>>)>) -> Result<Vec<Typed>, FactError> {
    let mut out = Vec::with_capacity(facts.len());
    for (name, rows) in facts {
        let rel = SCHEMA.get(name).filter(|r| r.role == Role::Input).ok_or_else(|| format!("COARSEN exports `{name}`, which is no input of the {} schema", SCHEMA.name))?;
        if let Some(r) = rows.iter().find(|r| r.len() != rel.arity()) {
            return Err(format!("COARSEN exports a row of {} columns for `{name}`, which the {} schema declares as {}", r.len(), SCHEMA.name, rel.decl()));
        }
        out.push((rel, rows));
    }
    for rel in SCHEMA.with_role(Role::Input) {
        if rel.name != COND_VAL && !out.iter().any(|(r, _)| r.name == rel.name) {
            return Err(format!("COARSEN exports no `{}`, an input of the {} schema", rel.name, SCHEMA.name));
        }
    }
    Ok(out)
}

/// The rules must derive the outputs COARSEN reads, and every relation of the schema they
/// declare must have its columns (`datalog::schema::INTERFERENCE`, at
/// [`Conformance::Compatible`]: inputs they leave out are not fed).
pub(crate) fn check_schema(rules: &Rules) -> Result<(), FactError> {
    // COARSEN exchanges these by name: a schema that renamed them would leave it reading
    // nothing, which is no flow at all.
    for (name, role) in [(FLOW, Role::Output), (STAND, Role::Output), (COND_VAL, Role::Input)] {
        if !SCHEMA.get(name).is_some_and(|r| r.role == role && r.arity() == 3) {
            return Err(format!("the {} schema has no {role:?} `{name}` of three columns, which COARSEN exchanges (a bug)", SCHEMA.name));
        }
    }
    let errors = SCHEMA.check(rules, Conformance::Compatible);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

/// The `may_flow` edges `rules` derive from the last round of `dump`, by a fresh Datalog run
/// (inputs the rules do not declare are not fed), sorted.
fn flows_under(rules: &Rules, dump: &crate::dump::FactsDump) -> Result<Vec<Vec<u32>>, FactError> {
    let mut engine = Engine::new(rules, 1).map_err(|e| format!("cannot start the Datalog engine: {e}"))?;
    let last = dump.rounds.last().map(|r| r.inputs.as_slice()).unwrap_or(&[]);
    for (name, rows) in dump.fixed.iter().chain(last) {
        if rules.relation(name).is_some_and(|r| r.is_input()) {
            engine.insert(name, rows.iter().map(|t| t.as_slice())).map_err(|e| format!("Datalog relation `{name}`: {e}"))?;
        }
    }
    engine.advance().map_err(|e| format!("Datalog evaluation failed: {e}"))?;
    Ok(engine.relation(FLOW).map_err(|e| e.to_string())?.to_vecs())
}

/// `--rules-diff`: the `may_flow` edges the user's rules derive from the last round's facts
/// that the built-in rules do not (`+`), and those they lose (`-`), each with what its ids
/// stand for. Both runs see the same facts: those of the user's run.
pub(crate) fn rules_diff(user: &Rules, dump: &crate::dump::FactsDump) -> Result<String, FactError> {
    use std::fmt::Write;
    let builtin = super::rules::load(None)?;
    let (ours, theirs) = (flows_under(&builtin, dump)?, flows_under(user, dump)?);
    let name = |kind: &str, id: u32| {
        dump.symbols
            .iter()
            .find(|s| s.kind == kind && s.id == id)
            .map(|s| if s.source.is_empty() { s.name.clone() } else { format!("{} ({})", s.name, s.source) })
            .unwrap_or_else(|| format!("{kind} {id}"))
    };
    let ours_set: HashSet<&Vec<u32>> = ours.iter().collect();
    let theirs_set: HashSet<&Vec<u32>> = theirs.iter().collect();
    let mut out = String::new();
    let round = dump.rounds.len();
    let _ = writeln!(out, "may_flow on the facts of round {round}: {} edges under the built-in rules, {} under --rules", ours.len(), theirs.len());
    for (sign, edges, other) in [('+', &theirs, &ours_set), ('-', &ours, &theirs_set)] {
        for t in edges.iter().filter(|t| !other.contains(t)) {
            let _ = writeln!(out, "{sign} {} flows from {} to {}", name("cell", t[1]), name("loc", t[0]), name("loc", t[2]));
        }
    }
    if ours_set == theirs_set {
        out.push_str("no difference\n");
    }
    Ok(out)
}
