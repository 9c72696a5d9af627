//! Output that must not destroy or lose data (issue 40, items 6-9): report files written
//! atomically only over regular files and through anything else, `-` as stdout, a closed
//! stderr, a failing stdout, and an interrupted batch that still reports what finished.

use crate::common;

use common::{repo, texts};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SAFE: &str = "tests/programs/output_safety/safe.c";
const VIOLATED: &str = "tests/programs/output_safety/violated.c";

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("duet-output-safety-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_duet-rs"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// `check --engines coarsen` (quick, and enough to prove `SAFE`) with more arguments.
fn check(args: &[&str]) -> Output {
    bin().args(["check", "--engines", "coarsen"]).args(args).output().expect("run duet-rs")
}

fn report_json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not a JSON report ({e}): {text}"))
}

#[test]
fn output_replaces_a_regular_file_and_creates_a_missing_one() {
    let dir = scratch("regular");
    let file = dir.join("report.json");
    std::fs::write(&file, "old report that is much longer than nothing").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = check(&["--format", "json", "--output", file.to_str().unwrap(), SAFE]);
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    assert_eq!(report_json(&std::fs::read_to_string(&file).unwrap())["summary"]["safe"], 1);
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o640, "the replaced file keeps its permissions");
    let missing = dir.join("new.json");
    let out = check(&["--format", "json", "--output", missing.to_str().unwrap(), SAFE]);
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    assert!(std::fs::metadata(&missing).unwrap().is_file());
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "no temporary file is left behind: {names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_through_a_symlink_updates_its_target_and_keeps_the_link() {
    let dir = scratch("symlink");
    let target = dir.join("target.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink("target.json", &link).unwrap();
    let out = check(&["--format", "json", "--output", link.to_str().unwrap(), SAFE]);
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link must survive");
    assert_eq!(report_json(&std::fs::read_to_string(&target).unwrap())["summary"]["safe"], 1, "the target gets the report");
    // The witness and the section files go the same way.
    let wtarget = dir.join("w.yml");
    let wlink = dir.join("witness-link");
    std::os::unix::fs::symlink(&wtarget, &wlink).unwrap();
    let out = check(&["--witness", wlink.to_str().unwrap(), "--invariants=/dev/null", SAFE]);
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    assert!(std::fs::symlink_metadata(&wlink).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(&wtarget).unwrap().contains("invariant"), "a correctness witness through the link");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
}

/// Runs `cmd` while a reader thread reads `fifo` to its end; returns what it read. The reader
/// opens the FIFO without blocking before the run, so a run that never opens it (one that
/// renames a file over it) gives an empty read instead of a hang.
fn run_with_fifo_reader(mut cmd: Command, fifo: &Path) -> (Output, Vec<u8>) {
    use std::os::unix::fs::OpenOptionsExt;
    let mut reader = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(fifo).unwrap();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let finished = done.clone();
    let thread = std::thread::spawn(move || {
        let mut got = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            // Read after looking at the flag: an empty read once the run has ended means
            // every byte it wrote has been read.
            let ended = finished.load(std::sync::atomic::Ordering::SeqCst);
            match reader.read(&mut buf) {
                Ok(0) if ended => break,
                Ok(n) if n > 0 => got.extend_from_slice(&buf[..n]),
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        got
    });
    let out = cmd.output().expect("run duet-rs");
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    (out, thread.join().unwrap())
}

#[test]
fn output_to_a_fifo_is_written_through() {
    let dir = scratch("fifo");
    let fifo = dir.join("report.fifo");
    mkfifo(&fifo);
    let mut cmd = bin();
    cmd.args(["check", "--engines", "coarsen", "--format", "json", "--output", fifo.to_str().unwrap(), SAFE]);
    let (out, got) = run_with_fifo_reader(cmd, &fifo);
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    assert_eq!(report_json(&String::from_utf8_lossy(&got))["summary"]["safe"], 1, "the reader gets the report");
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO is still a FIFO");
    // A section file too (`--dot=FILE`).
    let mut cmd = bin();
    cmd.args(["check", "--engines", "coarsen", &format!("--dot={}", fifo.display()), SAFE]);
    let (out, got) = run_with_fifo_reader(cmd, &fifo);
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    assert!(String::from_utf8_lossy(&got).contains("digraph"), "{}", String::from_utf8_lossy(&got));
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dev_null_stays_a_character_device() {
    let null = Path::new("/dev/null");
    if !std::fs::symlink_metadata(null).is_ok_and(|m| m.file_type().is_char_device()) {
        eprintln!("SKIPPED dev_null_stays_a_character_device: /dev/null is not a character device here");
        return;
    }
    let out = check(&["--format", "json", "--output", "/dev/null", "--witness", "/dev/null", "--dot=/dev/null", SAFE]);
    assert_eq!(out.status.code(), Some(0), "the verdict's exit code: {}", texts(&out).1);
    assert!(out.stdout.is_empty(), "{}", texts(&out).0);
    assert!(std::fs::symlink_metadata(null).unwrap().file_type().is_char_device(), "/dev/null was replaced");
}

#[test]
fn output_dash_is_stdout() {
    let dir = scratch("dash");
    let out = bin().current_dir(&dir).args(["check", "--engines", "coarsen", "--format", "json", "--output", "-"]).arg(repo(SAFE)).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    assert_eq!(report_json(&texts(&out).0)["summary"]["safe"], 1);
    assert!(!dir.join("-").exists(), "no file named `-`");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn datalog_dash_d_prints_relations_on_stdout() {
    let dir = scratch("datalog");
    std::fs::create_dir_all(dir.join("facts")).unwrap();
    std::fs::write(dir.join("facts/edge.facts"), "1\t2\n2\t3\n").unwrap();
    let out = bin().current_dir(&dir).arg("datalog").arg(repo("rules/examples/transitive_closure.dl")).args(["-F", "facts", "-D", "-"]).output().unwrap();
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("path\n===============\n1\t2\n1\t3\n2\t3\n===============\n"), "{stdout}");
    assert!(!dir.join("-").exists(), "no directory named `-`");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A pipe whose read end is already closed: writing to it fails with EPIPE.
fn closed_pipe() -> std::os::fd::OwnedFd {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors were just created and are owned here alone.
    unsafe {
        libc::close(fds[0]);
        std::os::fd::OwnedFd::from_raw_fd(fds[1])
    }
}

#[test]
fn a_closed_stderr_changes_neither_the_exit_code_nor_the_report() {
    // Progress lines and notes go to stderr; none may panic or cut the report short.
    for (args, code) in [(&["check", VIOLATED][..], 10), (&["check", "--engines", "coarsen", SAFE][..], 0)] {
        let out = bin().args(args).stderr(Stdio::from(closed_pipe())).output().unwrap();
        let stdout = texts(&out).0;
        assert_eq!(out.status.code(), Some(code), "{stdout}");
        assert!(stdout.contains("summary: 1 file(s)") && stdout.contains(&format!("exit code {code} (")), "the whole report: {stdout}");
    }
    // A note on stderr (no witness for a file that has none) on top of the progress line.
    let dir = scratch("stderr");
    let out = bin().args(["check", "--engines", "coarsen", "--witness-dir", dir.to_str().unwrap(), VIOLATED]).stderr(Stdio::from(closed_pipe())).output().unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", texts(&out).0);
    assert!(texts(&out).0.contains("exit code 5 ("), "{}", texts(&out).0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stdout_that_fails_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("SKIPPED a_stdout_that_fails_is_an_error: /dev/full is absent");
        return;
    };
    let out = bin().args(["check", "--engines", "coarsen", SAFE]).stdout(Stdio::from(full.try_clone().unwrap())).output().unwrap();
    let stderr = texts(&out).1;
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("cannot write the report to stdout") && stderr.contains("No space left"), "{stderr}");
    let out = bin().args(["check", "--engines", "coarsen", "--format", "json", SAFE]).stdout(Stdio::from(full.try_clone().unwrap())).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", texts(&out).1);
    // Commands that print with `print!` report it the same way.
    let out = bin().arg("rules").stdout(Stdio::from(full)).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", texts(&out).1);
    assert!(texts(&out).1.contains("cannot write to stdout"), "{}", texts(&out).1);
}

#[test]
fn stderr_is_written_best_effort_everywhere() {
    // `eprintln!` panics on a closed stderr; `crate::stderr!` does not.
    fn walk(dir: &Path, found: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, found);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                for (i, line) in text.lines().enumerate() {
                    if line.contains("eprintln!(") || line.contains("eprint!(") {
                        found.push(format!("{}:{}: {}", p.display(), i + 1, line.trim()));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(&repo("src"), &mut found);
    assert!(found.is_empty(), "use crate::stderr! instead:\n{}", found.join("\n"));
}

/// A batch of a quick file and two whose preprocessor never ends, interrupted once the
/// second has started (so the first has finished): the command's output and the report
/// file, if any.
fn interrupted_batch(name: &str, extra: &[&str]) -> (Output, PathBuf) {
    let dir = scratch(name);
    let inputs = dir.join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    for f in ["a_fast.c", "b_slow.c", "c_slow.c"] {
        std::fs::copy(repo(SAFE), inputs.join(f)).unwrap();
    }
    let started = dir.join("started");
    let cc = dir.join("cc.sh");
    std::fs::write(&cc, format!("#!/bin/sh\ncase \"$*\" in\n  *_slow.c*) touch '{}'; exec sleep 600;;\nesac\nexec cc \"$@\"\n", started.display())).unwrap();
    std::fs::set_permissions(&cc, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut child = bin()
        .args(["check", "--engines", "coarsen", "--workers", "1", "--cc", cc.to_str().unwrap()])
        .args(extra)
        .arg(&inputs)
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !started.exists() {
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("the second task never started: {:?}", child.wait_with_output().map(|o| texts(&o)));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: kill takes a process id and a signal number.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    (out, dir)
}

#[test]
fn an_interrupt_reports_the_finished_tasks_in_json_and_sarif() {
    let (out, dir) = interrupted_batch("interrupt-json", &["--format", "json", "--output", "report.json"]);
    assert_eq!(out.status.code(), Some(130), "{}", texts(&out).1);
    let r = report_json(&std::fs::read_to_string(dir.join("report.json")).unwrap());
    let outcomes: Vec<&str> = r["tasks"].as_array().unwrap().iter().map(|t| t["outcome"].as_str().unwrap()).collect();
    assert_eq!(outcomes, ["checked", "interrupted", "interrupted"], "{r}");
    assert_eq!(r["tasks"][0]["assertions"][0]["status"], "safe");
    assert!(r["tasks"][1]["reason"].as_str().unwrap().contains("interrupted"), "{r}");
    assert_eq!(r["summary"]["interrupted"], 2);
    assert_eq!(r["summary"]["exit_code"], 130);
    std::fs::remove_dir_all(&dir).unwrap();

    let (out, dir) = interrupted_batch("interrupt-sarif", &["--format", "sarif", "--output", "report.sarif"]);
    assert_eq!(out.status.code(), Some(130), "{}", texts(&out).1);
    let s = report_json(&std::fs::read_to_string(dir.join("report.sarif")).unwrap());
    let texts: Vec<&str> = s["runs"][0]["results"].as_array().unwrap().iter().map(|r| r["message"]["text"].as_str().unwrap()).collect();
    assert_eq!(texts.iter().filter(|t| t.starts_with("interrupted:")).count(), 2, "{texts:?}");
    assert_eq!(s["runs"][0]["invocations"][0]["exitCode"], 130);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_interrupt_prints_the_text_summary() {
    let (out, dir) = interrupted_batch("interrupt-text", &[]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stdout.contains("a_fast.c: 1 assertion(s)"), "{stdout}");
    assert!(stdout.contains("b_slow.c: interrupted after") && stdout.contains("c_slow.c: interrupted after"), "{stdout}");
    assert!(stdout.contains("summary: 3 file(s), 1 assertion(s)") && stdout.contains("  interrupted   2") && stdout.contains("exit code 130 ("), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}
