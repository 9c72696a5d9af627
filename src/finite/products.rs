//! Exact reachability stored as unions of Cartesian products per global store (SAS 2007,
//! Section 4.3, with the exception set grown to every reachable state).
//!
//! [`super::explicit`] keeps one state per combination of the threads' positions. Where the
//! threads wait independently of each other (a filter lock's threads spin on their own
//! levels), the states of one global store are nearly a product of the threads' positions,
//! and their number grows with the product of the threads' position counts. Here a state set
//! is `{g} × S_1 × … × S_n`, one set of positions per thread, so such a store costs a few
//! products instead of thousands of states.
//!
//! The exploration stays exact. A thread's step depends only on the global store and its own
//! position, so the successors of a product by thread `i` are, for each successor `(g', p')`
//! of some member of `S_i`, exactly the product `{g'} × … × {p'} × …` with the other sets
//! kept. Products only get larger by merging two of one global store that differ in one
//! thread's set (their union is then a product), or by dropping one another contains; neither
//! adds a state. A merged product is explored again, so that its successors come as large
//! products too: exploring only what the merge added keeps every set as small as it was
//! made, and then the products are hardly fewer than the states (measured on the filter
//! lock). What the merged product held before was explored already; those successors are
//! found contained and dropped. A product merged away before its turn is not explored.
//!
//! Unlike [`super::explicit`], slots of one class are not sorted: a product stands for its
//! states literally. That keeps every product ever stored contained in a standing one (a
//! product is dropped only for one that contains it), so none is stored twice and the
//! exploration ends; sorting the sets of interchangeable threads broke that containment and
//! looped on programs with several identical threads.

use super::explicit::{step_position, Failures, Positions, Start};
use super::model::{Decline, Model};
use super::space::Space;
use crate::ir::AssertId;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The reachable states of the projection, as products per global store.
pub struct Products<'m, 'p> {
    /// The stores.
    pub space: Space<'m, 'p>,
    /// Per class: the positions, numbered.
    positions: Vec<Positions>,
    /// Per class: sets of positions (sorted position numbers), numbered.
    sets: Vec<Positions>,
    /// Every product made: global store, then each slot's set; empty once it no longer
    /// stands (merged into, or contained in, another).
    items: Vec<Box<[u32]>>,
    /// Per global store: its standing products.
    by_global: HashMap<u32, Vec<usize>>,
    /// Products explored (a merged product once more).
    pub explored: usize,
    /// Products standing.
    standing: usize,
}

impl<'m, 'p> Products<'m, 'p> {
    /// Explores every reachable state, declining past `max_products` standing products or the
    /// deadline.
    pub fn run(m: &'m Model<'p>, limit: usize, max_products: usize, deadline: Option<std::time::Instant>) -> Result<Self, Decline> {
        let Start { space, g0, positions, mut caches, start } = Start::new(m, limit)?;
        let mut x = Products { space, positions, sets: (0..m.classes.len()).map(|_| Positions::default()).collect(), items: Vec::new(), by_global: HashMap::new(), explored: 0, standing: 0 };
        let mut init = vec![g0];
        init.extend(m.slots.iter().map(|s| x.sets[s.class].intern(Box::new([start[s.class]]))));
        // Depth first: breadth first lets more merges happen before a product's turn, but was
        // four times slower on the filter lock (n = 5), with more products explored.
        let mut stack = Vec::new();
        x.add(init.into_boxed_slice(), &mut stack);
        while let Some(k) = stack.pop() {
            if x.items[k].is_empty() {
                continue;
            }
            x.explored += 1;
            if x.standing > max_products {
                return Err(format!("the exact exploration exceeds {max_products} products"));
            }
            if x.explored.is_multiple_of(1024) && deadline.is_some_and(|d| std::time::Instant::now() > d) {
                return Err(format!("the exact exploration ran out of time after {} products made", x.items.len()));
            }
            let prod = x.items[k].clone();
            for i in 0..m.slots.len() {
                let class = m.slots[i].class;
                // The successors that reach one global store form one product (they differ
                // only in this thread's position). Ordered, so numbering (and every output) is
                // deterministic.
                let mut targets: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
                for &p in x.sets[class].items[prod[i + 1] as usize].clone().iter() {
                    for (g, p2) in step_position(&mut x.space, &mut x.positions[class], &mut caches[class], class, prod[0], p)? {
                        targets.entry(g).or_default().insert(p2);
                    }
                }
                for (g, ps) in targets {
                    let mut q = prod.clone();
                    q[0] = g;
                    q[i + 1] = x.sets[class].intern(ps.into_iter().collect());
                    x.add(q, &mut stack);
                }
            }
        }
        Ok(x)
    }

    /// Whether every set of `a` is contained in the same slot's set of `b` (same global store).
    fn within(&self, a: &[u32], b: &[u32]) -> bool {
        let m = self.space.m;
        (1..a.len()).all(|j| a[j] == b[j] || subset(&self.sets[m.slots[j - 1].class].items[a[j] as usize], &self.sets[m.slots[j - 1].class].items[b[j] as usize]))
    }

    /// Adds a product unless a standing one contains it, merging it into one that differs
    /// from it in one slot only.
    fn add(&mut self, mut q: Box<[u32]>, stack: &mut Vec<usize>) {
        loop {
            let here = self.by_global.get(&q[0]).map(Vec::as_slice).unwrap_or_default();
            if here.iter().any(|&r| self.within(&q, &self.items[r])) {
                return;
            }
            let merge = here.iter().find_map(|&r| {
                let mut diff = (1..q.len()).filter(|&j| self.items[r][j] != q[j]);
                match (diff.next(), diff.next()) {
                    (Some(k), None) => Some((r, k)),
                    _ => None,
                }
            });
            if let Some((r, k)) = merge {
                let class = self.space.m.slots[k - 1].class;
                let sets = &self.sets[class].items;
                let mut union: Vec<u32> = sets[q[k] as usize].iter().chain(sets[self.items[r][k] as usize].iter()).copied().collect();
                union.sort_unstable();
                union.dedup();
                let mut u = self.items[r].clone();
                u[k] = self.sets[class].intern(union.into_boxed_slice());
                self.kill(r);
                q = u;
                continue;
            }
            let contained: Vec<usize> = here.iter().copied().filter(|&r| self.within(&self.items[r], &q)).collect();
            for r in contained {
                self.kill(r);
            }
            let k = self.items.len();
            self.by_global.entry(q[0]).or_default().push(k);
            self.items.push(q);
            self.standing += 1;
            stack.push(k);
            return;
        }
    }

    fn kill(&mut self, r: usize) {
        self.standing -= 1;
        if let Some(v) = self.by_global.get_mut(&self.items[r][0]) {
            v.retain(|&x| x != r);
        }
        // Its states stand in another product now; only its number stays.
        self.items[r] = Box::new([]);
    }

    /// Standing products (their union is the reachable set).
    pub fn products(&self) -> usize {
        self.standing
    }

    /// Failing states of an assertion, described; empty when it holds in every reachable state.
    pub fn failures(&self, a: AssertId) -> Vec<String> {
        let mut f = Failures::new(&self.space, &self.positions, a);
        for prod in self.items.iter().filter(|p| !p.is_empty()) {
            for (i, slot) in self.space.m.slots.iter().enumerate() {
                for &p in self.sets[slot.class].items[prod[i + 1] as usize].iter() {
                    f.visit(i, prod[0], p);
                }
            }
        }
        f.out
    }
}

/// Whether sorted `a` is contained in sorted `b`.
fn subset(a: &[u32], b: &[u32]) -> bool {
    let mut it = b.iter();
    a.iter().all(|x| it.any(|y| y == x))
}
