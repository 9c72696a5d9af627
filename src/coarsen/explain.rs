//! `check --explain FILE:LINE`: why COARSEN did not prove an assertion, as the derivations of
//! the interference edges that let values into its failing branch.
//!
//! The edges explained are the interference edges (rounds 1 and later) of the final data-flow
//! graph from which the assertion's location, or the test guarding its failure call, can be
//! reached backwards along any edges: every value the failing test may read passes them. They
//! are taken nearest first (breadth first from the assertion), at most [`MAX_EDGES`]. Each is
//! traced to the `may_flow` (or `may_stand`) tuple of the last round that added it, and that
//! tuple is proved from the last round's facts by `datalog::explain` (a proof tree of minimal
//! height, down to the input facts). This runs only when asked: the rules are evaluated once
//! more, with every relation kept, after COARSEN's last round.

use super::cells::{CellId, Cells};
use super::conditions::Conditions;
use super::dfg::{Dfg, Use};
use super::facts::{Interference, FLOW, STAND};
use super::{AssertionResult, ExplainTarget};
use crate::ir::{Action, AssertId, LocId, Program};
use crate::verdict::Status;
use datalog::explain::{column_labels, Proof, RuleRef};
use datalog::schema::{Role, INTERFERENCE as SCHEMA};
use hashbrown::{HashMap, HashSet};
use std::fmt::Write;

/// Most edges explained per assertion; the rest are counted.
pub(crate) const MAX_EDGES: usize = 20;

/// Deepest proof node kept; below it, children are left out. A driver's reachability chains
/// give trees hundreds of levels deep, which nobody reads and which JSON readers refuse
/// (serde_json stops at 128 levels of nesting, two per tree level).
pub(crate) const MAX_DEPTH: usize = 40;

/// The explanation of the assertions on one source line, or of every open one.
#[derive(Clone, Debug, Default)]
pub struct Explanation {
    /// The line asked for; `None` when every open assertion is explained.
    pub line: Option<u32>,
    /// The rule file the proofs use (`interference.dl` for the built-in rules).
    pub rules: String,
    /// The last round of COARSEN, whose facts the proofs start from.
    pub round: usize,
    /// One per assertion on the line.
    pub assertions: Vec<Explained>,
    /// Why there are no proofs (the evaluation failed), if so.
    pub error: Option<String>,
}

/// One assertion's explanation.
#[derive(Clone, Debug)]
pub struct Explained {
    /// The assertion.
    pub id: AssertId,
    /// Set when COARSEN proved it: the reason, and nothing to explain.
    pub proved: Option<String>,
    /// The edges that reach its failing branch, nearest first.
    pub edges: Vec<EdgeProof>,
    /// Edges beyond [`MAX_EDGES`], not shown.
    pub left_out: usize,
}

/// One interference edge and the derivation of the tuple behind it.
#[derive(Clone, Debug)]
pub struct EdgeProof {
    /// The writer's location.
    pub from: LocId,
    /// The cell.
    pub cell: CellId,
    /// Its variables, as the source names them.
    pub cell_name: String,
    /// The reader's location.
    pub to: LocId,
    /// The round that added it.
    pub round: u32,
    /// What the value is used for at `to`.
    pub usage: Use,
    /// The proof of the tuple; `None` when the last round's facts no longer derive it (an
    /// earlier round's invariants allowed it).
    pub tree: Option<Node>,
    /// Other tuples that stand for the same edge (templates folded into one), not shown.
    pub others: usize,
}

/// A node of a proof tree, its ids named.
#[derive(Clone, Debug)]
pub struct Node {
    /// The relation.
    pub relation: String,
    /// The tuple's ids.
    pub tuple: Vec<u32>,
    /// The rule that derived it; `None` for an input fact.
    pub rule: Option<RuleRef>,
    /// What each id stands for.
    pub names: Vec<String>,
    /// The source lines of its locations and conditions (`file:line`), in column order.
    pub source: Vec<String>,
    /// Proofs of the rule's positive body atoms, in body order.
    pub children: Vec<Node>,
    /// Derived above in the same tree (or the tree is too large): children left out.
    pub elided: bool,
    /// Deeper than [`MAX_DEPTH`]: children left out.
    pub truncated: bool,
}

/// What a column of the interference schema holds, by its schema name.
fn kind_of(column: &str) -> &'static str {
    match column {
        "cell" => "cell",
        "lock" => "lock",
        "cond" => "cond",
        "val" => "val",
        _ => "loc",
    }
}

/// The assertions on `line` of the program's main file.
pub(crate) fn on_line(prog: &Program, line: u32) -> Vec<AssertId> {
    prog.assertions.iter().enumerate().filter(|(_, a)| a.span.file == 0 && a.span.line == line).map(|(i, _)| AssertId(i as u32)).collect()
}

/// The lines of the main file that have assertions, sorted.
pub(crate) fn assertion_lines(prog: &Program) -> Vec<u32> {
    let mut lines: Vec<u32> = prog.assertions.iter().filter(|a| a.span.file == 0).map(|a| a.span.line).collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// Everything the explanation reads of one COARSEN run.
pub(crate) struct Run<'a> {
    /// The program.
    pub prog: &'a Program,
    /// The rules.
    pub rules: &'a datalog::Program,
    /// Their file, unless they are the built-in ones.
    pub rules_file: Option<&'a std::path::Path>,
    /// The interference analysis after its last round.
    pub interference: &'a Interference,
    /// The final graph.
    pub dfg: &'a Dfg,
    /// Per location, the one the interpreter analyses for it.
    pub rep: &'a [LocId],
    /// The cells.
    pub cells: &'a Cells,
    /// The observable conditions.
    pub conds: &'a Conditions,
    /// The verdicts of this run.
    pub results: &'a [AssertionResult],
    /// Rounds run.
    pub rounds: usize,
    /// Timely workers.
    pub workers: usize,
}

/// Explains the assertions the target names.
pub(crate) fn explain(run: &Run, target: ExplainTarget) -> Explanation {
    let prog = run.prog;
    let rules = match run.rules_file {
        Some(p) => p.display().to_string(),
        None => format!("{} (built-in)", super::rules::FILES[0].0),
    };
    let (line, ids) = match target {
        ExplainTarget::Line(line) => (Some(line), on_line(prog, line)),
        // The lowering's own proofs have nothing to explain either.
        ExplainTarget::Open => (None, (0..prog.assertions.len() as u32).map(AssertId).filter(|id| run.results[id.0 as usize].status != Status::Safe).collect()),
    };
    let mut out = Explanation { line, rules, round: run.rounds, ..Explanation::default() };
    let open: Vec<AssertId> = ids.iter().copied().filter(|id| run.results[id.0 as usize].status != Status::Safe).collect();
    for &id in ids.iter().filter(|id| !open.contains(id)) {
        out.assertions.push(Explained { id, proved: Some(run.results[id.0 as usize].reason.clone()), edges: Vec::new(), left_out: 0 });
    }
    if open.is_empty() {
        out.assertions.sort_by_key(|e| e.id);
        return out;
    }
    let model = match run.interference.last_round(run.rules, run.workers) {
        Some(Ok(m)) => m,
        Some(Err(e)) => {
            out.error = Some(e);
            return out;
        }
        None => {
            out.error = Some("the facts were not kept (a bug)".into());
            return out;
        }
    };
    let seeds: Vec<(&str, usize, &'static str)> = SCHEMA.with_role(Role::Input).flat_map(|r| r.columns.iter().enumerate().map(move |(i, c)| (r.name, i, kind_of(c.name)))).collect();
    let labels = column_labels(run.rules, &seeds);
    let symbols: HashMap<(String, u32), (String, String)> = run.interference.symbols(prog, run.cells, run.conds).into_iter().map(|s| ((s.kind, s.id), (s.name, s.source))).collect();
    let flows = run.interference.preimages(&model, FLOW, run.rep);
    let stands = run.interference.preimages(&model, STAND, run.rep);
    let preds = prog.predecessors();
    for id in open {
        let a = prog.assertion(id);
        // The assertion's locations, and the tests that guard a failure call on a branch.
        let mut starts: Vec<LocId> = a.locs.iter().map(|l| run.rep[l.index()]).collect();
        for l in starts.clone() {
            starts.extend(preds[l.index()].iter().copied().filter(|p| matches!(prog.loc(*p).action, Action::Assume(_))));
        }
        let edges = reaching(run.dfg, starts);
        let left_out = edges.len().saturating_sub(MAX_EDGES);
        let mut shown = Vec::new();
        for (from, cell, to, round, usage) in edges.into_iter().take(MAX_EDGES) {
            let key = [from.0, cell.0, to.0];
            let (first, second) = if usage == Use::Exec { ((FLOW, &flows), (STAND, &stands)) } else { ((STAND, &stands), (FLOW, &flows)) };
            let found = first.1.get(&key).map(|t| (first.0, t)).or_else(|| second.1.get(&key).map(|t| (second.0, t)));
            let (tree, others) = match found {
                Some((rel, tuples)) => (model.explain(rel, &tuples[0]).map(|p| node(&p, &labels, &symbols, 1)), tuples.len() - 1),
                None => (None, 0),
            };
            shown.push(EdgeProof { from, cell, cell_name: run.cells.name(prog, cell), to, round, usage, tree, others });
        }
        out.assertions.push(Explained { id, proved: None, edges: shown, left_out });
    }
    out.assertions.sort_by_key(|e| e.id);
    out
}

/// The interference edges from which some start can be reached backwards, nearest first.
fn reaching(dfg: &Dfg, starts: Vec<LocId>) -> Vec<(LocId, CellId, LocId, u32, Use)> {
    let mut seen: HashSet<LocId> = starts.iter().copied().collect();
    let mut queue: std::collections::VecDeque<LocId> = starts.into_iter().collect();
    let mut out = Vec::new();
    while let Some(v) = queue.pop_front() {
        for &(c, u, _) in &dfg.incoming[v.index()] {
            if let Some(&(round, usage)) = dfg.round.get(&(u, c, v)) {
                if round > 0 {
                    out.push((u, c, v, round, usage));
                }
            }
            if seen.insert(u) {
                queue.push_back(u);
            }
        }
    }
    out
}

/// A proof with its ids named and located.
fn node(p: &Proof, labels: &HashMap<(String, usize), &'static str>, symbols: &HashMap<(String, u32), (String, String)>, depth: usize) -> Node {
    let mut names = Vec::new();
    let mut source = Vec::new();
    for (i, &v) in p.tuple.iter().enumerate() {
        let kind = labels.get(&(p.relation.clone(), i)).copied().unwrap_or("");
        match symbols.get(&(kind.to_string(), v)) {
            Some((name, src)) => {
                names.push(if src.is_empty() { format!("{kind} {name}") } else { format!("{kind} {name} @ {src}") });
                if !src.is_empty() && !source.contains(src) {
                    source.push(src.clone());
                }
            }
            None if kind == "val" => names.push(if v == 0 { "false".into() } else { "true".into() }),
            None => names.push(if kind.is_empty() { v.to_string() } else { format!("{kind} {v}") }),
        }
    }
    let truncated = depth >= MAX_DEPTH && !p.children.is_empty();
    let children = if truncated { Vec::new() } else { p.children.iter().map(|c| node(c, labels, symbols, depth + 1)).collect() };
    Node { relation: p.relation.clone(), tuple: p.tuple.clone(), rule: p.rule.clone(), names, source, children, elided: p.elided, truncated }
}

impl Explanation {
    /// Marks as proved the assertions a later run over a rewritten program proved.
    pub fn settle(&mut self, results: &[AssertionResult]) {
        for a in &mut self.assertions {
            let r = &results[a.id.0 as usize];
            if a.proved.is_none() && r.status == Status::Safe {
                *a = Explained { id: a.id, proved: Some(r.reason.clone()), edges: Vec::new(), left_out: 0 };
            }
        }
    }

    /// The explanation as text: per assertion, per edge, the proof tree indented, each node
    /// with the rule that derived it (`file:line`) or `input`, and what its ids stand for.
    pub fn text(&self, prog: &Program) -> String {
        let mut t = String::new();
        if let Some(e) = &self.error {
            let _ = writeln!(t, "no explanation: {e}");
            return t;
        }
        for a in &self.assertions {
            let asrt = prog.assertion(a.id);
            let _ = writeln!(t, "assertion {} `{}`", prog.assertion_id(a.id), asrt.text);
            if let Some(reason) = &a.proved {
                let _ = writeln!(t, "  proved by COARSEN ({reason}): nothing to explain");
                continue;
            }
            let _ = writeln!(t, "  not proved by COARSEN; rules: {}; proofs from the facts of round {}", self.rules, self.round);
            let more = if a.left_out > 0 { format!(" ({} shown, {} more left out)", a.edges.len(), a.left_out) } else { String::new() };
            let _ = writeln!(t, "  {} interference edge{} reach its failing branch{more}", a.edges.len() + a.left_out, if a.edges.len() + a.left_out == 1 { "" } else { "s" });
            let mut used: Vec<RuleRef> = Vec::new();
            for (i, e) in a.edges.iter().enumerate() {
                let loc = |l: LocId| {
                    let x = prog.loc(l);
                    format!("{} `{}` ({}:{})", prog.template(x.template).name, crate::ir::display::action(prog, &x.action), prog.file_name(x.span), x.span.line)
                };
                let what = if e.usage == Use::Exec { "reads it" } else { "stands with it" };
                let _ = writeln!(t, "  edge {}: {} written by {} flows to {}, which {what} (round {})", i + 1, e.cell_name, loc(e.from), loc(e.to), e.round);
                match &e.tree {
                    Some(n) => tree_text(n, 2, &mut t, &mut used),
                    None => {
                        let _ = writeln!(t, "    (the facts of round {} no longer derive it: an earlier round's invariants did)", self.round);
                    }
                }
                if e.others > 0 {
                    let _ = writeln!(t, "    ({} more tuples of folded templates stand for this edge)", e.others);
                }
            }
            used.sort_by(|a, b| (&a.file, a.line, a.index).cmp(&(&b.file, b.line, b.index)));
            used.dedup_by_key(|r| r.index);
            if !used.is_empty() {
                let _ = writeln!(t, "  rules used:");
                for r in used {
                    let _ = writeln!(t, "    {}:{}: {}", r.file, r.line, r.text);
                }
            }
        }
        if let (true, Some(line)) = (self.assertions.is_empty(), self.line) {
            let _ = writeln!(t, "no assertion on line {line}");
        }
        t
    }

    /// The same as named fields, for the JSON report (schema in docs/report-json.md).
    pub fn data(&self, prog: &Program) -> serde_json::Value {
        use serde_json::json;
        let assertions: Vec<serde_json::Value> = self
            .assertions
            .iter()
            .map(|a| {
                let edges: Vec<serde_json::Value> = a
                    .edges
                    .iter()
                    .map(|e| {
                        let src = |l: LocId| {
                            let x = prog.loc(l);
                            format!("{}:{}", prog.file_name(x.span), x.span.line)
                        };
                        let action = |l: LocId| {
                            let x = prog.loc(l);
                            format!("{}: {}", prog.template(x.template).name, crate::ir::display::action(prog, &x.action))
                        };
                        json!({
                            "from": src(e.from), "to": src(e.to), "from_id": e.from.0, "to_id": e.to.0, "from_action": action(e.from), "to_action": action(e.to), "cell": e.cell_name, "round": e.round,
                            "use": if e.usage == Use::Exec { "exec" } else { "stand" },
                            "proof": e.tree.as_ref().map(node_json), "others": e.others,
                        })
                    })
                    .collect();
                json!({ "assertion": prog.assertion_id(a.id), "proved": a.proved.is_some(), "reason": a.proved, "edges": edges, "left_out": a.left_out })
            })
            .collect();
        json!({ "line": self.line, "rules": self.rules, "round": self.round, "error": self.error, "assertions": assertions })
    }
}

fn tree_text(n: &Node, depth: usize, t: &mut String, used: &mut Vec<RuleRef>) {
    let ids: Vec<String> = n.tuple.iter().map(|v| v.to_string()).collect();
    let how = match (&n.rule, n.elided) {
        (Some(r), true) => format!("by {}:{} (shown above)", r.file, r.line),
        (Some(r), false) if n.truncated => format!("by {}:{} (deeper levels left out)", r.file, r.line),
        (Some(r), false) => format!("by {}:{}", r.file, r.line),
        (None, _) => "input".into(),
    };
    let _ = writeln!(t, "{}{}({})  {how}  [{}]", "  ".repeat(depth), n.relation, ids.join(", "), n.names.join("; "));
    if let Some(r) = &n.rule {
        used.push(r.clone());
    }
    for c in &n.children {
        tree_text(c, depth + 1, t, used);
    }
}

fn node_json(n: &Node) -> serde_json::Value {
    serde_json::json!({
        "relation": n.relation,
        "tuple": n.tuple,
        "rule": n.rule.as_ref().map(|r| r.text.clone()),
        "rule_file": n.rule.as_ref().map(|r| r.file.clone()),
        "rule_line": n.rule.as_ref().map(|r| r.line),
        "names": n.names,
        "source": n.source,
        "elided": n.elided,
        "truncated": n.truncated,
        "children": n.children.iter().map(node_json).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain of `n` derivations over one input fact, as reachability gives on a long thread.
    fn chain(n: u32) -> Proof {
        let mut p = Proof { relation: "cf".into(), tuple: vec![0, 1], height: 0, rule: None, children: Vec::new(), elided: false };
        for i in 1..n {
            let rule = RuleRef { index: 0, text: "reach(a, b) :- reach(a, c), cf(c, b).".into(), file: "interference.dl".into(), line: 9 };
            p = Proof { relation: "reach".into(), tuple: vec![0, i], height: i, rule: Some(rule), children: vec![p], elided: false };
        }
        p
    }

    fn depth(n: &Node) -> usize {
        1 + n.children.iter().map(depth).max().unwrap_or(0)
    }

    #[test]
    fn deep_proofs_are_cut_so_that_their_json_reads_back() {
        let deep = node(&chain(300), &HashMap::new(), &HashMap::new(), 1);
        assert_eq!(depth(&deep), MAX_DEPTH);
        let mut n = &deep;
        while let Some(c) = n.children.first() {
            assert!(!n.truncated);
            n = c;
        }
        assert!(n.truncated && n.rule.is_some(), "the cut node is a derived one, its children left out");
        // The report's reader (serde_json, 128 levels at most) takes it back, inside the
        // nesting of a task result around it.
        let mut v = node_json(&deep);
        for _ in 0..10 {
            v = serde_json::json!({ "outer": [v] });
        }
        let text = serde_json::to_string(&v).unwrap();
        assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
        // A shallow proof is whole.
        let shallow = node(&chain(5), &HashMap::new(), &HashMap::new(), 1);
        assert_eq!(depth(&shallow), 5);
        assert!(!format!("{shallow:?}").contains("truncated: true"));
    }
}
