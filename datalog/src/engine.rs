//! The incremental engine: timely workers in threads, fed through channels.

use std::fmt;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use timely::communication::initialize::WorkerGuards;

use crate::dataflow::{Diff, Epoch};
use crate::program::{Program, RelationInfo};
use crate::store::{sort_rows, FlatSet, SortedRows};
use crate::symbols::SymbolTable;
use crate::value::{ColumnType, Tuples, Value};
use crate::worker::{Cmd, RelChange, Reply, Update};

/// Why an engine operation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// No relation has this name.
    UnknownRelation(String),
    /// The relation is not declared `.input`, so tuples cannot be inserted or removed.
    NotInput(String),
    /// The relation's contents are not tracked: it is neither `.input`, `.output` nor `.printsize`
    /// (see [`EngineConfig::observe_all`]).
    NotObserved(String),
    /// A tuple has the wrong number of values.
    Arity {
        /// The relation.
        relation: String,
        /// Its arity.
        expected: usize,
        /// The tuple's length.
        found: usize,
    },
    /// A `symbol` value is not an id from this engine's symbol table.
    UnknownSymbol {
        /// The relation.
        relation: String,
        /// The offending id.
        id: u32,
    },
    /// The worker count must be at least one.
    NoWorkers,
    /// Timely could not start its workers.
    Start(String),
    /// A worker stopped unexpectedly; the engine cannot continue.
    WorkerFailed(String),
    /// [`EngineConfig::fixed`] names a relation that is not an input without rules.
    NotFixable(String),
    /// A change to a relation [`EngineConfig::fixed`] declares unchanging, after the first epoch.
    Fixed(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownRelation(r) => write!(f, "unknown relation '{r}'"),
            EngineError::NotInput(r) => write!(f, "relation '{r}' is not declared .input: expected an input relation"),
            EngineError::NotObserved(r) => {
                write!(f, "relation '{r}' is not observed: expected an .input or .output relation (or observe_all)")
            }
            EngineError::Arity { relation, expected, found } => {
                write!(f, "relation '{relation}' has {expected} columns, but a tuple has {found} values")
            }
            EngineError::UnknownSymbol { relation, id } => {
                write!(f, "relation '{relation}': symbol id {id} was not interned by this engine")
            }
            EngineError::NoWorkers => write!(f, "the engine needs at least one worker"),
            EngineError::Start(e) => write!(f, "cannot start timely workers: {e}"),
            EngineError::WorkerFailed(e) => write!(f, "a dataflow worker failed: {e}"),
            EngineError::NotFixable(r) => write!(f, "relation '{r}' cannot be fixed: expected an .input relation that no rule derives"),
            EngineError::Fixed(r) => write!(f, "relation '{r}' is fixed: its tuples cannot change after the first advance"),
        }
    }
}

impl std::error::Error for EngineError {}

/// Options for [`Engine::with_config`].
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Number of timely worker threads (at least 1).
    pub workers: usize,
    /// Track every relation, not only `.input`, `.output` and `.printsize` ones, so that
    /// [`Engine::relation`] and [`Changes`] cover intermediate relations too (costs memory).
    pub observe_all: bool,
    /// Record the time spent in each dataflow operator, for [`Engine::profile`] (small overhead).
    pub profile: bool,
    /// Input relations whose tuples are all given before the first [`Engine::advance`] and never
    /// change after it (a later change is [`EngineError::Fixed`]). Rules join and negate them by
    /// lookup in a table every worker holds, instead of arranging what they are joined with, which
    /// saves the memory of those intermediate results.
    pub fixed: Vec<String>,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { workers: 1, observe_all: false, profile: false, fixed: Vec::new() }
    }
}

/// The change to one observed relation in one epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelationChanges {
    /// The relation's name.
    pub name: String,
    /// Tuples that appeared, sorted.
    pub added: Tuples,
    /// Tuples that disappeared, sorted.
    pub removed: Tuples,
}

/// What one [`Engine::advance`] changed, per observed relation (relations without changes omitted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// The epoch these changes belong to (0 for the first `advance`).
    pub epoch: u64,
    /// Per relation, in declaration order.
    pub relations: Vec<RelationChanges>,
}

impl Changes {
    /// The changes to `name`, if it changed.
    pub fn get(&self, name: &str) -> Option<&RelationChanges> {
        self.relations.iter().find(|r| r.name == name)
    }
    /// True if no observed relation changed.
    pub fn is_empty(&self) -> bool {
        self.relations.is_empty()
    }
}

/// Staged and committed contents of an input relation.
struct InputState {
    current: FlatSet,
    adds: FlatSet,
    dels: FlatSet,
}

/// An incremental Datalog engine running a [`Program`] on timely worker threads.
///
/// Typical use: [`Engine::insert`] / [`Engine::remove`] input tuples, then [`Engine::advance`]
/// to apply them as one epoch and learn what changed in the outputs; repeat. Tuples are slices of
/// `u32`: `number` values as their two's-complement bit pattern, `symbol` values as ids from
/// [`Engine::intern`]. Results are sorted (numbers as signed, symbols by id) and identical
/// whatever the number of workers. Dropping the engine stops its workers.
pub struct Engine {
    relations: Arc<Vec<RelationInfo>>,
    by_name: hashbrown::HashMap<String, usize>,
    symbols: SymbolTable,
    epoch: Epoch,
    inputs: Vec<Option<InputState>>,
    stores: Vec<Option<SortedRows>>,
    senders: Vec<Sender<Cmd>>,
    replies: Receiver<Reply>,
    guards: Option<WorkerGuards<()>>,
    failed: Option<String>,
    /// Per relation: fixed after the first epoch ([`EngineConfig::fixed`]).
    fixed: Vec<bool>,
    /// The program that derives the relations the fixed inputs alone determine, and those
    /// relations: run once, in the first epoch, before the main dataflow.
    pre: Option<(Program, Vec<usize>)>,
    workers: usize,
}

/// Operator times and rows held, from the workers' profilers.
type Profile = (Vec<(String, Duration)>, Vec<(String, usize)>);

impl Engine {
    /// Starts an engine for `program` on `workers` threads, observing its `.input`, `.output`
    /// and `.printsize` relations. Facts written in the rule text are staged for the first epoch.
    pub fn new(program: &Program, workers: usize) -> Result<Engine, EngineError> {
        Engine::with_config(program, &EngineConfig { workers, ..EngineConfig::default() })
    }

    /// Starts an engine with explicit options.
    pub fn with_config(program: &Program, config: &EngineConfig) -> Result<Engine, EngineError> {
        if config.workers == 0 {
            return Err(EngineError::NoWorkers);
        }
        let n = program.relations.len();
        let mut fixed = vec![false; n];
        for name in &config.fixed {
            let r = program.by_name.get(name.as_str()).copied().ok_or_else(|| EngineError::UnknownRelation(name.clone()))?;
            let info = &program.relations[r];
            if !info.is_input() || info.has_rules {
                return Err(EngineError::NotFixable(name.clone()));
            }
            fixed[r] = true;
        }
        let mut has_facts = vec![false; n];
        for (r, _) in &program.facts {
            has_facts[*r] = true;
        }
        let inputs: Vec<Option<InputState>> = program
            .relations
            .iter()
            .enumerate()
            .map(|(r, info)| (info.is_input() || has_facts[r]).then(|| InputState { current: FlatSet::new(info.arity()), adds: FlatSet::new(info.arity()), dels: FlatSet::new(info.arity()) }))
            .collect();
        // Input relations without rules are answered from their input state; everything else
        // that is observed is tracked from the dataflow's output.
        let observed: Vec<bool> = program
            .relations
            .iter()
            .map(|info| {
                let wanted = config.observe_all || info.is_output() || info.printsize || info.is_input();
                wanted && (info.has_rules || !info.is_input())
            })
            .collect();
        let stores = program.relations.iter().zip(&observed).map(|(info, &o)| o.then(|| SortedRows::new(info.arity()))).collect();

        let (reply_tx, replies) = mpsc::channel::<Reply>();
        let mut senders = Vec::new();
        let mut receivers = Vec::new();
        for _ in 0..config.workers {
            let (tx, rx) = mpsc::channel::<Cmd>();
            senders.push(tx);
            receivers.push(Some(rx));
        }
        let receivers = Arc::new(Mutex::new(receivers));
        let observed = Arc::new(observed);
        let split = if fixed.iter().any(|&f| f) { crate::split::split(program, &fixed).map_err(EngineError::Start)? } else { None };
        let mut looked_up = fixed.clone();
        let (plan, pre) = match split {
            Some(s) => {
                for &r in &s.statics {
                    looked_up[r] = true;
                }
                (Arc::new(s.main), Some((s.pre, s.statics)))
            }
            None => (Arc::clone(&program.plan), None),
        };
        let fixed_w = Arc::new(looked_up);
        let profile = config.profile;
        let guards = timely::execute(timely::Config::process(config.workers), move |worker| {
            let index = worker.index();
            let rx = receivers.lock().ok().and_then(|mut v| v.get_mut(index).and_then(Option::take));
            if let Some(rx) = rx {
                crate::worker::run(worker, &plan, &observed, &fixed_w, profile, rx, reply_tx.clone());
            }
        })
        .map_err(EngineError::Start)?;

        let mut engine = Engine {
            relations: Arc::new(program.relations.clone()),
            by_name: program.by_name.clone(),
            symbols: program.symbols.clone(),
            epoch: 0,
            inputs,
            stores,
            senders,
            replies,
            guards: Some(guards),
            failed: None,
            fixed,
            pre,
            workers: config.workers,
        };
        for (r, values) in &program.facts {
            if let Some(state) = engine.inputs[*r].as_mut() {
                state.adds.insert(values);
            }
        }
        Ok(engine)
    }

    fn rel(&self, name: &str) -> Result<usize, EngineError> {
        self.by_name.get(name).copied().ok_or_else(|| EngineError::UnknownRelation(name.to_string()))
    }

    fn input_rel(&self, name: &str) -> Result<usize, EngineError> {
        let r = self.rel(name)?;
        if !self.relations[r].is_input() {
            return Err(EngineError::NotInput(name.to_string()));
        }
        Ok(r)
    }

    /// Encodes an API tuple, checking arity and symbol ids.
    fn encode(&self, r: usize, row: &[u32], buf: &mut Vec<u32>) -> Result<(), EngineError> {
        let info = &self.relations[r];
        if row.len() != info.arity() {
            return Err(EngineError::Arity { relation: info.name.clone(), expected: info.arity(), found: row.len() });
        }
        buf.clear();
        for (col, &v) in info.columns.iter().zip(row) {
            if col.ty == ColumnType::Symbol && v as usize >= self.symbols.len() {
                return Err(EngineError::UnknownSymbol { relation: info.name.clone(), id: v });
            }
            buf.push(col.ty.flip(v));
        }
        Ok(())
    }

    /// Stages tuples for insertion into input relation `rel` at the next [`Engine::advance`].
    /// Returns how many of them change the staged contents (tuples already present do not).
    /// Either all tuples are staged or, on error, none.
    pub fn insert<'a>(&mut self, rel: &str, tuples: impl IntoIterator<Item = &'a [u32]>) -> Result<usize, EngineError> {
        let rows: Vec<&[u32]> = tuples.into_iter().collect();
        self.stage(rel, &rows, true)
    }

    /// Stages tuples for removal from input relation `rel` at the next [`Engine::advance`].
    /// Returns how many of them change the staged contents (absent tuples do not).
    pub fn remove<'a>(&mut self, rel: &str, tuples: impl IntoIterator<Item = &'a [u32]>) -> Result<usize, EngineError> {
        let rows: Vec<&[u32]> = tuples.into_iter().collect();
        self.stage(rel, &rows, false)
    }

    fn stage(&mut self, rel: &str, rows: &[&[u32]], insert: bool) -> Result<usize, EngineError> {
        let r = self.input_rel(rel)?;
        let mut encoded = Vec::with_capacity(rows.len() * self.relations[r].arity());
        let mut buf = Vec::new();
        for row in rows {
            self.encode(r, row, &mut buf)?;
            encoded.extend_from_slice(&buf);
        }
        let a = self.relations[r].arity();
        let Some(state) = self.inputs[r].as_mut() else { return Err(EngineError::NotInput(rel.to_string())) };
        if self.fixed[r] && self.epoch > 0 {
            let changes = (0..rows.len()).any(|i| state.current.contains(&encoded[i * a..(i + 1) * a]) != insert);
            if changes {
                return Err(EngineError::Fixed(rel.to_string()));
            }
        }
        let mut changed = 0;
        for i in 0..rows.len() {
            let row = &encoded[i * a..(i + 1) * a];
            let did = if insert {
                state.dels.remove(row) || (!state.current.contains(row) && state.adds.insert(row))
            } else {
                state.adds.remove(row) || (state.current.contains(row) && state.dels.insert(row))
            };
            changed += usize::from(did);
        }
        Ok(changed)
    }

    /// Applies all staged changes as one epoch, runs the computation to its fixed point, and
    /// returns the changes to observed relations.
    pub fn advance(&mut self) -> Result<Changes, EngineError> {
        if let Some(e) = &self.failed {
            return Err(EngineError::WorkerFailed(e.clone()));
        }
        let mut updates = Vec::new();
        let mut input_changes: Vec<(usize, Tuples, Tuples)> = Vec::new();
        for (r, state) in self.inputs.iter_mut().enumerate() {
            let Some(state) = state else { continue };
            if state.adds.len() == 0 && state.dels.len() == 0 {
                continue;
            }
            let a = self.relations[r].arity();
            for row in state.adds.iter() {
                state.current.insert(row);
            }
            for row in state.dels.iter() {
                state.current.remove(row);
            }
            let decode = |set: &FlatSet| sorted_tuples(&self.relations[r], set.flat(), set.len());
            input_changes.push((r, decode(&state.adds), decode(&state.dels)));
            for (set, diff) in [(&state.adds, 1), (&state.dels, -1)] {
                if set.len() > 0 {
                    updates.push(Update { rel: r, diff, count: set.len(), data: set.flat().to_vec() });
                }
            }
            let _ = a;
            state.adds.clear();
            state.dels.clear();
        }
        if let Some((pre, statics)) = self.pre.take() {
            updates.extend(self.run_pre(&pre, &statics, &updates)?);
        }
        let updates = Arc::new(updates);
        let epoch = self.epoch;
        for s in &self.senders {
            if s.send(Cmd::Step { epoch, updates: Arc::clone(&updates) }).is_err() {
                return Err(self.fail("a worker's command channel is closed"));
            }
        }
        let mut per_rel: Vec<Vec<RelChange>> = (0..self.relations.len()).map(|_| Vec::new()).collect();
        for reply in self.collect_replies()? {
            for c in reply.changes {
                per_rel[c.rel].push(c);
            }
        }
        self.epoch += 1;

        let mut changes = Changes { epoch: epoch as u64, relations: Vec::new() };
        for (r, parts) in per_rel.into_iter().enumerate() {
            let info = &self.relations[r];
            let Some(store) = self.stores[r].as_mut() else { continue };
            let (adds, n_adds, dels, n_dels) = merge_changes(info.arity(), parts);
            store.apply(&adds, n_adds, &dels, n_dels);
            if n_adds + n_dels > 0 {
                changes.relations.push(RelationChanges { name: info.name.clone(), added: decode_sorted(info, adds, n_adds), removed: decode_sorted(info, dels, n_dels) });
            }
        }
        for (r, added, removed) in input_changes {
            if self.stores[r].is_some() {
                continue;
            }
            changes.relations.push(RelationChanges { name: self.relations[r].name.clone(), added, removed });
        }
        changes.relations.sort_by_key(|c| self.by_name.get(&c.name).copied());
        Ok(changes)
    }

    /// Runs the program of the static relations on the first epoch's fixed rows and returns
    /// those relations as rows for the main dataflow. Its engine ends here, with its memory.
    fn run_pre(&mut self, pre: &Program, statics: &[usize], updates: &[Update]) -> Result<Vec<Update>, EngineError> {
        let mut e = Engine::with_config(pre, &EngineConfig { workers: self.workers, ..EngineConfig::default() })?;
        for u in updates.iter().filter(|u| self.fixed[u.rel] && u.diff > 0) {
            let a = self.relations[u.rel].arity();
            if let Some(state) = e.inputs[u.rel].as_mut() {
                for i in 0..u.count {
                    state.adds.insert(&u.data[i * a..(i + 1) * a]);
                }
            }
        }
        e.advance().map_err(|err| self.fail(&format!("evaluating the relations of the fixed inputs: {err}")))?;
        Ok(statics.iter().filter_map(|&r| e.stores[r].as_ref().map(|s| Update { rel: r, diff: 1, count: s.len, data: s.data.clone() })).filter(|u| u.count > 0).collect())
    }

    /// Waits for one reply from every worker, noticing a worker that died instead.
    fn collect_replies(&mut self) -> Result<Vec<Reply>, EngineError> {
        let mut replies = Vec::with_capacity(self.senders.len());
        while replies.len() < self.senders.len() {
            match self.replies.recv_timeout(Duration::from_millis(200)) {
                Ok(reply) => replies.push(reply),
                Err(RecvTimeoutError::Timeout) => {
                    let dead = self.guards.as_ref().is_some_and(|g| g.guards().iter().any(|h| h.is_finished()));
                    if dead {
                        return Err(self.fail("a worker thread exited during an epoch"));
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.fail("all workers exited")),
            }
        }
        Ok(replies)
    }

    /// Time spent in each kind of dataflow operator so far, summed over workers, largest first.
    /// Operators are named after what they do and the rule or relation they serve (for example
    /// `join: rule at line 141 for 'may_reach'`). Empty unless [`EngineConfig::profile`] is set.
    pub fn profile(&mut self) -> Result<Vec<(String, Duration)>, EngineError> {
        Ok(self.profile_replies()?.0)
    }

    /// Rows (updates) each arrangement and `distinct` keeps now, summed over workers and over
    /// operators of the same name, largest first: where the engine's memory is. Empty unless
    /// [`EngineConfig::profile`] is set.
    pub fn held_rows(&mut self) -> Result<Vec<(String, usize)>, EngineError> {
        Ok(self.profile_replies()?.1)
    }

    fn profile_replies(&mut self) -> Result<Profile, EngineError> {
        if let Some(e) = &self.failed {
            return Err(EngineError::WorkerFailed(e.clone()));
        }
        for s in &self.senders {
            if s.send(Cmd::Profile).is_err() {
                return Err(self.fail("a worker's command channel is closed"));
            }
        }
        let mut total: hashbrown::HashMap<String, Duration> = hashbrown::HashMap::new();
        let mut held: hashbrown::HashMap<String, usize> = hashbrown::HashMap::new();
        for reply in self.collect_replies()? {
            for (name, t) in reply.profile {
                *total.entry(name).or_default() += t;
            }
            for (name, n) in reply.rows {
                *held.entry(name).or_default() += n;
            }
        }
        let mut v: Vec<(String, Duration)> = total.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mut h: Vec<(String, usize)> = held.into_iter().collect();
        h.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok((v, h))
    }

    fn fail(&mut self, why: &str) -> EngineError {
        self.failed = Some(why.to_string());
        EngineError::WorkerFailed(why.to_string())
    }

    /// The current contents of relation `name` (as of the last `advance`), sorted.
    pub fn relation(&self, name: &str) -> Result<Tuples, EngineError> {
        let r = self.rel(name)?;
        let info = &self.relations[r];
        if let Some(store) = &self.stores[r] {
            return Ok(decode_sorted(info, store.data.clone(), store.len));
        }
        if let Some(state) = &self.inputs[r] {
            return Ok(sorted_tuples(info, state.current.flat(), state.current.len()));
        }
        Err(EngineError::NotObserved(name.to_string()))
    }

    /// Decodes a tuple of relation `rel` into values (symbols resolved), for display.
    pub fn decode(&self, rel: &str, tuple: &[u32]) -> Result<Vec<Value>, EngineError> {
        let info = &self.relations[self.rel(rel)?];
        if tuple.len() != info.arity() {
            return Err(EngineError::Arity { relation: info.name.clone(), expected: info.arity(), found: tuple.len() });
        }
        Ok(info.columns.iter().zip(tuple).map(|(c, &v)| Value::decode(c.ty, v, &self.symbols)).collect())
    }

    /// The id of symbol `s`, interning it if new.
    pub fn intern(&mut self, s: &str) -> u32 {
        self.symbols.intern(s)
    }

    /// The engine's symbol table.
    pub fn symbols(&self) -> &SymbolTable {
        &self.symbols
    }

    /// The relations of the program, in declaration order.
    pub fn relations(&self) -> &[RelationInfo] {
        &self.relations
    }

    /// Number of completed epochs (calls to `advance`).
    pub fn epoch(&self) -> u64 {
        self.epoch as u64
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Closing the command channels ends each worker's loop.
        self.senders.clear();
        if let Some(guards) = self.guards.take() {
            if self.failed.is_some() {
                // A failed worker may have left its peers blocked; joining could hang.
                std::mem::forget(guards);
            } else {
                let _ = guards.join();
            }
        }
    }
}

/// Merges per-worker changes (each sorted and consolidated by its worker) into sorted,
/// consolidated additions and deletions. A row's updates may come from several workers (an input
/// row inserted by one and removed by another), so equal rows are summed across parts.
fn merge_changes(arity: usize, parts: Vec<RelChange>) -> (Vec<u32>, usize, Vec<u32>, usize) {
    let (mut adds, mut dels) = (Vec::new(), Vec::new());
    let (mut n_adds, mut n_dels) = (0, 0);
    if parts.len() == 1 {
        let p = &parts[0];
        for (i, &d) in p.diffs.iter().enumerate() {
            let r = &p.data[i * arity..(i + 1) * arity];
            if d > 0 {
                adds.extend_from_slice(r);
                n_adds += 1;
            } else if d < 0 {
                dels.extend_from_slice(r);
                n_dels += 1;
            }
        }
        return (adds, n_adds, dels, n_dels);
    }
    let mut pos: Vec<usize> = vec![0; parts.len()];
    fn row(p: &RelChange, arity: usize, i: usize) -> &[u32] {
        &p.data[i * arity..(i + 1) * arity]
    }
    let mut cur: Vec<u32> = Vec::with_capacity(arity);
    loop {
        // The smallest next row among the parts (few parts: a linear scan is enough).
        let mut min: Option<&[u32]> = None;
        for (k, p) in parts.iter().enumerate() {
            if pos[k] < p.diffs.len() {
                let r = row(p, arity, pos[k]);
                if min.is_none_or(|m| r < m) {
                    min = Some(r);
                }
            }
        }
        let Some(min) = min else { break };
        cur.clear();
        cur.extend_from_slice(min);
        let mut total: Diff = 0;
        for (k, p) in parts.iter().enumerate() {
            while pos[k] < p.diffs.len() && row(p, arity, pos[k]) == cur.as_slice() {
                total += p.diffs[pos[k]];
                pos[k] += 1;
            }
        }
        if total > 0 {
            adds.extend_from_slice(&cur);
            n_adds += 1;
        } else if total < 0 {
            dels.extend_from_slice(&cur);
            n_dels += 1;
        }
    }
    (adds, n_adds, dels, n_dels)
}

/// Converts sorted internal rows to API tuples.
fn decode_sorted(info: &RelationInfo, mut data: Vec<u32>, count: usize) -> Tuples {
    let a = info.arity();
    if a > 0 {
        for chunk in data.chunks_exact_mut(a) {
            for (v, col) in chunk.iter_mut().zip(&info.columns) {
                *v = col.ty.flip(*v);
            }
        }
    }
    Tuples::from_flat(a, data, count).unwrap_or_else(|_| Tuples::new(a))
}

/// Sorts unsorted internal rows and converts them to API tuples.
fn sorted_tuples(info: &RelationInfo, flat: &[u32], count: usize) -> Tuples {
    let a = info.arity();
    let order = sort_rows(flat, a, count);
    let mut data = Vec::with_capacity(flat.len());
    for i in order {
        data.extend_from_slice(&flat[i * a..(i + 1) * a]);
    }
    decode_sorted(info, data, count)
}
