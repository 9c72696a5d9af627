//! The half-stored difference-bound matrix: entry encoding, index layout and
//! the row kernels that every closure algorithm is built from.
//!
//! Variable `x_k` has two vertices: `2k` for `+x_k` and `2k+1` for `−x_k`
//! (`V_{2k} = x_k`, `V_{2k+1} = −x_k`). Entry `m(i, j)` is an upper bound of
//! `V_j − V_i`. Coherence `m(i, j) = m(j̄, ī)` (with `ī = i ^ 1`) lets us
//! store only the entries with `j ≤ i | 1`, row after row (Miné's layout):
//! row `i` has `(i | 1) + 1` entries and starts at `(i + 1)² / 2`.

use crate::bound::Bound;

/// The reserved value for +∞.
pub(crate) const INF: i64 = (1 << 62) - 1;
/// The largest finite magnitude; even, so tightening keeps `−FIN` in range.
///
/// `INF − FIN > FIN`, so a finite value plus +∞ is still recognised as
/// infinite, and `INF + INF < 2⁶³`, so no sum of two entries overflows.
pub(crate) const FIN: i64 = (1 << 61) - 2;

/// Index of the first entry of row `i`.
#[inline(always)]
pub(crate) fn row_start(i: usize) -> usize {
    ((i + 1) * (i + 1)) / 2
}

/// Number of stored entries of row `i`.
#[inline(always)]
pub(crate) fn row_len(i: usize) -> usize {
    (i | 1) + 1
}

/// Storage index of `m(i, j)`, through coherence when `(i, j)` is not stored.
#[inline(always)]
pub(crate) fn idx(i: usize, j: usize) -> usize {
    if j <= (i | 1) {
        row_start(i) + j
    } else {
        row_start(j ^ 1) + (i ^ 1)
    }
}

/// Number of stored entries for `n` variables.
pub(crate) fn matrix_len(n: usize) -> usize {
    2 * n * (n + 1)
}

/// Maps a sum of two entries back into the entry range: above the finite
/// range means +∞, below it is clamped up (a weaker bound).
#[inline(always)]
pub(crate) fn canon(v: i64) -> i64 {
    let v = if v > FIN { INF } else { v };
    v.max(-FIN)
}

/// Sum of two entries (both in range, so the raw sum cannot overflow).
#[inline(always)]
pub(crate) fn add(a: i64, b: i64) -> i64 {
    canon(a.wrapping_add(b))
}

/// An entry for the upper bound `v`, weakened if it is out of range.
pub(crate) fn from_i128(v: i128) -> i64 {
    if v > FIN as i128 {
        INF
    } else if v < -(FIN as i128) {
        -FIN
    } else {
        v as i64
    }
}

/// An entry for an upper bound; −∞ (an unsatisfiable bound) is weakened to
/// the smallest finite entry.
pub(crate) fn from_bound(b: Bound) -> i64 {
    match b {
        Bound::PosInf => INF,
        Bound::NegInf => -FIN,
        Bound::Fin(v) => from_i128(v),
    }
}

/// The upper bound an entry stands for.
pub(crate) fn to_bound(v: i64) -> Bound {
    if v >= INF {
        Bound::PosInf
    } else {
        Bound::Fin(v as i128)
    }
}

/// The largest even integer `≤ v` (integer tightening of a unary entry).
#[inline(always)]
pub(crate) fn even_floor(v: i64) -> i64 {
    if v >= INF {
        INF
    } else {
        v & !1
    }
}

/// `row[j] = min(row[j], a0 + r0[j], a1 + r1[j])` over the whole row.
///
/// This is the inner loop of every closure: branch-free so that it
/// vectorises (with AVX2 when the caller is compiled for it).
#[inline(always)]
pub(crate) fn relax2(row: &mut [i64], a0: i64, r0: &[i64], a1: i64, r1: &[i64]) {
    let len = row.len();
    let (r0, r1) = (&r0[..len], &r1[..len]);
    for j in 0..len {
        let s0 = a0.wrapping_add(r0[j]);
        let s1 = a1.wrapping_add(r1[j]);
        row[j] = canon(row[j].min(s0).min(s1));
    }
}

/// `row[j] = min(row[j], a0 + r0[j])` over the whole row.
#[inline(always)]
pub(crate) fn relax1(row: &mut [i64], a0: i64, r0: &[i64]) {
    let len = row.len();
    let r0 = &r0[..len];
    for j in 0..len {
        row[j] = canon(row[j].min(a0.wrapping_add(r0[j])));
    }
}

/// `min_j (a[j] + b[j])`, canonical.
#[inline(always)]
pub(crate) fn min_plus(a: &[i64], b: &[i64]) -> i64 {
    let len = a.len();
    let b = &b[..len];
    let mut best = INF;
    for j in 0..len {
        best = best.min(a[j].wrapping_add(b[j]));
    }
    canon(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_dense_and_coherent() {
        let n = 5;
        let mut seen = vec![0u32; matrix_len(n)];
        for i in 0..2 * n {
            for j in 0..2 * n {
                let k = idx(i, j);
                // The two diagonal cells of a variable are coherent but both
                // stored (Miné's layout); they always hold 0.
                if i != j {
                    assert_eq!(k, idx(j ^ 1, i ^ 1));
                }
                if j <= (i | 1) {
                    seen[k] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
        assert_eq!(row_start(2 * n), matrix_len(n));
    }

    #[test]
    fn sums_saturate_to_infinity() {
        assert_eq!(add(INF, -FIN), INF);
        assert_eq!(add(INF, INF), INF);
        assert_eq!(add(-FIN, -FIN), -FIN);
        assert_eq!(add(FIN, 1), INF);
        assert_eq!(from_i128(i128::MAX), INF);
        assert_eq!(from_i128(i128::MIN), -FIN);
        assert_eq!(even_floor(-3), -4);
        assert_eq!(even_floor(-FIN), -FIN);
        assert_eq!(even_floor(INF), INF);
    }
}
