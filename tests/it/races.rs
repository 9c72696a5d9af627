//! `check --races`: the verdicts on tests/programs/races/, each fixed program beside its racy
//! twin, in the JSON report; the text and SARIF reports of a race; the race rules' flag.

use crate::common;
use serde_json::Value;

/// The JSON report of `check --races-only` on one program, with the exit code.
fn races(file: &str, extra: &[&str]) -> (Value, i32) {
    let path = format!("tests/programs/races/{file}");
    let mut args = vec!["check", "--races-only", "--format", "json", "--workers", "1"];
    args.extend_from_slice(extra);
    args.push(&path);
    common::json_run(&args, file)
}

/// The verdict on one memory location.
fn verdict<'a>(json: &'a Value, memory: &str) -> &'a Value {
    let races = json["tasks"][0]["races"].as_array().unwrap_or_else(|| panic!("no races array: {json}"));
    races.iter().find(|v| v["memory"] == memory).unwrap_or_else(|| panic!("no verdict on `{memory}`: {json}"))
}

fn status(json: &Value, memory: &str) -> String {
    verdict(json, memory)["status"].as_str().unwrap().to_string()
}

/// Each fixed program and its racy twin: the fixed one race-free, the twin a replayed race
/// (whose last two steps are the two accesses, at least one a write, by different threads).
#[test]
fn twins_race_free_and_racy() {
    for (fixed, racy, memory) in [
        ("counter_lock.c", "counter_lock_racy.c", "count"),
        ("thread_local.c", "thread_local_racy.c", "mine"),
        ("publish_join.c", "publish_join_racy.c", "result"),
        ("lock_by_pointer.c", "lock_by_pointer_racy.c", "data"),
        ("atomics.c", "atomics_racy.c", "count"),
    ] {
        let (json, code) = races(fixed, &[]);
        let vs = json["tasks"][0]["races"].as_array().unwrap();
        assert!(vs.iter().all(|v| v["status"] == "race-free"), "{fixed}: {json}");
        assert_eq!(code, 0, "{fixed}");
        let (json, code) = races(racy, &[]);
        assert_eq!(status(&json, memory), "race", "{racy}: {json}");
        assert_eq!(code, 10, "{racy}");
        let pair = &verdict(&json, memory)["pairs"][0];
        assert_eq!(pair["status"], "race", "{racy}");
        let [a, b] = [&pair["accesses"][0], &pair["accesses"][1]];
        assert!(a["write"] == true || b["write"] == true, "{racy}: {pair}");
        let steps = pair["interleaving"].as_array().unwrap();
        assert!(steps.len() >= 2, "{racy}: {pair}");
        let thread = |s: &Value| s.as_str().unwrap().split(' ').next().unwrap().to_string();
        assert_ne!(thread(&steps[steps.len() - 1]), thread(&steps[steps.len() - 2]), "{racy}: {pair}");
    }
}

/// Threads a loop creates run the same unprotected increment side by side.
#[test]
fn a_template_races_with_itself() {
    let (json, _) = races("self_racy.c", &[]);
    let pair = &verdict(&json, "count")["pairs"][0];
    assert_eq!(pair["status"], "race", "{json}");
    assert_eq!(pair["accesses"][0]["thread"], pair["accesses"][1]["thread"], "{json}");
}

/// The lock held at each access is reported, and the thread templates.
#[test]
fn accesses_carry_locks_and_threads() {
    let (json, _) = races("counter_lock_racy.c", &[]);
    let pairs = verdict(&json, "count")["pairs"].as_array().unwrap().clone();
    let sides: Vec<&Value> = pairs.iter().flat_map(|p| p["accesses"].as_array().unwrap().iter()).collect();
    assert!(sides.iter().any(|a| a["thread"] == "worker" && a["locks"] == serde_json::json!(["m"])), "{json}");
    assert!(sides.iter().any(|a| a["thread"] == "main" && a["locks"] == serde_json::json!([])), "{json}");
    assert!(sides.iter().all(|a| a["at"].as_str().unwrap().contains("counter_lock_racy.c:")), "{json}");
}

/// pthread_once: the racy twin is a race; the fixed program is not claimed race-free by
/// mistake either way (the rules do not model the once-flag's waiting: `unknown`).
#[test]
fn pthread_once_twins() {
    let (json, _) = races("once_racy.c", &[]);
    assert_eq!(status(&json, "config"), "race", "{json}");
    let (json, code) = races("once.c", &[]);
    assert_eq!(status(&json, "config"), "unknown", "{json}");
    assert_eq!(code, 5);
    // The once-flag itself is the library's, not the program's data.
    let vs = json["tasks"][0]["races"].as_array().unwrap();
    assert!(vs.iter().all(|v| v["memory"] != "once"), "{json}");
}

/// Two threads writing different cells of a summarised array: no race-free claim, and no
/// race either, since no execution makes them touch one cell.
#[test]
fn summarised_array_cells_are_unknown() {
    let (json, _) = races("array_cells.c", &[]);
    assert_eq!(status(&json, "a[*]"), "unknown", "{json}");
    assert!(verdict(&json, "a[*]")["pairs"][0]["reason"].as_str().unwrap().contains("no interleaving replayed"), "{json}");
}

/// Text and SARIF reports of a race: both accesses with positions, read or write, and the rule.
#[test]
fn text_and_sarif_reports() {
    let out = common::duet(&["check", "--races", "tests/programs/races/publish_join_racy.c"]);
    let (text, _) = common::texts(&out);
    assert!(text.contains("data races: 1 shared memory location(s): 1 race, 0 unknown, 0 race-free"), "{text}");
    assert!(text.contains("publish_join_racy.c:5:3 write [] (worker)"), "{text}");
    assert_eq!(out.status.code(), Some(10));
    let out = common::duet(&["check", "--races-only", "--format", "sarif", "tests/programs/races/publish_join_racy.c"]);
    let sarif: Value = serde_json::from_str(&common::texts(&out).0).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let race = results.iter().find(|r| r["ruleId"] == "DUET006").unwrap_or_else(|| panic!("{sarif}"));
    assert_eq!(race["level"], "error");
    assert!(race["relatedLocations"][0]["physicalLocation"]["region"]["startLine"].is_number(), "{race}");
}

/// `--race-rules`: a file without the `race` relation is an input error; rules that derive
/// nothing make every location race-free, marked as resting on those rules.
#[test]
fn race_rules_flag() {
    let dir = std::env::temp_dir().join(format!("duet-races-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.dl");
    std::fs::write(&bad, ".decl cf(a: number, b: number)\n.input cf\n").unwrap();
    let out = common::duet(&["check", "--races-only", "--race-rules", bad.to_str().unwrap(), "tests/programs/races/self_racy.c"]);
    assert_eq!(out.status.code(), Some(2), "{:?}", common::texts(&out));
    assert!(common::texts(&out).1.contains("no output relation `race"), "{:?}", common::texts(&out));
    let empty = dir.join("empty.dl");
    std::fs::write(&empty, ".decl race(a: number, b: number, x: number)\n.output race\n").unwrap();
    let (json, _) = races("self_racy.c", &["--race-rules", empty.to_str().unwrap()]);
    let v = verdict(&json, "count");
    assert_eq!(v["status"], "race-free");
    assert!(v["reason"].as_str().unwrap().contains("may be unsound"), "{v}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A call without a definition: its havoc of `g` may race but is no replayable access, and no
/// location is race-free, since the call may touch memory unseen; the SARIF log of races of
/// every kind satisfies the schema.
#[test]
fn unmodelled_calls_leave_races_unknown_and_sarif_validates() {
    let (json, code) = races("extern_call.c", &[]);
    assert_eq!(code, 5, "{json}");
    assert_eq!(status(&json, "g"), "unknown", "{json}");
    assert!(verdict(&json, "g")["pairs"][0]["reason"].as_str().unwrap().contains("unmodelled call"), "{json}");
    assert_eq!(status(&json, "other"), "unknown", "{json}");
    assert_eq!(status(&json, "*"), "unknown", "{json}");
    let out = common::duet(&["check", "--races-only", "--format", "sarif", "tests/programs/races/extern_call.c", "tests/programs/races/counter_lock_racy.c"]);
    let sarif: Value = serde_json::from_str(&common::texts(&out).0).unwrap();
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(common::repo("schemas/sarif-schema-2.1.0.json")).unwrap()).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("file:///sarif-schema-2.1.0.json", schema).unwrap();
    let index = compiler.compile("file:///sarif-schema-2.1.0.json", &mut schemas).unwrap();
    if let Err(e) = schemas.validate(&sarif, index) {
        panic!("invalid SARIF: {e}\n{sarif}");
    }
    let rules: Vec<&str> = sarif["runs"][0]["results"].as_array().unwrap().iter().map(|r| r["ruleId"].as_str().unwrap()).collect();
    assert!(rules.contains(&"DUET006") && rules.contains(&"DUET007"), "{rules:?}");
}

/// A variable-length array's size is a read when the declaration runs: racing with an
/// unprotected write it is a replayed race, under the writer's mutex race-free.
#[test]
fn vla_size_is_a_read() {
    let (json, code) = races("vla_size_racy.c", &[]);
    assert_eq!(status(&json, "n"), "race", "{json}");
    assert_eq!(code, 10, "{json}");
    let pair = &verdict(&json, "n")["pairs"][0];
    let at: Vec<&str> = pair["accesses"].as_array().unwrap().iter().map(|a| a["at"].as_str().unwrap()).collect();
    assert!(at.iter().any(|a| a.ends_with("vla_size_racy.c:12:7")), "{pair}");
    let (json, code) = races("vla_size.c", &[]);
    assert_eq!(status(&json, "n"), "race-free", "{json}");
    assert_eq!(code, 0, "{json}");
}

/// `rand`'s seed is state hidden in the C library, which a global of the IR stands for: calls
/// from two threads race on it (replayed); calls under one mutex are race-free.
#[test]
fn rand_hidden_state_races() {
    let (json, code) = races("rand_state_racy.c", &[]);
    assert_eq!(status(&json, "<rand state>"), "race", "{json}");
    assert_eq!(code, 10, "{json}");
    let (json, code) = races("rand_state.c", &[]);
    assert_eq!(status(&json, "<rand state>"), "race-free", "{json}");
    assert_eq!(code, 0, "{json}");
}

/// `free` writes the object it releases: freeing while the worker may still use the object is
/// no race-free location (the release is an approximation, so `unknown`); after a join it is.
#[test]
fn free_writes_the_object() {
    let (json, code) = races("free_racy.c", &[]);
    assert_eq!(status(&json, "heap#0:int32"), "unknown", "{json}");
    assert_eq!(code, 5, "{json}");
    let pairs = verdict(&json, "heap#0:int32")["pairs"].as_array().unwrap();
    let released = |p: &Value| p["accesses"].as_array().unwrap().iter().any(|a| a["at"].as_str().unwrap().ends_with("free_racy.c:18:3") && a["write"] == true);
    assert!(pairs.iter().any(released), "{json}");
    let (json, code) = races("free_joined.c", &[]);
    assert_eq!(status(&json, "heap#0:int32"), "race-free", "{json}");
    assert_eq!(code, 0, "{json}");
}

/// A fork and a join under the same test of a local of `main` (or of the result of the
/// function that forks): after the second test the worker has ended or never existed. Joining
/// under another input, after the local changed, or on the other result, leaves the worker
/// running: a replayed race.
#[test]
fn fork_and_join_under_one_test() {
    for (fixed, memory) in [("guarded_join.c", "count"), ("probe_join.c", "shared")] {
        let (json, code) = races(fixed, &[]);
        assert_eq!(status(&json, memory), "race-free", "{fixed}: {json}");
        assert_eq!(code, 0, "{fixed}: {json}");
    }
    for (racy, memory) in [("guarded_join_racy.c", "count"), ("guarded_join_changed_racy.c", "count"), ("probe_join_racy.c", "shared")] {
        let (json, code) = races(racy, &[]);
        assert_eq!(status(&json, memory), "race", "{racy}: {json}");
        assert_eq!(code, 10, "{racy}: {json}");
    }
}

/// Loads, stores and `++` of `_Atomic` variables are atomic accesses: no race between them; the
/// twin with a plain variable races. A store to an `_Atomic` member, which the front-end does
/// not track, is never reported as a race.
#[test]
fn atomic_objects_do_not_race() {
    let (json, code) = races("atomic_object.c", &[]);
    assert_eq!(status(&json, "flag"), "race-free", "{json}");
    assert_eq!(status(&json, "counts[*]"), "race-free", "{json}");
    assert_eq!(code, 0, "{json}");
    let (json, code) = races("atomic_object_racy.c", &[]);
    assert_eq!(status(&json, "flag"), "race", "{json}");
    assert_eq!(status(&json, "counts[*]"), "race-free", "{json}");
    assert_eq!(code, 10, "{json}");
    let (json, _) = races("atomic_member.c", &[]);
    assert_eq!(status(&json, "box.ready"), "unknown", "{json}");
    assert!(verdict(&json, "box.ready")["pairs"][0]["reason"].as_str().unwrap().contains("_Atomic"), "{json}");
}
