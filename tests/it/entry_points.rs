//! Entry points without a whole program (`--no-whole-program`): each runs in unboundedly many
//! threads unless `--once`; `--entry` names them, and by default they are the uncalled
//! functions with external linkage and those whose address is stored. And the data model of a
//! preprocessed file follows its own type definitions.

use crate::common;

use serde_json::Value;

/// The JSON report of one file: its task.
fn task(file: &str, extra: &[&str]) -> (Value, i32) {
    let path = format!("tests/programs/entry/{file}");
    let mut args = vec!["check", "--format", "json", "--search-time", "20"];
    args.extend_from_slice(extra);
    args.push(&path);
    let o = common::duet(&args);
    let (out, err) = common::texts(&o);
    let r: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{file} {extra:?}: {e}: {out}{err}"));
    (r["tasks"][0].clone(), o.status.code().unwrap_or(-1))
}

/// (status, reason) of each assertion.
fn statuses(t: &Value) -> Vec<(String, String)> {
    t["assertions"].as_array().unwrap_or_else(|| panic!("{t}")).iter().map(|a| (a["status"].as_str().unwrap().into(), a["reason"].as_str().unwrap().into())).collect()
}

/// The body of the task's section `title`.
fn section(t: &Value, title: &str) -> String {
    t["sections"].as_array().into_iter().flatten().find(|s| s["title"] == title).map(|s| s["body"].as_str().unwrap().to_string()).unwrap_or_default()
}

/// A driver whose bug needs two concurrent `close` calls: never `safe` without a whole program
/// (it was, with each entry point run once), and `violated` by default.
#[test]
fn two_concurrent_closes_are_not_safe() {
    for extra in [&[][..], &["--engines", "coarsen"], &["--bound", "2"], &["--parameterized"]] {
        let mut args = vec!["--no-whole-program"];
        args.extend_from_slice(extra);
        let (t, code) = task("two_closes.c", &args);
        let s = statuses(&t);
        assert_eq!(s.len(), 1, "{extra:?}");
        assert!(!matches!(s[0].0.as_str(), "safe" | "bounded-safe"), "{extra:?}: {s:?}");
        assert_ne!(code, 0, "{extra:?}");
    }
    let (t, code) = task("two_closes.c", &["--no-whole-program"]);
    assert_eq!(statuses(&t)[0].0, "violated", "{t}");
    assert_eq!(code, 10);
    assert!(section(&t, "threads").contains("unboundedly many threads each"), "{t}");
    // One instance of each entry point is asked for: one close is safe, and the claim says
    // it covers one thread each.
    let (t, code) = task("two_closes.c", &["--no-whole-program", "--once"]);
    assert_eq!(statuses(&t)[0].0, "safe", "{t}");
    assert_eq!(code, 0);
    assert!(section(&t, "threads").contains("one thread each (--once)"), "{t}");
}

/// The twin under the driver's lock is proved for every number of closes, and the verdict
/// says so.
#[test]
fn locked_closes_are_proved_for_every_thread_count() {
    let (t, code) = task("two_closes_locked.c", &["--no-whole-program"]);
    let s = statuses(&t);
    assert_eq!(s[0].0, "safe", "{s:?}");
    assert_eq!(code, 0);
    assert!(s[0].1.contains("every number of threads") || s[0].1.contains("any number of threads"), "{s:?}");
}

/// A static helper called only under a lock is no entry point: it is not run on its own, and
/// its assertion is not `violated` (it was, with every function a thread).
#[test]
fn a_static_helper_is_no_thread() {
    for extra in [&["--parameterized"][..], &[]] {
        let mut args = vec!["--no-whole-program"];
        args.extend_from_slice(extra);
        let (t, _) = task("static_helper.c", &args);
        let s = statuses(&t);
        assert!(s.iter().all(|v| v.0 != "violated"), "{extra:?}: {s:?}");
        let threads = section(&t, "threads");
        assert!(threads.contains("`drv_release`") && !threads.contains("`teardown`"), "{threads}");
    }
    let (t, code) = task("static_helper.c", &["--no-whole-program", "--parameterized"]);
    assert_eq!(statuses(&t)[0].0, "safe", "{t}");
    assert_eq!(code, 0);
}

/// Functions whose addresses are in an ops table are taken, static as they are; `--entry`
/// restricts the threads to those named.
#[test]
fn ops_table_functions_are_entry_points_and_entry_restricts() {
    let (t, _) = task("ops_table.c", &["--no-whole-program", "--parameterized"]);
    let threads = section(&t, "threads");
    for f in ["`my_open`", "`my_release`", "`reset`"] {
        assert!(threads.contains(f), "{f}: {threads}");
    }
    assert!(!threads.split(": ").nth(1).unwrap().contains("`init`"), "{threads}");
    let s = statuses(&t);
    assert_eq!(s.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), ["violated", "violated"], "{s:?}");
    // Without `my_open`, `opened` stays 0; one `reset` only reaches `resets == 1`.
    let (t, code) = task("ops_table.c", &["--no-whole-program", "--once", "--entry", "my_release,reset"]);
    let threads = section(&t, "threads");
    assert!(threads.contains("`my_release`, `reset` (named by --entry)") && !threads.contains("my_open"), "{threads}");
    let s = statuses(&t);
    assert_eq!(s.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), ["safe", "safe"], "{s:?}");
    assert_eq!(code, 0);
    // The text report names the threads too.
    let o = common::duet(&["check", "--no-whole-program", "--entry", "reset", "tests/programs/entry/ops_table.c"]);
    let (out, _) = common::texts(&o);
    assert!(out.contains("entry points run in unboundedly many threads each after `init`: `reset` (named by --entry)"), "{out}");
}

/// `--entry` naming no function of the program is an input error.
#[test]
fn entry_naming_an_unknown_function_is_an_input_error() {
    for name in ["nosuch", "init"] {
        let o = common::duet(&["check", "--no-whole-program", "--entry", name, "tests/programs/entry/ops_table.c"]);
        let (out, err) = common::texts(&o);
        assert_eq!(o.status.code(), Some(2), "{out}{err}");
        assert!(format!("{out}{err}").contains(&format!("--entry `{name}`")), "{out}{err}");
    }
    // A usage error: --entry needs --no-whole-program.
    let o = common::duet(&["check", "--entry", "reset", "tests/programs/entry/ops_table.c"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(common::texts(&o).1.contains("--no-whole-program"), "{o:?}");
}

/// A preprocessed file whose `size_t` is `unsigned int` is read as ILP32 without `--m32`,
/// with a note; `--m64` forces LP64 with a warning, and `--m32` on an LP64 file warns.
#[test]
fn a_preprocessed_file_sets_its_data_model() {
    let (t, code) = task("ilp32.i", &[]);
    assert_eq!(statuses(&t).iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), ["safe", "safe"], "{t}");
    assert_eq!(code, 0);
    assert!(section(&t, "data model").starts_with("note: read as ILP32"), "{t}");
    // (The first failure ends every execution, so the second assertion is never reached.)
    let (t, _) = task("ilp32.i", &["--m64"]);
    assert_eq!(statuses(&t)[0].0, "violated", "{t}");
    assert!(section(&t, "data model").starts_with("warning: --m64"), "{t}");
    let (t, _) = task("ilp32.i", &["--m32"]);
    assert_eq!(section(&t, "data model"), "", "{t}");
    let (t, _) = task("lp64.i", &[]);
    assert_eq!(statuses(&t)[0].0, "safe", "{t}");
    assert_eq!(section(&t, "data model"), "", "{t}");
    let (t, _) = task("lp64.i", &["--m32"]);
    assert_eq!(statuses(&t)[0].0, "violated", "{t}");
    assert!(section(&t, "data model").starts_with("warning: --m32"), "{t}");
    let o = common::duet(&["check", "tests/programs/entry/ilp32.i"]);
    assert!(common::texts(&o).0.contains("note: read as ILP32"), "{o:?}");
}
