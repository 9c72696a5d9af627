//! The driver idioms of issue 37's corpus (tests/programs/unbounded/: `rwlock_`, `condvar_`,
//! `completion_`, `irq_`, `dcl_`, `sem_`, `publish_`), clients created in a `while (nondet)`
//! loop. Their verdicts and deciding engines are the files' `// expect:` annotations, which
//! the expect runner checks; this module checks what the publication rewrite says and leaves.

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
