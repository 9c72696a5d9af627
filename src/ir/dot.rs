//! Graphviz rendering of the templates' control-flow graphs.

use super::display::action;
use super::*;
use std::fmt::Write;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Every template's CFG as one Graphviz digraph, a cluster per template.
pub(crate) fn cfg(p: &Program) -> String {
    let mut out = String::from("digraph cfg {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
    for (i, t) in p.templates.iter().enumerate() {
        let _ = writeln!(out, "  subgraph cluster_{i} {{\n    label=\"{}\";", escape(&t.name));
        for l in &t.locs {
            let loc = p.loc(*l);
            let style = if matches!(loc.action, Action::Assert(..)) {
                ", color=red"
            } else if loc.atomic {
                ", style=dashed"
            } else {
                ""
            };
            let _ = writeln!(out, "    n{} [label=\"{} {}:{}\\n{}\"{style}];", l.0, l, loc.span.line, loc.span.col, escape(&action(p, &loc.action)));
        }
        out.push_str("  }\n");
    }
    for (i, loc) in p.locs.iter().enumerate() {
        for s in &loc.succs {
            let _ = writeln!(out, "  n{i} -> n{};", s.0);
        }
        if let Action::Fork { template, .. } = &loc.action {
            let _ = writeln!(out, "  n{i} -> n{} [style=dotted, label=\"fork\"];", p.template(*template).entry.0);
        }
    }
    out.push_str("}\n");
    out
}
