//! Cartesian abstract interpretation with exception sets (SAS 2007, Sections 3 and 4).
//!
//! Threads of one class run the same code and are interchangeable ([`super::model::Class`]),
//! so the abstraction is the symmetric one: per global store `g` and class `c`, one set
//! `X_c^[g]` of local stores that any thread of the class may stand in. Its concretisation is
//! the union over `g` of the products `{g} × X_{c(1)}^[g] × … × X_{c(n)}^[g]`, plus the
//! exception set `E`. This is the per-thread Cartesian abstraction made symmetric: for a
//! program whose threads of a class are identical, the per-thread fixpoint is symmetric
//! anyway, and the symmetric one costs the same for 2 threads or 100.
//!
//! A product is written per class as a few entries `(component, copies)`: the threads of the
//! class split into groups whose local stores range over the component. One iteration
//! computes `α(α_E(init ∪ post(γ_E(γ X))))`: every product of `γ X` and of `E` takes one step
//! of one thread (one copy of one entry), which yields again a product; Proposition 8 then
//! projects that product minus `E` onto the classes, by asking for each component element
//! whether the product with one copy narrowed to it lies inside one product of `E`
//! (Proposition 7; exact for the families' maximized antichains, and a sound
//! under-approximation of inclusion otherwise, which only keeps more states in `X`).
//!
//! A class with unboundedly many threads has entries of [`MANY`] copies: any number,
//! including none. Taking one copy away leaves [`MANY`]; the inclusion tests only ask whether
//! a count is 0 or 1, which [`MANY`] never is, so a state is excluded only if it would be for
//! every thread count, and the fixpoint covers every count at once (the parameterized case).
//!
//! The fixpoint runs as a worklist over global stores: a store is processed again whenever
//! its `X` components or the thread states seen with it (which bound `E`) grow.

use super::exceptions::{Family, ProductRule};
use super::model::{Decline, Model, TOP};
use super::space::{BitSet, Space};
use crate::ir::AssertId;
use std::collections::VecDeque;

/// Copies of a group: a number, or [`MANY`].
pub type Count = u64;

/// Any number of copies, none included (a class created unboundedly).
pub const MANY: Count = u64::MAX;

fn less_one(c: Count) -> Count {
    if c == MANY {
        MANY
    } else {
        c - 1
    }
}

/// Per global store: the abstract components and the thread states seen with it, per class.
#[derive(Clone, Default)]
struct GState {
    x: Vec<BitSet>,
    seen: Vec<BitSet>,
}

/// The result of the Cartesian fixpoint.
pub struct Cartesian<'m, 'p> {
    /// The stores.
    pub space: Space<'m, 'p>,
    states: Vec<GState>,
    families: Vec<Family>,
    products: Vec<ProductRule>,
    /// Per class: how many threads it has.
    counts: Vec<Count>,
    /// Per family, per class: the local stores inside the protected region.
    in_mask: Vec<Vec<BitSet>>,
    /// Per product rule, per class: the local stores it allows (`None`: all).
    pred_mask: Vec<Vec<Option<BitSet>>>,
    classified: Vec<usize>,
    queue: VecDeque<u32>,
    queued: Vec<bool>,
    /// Global stores processed (a measure of work).
    pub rounds: usize,
}

/// One group of a product: its class, the local stores its threads range over, its copies.
type Entry = (usize, BitSet, Count);

impl<'m, 'p> Cartesian<'m, 'p> {
    /// Computes the least fixpoint with the given exceptions.
    pub fn run(m: &'m Model<'p>, families: Vec<Family>, products: Vec<ProductRule>, limit: usize, deadline: Option<std::time::Instant>) -> Result<Self, Decline> {
        let n = m.classes.len();
        let mut c = Cartesian {
            space: Space::new(m, limit),
            states: Vec::new(),
            counts: m.classes.iter().map(|c| c.count.map_or(MANY, Count::from)).collect(),
            in_mask: vec![vec![BitSet::default(); n]; families.len()],
            pred_mask: products.iter().map(|p| (0..n).map(|c| p.lines[m.classes[c].template.index()].as_ref().map(|_| BitSet::default())).collect()).collect(),
            families,
            products,
            classified: vec![0; n],
            queue: VecDeque::new(),
            queued: Vec::new(),
            rounds: 0,
        };
        let (g0, ls) = c.space.initial();
        c.classify();
        let init: Vec<Entry> = ls.iter().enumerate().filter(|&(k, _)| c.counts[k] > 0).map(|(k, &l)| (k, single(l), c.counts[k])).collect();
        let refs: Vec<(usize, &BitSet, Count)> = init.iter().map(|(k, b, n)| (*k, b, *n)).collect();
        c.add_product(g0, &refs);
        while let Some(g) = c.queue.pop_front() {
            c.queued[g as usize] = false;
            c.rounds += 1;
            // A round may take milliseconds with many classes: the clock is read every round.
            if deadline.is_some_and(|d| std::time::Instant::now() > d) {
                return Err(format!("the Cartesian fixpoint ran out of time after {} rounds", c.rounds));
            }
            c.process(g)?;
        }
        Ok(c)
    }

    fn n(&self) -> usize {
        self.space.m.classes.len()
    }

    /// Classifies local stores numbered since the last call against every exception rule.
    fn classify(&mut self) {
        let m = self.space.m;
        for i in 0..self.n() {
            let items = &self.space.locals[i].items;
            for (l, item) in items.iter().enumerate().skip(self.classified[i]) {
                let pc = m.pc(item);
                for (f, fam) in self.families.iter().enumerate() {
                    if fam.inside(m, item) {
                        self.in_mask[f][i].insert(l as u32);
                    }
                }
                for (p, rule) in self.products.iter().enumerate() {
                    if let Some(lines) = &rule.lines[m.classes[i].template.index()] {
                        if pc.is_some_and(|pc| lines.contains(&m.prog.loc(pc).span.line)) {
                            self.pred_mask[p][i].as_mut().unwrap().insert(l as u32);
                        }
                    }
                }
            }
            self.classified[i] = items.len();
        }
    }

    fn gstate(&mut self, g: u32) -> &mut GState {
        let n = self.n();
        while self.states.len() <= g as usize {
            self.states.push(GState { x: vec![BitSet::default(); n], seen: vec![BitSet::default(); n] });
            self.queued.push(false);
        }
        &mut self.states[g as usize]
    }

    fn mark(&mut self, g: u32) {
        if !self.queued[g as usize] {
            self.queued[g as usize] = true;
            self.queue.push_back(g);
        }
    }

    fn family_taken(&self, f: usize, g: u32) -> bool {
        self.space.globals.items[g as usize][self.families[f].cell] != 0
    }

    fn product_matches(&self, p: usize, g: u32) -> bool {
        let gs = &self.space.globals.items[g as usize];
        self.products[p].globals.iter().all(|&(c, v)| gs[c] == v || gs[c] == TOP)
    }

    /// Keeps a product if it has states: every group of a fixed number of copies has a
    /// non-empty component (a group of [`MANY`] with none stands for no thread at all).
    fn push_product(out: &mut Vec<Vec<Entry>>, entries: Vec<Entry>) {
        let entries: Vec<Entry> = entries.into_iter().filter(|(_, b, n)| *n > 0 && !(*n == MANY && b.is_empty())).collect();
        if entries.iter().all(|(_, b, _)| !b.is_empty()) {
            out.push(entries);
        }
    }

    /// The products of `γ X` and of `E` at global store `g`.
    fn sources(&self, g: u32) -> Vec<Vec<Entry>> {
        let st = &self.states[g as usize];
        let n = self.n();
        let mut out = Vec::new();
        Self::push_product(&mut out, (0..n).map(|c| (c, st.x[c].clone(), self.counts[c])).collect());
        for f in 0..self.families.len() {
            if !self.family_taken(f, g) {
                continue;
            }
            // Section 5's `C(k)`: one thread, of class `k`, inside the region; all others out.
            for k in 0..n {
                if self.counts[k] == 0 {
                    continue;
                }
                let mut entries = Vec::with_capacity(n + 1);
                for c in 0..n {
                    let out_part = st.seen[c].intersect(&self.in_mask[f][c], true);
                    if c == k {
                        entries.push((c, st.seen[c].intersect(&self.in_mask[f][c], false), 1));
                        entries.push((c, out_part, less_one(self.counts[c])));
                    } else {
                        entries.push((c, out_part, self.counts[c]));
                    }
                }
                Self::push_product(&mut out, entries);
            }
        }
        for p in 0..self.products.len() {
            if !self.product_matches(p, g) {
                continue;
            }
            let entries = (0..n)
                .map(|c| {
                    let comp = match &self.pred_mask[p][c] {
                        Some(m) => st.seen[c].intersect(m, false),
                        None => st.seen[c].clone(),
                    };
                    (c, comp, self.counts[c])
                })
                .collect();
            Self::push_product(&mut out, entries);
        }
        out
    }

    fn process(&mut self, g: u32) -> Result<(), Decline> {
        for entries in self.sources(g) {
            for (e, (c, comp, copies)) in entries.iter().enumerate() {
                for r in comp.iter() {
                    let succ = self.space.step(*c, g, r, &mut |_, _| {})?.to_vec();
                    if succ.is_empty() {
                        continue;
                    }
                    self.classify();
                    for (gp, rp) in succ {
                        // One copy of the group stepped; the others stay where they were.
                        let one = single(rp);
                        let mut q: Vec<(usize, &BitSet, Count)> = Vec::with_capacity(entries.len() + 1);
                        for (k, (ck, bk, nk)) in entries.iter().enumerate() {
                            let nk = if k == e { less_one(*copies) } else { *nk };
                            if nk > 0 && !(nk == MANY && bk.is_empty()) {
                                q.push((*ck, bk, nk));
                            }
                        }
                        q.push((*c, &one, 1));
                        self.add_product(gp, &q);
                    }
                }
            }
        }
        Ok(())
    }

    /// Joins `α(Q \ E)` into the element, for the product `Q` at `gp` given by its groups.
    fn add_product(&mut self, gp: u32, q: &[(usize, &BitSet, Count)]) {
        self.gstate(gp);
        let k = q.len();
        // Proposition 8, per rule: which elements of each group's component would put the
        // product with one copy narrowed to them inside the rule's product.
        let mut excl: Vec<Option<BitSet>> = vec![None; k];
        let mut excl_all = vec![false; k];
        let add = |excl: &mut Option<BitSet>, b: &BitSet| match excl {
            Some(x) => {
                x.union(b);
            }
            None => *excl = Some(b.clone()),
        };
        for f in 0..self.families.len() {
            if !self.family_taken(f, gp) {
                continue;
            }
            let inside: Vec<bool> = q.iter().map(|(c, b, _)| b.subset(&self.in_mask[f][*c], false)).collect();
            let outside: Vec<bool> = q.iter().map(|(c, b, _)| b.subset(&self.in_mask[f][*c], true)).collect();
            // Copies whose component lies inside the region, and copies not wholly outside it.
            let cin = q.iter().zip(&inside).filter(|(_, &a)| a).fold(0u64, |s, ((_, _, n), _)| s.saturating_add(*n));
            let cnot = q.iter().zip(&outside).filter(|(_, &b)| !b).fold(0u64, |s, ((_, _, n), _)| s.saturating_add(*n));
            // Every copy inside is also not outside, so past two no narrowing can help.
            if cnot > 2 {
                continue;
            }
            for j in 0..k {
                let ci = if inside[j] { less_one(cin) } else { cin };
                let cn = if outside[j] { cnot } else { less_one(cnot) };
                let (c, b, _) = q[j];
                if ci == 0 && cn == 0 {
                    // Narrowed to an element inside, the product is `C(this thread)`.
                    add(&mut excl[j], &self.in_mask[f][c]);
                } else if ci == 1 && cn == 1 {
                    // Narrowed to an element outside, it is `C(the one inside)`.
                    add(&mut excl[j], &b.intersect(&self.in_mask[f][c], true));
                }
            }
        }
        for p in 0..self.products.len() {
            if !self.product_matches(p, gp) {
                continue;
            }
            let bad: Vec<bool> = q.iter().map(|(c, b, _)| self.pred_mask[p][*c].as_ref().is_some_and(|m| !b.subset(m, false))).collect();
            let total = q.iter().zip(&bad).filter(|(_, &x)| x).fold(0u64, |s, ((_, _, n), _)| s.saturating_add(*n));
            for j in 0..k {
                let others = if bad[j] { less_one(total) } else { total };
                if others == 0 {
                    match &self.pred_mask[p][q[j].0] {
                        Some(m) => add(&mut excl[j], m),
                        None => excl_all[j] = true,
                    }
                }
            }
        }
        let mut grew = false;
        let st = &mut self.states[gp as usize];
        for (j, (c, b, _)) in q.iter().enumerate() {
            grew |= st.seen[*c].union(b);
            if !excl_all[j] {
                grew |= st.x[*c].union_minus(b, excl[j].as_ref());
            }
        }
        if grew {
            self.mark(gp);
        }
    }

    /// Thread states of class `c` at global store `g` in `γ X ∪ E` (projected).
    fn thread_states(&self, g: u32, c: usize) -> BitSet {
        let mut out = BitSet::default();
        for entries in self.sources(g) {
            for (k, b, _) in &entries {
                if *k == c {
                    out.union(b);
                }
            }
        }
        out
    }

    /// Failing states of an assertion in the fixpoint, described; empty when it is proved.
    pub fn failures(&self, a: AssertId) -> Vec<String> {
        let m = self.space.m;
        let assertion = m.prog.assertion(a);
        let mut out = Vec::new();
        for (c, class) in m.classes.iter().enumerate() {
            let here: Vec<_> = assertion.locs.iter().filter(|l| m.prog.loc(**l).template == class.template).copied().collect();
            if here.is_empty() || self.counts[c] == 0 {
                continue;
            }
            for g in 0..self.states.len() as u32 {
                let gv = &self.space.globals.items[g as usize];
                for r in self.thread_states(g, c).iter() {
                    let lv = &self.space.locals[c].items[r as usize];
                    if m.may_fail(gv, lv).is_some_and(|(pc, _)| here.contains(&pc)) {
                        out.push(format!("{} at {}{}", class.name, m.show_line(lv), m.with_global(gv)));
                    }
                }
            }
        }
        out
    }

    /// Whether `γ X ∪ E` holds a state with thread `a` (a slot) on source line `la` and thread
    /// `b` on line `lb` at once.
    pub fn together(&self, a: usize, la: u32, b: usize, lb: u32) -> bool {
        let m = self.space.m;
        let (ca, cb) = (m.slots[a].class, m.slots[b].class);
        let on = |c: usize, set: &BitSet, line: u32| set.iter().any(|r| m.pc(&self.space.locals[c].items[r as usize]).is_some_and(|pc| m.prog.loc(pc).span.line == line));
        (0..self.states.len() as u32).any(|g| {
            self.sources(g).iter().any(|entries| {
                // Two different copies: of two groups, or two of one group.
                let ea: Vec<usize> = (0..entries.len()).filter(|&k| entries[k].0 == ca && on(ca, &entries[k].1, la)).collect();
                let eb: Vec<usize> = (0..entries.len()).filter(|&k| entries[k].0 == cb && on(cb, &entries[k].1, lb)).collect();
                ea.iter().any(|&x| eb.iter().any(|&y| x != y || (ca != cb) || entries[x].2 >= 2))
            })
        })
    }

    /// The element as text: per global store, each class's program counters in `X` and the
    /// thread states seen there (which bound `E`).
    pub fn dump(&self) -> String {
        let m = self.space.m;
        let mut s = String::new();
        for (g, st) in self.states.iter().enumerate() {
            if st.x.iter().all(|c| c.is_empty()) && st.seen.iter().all(|c| c.is_empty()) {
                continue;
            }
            s.push_str(&format!("{}:\n", m.show_global(&self.space.globals.items[g])));
            for (kind, comps) in [("X", &st.x), ("seen", &st.seen)] {
                let parts: Vec<String> = comps
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let mut pcs: Vec<String> = c.iter().map(|r| m.show_local(&self.space.locals[i].items[r as usize])).collect();
                        pcs.dedup();
                        format!("{{{}}}", pcs.join(","))
                    })
                    .collect();
                s.push_str(&format!("  {kind} {}\n", parts.join(" × ")));
            }
        }
        s
    }

    /// Number of (global store, class, local store) triples in `X`.
    pub fn size(&self) -> usize {
        self.states.iter().map(|st| st.x.iter().map(BitSet::len).sum::<usize>()).sum()
    }

    /// The families in force.
    pub fn families(&self) -> &[Family] {
        &self.families
    }
}

fn single(l: u32) -> BitSet {
    let mut b = BitSet::default();
    b.insert(l);
    b
}
