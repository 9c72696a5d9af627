//! Batch runs: every task isolated in its own process, limits that end one task and not the
//! batch, output that is the same whatever the worker and process counts.

use crate::common;

use common::texts;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const FAULT: &str = "DUET_RS_FAULT_INJECTION";

/// Runs duet-rs; `check` runs COARSEN alone, as these tests are about the batch machinery and
/// the search's time budget would dominate their time (tests/portfolio.rs checks the default
/// strategy's determinism across workers).
fn duet_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_duet-rs"));
    match args.split_first() {
        Some((&"check", rest)) => c.arg("check").args(["--engines", "coarsen"]).args(rest),
        _ => c.args(args),
    };
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run duet-rs")
}

fn json(o: &Output) -> Value {
    let (stdout, stderr) = texts(o);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}\nstderr:\n{stderr}"))
}

fn task<'a>(report: &'a Value, file_part: &str) -> &'a Value {
    report["tasks"].as_array().unwrap().iter().find(|t| t["file"].as_str().unwrap().contains(file_part)).unwrap_or_else(|| panic!("no task {file_part}"))
}

/// A scratch directory unique to this test process and name.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("duet-batch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Removes what legitimately differs between runs: times and memory.
fn strip_measurements(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("seconds");
            m.remove("memory_mb");
            for x in m.values_mut() {
                strip_measurements(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(strip_measurements),
        _ => {}
    }
}

/// Replaces every number in a text report, so runs compare by structure and verdicts.
fn strip_numbers(s: &str) -> String {
    let mut out = String::new();
    let mut in_num = false;
    for c in s.chars() {
        if c.is_ascii_digit() || (in_num && c == '.') {
            if !in_num {
                out.push('#');
            }
            in_num = true;
        } else {
            in_num = false;
            out.push(c);
        }
    }
    out
}

/// The programs the batch tests run, in sorted order as a directory's would be: enough to
/// exercise the machinery (the files named by fault injection, a directory expanded), few enough
/// that the six runs of `output_is_the_same_at_one_and_two_workers` stay quick however
/// `tests/programs/` grows.
const PROGRAMS: &[&str] = &["tests/programs/alias.c", "tests/programs/coarsen/", "tests/programs/control.c", "tests/programs/locks_atomic.c", "tests/programs/threads.c"];
const MIXED: &[&str] = &[
    "tests/programs/alias.c",
    "tests/programs/coarsen/",
    "tests/programs/control.c",
    "tests/programs/locks_atomic.c",
    "tests/programs/threads.c",
    "tests/bad_input/syntax_error.c",
    "tests/bad_input/unsupported.c",
];
/// A few of them: under a 2 s limit per task, a debug build on a loaded machine could time out
/// on a slow program of the whole directory as well as on the one made to spin.
const FEW: &[&str] = &["tests/programs/alias.c", "tests/programs/control.c", "tests/programs/threads.c", "tests/bad_input/syntax_error.c", "tests/bad_input/unsupported.c"];

/// How many C and Boolean-program files [`PROGRAMS`] holds, subdirectories included, as `check` expands it.
fn programs_count() -> usize {
    fn walk(d: &std::path::Path) -> usize {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| if p.is_dir() { walk(&p) } else { usize::from(matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "i" | "bp"))) })
            .sum()
    }
    PROGRAMS.iter().map(|p| if p.ends_with('/') { walk(&common::repo(p)) } else { 1 }).sum()
}

#[test]
fn a_task_that_loops_forever_times_out_and_the_others_finish() {
    let start = Instant::now();
    let mut args = vec!["check", "--timeout", "2", "--workers", "2", "--format", "json"];
    args.extend(FEW);
    let out = duet_env(&args, &[(FAULT, "spin:programs/alias.c")]);
    let elapsed = start.elapsed();
    let r = json(&out);
    let t = task(&r, "alias.c");
    assert_eq!(t["outcome"], "timeout", "{t}");
    assert!(t["reason"].as_str().unwrap().contains("time limit of 2 s"), "{t}");
    let secs = t["seconds"].as_f64().unwrap();
    assert!((1.9..6.0).contains(&secs), "reported after {secs} s");
    assert_eq!(task(&r, "control.c")["outcome"], "checked");
    assert_eq!(task(&r, "threads.c")["outcome"], "checked");
    assert_eq!(task(&r, "syntax_error.c")["outcome"], "error");
    assert_eq!(r["summary"]["timeout"], 1);
    // An input error outranks the inconclusive timeout.
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(r["summary"]["exit_code"], 2);
    assert!(elapsed < Duration::from_secs(60), "the batch took {elapsed:?}");

    // Without the input error, a timeout alone is inconclusive.
    let out = duet_env(&["check", "--timeout", "1", "tests/programs/alias.c", "tests/programs/threads.c"], &[(FAULT, "spin:alias.c")]);
    let (stdout, _) = texts(&out);
    assert_eq!(out.status.code(), Some(5), "{stdout}");
    assert!(stdout.contains("tests/programs/alias.c: timeout after"), "{stdout}");
    assert!(stdout.contains("  timeout       1"), "{stdout}");
}

#[test]
fn a_file_that_blocks_the_preprocessor_times_out() {
    let dir = scratch("fifo");
    let fifo = dir.join("blocked.c");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !matches!(made, Ok(s) if s.success()) {
        eprintln!("SKIPPED a_file_that_blocks_the_preprocessor_times_out: mkfifo is not available");
        return;
    }
    let start = Instant::now();
    let out = duet_env(&["check", "--timeout", "1", "--format", "json", fifo.to_str().unwrap(), "tests/programs/threads.c"], &[]);
    let r = json(&out);
    assert_eq!(task(&r, "blocked.c")["outcome"], "timeout");
    assert_eq!(task(&r, "threads.c")["outcome"], "checked");
    assert!(start.elapsed() < Duration::from_secs(30), "the whole process group is killed, so nothing keeps the batch waiting");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_malformed_file_is_an_error_with_its_message_and_the_others_finish() {
    let mut args = vec!["check", "--workers", "2", "--format", "json"];
    args.extend(MIXED);
    let out = duet_env(&args, &[]);
    let r = json(&out);
    let t = task(&r, "syntax_error.c");
    assert_eq!(t["outcome"], "error");
    assert_eq!(t["exit_code"], 2);
    assert_eq!(t["error"]["kind"], "input");
    assert_eq!((t["error"]["line"].as_u64(), t["error"]["column"].as_u64()), (Some(1), Some(11)));
    assert!(t["error"]["message"].as_str().unwrap().starts_with("syntax error at `{`"), "{t}");
    assert_eq!(r["summary"]["tasks"], programs_count() + 2);
    assert_eq!(r["summary"]["error"], 1);
    assert_eq!(task(&r, "control.c")["assertions"][0]["line"], 13);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn crashes_become_errors_with_the_reason() {
    let faults = "abort:alias.c,segv:control.c,garbage:locks_atomic.c";
    let mut args = vec!["check", "--format", "json", "--workers", "2"];
    args.extend(PROGRAMS);
    let out = duet_env(&args, &[(FAULT, faults)]);
    let r = json(&out);
    let abort = &task(&r, "alias.c")["error"];
    assert_eq!(abort["kind"], "internal");
    assert!(abort["message"].as_str().unwrap().contains("SIGABRT"), "{abort}");
    assert!(task(&r, "control.c")["error"]["message"].as_str().unwrap().contains("SIGSEGV"));
    let garbage = &task(&r, "locks_atomic.c")["error"];
    assert!(garbage["message"].as_str().unwrap().contains("without a readable result"), "{garbage}");
    assert!(garbage["notes"].to_string().contains("this is not a task result"), "{garbage}");
    assert_eq!(task(&r, "threads.c")["outcome"], "checked");
    assert_eq!(out.status.code(), Some(6), "an internal error outranks everything but a violation");
}

#[test]
fn running_out_of_memory_is_its_own_verdict_and_the_limit_holds() {
    let limit = 200.0;
    let out = duet_env(&["check", "--memory", "200", "--format", "json", "tests/programs/alias.c", "tests/programs/threads.c"], &[(FAULT, "alloc:alias.c")]);
    let r = json(&out);
    let t = task(&r, "alias.c");
    assert_eq!(t["outcome"], "out-of-memory", "{t}");
    assert!(t["reason"].as_str().unwrap().contains("memory limit of 200 MB"), "{t}");
    let peak = t["memory_mb"].as_f64().unwrap();
    assert!(peak <= limit * 1.1 && peak >= limit * 0.5, "peak {peak} MB for a {limit} MB limit");
    assert_eq!(task(&r, "threads.c")["outcome"], "checked");
    assert_eq!(out.status.code(), Some(5));
}

#[test]
fn output_is_the_same_at_one_and_two_workers() {
    let inputs: Vec<&str> = PROGRAMS.iter().copied().chain(["tests/bad_input/"]).collect();
    let mut reports = Vec::new();
    let mut texts_out = Vec::new();
    for workers in ["1", "2"] {
        let mut args = vec!["check", "--workers", workers, "--format", "json"];
        args.extend(&inputs);
        let mut r = json(&duet_env(&args, &[]));
        strip_measurements(&mut r);
        reports.push(r);
        let mut args = vec!["check", "--workers", workers];
        args.extend(&inputs);
        texts_out.push(strip_numbers(&texts(&duet_env(&args, &[])).0));
    }
    assert_eq!(reports[0], reports[1]);
    assert_eq!(texts_out[0], texts_out[1]);
    let files: Vec<&str> = reports[0]["tasks"].as_array().unwrap().iter().map(|t| t["file"].as_str().unwrap()).collect();
    let mut expected = files.clone();
    // Input order: the arguments in turn, each directory's files sorted.
    expected.sort_by_key(|f| (!f.starts_with("tests/programs/"), f.to_string()));
    assert_eq!(files, expected, "tasks are reported in input order");
}

/// Two free loopback ports (held together while choosing, so they differ).
fn two_ports() -> (u16, u16) {
    let a = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let b = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    (a.local_addr().unwrap().port(), b.local_addr().unwrap().port())
}

/// Waits for a child, reading its output meanwhile (a report larger than a pipe's buffer
/// would otherwise block it forever), and kills it past the limit.
fn wait_with_deadline(child: std::process::Child, limit: Duration) -> Output {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SAFETY: a plain signal to the child this test started and has not reaped.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            let o = rx.recv().unwrap().unwrap();
            panic!("a batch process did not finish within {limit:?}: {}", texts(&o).1);
        }
    }
}

#[test]
fn two_processes_on_loopback_give_the_single_process_report() {
    let dir = scratch("cluster");
    let (p0, p1) = two_ports();
    let hosts = dir.join("hosts.txt");
    std::fs::write(&hosts, format!("127.0.0.1:{p0}\n127.0.0.1:{p1}\n")).unwrap();
    let inputs = MIXED;
    let spawn = |index: &str| {
        let mut args = vec!["check", "--engines", "coarsen", "-n", "2", "-p", index, "-H", hosts.to_str().unwrap(), "--workers", "2", "--format", "json"];
        args.extend(inputs);
        Command::new(env!("CARGO_BIN_EXE_duet-rs")).args(&args).current_dir(env!("CARGO_MANIFEST_DIR")).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
    };
    let second = spawn("1");
    let first = spawn("0");
    let out0 = wait_with_deadline(first, Duration::from_secs(120));
    let out1 = wait_with_deadline(second, Duration::from_secs(120));
    assert_eq!(out1.status.code(), Some(0), "{}", texts(&out1).1);
    assert!(out1.stdout.is_empty(), "only process 0 reports: {}", texts(&out1).0);
    let mut distributed = json(&out0);
    let mut args = vec!["check", "--format", "json"];
    args.extend(inputs);
    let single_out = duet_env(&args, &[]);
    let mut single = json(&single_out);
    assert_eq!(out0.status.code(), single_out.status.code());
    strip_measurements(&mut distributed);
    strip_measurements(&mut single);
    assert_eq!(distributed, single);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn processes_given_different_batches_refuse_to_start() {
    let dir = scratch("mismatch");
    let (p0, p1) = two_ports();
    let hosts = dir.join("hosts.txt");
    std::fs::write(&hosts, format!("127.0.0.1:{p0}\n127.0.0.1:{p1}\n")).unwrap();
    let spawn = |index: &str, file: &str| {
        Command::new(env!("CARGO_BIN_EXE_duet-rs"))
            .args(["check", "-n", "2", "-p", index, "-H", hosts.to_str().unwrap(), file])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let second = spawn("1", "tests/programs/alias.c");
    let first = spawn("0", "tests/programs/threads.c");
    let out0 = wait_with_deadline(first, Duration::from_secs(120));
    let out1 = wait_with_deadline(second, Duration::from_secs(120));
    for o in [&out0, &out1] {
        assert_eq!(o.status.code(), Some(1));
        assert!(texts(o).1.contains("different batches"), "{}", texts(o).1);
        assert!(o.stdout.is_empty());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_file_is_written_whole_and_stdout_stays_empty() {
    let dir = scratch("output");
    let path = dir.join("report.json");
    let mut args = vec!["check", "--format", "json", "--output", path.to_str().unwrap()];
    args.extend(PROGRAMS);
    let out = duet_env(&args, &[]);
    assert!(out.stdout.is_empty(), "{}", texts(&out).0);
    let text = std::fs::read_to_string(&path).unwrap();
    let r: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(r["summary"]["tasks"], programs_count());
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left behind: {leftovers:?}");
    let missing = dir.join("no/such/dir/report.json");
    let out = duet_env(&["check", "--output", missing.to_str().unwrap(), "tests/programs/threads.c"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(texts(&out).1.contains("cannot write the report"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn progress_goes_to_stderr_and_results_to_stdout() {
    let mut args = vec!["check"];
    args.extend(PROGRAMS);
    let out = duet_env(&args, &[]);
    let (stdout, stderr) = texts(&out);
    let n = programs_count();
    assert!(stderr.contains(&format!("[{n}/{n} ")), "a last progress line when stderr is not a terminal: {stderr}");
    assert!(!stdout.contains(&format!("[{n}/{n}")), "{stdout}");
    assert!(stdout.contains(&format!("summary: {n} file(s)")) && stdout.contains("\ntime "), "{stdout}");
    let mut args = vec!["check", "--no-progress"];
    args.extend(PROGRAMS);
    let out = duet_env(&args, &[]);
    assert!(texts(&out).1.is_empty(), "{}", texts(&out).1);
}

#[test]
fn timely_flags_and_bad_limits() {
    let out = duet_env(&["check", "--help"], &[]);
    let (stdout, _) = texts(&out);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout.contains("-H, --hostfile <HOSTFILE>") && stdout.contains("-n, --processes"), "{stdout}");
    let out = duet_env(&["check", "-n", "2", "-p", "2", "tests/programs/threads.c"], &[]);
    assert_eq!(out.status.code(), Some(1));
    for bad in [["--timeout", "0"], ["--timeout", "soon"], ["--memory", "1"], ["--workers", "0"]] {
        let out = duet_env(&["check", bad[0], bad[1], "tests/programs/threads.c"], &[]);
        assert_eq!(out.status.code(), Some(1), "{bad:?}");
    }
}

#[test]
fn a_lone_task_gives_idle_workers_to_datalog_with_the_same_results() {
    // One file and two workers: the task's Datalog engine runs on both.
    let mut files: Vec<_> = std::fs::read_dir(common::repo("tests/programs/coarsen")).unwrap().map(|e| e.unwrap().path()).collect();
    files.extend(std::fs::read_dir(common::repo("benchmarks/examples")).unwrap().map(|e| e.unwrap().path()));
    files.sort();
    assert!(files.len() >= 8);
    for f in &files {
        let f = f.to_str().unwrap();
        let run = |workers: &str| strip_numbers(&texts(&duet_env(&["check", "--workers", workers, "--invariants", "--dot", f], &[])).0);
        assert_eq!(run("1"), run("2"), "{f}");
    }
}
