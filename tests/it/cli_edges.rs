//! Rough edges of the command line (issue 40): flag forms, missing inputs, waiting processes,
//! `predict`'s help and budget, and per-file pragmas.

use crate::common;
use common::{duet, repo, texts};
use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const ONE: &str = "tests/programs/cli_edges/one_assert.c";

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duet-cli-edges-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn dot_and_invariants_take_a_file_after_a_space() {
    let dir = scratch("dot");
    let (dot, inv) = (dir.join("g.dot"), dir.join("inv.txt"));
    let out = duet(&["check", "--no-progress", "--engines", "coarsen", "--dot", s(&dot), "--invariants", s(&inv), ONE]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(std::fs::read_to_string(&dot).unwrap().contains("digraph"), "the graph goes to the file after the space");
    assert!(!std::fs::read_to_string(&inv).unwrap().is_empty());
    assert!(!stdout.contains("digraph") && stdout.contains("1 assertion(s)"), "{stdout}");
    // Again, now that both files exist: they are still outputs, not inputs.
    let out = duet(&["check", "--no-progress", "--engines", "coarsen", "--dot", s(&dot), ONE]);
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    assert!(!texts(&out).0.contains("g.dot:"), "g.dot was read as an input");
    // A C file after the flag is an input: the invariants go to stdout.
    let out = duet(&["check", "--no-progress", "--engines", "coarsen", "--invariants", ONE]);
    let (stdout, _) = texts(&out);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout.contains("--- invariants of"), "{stdout}");
}

#[test]
fn a_missing_fact_directory_is_an_input_error() {
    let dir = scratch("facts");
    let out_dir = dir.join("out");
    let missing = dir.join("nosuchdir");
    let out = duet(&["datalog", "rules/examples/transitive_closure.dl", "-F", s(&missing), "-D", s(&out_dir)]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("nosuchdir") && stderr.contains("does not exist"), "{stderr}");
    assert!(!out_dir.exists(), "no outputs for a run that did not happen");
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts process `index` of a 2-process batch whose partner never comes, returns the first
/// stderr line that says it waits, and stops it.
fn waiting_line(index: &str) -> String {
    let dir = scratch(&format!("wait{index}"));
    let (p0, p1) = (free_port(), free_port());
    let hosts = dir.join("hosts.txt");
    std::fs::write(&hosts, format!("127.0.0.1:{p0}\n127.0.0.1:{p1}\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_duet-rs"))
        .args(["check", "--no-progress", "-n", "2", "-p", index, "-H", s(&hosts), s(&repo(ONE))])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    // Should the note never come, the process gives up after its patience and the loop ends.
    let line = std::io::BufReader::new(stderr).lines().map_while(Result::ok).find(|l| l.contains("waiting")).unwrap_or_default();
    let _ = child.kill();
    let _ = child.wait();
    line.replace(&p0.to_string(), "P0").replace(&p1.to_string(), "P1")
}

#[test]
fn a_lone_process_says_whom_it_waits_for() {
    let line = waiting_line("0");
    assert!(line.contains("process 0 of 2 is waiting for process 1 (127.0.0.1:P1) to connect to 127.0.0.1:P0"), "{line}");
    assert!(line.contains("gives up 120 s after it started"), "{line}");
    let line = waiting_line("1");
    assert!(line.contains("process 1 of 2 is waiting for process 0 (127.0.0.1:P0) to listen"), "{line}");
}

#[test]
fn predict_takes_dash_h() {
    let out = duet(&["predict", "-h"]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("--search-time"), "{stdout}");
}

#[test]
fn predict_within_its_budget_says_it_ran_out() {
    // A budget too small for even the first run: every assertion is unknown, and says why.
    let out = duet(&["predict", "--no-progress", "--search-time", "0.000001", "--format", "json", "benchmarks/examples/producer_consumer.c"]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(5), "{stdout}\n{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let asserts = v["tasks"][0]["assertions"].as_array().unwrap();
    assert!(!asserts.is_empty());
    for a in asserts {
        assert_eq!(a["status"], "unknown");
        assert!(a["reason"].as_str().unwrap().contains("time budget of 0.000001 s (--search-time) ran out after 0 of 8 run(s)"), "{a}");
    }
}

#[test]
fn a_task_file_given_to_check_points_to_svcomp() {
    let dir = scratch("yml");
    let yml = dir.join("task.yml");
    std::fs::write(&yml, "format_version: '2.0'\ninput_files: 'x.c'\n").unwrap();
    let out = duet(&["check", s(&yml)]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("task.yml is an SV-COMP task file") && stderr.contains("duet-rs svcomp"), "{stderr}");
}

#[test]
fn a_file_without_assertions_says_so() {
    let out = duet(&["check", "--no-progress", "tests/programs/threads.c"]);
    let (stdout, _) = texts(&out);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout.contains("0 assertion(s)") && stdout.contains("note: no assertions"), "{stdout}");
    let out = duet(&["check", "--no-progress", "--format", "json", "tests/programs/threads.c"]);
    let v: serde_json::Value = serde_json::from_str(&texts(&out).0).unwrap();
    assert!(v["tasks"][0]["reason"].as_str().unwrap().starts_with("no assertions"), "{v}");
    // A file with an assertion has no such reason.
    let out = duet(&["check", "--no-progress", "--format", "json", "--engines", "coarsen", ONE]);
    let v: serde_json::Value = serde_json::from_str(&texts(&out).0).unwrap();
    assert!(v["tasks"][0]["reason"].is_null(), "{v}");
}

#[test]
fn an_svcomp_task_without_its_c_file_is_an_input_error() {
    let dir = scratch("svcomp");
    let yml = dir.join("lost.yml");
    std::fs::write(
        &yml,
        "format_version: '2.0'\ninput_files: 'absent.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: LP64\n",
    )
    .unwrap();
    let out = duet(&["svcomp", "--no-progress", s(&yml)]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(stderr.contains("lost.yml:2: the input file") && stderr.contains("absent.c does not exist"), "{stderr}");
    assert!(stdout.contains("bad-task"), "{stdout}");
}

#[test]
fn a_malformed_exceptions_file_is_an_input_error() {
    let dir = scratch("exc");
    let exc = dir.join("e.exc");
    std::fs::write(&exc, "# ok\nexception x=1 : p1@\n").unwrap();
    let out = duet(&["check", "--exceptions", s(&exc), ONE]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("e.exc:2:"), "file:line:col: {stderr}");
}

#[test]
fn dump_smt_says_when_the_search_did_not_run() {
    let dir = scratch("smt");
    let smt = dir.join("f.smt2");
    let out = duet(&["check", "--no-progress", "--dump-smt", s(&smt), ONE]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(!smt.exists());
    assert!(stderr.contains("nothing written to") && stderr.contains("proved every assertion"), "{stderr}");
}

#[test]
fn a_pragma_gives_one_file_of_a_batch_its_own_flags() {
    let out = duet(&["check", "--no-progress", "tests/programs/cli_edges/driver_pragma.c", ONE]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("driver_pragma.c: 1 assertion(s)") && stdout.contains("one_assert.c: 1 assertion(s)"), "{stdout}");
    // The twin without the pragma has no main.
    let out = duet(&["check", "--no-progress", "tests/programs/cli_edges/no_pragma_driver.c"]);
    assert_eq!(out.status.code(), Some(2), "{}", texts(&out).0);
    // A bad pragma fails its own file, located, and the batch goes on past it.
    let out = duet(&["check", "--no-progress", "--format", "json", "tests/programs/cli_edges/bad_pragma.c", ONE]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let e = &r["tasks"][0]["error"];
    assert_eq!((e["kind"].as_str(), e["line"].as_u64(), e["column"].as_u64()), (Some("input"), Some(1), Some(32)), "{e}");
    assert!(e["message"].as_str().unwrap().contains("unknown flag `--bogus`") && e["message"].as_str().unwrap().contains("--no-whole-program, --parameterized, --m32"), "{e}");
    assert_eq!(r["tasks"][1]["outcome"], "checked", "{stdout}");
}
