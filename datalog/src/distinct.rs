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

use std::collections::BTreeMap;

use differential_dataflow::hashable::Hashable;
use differential_dataflow::AsCollection;
use hashbrown::HashMap;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::Capability;
use timely::order::Product;

use crate::dataflow::{Diff, Epoch};

type Time = Product<Epoch, u32>;

/// A short, sorted list of `(round, count)`; the first entries are stored inline so that most
/// rows cost no allocation.
#[derive(Clone, Debug, Default)]
struct Hist {
    len: u8,
    inline: [(u32, Diff); 2],
    spill: Vec<(u32, Diff)>,
}

impl Hist {
    fn iter(&self) -> impl Iterator<Item = (u32, Diff)> + '_ {
        self.inline[..self.len as usize].iter().copied().chain(self.spill.iter().copied())
    }

    /// Adds `d` at round `i`, keeping rounds sorted and dropping zero counts.
    fn add(&mut self, i: u32, d: Diff) {
        if d == 0 {
            return;
        }
        let n = self.len as usize;
        if self.spill.is_empty() {
            // Inline only: update in place when there is room, which is almost always.
            if let Some(k) = self.inline[..n].iter().position(|e| e.0 == i) {
                self.inline[k].1 += d;
                if self.inline[k].1 == 0 {
                    self.inline.copy_within(k + 1..n, k);
                    self.len -= 1;
                }
                return;
            }
            if n < self.inline.len() {
                let k = self.inline[..n].iter().position(|e| e.0 > i).unwrap_or(n);
                self.inline.copy_within(k..n, k + 1);
                self.inline[k] = (i, d);
                self.len += 1;
                return;
            }
        }
        let mut v: Vec<(u32, Diff)> = self.iter().collect();
        match v.binary_search_by_key(&i, |e| e.0) {
            Ok(p) => v[p].1 += d,
            Err(p) => v.insert(p, (i, d)),
        }
        v.retain(|e| e.1 != 0);
        self.len = 0;
        self.spill.clear();
        for (r, c) in v {
            self.push(r, c);
        }
    }

    fn push(&mut self, r: u32, c: Diff) {
        if (self.len as usize) < self.inline.len() {
            self.inline[self.len as usize] = (r, c);
            self.len += 1;
        } else {
            self.spill.push((r, c));
        }
    }

    /// The sum of counts at rounds `<= i`.
    fn prefix(&self, i: u32) -> Diff {
        self.iter().take_while(|e| e.0 <= i).map(|e| e.1).sum()
    }

    /// The first round after `i` with an entry.
    fn next_after(&self, i: u32) -> Option<u32> {
        self.iter().map(|e| e.0).find(|&r| r > i)
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// What the operator knows about one row.
#[derive(Clone, Debug, Default)]
struct RowState {
    /// Counts per round, summed over epochs before `epoch`.
    old: Hist,
    /// Counts per round in `epoch`.
    cur: Hist,
    /// The epoch `cur` and `emitted` belong to.
    epoch: Epoch,
    /// The output emitted for the row in `epoch`, summed over rounds so far.
    emitted: Diff,
}

impl RowState {
    /// Brings the row to epoch `e`: folds a finished epoch's counts into the history.
    fn enter(&mut self, e: Epoch) {
        if self.epoch != e {
            if !self.cur.is_empty() {
                let cur = std::mem::take(&mut self.cur);
                for (r, c) in cur.iter() {
                    self.old.add(r, c);
                }
            }
            self.epoch = e;
            self.emitted = 0;
        }
    }
}

/// The set of rows with a positive count, as a collection; `name` names the operator.
pub(crate) fn distinct<'s, D>(
    input: differential_dataflow::VecCollection<'s, Time, D, Diff>,
    name: &str,
) -> differential_dataflow::VecCollection<'s, Time, D, Diff>
where
    D: differential_dataflow::ExchangeData + std::hash::Hash + Eq + Copy,
{
    let exchange = Exchange::new(|u: &(D, Time, Diff)| u.0.hashed());
    input
        .inner
        .unary_frontier::<CapacityContainerBuilder<Vec<(D, Time, Diff)>>, _, _, _>(exchange, name, |_cap, _info| {
            let mut rows: HashMap<D, RowState> = HashMap::new();
            // Updates not yet processed, and rows to re-evaluate, by time (lexicographic order).
            let mut pending: BTreeMap<(Epoch, u32), Vec<(D, Diff)>> = BTreeMap::new();
            let mut todo: BTreeMap<(Epoch, u32), Vec<D>> = BTreeMap::new();
            let mut caps: BTreeMap<(Epoch, u32), Capability<Time>> = BTreeMap::new();
            let mut batch: Vec<D> = Vec::new();
            move |(input, frontier), output| {
                input.for_each(|cap, data| {
                    for (row, t, d) in data.drain(..) {
                        let key = (t.outer, t.inner);
                        caps.entry(key).or_insert_with(|| cap.delayed(&t, 0));
                        pending.entry(key).or_default().push((row, d));
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
                    batch.clear();
                    for (row, d) in pending.remove(&next).unwrap_or_default() {
                        let st = rows.entry(row).or_default();
                        st.enter(e);
                        st.cur.add(i, d);
                        batch.push(row);
                    }
                    batch.extend(todo.remove(&next).unwrap_or_default());
                    batch.sort_unstable();
                    batch.dedup();
                    let mut session = output.session(&cap);
                    for row in batch.drain(..) {
                        let Some(st) = rows.get_mut(&row) else { continue };
                        st.enter(e);
                        let old = st.old.prefix(i);
                        let new = old + st.cur.prefix(i);
                        let want = Diff::from(new > 0) - Diff::from(old > 0);
                        if want != st.emitted {
                            session.give((row, time, want - st.emitted));
                            st.emitted = want;
                        }
                        // The old history may flip the answer at a later round of this epoch.
                        if let Some(r) = st.old.next_after(i) {
                            let at = (e, r);
                            caps.entry(at).or_insert_with(|| cap.delayed(&Product::new(e, r)));
                            todo.entry(at).or_default().push(row);
                        }
                        if st.old.is_empty() && st.cur.is_empty() {
                            rows.remove(&row);
                        }
                    }
                }
            }
        })
        .as_collection()
}
