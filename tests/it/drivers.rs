//! Driver code end to end: the corpus in `tests/programs/drivers/` (container_of, ops tables,
//! function-pointer initialisers, module harnesses, callbacks registered through pointers) and
//! the SV-COMP driver tasks of `../shared/benchmarks/drivers/`.
//!
//! Every assertion of the corpus carries a marker on its line: `/* HOLDS */` (true in every
//! execution: never `violated`) or `/* FAILS */` (false in some: never `safe`, and `violated`
//! with a replayed witness from the bound named in `/* FAILS from bound K */`, else from 1,
//! and by the default strategy's deepening; COARSEN alone leaves it `unknown`).

use crate::common;

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// What the source says about one assertion.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    Holds,
    /// Fails, found by the bounded search from this bound on.
    Fails(u32),
}

/// The marker of every assertion line of a program, by line number.
fn markers(src: &str) -> BTreeMap<u64, Expect> {
    let mut out = BTreeMap::new();
    for (i, line) in src.lines().enumerate() {
        let e = if line.contains("/* HOLDS */") {
            Expect::Holds
        } else if let Some(rest) = line.split("/* FAILS").nth(1) {
            let k = rest.trim_start().strip_prefix("from bound").and_then(|r| r.trim().trim_end_matches("*/").trim().parse().ok()).unwrap_or(1);
            Expect::Fails(k)
        } else {
            continue;
        };
        out.insert(i as u64 + 1, e);
    }
    out
}

/// Per task of a JSON report: its outcome and each assertion's (line, status, reason).
type TaskVerdicts = Vec<(String, Vec<(u64, String, String)>)>;

/// One task of a JSON report: its outcome and each assertion's (line, status, reason).
fn run_json(args: &[&str]) -> TaskVerdicts {
    let mut full = vec!["check", "--format", "json"];
    full.extend_from_slice(args);
    let out = common::duet(&full);
    let (stdout, stderr) = common::texts(&out);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: no JSON report ({e}): {stdout}\n{stderr}"));
    report["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| {
            let asserts = t["assertions"]
                .as_array()
                .expect("assertions")
                .iter()
                .map(|a| (a["line"].as_u64().unwrap(), a["status"].as_str().unwrap().to_string(), a["reason"].as_str().unwrap_or("").to_string()))
                .collect();
            (t["outcome"].as_str().unwrap_or("?").to_string(), asserts)
        })
        .collect()
}

fn check_program(file: &str) {
    let path = common::repo(file);
    let src = std::fs::read_to_string(&path).unwrap();
    let expect = markers(&src);
    assert!(expect.values().any(|e| *e == Expect::Holds) && expect.values().any(|e| matches!(e, Expect::Fails(_))), "{file}: needs assertions that hold and ones that fail");
    // (flags, bound): COARSEN alone; the default strategy (COARSEN, then deepening); fixed bounds.
    let modes: [(&[&str], Option<u32>); 5] = [(&["--engines", "coarsen"], None), (&[], Some(0)), (&["--bound", "1"], Some(1)), (&["--bound", "2"], Some(2)), (&["--bound", "3"], Some(3))];
    for (flags, bound) in modes {
        let mut args: Vec<&str> = flags.to_vec();
        args.push(file);
        let tasks = run_json(&args);
        let (outcome, asserts) = &tasks[0];
        assert_eq!(outcome, "checked", "{file} {args:?}");
        let lines: Vec<u64> = asserts.iter().map(|a| a.0).collect();
        assert_eq!(lines, expect.keys().copied().collect::<Vec<_>>(), "{file} {args:?}: every assertion is marked, every marker is an assertion");
        for (line, status, reason) in asserts {
            assert!(!reason.contains("unsupported"), "{file}:{line} {args:?}: {reason}");
            match (expect[line], bound) {
                (Expect::Holds, _) => assert_ne!(status, "violated", "{file}:{line} {args:?} holds in every execution: {reason}"),
                (Expect::Fails(_), None) => assert_eq!(status, "unknown", "{file}:{line} {args:?} can fail: {reason}"),
                // Deepening reaches every bound the corpus needs within its budget.
                (Expect::Fails(_), Some(0)) => assert_eq!(status, "violated", "{file}:{line} {args:?}: {reason}"),
                (Expect::Fails(k), Some(b)) if b >= k => assert_eq!(status, "violated", "{file}:{line} {args:?}: {reason}"),
                (Expect::Fails(_), Some(_)) => {
                    assert!(status == "bounded-safe" || status == "unknown", "{file}:{line} {args:?} can fail, below its bound: {status} {reason}")
                }
            }
        }
    }
}

#[test]
fn container_of_over_a_device_struct() {
    check_program("tests/programs/drivers/container_of.c");
}

#[test]
fn ops_table_callbacks_run_as_threads() {
    check_program("tests/programs/drivers/ops_table.c");
}

#[test]
fn global_function_pointer_initialisers() {
    check_program("tests/programs/drivers/global_fnptr.c");
}

#[test]
fn module_init_exit_harness() {
    check_program("tests/programs/drivers/module_harness.c");
}

#[test]
fn work_and_timer_callbacks_registered_through_pointers() {
    check_program("tests/programs/drivers/workqueue.c");
}

#[test]
fn a_pointer_from_an_undefined_function_is_an_unsupported_call() {
    let tasks = run_json(&["tests/programs/drivers/unknown_target.c"]);
    let (_, asserts) = &tasks[0];
    assert!(!asserts.is_empty());
    for (line, status, reason) in asserts {
        assert_eq!(status, "unknown", "line {line}");
        assert!(reason.contains("unsupported construct: call through `get_handler()`") || reason.contains("unsupported construct: call through `h`"), "line {line}: {reason}");
    }
}

/// The SV-COMP driver tasks: each gets through the front-end, and no verdict contradicts the
/// expected one, by default and at bound 2; by default every false one is violated.
#[test]
fn slow_shared_driver_tasks_give_no_wrong_answer() {
    if !common::slow("shared_driver_tasks_give_no_wrong_answer") {
        return;
    }
    let Some(shared) = common::shared_benchmarks("shared_driver_tasks_give_no_wrong_answer") else { return };
    let dir = shared.join("drivers");
    let tsv = std::fs::read_to_string(dir.join("tasks.tsv")).unwrap();
    let tasks: Vec<(String, bool)> = tsv.lines().skip(1).map(|l| l.split('\t').collect::<Vec<_>>()).map(|c| (c[1].to_string(), c[2] == "true")).collect();
    assert_eq!(tasks.len(), 10, "8 pc8736x_gpio tasks and 2 LDV race models");
    let inputs: Vec<String> = tasks.iter().map(|(f, _)| dir.join(f).display().to_string()).collect();
    // Bound 1 is left out: a violation is replayed whatever the bound, and bound 2 unrolls and
    // creates at least what bound 1 does; it cost a minute of CI for no answer of its own.
    for bound in [None, Some("2")] {
        let mut args = vec!["--m32"];
        match bound {
            Some(b) => args.extend(["--bound", b]),
            // Deepening on the tasks it cannot decide would spend the whole default budget.
            None => args.extend(["--search-time", "10"]),
        }
        args.extend(inputs.iter().map(|s| s.as_str()));
        let results = run_json(&args);
        assert_eq!(results.len(), tasks.len());
        for ((file, expected_true), (outcome, asserts)) in tasks.iter().zip(&results) {
            let name = Path::new(file).file_name().unwrap().to_string_lossy();
            assert_eq!(outcome, "checked", "{name} {bound:?}");
            assert!(!asserts.is_empty(), "{name}: failure points lowered");
            for (line, _, reason) in asserts {
                assert!(!reason.contains("unsupported"), "{name}:{line} {bound:?}: {reason}");
            }
            let violated = asserts.iter().any(|a| a.1 == "violated");
            let all_safe = asserts.iter().all(|a| a.1 == "safe");
            if *expected_true {
                assert!(!violated, "{name} {bound:?}: violated, but the task's verdict is true");
            } else {
                assert!(!all_safe, "{name} {bound:?}: safe, but the task's verdict is false");
                // Found by default: the pc8736x_gpio threads lie past a counted 112-byte loop
                // and pointers read back under ILP32.
                assert!(bound.is_some() || violated, "{name}: the task's verdict is false, and the default strategy finds it");
            }
        }
    }
}

#[test]
fn gnu_c_of_driver_code() {
    check_program("tests/programs/drivers/gnu_builtins.c");
}
