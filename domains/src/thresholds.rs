//! Widening thresholds: a sorted set of constants that a widened bound stops
//! at before it jumps to infinity.

use crate::bound::Bound;

/// A sorted, duplicate-free, symmetric set of integer constants.
///
/// The set is symmetric (giving `c` also gives `−c`) because one program
/// constant can bound `x` from above in one guard and `−x` in another, and an
/// octagon entry bounds `±x ± y` alike.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thresholds {
    vals: Vec<i128>,
}

impl Thresholds {
    /// The set made of the given constants and their negations.
    pub fn new<I: IntoIterator<Item = i128>>(consts: I) -> Thresholds {
        let mut vals = Vec::new();
        for c in consts {
            vals.push(c);
            if let Some(n) = c.checked_neg() {
                vals.push(n);
            }
        }
        vals.sort_unstable();
        vals.dedup();
        Thresholds { vals }
    }

    /// The constants, in increasing order.
    pub fn values(&self) -> &[i128] {
        &self.vals
    }

    /// Whether the set has no constant.
    pub fn is_empty(&self) -> bool {
        self.vals.is_empty()
    }

    /// The smallest threshold `≥ b`, or +∞.
    pub fn next_up(&self, b: Bound) -> Bound {
        match b {
            Bound::Fin(v) => {
                let i = self.vals.partition_point(|&t| t < v);
                self.vals.get(i).map_or(Bound::PosInf, |&t| Bound::Fin(t))
            }
            other => other,
        }
    }

    /// The largest threshold `≤ b`, or −∞.
    pub fn next_down(&self, b: Bound) -> Bound {
        match b {
            Bound::Fin(v) => {
                let i = self.vals.partition_point(|&t| t <= v);
                if i == 0 {
                    Bound::NegInf
                } else {
                    Bound::Fin(self.vals[i - 1])
                }
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_lookup() {
        let t = Thresholds::new([5, 0, 100, 5]);
        assert_eq!(t.values(), &[-100, -5, 0, 5, 100]);
        assert_eq!(t.next_up(Bound::Fin(6)), Bound::Fin(100));
        assert_eq!(t.next_up(Bound::Fin(5)), Bound::Fin(5));
        assert_eq!(t.next_up(Bound::Fin(101)), Bound::PosInf);
        assert_eq!(t.next_down(Bound::Fin(-6)), Bound::Fin(-100));
        assert_eq!(t.next_down(Bound::Fin(-101)), Bound::NegInf);
        assert_eq!(t.next_down(Bound::Fin(0)), Bound::Fin(0));
    }
}
