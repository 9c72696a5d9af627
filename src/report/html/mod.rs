//! The HTML report (`--html DIR`): one self-contained page, `DIR/index.html`, with its style
//! and script inlined and nothing fetched from the network. An overview table of the files
//! (sortable, filterable by verdict), the SV-COMP confusion matrix and score for `svcomp`,
//! and per file: its assertions with verdict, engine and reason, its data races (`--races`)
//! with both accesses side by side, each violation's interleaving as swimlanes, the source with every assertion's line marked and COARSEN's
//! invariants on the lines, and the data-flow graph drawn as SVG with the thread templates.
//!
//! Every text that comes from the program or the analysis goes through [`escape`]; the page's
//! only script is the fixed one in `script.js`, so no program text is ever inside a `<script>`.

pub(crate) mod explain;
pub(crate) mod graph;
pub(crate) mod lanes;
pub(crate) mod layout;
pub(crate) mod races;

use super::location;
use crate::verdict::{AssertionVerdict, Outcome, Section, Status, Summary, TaskRun};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

const STYLE: &str = include_str!("style.css");
const SCRIPT: &str = include_str!("script.js");

/// Text made safe for HTML element content and quoted attribute values.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` as a link to the source line `place` (`file`, `line`) where the page shows it
/// (`anchor` gives the line's id), else as plain text.
pub(crate) fn place_link(anchor: &dyn Fn(&str, u32) -> Option<String>, place: Option<(&str, u32)>, text: &str) -> String {
    match place.and_then(|(f, l)| anchor(f, l)) {
        Some(id) => format!("<a href=\"#{}\">{}</a>", escape(&id), escape(text)),
        None => escape(text),
    }
}

/// The SV-COMP results of a run, as the `svcomp` command computed them (the report does not
/// score answers itself).
#[derive(Clone, Debug, Default)]
pub(crate) struct Svcomp {
    /// One row per task file, in input order.
    pub rows: Vec<SvcompRow>,
    /// `cells[e][a]`: e = expected true, false, none; a = TRUE, FALSE, UNKNOWN.
    pub cells: [[usize; 3]; 3],
    /// The SV-COMP score.
    pub score: i64,
    /// The best score the scored tasks allow.
    pub max_score: i64,
}

/// One task file of an SV-COMP run.
#[derive(Clone, Debug)]
pub(crate) struct SvcompRow {
    /// The task file as given.
    pub task: String,
    /// `true`, `false` or `-`.
    pub expected: String,
    /// `TRUE`, `FALSE` or `UNKNOWN`.
    pub answer: String,
    /// `yes`, `no` or empty (unscored).
    pub correct: String,
    /// SV-COMP points.
    pub points: i64,
    /// The index of the task's run among the report's runs, when it ran.
    pub run: Option<usize>,
}

/// Creates `dir` if missing and checks that a page can be written into it, before any
/// analysis runs.
pub(crate) fn prepare(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create --html {}: {e}", dir.display()))?;
    super::atomic::probe(&dir.join("index.html")).map_err(|e| format!("cannot write into --html {}: {e}", dir.display()))
}

/// Writes the page into `dir` (created if missing), atomically; the page's path.
pub(crate) fn write(dir: &Path, page: &str) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create --html {}: {e}", dir.display()))?;
    let path = dir.join("index.html");
    super::atomic::write(&path, page).map_err(|e| format!("cannot write the HTML report to {}: {e}", path.display()))?;
    Ok(path)
}

/// The page of a run.
pub(crate) fn render(runs: &[TaskRun], exit_code: i32, seconds: f64, svcomp: Option<&Svcomp>) -> String {
    let summary = Summary::of(runs, exit_code, seconds);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>duet-rs report</title>\n<style>\n{STYLE}</style>\n\
         <script>window.duetErrors=0;window.addEventListener('error',function(){{window.duetErrors++;if(document.body)document.body.dataset.jsErrors=String(window.duetErrors);}});</script>\n\
         </head>\n<body data-js-errors=\"0\">\n"
    );
    out.push_str(ARROWS);
    let _ = writeln!(
        out,
        "<header><h1>duet-rs report</h1><p class=\"meta\">duet-rs {} · {} file(s) · {} assertion(s) · exit code {} · {:.2} s</p></header>",
        env!("CARGO_PKG_VERSION"),
        summary.tasks,
        summary.assertions(),
        exit_code,
        seconds
    );
    out.push_str("<main>\n");
    out.push_str(&overview(runs, &summary));
    if let Some(sv) = svcomp {
        out.push_str(&svcomp_section(sv));
    }
    for (i, run) in runs.iter().enumerate() {
        out.push_str(&file_section(i, run));
    }
    out.push_str("</main>\n<aside id=\"inv-panel\" hidden><button type=\"button\" class=\"close\" title=\"close\">×</button><h3></h3><pre></pre></aside>\n");
    let _ = write!(out, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

/// Arrowheads the graphs' edges share.
const ARROWS: &str = "<svg class=\"defs\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>\
<marker id=\"arrow-seq\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#888\"/></marker>\
<marker id=\"arrow-int\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c0392b\"/></marker>\
</defs></svg>\n";

/// The verdict words a file's row can be filtered by: its assertions' statuses, or its
/// outcome when it was not checked to its end.
fn verdict_tags(run: &TaskRun) -> Vec<&'static str> {
    match &run.result.outcome {
        Outcome::Checked(vs) => {
            let mut tags: Vec<&'static str> = vs.iter().map(|v| v.status.word()).collect();
            tags.sort_unstable();
            tags.dedup();
            if tags.is_empty() {
                tags.push("none");
            }
            tags
        }
        other => vec![other.word()],
    }
}

fn counts(run: &TaskRun) -> [usize; 4] {
    let mut c = [0; 4];
    if let Outcome::Checked(vs) = &run.result.outcome {
        for v in vs {
            c[status_index(&v.status)] += 1;
        }
    }
    c
}

fn status_index(s: &Status) -> usize {
    match s {
        Status::Safe => 0,
        Status::Violated => 1,
        Status::BoundedSafe => 2,
        Status::Unknown => 3,
    }
}

const STATUSES: [&str; 4] = ["safe", "violated", "bounded-safe", "unknown"];

fn overview(runs: &[TaskRun], s: &Summary) -> String {
    let mut out = String::from("<section id=\"overview\"><h2>Overview</h2>\n");
    let _ = writeln!(
        out,
        "<p class=\"totals\"><span class=\"badge verdict-safe\">{} safe</span> <span class=\"badge verdict-violated\">{} violated</span> <span class=\"badge verdict-bounded-safe\">{} bounded-safe</span> <span class=\"badge verdict-unknown\">{} unknown</span>{}</p>",
        s.safe,
        s.violated,
        s.bounded_safe,
        s.unknown,
        [(s.error, "error"), (s.timeout, "timeout"), (s.out_of_memory, "out of memory"), (s.interrupted, "interrupted")].iter().filter(|(n, _)| *n > 0).map(|(n, w)| format!(" <span class=\"badge outcome\">{n} {w}</span>")).collect::<String>()
    );
    out.push_str("<div class=\"filters\" role=\"group\" aria-label=\"filter by verdict\"><span>show files with:</span> <button type=\"button\" data-filter=\"all\" class=\"on\">all</button>");
    let mut tags: Vec<&str> = STATUSES.to_vec();
    for r in runs {
        for t in verdict_tags(r) {
            if !tags.contains(&t) {
                tags.push(t);
            }
        }
    }
    for t in tags {
        let _ = write!(out, " <button type=\"button\" data-filter=\"{t}\" class=\"verdict-{t}\">{t}</button>");
    }
    out.push_str("</div>\n");
    out.push_str(
        "<table id=\"files\" class=\"sortable\"><thead><tr><th data-sort=\"num\">#</th><th data-sort=\"text\">file</th><th data-sort=\"text\">outcome</th>\
         <th data-sort=\"num\">safe</th><th data-sort=\"num\">violated</th><th data-sort=\"num\">bounded-safe</th><th data-sort=\"num\">unknown</th>\
         <th data-sort=\"num\">time (s)</th><th data-sort=\"num\">memory (MiB)</th></tr></thead><tbody>\n",
    );
    for (i, r) in runs.iter().enumerate() {
        let c = counts(r);
        let mem = r.peak_memory_mb.map_or((String::from("-1"), String::from("–")), |m| (format!("{m:.1}"), format!("{m:.1}")));
        let _ = write!(out, "<tr class=\"file-row\" data-verdicts=\"{}\"><td data-v=\"{i}\">{}</td>", verdict_tags(r).join(" "), i + 1);
        let _ = write!(out, "<td data-v=\"{0}\"><a href=\"#file-{i}\">{0}</a></td><td data-v=\"{1}\">{1}</td>", escape(&r.result.file), r.result.outcome.word());
        for (k, n) in c.iter().enumerate() {
            let cls = if *n > 0 { format!(" class=\"verdict-{}\"", STATUSES[k]) } else { String::new() };
            let _ = write!(out, "<td data-v=\"{n}\"{cls}>{n}</td>");
        }
        let _ = writeln!(out, "<td data-v=\"{0:.3}\">{0:.2}</td><td data-v=\"{1}\">{2}</td></tr>", r.result.seconds, mem.0, mem.1);
    }
    out.push_str("</tbody></table>\n</section>\n");
    out
}

fn svcomp_section(sv: &Svcomp) -> String {
    let mut out = String::from("<section id=\"svcomp\"><h2>SV-COMP</h2>\n<table class=\"sortable\" id=\"svcomp-tasks\"><thead><tr><th data-sort=\"text\">task</th><th data-sort=\"text\">expected</th><th data-sort=\"text\">answer</th><th data-sort=\"text\">correct</th><th data-sort=\"num\">points</th></tr></thead><tbody>\n");
    for r in &sv.rows {
        let task = match r.run {
            Some(i) => format!("<a href=\"#file-{i}\">{}</a>", escape(&r.task)),
            None => escape(&r.task),
        };
        let cls = match r.correct.as_str() {
            "yes" => " class=\"correct\"",
            "no" => " class=\"wrong\"",
            _ => "",
        };
        let _ = writeln!(
            out,
            "<tr{cls}><td data-v=\"{}\">{task}</td><td data-v=\"{e}\">{e}</td><td data-v=\"{a}\">{a}</td><td data-v=\"{c}\">{c}</td><td data-v=\"{p}\">{p}</td></tr>",
            escape(&r.task),
            e = escape(&r.expected),
            a = escape(&r.answer),
            c = escape(&r.correct),
            p = r.points
        );
    }
    out.push_str("</tbody></table>\n<h3>Confusion matrix</h3>\n<table class=\"confusion\"><thead><tr><th>expected \\ answer</th><th>TRUE</th><th>FALSE</th><th>UNKNOWN</th></tr></thead><tbody>\n");
    for (i, name) in ["true", "false", "none"].iter().enumerate() {
        if i == 2 && sv.cells[2].iter().sum::<usize>() == 0 {
            continue;
        }
        let row = sv.cells[i];
        let _ = writeln!(out, "<tr><th>{name}</th><td>{}</td><td>{}</td><td>{}</td></tr>", row[0], row[1], row[2]);
    }
    let _ = writeln!(
        out,
        "</tbody></table>\n<p class=\"score\">score <strong>{}</strong> of {} possible (+2 correct TRUE, +1 correct FALSE, −32 wrong TRUE, −16 wrong FALSE)</p>\n</section>",
        sv.score, sv.max_score
    );
    out
}

/// One location's invariant (`coarsen::report::invariants_data`).
#[derive(Clone, Debug, Deserialize)]
struct InvariantAt {
    file: String,
    line: u32,
    thread: String,
    location: String,
    action: String,
    invariant: Option<String>,
}

#[derive(Deserialize)]
struct Invariants {
    locations: Vec<InvariantAt>,
}

fn section_data<'a>(sections: &'a [Section], title: &str) -> Option<&'a serde_json::Value> {
    sections.iter().find(|s| s.title == title).and_then(|s| s.data.as_ref())
}

/// Whether `a` and `b` name the same file: equal as given, or once canonicalised.
fn same_file(a: &str, b: &str) -> bool {
    a == b || matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

fn file_section(i: usize, run: &TaskRun) -> String {
    let r = &run.result;
    let mut out = String::new();
    let tags = verdict_tags(run).join(" ");
    let _ = writeln!(out, "<section class=\"file\" id=\"file-{i}\" data-verdicts=\"{tags}\"><h2><span class=\"file-no\">{}</span> <span class=\"file-name\">{}</span></h2>", i + 1, escape(&r.file));
    let mem = run.peak_memory_mb.map(|m| format!(" · {m:.1} MiB")).unwrap_or_default();
    let _ = writeln!(out, "<p class=\"meta\">{} · {:.2} s{mem}</p>", r.outcome.word(), r.seconds);
    let verdicts: &[AssertionVerdict] = match &r.outcome {
        Outcome::Checked(vs) => vs,
        Outcome::Error(d) => {
            let _ = writeln!(out, "<pre class=\"error\">{}</pre>", escape(&d.to_string()));
            &[]
        }
        Outcome::Timeout(why) | Outcome::OutOfMemory(why) | Outcome::Interrupted(why) => {
            let _ = writeln!(out, "<p class=\"error\">{}: {}</p>", r.outcome.word(), escape(why));
            &[]
        }
    };
    let source = std::fs::read(&r.file).map(|b| String::from_utf8_lossy(&b).into_owned());
    let line_count = source.as_ref().map_or(0, |s| s.lines().count() as u32);
    let line_id = |line: u32| (line >= 1 && line <= line_count).then(|| format!("f{i}-L{line}"));
    // Assertions by source line of this file; the others are listed apart.
    let mut on_line: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let mut elsewhere = Vec::new();
    for (k, v) in verdicts.iter().enumerate() {
        let pos = location::of_id(&v.id);
        if line_id(pos.line).is_some() && same_file(&pos.file, &r.file) {
            on_line.entry(pos.line).or_default().push(k);
        } else {
            elsewhere.push(k);
        }
    }
    if matches!(r.outcome, Outcome::Checked(_)) {
        if verdicts.is_empty() {
            let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(super::text::NO_ASSERTIONS));
        } else {
            out.push_str(&assertion_table(i, verdicts, &on_line));
        }
    }
    for (k, v) in verdicts.iter().enumerate() {
        if v.status != Status::Violated {
            continue;
        }
        if let Some(steps) = v.trace.as_ref().filter(|t| !t.is_empty()) {
            let _ = writeln!(out, "<div class=\"violation\" id=\"f{i}-trace-{k}\"><h3>Violation of <code>{}</code> at {}</h3>", escape(&v.text), escape(&v.id));
            let base = Path::new(&r.file).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            out.push_str(&lanes::swimlanes(steps, &|f, l| if f == base { line_id(l) } else { None }));
            out.push_str("</div>\n");
        }
    }
    if let Some(rv) = &r.races {
        let base = Path::new(&r.file).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        out.push_str(&races::section(rv, &|f, l| if f == base { line_id(l) } else { None }));
    }
    if !elsewhere.is_empty() {
        out.push_str("<p class=\"note\">Assertions outside the source shown below:</p><ul class=\"elsewhere\">");
        for k in &elsewhere {
            let v = &verdicts[*k];
            let _ = write!(out, "<li>{} {}</li>", marker(i, *k, v), escape(&v.id));
        }
        out.push_str("</ul>\n");
    }
    let invariants: Option<Invariants> = section_data(&r.sections, "invariants").and_then(|d| serde_json::from_value(d.clone()).ok());
    match &source {
        Ok(text) => out.push_str(&source_view(i, text, verdicts, &on_line, invariants.as_ref(), &r.file)),
        Err(e) => {
            let _ = writeln!(out, "<p class=\"note\">source not shown: cannot read {}: {}</p>", escape(&r.file), escape(&e.to_string()));
        }
    }
    let mut explanation = section_data(&r.sections, "explain").and_then(|d| serde_json::from_value::<explain::Explanation>(d.clone()).ok());
    // What COARSEN left open but another engine proved is no question for the reader.
    if let Some(e) = explanation.as_mut() {
        e.assertions.retain(|a| verdicts.iter().any(|v| v.id == a.assertion && v.status != Status::Safe));
    }
    let culprits = explanation.as_ref().map(explain::culprits).unwrap_or_default();
    if let Some(e) = &explanation {
        out.push_str(&explain::section(e, &r.file, &|f, l| if same_file(f, &r.file) { line_id(l) } else { None }));
    }
    if let Some(g) = section_data(&r.sections, "dfg").and_then(|d| serde_json::from_value::<graph::Dfg>(d.clone()).ok()) {
        let _ = writeln!(
            out,
            "<details class=\"coarsen\" open><summary>COARSEN: data-flow graph ({} locations, {} edges, {} round(s)) and thread templates</summary>",
            g.nodes.len(),
            g.edges.len(),
            g.rounds
        );
        out.push_str(&graph::templates(&g));
        out.push_str(&graph::legend(&g));
        if !culprits.is_empty() {
            out.push_str("<p class=\"legend\"><span class=\"key culprit\">lets a value into an open assertion's failing branch (see why it is open, above)</span></p>\n");
        }
        out.push_str(&graph::svg(&g, &|f, l| if same_file(f, &r.file) { line_id(l) } else { None }, &culprits));
        out.push_str("</details>\n");
    }
    for s in r.sections.iter().filter(|s| s.title != "dfg" && s.title != "invariants" && !(s.title == "explain" && explanation.is_some())) {
        let _ = writeln!(out, "<details class=\"extra\"><summary>{}</summary><pre>{}</pre></details>", escape(&s.title), escape(&s.body));
    }
    out.push_str("</section>\n");
    out
}

/// The marker of assertion `k` of file `i`: one per assertion, on its source line or in the
/// list of assertions outside the source.
fn marker(i: usize, k: usize, v: &AssertionVerdict) -> String {
    format!("<a class=\"marker verdict-{}\" id=\"f{i}-m{k}\" href=\"#f{i}-a{k}\" title=\"{}: {}\">{}</a>", v.status.word(), escape(&v.label()), escape(&v.text), glyph(&v.status))
}

fn glyph(s: &Status) -> &'static str {
    match s {
        Status::Safe => "✔",
        Status::Violated => "✘",
        Status::BoundedSafe => "◐",
        Status::Unknown => "?",
    }
}

fn assertion_table(i: usize, verdicts: &[AssertionVerdict], on_line: &BTreeMap<u32, Vec<usize>>) -> String {
    let placed: std::collections::BTreeSet<usize> = on_line.values().flatten().copied().collect();
    let mut out = String::from("<table class=\"assertions\"><thead><tr><th>assertion</th><th>verdict</th><th>engine</th><th>reason</th></tr></thead><tbody>\n");
    for (k, v) in verdicts.iter().enumerate() {
        let pos = location::of_id(&v.id);
        let at = if placed.contains(&k) { format!("<a href=\"#f{i}-m{k}\">{}</a>", escape(&v.id)) } else { escape(&v.id) };
        let engine = v.engine.map(|e| e.name()).unwrap_or("–");
        let bound = v.bound.map(|b| format!(" (bound {b})")).unwrap_or_default();
        let detail = v.detail.as_ref().map(|d| format!("<details><summary>detail</summary><pre>{}</pre></details>", escape(d))).unwrap_or_default();
        let trace = if v.status == Status::Violated && v.trace.as_ref().is_some_and(|t| !t.is_empty()) { format!(" <a href=\"#f{i}-trace-{k}\">interleaving</a>") } else { String::new() };
        let _ = writeln!(
            out,
            "<tr class=\"assertion verdict-{}\" id=\"f{i}-a{k}\" data-line=\"{}\"><td>{at}<br><code>{}</code></td><td><span class=\"badge verdict-{0}\">{}</span>{bound}</td><td class=\"engine\">{engine}</td><td>{}{trace}{detail}</td></tr>",
            v.status.word(),
            pos.line,
            escape(&v.text),
            escape(&v.label()),
            escape(&v.reason),
        );
    }
    out.push_str("</tbody></table>\n");
    out
}

fn source_view(i: usize, text: &str, verdicts: &[AssertionVerdict], on_line: &BTreeMap<u32, Vec<usize>>, invariants: Option<&Invariants>, file: &str) -> String {
    let mut inv_at: BTreeMap<u32, Vec<&InvariantAt>> = BTreeMap::new();
    if let Some(inv) = invariants {
        let mut names: BTreeMap<&str, bool> = BTreeMap::new();
        for l in &inv.locations {
            let ours = *names.entry(l.file.as_str()).or_insert_with(|| same_file(&l.file, file));
            if ours && l.line > 0 {
                inv_at.entry(l.line).or_default().push(l);
            }
        }
    }
    let lines = text.lines().count();
    let open = if lines <= 2000 || !on_line.is_empty() { " open" } else { "" };
    let mut out = format!(
        "<details class=\"source\"{open}><summary>source ({lines} lines{})</summary>\n",
        if invariants.is_some() { "; click a line marked ▸ for COARSEN's invariants there" } else { "; no invariants (COARSEN did not run to its end)" }
    );
    out.push_str("<div class=\"src\">");
    for (n, line) in text.lines().enumerate() {
        let n = n as u32 + 1;
        let mut classes = String::from("line");
        let ks = on_line.get(&n);
        if let Some(ks) = ks {
            // The line takes the worst verdict of its assertions.
            let worst = ks.iter().map(|k| &verdicts[*k].status).max_by_key(|s| [1, 4, 2, 3][status_index(s)]).unwrap();
            let _ = write!(classes, " has-assert verdict-{}", worst.word());
        }
        let inv = inv_at.get(&n);
        let mut attrs = String::new();
        if let Some(locs) = inv {
            classes.push_str(" has-inv");
            let body: String = locs.iter().map(|l| format!("{} {}: {}\n  {{ {} }}\n", l.thread, l.location, l.action, l.invariant.as_deref().unwrap_or("unreachable"))).collect();
            let _ = write!(attrs, " title=\"{}\" tabindex=\"0\"", escape(body.trim_end()));
        }
        let _ = write!(out, "<div class=\"{classes}\" id=\"f{i}-L{n}\"{attrs}><span class=\"ln\">{n}</span><span class=\"marks\">");
        if let Some(ks) = ks {
            for k in ks {
                out.push_str(&marker(i, *k, &verdicts[*k]));
            }
        }
        let _ = write!(out, "</span><code>{}</code>", escape(line));
        if let Some(ks) = ks {
            for k in ks {
                let v = &verdicts[*k];
                let engine = v.engine.map(|e| format!(" [{}]", e.name())).unwrap_or_default();
                let _ = write!(out, "<span class=\"note verdict-{}\">{}{engine}: {}</span>", v.status.word(), escape(&v.label()), escape(&v.reason));
            }
        }
        out.push_str("</div>\n");
    }
    out.push_str("</div></details>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::{Decider, TaskResult};

    fn verdict(id: &str, text: &str, status: Status) -> AssertionVerdict {
        AssertionVerdict {
            id: id.into(),
            text: text.into(),
            status,
            reason: "because <b>".into(),
            detail: None,
            bound: None,
            engine: Some(Decider::Bounded),
            unreachable: false,
            custom_rules: None,
            why: Default::default(),
            trace: None,
        }
    }

    fn run(file: &str, outcome: Outcome) -> TaskRun {
        TaskRun { result: TaskResult { file: file.into(), outcome, seconds: 1.25, sections: Vec::new(), artifacts: Default::default(), races: None }, peak_memory_mb: Some(20.5) }
    }

    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(escape("</script><a href=\"x\" b='y'>&"), "&lt;/script&gt;&lt;a href=&quot;x&quot; b=&#39;y&#39;&gt;&amp;");
    }

    #[test]
    fn a_page_has_a_row_per_file_and_a_marker_per_assertion_and_no_program_markup() {
        let dir = std::env::temp_dir().join(format!("duet-html-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let c = dir.join("a.c");
        std::fs::write(&c, "int main() {\n  char *s = \"</script><script>alert(1)</script>\";\n  assert(s);\n  assert(1); assert(2);\n}\n").unwrap();
        let file = c.display().to_string();
        let mut violated = verdict(&format!("{file}:3:3"), "s", Status::Violated);
        let step = |thread: u32, line: u32, fails: bool| crate::verdict::TraceStep {
            thread,
            function: "main".into(),
            file: "a.c".into(),
            line,
            column: 3,
            action: "s := \"</script>\"".into(),
            loop_steps: None,
            created: Vec::new(),
            inputs: Vec::new(),
            effects: vec!["write s = 1".into()],
            fails,
        };
        violated.trace = Some(vec![step(0, 2, false), step(2, 4, false), step(1, 3, true)]);
        let vs = vec![violated, verdict(&format!("{file}:4:3"), "1", Status::Safe), verdict(&format!("{file}:4:14"), "2", Status::Unknown), verdict("other.h:9:1", "x", Status::BoundedSafe)];
        let runs = vec![run(&file, Outcome::Checked(vs)), run("gone.c", Outcome::Timeout("900 s".into()))];
        let page = render(&runs, 10, 2.0, None);
        assert_eq!(page.matches("<tr class=\"file-row\"").count(), 2);
        assert_eq!(page.matches("<a class=\"marker ").count(), 4, "one marker per assertion, the one in other.h in the list apart");
        assert_eq!(page.matches("class=\"line has-assert verdict-violated\"").count(), 1);
        assert_eq!(page.matches("class=\"line has-assert verdict-unknown\"").count(), 1, "line 4 shows its worst verdict");
        assert_eq!(page.matches("</script>").count(), 2, "only the page's own two scripts close: {page}");
        assert_eq!(page.matches("<th class=\"lane\"").count(), 3, "a lane per thread of the violation");
        assert!(page.contains("<a class=\"at\" href=\"#f0-L4\">4:3</a>"), "steps link to their lines");
        assert!(page.contains("<a href=\"#f0-trace-0\">interleaving</a>"));
        assert!(page.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("data-verdicts=\"bounded-safe safe unknown violated\""));
        assert!(page.contains("data-verdicts=\"timeout\""));
        assert!(!page.contains("<b>"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn svcomp_runs_show_the_confusion_matrix_and_score() {
        let sv = Svcomp {
            rows: vec![SvcompRow { task: "t.yml".into(), expected: "false".into(), answer: "FALSE".into(), correct: "yes".into(), points: 1, run: Some(0) }],
            cells: [[0, 0, 0], [0, 1, 0], [0, 0, 0]],
            score: 1,
            max_score: 1,
        };
        let page = render(&[run("t.c", Outcome::Checked(Vec::new()))], 0, 1.0, Some(&sv));
        assert!(page.contains("<tr><th>false</th><td>0</td><td>1</td><td>0</td></tr>"));
        assert!(!page.contains("<tr><th>none</th>"));
        assert!(page.contains("score <strong>1</strong> of 1 possible"));
        assert!(page.contains("<a href=\"#file-0\">t.yml</a>"));
    }
}
