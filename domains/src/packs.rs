//! Variable packs: a partition of the variables into semantically related
//! sets, built as in DUET (Farzan & Kincaid, POPL'12), §5.1 and Algorithm 2.
//!
//! The analyser feeds the builder with every assignment (the variables it
//! modifies or reads, each tagged local or global) and every assume (the
//! variables of its condition). An assignment whose `mod ∪ ref` has exactly
//! two variables, both local or both global, merges their packs; an assume
//! whose variables are all local or all global merges all of them.

use std::collections::BTreeMap;

/// Whether a variable is thread-local or shared between threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// A local variable of a thread.
    Local,
    /// A global (shared) variable.
    Global,
}

/// Builds a [`Packing`] with Algorithm 2 (a union–find over the variables).
#[derive(Clone, Debug, Default)]
pub struct PackingBuilder {
    parent: Vec<usize>,
}

impl PackingBuilder {
    /// A builder over variables `0..num_vars`, each in its own pack; it grows
    /// when later calls mention larger variables.
    pub fn new(num_vars: usize) -> PackingBuilder {
        PackingBuilder { parent: (0..num_vars).collect() }
    }

    fn ensure(&mut self, v: usize) {
        if v >= self.parent.len() {
            let old = self.parent.len();
            self.parent.extend(old..=v);
        }
    }

    fn find(&mut self, mut v: usize) -> usize {
        while self.parent[v] != v {
            self.parent[v] = self.parent[self.parent[v]];
            v = self.parent[v];
        }
        v
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        // The smaller index becomes the root so the result does not depend
        // on the order of the merges.
        if ra < rb {
            self.parent[rb] = ra;
        } else if rb < ra {
            self.parent[ra] = rb;
        }
    }

    /// The distinct variables of a list, or `None` when one variable is
    /// given with two scopes (then it is neither all-local nor all-global).
    fn distinct(vars: &[(usize, Scope)]) -> Option<BTreeMap<usize, Scope>> {
        let mut m = BTreeMap::new();
        for &(v, s) in vars {
            if let Some(old) = m.insert(v, s) {
                if old != s {
                    return None;
                }
            }
        }
        Some(m)
    }

    fn same_scope(m: &BTreeMap<usize, Scope>) -> bool {
        let mut scopes = m.values();
        match scopes.next() {
            Some(first) => scopes.all(|s| s == first),
            None => true,
        }
    }

    /// Records an assignment whose `mod ∪ ref` is `vars`; merges them when
    /// there are exactly two, of the same scope. Returns whether it merged.
    pub fn assignment(&mut self, vars: &[(usize, Scope)]) -> bool {
        let Some(m) = Self::distinct(vars) else { return false };
        if m.len() != 2 || !Self::same_scope(&m) {
            return false;
        }
        let vs: Vec<usize> = m.keys().copied().collect();
        self.merge(&vs);
        true
    }

    /// Records `assume(p)` where `vars` are the variables of `p`; merges them
    /// when they are all local or all global. Returns whether it merged.
    pub fn assume(&mut self, vars: &[(usize, Scope)]) -> bool {
        let Some(m) = Self::distinct(vars) else { return false };
        if m.len() < 2 || !Self::same_scope(&m) {
            return false;
        }
        let vs: Vec<usize> = m.keys().copied().collect();
        self.merge(&vs);
        true
    }

    /// Puts the given variables in one pack unless that pack would hold more than `max`
    /// variables. Returns whether it merged (or they already shared a pack).
    pub fn merge_within(&mut self, vars: &[usize], max: usize) -> bool {
        for &v in vars {
            self.ensure(v);
        }
        let mut roots: Vec<usize> = vars.iter().map(|&v| self.find(v)).collect();
        roots.sort_unstable();
        roots.dedup();
        if roots.len() > 1 {
            let n = self.parent.len();
            let size = (0..n).filter(|&v| roots.contains(&self.find(v))).count();
            if size > max {
                return false;
            }
        }
        self.merge(vars);
        true
    }

    /// Unconditionally puts the given variables in one pack.
    pub fn merge(&mut self, vars: &[usize]) {
        for &v in vars {
            self.ensure(v);
        }
        for w in vars.windows(2) {
            self.union(w[0], w[1]);
        }
    }

    /// The partition built so far.
    pub fn build(&self) -> Packing {
        let mut b = self.clone();
        let n = b.parent.len();
        let mut classes: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for v in 0..n {
            let r = b.find(v);
            classes.entry(r).or_default().push(v);
        }
        Packing::from_packs(n, classes.into_values().collect()).unwrap_or_else(|| Packing::trivial(n))
    }
}

/// A partition of the variables `0..n`. Only the packs of two or more
/// variables are listed; every other variable is alone.
///
/// Packs are sorted internally and listed by their smallest variable, so a
/// partition has one representation and derived equality is set equality.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Packing {
    n: usize,
    packs: Vec<Vec<usize>>,
    /// For each variable, its pack and its index inside the pack.
    slot: Vec<Option<(usize, usize)>>,
}

impl Packing {
    /// Every variable alone.
    pub fn trivial(n: usize) -> Packing {
        Packing { n, packs: Vec::new(), slot: vec![None; n] }
    }

    /// The partition with the given packs (variables not listed are alone).
    /// `None` when a variable is out of range or in two packs.
    pub fn from_packs(n: usize, packs: Vec<Vec<usize>>) -> Option<Packing> {
        let mut packs: Vec<Vec<usize>> = packs
            .into_iter()
            .map(|mut p| {
                p.sort_unstable();
                p
            })
            .collect();
        for p in &packs {
            if p.windows(2).any(|w| w[0] == w[1]) || p.last().is_some_and(|&v| v >= n) {
                return None;
            }
        }
        packs.retain(|p| p.len() >= 2);
        packs.sort_unstable_by_key(|p| p[0]);
        let mut slot = vec![None; n];
        for (pi, p) in packs.iter().enumerate() {
            for (li, &v) in p.iter().enumerate() {
                if slot[v].is_some() {
                    return None;
                }
                slot[v] = Some((pi, li));
            }
        }
        Some(Packing { n, packs, slot })
    }

    /// The number of variables.
    pub fn num_vars(&self) -> usize {
        self.n
    }

    /// The packs of two or more variables, each sorted.
    pub fn packs(&self) -> &[Vec<usize>] {
        &self.packs
    }

    /// The pack of `v`, if it is in one with other variables.
    pub fn pack_of(&self, v: usize) -> Option<usize> {
        self.slot.get(v).copied().flatten().map(|(p, _)| p)
    }

    /// The pack of `v` and its index inside the pack.
    pub fn slot_of(&self, v: usize) -> Option<(usize, usize)> {
        self.slot.get(v).copied().flatten()
    }

    /// Whether `a` and `b` are in the same pack (a variable is in its own).
    pub fn same_pack(&self, a: usize, b: usize) -> bool {
        a == b || matches!((self.pack_of(a), self.pack_of(b)), (Some(x), Some(y)) if x == y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Scope::*;

    #[test]
    fn algorithm_two() {
        let mut b = PackingBuilder::new(8);
        // x0 := x1 (two locals): merged.
        assert!(b.assignment(&[(0, Local), (1, Local)]));
        // x2 := x3 (global := local): not merged.
        assert!(!b.assignment(&[(2, Global), (3, Local)]));
        // x4 := x4 + x5 + x6: three variables, not merged.
        assert!(!b.assignment(&[(4, Global), (4, Global), (5, Global), (6, Global)]));
        // x4 := x4 + 1 with x4 counted once: one variable, nothing to merge.
        assert!(!b.assignment(&[(4, Global), (4, Global)]));
        // assume(x4 < x5 + x6), all global: merged.
        assert!(b.assume(&[(4, Global), (5, Global), (6, Global)]));
        // assume(x2 < x3): mixed scopes, not merged.
        assert!(!b.assume(&[(2, Global), (3, Local)]));
        // x7 := x1, locals: joins the first pack.
        assert!(b.assignment(&[(7, Local), (1, Local)]));
        let p = b.build();
        assert_eq!(p.packs(), &[vec![0, 1, 7], vec![4, 5, 6]]);
        assert_eq!(p.pack_of(7), Some(0));
        assert_eq!(p.slot_of(5), Some((1, 1)));
        assert_eq!(p.pack_of(2), None);
        assert!(p.same_pack(0, 7) && !p.same_pack(0, 4) && p.same_pack(3, 3));
    }

    #[test]
    fn capped_merges() {
        let mut b = PackingBuilder::new(6);
        b.merge(&[0, 1, 2]);
        // {0, 1, 2} with 3 would hold four: over a cap of three.
        assert!(!b.merge_within(&[2, 3], 3));
        assert!(b.merge_within(&[3, 4], 3));
        assert!(b.merge_within(&[0, 2], 1), "already one pack");
        assert!(b.merge_within(&[2, 3], 5));
        assert_eq!(b.build().packs(), &[vec![0, 1, 2, 3, 4]]);
    }

    #[test]
    fn builder_grows_and_rejects_bad_packs() {
        let mut b = PackingBuilder::new(0);
        b.merge(&[3, 1]);
        assert_eq!(b.build().packs(), &[vec![1, 3]]);
        assert_eq!(b.build().num_vars(), 4);
        assert!(Packing::from_packs(3, vec![vec![0, 1], vec![1, 2]]).is_none());
        assert!(Packing::from_packs(3, vec![vec![0, 3]]).is_none());
        assert_eq!(Packing::from_packs(3, vec![vec![2], vec![1, 0]]).unwrap().packs(), &[vec![0, 1]]);
    }
}
