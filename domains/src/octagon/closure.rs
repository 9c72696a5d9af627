//! Tight closure of integer octagons: the full O(n³) closure, the O(n²)
//! incremental closure after one added constraint (Chawdhary, Robbins &
//! King), and an O(n²) closure after one variable's row changed.
//!
//! All three compute shortest paths and then finish the same way (Bagnara,
//! Hill & Zaffanella): tighten the unary entries to even values, check
//! integer consistency, and strengthen once. For integer octagons this yields
//! the tight closure, whose entries are the exact maxima over the integer
//! points, and detects emptiness exactly (up to the clamping of huge bounds,
//! which only weakens).
//!
//! Each entry point is compiled twice, once for AVX2, and picks the variant
//! at run time: the row kernels in `dbm` vectorise well with AVX2 and poorly
//! with baseline x86-64 (which has no 64-bit compare).

use super::dbm::{add, even_floor, idx, min_plus, relax1, relax2, row_len, row_start, FIN, INF};

/// Reads `m(i, j)` from a half-stored matrix.
#[inline(always)]
fn get(m: &[i64], i: usize, j: usize) -> i64 {
    m[idx(i, j)]
}

/// Copies the full row `i` (length `dim`), reading the part above the
/// stored half through coherence.
#[inline(always)]
fn load_row(m: &[i64], i: usize, dim: usize, out: &mut [i64]) {
    let len = row_len(i);
    let s = row_start(i);
    out[..len].copy_from_slice(&m[s..s + len]);
    let ib = i ^ 1;
    for (j, o) in out.iter_mut().enumerate().take(dim).skip(len) {
        *o = m[row_start(j ^ 1) + ib];
    }
}

/// Relaxes every row `i` with `min(row, a0[i] + r0, a1[i] + r1)`, skipping
/// the terms whose coefficient is +∞.
#[inline(always)]
fn relax_all(m: &mut [i64], dim: usize, a0: &[i64], r0: &[i64], a1: &[i64], r1: &[i64]) {
    for i in 0..dim {
        let s = row_start(i);
        let row = &mut m[s..s + row_len(i)];
        match (a0[i] <= FIN, a1[i] <= FIN) {
            (true, true) => relax2(row, a0[i], r0, a1[i], r1),
            (true, false) => relax1(row, a0[i], r0),
            (false, true) => relax1(row, a1[i], r1),
            (false, false) => {}
        }
    }
}

/// One Floyd–Warshall step through both vertices `2k` and `2k+1` of `x_k`.
///
/// `buf` holds at least `4 · dim` entries.
#[inline(always)]
fn pivot(m: &mut [i64], dim: usize, k: usize, buf: &mut [i64]) {
    let (p, q) = (2 * k, 2 * k + 1);
    let (rp, rest) = buf.split_at_mut(dim);
    let (rq, rest) = rest.split_at_mut(dim);
    let (cp, rest) = rest.split_at_mut(dim);
    let cq = &mut rest[..dim];
    load_row(m, p, dim, rp);
    load_row(m, q, dim, rq);
    // Columns by coherence: m(i, p) = m(q, ī) and m(i, q) = m(p, ī).
    for i in 0..dim {
        cp[i] = rq[i ^ 1];
        cq[i] = rp[i ^ 1];
    }
    let (mpq, mqp) = (rp[q], rq[p]);
    // Going through p first and then q is the sequential Floyd–Warshall
    // order; precomputing the pivot's row and column this way lets every
    // other row be updated by one pass of the kernel.
    for j in 0..dim {
        rq[j] = rq[j].min(add(mqp, rp[j]));
        cq[j] = cq[j].min(add(cp[j], mpq));
    }
    relax_all(m, dim, cp, rp, cq, rq);
}

/// Tightens, checks consistency and strengthens a shortest-path-closed
/// matrix; `false` when it is empty.
#[inline(always)]
fn finish(m: &mut [i64], n: usize, buf: &mut [i64]) -> bool {
    let dim = 2 * n;
    for i in 0..dim {
        if get(m, i, i) < 0 {
            return false;
        }
    }
    for k in 0..n {
        let (a, b) = (idx(2 * k, 2 * k + 1), idx(2 * k + 1, 2 * k));
        m[a] = even_floor(m[a]);
        m[b] = even_floor(m[b]);
        if m[a] <= FIN && m[b] <= FIN && m[a] + m[b] < 0 {
            return false;
        }
    }
    // Strengthening: m(i, j) ≤ m(i, ī)/2 + m(j̄, j)/2, exact on even entries.
    let (h, rest) = buf.split_at_mut(dim);
    let g = &mut rest[..dim];
    for (i, hi) in h.iter_mut().enumerate() {
        let v = get(m, i, i ^ 1);
        *hi = if v > FIN { INF } else { v >> 1 };
    }
    for j in 0..dim {
        g[j] = h[j ^ 1];
    }
    for i in 0..dim {
        if h[i] <= FIN {
            let s = row_start(i);
            relax1(&mut m[s..s + row_len(i)], h[i], g);
        }
    }
    for i in 0..dim {
        m[idx(i, i)] = 0;
    }
    true
}

#[inline(always)]
fn close_body(m: &mut [i64], n: usize) -> bool {
    let dim = 2 * n;
    let mut buf = vec![0i64; 4 * dim];
    for k in 0..n {
        pivot(m, dim, k, &mut buf);
    }
    finish(m, n, &mut buf)
}

/// Adds `m(a, b) ≤ d` (with its coherent twin) to a tightly closed matrix
/// and restores tight closure in O(n²).
#[inline(always)]
fn add_edge_body(m: &mut [i64], n: usize, a: usize, b: usize, d: i64) -> bool {
    let dim = 2 * n;
    let d = if a == b ^ 1 { even_floor(d) } else { d };
    let mut buf = vec![0i64; 4 * dim];
    let (rb, rest) = buf.split_at_mut(dim);
    let (ra, rest) = rest.split_at_mut(dim);
    let (cb, rest) = rest.split_at_mut(dim);
    let ca = &mut rest[..dim];
    // rb = row b, ra = row ā; their mirrors give the columns a and b̄.
    load_row(m, b, dim, rb);
    load_row(m, a ^ 1, dim, ra);
    let (maa, mbb) = (ra[a], rb[b ^ 1]);
    // A shortest path uses each new edge (a→b, b̄→ā) at most once: cb[i] is
    // the best way from i to b ending with a new edge, ca[i] the same for ā.
    for i in 0..dim {
        let to_a = ra[i ^ 1];
        let to_nb = rb[i ^ 1];
        cb[i] = add(to_a, d).min(add(add(add(to_nb, d), maa), d));
        ca[i] = add(to_nb, d).min(add(add(add(to_a, d), mbb), d));
    }
    relax_all(m, dim, cb, rb, ca, ra);
    finish(m, n, &mut buf)
}

/// Restores tight closure after the row and column of `x` were replaced by
/// arbitrary sound entries, the rest of the matrix being tightly closed and
/// not constrained through `x` (as after `forget`). O(n²).
#[inline(always)]
fn close_var_body(m: &mut [i64], n: usize, x: usize) -> bool {
    let dim = 2 * n;
    let (u0, u1) = (2 * x, 2 * x + 1);
    let mut buf = vec![0i64; 6 * dim];
    {
        let (r0, rest) = buf.split_at_mut(dim);
        let (r1, rest) = rest.split_at_mut(dim);
        let (g0, rest) = rest.split_at_mut(dim);
        let (g1, rest) = rest.split_at_mut(dim);
        let (d0, d1) = rest.split_at_mut(dim);
        load_row(m, u0, dim, r0);
        load_row(m, u1, dim, r1);
        for j in 0..dim {
            g0[j] = r0[j ^ 1];
            g1[j] = r1[j ^ 1];
        }
        d0.copy_from_slice(r0);
        d1.copy_from_slice(r1);
        // Paths u → l → … → c whose first edge is new: each stored entry
        // e = m(l, c) = m(c̄, l̄) extends u → l to c and u → c̄ to l̄.
        for l in 0..dim {
            let s = row_start(l);
            let row = &m[s..s + row_len(l)];
            let len = row.len();
            if r0[l] <= FIN {
                relax1(&mut d0[..len], r0[l], row);
            }
            if r1[l] <= FIN {
                relax1(&mut d1[..len], r1[l], row);
            }
            let lb = l ^ 1;
            d0[lb] = d0[lb].min(min_plus(&g0[..len], row));
            d1[lb] = d1[lb].min(min_plus(&g1[..len], row));
        }
        // Paths that come back to x's vertices through a new edge l → w,
        // where m(l, w) = m(w̄, l̄) is read from x's original rows.
        for (w, rw) in [(u0, &*r1), (u1, &*r0)] {
            let mut best0 = d0[w];
            let mut best1 = d1[w];
            for l in 0..dim {
                let e = rw[l ^ 1];
                best0 = best0.min(add(d0[l], e));
                best1 = best1.min(add(d1[l], e));
            }
            d0[w] = best0;
            d1[w] = best1;
        }
        for j in 0..dim {
            m[idx(u0, j)] = d0[j];
            m[idx(u1, j)] = d1[j];
        }
    }
    // Paths through x's vertices more than once.
    pivot(m, dim, x, &mut buf);
    finish(m, n, &mut buf)
}

/// `a[k] = max(a[k], b[k])`: the join of two closed matrices.
#[inline(always)]
fn max_into_body(a: &mut [i64], b: &[i64]) -> bool {
    let b = &b[..a.len()];
    for k in 0..a.len() {
        a[k] = a[k].max(b[k]);
    }
    true
}

/// `a[k] = min(a[k], b[k])`: the meet of two matrices.
#[inline(always)]
fn min_into_body(a: &mut [i64], b: &[i64]) -> bool {
    let b = &b[..a.len()];
    for k in 0..a.len() {
        a[k] = a[k].min(b[k]);
    }
    true
}

macro_rules! dispatch {
    ($(#[$doc:meta])* $name:ident, $avx:ident, $body:ident, ($($arg:ident : $ty:ty),*)) => {
        /// # Safety
        /// The CPU must support AVX2.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        unsafe fn $avx($($arg: $ty),*) -> bool {
            $body($($arg),*)
        }

        $(#[$doc])*
        pub(crate) fn $name($($arg: $ty),*) -> bool {
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU supports AVX2, checked just above.
                    return unsafe { $avx($($arg),*) };
                }
            }
            $body($($arg),*)
        }
    };
}

dispatch!(
    /// Full tight closure in place; `false` when the octagon is empty.
    close, close_avx2, close_body, (m: &mut [i64], n: usize)
);
dispatch!(
    /// Incremental tight closure after `m(a, b) ≤ d`; `false` when empty.
    add_edge, add_edge_avx2, add_edge_body, (m: &mut [i64], n: usize, a: usize, b: usize, d: i64)
);
dispatch!(
    /// Tight closure after `x`'s row and column changed; `false` when empty.
    close_var, close_var_avx2, close_var_body, (m: &mut [i64], n: usize, x: usize)
);
dispatch!(
    /// Pointwise maximum of two matrices of the same length (always `true`).
    max_into, max_into_avx2, max_into_body, (a: &mut [i64], b: &[i64])
);
dispatch!(
    /// Pointwise minimum of two matrices of the same length (always `true`).
    min_into, min_into_avx2, min_into_body, (a: &mut [i64], b: &[i64])
);
