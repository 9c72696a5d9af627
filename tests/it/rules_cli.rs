//! The interference rules are data: built in, written out on request, and replaceable at run
//! time with `check --rules`, without recompiling.

use crate::common;

use common::{duet, texts};

#[test]
fn built_in_rules_are_printed_and_written_out() {
    let out = duet(&["rules"]);
    assert_eq!(out.status.code(), Some(0));
    let (text, _) = texts(&out);
    for needle in [".decl coreachable", ".output may_flow", ".output may_stand", ".input cond_val"] {
        assert!(text.contains(needle), "missing `{needle}`");
    }
    let dir = std::env::temp_dir().join(format!("duet-rules-{}", std::process::id()));
    let out = duet(&["rules", "--write", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(dir.join("interference.dl")).unwrap(), text);
    // Existing files are not overwritten without --force.
    let out = duet(&["rules", "--write", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(texts(&out).1.contains("exists; pass --force"));
    assert_eq!(duet(&["rules", "--write", dir.to_str().unwrap(), "--force"]).status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Weakening the lock rule in an edited copy changes the verdict on a lock-protected
/// counter: the rules really are read at run time.
#[test]
fn edited_rules_change_the_analysis() {
    let dir = std::env::temp_dir().join(format!("duet-rules-edit-{}", std::process::id()));
    assert_eq!(duet(&["rules", "--write", dir.to_str().unwrap()]).status.code(), Some(0));
    let file = dir.join("interference.dl");
    let text = std::fs::read_to_string(&file).unwrap();
    // Forget that a held lock blocks its acquisition by another thread.
    let edited: String = text.replace("!holds(", "!no_such_holds(").replace(".decl holds(", ".decl no_such_holds(x: number, y: number)\n.decl holds(");
    assert_ne!(edited, text);
    std::fs::write(&file, edited).unwrap();
    let program = "benchmarks/examples/locked_counter.c";
    let out = duet(&["check", "--engines", "coarsen", program]);
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).0);
    let out = duet(&["check", "--engines", "coarsen", "--rules", file.to_str().unwrap(), program]);
    let (stdout, _) = texts(&out);
    assert_eq!(out.status.code(), Some(5), "{stdout}");
    assert!(stdout.contains("unknown       'count == 0'"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn broken_rules_are_reported_once_with_their_location() {
    let dir = std::env::temp_dir().join(format!("duet-rules-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.dl");
    std::fs::write(&file, ".decl may_flow(a: number, b: number, c: number)\n.output may_flow\nmay_flow(a, b, c) :- nothing(a, b, c).\n").unwrap();
    let out = duet(&["check", "--rules", file.to_str().unwrap(), "benchmarks/examples/locked_counter.c"]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("bad.dl:3:22: error: unknown relation 'nothing'"), "{stderr}");
    // Rules that parse but lack the outputs duet-rs reads.
    std::fs::write(&file, ".decl r(a: number)\n.output r\n").unwrap();
    let out = duet(&["check", "--rules", file.to_str().unwrap(), "benchmarks/examples/locked_counter.c"]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("bad.dl: the rules do not declare `may_flow`"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
