//! The kernel's own locks, recognised from their code (issue 37 item 3): spin locks built from
//! test-and-set, `atomic_flag` and compare-and-swap built-ins prove their clients' assertions
//! for every thread count (also with `main`'s `spin_lock_init` before its first fork), and
//! each buggy twin (a missing lock, a misplaced unlock, a lock re-initialised under its
//! holder, an inverted trylock) is a replayed violation, never `safe`.
//! The expect runner checks the same annotations with the rest of tests/programs/; this module
//! runs only tests/programs/unbounded/ and pins the engine and the races.

use crate::common;
use serde_json::Value;

/// The JSON report of `check` on one program of tests/programs/unbounded/, with the exit code.
fn check(file: &str, extra: &[&str]) -> (Value, i32) {
    let path = format!("tests/programs/unbounded/{file}");
    let mut args = vec!["check", "--format", "json", "--workers", "1", "--search-time", "20"];
    args.extend_from_slice(extra);
    args.push(&path);
    common::json_run(&args, file)
}

/// Every assertion's (status, engine).
fn verdicts(json: &Value) -> Vec<(String, String)> {
    let asserts = json["tasks"][0]["assertions"].as_array().unwrap_or_else(|| panic!("no assertions: {json}"));
    asserts.iter().map(|a| (a["status"].as_str().unwrap().to_string(), a["engine"].as_str().unwrap_or("none").to_string())).collect()
}

/// The correct programs and their twins.
const PAIRS: [(&str, &[&str]); 4] =
    [("spin_tas.c", &["spin_tas_bug.c", "spin_init_bug.c"]), ("spin_atomic_flag.c", &["spin_atomic_flag_bug.c"]), ("spin_cas.c", &["spin_cas_bug.c"]), ("spin_irqsave.c", &["spin_irqsave_bug.c"])];

#[test]
fn spin_locks_prove_every_thread_count_and_twins_fail() {
    for (fixed, twins) in PAIRS {
        let (json, code) = check(fixed, &[]);
        let vs = verdicts(&json);
        assert!(!vs.is_empty() && vs.iter().all(|(s, e)| s == "safe" && e == "coarsen"), "{fixed}: {vs:?}");
        assert_eq!(code, 0, "{fixed}");
        for twin in twins {
            let (json, code) = check(twin, &[]);
            let vs = verdicts(&json);
            assert!(vs.iter().any(|(s, _)| s == "violated"), "{twin}: {vs:?}");
            assert!(vs.iter().all(|(s, _)| s != "safe"), "{twin}: {vs:?}");
            assert_eq!(code, 10, "{twin}");
            // A violation is a replayed interleaving that ends at the failing assertion.
            for a in json["tasks"][0]["assertions"].as_array().unwrap().iter().filter(|a| a["status"] == "violated") {
                assert!(a["reason"].as_str().unwrap().contains("replayed"), "{twin}: {a}");
                let last = a["trace"].as_array().and_then(|t| t.last()).unwrap_or_else(|| panic!("{twin}: no trace: {a}"));
                assert_eq!(last["line"], a["line"], "{twin}: {a}");
            }
        }
    }
}

/// COARSEN alone (no search to fall back on) proves the spin-locked programs.
#[test]
fn coarsen_alone_proves_the_spin_locked_programs() {
    for (fixed, _) in PAIRS {
        let (json, _) = check(fixed, &["--engines", "coarsen"]);
        let vs = verdicts(&json);
        assert!(vs.iter().all(|(s, _)| s == "safe"), "{fixed}: {vs:?}");
    }
}

/// The races engine takes the spin lock as protecting `count`: race-free for any number of
/// workers; without the lock around main's reset, not race-free.
#[test]
fn races_see_the_spin_lock() {
    let races = |file: &str| -> Vec<(String, String)> {
        let (json, _) = check(file, &["--races-only"]);
        let rs = json["tasks"][0]["races"].as_array().unwrap_or_else(|| panic!("{file}: no races: {json}"));
        rs.iter().map(|r| (r["memory"].as_str().unwrap().to_string(), r["status"].as_str().unwrap().to_string())).collect()
    };
    let fixed = races("spin_race.c");
    assert!(fixed.iter().any(|(m, _)| m == "count") && fixed.iter().all(|(_, s)| s == "race-free"), "{fixed:?}");
    let racy = races("spin_race_racy.c");
    assert!(racy.iter().any(|(m, s)| m == "count" && s != "race-free"), "{racy:?}");
}
