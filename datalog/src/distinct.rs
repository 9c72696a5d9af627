//! `distinct` for the engine's loops, with per-row state in a hash map.
//!
//! Differential's general `distinct` (an arrangement plus `reduce`) replays each row's history
//! through sorted batches and cursors; it was half of the running time of the interference rules.
//! This operator exploits how the engine runs: every collection that reaches it lives in an
//! iterative scope with times `(epoch, round)`, and epochs run one after another (the engine waits
//! for an epoch to finish before it feeds the next). Times are then processed in lexicographic
//! order, and a row's history is a short list of `(round, count)` pairs per epoch, summed over
//! the finished epochs.
//!
//! For a row, let `old(i)` be its count at round `i` summed over finished epochs and `new(i)` the
//! same including the current epoch. Differential semantics ask that the output, summed over all
//! times at or before `(e, i)`, be `[new(i) > 0]`. Over the earlier epochs it already sums to
//! `[old(i) > 0]`, so within epoch `e` the output summed over rounds `<= i` must be
//! `D(i) = [new(i) > 0] - [old(i) > 0]`. `D` can change only at rounds where this epoch brings
//! updates for the row, or where its old history changes; the operator evaluates the row exactly
//! there and emits the change of `D`.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

use differential_dataflow::hashable::Hashable;
use differential_dataflow::AsCollection;
use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::Capability;
use timely::order::Product;

use crate::dataflow::{Diff, Epoch};

type Time = Product<Epoch, u32>;

/// A row's count at one round: summed over finished epochs (`old`) and in the current one (`cur`).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    round: u32,
    old: i32,
    cur: i32,
}

/// What the operator knows about one row: its counts per round, sorted by round, the first two
/// inline (most rows appear in one or two rounds, so most rows cost no allocation), and the output
/// already emitted for it in the current epoch. 40 bytes, so the table stays cache-friendly.
#[derive(Clone, Debug, Default)]
struct RowState {
    epoch: Epoch,
    emitted: i8,
    len: u8,
    inline: [Entry; 2],
    // Boxed, a spill costs one pointer in every row's state rather than a vector's three words;
    // the state is a third of the table's memory for a large relation.
    #[allow(clippy::box_collection)]
    spill: Option<Box<Vec<Entry>>>,
}

const _: () = assert!(std::mem::size_of::<RowState>() == 40);

impl RowState {
    fn entries(&self) -> impl Iterator<Item = &Entry> + '_ {
        self.inline[..self.len as usize].iter().chain(self.spill.iter().flat_map(|v| v.iter()))
    }

    fn rebuild(&mut self, v: Vec<Entry>) {
        self.len = 0;
        self.spill = None;
        for e in v {
            if (self.len as usize) < self.inline.len() {
                self.inline[self.len as usize] = e;
                self.len += 1;
            } else {
                self.spill.get_or_insert_with(Default::default).push(e);
            }
        }
    }

    /// Moves to epoch `e`, folding a finished epoch's counts into the history.
    fn enter(&mut self, e: Epoch) {
        if self.epoch == e {
            return;
        }
        self.epoch = e;
        self.emitted = 0;
        if self.spill.is_none() {
            let mut n = 0;
            for k in 0..self.len as usize {
                let mut x = self.inline[k];
                x.old += x.cur;
                x.cur = 0;
                if x.old != 0 {
                    self.inline[n] = x;
                    n += 1;
                }
            }
            self.len = n as u8;
        } else {
            let v = self.entries().map(|x| Entry { round: x.round, old: x.old + x.cur, cur: 0 }).filter(|x| x.old != 0).collect();
            self.rebuild(v);
        }
    }

    /// Adds `d` to the current epoch's count at round `i`.
    fn add(&mut self, i: u32, d: i32) {
        let n = self.len as usize;
        if self.spill.is_none() {
            if let Some(k) = self.inline[..n].iter().position(|x| x.round == i) {
                self.inline[k].cur += d;
                if self.inline[k].cur == 0 && self.inline[k].old == 0 {
                    self.inline.copy_within(k + 1..n, k);
                    self.len -= 1;
                }
                return;
            }
            if n < self.inline.len() {
                let k = self.inline[..n].iter().position(|x| x.round > i).unwrap_or(n);
                self.inline.copy_within(k..n, k + 1);
                self.inline[k] = Entry { round: i, old: 0, cur: d };
                self.len += 1;
                return;
            }
        }
        let mut v: Vec<Entry> = self.entries().copied().collect();
        match v.binary_search_by_key(&i, |x| x.round) {
            Ok(p) => v[p].cur += d,
            Err(p) => v.insert(p, Entry { round: i, old: 0, cur: d }),
        }
        v.retain(|x| x.old != 0 || x.cur != 0);
        self.rebuild(v);
    }

    /// Counts at rounds `<= i`: over finished epochs, and including the current one.
    fn prefix(&self, i: u32) -> (i64, i64) {
        let (mut old, mut cur) = (0i64, 0i64);
        for x in self.entries().take_while(|x| x.round <= i) {
            old += x.old as i64;
            cur += x.cur as i64;
        }
        (old, old + cur)
    }

    /// The first round after `i` where the finished epochs' count changes.
    fn old_flip_after(&self, i: u32) -> Option<u32> {
        self.entries().find(|x| x.round > i && x.old != 0).map(|x| x.round)
    }
}

/// A round's updates not yet processed, each with its row's hash.
struct Pending<D> {
    v: Vec<(u64, D, Diff)>,
    /// The length at which `v` is consolidated next.
    limit: usize,
    /// How many of the first updates are consolidated already, in the order of `buckets`.
    sorted: usize,
    buckets: u64,
}

impl<D: Ord + Copy> Pending<D> {
    fn new() -> Self {
        Pending { v: Vec::new(), limit: 1 << 16, sorted: 0, buckets: 0 }
    }

    /// Sorts the updates in the order of a table of `buckets` buckets and sums those of equal
    /// rows, dropping zeros unless `keep_zeros`.
    ///
    /// A large round is consolidated several times as it arrives (each time its length doubles),
    /// and sorting it whole each time sorted most updates three times over. Only the updates
    /// that came since are sorted now, then merged with the consolidated ones. The order of a
    /// somewhat smaller or larger table serves as well (its buckets are those of this one
    /// visited as a few interleaved sweeps), so it is kept rather than sorting everything again.
    fn consolidate(&mut self, buckets: u64, keep_zeros: bool) {
        let p = self.sorted;
        if p == 0 || self.buckets > buckets.saturating_mul(4) || buckets > self.buckets.saturating_mul(4) {
            self.buckets = buckets;
            sort_hashed(&mut self.v, buckets);
        } else {
            sort_hashed(&mut self.v[p..], self.buckets);
            merge_tail(&mut self.v, p, self.buckets);
        }
        sum_equal(&mut self.v, keep_zeros);
        self.sorted = self.v.len();
    }
}

/// The order in which a table of `buckets` buckets is visited, then by hash and row, so that equal
/// rows are adjacent. One comparison on the hash does both jobs a consolidation by row and a sort
/// by bucket did: it nearly always ends at the first word, where comparing rows looked at six.
fn hashed_order<D: Ord>(buckets: u64) -> impl Fn(&(u64, D, Diff), &(u64, D, Diff)) -> std::cmp::Ordering + Copy {
    let order = move |h: u64| h & (buckets - 1);
    move |a, b| (order(a.0), a.0, &a.1).cmp(&(order(b.0), b.0, &b.1))
}

/// Sorts `v` in [`hashed_order`].
fn sort_hashed<D: Ord + Copy>(v: &mut [(u64, D, Diff)], buckets: u64) {
    let order = |h: u64| h & (buckets - 1);
    let cmp = hashed_order(buckets);
    // A large round is first split by the top bits of the bucket, in place, and each part sorted
    // on its own: the order is the same as one sort's, but each part fits the cache and needs a
    // dozen fewer levels of comparisons.
    let bits = buckets.trailing_zeros();
    let radix = bits.min(8);
    if v.len() >= 1 << 14 && radix >= 8 {
        let shift = bits - radix;
        let bin = |h: u64| (order(h) >> shift) as usize;
        let n = 1usize << radix;
        let mut ends = vec![0usize; n];
        for x in v.iter() {
            ends[bin(x.0)] += 1;
        }
        let mut next = vec![0usize; n];
        let mut at = 0;
        for b in 0..n {
            next[b] = at;
            at += ends[b];
            ends[b] = at;
        }
        let starts = next.clone();
        // American flag sort's permutation: every element is swapped straight into its part.
        for b in 0..n {
            while next[b] < ends[b] {
                let i = next[b];
                let t = bin(v[i].0);
                if t == b {
                    next[b] += 1;
                } else {
                    v.swap(i, next[t]);
                    next[t] += 1;
                }
            }
        }
        for b in 0..n {
            v[starts[b]..ends[b]].sort_unstable_by(cmp);
        }
    } else {
        v.sort_unstable_by(cmp);
    }
}

/// Merges the sorted runs `v[..p]` and `v[p..]` in place, from the back, with a copy of the second
/// run as the only scratch space.
fn merge_tail<D: Ord + Copy>(v: &mut [(u64, D, Diff)], p: usize, buckets: u64) {
    let cmp = hashed_order(buckets);
    if p == 0 || p == v.len() || cmp(&v[p - 1], &v[p]).is_le() {
        return;
    }
    let tail = v[p..].to_vec();
    let (mut i, mut j, mut w) = (p, tail.len(), v.len());
    // Every write lands at or after the next read of the first run, so nothing is overwritten
    // before it is read; once the copy is used up the rest of the first run is already in place.
    while j > 0 {
        w -= 1;
        if i > 0 && cmp(&v[i - 1], &tail[j - 1]).is_gt() {
            v[w] = v[i - 1];
            i -= 1;
        } else {
            v[w] = tail[j - 1];
            j -= 1;
        }
    }
}

/// Sums the diffs of adjacent equal rows of a sorted `v`, dropping zeros unless `keep_zeros`.
fn sum_equal<D: Ord + Copy>(v: &mut Vec<(u64, D, Diff)>, keep_zeros: bool) {
    let mut w = 0;
    let mut k = 0;
    while k < v.len() {
        let (h, row, mut d) = v[k];
        k += 1;
        while k < v.len() && v[k].0 == h && v[k].1 == row {
            d += v[k].2;
            k += 1;
        }
        if d != 0 || keep_zeros {
            v[w] = (h, row, d);
            w += 1;
        }
    }
    v.truncate(w);
}

/// The number of buckets of a hash table of `capacity` (hashbrown's: a power of two, at most 7/8 full).
fn bucket_count(capacity: usize) -> u64 {
    ((capacity + capacity / 7).max(8) as u64).next_power_of_two()
}

/// How many rows of a round are looked up ahead of their visit.
const AHEAD: usize = 8;

/// A row and its state, as the table stores them.
trait Slot<D>: 'static {
    fn new(row: D) -> Self;
    fn row(&self) -> &D;
    fn state(&mut self) -> &mut RowState;
}

/// A slot of exactly one cache line, aligned to one: each visit of a row then touches one line,
/// where a slot at the table's natural 16-byte alignment straddles two three times in four (and
/// the visits of a large relation's rows are nearly all cache misses, however they are ordered).
#[repr(align(64))]
struct Line<D>(D, RowState);

/// A slot of any other size, packed as tightly as its fields allow (padding it to a line would
/// cost memory without saving a line per visit).
struct Plain<D>(D, RowState);

impl<D: 'static> Slot<D> for Line<D> {
    fn new(row: D) -> Self {
        Line(row, RowState::default())
    }
    fn row(&self) -> &D {
        &self.0
    }
    fn state(&mut self) -> &mut RowState {
        &mut self.1
    }
}

impl<D: 'static> Slot<D> for Plain<D> {
    fn new(row: D) -> Self {
        Plain(row, RowState::default())
    }
    fn row(&self) -> &D {
        &self.0
    }
    fn state(&mut self) -> &mut RowState {
        &mut self.1
    }
}

/// The set of rows with a positive count, as a collection; `name` names the operator, and `held`
/// receives the number of rows whose state it keeps (for the engine's profile).
pub(crate) fn distinct<'s, D>(input: differential_dataflow::VecCollection<'s, Time, D, Diff>, name: &str, held: Rc<Cell<usize>>) -> differential_dataflow::VecCollection<'s, Time, D, Diff>
where
    D: differential_dataflow::ExchangeData + std::hash::Hash + Ord + Copy,
{
    if std::mem::size_of::<Plain<D>>() == 64 {
        distinct_in::<D, Line<D>>(input, name, held)
    } else {
        distinct_in::<D, Plain<D>>(input, name, held)
    }
}

fn distinct_in<'s, D, S>(input: differential_dataflow::VecCollection<'s, Time, D, Diff>, name: &str, held: Rc<Cell<usize>>) -> differential_dataflow::VecCollection<'s, Time, D, Diff>
where
    D: differential_dataflow::ExchangeData + std::hash::Hash + Ord + Copy,
    S: Slot<D>,
{
    let exchange = Exchange::new(|u: &(D, Time, Diff)| u.0.hashed());
    input
        .inner
        .unary_frontier::<CapacityContainerBuilder<Vec<(D, Time, Diff)>>, _, _, _>(exchange, name, |_cap, _info| {
            let mut rows: HashTable<S> = HashTable::new();
            let hasher = DefaultHashBuilder::default();
            // Updates not yet processed, and rows to re-evaluate, by time (lexicographic order).
            // With the size at which each is consolidated next: rules derive many rows more than
            // once, and a round's derivations would otherwise all wait here side by side.
            let mut pending: BTreeMap<(Epoch, u32), Pending<D>> = BTreeMap::new();
            let mut todo: BTreeMap<(Epoch, u32), Vec<D>> = BTreeMap::new();
            let mut caps: BTreeMap<(Epoch, u32), Capability<Time>> = BTreeMap::new();
            move |(input, frontier), output| {
                input.for_each(|cap, data| {
                    // The table's bucket count as it will be once this input is in: only an
                    // ordering hint for the consolidations, which the last one settles.
                    let buckets = bucket_count(rows.capacity().max(rows.len() + data.len()));
                    for (row, t, d) in data.drain(..) {
                        let key = (t.outer, t.inner);
                        caps.entry(key).or_insert_with(|| cap.delayed(&t, 0));
                        let p = pending.entry(key).or_insert_with(Pending::new);
                        p.v.push((hasher.hash_one(row), row, d));
                        if p.v.len() >= p.limit {
                            p.consolidate(buckets, false);
                            p.limit = (2 * p.v.len()).max(1 << 16);
                        }
                    }
                });
                loop {
                    let next = match (pending.keys().next(), todo.keys().next()) {
                        (Some(a), Some(b)) => *a.min(b),
                        (Some(a), None) => *a,
                        (None, Some(b)) => *b,
                        (None, None) => break,
                    };
                    let time = Product::new(next.0, next.1);
                    if frontier.less_equal(&time) {
                        break;
                    }
                    let Some(cap) = caps.remove(&next) else { break };
                    let (e, i) = next;
                    // This round's updates and due rows, each row once, visited in the order of
                    // their buckets in the table: a large round then sweeps the table instead of
                    // jumping around it, which is what made a hash table slower than sorting.
                    let mut work = pending.remove(&next).unwrap_or_else(Pending::new);
                    let due = todo.remove(&next).unwrap_or_default();
                    rows.reserve(work.v.len(), |x| hasher.hash_one(x.row()));
                    work.v.extend(due.into_iter().map(|r| (hasher.hash_one(r), r, 0)));
                    // A due row is evaluated even when this round's updates cancel for it.
                    work.consolidate(bucket_count(rows.capacity()), true);
                    let work = work.v;
                    let mut session = output.session(&cap);
                    for (j, &(h, row, d)) in work.iter().enumerate() {
                        // The visits of a large table miss the cache one after another, each
                        // waiting on the last (the state decides the next step). Finding the rows
                        // of the next block first, in a loop of independent lookups, lets those
                        // misses overlap; the visits then find their lines in cache.
                        if j % AHEAD == 0 {
                            for (h2, r2, _) in work.iter().skip(j + AHEAD).take(AHEAD) {
                                std::hint::black_box(rows.find(*h2, |x| x.row() == r2));
                            }
                        }
                        let entry = rows.entry(h, |x| *x.row() == row, |x| hasher.hash_one(x.row()));
                        let mut slot = entry.or_insert_with(|| S::new(row));
                        let st = slot.get_mut().state();
                        st.enter(e);
                        if d != 0 {
                            st.add(i, d as i32);
                        }
                        let (old, new) = st.prefix(i);
                        let want = (new > 0) as i8 - (old > 0) as i8;
                        if want != st.emitted {
                            session.give((row, time, (want - st.emitted) as Diff));
                            st.emitted = want;
                        }
                        // The old history may flip the answer at a later round of this epoch.
                        if let Some(r) = st.old_flip_after(i) {
                            let at = (e, r);
                            caps.entry(at).or_insert_with(|| cap.delayed(&Product::new(e, r)));
                            todo.entry(at).or_default().push(row);
                        }
                        if st.len == 0 && st.emitted == 0 {
                            slot.remove();
                        }
                    }
                }
                held.set(rows.len());
            }
        })
        .as_collection()
}
