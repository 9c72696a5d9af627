//! A layered (Sugiyama-style) layout of a directed graph, for drawing the data-flow graph as
//! SVG without Graphviz: cycles broken by reversing the back edges of a depth-first search,
//! layers by longest path, long edges cut into chains of dummy nodes, the order within each
//! layer by barycentres (the sweep with the fewest crossings kept), and x coordinates pulled
//! towards the neighbours' mean without overlapping. Everything is deterministic: ties go to
//! the lower node index.

/// A node to place: its box size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Size {
    /// Width in pixels.
    pub width: f64,
    /// Height in pixels.
    pub height: f64,
}

/// Where the layout put the nodes and how the edges run.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Centre of each node.
    pub centre: Vec<(f64, f64)>,
    /// Layer of each node, from 0 at the top.
    pub layer: Vec<usize>,
    /// Per input edge, the points of its polyline from its source to its target (empty for a
    /// self-loop, which the drawing handles itself). The data-flow graph draws its own curves
    /// between threads' columns; the routes are what the layout tests check its layering by.
    #[cfg_attr(not(test), allow(dead_code))]
    pub routes: Vec<Vec<(f64, f64)>>,
    /// Width and height of the whole drawing.
    pub extent: (f64, f64),
}

/// Horizontal gap between two boxes of a layer.
const GAP_X: f64 = 64.0;
/// Vertical gap between two layers.
const GAP_Y: f64 = 56.0;
/// Margin around the drawing.
const MARGIN: f64 = 16.0;
/// Ordering sweeps (each one down and one up).
const SWEEPS: usize = 8;

/// Lays out `sizes.len()` nodes joined by `edges` (source, target). Edges marked `loose` take
/// no part in the layering and get no bends: their route is just the centres of their two
/// ends, for the drawing to join as it likes (the data-flow graph's interference edges, which
/// would otherwise pull every thread's locations into one tangle).
pub(crate) fn layout(sizes: &[Size], edges: &[(usize, usize)], loose: &[bool]) -> Layout {
    let n = sizes.len();
    let firm: Vec<(usize, usize)> = edges.iter().zip(loose).filter(|(_, l)| !**l).map(|(e, _)| *e).collect();
    // Orient every edge downwards: a back edge of the DFS runs upwards and is reversed.
    let reversed = back_edges(n, &firm);
    let dag: Vec<(usize, usize)> = firm.iter().zip(&reversed).filter(|((a, b), _)| a != b).map(|(&(a, b), &r)| if r { (b, a) } else { (a, b) }).collect();
    let layer = longest_path(n, &dag);
    let layers = layer.iter().copied().max().map_or(0, |m| m + 1);

    // Nodes of the layered graph: the real ones, then one dummy per layer an edge crosses.
    let mut node_layer = layer.clone();
    let mut chains: Vec<Vec<usize>> = Vec::with_capacity(edges.len());
    let mut links: Vec<(usize, usize)> = Vec::new();
    let mut firm_reversed = reversed.iter();
    for (&(a, b), &l) in edges.iter().zip(loose) {
        let r = if l { false } else { *firm_reversed.next().unwrap() };
        if a == b {
            chains.push(Vec::new());
            continue;
        }
        if l {
            chains.push(vec![a, b]);
            continue;
        }
        let (top, bottom) = if r { (b, a) } else { (a, b) };
        let mut chain = vec![top];
        for l in layer[top] + 1..layer[bottom] {
            node_layer.push(l);
            chain.push(node_layer.len() - 1);
        }
        chain.push(bottom);
        for w in chain.windows(2) {
            links.push((w[0], w[1]));
        }
        if r {
            chain.reverse();
        }
        chains.push(chain);
    }
    let total = node_layer.len();
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); total];
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); total];
    for &(a, b) in &links {
        down[a].push(b);
        up[b].push(a);
    }

    let mut order: Vec<Vec<usize>> = vec![Vec::new(); layers];
    for (v, &l) in node_layer.iter().enumerate() {
        order[l].push(v);
    }
    order = arrange(order, &up, &down);

    let width = |v: usize| if v < n { sizes[v].width } else { 0.0 };
    let mut row_height = vec![0.0f64; layers];
    for v in 0..n {
        row_height[layer[v]] = row_height[layer[v]].max(sizes[v].height);
    }
    let mut y_of = vec![0.0; layers];
    let mut y = MARGIN;
    for l in 0..layers {
        y_of[l] = y + row_height[l] / 2.0;
        y += row_height[l] + GAP_Y;
    }
    let x = place(&order, &up, &down, &width);

    let mut min_x = f64::INFINITY;
    let mut max_x: f64 = 0.0;
    for (v, &cx) in x.iter().enumerate() {
        min_x = min_x.min(cx - width(v) / 2.0);
        max_x = max_x.max(cx + width(v) / 2.0);
    }
    let shift = if min_x.is_finite() { MARGIN - min_x } else { MARGIN };
    let centre: Vec<(f64, f64)> = (0..total).map(|v| (x[v] + shift, y_of[node_layer[v]])).collect();
    let half = |v: usize| if v < n { sizes[v].height / 2.0 } else { 0.0 };
    let routes = chains
        .iter()
        .zip(loose)
        .map(|(chain, &l)| {
            if chain.is_empty() {
                return Vec::new();
            }
            let (first, last) = (chain[0], chain[chain.len() - 1]);
            if l {
                return vec![centre[first], centre[last]];
            }
            let downwards = node_layer[first] < node_layer[last];
            let sign = if downwards { 1.0 } else { -1.0 };
            let mut pts: Vec<(f64, f64)> = chain.iter().map(|&v| centre[v]).collect();
            // Leave and enter the boxes at their top or bottom side, not at their centres.
            pts[0].1 += sign * half(first);
            let k = pts.len() - 1;
            pts[k].1 -= sign * half(last);
            pts
        })
        .collect();
    let extent = (if max_x > 0.0 { max_x + shift + MARGIN } else { 2.0 * MARGIN }, y - GAP_Y + MARGIN);
    Layout { centre: centre[..n].to_vec(), layer, routes, extent: (extent.0, extent.1.max(2.0 * MARGIN)) }
}

/// Which edges a depth-first search from the nodes in index order finds going back to a node
/// still on its stack: reversing them leaves no cycle.
fn back_edges(n: usize, edges: &[(usize, usize)]) -> Vec<bool> {
    let mut out: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (i, &(a, b)) in edges.iter().enumerate() {
        out[a].push((b, i));
    }
    let mut reversed = vec![false; edges.len()];
    // 0: not seen, 1: on the stack, 2: done.
    let mut state = vec![0u8; n];
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        state[root] = 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&(w, i)) = out[v].get(*next) {
                *next += 1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 if w != v => reversed[i] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    reversed
}

/// Each node's layer: the length of the longest path reaching it in the acyclic `edges`.
fn longest_path(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut indeg = vec![0usize; n];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        out[a].push(b);
        indeg[b] += 1;
    }
    let mut layer = vec![0usize; n];
    let mut ready: std::collections::VecDeque<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    while let Some(v) = ready.pop_front() {
        for &w in &out[v] {
            layer[w] = layer[w].max(layer[v] + 1);
            indeg[w] -= 1;
            if indeg[w] == 0 {
                ready.push_back(w);
            }
        }
    }
    layer
}

/// Orders each layer by the barycentres of its neighbours in the layer before (down sweeps)
/// or after (up sweeps); keeps the ordering with the fewest crossings seen.
fn arrange(mut order: Vec<Vec<usize>>, up: &[Vec<usize>], down: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut best = order.clone();
    let mut best_crossings = crossings(&order, down);
    for _ in 0..SWEEPS {
        for l in 1..order.len() {
            let (before, rest) = order.split_at_mut(l);
            reorder(&mut rest[0], &before[l - 1], up);
        }
        for l in (0..order.len().saturating_sub(1)).rev() {
            let (head, after) = order.split_at_mut(l + 1);
            reorder(&mut head[l], &after[0], down);
        }
        let c = crossings(&order, down);
        if c < best_crossings {
            best_crossings = c;
            best = order.clone();
        }
        if best_crossings == 0 {
            break;
        }
    }
    best
}

/// Sorts `row` by the mean position of each node's neighbours (`adj`) in `fixed`; a node
/// without any keeps its own position as its key.
fn reorder(row: &mut [usize], fixed: &[usize], adj: &[Vec<usize>]) {
    let mut pos = std::collections::HashMap::new();
    for (i, &v) in fixed.iter().enumerate() {
        pos.insert(v, i as f64);
    }
    let mut keyed: Vec<(f64, usize, usize)> = row
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let ps: Vec<f64> = adj[v].iter().filter_map(|w| pos.get(w).copied()).collect();
            let key = if ps.is_empty() { i as f64 * fixed.len().max(1) as f64 / row.len().max(1) as f64 } else { ps.iter().sum::<f64>() / ps.len() as f64 };
            (key, i, v)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (slot, (_, _, v)) in row.iter_mut().zip(keyed) {
        *slot = v;
    }
}

/// Edge crossings between consecutive layers.
fn crossings(order: &[Vec<usize>], down: &[Vec<usize>]) -> usize {
    let mut total = 0;
    for l in 0..order.len().saturating_sub(1) {
        let mut pos = std::collections::HashMap::new();
        for (i, &v) in order[l + 1].iter().enumerate() {
            pos.insert(v, i);
        }
        let mut segs: Vec<(usize, usize)> = Vec::new();
        for (i, &v) in order[l].iter().enumerate() {
            for w in &down[v] {
                if let Some(&j) = pos.get(w) {
                    segs.push((i, j));
                }
            }
        }
        for (k, &(a, b)) in segs.iter().enumerate() {
            total += segs[k + 1..].iter().filter(|&&(c, d)| (a < c && b > d) || (a > c && b < d)).count();
        }
    }
    total
}

/// x coordinates: each layer packed left to right, then a few rounds pulling every node
/// towards the mean x of its neighbours, keeping the order and the gaps.
fn place(order: &[Vec<usize>], up: &[Vec<usize>], down: &[Vec<usize>], width: &dyn Fn(usize) -> f64) -> Vec<f64> {
    let total = up.len();
    let mut x = vec![0.0; total];
    for row in order {
        let mut at = 0.0;
        for &v in row {
            x[v] = at + width(v) / 2.0;
            at += width(v) + GAP_X;
        }
    }
    for round in 0..6 {
        let rows: Box<dyn Iterator<Item = &Vec<usize>>> = if round % 2 == 0 { Box::new(order.iter()) } else { Box::new(order.iter().rev()) };
        for row in rows {
            let want: Vec<f64> = row
                .iter()
                .map(|&v| {
                    let adj: Vec<f64> = up[v].iter().chain(&down[v]).map(|&w| x[w]).collect();
                    if adj.is_empty() {
                        x[v]
                    } else {
                        adj.iter().sum::<f64>() / adj.len() as f64
                    }
                })
                .collect();
            // Pushed right from the left and pushed left from the right, each keeping the gaps;
            // their mean keeps the gaps too and spreads a crowded row around its wishes.
            let sep = |i: usize| (width(row[i - 1]) + width(row[i])) / 2.0 + GAP_X;
            let mut right = want.clone();
            for i in 1..row.len() {
                right[i] = right[i].max(right[i - 1] + sep(i));
            }
            let mut left = want.clone();
            for i in (1..row.len()).rev() {
                left[i - 1] = left[i - 1].min(left[i] - sep(i));
            }
            let placed: Vec<f64> = right.iter().zip(&left).map(|(a, b)| (a + b) / 2.0).collect();
            for (&v, p) in row.iter().zip(placed) {
                x[v] = p;
            }
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(n: usize) -> Vec<Size> {
        vec![Size { width: 60.0, height: 20.0 }; n]
    }

    fn overlap_free(l: &Layout, sizes: &[Size]) -> bool {
        (0..sizes.len()).all(|a| {
            (a + 1..sizes.len()).all(|b| {
                let dx = (l.centre[a].0 - l.centre[b].0).abs();
                let dy = (l.centre[a].1 - l.centre[b].1).abs();
                dx >= (sizes[a].width + sizes[b].width) / 2.0 || dy >= (sizes[a].height + sizes[b].height) / 2.0
            })
        })
    }

    #[test]
    fn a_chain_runs_down_one_layer_per_edge() {
        let l = layout(&boxes(3), &[(0, 1), (1, 2)], &[false; 2]);
        assert_eq!(l.layer, vec![0, 1, 2]);
        assert!(l.centre[0].1 < l.centre[1].1 && l.centre[1].1 < l.centre[2].1);
        assert!(l.routes.iter().all(|r| r.len() == 2));
    }

    #[test]
    fn longest_path_puts_a_node_below_its_deepest_predecessor() {
        // 0 -> 1 -> 2 and 0 -> 2: node 2 goes to layer 2, and the short edge gets a dummy bend.
        let l = layout(&boxes(3), &[(0, 1), (1, 2), (0, 2)], &[false; 3]);
        assert_eq!(l.layer, vec![0, 1, 2]);
        assert_eq!(l.routes[2].len(), 3, "the edge over two layers bends at one dummy: {:?}", l.routes[2]);
        assert!(overlap_free(&l, &boxes(3)));
    }

    #[test]
    fn a_cycle_is_broken_and_its_back_edge_still_runs_from_source_to_target() {
        let l = layout(&boxes(3), &[(0, 1), (1, 2), (2, 0)], &[false; 3]);
        assert_eq!(l.layer, vec![0, 1, 2]);
        let back = &l.routes[2];
        // The back edge starts at node 2 (bottom) and ends at node 0 (top).
        assert!(back[0].1 > back[back.len() - 1].1, "{back:?}");
        assert!((back[0].0 - l.centre[2].0).abs() < 1e-9 && (back[back.len() - 1].0 - l.centre[0].0).abs() < 1e-9);
    }

    #[test]
    fn self_loops_get_no_route_and_do_not_break_the_layering() {
        let l = layout(&boxes(2), &[(0, 0), (0, 1)], &[false; 2]);
        assert!(l.routes[0].is_empty());
        assert_eq!(l.layer, vec![0, 1]);
    }

    #[test]
    fn loose_edges_take_no_part_in_the_layering_and_get_no_bends() {
        // Two chains 0 -> 1 -> 2 and 3 -> 4, and a loose edge from 2 back up to 3.
        let l = layout(&boxes(5), &[(0, 1), (1, 2), (3, 4), (2, 3), (0, 4)], &[false, false, false, true, true]);
        assert_eq!(l.layer, vec![0, 1, 2, 0, 1]);
        assert_eq!(l.routes[3], vec![l.centre[2], l.centre[3]]);
        assert_eq!(l.routes[4], vec![l.centre[0], l.centre[4]]);
        assert!(overlap_free(&l, &boxes(5)));
    }

    #[test]
    fn barycentres_untangle_a_crossing() {
        // Layer 0: 0, 1; layer 1: 2, 3 with 0 -> 3 and 1 -> 2: the first order crosses.
        let sizes = boxes(4);
        let l = layout(&sizes, &[(0, 3), (1, 2)], &[false; 2]);
        let left = |a: usize, b: usize| l.centre[a].0 < l.centre[b].0;
        assert_eq!(left(0, 1), left(3, 2), "the edges cross: {:?}", l.centre);
        assert!(overlap_free(&l, &sizes));
    }

    #[test]
    fn wide_graphs_do_not_overlap_and_fit_their_extent() {
        let sizes: Vec<Size> = (0..30).map(|i| Size { width: 40.0 + (i % 7) as f64 * 10.0, height: 20.0 }).collect();
        let edges: Vec<(usize, usize)> = (0..29).map(|i| (i % 5, 5 + i % 25)).chain((0..20).map(|i| (5 + i, 5 + (i * 7 + 3) % 25))).collect();
        let loose: Vec<bool> = (0..edges.len()).map(|i| i % 4 == 0).collect();
        let l = layout(&sizes, &edges, &loose);
        assert!(overlap_free(&l, &sizes));
        for (i, s) in sizes.iter().enumerate() {
            assert!(l.centre[i].0 - s.width / 2.0 >= 0.0 && l.centre[i].0 + s.width / 2.0 <= l.extent.0, "node {i} outside the drawing");
            assert!(l.centre[i].1 + s.height / 2.0 <= l.extent.1);
        }
        // The same input, the same drawing.
        let again = layout(&sizes, &edges, &loose);
        assert_eq!(format!("{:?}", l.centre), format!("{:?}", again.centre));
    }
}
