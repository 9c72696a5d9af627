//! Why COARSEN left an assertion open, on the page: per interference edge that reaches the
//! assertion's failing branch, its derivation from the rules as a tree of nested `<details>`,
//! every node with its rule and the source lines of its facts. The same edges are marked on
//! the data-flow graph ([`culprits`]).

use super::{escape, place_link};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The `explain` section's data (schema in docs/report-json.md).
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Explanation {
    /// The rule file the proofs use.
    #[serde(default)]
    pub rules: String,
    /// COARSEN's last round.
    #[serde(default)]
    pub round: u32,
    /// Why there are no proofs, if so.
    #[serde(default)]
    pub error: Option<String>,
    /// One per explained assertion.
    #[serde(default)]
    pub assertions: Vec<Explained>,
}

/// One assertion's explanation.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Explained {
    /// Its id.
    pub assertion: String,
    /// COARSEN proved it: nothing to explain.
    #[serde(default)]
    pub proved: bool,
    /// The edges that reach its failing branch, nearest first.
    #[serde(default)]
    pub edges: Vec<EdgeProof>,
    /// Edges not shown.
    #[serde(default)]
    pub left_out: usize,
}

/// One interference edge and its derivation.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct EdgeProof {
    /// The writer's `file:line`.
    pub from: String,
    /// The reader's `file:line`.
    pub to: String,
    /// The writer's location number (a data-flow graph node).
    #[serde(default)]
    pub from_id: Option<u32>,
    /// The reader's location number.
    #[serde(default)]
    pub to_id: Option<u32>,
    /// `thread: action` of the writer.
    pub from_action: String,
    /// `thread: action` of the reader.
    pub to_action: String,
    /// The cell.
    pub cell: String,
    /// The round that added it.
    pub round: u32,
    /// `exec` or `stand`.
    #[serde(rename = "use")]
    pub usage: String,
    /// The derivation, when the last round's facts still derive it.
    #[serde(default)]
    pub proof: Option<Node>,
    /// Tuples of folded templates that stand for it too.
    #[serde(default)]
    pub others: usize,
}

/// A node of a proof tree.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Node {
    /// The relation.
    pub relation: String,
    /// The rule's text; `None` for an input fact.
    #[serde(default)]
    pub rule: Option<String>,
    /// The rule's file.
    #[serde(default)]
    pub rule_file: Option<String>,
    /// The rule's line.
    #[serde(default)]
    pub rule_line: Option<u32>,
    /// What each id of the tuple stands for.
    #[serde(default)]
    pub names: Vec<String>,
    /// `file:line` of its locations and conditions.
    #[serde(default)]
    pub source: Vec<String>,
    /// Proved above in the same tree: children left out.
    #[serde(default)]
    pub elided: bool,
    /// Too deep to show: children left out.
    #[serde(default)]
    pub truncated: bool,
    /// Proofs of the rule's body atoms.
    #[serde(default)]
    pub children: Vec<Node>,
}

/// Edges per assertion whose proof trees the page shows; a driver's trees run to hundreds of
/// nodes each. The rest are listed, and `--explain FILE:LINE` gives all of them.
const TREES_SHOWN: usize = 5;

/// A data-flow graph edge as the graph groups them: from, to, cell, round, and whether it
/// carries a value only while a thread waits.
pub(crate) type EdgeKey = (u32, u32, String, u32, bool);

/// The interference edges that let a value into some open assertion's failing branch, with
/// the assertions each one reaches.
pub(crate) fn culprits(e: &Explanation) -> BTreeMap<EdgeKey, Vec<String>> {
    let mut out: BTreeMap<EdgeKey, Vec<String>> = BTreeMap::new();
    for a in e.assertions.iter().filter(|a| !a.proved) {
        for edge in &a.edges {
            if let (Some(from), Some(to)) = (edge.from_id, edge.to_id) {
                let ids = out.entry((from, to, edge.cell.clone(), edge.round, edge.usage == "stand")).or_default();
                if !ids.contains(&a.assertion) {
                    ids.push(a.assertion.clone());
                }
            }
        }
    }
    out
}

/// How the page names places: by line alone in the file it shows, else by `file:line`.
struct Places<'a> {
    /// The file the page section shows.
    file: &'a str,
    /// The page id of a line of a file, where the page shows it.
    anchor: &'a dyn Fn(&str, u32) -> Option<String>,
}

impl Places<'_> {
    /// `text` with this file's `file:line` places written `line N`.
    fn short(&self, text: &str) -> String {
        if self.file.is_empty() {
            return text.to_string();
        }
        text.replace(&format!("{}:", self.file), "line ")
    }

    /// A `file:line` as a link to its line on the page when it is shown, else as text.
    fn link(&self, at: &str) -> String {
        let place = at.rsplit_once(':').and_then(|(f, l)| Some((f, l.parse().ok()?)));
        place_link(self.anchor, place, &self.short(at))
    }
}

/// The explanation of every open assertion of `file`: one `details.explain` each.
pub(crate) fn section(e: &Explanation, file: &str, anchor: &dyn Fn(&str, u32) -> Option<String>) -> String {
    let places = Places { file, anchor };
    let mut out = String::new();
    if let Some(err) = &e.error {
        let _ = writeln!(out, "<p class=\"note\">no explanation of the open assertions: {}</p>", escape(err));
        return out;
    }
    for a in e.assertions.iter().filter(|a| !a.proved) {
        let total = a.edges.len() + a.left_out;
        let more = if a.left_out > 0 { format!(", the nearest {} shown", a.edges.len()) } else { String::new() };
        let _ = writeln!(
            out,
            "<details class=\"explain\" data-assert=\"{}\"><summary>why COARSEN left {} open: {total} interference edge{} reach its failing branch{more}</summary>",
            escape(&a.assertion),
            escape(&a.assertion),
            if total == 1 { "" } else { "s" }
        );
        let _ = writeln!(out, "<p class=\"note\">Each edge is derived by the rules of {} from the facts of round {}; the tree goes down to the input facts.</p>", escape(&e.rules), e.round);
        out.push_str("<ol class=\"edges\">\n");
        for (k, edge) in a.edges.iter().enumerate() {
            let how = if edge.usage == "stand" { "stands with it" } else { "reads it" };
            let _ = write!(
                out,
                "<li class=\"edge-proof\"><span class=\"cell\">{}</span> written by <code>{}</code> at {} flows to <code>{}</code> at {}, which {how} (round {})",
                escape(&edge.cell),
                escape(&edge.from_action),
                places.link(&edge.from),
                escape(&edge.to_action),
                places.link(&edge.to),
                edge.round
            );
            if edge.others > 0 {
                let _ = write!(out, " <span class=\"note\">({} more tuples of folded templates stand for it)</span>", edge.others);
            }
            match &edge.proof {
                Some(_) if k >= TREES_SHOWN => {
                    // The assertion's id is `file:line:column`; `--explain` takes `file:line`.
                    let at = a.assertion.rsplit_once(':').map_or(a.assertion.as_str(), |(at, _)| at);
                    let _ = write!(out, " <span class=\"note\">(its derivation: <code>--explain {}</code>; the page shows the nearest {TREES_SHOWN})</span>", escape(at));
                }
                Some(n) => {
                    out.push_str("<ul class=\"proof\">");
                    tree(n, &places, &mut out);
                    out.push_str("</ul>");
                }
                None => {
                    let _ = write!(out, "<p class=\"note\">the facts of round {} no longer derive it: an earlier round's invariants did</p>", e.round);
                }
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ol></details>\n");
    }
    out
}

/// One proof node: its tuple and how it was derived as the summary, its rule and children
/// inside. An input fact is a leaf.
fn tree(n: &Node, places: &Places, out: &mut String) {
    let tuple = places.short(&format!("{}({})", n.relation, n.names.join("; ")));
    let sources: Vec<String> = n.source.iter().map(|s| places.link(s)).collect();
    let at = if sources.is_empty() { String::new() } else { format!(" <span class=\"at\">{}</span>", sources.join(" ")) };
    match (&n.rule, &n.rule_file, n.rule_line) {
        (Some(rule), file, line) => {
            let by = format!("{}:{}", file.as_deref().unwrap_or("rules"), line.unwrap_or(0));
            let shown = match (n.elided, n.truncated) {
                (true, _) => " <span class=\"note\">(derived above)</span>",
                (false, true) => " <span class=\"note\">(deeper levels left out)</span>",
                (false, false) => "",
            };
            let _ = write!(
                out,
                "<li class=\"derived\"><details open><summary><code>{}</code> <span class=\"by\">by {}</span>{shown}{at}</summary><div class=\"rule\"><code>{}</code></div>",
                escape(&tuple),
                escape(&by),
                escape(rule)
            );
            if !n.children.is_empty() {
                out.push_str("<ul>");
                for c in &n.children {
                    tree(c, places, out);
                }
                out.push_str("</ul>");
            }
            out.push_str("</details></li>");
        }
        (None, _, _) => {
            let _ = write!(out, "<li class=\"input\"><code>{}</code> <span class=\"by\">input fact</span>{at}</li>", escape(&tuple));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Explanation {
        serde_json::from_str(
            r#"{
            "line": null, "rules": "interference.dl (built-in)", "round": 2, "error": null,
            "assertions": [
                {"assertion": "a.c:9", "proved": false, "reason": null, "left_out": 0, "edges": [
                    {"from": "a.c:4", "to": "a.c:9", "from_id": 3, "to_id": 7, "from_action": "w: x := 1", "to_action": "r: assume(x == 0)",
                     "cell": "x", "round": 1, "use": "exec", "others": 0, "proof": {
                        "relation": "may_flow", "tuple": [3, 0, 7], "rule": "may_flow(a, c, b) :- write(a, c), read(b, c).", "rule_file": "interference.dl", "rule_line": 12,
                        "names": ["loc w@a.c:4", "cell x", "loc r@a.c:9"], "source": ["a.c:4", "a.c:9"], "elided": false, "children": [
                            {"relation": "write", "tuple": [3, 0], "rule": null, "rule_file": null, "rule_line": null, "names": ["loc w@a.c:4", "cell x<b>"], "source": ["a.c:4"], "elided": false, "children": []}
                        ]}}
                ]},
                {"assertion": "a.c:11", "proved": true, "reason": "invariant", "left_out": 0, "edges": []}
            ]
        }"#,
        )
        .unwrap()
    }

    #[test]
    fn a_proof_is_a_tree_down_to_input_facts_with_linked_lines() {
        let e = sample();
        let html = section(&e, "a.c", &|f, l| (f == "a.c").then(|| format!("f0-L{l}")));
        assert_eq!(html.matches("<details class=\"explain\"").count(), 1, "only the open assertion: {html}");
        assert!(html.contains("data-assert=\"a.c:9\""));
        assert_eq!(html.matches("<li class=\"derived\">").count(), 1);
        assert_eq!(html.matches("<li class=\"input\">").count(), 1);
        // The input fact is nested inside the derived tuple's details.
        let (derived, input) = (html.find("class=\"derived\"").unwrap(), html.find("class=\"input\"").unwrap());
        assert!(derived < input && html[derived..input].contains("<ul>"), "{html}");
        assert!(html.contains("by interference.dl:12"));
        assert!(html.contains("<a href=\"#f0-L4\">line 4</a>"), "{html}");
        assert!(html.contains("<code>may_flow(loc w@line 4; cell x; loc r@line 9)</code>"), "places in the page's file are named by line: {html}");
        assert!(html.contains("cell x&lt;b&gt;") && !html.contains("x<b>"), "names are escaped");
    }

    #[test]
    fn culprits_name_the_graph_edges_and_the_assertions_they_reach() {
        let c = culprits(&sample());
        assert_eq!(c.len(), 1);
        assert_eq!(c.get(&(3, 7, "x".to_string(), 1, false)), Some(&vec!["a.c:9".to_string()]));
    }
}
