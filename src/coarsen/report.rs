//! COARSEN's extra outputs: invariants on the source lines, the data-flow graph as
//! Graphviz, and per-round statistics.

use super::Outcome;
use crate::ir::{display, LocId, Program};
use hashbrown::HashMap;
use std::fmt::Write;

/// The invariant at every location (`file:line:col`, its action, the invariant), under the
/// source line it comes from.
pub(crate) fn invariants(prog: &Program, out: &Outcome) -> String {
    let mut sources: HashMap<u32, Option<Vec<String>>> = HashMap::new();
    let mut text = String::new();
    let width = prog.templates.iter().flat_map(|t| &t.locs).map(|l| position(prog, *l).len()).max().unwrap_or(0);
    for t in &prog.templates {
        let _ = writeln!(text, "thread {} ({:?})", t.name, t.multiplicity);
        let mut last_line = None;
        for l in &t.locs {
            let loc = prog.loc(*l);
            let key = (loc.span.file, loc.span.line);
            if last_line != Some(key) && loc.span.line > 0 {
                let lines = sources.entry(loc.span.file).or_insert_with(|| std::fs::read_to_string(prog.file_name(loc.span)).ok().map(|s| s.lines().map(str::to_string).collect()));
                let src = lines.as_ref().and_then(|ls| ls.get(loc.span.line as usize - 1)).map(|s| s.trim()).unwrap_or("");
                let _ = writeln!(text, "  {:>5} | {src}", loc.span.line);
                last_line = Some(key);
            }
            let inv = match &out.invariants[l.index()] {
                Some(i) => i.clone(),
                None => "unreachable".into(),
            };
            let _ = writeln!(text, "        | {:<6} {:<width$} {:<32} {{ {inv} }}", l.to_string(), position(prog, *l), display::action(prog, &loc.action));
        }
    }
    text
}

/// A location's source position, `file:line:col`: each location names its own, so that one
/// line of the text places its invariant (several locations share a source line).
fn position(prog: &Program, l: LocId) -> String {
    let span = prog.loc(l).span;
    if span.line == 0 {
        return "-".into();
    }
    format!("{}:{}:{}", prog.file_name(span), span.line, span.col)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The final data-flow graph: intra-thread edges grey, interference edges red and labelled
/// with the cell and the round that added them (dotted when they only carry the value while
/// a thread waits at the target, for observable conditions).
pub(crate) fn dot(prog: &Program, out: &Outcome) -> String {
    let edges = out.dfg.edges();
    let mut nodes: Vec<LocId> = edges.iter().flat_map(|(a, _, b, _, _)| [*a, *b]).collect();
    nodes.sort_unstable();
    nodes.dedup();
    let mut text = String::from("digraph dfg {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
    for l in nodes {
        let loc = prog.loc(l);
        let tpl = &prog.template(loc.template).name;
        let _ = writeln!(text, "  n{} [label=\"{l} ({tpl}) {}:{}\\n{}\"];", l.0, loc.span.line, loc.span.col, escape(&display::action(prog, &loc.action)));
    }
    for (a, c, b, r, usage) in edges {
        let cell = escape(&out.cells.name(prog, c));
        let style = if usage == super::Use::Stand { "dotted" } else { "dashed" };
        if r == 0 {
            let _ = writeln!(text, "  n{} -> n{} [label=\"{cell}\", color=grey50, fontcolor=grey50];", a.0, b.0);
        } else {
            let _ = writeln!(text, "  n{} -> n{} [label=\"{cell} (round {r})\", color=red, fontcolor=red, style={style}];", a.0, b.0);
        }
    }
    text.push_str("}\n");
    text
}

/// The invariant at every location as named fields, for reports that place them on source
/// lines themselves (the HTML report): one object per location, in template order, with its
/// file, line, column, thread, action and invariant (`null` where no thread reaches it).
pub(crate) fn invariants_data(prog: &Program, out: &Outcome) -> serde_json::Value {
    let mut at = Vec::new();
    for t in &prog.templates {
        for l in &t.locs {
            let loc = prog.loc(*l);
            at.push(serde_json::json!({
                "file": prog.file_name(loc.span),
                "line": loc.span.line,
                "column": loc.span.col,
                "thread": t.name,
                "location": l.to_string(),
                "action": display::action(prog, &loc.action),
                "invariant": out.invariants[l.index()],
            }));
        }
    }
    serde_json::json!({ "locations": at })
}

/// The final data-flow graph as named fields, for reports that draw it themselves (the HTML
/// report): its nodes (locations with their template, source position and action), its edges
/// (the cell, the round that added it, 0 for sequential edges, and whether it only carries a
/// value while a thread stands at the target) and the thread templates with their counts.
pub(crate) fn dfg_data(prog: &Program, out: &Outcome) -> serde_json::Value {
    let edges = out.dfg.edges();
    let mut nodes: Vec<LocId> = edges.iter().flat_map(|(a, _, b, _, _)| [*a, *b]).collect();
    nodes.sort_unstable();
    nodes.dedup();
    let nodes: Vec<serde_json::Value> = nodes
        .into_iter()
        .map(|l| {
            let loc = prog.loc(l);
            serde_json::json!({
                "id": l.0,
                "name": l.to_string(),
                "thread": prog.template(loc.template).name,
                "file": prog.file_name(loc.span),
                "line": loc.span.line,
                "column": loc.span.col,
                "action": display::action(prog, &loc.action),
            })
        })
        .collect();
    let edges: Vec<serde_json::Value> =
        edges.into_iter().map(|(a, c, b, r, usage)| serde_json::json!({ "from": a.0, "to": b.0, "cell": out.cells.name(prog, c), "round": r, "stand": usage == super::Use::Stand })).collect();
    let templates: Vec<serde_json::Value> = prog
        .templates
        .iter()
        .map(|t| {
            let count = match t.multiplicity {
                crate::ir::Multiplicity::One => "one",
                crate::ir::Multiplicity::Unbounded => "unbounded",
            };
            serde_json::json!({ "name": t.name, "function": t.function, "count": count, "created_at": t.spawned_at.len() })
        })
        .collect();
    serde_json::json!({ "nodes": nodes, "edges": edges, "templates": templates, "rounds": out.rounds.len() })
}

/// Per-round statistics as named fields, for the JSON report.
pub(crate) fn stats_data(out: &Outcome) -> serde_json::Value {
    let rounds: Vec<serde_json::Value> = out
        .rounds
        .iter()
        .map(|r| serde_json::json!({ "round": r.round, "edges_added": r.edges_added, "absint_ms": r.absint_seconds * 1e3, "datalog_ms": r.datalog_seconds * 1e3, "evaluations": r.evaluations }))
        .collect();
    serde_json::json!({ "engine": "coarsen", "cells": out.cells.len(), "sequential_edges": out.sequential_edges, "edges": out.dfg.len(), "rounds": rounds })
}

/// Per-round statistics as text.
pub(crate) fn stats(out: &Outcome) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "cells: {}, sequential edges: {}", out.cells.len(), out.sequential_edges);
    let _ = writeln!(text, "{:>5}  {:>11}  {:>13}  {:>12}  {:>11}", "round", "edges added", "absint (ms)", "datalog (ms)", "evaluations");
    let (mut ai, mut dl) = (0.0, 0.0);
    for r in &out.rounds {
        ai += r.absint_seconds;
        dl += r.datalog_seconds;
        let _ = writeln!(text, "{:>5}  {:>11}  {:>13.1}  {:>12.1}  {:>11}", r.round, r.edges_added, r.absint_seconds * 1e3, r.datalog_seconds * 1e3, r.evaluations);
    }
    let total = ai + dl;
    let share = if total > 0.0 { 100.0 * dl / total } else { 0.0 };
    let _ = writeln!(text, "total: {} rounds, {} edges, absint {:.1} ms, datalog {:.1} ms ({share:.0}% of the analysis)", out.rounds.len(), out.dfg.len(), ai * 1e3, dl * 1e3);
    text
}
