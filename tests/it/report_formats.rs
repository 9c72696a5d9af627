//! The machine-readable reports: SARIF validates against the shipped SARIF 2.1.0 schema,
//! and every field of the JSON report is documented in docs/report-json.md.

use crate::common;

use common::{duet, repo, texts};
use duet_rs::diag::Diagnostic;
use duet_rs::report::{self, Format};
use duet_rs::verdict::TaskRun;
use duet_rs::verdict::{AssertionVerdict, Outcome, Status, TaskResult};
use serde_json::Value;

/// Every kind of outcome and status, as no engine of today produces them all.
fn synthetic() -> Vec<TaskRun> {
    let v = |id: &str, status: Status, detail: Option<&str>| AssertionVerdict {
        id: id.into(),
        text: "x > 0".into(),
        status,
        reason: "because".into(),
        detail: detail.map(String::from),
        bound: None,
        engine: None,
        unreachable: false,
        custom_rules: None,
        why: Default::default(),
        trace: None,
    };
    let run = |file: &str, outcome: Outcome| TaskRun {
        result: TaskResult { file: file.into(), outcome, seconds: 0.5, sections: Vec::new(), artifacts: Default::default(), races: None },
        peak_memory_mb: Some(12.0),
    };
    vec![
        run(
            "src/a b.c",
            Outcome::Checked(vec![
                v("src/a b.c:3:5", Status::Safe, None),
                v("src/a b.c:4:5", Status::Violated, Some("trace: t1 writes x")),
                v("src/a b.c:5:5", Status::Unknown, Some("x in [0, 3]")),
                v("src/a b.c:6:5", Status::BoundedSafe, None),
            ]),
        ),
        run("/abs/b.c", Outcome::Error(Diagnostic::input("/abs/b.c", 2, 7, "syntax error").with_note("expected `;`"))),
        run("c.c", Outcome::Error(Diagnostic::internal("c.c", "the task process was killed by SIGSEGV"))),
        run("d.c", Outcome::Timeout("time limit of 2 s reached".into())),
        TaskRun { peak_memory_mb: None, ..run("e.c", Outcome::OutOfMemory("memory limit of 100 MB reached".into())) },
    ]
}

fn validator() -> (boon::Schemas, boon::SchemaIndex) {
    let text = std::fs::read_to_string(repo("schemas/sarif-schema-2.1.0.json")).expect("the SARIF schema ships in schemas/");
    let schema: Value = serde_json::from_str(&text).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    compiler.add_resource("file:///sarif-schema-2.1.0.json", schema).unwrap();
    let index = compiler.compile("file:///sarif-schema-2.1.0.json", &mut schemas).unwrap();
    (schemas, index)
}

fn assert_valid_sarif(text: &str) -> Value {
    let log: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"));
    let (schemas, index) = validator();
    if let Err(e) = schemas.validate(&log, index) {
        panic!("invalid SARIF: {e:#}\n{text}");
    }
    log
}

#[test]
fn sarif_of_every_outcome_validates_and_locates_results() {
    let text = report::render(Format::Sarif, &synthetic(), 10, 1.0);
    let log = assert_valid_sarif(&text);
    let results = log["runs"][0]["results"].as_array().unwrap();
    // Safe assertions are not results; the three others and the four failed tasks are.
    assert_eq!(results.len(), 7, "{text}");
    let violated = &results[0];
    assert_eq!(violated["ruleId"], "DUET001");
    assert_eq!(violated["level"], "error");
    let loc = &violated["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "src/a%20b.c");
    assert_eq!((loc["region"]["startLine"].as_u64(), loc["region"]["startColumn"].as_u64()), (Some(4), Some(5)));
    assert!(violated["message"]["text"].as_str().unwrap().contains("trace: t1 writes x"));
    assert_eq!(results[1]["ruleId"], "DUET002");
    assert_eq!(results[1]["level"], "warning");
    assert_eq!(results[2]["ruleId"], "DUET003");
    let input_error = &results[3]["locations"][0]["physicalLocation"];
    assert_eq!(input_error["artifactLocation"]["uri"], "file:///abs/b.c");
    assert_eq!(input_error["region"]["startLine"], 2);
    assert!(results[5]["locations"][0]["physicalLocation"].get("region").is_none(), "no region for a whole-file failure");
    assert_eq!(log["runs"][0]["invocations"][0]["exitCode"], 10);
    assert_eq!(log["runs"][0]["invocations"][0]["executionSuccessful"], false);

    // The validator does reject what the schema forbids.
    let mut bad = log.clone();
    bad["runs"][0]["results"][0]["level"] = "fatal".into();
    let (schemas, index) = validator();
    assert!(schemas.validate(&bad, index).is_err());
    let mut bad = log;
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into();
    assert!(schemas.validate(&bad, index).is_err());
}

#[test]
fn sarif_from_the_command_line_validates() {
    let out = duet(&[
        "check",
        "--engines",
        "coarsen",
        "--format",
        "sarif",
        "tests/programs/verdict_words/",
        "tests/programs/entry/",
        "tests/programs/witness/",
        "benchmarks/examples/",
        "tests/bad_input/syntax_error.c",
        "tests/bad_input/unsupported.c",
    ]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let log = assert_valid_sarif(&stdout);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["ruleId"] == "DUET004" && r["message"]["text"].as_str().unwrap().contains("syntax error")));
    assert!(results.iter().any(|r| r["ruleId"] == "DUET002"
        && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "tests/bad_input/unsupported.c"
        && r["locations"][0]["physicalLocation"]["region"]["startLine"] == 4));
}

fn keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

#[test]
fn every_json_field_is_documented_and_the_shape_holds() {
    let runs = synthetic();
    let text = report::render(Format::Json, &runs, 10, 1.0);
    let r: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(r["format"], "duet-rs-report");
    assert_eq!(r["version"], 1);
    let doc = std::fs::read_to_string(repo("docs/report-json.md")).unwrap();
    let mut all = Vec::new();
    keys(&r, &mut all);
    for k in all {
        assert!(doc.contains(&format!("`{k}`")), "field `{k}` is not documented in docs/report-json.md");
    }
    let t = &r["tasks"];
    assert_eq!(t[0]["outcome"], "checked");
    assert_eq!(t[0]["assertions"][1]["status"], "violated");
    assert_eq!(t[0]["assertions"][3]["status"], "bounded-safe");
    assert_eq!(t[0]["assertions"][0]["file"], "src/a b.c");
    assert_eq!(t[0]["exit_code"], 10);
    assert_eq!(t[1]["error"]["kind"], "input");
    assert_eq!(t[1]["exit_code"], 2);
    assert_eq!(t[2]["exit_code"], 6);
    assert_eq!(t[3]["outcome"], "timeout");
    assert_eq!(t[4]["outcome"], "out-of-memory");
    assert!(t[4]["memory_mb"].is_null());
    let s = &r["summary"];
    assert_eq!((s["safe"].as_u64(), s["violated"].as_u64(), s["unknown"].as_u64(), s["bounded_safe"].as_u64()), (Some(1), Some(1), Some(1), Some(1)));
    assert_eq!((s["error"].as_u64(), s["timeout"].as_u64(), s["out_of_memory"].as_u64(), s["exit_code"].as_i64()), (Some(2), Some(1), Some(1), Some(10)));
    // The document reads back into the published types.
    let back: report::json::Report = serde_json::from_str(&text).unwrap();
    assert_eq!(back.tasks.len(), 5);
}

#[test]
fn text_report_groups_by_file_and_ends_with_summary_time_and_exit_rule() {
    let text = report::render(Format::Text, &synthetic(), 10, 1.25);
    let a = text.find("src/a b.c: 4 assertion(s) in 0.50 s").unwrap();
    let b = text.find("/abs/b.c: error after 0.50 s").unwrap();
    let d = text.find("d.c: timeout after 0.50 s (time limit of 2 s reached)").unwrap();
    let e = text.find("e.c: out-of-memory after 0.50 s").unwrap();
    assert!(a < b && b < d && d < e);
    assert!(text.contains("  src/a b.c:4:5  violated      'x > 0'"), "{text}");
    let summary = text.find("summary: 5 file(s)").unwrap();
    assert!(summary > e);
    for line in ["  safe          1", "  violated      1", "  unknown       1", "  timeout       1", "  error         2", "time 1.25 s", "exit code 10 ("] {
        assert!(text[summary..].contains(line), "missing `{line}` in:\n{text}");
    }
    // File outcomes and assertion verdicts are counted in separate blocks.
    let files = text[summary..].find("\nfiles\n").expect("a files block") + summary;
    let asserts = text[summary..].find("\nassertions (in checked files)\n").expect("an assertions block") + summary;
    assert!(files < asserts, "{text}");
    for line in ["  timeout       1", "  error         2", "  out-of-memory 1"] {
        let at = text[files..].find(line).unwrap() + files;
        assert!(at < asserts, "`{line}` is not among the file counts:\n{text}");
    }
    for line in ["  safe          1", "  violated      1", "  unknown       1"] {
        assert!(text[asserts..].contains(line), "`{line}` is not among the assertion counts:\n{text}");
    }
}
