//! `--witness`: YAML witnesses (format 2.0) validate against the shipped schema subset, a
//! violation's ends at the failing assertion, a proof's carries COARSEN's invariants in C over
//! program variables; GraphML on request; one witness per input with `--witness-dir`; an
//! unwritable path is a usage error before any analysis.

use crate::common;

use common::yaml_json as json;
use common::{duet, repo, texts};
use serde_json::Value;
use yaml_rust2::YamlLoader;

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("duet-witness-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn validator() -> (boon::Schemas, boon::SchemaIndex) {
    let text = std::fs::read_to_string(repo("schemas/witness-2.0-subset.schema.json")).expect("the witness schema ships in schemas/");
    let schema: Value = serde_json::from_str(&text).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    compiler.add_resource("file:///witness-2.0-subset.schema.json", schema).unwrap();
    let index = compiler.compile("file:///witness-2.0-subset.schema.json", &mut schemas).unwrap();
    (schemas, index)
}

/// The witness file, parsed and validated.
fn valid_witness(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("no witness at {}: {e}", path.display()));
    let docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("not YAML ({e}):\n{text}"));
    assert_eq!(docs.len(), 1, "{text}");
    let w = json(&docs[0]);
    let (schemas, index) = validator();
    if let Err(e) = schemas.validate(&w, index) {
        panic!("invalid witness: {e:#}\n{text}");
    }
    w
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = duet(args);
    let (o, e) = texts(&out);
    (out.status.code().unwrap_or(-1), o, e)
}

#[test]
fn violation_witness_ends_at_the_assertion_and_validates() {
    let d = tmp("violation");
    let w = d.join("w.yml");
    let (code, out, err) = run(&["check", "--no-progress", "--witness", w.to_str().unwrap(), "benchmarks/examples/racy_counter.c"]);
    assert_eq!(code, 10, "{out}{err}");
    let v = valid_witness(&w);
    let e = &v[0];
    assert_eq!(e["entry_type"], "violation_sequence");
    assert_eq!(e["metadata"]["format_version"], "2.0");
    assert_eq!(e["metadata"]["task"]["input_files"][0], "benchmarks/examples/racy_counter.c");
    let segments = e["content"].as_array().unwrap();
    let last = segments.last().unwrap()["segment"].as_array().unwrap().last().unwrap()["waypoint"].clone();
    assert_eq!(last["type"], "target");
    assert_eq!(last["location"]["line"], 14, "the assertion's line");
    assert_eq!(last["location"]["function"], "worker");
    // Nothing but the end is a target.
    let targets = segments.iter().flat_map(|s| s["segment"].as_array().unwrap().iter()).filter(|w| w["waypoint"]["type"] == "target").count();
    assert_eq!(targets, 1);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn program_inputs_become_function_return_waypoints() {
    let d = tmp("inputs");
    let w = d.join("w.yml");
    let (code, out, err) = run(&["check", "--no-progress", "--witness", w.to_str().unwrap(), "tests/programs/witness/nondet_input.c"]);
    assert_eq!(code, 10, "{out}{err}");
    let v = valid_witness(&w);
    let segments = v[0]["content"].as_array().unwrap();
    assert_eq!(segments.len(), 2, "{v:#}");
    let input = &segments[0]["segment"][0]["waypoint"];
    assert_eq!(input["type"], "function_return");
    assert_eq!(input["constraint"]["value"], "\\result == 5");
    assert_eq!(input["constraint"]["format"], "acsl_expression");
    // The closing parenthesis of `__VERIFIER_nondet_int()` on line 13.
    assert_eq!((input["location"]["line"].as_i64(), input["location"]["column"].as_i64()), (Some(13), Some(35)));
    assert_eq!(input["location"]["function"], "worker");
    assert_eq!(segments[1]["segment"][0]["waypoint"]["location"]["line"], 25);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn correctness_witness_carries_invariants_over_program_variables() {
    let d = tmp("correctness");
    let w = d.join("w.yml");
    let (code, out, err) = run(&["check", "--no-progress", "--witness", w.to_str().unwrap(), "benchmarks/examples/locked_counter.c"]);
    assert_eq!(code, 0, "{out}{err}");
    let v = valid_witness(&w);
    let e = &v[0];
    assert_eq!(e["entry_type"], "invariant_set");
    let invs = e["content"].as_array().unwrap();
    assert!(!invs.is_empty(), "{v:#}");
    for i in invs {
        let value = i["invariant"]["value"].as_str().unwrap();
        assert!(!value.contains('$') && !value.contains('#') && !value.contains('[') && !value.contains('*'), "not over program variables: {value}");
        assert_eq!(i["invariant"]["format"], "c_expression");
    }
    // At the assertion, under the lock, every worker sees the counter at 0.
    assert!(invs.iter().any(|i| i["invariant"]["location"]["line"] == 16 && i["invariant"]["value"] == "count == 0" && i["invariant"]["location"]["function"] == "worker"), "{v:#}");
    // The same input gives the same file, uuid included.
    let first = std::fs::read(&w).unwrap();
    let (code, _, _) = run(&["check", "--no-progress", "--witness", w.to_str().unwrap(), "benchmarks/examples/locked_counter.c"]);
    assert_eq!(code, 0);
    assert_eq!(first, std::fs::read(&w).unwrap());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn graphml_on_request() {
    let d = tmp("graphml");
    let w = d.join("w.graphml");
    let (code, out, err) = run(&["check", "--no-progress", "--witness-format", "graphml", "--witness", w.to_str().unwrap(), "benchmarks/examples/racy_counter.c"]);
    assert_eq!(code, 10, "{out}{err}");
    let g = std::fs::read_to_string(&w).unwrap();
    assert!(g.starts_with("<?xml"), "{g}");
    assert!(g.contains("<data key=\"witness-type\">violation_witness</data>"));
    assert!(g.contains("<data key=\"violation\">true</data>"));
    assert!(g.contains("createThread"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn witness_dir_writes_one_witness_per_input() {
    let d = tmp("dir");
    let dir = d.join("witnesses");
    let (code, out, err) = run(&["check", "--no-progress", "--witness-dir", dir.to_str().unwrap(), "benchmarks/examples/locked_counter.c", "benchmarks/examples/racy_counter.c"]);
    assert_eq!(code, 10, "{out}{err}");
    let mut names: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["locked_counter.c.witness.yml", "racy_counter.c.witness.yml"]);
    assert_eq!(valid_witness(&dir.join("locked_counter.c.witness.yml"))[0]["entry_type"], "invariant_set");
    assert_eq!(valid_witness(&dir.join("racy_counter.c.witness.yml"))[0]["entry_type"], "violation_sequence");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn unwritable_or_ambiguous_witness_paths_are_usage_errors_before_analysis() {
    let (code, out, err) = run(&["check", "--no-progress", "--witness", "/nonexistent/dir/w.yml", "benchmarks/examples/racy_counter.c"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("/nonexistent/dir/w.yml"), "{err}");
    assert!(out.is_empty(), "no analysis ran: {out}");
    let (code, out, err) = run(&["check", "--no-progress", "--witness", "w.yml", "benchmarks/examples/locked_counter.c", "benchmarks/examples/racy_counter.c"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("--witness-dir"), "{err}");
    assert!(out.is_empty(), "no analysis ran: {out}");
    let (code, _, err) = run(&["check", "--no-progress", "--dump-smt", "/nonexistent/dir/e.smt2", "benchmarks/examples/racy_counter.c"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--dump-smt"), "{err}");
}

#[test]
fn the_schema_rejects_what_the_format_forbids() {
    let (schemas, index) = validator();
    let good: Value = serde_json::json!([{
        "entry_type": "invariant_set",
        "metadata": {
            "format_version": "2.0",
            "uuid": "36e1ee3e-97c9-85d2-a94f-bb896d950b21",
            "creation_time": "2026-01-01T00:00:00Z",
            "producer": {"name": "duet-rs", "version": "0.1.0"},
            "task": {
                "input_files": ["a.c"],
                "input_file_hashes": {"a.c": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
                "specification": "CHECK( init(main()), LTL(G ! call(reach_error())) )",
                "data_model": "LP64",
                "language": "C"
            }
        },
        "content": [{"invariant": {"type": "location_invariant", "location": {"file_name": "a.c", "line": 3, "column": 5, "function": "main"}, "value": "x == 0", "format": "c_expression"}}]
    }]);
    assert!(schemas.validate(&good, index).is_ok());
    let mut bad = good.clone();
    bad[0]["metadata"]["format_version"] = "0.1".into();
    assert!(schemas.validate(&bad, index).is_err());
    let mut bad = good.clone();
    bad[0]["metadata"]["task"]["data_model"] = "64bit".into();
    assert!(schemas.validate(&bad, index).is_err());
    let mut bad = good;
    bad[0]["content"][0]["invariant"]["location"]["line"] = 0.into();
    assert!(schemas.validate(&bad, index).is_err());
}
