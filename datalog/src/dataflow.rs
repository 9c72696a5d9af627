//! Renders a [`Plan`] as a differential-dataflow computation, for one `(K, V)` preset.
//!
//! Everything here is generic over the row widths and is instantiated once per preset inside this
//! crate; the public API stays concrete so dependent crates never re-instantiate dataflow code.
//!
//! The planner (`plan.rs`) orders each rule's literals so that every intermediate row fits the
//! narrowest compiled width (COARSEN's interference rules run on rows of 3 + 3 values); for the
//! same reason those rules never build the relevance of observed cells (every location, for
//! each observed cell) as a relation, but have a twin rule for observed cells instead. Here,
//! rules that begin alike (same source, same steps) share the arrangements of that prefix, and
//! a non-recursive stratum that joins a loop's arrangements (`may_flow` on `may_reach[v,x]`) is
//! evaluated inside that loop's scope instead of arranging the loop's relation again
//! (`Program::explain` names such strata).

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::fmt::Write;
use std::rc::Rc;

use differential_dataflow::input::{Input, InputSession};
use differential_dataflow::operators::arrange::{Arranged, TraceAgent};
use differential_dataflow::operators::cursor::join::join_traces;
use differential_dataflow::operators::iterate::VecVariable;
use differential_dataflow::trace::implementations::ValSpine;
use differential_dataflow::AsCollection;
use differential_dataflow::VecCollection;
use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use timely::container::{CapacityContainerBuilder, PushInto};
use timely::dataflow::channels::pact::Pipeline;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::ProbeHandle;
use timely::order::Product;

use crate::plan::{rule_reads, ArrSpec, Emit, Plan, RulePlan, Source, Src, Step};
use crate::syntax::ast::CmpOp;

/// Multiplicities; relations are sets, but intermediate results count derivations.
pub(crate) type Diff = isize;
/// The outer timestamp: one per `advance`.
pub(crate) type Epoch = u32;
type Inner = Product<Epoch, u32>;

/// A fixed-width array of values; the building block of every row.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(crate) struct Arr<const N: usize>(pub [u32; N]);

impl<const N: usize> Arr<N> {
    pub(crate) const ZERO: Arr<N> = Arr([0; N]);
}

// Serde is implemented by hand because its derives cover arrays only up to fixed sizes, not a
// const-generic `N`. Timely requires it for exchange even though in-process channels never serialise.
impl<const N: usize> Serialize for Arr<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(N)?;
        for x in &self.0 {
            t.serialize_element(x)?;
        }
        t.end()
    }
}

impl<'de, const N: usize> Deserialize<'de> for Arr<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Vis<const N: usize>;
        impl<'de, const N: usize> Visitor<'de> for Vis<N> {
            type Value = Arr<N>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "a tuple of {N} u32 values")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Arr<N>, A::Error> {
                let mut a = [0u32; N];
                for (i, slot) in a.iter_mut().enumerate() {
                    *slot = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(i, &self))?;
                }
                Ok(Arr(a))
            }
        }
        d.deserialize_tuple(N, Vis::<N>)
    }
}

/// A row: key part and value part.
pub(crate) type Row<const K: usize, const V: usize> = (Arr<K>, Arr<V>);
type Coll<'s, T, const K: usize, const V: usize> = VecCollection<'s, T, Row<K, V>, Diff>;
type Agent<T, const K: usize, const V: usize> = TraceAgent<ValSpine<Arr<K>, Arr<V>, T, Diff>>;
type LArr<'s, T, const K: usize, const V: usize> = Arranged<'s, Agent<T, K, V>>;
/// A fixed relation's rows in one arrangement's layout, filled once before the first epoch runs.
pub(crate) type Table<const K: usize, const V: usize> = Rc<OnceCell<TableData<K, V>>>;

/// Key to carried values (with repeats, as the arrangement would count them). The rows are
/// sorted by key, so each key's values lie together in one vector and no key costs an
/// allocation of its own; a table that carries no values (a set, as every antijoin's is) stores
/// only the number of times each key occurs.
///
/// Lookups are most of the engine's time, and a hash probe is two cache misses (control bytes,
/// then the slot). Keys whose first column takes few distinct values around a dense range (ids
/// of locations and variables) are found instead by an array indexed by that value, which stays
/// in cache, and a search of the short run of rows that share it.
pub(crate) struct TableData<const K: usize, const V: usize> {
    index: Index<K>,
    /// The values, in key order; empty when the table carries none.
    vals: Vec<Arr<V>>,
    /// As many empty values as the most frequent key of a table without values has.
    zeros: Vec<Arr<V>>,
    /// Rows held, counting repeats.
    len: usize,
}

/// Where a key's rows are in a [`TableData`].
enum Index<const K: usize> {
    /// By the first key column: `starts[c - min]` is the first row whose first column is `c`, and
    /// `keys` the sorted keys when the key has more columns than that one. A two-column key (the
    /// common `(location, variable)`) keeps only its second column, in `seconds` instead: the
    /// search in a run then compares one word, and the run takes a third of the cache lines.
    ///
    /// `present` has a bit per first-column value that has rows, or is empty when nearly all
    /// have: a probe of a value without rows (most probes of the tables that hold one kind of
    /// step, or one kind of location) then reads a bitmap that stays in cache instead of missing
    /// on `starts`.
    Dense { min: u32, starts: Vec<u32>, keys: Vec<Arr<K>>, seconds: Vec<u32>, present: Vec<u64> },
    /// Per key: its first row and how many rows there are.
    Hash(hashbrown::HashMap<Arr<K>, (u32, u32)>),
}

impl<const K: usize, const V: usize> TableData<K, V> {
    /// Builds the table from `(key, value)` pairs whose keys use the first `width` columns;
    /// `carries` is false when every value is empty.
    fn new(mut rows: Vec<(Arr<K>, Arr<V>)>, width: usize, carries: bool) -> Self {
        // Sorting groups each key's values; the order among them only orders derivations.
        rows.sort_unstable();
        let len = rows.len();
        let mut most = 0u32;
        let mut k = 0;
        while k < len {
            let start = k;
            while k < len && rows[k].0 == rows[start].0 {
                k += 1;
            }
            most = most.max((k - start) as u32);
        }
        let zeros = if carries { Vec::new() } else { vec![Arr::ZERO; most as usize] };
        let (min, max) = (rows.first().map_or(0, |r| r.0 .0[0]), rows.last().map_or(0, |r| r.0 .0[0]));
        let range = (max - min) as usize + 1;
        let index = if width >= 1 && len > 0 && range <= (4 * len).max(1 << 16) && range < 1 << 24 {
            let mut starts = vec![0u32; range + 1];
            for r in &rows {
                starts[(r.0 .0[0] - min) as usize + 1] += 1;
            }
            for i in 1..starts.len() {
                starts[i] += starts[i - 1];
            }
            let keys = if width > 2 { rows.iter().map(|r| r.0).collect() } else { Vec::new() };
            let seconds = if width == 2 { rows.iter().map(|r| r.0 .0.get(1).copied().unwrap_or(0)).collect() } else { Vec::new() };
            let mut present = vec![0u64; range.div_ceil(64)];
            let mut held = 0;
            for i in 0..range {
                if starts[i + 1] > starts[i] {
                    present[i / 64] |= 1 << (i % 64);
                    held += 1;
                }
            }
            // Where nearly every value has rows the bit test would only add work to each probe.
            if held * 16 >= range * 15 {
                present = Vec::new();
            }
            Index::Dense { min, starts, keys, seconds, present }
        } else {
            let mut index = hashbrown::HashMap::with_capacity(len);
            let mut k = 0;
            while k < len {
                let start = k;
                while k < len && rows[k].0 == rows[start].0 {
                    k += 1;
                }
                index.insert(rows[start].0, (start as u32, (k - start) as u32));
            }
            Index::Hash(index)
        };
        let vals = if carries { rows.into_iter().map(|r| r.1).collect() } else { Vec::new() };
        TableData { index, vals, zeros, len }
    }

    /// The first row of `k` and how many rows it has.
    #[inline]
    fn find(&self, k: &Arr<K>) -> (usize, usize) {
        match &self.index {
            Index::Dense { min, starts, keys, seconds, present } => {
                let i = k.0[0].wrapping_sub(*min) as usize;
                if i + 1 >= starts.len() || present.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 0) {
                    return (0, 0);
                }
                let (lo, hi) = (starts[i] as usize, starts[i + 1] as usize);
                if !seconds.is_empty() {
                    // The key's other columns are zero in the table and in `k` alike.
                    let (run, x) = (&seconds[lo..hi], k.0.get(1).copied().unwrap_or(0));
                    let a = run.partition_point(|&y| y < x);
                    let n = run[a..].partition_point(|&y| y == x);
                    return (lo + a, n);
                }
                if keys.is_empty() {
                    return (lo, hi - lo);
                }
                let run = &keys[lo..hi];
                let a = run.partition_point(|x| x < k);
                let n = run[a..].partition_point(|x| x == k);
                (lo + a, n)
            }
            Index::Hash(h) => h.get(k).map_or((0, 0), |&(at, n)| (at as usize, n as usize)),
        }
    }

    /// The values carried for `k` (empty if `k` is absent).
    #[inline]
    fn get(&self, k: &Arr<K>) -> &[Arr<V>] {
        let (at, n) = self.find(k);
        if self.zeros.is_empty() {
            &self.vals[at..at + n]
        } else {
            &self.zeros[..n]
        }
    }

    #[inline]
    fn contains_key(&self, k: &Arr<K>) -> bool {
        self.find(k).1 > 0
    }

    /// Values held, counting repeats.
    fn len(&self) -> usize {
        self.len
    }
}

impl CmpOp {
    /// Whether `a op b`.
    #[inline]
    pub(crate) fn holds(self, a: u32, b: u32) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

impl Emit {
    #[inline]
    fn get<const K: usize, const V: usize>(s: Src, k: &Arr<K>, a: &Arr<V>, b: &Arr<V>) -> u32 {
        match s {
            Src::K(i) => k.0[i as usize],
            Src::A(i) => a.0[i as usize],
            Src::B(i) => b.0[i as usize],
            Src::C(c) => c,
        }
    }

    /// Checks the filters and builds the output row.
    #[inline]
    pub(crate) fn apply<const K: usize, const V: usize>(&self, k: &Arr<K>, a: &Arr<V>, b: &Arr<V>) -> Option<Row<K, V>> {
        for f in &self.filters {
            if !f.op.holds(Self::get(f.a, k, a, b), Self::get(f.b, k, a, b)) {
                return None;
            }
        }
        let mut ok = Arr::<K>::ZERO;
        for (slot, s) in ok.0.iter_mut().zip(&self.key) {
            *slot = Self::get(*s, k, a, b);
        }
        let mut ov = Arr::<V>::ZERO;
        for (slot, s) in ov.0.iter_mut().zip(&self.val) {
            *slot = Self::get(*s, k, a, b);
        }
        Some((ok, ov))
    }
}

/// The projection from a relation's canonical row to an arrangement's layout.
fn projection(spec: &ArrSpec, kw: usize) -> Emit {
    let src = |c: usize| if c < kw { Src::K(c as u8) } else { Src::A((c - kw) as u8) };
    Emit { key: spec.key.iter().map(|&c| src(c)).collect(), val: spec.val.iter().map(|&c| src(c)).collect(), filters: Vec::new() }
}

/// Joins two arrangements through `emit`, as one named operator. Every join goes through this
/// function, so the join operator is instantiated once per preset whatever the rule. Its output is
/// not consolidated: rows are mostly distinct, and every consumer (an arrangement or `distinct`)
/// consolidates anyway.
fn join<'s, const K: usize, const V: usize>(left: LArr<'s, Inner, K, V>, right: LArr<'s, Inner, K, V>, name: &str, emit: Emit) -> Coll<'s, Inner, K, V> {
    join_traces::<_, _, _, _, CapacityContainerBuilder<Vec<(Row<K, V>, Inner, Diff)>>>(left, right, name, move |k, a, b, t, d1, d2, out| {
        if let Some(row) = emit.apply(k, a, b) {
            out.push_into((row, t, d1 * d2));
        }
    })
    .as_collection()
}

fn mapper<const K: usize, const V: usize>(e: Emit) -> impl FnMut(Row<K, V>) -> Option<Row<K, V>> + 'static {
    move |(k, a)| e.apply(&k, &a, &Arr::ZERO)
}

/// A stratum's loop scope: collections of every relation it reads, and arrangements by id.
struct Ctx<'s, 'p, const K: usize, const V: usize> {
    names: &'p [String],
    colls: HashMap<usize, Coll<'s, Inner, K, V>>,
    arrs: HashMap<usize, LArr<'s, Inner, K, V>>,
    unit: Coll<'s, Inner, K, V>,
    distincts: Distincts,
    /// Rule bodies rendered so far, by their plan prefix (source and steps, as text).
    prefixes: HashMap<String, Coll<'s, Inner, K, V>>,
    /// The arrangement of each prefix's output, keyed for the step that follows it.
    prefix_arrs: HashMap<String, LArr<'s, Inner, K, V>>,
    /// Which relations are fixed inputs, whose arrangements become [`Table`]s.
    fixed: &'p [bool],
    /// The tables built so far, by arrangement id, shared by every stratum.
    tables: Rc<RefCell<Vec<(usize, Table<K, V>)>>>,
}

/// Each `distinct` operator's name and the number of rows it keeps state for.
type Distincts = Rc<RefCell<Vec<(String, Rc<Cell<usize>>)>>>;

/// `distinct`, registered in `reg` for the profile.
fn distinct<'s, const K: usize, const V: usize>(c: Coll<'s, Inner, K, V>, name: String, reg: &Distincts) -> Coll<'s, Inner, K, V> {
    let held = Rc::new(Cell::new(0));
    let out = crate::distinct::distinct(c, &name, Rc::clone(&held));
    reg.borrow_mut().push((name, held));
    out
}

impl<'s, const K: usize, const V: usize> Ctx<'s, '_, K, V> {
    fn coll(&self, rel: usize) -> Coll<'s, Inner, K, V> {
        // Every relation a rule reads is entered before rendering; the fallback is never used.
        self.colls.get(&rel).cloned().unwrap_or_else(|| self.unit.clone().filter(|_| false))
    }

    /// The shared arrangement `id`, built on first use.
    fn arr(&mut self, plan: &Plan, id: usize) -> LArr<'s, Inner, K, V> {
        if let Some(a) = self.arrs.get(&id) {
            return a.clone();
        }
        let spec = &plan.arrs[id];
        let projected = self.coll(spec.rel).flat_map(mapper(projection(spec, K)));
        let projected = if spec.distinct { distinct(projected, format!("distinct {}", self.names[spec.rel]), &self.distincts) } else { projected };
        let a = projected.arrange_by_key_named(&format!("arrange {}", plan.describe_arr(id, self.names)));
        self.arrs.insert(id, a.clone());
        a
    }

    /// The lookup table standing for arrangement `id`, if its relation is a fixed input.
    ///
    /// A join or antijoin with an arrangement must arrange its other side too, since a later change
    /// of the arrangement is matched against everything the other side ever sent. A fixed relation
    /// never changes after the first epoch, so a lookup while the rows stream past gives the same
    /// result without keeping them.
    fn table(&mut self, plan: &Plan, id: usize) -> Option<Table<K, V>> {
        if !self.fixed.get(plan.arrs[id].rel).copied().unwrap_or(false) {
            return None;
        }
        let mut tables = self.tables.borrow_mut();
        if let Some((_, t)) = tables.iter().find(|(i, _)| *i == id) {
            return Some(Rc::clone(t));
        }
        let t: Table<K, V> = Rc::default();
        tables.push((id, Rc::clone(&t)));
        Some(t)
    }

    /// Renders a rule's body. Rules that begin alike (the same source, then the same steps with
    /// the same layouts) share the collections and the intermediate arrangements of that common
    /// prefix: an intermediate arrangement holds every row the prefix derives, so each copy
    /// would cost as much memory as the first.
    ///
    /// Consecutive lookups in tables (and the projections around them) run as one operator, row
    /// by row, so no intermediate result of theirs is buffered; the rows are materialised as a
    /// collection only where an arrangement needs them. The lookups left at the end are returned
    /// pending, for [`Ctx::render_fused`].
    fn render_body(&mut self, plan: &Plan, rule: &RulePlan) -> Body<'s, K, V> {
        let mut prefix = format!("{:?}", rule.source);
        let mut chain: Vec<Stage<K, V>> = Vec::new();
        // What `cur` is, for fusing the pending lookups of rules that start from the same rows.
        let mut base = prefix.clone();
        let mut cur = match self.prefixes.get(&prefix) {
            Some(c) => c.clone(),
            None => match &rule.source {
                Source::Unit(e) => {
                    chain.push(Stage::Map(Op::new(e.clone())));
                    base = "unit".into();
                    self.unit.clone()
                }
                Source::Scan { rel, emit } => {
                    chain.push(Stage::Map(Op::new(emit.clone())));
                    base = format!("relation {rel}");
                    self.coll(*rel)
                }
                Source::Join { left, right, emit } => match (self.table(plan, *right), self.table(plan, *left)) {
                    (Some(t), _) => {
                        chain.push(Stage::Map(Op::new(projection(&plan.arrs[*left], K))));
                        chain.push(Stage::Join(t, Op::new(emit.clone())));
                        base = format!("relation {}", plan.arrs[*left].rel);
                        self.coll(plan.arrs[*left].rel)
                    }
                    (None, Some(t)) => {
                        chain.push(Stage::Map(Op::new(projection(&plan.arrs[*right], K))));
                        chain.push(Stage::JoinLeft(t, Op::new(emit.clone())));
                        base = format!("relation {}", plan.arrs[*right].rel);
                        self.coll(plan.arrs[*right].rel)
                    }
                    (None, None) => {
                        let l = self.arr(plan, *left);
                        let r = self.arr(plan, *right);
                        let c = join(l, r, &format!("join: {}", rule.label), emit.clone());
                        self.prefixes.insert(prefix.clone(), c.clone());
                        c
                    }
                },
            },
        };
        for (i, step) in rule.steps.iter().enumerate() {
            let label = format!("{}, step {}", rule.label, i + 1);
            let (Step::Join { right: id, emit } | Step::Anti { set: id, emit }) = step;
            if let Some(t) = self.table(plan, *id) {
                let _ = write!(prefix, " / {step:?}");
                if let Some(c) = self.prefixes.get(&prefix) {
                    cur = c.clone();
                    chain.clear();
                    base = prefix.clone();
                } else {
                    chain.push(if matches!(step, Step::Join { .. }) { Stage::Join(t, Op::new(emit.clone())) } else { Stage::Anti(t, Op::new(emit.clone())) });
                }
                continue;
            }
            // `cur` arrives keyed for this step, so its arrangement depends on the prefix alone.
            let p = match self.prefix_arrs.get(&prefix) {
                Some(p) => p.clone(),
                None => {
                    cur = self.materialise(cur, &mut chain, &prefix, &label);
                    let p = cur.clone().arrange_by_key_named(&format!("arrange: {label}"));
                    self.prefix_arrs.insert(prefix.clone(), p.clone());
                    p
                }
            };
            let _ = write!(prefix, " / {step:?}");
            base = prefix.clone();
            if let Some(c) = self.prefixes.get(&prefix) {
                cur = c.clone();
                chain.clear();
                continue;
            }
            cur = match step {
                Step::Join { right, emit } => {
                    let r = self.arr(plan, *right);
                    join(p, r, &format!("join: {label}"), emit.clone())
                }
                Step::Anti { set, emit } => {
                    // Antijoin as `rows - semijoin(rows, set)`; the set holds each key at most once.
                    let r = self.arr(plan, *set);
                    let rows = self.materialise(cur, &mut chain, &prefix, &label);
                    let keep = rows.flat_map(mapper(emit.clone()));
                    let drop = join(p, r, &format!("antijoin: {label}"), emit.clone());
                    keep.concat(drop.negate())
                }
            };
            self.prefixes.insert(prefix.clone(), cur.clone());
        }
        Body { base, rows: cur, chain, prefix, head: rule.head, label: rule.label.clone() }
    }

    /// Renders `rules` and returns each one's derivations with its head, fusing the pending lookups
    /// of rules that derive the same head from the same rows into one operator: a relation read by
    /// many rules (may_reach by a dozen) is otherwise copied to each of their operators, and each
    /// operator's output to the concatenation.
    fn render_fused<'r>(&mut self, plan: &Plan, rules: impl Iterator<Item = &'r RulePlan>) -> Vec<(usize, Coll<'s, Inner, K, V>)> {
        let mut out = Vec::new();
        let mut groups: Vec<Vec<Body<'s, K, V>>> = Vec::new();
        for rule in rules {
            let b = self.render_body(plan, rule);
            if b.chain.is_empty() || self.prefixes.contains_key(&b.prefix) {
                let mut b = b;
                let c = self.materialise(b.rows, &mut b.chain, &b.prefix, &b.label);
                out.push((rule.head, c));
                continue;
            }
            match groups.iter_mut().find(|g| g[0].base == b.base && g[0].head == b.head) {
                Some(g) => g.push(b),
                None => groups.push(vec![b]),
            }
        }
        for mut g in groups {
            if g.len() == 1 {
                let mut b = g.remove(0);
                let c = self.materialise(b.rows, &mut b.chain, &b.prefix, &b.label);
                out.push((b.head, c));
                continue;
            }
            let head = g[0].head;
            let rows = g[0].rows.clone();
            let name = format!("lookups: {}", g.iter().map(|b| b.label.as_str()).collect::<Vec<_>>().join("; "));
            let chains = g.into_iter().map(|b| b.chain).collect();
            out.push((head, lookups(rows, chains, &name)));
        }
        out
    }

    /// Applies the pending lookups to `cur`, as one operator, and records the result as `prefix`.
    fn materialise(&mut self, cur: Coll<'s, Inner, K, V>, chain: &mut Vec<Stage<K, V>>, prefix: &str, label: &str) -> Coll<'s, Inner, K, V> {
        if chain.is_empty() {
            return cur;
        }
        if let Some(c) = self.prefixes.get(prefix) {
            chain.clear();
            return c.clone();
        }
        let stages = std::mem::take(chain);
        let c = lookups(cur, vec![stages], &format!("lookups: {label}"));
        self.prefixes.insert(prefix.to_string(), c.clone());
        c
    }
}

/// A rendered rule body whose last lookups are still pending.
struct Body<'s, const K: usize, const V: usize> {
    /// Names the rows `rows` holds: rules with the same base read the same collection.
    base: String,
    rows: Coll<'s, Inner, K, V>,
    /// The lookups still to run on `rows`.
    chain: Vec<Stage<K, V>>,
    /// The rule's plan as text, under which its result is shared.
    prefix: String,
    head: usize,
    label: String,
}

/// One row-by-row stage of a chain of lookups.
enum Stage<const K: usize, const V: usize> {
    /// The row's new layout.
    Map(Op<K, V>),
    /// A join with a table: the row is the left side.
    Join(Table<K, V>, Op<K, V>),
    /// A join with a table that holds the left side; the row is the right side.
    JoinLeft(Table<K, V>, Op<K, V>),
    /// Rows whose key is in the table are dropped.
    Anti(Table<K, V>, Op<K, V>),
}

/// Size of [`Gather`]'s scratch row: key, left and right values (8 slots each, the widest
/// preset), then a zero and the constants.
const SCRATCH: usize = 32;
const CONSTS: usize = 24;

/// An [`Emit`] compiled for one preset: every output slot and filter operand is an index into a
/// scratch row holding the inputs and the constants, so building a row is a gather without the
/// branch per slot that matching on [`Src`] costs (the lookups run it for every derivation).
struct Gather<const K: usize, const V: usize> {
    key: [u8; K],
    val: [u8; V],
    consts: [u32; SCRATCH - CONSTS],
    filters: Vec<(u8, CmpOp, u8)>,
}

impl<const K: usize, const V: usize> Gather<K, V> {
    /// The compiled form of `e`, unless it has more distinct constants than the scratch row holds.
    fn new(e: &Emit) -> Option<Self> {
        let mut consts = [0u32; SCRATCH - CONSTS];
        let mut n = 1; // slot CONSTS holds the zero of unused output slots
        let mut slot = |s: Src| -> Option<u8> {
            Some(match s {
                Src::K(i) => i,
                Src::A(i) => 8 + i,
                Src::B(i) => 16 + i,
                Src::C(c) => match consts[..n].iter().position(|&x| x == c) {
                    Some(p) => (CONSTS + p) as u8,
                    None if n < consts.len() => {
                        consts[n] = c;
                        n += 1;
                        (CONSTS + n - 1) as u8
                    }
                    None => return None,
                },
            })
        };
        let mut key = [CONSTS as u8; K];
        for (k, s) in key.iter_mut().zip(&e.key) {
            *k = slot(*s)?;
        }
        let mut val = [CONSTS as u8; V];
        for (v, s) in val.iter_mut().zip(&e.val) {
            *v = slot(*s)?;
        }
        let mut filters = Vec::with_capacity(e.filters.len());
        for f in &e.filters {
            filters.push((slot(f.a)?, f.op, slot(f.b)?));
        }
        Some(Gather { key, val, consts, filters })
    }

    #[inline]
    fn apply(&self, k: &Arr<K>, a: &Arr<V>, b: &Arr<V>) -> Option<Row<K, V>> {
        let mut s = [0u32; SCRATCH];
        s[..K].copy_from_slice(&k.0);
        s[8..8 + V].copy_from_slice(&a.0);
        s[16..16 + V].copy_from_slice(&b.0);
        s[CONSTS..].copy_from_slice(&self.consts);
        for &(x, op, y) in &self.filters {
            if !op.holds(s[x as usize % SCRATCH], s[y as usize % SCRATCH]) {
                return None;
            }
        }
        let mut ok = Arr::<K>::ZERO;
        for (o, &i) in ok.0.iter_mut().zip(&self.key) {
            *o = s[i as usize % SCRATCH];
        }
        let mut ov = Arr::<V>::ZERO;
        for (o, &i) in ov.0.iter_mut().zip(&self.val) {
            *o = s[i as usize % SCRATCH];
        }
        Some((ok, ov))
    }
}

/// A row's projection in a chain of lookups: compiled when it can be.
enum Op<const K: usize, const V: usize> {
    Fast(Gather<K, V>),
    Slow(Emit),
}

impl<const K: usize, const V: usize> Op<K, V> {
    fn new(e: Emit) -> Self {
        // The scratch row holds 8 values per side; wider presets keep the interpreted form.
        match (K <= 8 && V <= 8).then(|| Gather::new(&e)).flatten() {
            Some(g) => Op::Fast(g),
            None => Op::Slow(e),
        }
    }

    #[inline]
    fn apply(&self, k: &Arr<K>, a: &Arr<V>, b: &Arr<V>) -> Option<Row<K, V>> {
        match self {
            Op::Fast(g) => g.apply(k, a, b),
            Op::Slow(e) => e.apply(k, a, b),
        }
    }
}

/// Runs `row` through `stages`, handing every row that comes out to `out`.
fn run_stages<const K: usize, const V: usize>(stages: &[Stage<K, V>], k: &Arr<K>, a: &Arr<V>, out: &mut impl FnMut(Row<K, V>)) {
    let Some((stage, rest)) = stages.split_first() else {
        out((*k, *a));
        return;
    };
    match stage {
        Stage::Map(e) => {
            if let Some((k2, a2)) = e.apply(k, a, &Arr::ZERO) {
                run_stages(rest, &k2, &a2, out);
            }
        }
        Stage::Join(t, e) => {
            for b in t.get().map(|t| t.get(k)).unwrap_or_default() {
                if let Some((k2, a2)) = e.apply(k, a, b) {
                    run_stages(rest, &k2, &a2, out);
                }
            }
        }
        Stage::JoinLeft(t, e) => {
            for l in t.get().map(|t| t.get(k)).unwrap_or_default() {
                if let Some((k2, a2)) = e.apply(k, l, a) {
                    run_stages(rest, &k2, &a2, out);
                }
            }
        }
        Stage::Anti(t, e) => {
            if !t.get().is_some_and(|t| t.contains_key(k)) {
                if let Some((k2, a2)) = e.apply(k, a, &Arr::ZERO) {
                    run_stages(rest, &k2, &a2, out);
                }
            }
        }
    }
}

/// Chains of lookup stages run on the same rows, as one operator (see [`Ctx::render_body`] and
/// [`Ctx::render_fused`]).
fn lookups<'s, const K: usize, const V: usize>(c: Coll<'s, Inner, K, V>, chains: Vec<Vec<Stage<K, V>>>, name: &str) -> Coll<'s, Inner, K, V> {
    c.inner
        .unary::<CapacityContainerBuilder<Vec<(Row<K, V>, Inner, Diff)>>, _, _, _>(Pipeline, name, move |_, _| {
            move |input, output| {
                input.for_each_stamp(|cap, data| {
                    let data = data.into_slice();
                    let mut session = output.session(&cap);
                    // One chain over all the rows, then the next: its tables and its stages' code
                    // stay in cache and its branches predictable, where going through every
                    // chain for each row had them all compete (the rows, read again per chain,
                    // stream in order).
                    for stages in &chains {
                        for batch in data.iter() {
                            for ((k, a), t, d) in batch.iter() {
                                run_stages(stages, k, a, &mut |row| session.give((row, *t, *d)));
                            }
                        }
                    }
                });
            }
        })
        .as_collection()
}

/// Changes to one observed relation collected during an epoch.
pub(crate) type OutputBuffer<const K: usize, const V: usize> = Rc<RefCell<Vec<(Row<K, V>, Diff)>>>;

/// Input handles, output buffers and the probe of one worker's dataflow.
pub(crate) struct Dataflow<const K: usize, const V: usize> {
    pub inputs: Vec<InputSession<Epoch, Row<K, V>, Diff>>,
    pub unit: InputSession<Epoch, Row<K, V>, Diff>,
    pub probe: ProbeHandle<Epoch>,
    /// Changes to observed relations since the last drain, per relation.
    pub outputs: Vec<Option<OutputBuffer<K, V>>>,
    /// Rows each `distinct` keeps state for.
    pub distinct_rows: Vec<(String, Rc<Cell<usize>>)>,
    /// The fixed relations' lookup tables, by arrangement id, for the worker to fill.
    pub tables: Vec<(usize, Table<K, V>)>,
}

/// Builds the dataflow for `plan` in `worker`; `observed[r]` selects relations whose changes are kept.
///
/// Each stratum with rules runs in its own iterative scope (a non-recursive one converges in a
/// single round), so every join, arrangement and `distinct` has the same timestamp type and is
/// compiled once per preset. Arrangements are shared by all rules of a stratum.
/// Joins and antijoins with a relation `fixed` marks read a [`Table`] instead of an arrangement.
pub(crate) fn build<const K: usize, const V: usize>(worker: &mut timely::worker::Worker, plan: &Plan, observed: &[bool], fixed: &[bool]) -> Dataflow<K, V> {
    worker.dataflow::<Epoch, _, _>(|scope| {
        let n = plan.arity.len();
        let mut inputs = Vec::with_capacity(n);
        let mut rels: Vec<Coll<'_, Epoch, K, V>> = Vec::with_capacity(n);
        for _ in 0..n {
            let (h, c) = scope.new_collection::<Row<K, V>, Diff>();
            inputs.push(h);
            rels.push(c);
        }
        let (unit_h, unit_c) = scope.new_collection::<Row<K, V>, Diff>();
        let distincts: Distincts = Rc::default();
        let tables: Rc<RefCell<Vec<(usize, Table<K, V>)>>> = Rc::default();

        let attached = &plan.attached;
        for (si, stratum) in plan.strata.iter().enumerate() {
            if stratum.rules.is_empty() || attached.iter().any(|a| a.contains(&si)) {
                continue;
            }
            let mut reads = Vec::new();
            for rule in &stratum.rules {
                rule_reads(plan, rule, &mut reads);
            }
            let results: Vec<(usize, Coll<'_, Epoch, K, V>)> = scope.iterative::<u32, _, _>(|inner| {
                let mut ctx = Ctx {
                    names: &plan.names,
                    colls: HashMap::new(),
                    arrs: HashMap::new(),
                    unit: unit_c.clone().enter(inner),
                    distincts: Rc::clone(&distincts),
                    prefixes: HashMap::new(),
                    prefix_arrs: HashMap::new(),
                    fixed,
                    tables: Rc::clone(&tables),
                };
                let mut vars = Vec::new();
                for &r in &stratum.rels {
                    if stratum.recursive && !stratum.inline.contains(&r) {
                        let (var, c) = VecVariable::new(inner, Product::new(0, 1));
                        vars.push((r, var));
                        ctx.colls.insert(r, c);
                    }
                }
                for &r in &reads {
                    if !ctx.colls.contains_key(&r) && !stratum.inline.contains(&r) {
                        ctx.colls.insert(r, rels[r].clone().enter(inner));
                    }
                }
                // Inline relations first, in dependency order, so that later rules can read them.
                for &r in &stratum.inline {
                    let parts: Vec<_> = ctx.render_fused(plan, stratum.rules.iter().filter(|rule| rule.head == r)).into_iter().map(|(_, c)| c).collect();
                    let c = differential_dataflow::collection::concatenate(inner, parts);
                    ctx.colls.insert(r, c);
                }
                let mut derived: HashMap<usize, Vec<Coll<'_, Inner, K, V>>> = HashMap::new();
                for (head, out) in ctx.render_fused(plan, stratum.rules.iter().filter(|rule| !stratum.inline.contains(&rule.head))) {
                    derived.entry(head).or_default().push(out);
                }
                let mut results = Vec::new();
                for &r in &stratum.inline {
                    if let Some(c) = ctx.colls.get(&r) {
                        results.push((r, c.clone().leave(scope)));
                    }
                }
                let mut finish = |r: usize| {
                    let mut parts = derived.remove(&r).unwrap_or_default();
                    if !stratum.set_valued.contains(&r) {
                        parts.push(rels[r].clone().enter(inner));
                    }
                    let all = differential_dataflow::collection::concatenate(inner, parts);
                    if stratum.set_valued.contains(&r) {
                        all
                    } else {
                        distinct(all, format!("distinct {}", plan.names[r]), &distincts)
                    }
                };
                for (r, var) in vars {
                    let next = finish(r);
                    var.set(next.clone());
                    results.push((r, next.leave(scope)));
                }
                if !stratum.recursive {
                    for &r in &stratum.rels {
                        let next = finish(r);
                        results.push((r, next.leave(scope)));
                    }
                }
                for &ai in &attached[si] {
                    let st = &plan.strata[ai];
                    let mut reads = Vec::new();
                    for rule in &st.rules {
                        rule_reads(plan, rule, &mut reads);
                    }
                    for &r in &reads {
                        ctx.colls.entry(r).or_insert_with(|| rels[r].clone().enter(inner));
                    }
                    let mut derived: HashMap<usize, Vec<Coll<'_, Inner, K, V>>> = HashMap::new();
                    for (head, out) in ctx.render_fused(plan, st.rules.iter()) {
                        derived.entry(head).or_default().push(out);
                    }
                    for &r in &st.rels {
                        let mut parts = derived.remove(&r).unwrap_or_default();
                        let set_valued = st.set_valued.contains(&r);
                        if !set_valued {
                            parts.push(rels[r].clone().enter(inner));
                        }
                        let all = differential_dataflow::collection::concatenate(inner, parts);
                        let next = if set_valued { all } else { distinct(all, format!("distinct {}", plan.names[r]), &distincts) };
                        ctx.colls.insert(r, next.clone());
                        results.push((r, next.leave(scope)));
                    }
                }
                results
            });
            for (r, c) in results {
                rels[r] = c;
            }
        }

        let probe = ProbeHandle::new();
        let mut outputs = Vec::with_capacity(n);
        for (r, coll) in rels.into_iter().enumerate() {
            if observed.get(r).copied().unwrap_or(false) {
                let buf: OutputBuffer<K, V> = Rc::new(RefCell::new(Vec::new()));
                let b = Rc::clone(&buf);
                coll.inspect(move |(row, _t, d)| b.borrow_mut().push((*row, *d))).probe_with(&probe);
                outputs.push(Some(buf));
            } else {
                coll.probe_with(&probe);
                outputs.push(None);
            }
        }
        unit_c.probe_with(&probe);
        let distinct_rows = distincts.borrow().clone();
        let tables = tables.borrow().clone();
        Dataflow { inputs, unit: unit_h, probe, outputs, distinct_rows, tables }
    })
}

impl<const K: usize, const V: usize> Dataflow<K, V> {
    /// Fills the lookup tables from the rows of the first epoch, all of them on every worker: a
    /// lookup happens wherever a row is derived, which need not be where the fixed row was fed.
    pub(crate) fn fill_tables<'u>(&self, plan: &Plan, updates: impl Iterator<Item = (usize, &'u [u32], usize)> + Clone) {
        for (id, table) in &self.tables {
            let spec = &plan.arrs[*id];
            let a = plan.arity[spec.rel];
            let proj = projection(spec, K);
            let mut t: Vec<(Arr<K>, Arr<V>)> = Vec::new();
            for (_, data, count) in updates.clone().filter(|u| u.0 == spec.rel) {
                for i in 0..count {
                    let row = &data[i * a..(i + 1) * a];
                    let split = a.min(K);
                    let mut k = Arr::<K>::ZERO;
                    let mut v = Arr::<V>::ZERO;
                    k.0[..split].copy_from_slice(&row[..split]);
                    v.0[..a - split].copy_from_slice(&row[split..]);
                    if let Some(row) = proj.apply(&k, &v, &Arr::ZERO) {
                        t.push(row);
                    }
                }
            }
            // Filled once, before the first epoch runs; an empty relation leaves the cell unset.
            let _ = table.set(TableData::new(t, spec.key.len(), !spec.val.is_empty()));
        }
    }

    /// Values each lookup table holds, named like the arrangement it stands for.
    pub(crate) fn table_rows(&self, plan: &Plan) -> Vec<(String, usize)> {
        self.tables.iter().map(|(id, t)| (format!("table {}", plan.describe_arr(*id, &plan.names)), t.get().map_or(0, TableData::len))).collect()
    }
}
