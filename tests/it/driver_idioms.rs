//! The driver idioms of issue 37's corpus (tests/programs/unbounded/: `rwlock_`, `condvar_`,
//! `completion_`, `irq_`, `dcl_`, `sem_`, `publish_`), clients created in a `while (nondet)`
//! loop: the default check's verdict and deciding engine per assertion. Correct programs are
//! proved `safe` by COARSEN where it can, and say `bounded-safe` where the proof needs a count
//! of threads; every twin is a replayed violation and never `safe` where its truth fails.
//! The expect runner checks the same annotations with the rest of tests/programs/; this module
//! pins the engines and the publication rewrite's reason.

use crate::common;
use serde_json::Value;

/// The JSON report of the default `check` on one program of tests/programs/unbounded/, with
/// the exit code. A short search: the correct programs the search cannot settle end
/// `bounded-safe` either way.
fn check(file: &str, extra: &[&str]) -> (Value, i32) {
    let path = format!("tests/programs/unbounded/{file}");
    // A file's own `// PARAM: --search-time N` (a violation that needs more threads) wins.
    let src = std::fs::read_to_string(common::repo(&path)).unwrap();
    let time = src.lines().find_map(|l| l.strip_prefix("// PARAM: --search-time ")).unwrap_or("10").trim().to_string();
    let mut args = vec!["check", "--format", "json", "--workers", "1", "--search-time", &time];
    args.extend_from_slice(extra);
    args.push(&path);
    common::json_run(&args, file)
}

/// Every assertion's (line, status, engine, reason).
fn verdicts(json: &Value) -> Vec<(u64, String, String, String)> {
    let asserts = json["tasks"][0]["assertions"].as_array().unwrap_or_else(|| panic!("no assertions: {json}"));
    asserts
        .iter()
        .map(|a| (a["line"].as_u64().unwrap(), a["status"].as_str().unwrap().to_string(), a["engine"].as_str().unwrap_or("none").to_string(), a["reason"].as_str().unwrap_or("").to_string()))
        .collect()
}

/// An assertion's line, status and deciding engine; the engine of a violation is whichever
/// search found it first (`*`).
type Want = (u64, &'static str, &'static str);

/// Per program, what each of its assertions gets.
const EXPECTED: [(&str, &[Want]); 18] = [
    ("publish_flag.c", &[(28, "safe", "coarsen"), (29, "safe", "coarsen")]),
    ("publish_flag_hoisted_load.c", &[(30, "violated", "*"), (31, "safe", "coarsen")]),
    ("dcl_config.c", &[(34, "safe", "coarsen"), (37, "safe", "coarsen")]),
    ("dcl_config_flag_first.c", &[(38, "violated", "*"), (41, "bounded-safe", "bounded")]),
    ("dcl_read_once.c", &[(37, "safe", "coarsen"), (40, "safe", "coarsen")]),
    ("dcl_read_once_flag_first.c", &[(38, "violated", "*"), (41, "bounded-safe", "bounded")]),
    ("condvar_queue.c", &[(27, "safe", "coarsen"), (37, "safe", "coarsen")]),
    ("condvar_queue_if_wait.c", &[(29, "safe", "coarsen"), (39, "violated", "*")]),
    ("completion_fw.c", &[(49, "safe", "coarsen")]),
    ("completion_fw_early_complete.c", &[(48, "violated", "*")]),
    ("completion_reset.c", &[(54, "safe", "coarsen")]),
    ("completion_reset_if_wait.c", &[(52, "violated", "*")]),
    ("irq_rx_fifo.c", &[(51, "safe", "coarsen"), (61, "safe", "coarsen")]),
    ("irq_rx_fifo_unlocked_count.c", &[(56, "bounded-safe", "bounded"), (67, "violated", "*")]),
    // The second assertion needs the number of clients between `down` and `up`.
    ("sem_slots.c", &[(38, "safe", "coarsen"), (53, "bounded-safe", "bounded")]),
    ("sem_slots_double_up.c", &[(34, "safe", "coarsen"), (49, "violated", "*")]),
    // The proof needs the number of registered readers.
    ("rwlock_table.c", &[(58, "bounded-safe", "bounded")]),
    ("rwlock_table_if_drain.c", &[(54, "violated", "*")]),
];

#[test]
fn each_idiom_gets_its_verdict_from_its_engine() {
    let mut wrong = Vec::new();
    for (file, want) in EXPECTED {
        let (json, code) = check(file, &[]);
        let got = verdicts(&json);
        let shape: Vec<(u64, &str)> = got.iter().map(|(l, s, _, _)| (*l, s.as_str())).collect();
        let wanted: Vec<(u64, &str)> = want.iter().map(|(l, s, _)| (*l, *s)).collect();
        if shape != wanted {
            wrong.push(format!("{file}: got {shape:?}, want {wanted:?}"));
            continue;
        }
        for ((line, status, engine, reason), (_, _, e)) in got.iter().zip(want.iter()) {
            if *e != "*" && engine != e {
                wrong.push(format!("{file}:{line}: {status} by {engine}, want {e}"));
            }
            if status == "violated" && !reason.contains("replayed") {
                wrong.push(format!("{file}:{line}: a violation that does not say it replayed: {reason}"));
            }
        }
        let want_code = if want.iter().any(|(_, s, _)| *s == "violated") {
            10
        } else if want.iter().all(|(_, s, _)| *s == "safe") {
            0
        } else {
            5
        };
        if code != want_code {
            wrong.push(format!("{file}: exit code {code}, want {want_code}"));
        }
        // A violation's trace ends at the failing assertion.
        for a in json["tasks"][0]["assertions"].as_array().unwrap().iter().filter(|a| a["status"] == "violated") {
            let last = a["trace"].as_array().and_then(|t| t.last());
            if last.map(|l| &l["line"]) != Some(&a["line"]) {
                wrong.push(format!("{file}: the trace does not end at the failing assertion: {a}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Double-checked initialisation (testing the flag, or a READ_ONCE copy of it) and the completions (`complete_all`, and the counting
/// `complete`/`wait_for_completion` whose waiter lowers `done`) are proved through the
/// publication rewrite, which says which cell it used; COARSEN alone proves them.
#[test]
fn publication_proves_dcl_and_completion_and_names_the_data() {
    for (file, data) in [("dcl_config.c", "cfg.size"), ("dcl_read_once.c", "cfg.size"), ("completion_fw.c", "dev.fw_size"), ("completion_reset.c", "dev.state")] {
        let (json, code) = check(file, &["--engines", "coarsen"]);
        assert_eq!(code, 0, "{file}: {json}");
        for (line, status, _, reason) in verdicts(&json) {
            assert_eq!(status, "safe", "{file}:{line}");
            assert!(reason.contains(&format!("{data} published")), "{file}:{line}: {reason}");
        }
    }
}

/// The twins whose flag is set before the data, whose data is read before the flag, or whose
/// waiter lowers `done` without having seen it set (an `if` wait), keep their reads: COARSEN
/// alone leaves the failing assertions unproved.
#[test]
fn publication_twins_stay_unproved() {
    for (file, line) in
        [("dcl_config_flag_first.c", 38), ("dcl_read_once_flag_first.c", 38), ("completion_fw_early_complete.c", 48), ("completion_reset_if_wait.c", 52), ("publish_flag_hoisted_load.c", 30)]
    {
        let (json, _) = check(file, &["--engines", "coarsen"]);
        let got = verdicts(&json);
        let v = got.iter().find(|(l, ..)| *l == line).unwrap_or_else(|| panic!("{file}: {got:?}"));
        assert_eq!(v.1, "unknown", "{file}:{line}: {v:?}");
    }
}
