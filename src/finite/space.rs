//! Interned stores, bit sets over them, and the cached one-thread step both analyses share.

use super::model::{Decline, Model};
use hashbrown::HashMap;

/// Global stores and local stores are numbered in order of discovery.
#[derive(Default)]
pub struct Interner {
    /// The stores by number.
    pub items: Vec<Box<[i128]>>,
    index: HashMap<Box<[i128]>, u32>,
}

impl Interner {
    /// The number of a store, and whether it is new.
    pub fn intern(&mut self, v: Box<[i128]>) -> (u32, bool) {
        if let Some(&i) = self.index.get(&v) {
            return (i, false);
        }
        let i = self.items.len() as u32;
        self.items.push(v.clone());
        self.index.insert(v, i);
        (i, true)
    }
}

/// A growable set of small numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    /// Adds `i`; true if it was absent.
    pub(crate) fn insert(&mut self, i: u32) -> bool {
        let (w, b) = (i as usize / 64, i % 64);
        if self.words.len() <= w {
            self.words.resize(w + 1, 0);
        }
        let had = self.words[w] >> b & 1 == 1;
        self.words[w] |= 1 << b;
        !had
    }
    /// Whether `i` is in the set.
    pub(crate) fn contains(&self, i: u32) -> bool {
        self.words.get(i as usize / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
    /// Adds every element of `o` except those in `minus`; true if the set grew.
    pub(crate) fn union_minus(&mut self, o: &BitSet, minus: Option<&BitSet>) -> bool {
        if self.words.len() < o.words.len() {
            self.words.resize(o.words.len(), 0);
        }
        let mut grew = false;
        for (k, &w) in o.words.iter().enumerate() {
            let m = minus.and_then(|m| m.words.get(k)).copied().unwrap_or(0);
            let add = w & !m & !self.words[k];
            if add != 0 {
                self.words[k] |= add;
                grew = true;
            }
        }
        grew
    }
    /// Adds every element of `o`; true if the set grew.
    pub(crate) fn union(&mut self, o: &BitSet) -> bool {
        self.union_minus(o, None)
    }
    /// The elements of `self` that are in `o` (or not in `o` when `negate`).
    pub(crate) fn intersect(&self, o: &BitSet, negate: bool) -> BitSet {
        let words = self
            .words
            .iter()
            .enumerate()
            .map(|(k, &w)| {
                let m = o.words.get(k).copied().unwrap_or(0);
                if negate {
                    w & !m
                } else {
                    w & m
                }
            })
            .collect();
        BitSet { words }
    }
    /// Whether every element is in `o` (or, when `negate`, none is).
    pub(crate) fn subset(&self, o: &BitSet, negate: bool) -> bool {
        self.words.iter().enumerate().all(|(k, &w)| {
            let m = o.words.get(k).copied().unwrap_or(0);
            if negate {
                w & m == 0
            } else {
                w & !m == 0
            }
        })
    }
    /// The elements in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(k as u32 * 64 + b)
            })
        })
    }
    /// Number of elements.
    pub(crate) fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// Per class: the successors of each (global store, local store) pair, computed once.
type StepCache = HashMap<(u32, u32), Vec<(u32, u32)>>;

/// The projection's stores, numbered, with the step cached per class, global and local store.
pub struct Space<'m, 'p> {
    /// The projection.
    pub m: &'m Model<'p>,
    /// Global stores.
    pub globals: Interner,
    /// Local stores per class of interchangeable threads.
    pub locals: Vec<Interner>,
    cache: Vec<StepCache>,
    /// Upper bound on stores of each kind before the analysis declines.
    pub limit: usize,
}

impl<'m, 'p> Space<'m, 'p> {
    /// An empty space for the projection.
    pub fn new(m: &'m Model<'p>, limit: usize) -> Self {
        let n = m.classes.len();
        Space { m, globals: Interner::default(), locals: (0..n).map(|_| Interner::default()).collect(), cache: (0..n).map(|_| HashMap::new()).collect(), limit }
    }

    /// The initial state: its global store and each class's initial local store.
    pub fn initial(&mut self) -> (u32, Vec<u32>) {
        let g = self.globals.intern(self.m.init_global.clone()).0;
        let ls = (0..self.m.classes.len()).map(|c| self.locals[c].intern(self.m.init_locals[c].clone()).0).collect();
        (g, ls)
    }

    /// Successors of a thread of class `i` in `(g, l)`, numbered; new local stores are
    /// reported to `fresh`.
    pub fn step(&mut self, i: usize, g: u32, l: u32, fresh: &mut dyn FnMut(usize, u32)) -> Result<&[(u32, u32)], Decline> {
        if !self.cache[i].contains_key(&(g, l)) {
            let mut out = Vec::new();
            self.m.step(i, &self.globals.items[g as usize], &self.locals[i].items[l as usize], &mut out)?;
            let mut succ = Vec::with_capacity(out.len());
            for (ng, nl) in out {
                let gi = self.globals.intern(ng).0;
                let (li, new) = self.locals[i].intern(nl);
                if new {
                    fresh(i, li);
                }
                succ.push((gi, li));
            }
            if self.globals.items.len() > self.limit || self.locals[i].items.len() > self.limit {
                return Err(format!("the finite-state projection exceeds {} stores (a counter or value that does not stay small)", self.limit));
            }
            self.cache[i].insert((g, l), succ);
        }
        Ok(&self.cache[i][&(g, l)])
    }
}
