//! Cartesian abstract interpretation with exception sets (SAS 2007, Sections 3 and 4).
//!
//! The abstract element gives, per global store `g` and thread slot `i`, the set `X_i^[g]` of
//! slot `i`'s local stores; its concretisation is the union over `g` of the products
//! `{g} × X_1^[g] × … × X_n^[g]`, plus the exception set `E`. One iteration computes
//! `α_cart(α_E(init ∪ post(γ_E(γ_cart X))))`: every product of `γ_cart X` and every product of
//! `E` takes one step of one thread, which yields again a product; Proposition 8 then
//! projects that product minus `E` onto its components, by asking for each component
//! element whether the product with that component fixed lies inside one product of `E`
//! (Proposition 7; exact for maximized antichains, and a sound under-approximation of
//! inclusion otherwise, which only keeps more states in `X`).
//!
//! The fixpoint runs as a worklist over global stores: a store is processed again whenever
//! its `X` components or the thread states seen with it (which bound `E`) grow.

use super::exceptions::{Family, ProductRule};
use super::model::{Decline, Model, TOP};
use super::space::{BitSet, Space};
use crate::ir::{Action, AssertId};
use std::collections::VecDeque;

/// Per global store: the abstract components and the thread states seen with it.
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
    /// Per family, per slot: the local stores inside the protected region.
    in_mask: Vec<Vec<BitSet>>,
    /// Per product rule, per slot: the local stores it allows (`None`: all).
    pred_mask: Vec<Vec<Option<BitSet>>>,
    classified: Vec<usize>,
    queue: VecDeque<u32>,
    queued: Vec<bool>,
    /// Global stores processed (a measure of work).
    pub rounds: usize,
}

/// One product to step: a global store and a set of local stores per slot.
type Source = (u32, Vec<BitSet>);

impl<'m, 'p> Cartesian<'m, 'p> {
    /// Computes the least fixpoint with the given exceptions.
    pub fn run(m: &'m Model<'p>, families: Vec<Family>, products: Vec<ProductRule>, limit: usize, deadline: Option<std::time::Instant>) -> Result<Self, Decline> {
        let n = m.slots.len();
        let mut c = Cartesian {
            space: Space::new(m, limit),
            states: Vec::new(),
            in_mask: vec![vec![BitSet::default(); n]; families.len()],
            pred_mask: products.iter().map(|p| (0..n).map(|i| p.lines[m.slots[i].template.index()].as_ref().map(|_| BitSet::default())).collect()).collect(),
            families,
            products,
            classified: vec![0; n],
            queue: VecDeque::new(),
            queued: Vec::new(),
            rounds: 0,
        };
        let (g0, ls) = c.space.initial();
        c.classify();
        let comps: Vec<BitSet> = ls.iter().map(|&l| single(l)).collect();
        c.add_product(g0, &comps, None);
        while let Some(g) = c.queue.pop_front() {
            c.queued[g as usize] = false;
            c.rounds += 1;
            if c.rounds.is_multiple_of(64) && deadline.is_some_and(|d| std::time::Instant::now() > d) {
                return Err(format!("the Cartesian fixpoint ran out of time after {} rounds", c.rounds));
            }
            c.process(g)?;
        }
        Ok(c)
    }

    fn n(&self) -> usize {
        self.space.m.slots.len()
    }

    /// Classifies local stores numbered since the last call against every exception rule.
    fn classify(&mut self) {
        let m = self.space.m;
        for i in 0..self.n() {
            let items = &self.space.locals[i].items;
            for (l, item) in items.iter().enumerate().skip(self.classified[i]) {
                let pc = m.pc(item);
                for (f, fam) in self.families.iter().enumerate() {
                    if pc.is_some_and(|pc| fam.region[pc.index()]) {
                        self.in_mask[f][i].insert(l as u32);
                    }
                }
                for (p, rule) in self.products.iter().enumerate() {
                    if let Some(lines) = &rule.lines[m.slots[i].template.index()] {
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

    /// The products of `γ_cart X` and of `E` at global store `g`.
    fn sources(&self, g: u32) -> Vec<Source> {
        let st = &self.states[g as usize];
        let n = self.n();
        let mut out = Vec::new();
        if st.x.iter().all(|c| !c.is_empty()) {
            out.push((g, st.x.clone()));
        }
        for f in 0..self.families.len() {
            if !self.family_taken(f, g) {
                continue;
            }
            for k in 0..n {
                let comps: Vec<BitSet> = (0..n).map(|j| st.seen[j].intersect(&self.in_mask[f][j], j != k)).collect();
                if comps.iter().all(|c| !c.is_empty()) {
                    out.push((g, comps));
                }
            }
        }
        for p in 0..self.products.len() {
            if !self.product_matches(p, g) {
                continue;
            }
            let comps: Vec<BitSet> = (0..n)
                .map(|j| match &self.pred_mask[p][j] {
                    Some(m) => st.seen[j].intersect(m, false),
                    None => st.seen[j].clone(),
                })
                .collect();
            if comps.iter().all(|c| !c.is_empty()) {
                out.push((g, comps));
            }
        }
        out
    }

    fn process(&mut self, g: u32) -> Result<(), Decline> {
        let m = self.space.m;
        let gvals = self.space.globals.items[g as usize].clone();
        for (_, comps) in self.sources(g) {
            for i in 0..self.n() {
                if !m.may_step(i, &gvals) {
                    continue;
                }
                let from: Vec<u32> = comps[i].iter().collect();
                for r in from {
                    let succ = self.space.step(i, g, r, &mut |_, _| {})?.to_vec();
                    self.classify();
                    for (gp, rp) in succ {
                        self.add_product(gp, &comps, Some((i, rp)));
                    }
                }
            }
        }
        Ok(())
    }

    /// Joins `α_cart(Q \ E)` into the element, for the product `Q` = `comps` at `gp`, with
    /// slot `i`'s component replaced by `{rp}` when `step` is given.
    fn add_product(&mut self, gp: u32, comps: &[BitSet], step: Option<(usize, u32)>) {
        let n = self.n();
        self.gstate(gp);
        let comp = |j: usize| -> std::borrow::Cow<'_, BitSet> {
            match step {
                Some((i, rp)) if i == j => std::borrow::Cow::Owned(single(rp)),
                _ => std::borrow::Cow::Borrowed(&comps[j]),
            }
        };
        // Proposition 8, per rule: which parts of each component the product with that
        // component narrowed to them would put inside the rule's product.
        let mut excl_in = vec![Vec::new(); n];
        let mut excl_all: Vec<Vec<Option<()>>> = vec![Vec::new(); n];
        for f in 0..self.families.len() {
            if !self.family_taken(f, gp) {
                continue;
            }
            let a: Vec<bool> = (0..n).map(|j| comp(j).subset(&self.in_mask[f][j], false)).collect();
            let b: Vec<bool> = (0..n).map(|j| comp(j).subset(&self.in_mask[f][j], true)).collect();
            let cin = a.iter().filter(|&&x| x).count();
            let cout = b.iter().filter(|&&x| x).count();
            if cin > 2 || cout + 2 < n {
                continue;
            }
            for j in 0..n {
                let (ci, co) = (cin - a[j] as usize, cout - b[j] as usize);
                let in_part = ci == 0 && co == n - 1;
                let out_part = ci == 1 && co + 1 == n - 1;
                match (in_part, out_part) {
                    (true, true) => excl_all[j].push(None),
                    (true, false) => excl_in[j].push(self.in_mask[f][j].clone()),
                    (false, true) => excl_in[j].push(complement_of(&comp(j), &self.in_mask[f][j])),
                    (false, false) => {}
                }
            }
        }
        for p in 0..self.products.len() {
            if !self.product_matches(p, gp) {
                continue;
            }
            let bad: Vec<bool> = (0..n).map(|j| self.pred_mask[p][j].as_ref().is_some_and(|m| !comp(j).subset(m, false))).collect();
            let total = bad.iter().filter(|&&x| x).count();
            for j in 0..n {
                if total - bad[j] as usize == 0 {
                    match &self.pred_mask[p][j] {
                        Some(m) => excl_in[j].push(m.clone()),
                        None => excl_all[j].push(None),
                    }
                }
            }
        }
        let mut grew = false;
        for j in 0..n {
            let c = comp(j).into_owned();
            let st = &mut self.states[gp as usize];
            grew |= st.seen[j].union(&c);
            if !excl_all[j].is_empty() {
                continue;
            }
            let mut minus: Option<BitSet> = None;
            for e in excl_in[j].drain(..) {
                match &mut minus {
                    Some(mm) => {
                        mm.union(&e);
                    }
                    None => minus = Some(e),
                }
            }
            grew |= st.x[j].union_minus(&c, minus.as_ref());
        }
        if grew {
            self.mark(gp);
        }
    }

    /// Thread states of slot `i` at global store `g` in `γ_cart X ∪ E` (projected).
    fn thread_states(&self, g: u32, i: usize) -> BitSet {
        let mut out = BitSet::default();
        for (_, comps) in self.sources(g) {
            out.union(&comps[i]);
        }
        out
    }

    /// Failing states of an assertion in the fixpoint, described; empty when it is proved.
    pub fn failures(&self, a: AssertId) -> Vec<String> {
        let m = self.space.m;
        let assertion = m.prog.assertion(a);
        let mut out = Vec::new();
        for (i, slot) in m.slots.iter().enumerate() {
            let here: Vec<_> = assertion.locs.iter().filter(|l| m.prog.loc(**l).template == slot.template).copied().collect();
            if here.is_empty() {
                continue;
            }
            for g in 0..self.states.len() as u32 {
                let gv = &self.space.globals.items[g as usize];
                for r in self.thread_states(g, i).iter() {
                    let lv = &self.space.locals[i].items[r as usize];
                    let Some(pc) = m.pc(lv) else { continue };
                    if !here.contains(&pc) {
                        continue;
                    }
                    let Action::Assert(_, cond) = &m.prog.loc(pc).action else { continue };
                    if m.holds(i, gv, lv, cond) != Some(true) && m.may_step(i, gv) {
                        out.push(format!("{} at {} with {}", slot.name, m.show_local(lv), m.show_global(gv)));
                    }
                }
            }
        }
        out
    }

    /// Whether `γ_cart X ∪ E` holds a state with slot `a` on source line `la` and slot `b` on
    /// line `lb` at once.
    pub fn together(&self, a: usize, la: u32, b: usize, lb: u32) -> bool {
        let m = self.space.m;
        let on = |i: usize, set: &BitSet, line: u32| set.iter().any(|r| m.pc(&self.space.locals[i].items[r as usize]).is_some_and(|pc| m.prog.loc(pc).span.line == line));
        (0..self.states.len() as u32).any(|g| self.sources(g).iter().any(|(_, comps)| on(a, &comps[a], la) && on(b, &comps[b], lb)))
    }

    /// The element as text: per global store, each slot's program counters (`X`), then the
    /// exception products in force there (`E`).
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

    /// Number of (global store, slot, local store) triples in `X`.
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

/// The elements of `c` outside `mask`.
fn complement_of(c: &BitSet, mask: &BitSet) -> BitSet {
    c.intersect(mask, true)
}
