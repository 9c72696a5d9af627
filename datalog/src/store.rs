//! Engine-side tuple storage: hash sets for staged inputs, sorted arrays for observed relations.

use std::cmp::Ordering;
use std::hash::BuildHasher;

use hashbrown::hash_table::{Entry, HashTable};
use hashbrown::DefaultHashBuilder;

/// A set of fixed-arity tuples stored flat, with a hash index of row numbers.
///
/// Rows live contiguously in one vector, so a set of a million pairs costs two allocations
/// rather than a million.
#[derive(Clone, Default)]
pub(crate) struct FlatSet {
    arity: usize,
    len: usize,
    data: Vec<u32>,
    index: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl FlatSet {
    pub(crate) fn new(arity: usize) -> Self {
        FlatSet { arity, ..Default::default() }
    }
    pub(crate) fn len(&self) -> usize {
        self.len
    }
    fn row(&self, i: usize) -> &[u32] {
        &self.data[i * self.arity..(i + 1) * self.arity]
    }
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u32]> + '_ {
        (0..self.len).map(move |i| self.row(i))
    }
    pub(crate) fn contains(&self, row: &[u32]) -> bool {
        let h = self.hasher.hash_one(row);
        self.index.find(h, |&i| self.row(i as usize) == row).is_some()
    }
    /// Adds `row`; false if it was present.
    pub(crate) fn insert(&mut self, row: &[u32]) -> bool {
        let h = self.hasher.hash_one(row);
        let (data, arity, hasher) = (&self.data, self.arity, &self.hasher);
        match self.index.entry(h, |&i| &data[i as usize * arity..(i as usize + 1) * arity] == row, |&i| hasher.hash_one(&data[i as usize * arity..(i as usize + 1) * arity])) {
            Entry::Occupied(_) => false,
            Entry::Vacant(v) => {
                v.insert(self.len as u32);
                self.data.extend_from_slice(row);
                self.len += 1;
                true
            }
        }
    }
    /// Removes `row`; false if it was absent. The last row moves into the hole.
    pub(crate) fn remove(&mut self, row: &[u32]) -> bool {
        let h = self.hasher.hash_one(row);
        let a = self.arity;
        let Ok(entry) = self.index.find_entry(h, |&i| self.data[i as usize * a..(i as usize + 1) * a] == *row) else {
            return false;
        };
        let (hole, _) = entry.remove();
        let hole = hole as usize;
        let last = self.len - 1;
        if hole != last {
            let moved_hash = self.hasher.hash_one(&self.data[last * a..(last + 1) * a]);
            if let Some(slot) = self.index.find_mut(moved_hash, |&i| i as usize == last) {
                *slot = hole as u32;
            }
            self.data.copy_within(last * a..(last + 1) * a, hole * a);
        }
        self.data.truncate(last * a);
        self.len = last;
        true
    }
    /// Removes everything, keeping capacity.
    pub(crate) fn clear(&mut self) {
        self.data.clear();
        self.index.clear();
        self.len = 0;
    }
    /// The rows, flat, in insertion order (after removals, not exactly).
    pub(crate) fn flat(&self) -> &[u32] {
        &self.data
    }
}

/// Sorts `count` flat rows of `arity` lexicographically, returning the permutation.
pub(crate) fn sort_rows(data: &[u32], arity: usize, count: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..count).collect();
    if arity > 0 {
        idx.sort_unstable_by(|&x, &y| data[x * arity..(x + 1) * arity].cmp(&data[y * arity..(y + 1) * arity]));
    }
    idx
}

/// A relation's current contents: rows sorted lexicographically in internal encoding.
#[derive(Clone, Default)]
pub(crate) struct SortedRows {
    pub arity: usize,
    pub len: usize,
    pub data: Vec<u32>,
}

impl SortedRows {
    pub(crate) fn new(arity: usize) -> Self {
        SortedRows { arity, len: 0, data: Vec::new() }
    }

    /// Applies sorted, consolidated changes (`adds` and `dels` are flat and sorted).
    pub(crate) fn apply(&mut self, adds: &[u32], n_adds: usize, dels: &[u32], n_dels: usize) {
        let a = self.arity;
        if a == 0 {
            self.len = (self.len + n_adds).saturating_sub(n_dels).min(1);
            return;
        }
        let mut out = Vec::with_capacity(self.data.len() + adds.len());
        let (mut i, mut j, mut k) = (0, 0, 0);
        while i < self.len || j < n_adds {
            let cur = (i < self.len).then(|| &self.data[i * a..(i + 1) * a]);
            let add = (j < n_adds).then(|| &adds[j * a..(j + 1) * a]);
            let take_cur = match (cur, add) {
                (Some(c), Some(d)) => match c.cmp(d) {
                    Ordering::Less => true,
                    Ordering::Greater => false,
                    Ordering::Equal => {
                        j += 1;
                        true
                    }
                },
                (Some(_), None) => true,
                _ => false,
            };
            let r = if take_cur {
                i += 1;
                cur
            } else {
                j += 1;
                add
            };
            let Some(r) = r else { break };
            while k < n_dels && &dels[k * a..(k + 1) * a] < r {
                k += 1;
            }
            if k < n_dels && &dels[k * a..(k + 1) * a] == r {
                k += 1;
                continue;
            }
            out.extend_from_slice(r);
        }
        self.len = out.len() / a;
        self.data = out;
    }
}
