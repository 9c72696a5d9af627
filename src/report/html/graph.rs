//! COARSEN's data-flow graph as inline SVG, laid out by [`super::layout`], and its thread
//! templates as a table; both read from the `dfg` section's structured data.

use super::escape;
use super::explain::EdgeKey;
use super::layout::{layout, Size};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Graphs with more nodes are not drawn: the layout's crossing count is quadratic and the
/// drawing would be unreadable anyway.
pub(crate) const MAX_NODES: usize = 400;

/// The `dfg` section's data (`coarsen::report::dfg_data`).
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Dfg {
    /// The locations with an edge.
    pub nodes: Vec<Node>,
    /// The edges.
    pub edges: Vec<Edge>,
    /// The thread templates.
    #[serde(default)]
    pub templates: Vec<Template>,
    /// COARSEN's rounds.
    #[serde(default)]
    pub rounds: u32,
}

/// A location of the graph.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Node {
    /// The location's number.
    pub id: u32,
    /// Its name (`L12`).
    pub name: String,
    /// Its template.
    pub thread: String,
    /// Its source file.
    pub file: String,
    /// Its source line.
    pub line: u32,
    /// Its action as text.
    pub action: String,
}

/// An edge of the graph.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Edge {
    /// Source location.
    pub from: u32,
    /// Target location.
    pub to: u32,
    /// The cell whose value it carries.
    pub cell: String,
    /// 0 for a sequential edge, else the round that added it.
    pub round: u32,
    /// It only carries the value while a thread stands at the target.
    #[serde(default)]
    pub stand: bool,
}

/// A thread template.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Template {
    /// Its name.
    pub name: String,
    /// Its start routine.
    pub function: String,
    /// `one` or `unbounded`.
    pub count: String,
    /// Fork sites that create it.
    #[serde(default)]
    pub created_at: usize,
}

/// Interference edges are labelled with their cell and round only up to this many; beyond,
/// the labels would cover each other, and each edge's tooltip says the same.
const MAX_LABELS: usize = 12;

/// Most height an arch between two boxes of one layer rises above them; the drawing keeps
/// this much room above the first layer.
const ARCH: f64 = 36.0;

/// Characters of an action shown in a node; the rest is in its tooltip.
const LABEL_CHARS: usize = 34;
/// Width of a character of the nodes' monospace font, in pixels.
const CHAR_W: f64 = 6.6;

fn shorten(s: &str) -> String {
    if s.chars().count() <= LABEL_CHARS {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(LABEL_CHARS - 1).collect::<String>())
    }
}

/// The graph as an `svg.dfg` element, or a paragraph saying it is too large. `anchor` gives
/// the page id of a node's source line, where the page shows that file. The `culprits` edges,
/// which let a value into an open assertion's failing branch, are drawn as such.
pub(crate) fn svg(g: &Dfg, anchor: &dyn Fn(&str, u32) -> Option<String>, culprits: &BTreeMap<EdgeKey, Vec<String>>) -> String {
    if g.nodes.len() > MAX_NODES {
        return format!("<p class=\"too-large\">graph too large to draw ({} nodes, {} edges; at most {MAX_NODES} nodes are drawn)</p>\n", g.nodes.len(), g.edges.len());
    }
    if g.nodes.is_empty() {
        return "<p class=\"note\">the data-flow graph has no edges</p>\n".into();
    }
    let index: BTreeMap<u32, usize> = g.nodes.iter().enumerate().map(|(i, n)| (n.id, i)).collect();
    let heads: Vec<String> = g.nodes.iter().map(|n| format!("{} {}:{}", n.name, n.thread, n.line)).collect();
    let bodies: Vec<String> = g.nodes.iter().map(|n| shorten(&n.action)).collect();
    let sizes: Vec<Size> = heads.iter().zip(&bodies).map(|(h, b)| Size { width: h.chars().count().max(b.chars().count()) as f64 * CHAR_W + 14.0, height: 34.0 }).collect();
    // One layout edge per connected pair; the drawn edges (per round and use) share its route.
    let mut pairs: BTreeMap<(usize, usize), Vec<&Edge>> = BTreeMap::new();
    for e in &g.edges {
        if let (Some(&a), Some(&b)) = (index.get(&e.from), index.get(&e.to)) {
            pairs.entry((a, b)).or_default().push(e);
        }
    }
    let keys: Vec<(usize, usize)> = pairs.keys().copied().collect();
    // Each thread's locations make a column, in program order: the layout gets undrawn edges
    // between a thread's consecutive locations, and the graph's own edges are drawn over the
    // columns as curves. Laid out by their data flow instead, the locations only interference
    // reaches would all sit in the first layer, as wide as the program.
    let mut by_thread: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, n) in g.nodes.iter().enumerate() {
        by_thread.entry(n.thread.as_str()).or_default().push(i);
    }
    let order: Vec<(usize, usize)> = by_thread.values().flat_map(|column| column.windows(2).map(|w| (w[0], w[1]))).collect();
    let lay = layout(&sizes, &order, &vec![false; order.len()]);
    let labelled = pairs.values().flatten().filter(|e| e.round > 0).count() <= MAX_LABELS;
    // The arcs between boxes above each other may bulge out of the layout's extent.
    let bulge = keys.iter().filter(|(a, b)| a != b).map(|&(a, b)| curve_points(lay.centre[a], sizes[a], lay.centre[b], sizes[b])[1].0 + 16.0).fold(0.0, f64::max);
    let next_below = |a: usize, b: usize| lay.layer[b] == lay.layer[a] + 1 && (lay.centre[a].0 - lay.centre[b].0).abs() < sizes[a].width.min(sizes[b].width) / 2.0;
    let (w, h) = (lay.extent.0.max(bulge), lay.extent.1 + ARCH);
    let mut out = String::new();
    let _ = writeln!(out, "<div class=\"dfg-wrap\"><svg class=\"dfg\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 {:.0} {w:.0} {h:.0}\">", -ARCH);
    for ((a, b), es) in &pairs {
        // Group the pair's edges by kind: one path per sequential / round / standing kind.
        // Per (round, stand): the cells, and the open assertions they let a value into.
        type Kind<'e> = (Vec<&'e str>, Vec<&'e str>);
        let mut kinds: BTreeMap<(u32, bool), Kind> = BTreeMap::new();
        for e in es {
            let (cells, reached) = kinds.entry((e.round, e.stand)).or_default();
            cells.push(&e.cell);
            for a in culprits.get(&(e.from, e.to, e.cell.clone(), e.round, e.stand)).into_iter().flatten() {
                if !reached.contains(&a.as_str()) {
                    reached.push(a);
                }
            }
        }
        for ((round, stand), (cells, reached)) in kinds {
            let mut class = if round == 0 { "edge seq".to_string() } else { format!("edge interference round-{}{}", (round - 1) % 6 + 1, if stand { " stand" } else { "" }) };
            let mut culprit = String::new();
            if !reached.is_empty() {
                class.push_str(" culprit");
                culprit = format!(" data-culprit-of=\"{}\"", escape(&reached.join(" ")));
            }
            let marker = if round == 0 { "arrow-seq" } else { "arrow-int" };
            let mut title = if round == 0 {
                format!("{}: {} → {}", cells.join(", "), g.nodes[*a].name, g.nodes[*b].name)
            } else {
                format!("{} (round {round}{}): {} → {}", cells.join(", "), if stand { ", while waiting" } else { "" }, g.nodes[*a].name, g.nodes[*b].name)
            };
            if !reached.is_empty() {
                let _ = write!(title, "; lets a value into the failing branch of {}", reached.join(", "));
            }
            let d = if a == b {
                self_loop(lay.centre[*a], sizes[*a])
            } else if next_below(*a, *b) {
                let ((ax, ay), (bx, by)) = (lay.centre[*a], lay.centre[*b]);
                path(&[(ax, ay + sizes[*a].height / 2.0), (bx, by - sizes[*b].height / 2.0)])
            } else {
                curve(lay.centre[*a], sizes[*a], lay.centre[*b], sizes[*b])
            };
            if !reached.is_empty() {
                // A wide halo under the edge: widening the edge itself would scale its arrow head.
                let _ = write!(out, "<path class=\"halo\" d=\"{d}\"/>");
            }
            let _ = write!(out, "<path class=\"{class}\" data-round=\"{round}\"{culprit} d=\"{d}\" marker-end=\"url(#{marker})\"><title>{}</title></path>", escape(&title));
            if round > 0 && a != b && labelled {
                let (mx, my) = if next_below(*a, *b) { midpoint(&[lay.centre[*a], lay.centre[*b]]) } else { curve_mid(lay.centre[*a], sizes[*a], lay.centre[*b], sizes[*b]) };
                let _ = write!(out, "<text class=\"edge-label round-{}\" x=\"{mx:.1}\" y=\"{my:.1}\">{} r{round}</text>", (round - 1) % 6 + 1, escape(&shorten(&cells.join(", "))));
            }
            out.push('\n');
        }
    }
    for (i, n) in g.nodes.iter().enumerate() {
        let (cx, cy) = lay.centre[i];
        let (bw, bh) = (sizes[i].width, sizes[i].height);
        let body = format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{bw:.1}\" height=\"{bh:.1}\" rx=\"4\"/><text x=\"{cx:.1}\" y=\"{:.1}\" class=\"head\">{}</text><text x=\"{cx:.1}\" y=\"{:.1}\">{}</text><title>{}</title>",
            cx - bw / 2.0,
            cy - bh / 2.0,
            cy - 4.0,
            escape(&heads[i]),
            cy + 11.0,
            escape(&bodies[i]),
            escape(&format!("{} ({}) {}:{}\n{}", n.name, n.thread, n.file, n.line, n.action))
        );
        match anchor(&n.file, n.line) {
            Some(id) => {
                let _ = writeln!(out, "<g class=\"node\" data-loc=\"{}\"><a href=\"#{}\">{body}</a></g>", n.id, escape(&id));
            }
            None => {
                let _ = writeln!(out, "<g class=\"node\" data-loc=\"{}\">{body}</g>", n.id);
            }
        }
    }
    out.push_str("</svg></div>\n");
    out
}

/// The legend of the edge kinds the graph has.
pub(crate) fn legend(g: &Dfg) -> String {
    let mut rounds: Vec<u32> = g.edges.iter().map(|e| e.round).filter(|r| *r > 0).collect();
    rounds.sort_unstable();
    rounds.dedup();
    let mut out = String::from("<p class=\"legend\"><span class=\"key seq\">sequential</span>");
    for r in rounds {
        let _ = write!(out, " <span class=\"key round-{}\">interference, round {r}</span>", (r - 1) % 6 + 1);
    }
    if g.edges.iter().any(|e| e.stand) {
        out.push_str(" <span class=\"key stand\">dotted: only while a thread waits at the target</span>");
    }
    out.push_str("</p>\n");
    out
}

/// The thread templates and their counts.
pub(crate) fn templates(g: &Dfg) -> String {
    let mut out = String::from("<table class=\"templates\"><thead><tr><th>thread template</th><th>start routine</th><th>instances</th><th>created at</th></tr></thead><tbody>\n");
    for t in &g.templates {
        let count = if t.count == "one" { "one per run of its creator" } else { "unboundedly many" };
        let sites = if t.created_at == 0 { "(the root)".to_string() } else { format!("{} fork site(s)", t.created_at) };
        let _ = writeln!(out, "<tr class=\"template\"><td>{}</td><td>{}</td><td>{count}</td><td>{sites}</td></tr>", escape(&t.name), escape(&t.function));
    }
    out.push_str("</tbody></table>\n");
    out
}

fn path(pts: &[(f64, f64)]) -> String {
    let mut d = String::new();
    for (i, (x, y)) in pts.iter().enumerate() {
        let _ = write!(d, "{}{x:.1},{y:.1}", if i == 0 { "M" } else { " L" });
    }
    d
}

/// The ends and control points of an interference edge's curve: from the side of the source
/// box facing the target to the side of the target facing the source, or, when the two boxes
/// are above each other, out of and into their right sides in an arc.
fn curve_points((ax, ay): (f64, f64), sa: Size, (bx, by): (f64, f64), sb: Size) -> [(f64, f64); 4] {
    let dx = bx - ax;
    if (by - ay).abs() < (sa.height + sb.height) / 2.0 {
        // Side by side in one layer: an arch over the boxes between them, top to top.
        let (sy, ty) = (ay - sa.height / 2.0, by - sb.height / 2.0);
        let lift = ARCH.min(18.0 + dx.abs() * 0.08);
        return [(ax, sy), (ax, sy - lift * 4.0 / 3.0), (bx, ty - lift * 4.0 / 3.0), (bx, ty)];
    }
    if dx.abs() < (sa.width + sb.width) / 2.0 {
        let (sx, tx) = (ax + sa.width / 2.0, bx + sb.width / 2.0);
        let bulge = sx.max(tx) + 40.0 + (by - ay).abs() * 0.15;
        return [(sx, ay), (bulge, ay), (bulge, by), (tx, by)];
    }
    let sign = dx.signum();
    let (sx, tx) = (ax + sign * sa.width / 2.0, bx - sign * sb.width / 2.0);
    let mid = (tx - sx) / 2.0;
    [(sx, ay), (sx + mid, ay), (tx - mid, by), (tx, by)]
}

fn curve(a: (f64, f64), sa: Size, b: (f64, f64), sb: Size) -> String {
    let [p0, p1, p2, p3] = curve_points(a, sa, b, sb);
    format!("M{:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}", p0.0, p0.1, p1.0, p1.1, p2.0, p2.1, p3.0, p3.1)
}

/// The point halfway along the curve (t = 1/2 of the cubic).
fn curve_mid(a: (f64, f64), sa: Size, b: (f64, f64), sb: Size) -> (f64, f64) {
    let [p0, p1, p2, p3] = curve_points(a, sa, b, sb);
    ((p0.0 + 3.0 * p1.0 + 3.0 * p2.0 + p3.0) / 8.0, (p0.1 + 3.0 * p1.1 + 3.0 * p2.1 + p3.1) / 8.0)
}

fn self_loop((cx, cy): (f64, f64), s: Size) -> String {
    let x = cx + s.width / 2.0;
    format!("M{x:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {x:.1},{:.1}", cy - 6.0, x + 30.0, cy - 22.0, x + 30.0, cy + 22.0, cy + 6.0)
}

fn midpoint(route: &[(f64, f64)]) -> (f64, f64) {
    if route.len() >= 3 {
        return route[route.len() / 2];
    }
    let (a, b) = (route[0], route[route.len() - 1]);
    ((a.0 + b.0) / 2.0 + 4.0, (a.1 + b.1) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: u32) -> Dfg {
        let nodes = (0..n).map(|i| Node { id: i * 2, name: format!("L{}", i * 2), thread: "t".into(), file: "a.c".into(), line: i + 1, action: format!("x := \"</script>{i}\"") }).collect();
        let edges = (1..n).map(|i| Edge { from: (i - 1) * 2, to: i * 2, cell: "x".into(), round: i % 3, stand: i == 2 }).collect();
        Dfg { nodes, edges, templates: vec![Template { name: "worker".into(), function: "worker".into(), count: "unbounded".into(), created_at: 1 }], rounds: 2 }
    }

    #[test]
    fn nodes_and_edges_are_drawn_with_interference_by_round() {
        let g = graph(4);
        let s = svg(&g, &|f, l| (f == "a.c").then(|| format!("f0-L{l}")), &BTreeMap::new());
        assert_eq!(s.matches("<g class=\"node\"").count(), 4);
        assert_eq!(s.matches("<path class=\"edge").count(), 3);
        assert_eq!(s.matches("class=\"edge seq\"").count(), 1, "edge 3 is round 0: {s}");
        assert!(s.contains("class=\"edge interference round-1\"") && s.contains("class=\"edge interference round-2 stand\""));
        assert!(s.contains("href=\"#f0-L3\""));
        assert!(!s.contains("</script>"), "node text is escaped");
        assert!(legend(&g).contains("interference, round 2"));
        assert!(templates(&g).contains("<td>worker</td><td>worker</td><td>unboundedly many</td>"));
    }

    #[test]
    fn the_edges_that_reach_an_open_assertion_are_marked_with_it() {
        let g = graph(4);
        // Edge 1 (L0 -> L2, round 1) reaches a.c:9; no other edge does.
        let culprits = BTreeMap::from([((0, 2, "x".to_string(), 1, false), vec!["a.c:9".to_string()])]);
        let s = svg(&g, &|_, _| None, &culprits);
        assert_eq!(s.matches(" culprit\"").count(), 1, "{s}");
        assert!(s.contains("class=\"edge interference round-1 culprit\" data-round=\"1\" data-culprit-of=\"a.c:9\""), "{s}");
        assert!(s.contains("lets a value into the failing branch of a.c:9"));
    }

    #[test]
    fn huge_graphs_are_not_drawn() {
        let s = svg(&graph(MAX_NODES as u32 + 1), &|_, _| None, &BTreeMap::new());
        assert!(s.contains("graph too large to draw (401 nodes") && !s.contains("<svg"), "{s}");
    }
}
