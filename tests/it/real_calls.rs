//! Issue 36, items 4 and 5: what real drivers call, and analysis without assertions. A call
//! through a pointer that no function of the program can be is a call of code without a
//! definition (with that havoc, not an unsupported construct); `calloc(n, size)` and the Linux
//! allocators get an object whatever their size; `--invariants=FILE` writes COARSEN's
//! invariants of a program that asserts nothing; a guard on a recursive call's argument sets how
//! many exact copies it gets. Programs: tests/programs/drivers_ext/, recursion_guard/, invariants/.

use crate::common;

/// Each assertion's status and reason, in source order.
fn verdicts(file: &str, extra: &[&str]) -> Vec<(String, String)> {
    let path = format!("tests/programs/{file}");
    let mut args = vec!["check", "--format", "json", "--search-time", "3"];
    args.extend_from_slice(extra);
    args.push(&path);
    let o = common::duet(&args);
    let (out, err) = common::texts(&o);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{file}: {e}: {out}{err}"));
    let list = r["tasks"][0]["assertions"].as_array().unwrap_or_else(|| panic!("{file}: {out}"));
    list.iter().map(|a| (a["status"].as_str().unwrap().to_string(), a["reason"].as_str().unwrap_or("").to_string())).collect()
}

fn ir(file: &str) -> String {
    let o = common::duet(&["ir", &format!("tests/programs/{file}")]);
    let (out, err) = common::texts(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    out
}

/// A kernel-filled function pointer is called like an undefined function: listed among them
/// in the IR, no unsupported construct, and what it cannot reach is proved by COARSEN.
#[test]
fn a_pointer_to_no_function_of_the_program_calls_code_outside_it() {
    let text = ir("drivers_ext/ops_callback.c");
    assert!(text.contains("functions without a definition") && text.contains("dev.device_control (first called at"), "{text}");
    assert!(!text.contains("unsupported constructs"), "{text}");
    let v = verdicts("drivers_ext/ops_callback.c", &["--engines", "coarsen"]);
    assert_eq!(v.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>(), ["safe", "safe"], "{v:?}");
}

/// The failing twins: what the external code receives is havocked (the status, the result,
/// the driver's channel reached through a parameter), so nothing there is `safe`, and the
/// reason names the call, not an unsupported construct.
#[test]
fn the_external_call_havocs_what_it_can_reach() {
    for file in ["drivers_ext/ops_callback_bad.c", "drivers_ext/ops_chan_bad.c"] {
        let v = verdicts(file, &[]);
        assert!(!v.is_empty(), "{file}");
        for (status, reason) in &v {
            assert_ne!(status, "safe", "{file}: {v:?}");
            assert!(!reason.contains("unsupported construct"), "{file}: {v:?}");
        }
    }
    let v = verdicts("drivers_ext/ops_chan_bad.c", &[]);
    assert!(v[0].1.contains("a call of `chan->device->device_control`, which has no definition"), "{v:?}");
}

/// A pointer that may hold a function of the program or code outside it keeps today's
/// treatment: an unsupported construct, every verdict `unknown`.
#[test]
fn a_pointer_that_may_also_be_a_program_function_stays_unsupported() {
    let v = verdicts("drivers_ext/fnptr_maybe_program.c", &[]);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].0, "unknown");
    assert!(v[0].1.contains("unsupported construct: call through `driver_ops->run`"), "{v:?}");
}

/// `calloc(n, size)` without a `sizeof` is an object, not an unsupported construct; its
/// contents are read as arbitrary, so only zero contents could prove the twin's assertion.
#[test]
fn calloc_of_a_size_that_is_no_sizeof_gets_an_object() {
    let v = verdicts("drivers_ext/calloc_size.c", &[]);
    assert_eq!(v.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>(), ["safe", "safe"], "{v:?}");
    for file in ["drivers_ext/calloc_size_bad.c", "drivers_ext/kzalloc_len_bad.c"] {
        let v = verdicts(file, &[]);
        assert_eq!(v.len(), 1, "{file}");
        assert_ne!(v[0].0, "safe", "{file}: {v:?}");
        assert!(!v[0].1.contains("unsupported"), "{file}: {v:?}");
    }
    // The replay never takes arbitrary contents for calloc's zeroes: no `violated`.
    let v = verdicts("drivers_ext/calloc_size_bad.c", &["--engines", "explore,bounded"]);
    assert_ne!(v[0].0, "violated", "{v:?}");
}

/// `kmalloc(len, flags)` gives an object or NULL: the NULL is a real execution.
#[test]
fn kmalloc_may_fail_and_its_object_is_exact() {
    let v = verdicts("drivers_ext/kmalloc_len_bad.c", &[]);
    assert_eq!(v[0].0, "violated", "{v:?}");
    let v = verdicts("drivers_ext/kmalloc_len.c", &[]);
    assert_eq!(v.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>(), ["safe", "safe"], "{v:?}");
}

/// `--invariants=FILE` of a program without assertions: COARSEN runs to its fixpoint (the
/// other thread's write reaches `main`'s read) and every location names its position; the
/// file is the same from run to run.
#[test]
fn invariants_of_a_program_without_assertions() {
    let dir = std::env::temp_dir().join(format!("duet-real-calls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = "tests/programs/invariants/no_assert.c";
    let write = |name: &str| {
        let inv = dir.join(name);
        let o = common::duet(&["check", "--no-progress", &format!("--invariants={}", inv.display()), file]);
        let (out, err) = common::texts(&o);
        assert_eq!(o.status.code(), Some(0), "{out}{err}");
        assert!(!out.contains("thread main"), "the invariants went to stdout: {out}");
        std::fs::read_to_string(&inv).unwrap_or_else(|e| panic!("{}: {e}", inv.display()))
    };
    let text = write("a.txt");
    let line = |at: &str| text.lines().find(|l| l.contains(&format!("{file}:{at} "))).unwrap_or_else(|| panic!("no location at {at}:\n{text}"));
    // `x = x + 1` inside the loop, and `int y = g` after the writer may have run.
    assert!(line("17:9").ends_with("{ 0 <= x <= 9 }"), "{text}");
    assert!(line("19:9").ends_with("{ 0 <= g <= 5 }"), "{text}");
    assert!(text.contains("thread writer"), "{text}");
    assert_eq!(write("b.txt"), text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A guard bounding the argument of a recursive call by a constant (`n > 10`) raises the exact
/// copies to reach the base case (12, past the default 8), so COARSEN proves the exact sum; a
/// depth below the default is kept as given (the shared copy then cannot prove it), and the
/// failing twin is still violated.
#[test]
fn a_guard_on_the_recursion_argument_sets_the_depth() {
    let status = |file: &str, extra: &[&str]| verdicts(file, extra).into_iter().map(|(s, _)| s).collect::<Vec<_>>();
    assert_eq!(status("recursion_guard/sum_guarded.c", &["--engines", "coarsen"]), ["safe"]);
    assert_eq!(status("recursion_guard/sum_guarded.c", &["--engines", "coarsen", "--recursion-depth", "1"]), ["unknown"]);
    assert_eq!(status("recursion_guard/sum_guarded_bad.c", &[]), ["violated"]);
}
