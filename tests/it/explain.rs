//! `check --explain FILE:LINE`: the derivation of each interference edge that reaches an
//! unproved assertion's failing branch, down to input facts with their source lines.

use crate::common;

use common::{duet, repo, texts};
use serde_json::Value;

const FLAG: &str = "tests/programs/explain/flag.c";

/// The `explain` section's data of a JSON report.
fn explain_data(args: &[&str]) -> Value {
    let out = duet(&[&["check", "--engines", "coarsen", "--format", "json"], args].concat());
    let (stdout, stderr) = texts(&out);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    let sections = report["tasks"][0]["sections"].as_array().unwrap().clone();
    sections.into_iter().find(|s| s["title"] == "explain").unwrap_or_else(|| panic!("no explain section: {stdout}"))["data"].clone()
}

/// A proof tree as `rule text { children }` for derived tuples and `relation(source lines)` for
/// input facts, the lines without the file name.
fn shape(n: &Value) -> String {
    if n["rule"].is_null() {
        let lines: Vec<String> = n["source"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().rsplit(':').next().unwrap().to_string()).collect();
        return format!("{}({})", n["relation"].as_str().unwrap(), lines.join(", "));
    }
    let kids: Vec<String> = n["children"].as_array().unwrap().iter().map(shape).collect();
    format!("{} {{ {} }}", n["rule"].as_str().unwrap(), kids.join("; "))
}

/// The edge from the writer's store to main's test of `flag == 0`, taken by its failing branch.
fn writer_edge(data: &Value) -> Value {
    let edges = data["assertions"][0]["edges"].as_array().unwrap();
    edges.iter().find(|e| e["from_action"] == "writer: flag := 1" && e["to_action"] == "main: assume(flag != 0)").unwrap_or_else(|| panic!("no such edge: {data:#}")).clone()
}

/// Derived by hand from rules/interference.dl. The writer at `flag := 1` (line 10) may run
/// while main stands at the failing branch's test (line 17): FORK puts the child's entry
/// (line 9) beside the fork's successor, and a free step moves the child on. The value it
/// writes is current as it steps to its exit (line 11) (MAYREACH-BASE, whose variant for
/// relevant readers comes before the one for observed cells, at the same height). The test
/// reads `flag` and waits for `flag == 0` to be false, which the writer's exit allows
/// (cond_val), so it may read that value (MAYREACH for a reader that needs a condition).
const EXPECTED: &str = "may_flow(u0, x, v) :- may_reach(u0, x, u1, v), use(v, x), needs(v, c, val), cond_val(u1, c, val), !atomic(u1). { \
    may_reach(u0, x, u1, v) :- coreachable(u0, v), mod(u0, x), free_step(u0, u1), !atomic(v), !join_waits(u0, v), relevant(v, x). { \
        coreachable(u1, v) :- coreachable(u0, v), free_step(u0, u1), !atomic(v), !join_waits(u0, v). { \
            coreachable(e, a1) :- spawn(a0, e), cf(a0, a1). { spawn(16, 9); cf(16, 17) }; \
            free_step(a, b) :- cf(a, b), !blocks(a). { cf(9, 10) } }; \
        mod(10); \
        free_step(a, b) :- cf(a, b), !blocks(a). { cf(10, 11) }; \
        relevant(v, x) :- use(v, x). { use(17) } }; \
    use(17); needs(17); cond_val(11, 17) }";

#[test]
fn the_writers_store_is_traced_to_input_facts() {
    let data = explain_data(&["--explain", &format!("{FLAG}:17"), FLAG]);
    assert_eq!(data["rules"], "interference.dl (built-in)");
    let a = &data["assertions"][0];
    assert_eq!(a["assertion"], format!("{FLAG}:17:5"));
    assert_eq!(a["proved"], false);
    let edge = writer_edge(&data);
    assert_eq!(
        (edge["from"].as_str().unwrap(), edge["to"].as_str().unwrap(), edge["cell"].as_str().unwrap(), edge["use"].as_str().unwrap()),
        (&*format!("{FLAG}:10"), &*format!("{FLAG}:17"), "flag", "exec")
    );
    let proof = &edge["proof"];
    assert_eq!(shape(proof), EXPECTED.split_whitespace().collect::<Vec<_>>().join(" "));
    // Every rule is named by the line it is on in the rule file.
    let rules = std::fs::read_to_string(repo("rules/interference.dl")).unwrap();
    let lines: Vec<&str> = rules.lines().collect();
    fn each(n: &Value, f: &mut dyn FnMut(&Value)) {
        f(n);
        for c in n["children"].as_array().unwrap() {
            each(c, f);
        }
    }
    each(proof, &mut |n| {
        if let Some(line) = n["rule_line"].as_u64() {
            let head = n["rule"].as_str().unwrap().split(" :- ").next().unwrap();
            assert!(lines[line as usize - 1].starts_with(head), "line {line} of interference.dl is not `{}`", n["rule"]);
            assert_eq!(n["rule_file"], "interference.dl");
        }
    });
    // The input facts' ids are named: the writer's store, in its thread.
    let mod_fact = &proof["children"][0]["children"][1];
    assert_eq!(mod_fact["relation"], "mod");
    assert_eq!(mod_fact["names"][0], format!("loc writer: flag := 1 @ {FLAG}:10"));
    assert_eq!(mod_fact["names"][1], "cell flag");
}

#[test]
fn the_text_report_has_the_tree() {
    // The file may be named by the end of its path.
    let out = duet(&["check", "--engines", "coarsen", "--explain", "flag.c:17", FLAG]);
    let (text, _) = texts(&out);
    assert_eq!(out.status.code(), Some(5), "the verdicts decide the exit code: {text}");
    assert!(text.contains(&format!("--- explain of {FLAG} ---")), "{text}");
    assert!(text.contains("not proved by COARSEN; rules: interference.dl (built-in)"), "{text}");
    let leaf = format!("  input  [loc writer: flag := 1 @ {FLAG}:10; cell flag]");
    assert!(text.lines().any(|l| l.trim_start().starts_with("mod(") && l.ends_with(&leaf)), "{text}");
    assert!(text.contains("rules used:\n"), "{text}");
    assert!(text.contains("interference.dl:125: coreachable(e, a1) :- spawn(a0, e), cf(a0, a1)."), "{text}");
}

#[test]
fn a_proved_assertion_has_nothing_to_explain() {
    let data = explain_data(&["--explain", &format!("{FLAG}:18"), FLAG]);
    let a = &data["assertions"][0];
    assert_eq!(a["assertion"], format!("{FLAG}:18:5"));
    assert_eq!(a["proved"], true);
    assert_eq!(a["edges"].as_array().unwrap().len(), 0);
    let out = duet(&["check", "--engines", "coarsen", "--explain", &format!("{FLAG}:18"), FLAG]);
    assert!(texts(&out).0.contains("proved by COARSEN (safe: the failing branch is infeasible (no thread reaches the failure)): nothing to explain"), "{}", texts(&out).0);
}

#[test]
fn a_line_without_an_assertion_is_an_input_error() {
    let out = duet(&["check", "--engines", "coarsen", "--explain", &format!("{FLAG}:12"), FLAG]);
    assert_eq!(out.status.code(), Some(2));
    let (stdout, stderr) = texts(&out);
    assert!(stdout.is_empty(), "no analysis: {stdout}");
    assert!(stderr.contains(&format!("--explain {FLAG}:12: no assertion on that line of {FLAG}; its assertions are on lines 17, 18")), "{stderr}");
    // A file that is not an input matches no assertion either; a malformed target and a run
    // without COARSEN are usage errors (1).
    let out = duet(&["check", "--explain", "tests/programs/threads.c:3", FLAG]);
    assert_eq!(out.status.code(), Some(2));
    assert!(texts(&out).1.contains("--explain names tests/programs/threads.c, which is not among the input files"), "{}", texts(&out).1);
    for bad in [FLAG, "x.c:0", "x.c:-1"] {
        let out = duet(&["check", "--explain", bad, FLAG]);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        assert!(texts(&out).1.contains("expected FILE:LINE"), "{bad}: {}", texts(&out).1);
    }
    let out = duet(&["check", "--engines", "bounded", "--explain", &format!("{FLAG}:17"), FLAG]);
    assert_eq!(out.status.code(), Some(1));
    assert!(texts(&out).1.contains("--explain needs the coarsen engine"), "{}", texts(&out).1);
}

#[test]
fn custom_rules_are_named_and_used() {
    let dir = std::env::temp_dir().join(format!("duet-explain-rules-{}", std::process::id()));
    assert_eq!(duet(&["rules", "--write", dir.to_str().unwrap(), "--force"]).status.code(), Some(0));
    let file = dir.join("interference.dl");
    let data = explain_data(&["--rules", file.to_str().unwrap(), "--explain", &format!("{FLAG}:17"), FLAG]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(data["rules"], file.to_str().unwrap());
    let proof = &writer_edge(&data)["proof"];
    assert_eq!(proof["rule_file"], file.to_str().unwrap());
    assert_eq!(shape(proof), EXPECTED.split_whitespace().collect::<Vec<_>>().join(" "));
}

#[test]
fn the_tree_does_not_depend_on_datalog_workers() {
    let one = explain_data(&["--explain", &format!("{FLAG}:17"), FLAG]);
    let three = explain_data(&["--workers", "3", "--explain", &format!("{FLAG}:17"), FLAG]);
    assert_eq!(one, three);
}
