//! Witnesses are minimised (issue 40): a flag-protocol violation whose search spun thousands of
//! times and ran an unrelated thread's loop prints the few steps the failure needs, is still a
//! replayed `violated`, and its YAML witness still validates; the correct twin is never
//! `violated`.

use crate::common;

use common::yaml_json as json;
use common::{duet, repo, texts};
use serde_json::Value;
use yaml_rust2::YamlLoader;

const BUG: &str = "tests/programs/witness/flag_protocol_bug.c";
const OK: &str = "tests/programs/witness/flag_protocol_ok.c";

/// `check --format json` with `args`: the exit code and the assertions of the only task.
fn assertions(args: &[&str]) -> (i32, Vec<Value>) {
    let mut all = vec!["check", "--format", "json", "--no-progress"];
    all.extend_from_slice(args);
    let out = duet(&all);
    let (stdout, stderr) = texts(&out);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\n{stderr}"));
    (out.status.code().unwrap_or(-1), v["tasks"][0]["assertions"].as_array().cloned().unwrap_or_default())
}

/// The printed steps of an interleaving (its lines that name a thread).
fn steps(detail: &str) -> Vec<&str> {
    detail.lines().map(str::trim_start).filter(|l| l.starts_with('T') && l[1..].starts_with(|c: char| c.is_ascii_digit())).collect()
}

#[test]
fn a_flag_protocol_violation_prints_the_steps_it_needs() {
    let (code, a) = assertions(&[BUG]);
    assert_eq!(code, 10, "{a:?}");
    assert_eq!(a.len(), 1);
    assert_eq!(a[0]["status"], "violated", "{a:?}");
    assert!(a[0]["trace"].as_array().is_some_and(|t| t.last().is_some_and(|s| s["fails"] == true)), "the replayed steps end at the failure: {a:?}");
    let detail = a[0]["detail"].as_str().unwrap_or("");
    let s = steps(detail);
    // Without minimisation the search's path printed 6,671 steps, 6,659 of them spins.
    assert!(s.len() <= 20, "{} steps:\n{detail}", s.len());
    assert!(s.last().is_some_and(|l| l.contains("<- fails") && l.contains("data == 42")), "{detail}");
    // What the bug needs: the flag raised before the data, seen by the consumer.
    let flag = s.iter().position(|l| l.contains("ready := 1")).unwrap_or_else(|| panic!("{detail}"));
    let seen = s.iter().position(|l| l.contains("assume(ready != 0)")).unwrap_or_else(|| panic!("{detail}"));
    assert!(flag < seen, "{detail}");
    assert!(!detail.contains("data := 42"), "{detail}");
    // Neither spins nor the unrelated thread's loop.
    assert!(s.iter().filter(|l| l.contains("assume(ready == 0)")).count() <= 1, "{detail}");
    assert!(!detail.contains("noise := i"), "{detail}");
}

#[test]
fn the_minimised_witness_is_the_same_on_every_run() {
    let (_, one) = assertions(&["--engines", "explore", BUG]);
    let (_, two) = assertions(&["--engines", "explore", BUG]);
    assert_eq!(one[0]["status"], "violated", "{one:?}");
    assert_eq!(one[0]["detail"], two[0]["detail"]);
    assert!(steps(one[0]["detail"].as_str().unwrap_or("")).len() <= 20, "{one:?}");
}

/// The twin writes the data first: no engine reports a violation (it ends `bounded-safe`: no
/// engine here proves a flag protocol for the unbounded spin).
#[test]
fn the_correct_twin_is_never_violated() {
    let (code, a) = assertions(&["--search-time", "5", OK]);
    assert_eq!(a.len(), 1);
    assert!(["safe", "bounded-safe", "unknown"].contains(&a[0]["status"].as_str().unwrap_or("?")), "{a:?}");
    assert_ne!(code, 10);
}

/// The witness file, parsed and validated against the shipped schema subset.
fn valid_witness(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("no witness at {}: {e}", path.display()));
    let docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("not YAML ({e}):\n{text}"));
    assert_eq!(docs.len(), 1, "{text}");
    let w = json(&docs[0]);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(repo("schemas/witness-2.0-subset.schema.json")).unwrap()).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    compiler.add_resource("file:///witness-2.0-subset.schema.json", schema).unwrap();
    let index = compiler.compile("file:///witness-2.0-subset.schema.json", &mut schemas).unwrap();
    if let Err(e) = schemas.validate(&w, index) {
        panic!("invalid witness: {e:#}\n{text}");
    }
    w
}

#[test]
fn the_minimised_witness_validates_and_ends_at_the_assertion() {
    let d = std::env::temp_dir().join(format!("duet-trace-minimise-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let w = d.join("w.yml");
    let out = duet(&["check", "--no-progress", "--witness", w.to_str().unwrap(), BUG]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(10), "{stdout}{stderr}");
    let v = valid_witness(&w);
    assert_eq!(v[0]["entry_type"], "violation_sequence");
    let segments = v[0]["content"].as_array().unwrap();
    let waypoints: Vec<&Value> = segments.iter().flat_map(|s| s["segment"].as_array().unwrap().iter()).collect();
    let last = &waypoints.last().unwrap()["waypoint"];
    assert_eq!(last["type"], "target");
    assert_eq!(last["location"]["line"], 34, "the assertion's line");
    assert_eq!(last["location"]["function"], "consumer");
    assert!(waypoints.len() <= 20, "{v:#}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `predict`'s observed run spins on the flag before the producer moves (five times, printed
/// one by one, before minimisation): the interleaving it prints has no spin left.
#[test]
fn predict_prints_no_spin() {
    let out = duet(&["predict", "--format", "json", "--no-progress", "tests/programs/witness/flag_protocol_spin.c"]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(10), "{stdout}{stderr}");
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"));
    let a = &v["tasks"][0]["assertions"][0];
    assert_eq!(a["status"], "violated", "{a:?}");
    let detail = a["detail"].as_str().unwrap_or("");
    assert!(detail.contains("<- fails"), "{detail}");
    assert!(!detail.contains("assume(ready == 0)"), "{detail}");
    assert!(steps(detail).len() <= 10, "{detail}");
}
