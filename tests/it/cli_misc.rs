//! Command-line behaviour a user meets before any analysis: the version text and a reader that
//! closes the pipe early.

use crate::common;

use std::io::Read;
use std::process::{Command, Stdio};

#[test]
fn version_names_the_commit_and_z3() {
    let o = common::duet(&["--version"]);
    let (out, _) = common::texts(&o);
    assert_eq!(o.status.code(), Some(0));
    assert!(out.starts_with(&format!("duet-rs {} (", env!("CARGO_PKG_VERSION"))), "{out}");
    assert!(out.contains("commit ") || out.contains("unknown commit"), "{out}");
    let z3 = out.lines().find(|l| l.starts_with("Z3 ")).unwrap_or_else(|| panic!("no Z3 line in {out}"));
    assert!(z3[3..].chars().next().is_some_and(|c| c.is_ascii_digit()), "{out}");
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    // An IR listing far larger than a pipe's buffer, so the writer is still writing when the
    // reader goes away.
    let dir = std::env::temp_dir().join(format!("duet-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("long.c");
    let body: String = (0..4000).map(|i| format!("  g = g + {i};\n")).collect();
    std::fs::write(&file, format!("int g;\nint main() {{\n{body}  return 0;\n}}\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_duet-rs")).args(["ir", file.to_str().unwrap()]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut head = [0u8; 64];
    child.stdout.as_mut().unwrap().read_exact(&mut head).unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(status.code(), Some(141), "stderr: {err}");
    assert!(err.is_empty(), "a closed pipe is not an error worth a message: {err}");
}

#[test]
fn dash_h_is_help_and_the_host_file_is_capital_h() {
    for cmd in ["check", "svcomp"] {
        let o = common::duet(&[cmd, "-h"]);
        let (out, err) = common::texts(&o);
        assert_eq!(o.status.code(), Some(0), "{cmd} -h: {err}");
        assert!(out.contains("Usage:") && out.contains("-H, --hostfile <HOSTFILE>"), "{cmd} -h:\n{out}");
    }
}

#[test]
fn dot_and_invariants_go_to_the_report_or_to_their_files() {
    let file = common::repo("benchmarks/examples/increment_decrement.c");
    let file = file.to_str().unwrap();
    // Without a file the sections follow the verdict table, as before.
    let o = common::duet(&["check", "--no-progress", "--engines", "coarsen", "--dot", "--invariants", file]);
    let (out, _) = common::texts(&o);
    assert!(out.contains("--- dfg of ") && out.contains("digraph dfg {"), "{out}");
    assert!(out.contains("--- invariants of ") && out.contains("thread main"), "{out}");
    // With one, stdout keeps only verdicts and the summary, and each file holds its section.
    let dir = std::env::temp_dir().join(format!("duet-sections-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (dot, inv) = (dir.join("g.dot"), dir.join("inv.txt"));
    let o = common::duet(&["check", "--no-progress", "--engines", "coarsen", &format!("--dot={}", dot.display()), &format!("--invariants={}", inv.display()), file]);
    let (out, err) = common::texts(&o);
    assert_eq!(o.status.code(), Some(5), "{out}{err}");
    assert!(out.contains("safe") && out.contains("summary:"), "{out}");
    assert!(!out.contains("digraph") && !out.contains("--- "), "{out}");
    let dot_text = std::fs::read_to_string(&dot).unwrap();
    assert!(dot_text.starts_with("digraph dfg {") && dot_text.trim_end().ends_with('}'), "{dot_text}");
    assert!(std::fs::read_to_string(&inv).unwrap().contains("thread main"));
    // One file cannot hold the sections of several inputs: a usage error before any analysis.
    let o = common::duet(&["check", "--no-progress", &format!("--dot={}", dir.join("two.dot").display()), file, file]);
    let (_, err) = common::texts(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--dot") && err.contains("one input file"), "{err}");
    assert!(!dir.join("two.dot").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Identifiers with `$` (a GCC extension) parse; their verdicts are those of the program.
#[test]
fn identifiers_may_hold_a_dollar_sign() {
    let o = common::duet(&["check", "--format", "json", "--search-time", "20", "tests/programs/dollar_names.c"]);
    let (out, err) = common::texts(&o);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let st: Vec<&str> = r["tasks"][0]["assertions"].as_array().unwrap().iter().map(|a| a["status"].as_str().unwrap()).collect();
    assert_eq!(st, ["safe", "violated"], "{out}{err}");
}
