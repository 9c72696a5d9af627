//! Runs one task in a child process of the same binary, under CPU, wall-clock and memory
//! limits, and turns however the child ended into that task's result.

use super::spec::{ChildRequest, TaskSpec};
use super::sys::{self, ChildRlimits, MIB};
use crate::diag::Diagnostic;
use crate::verdict::TaskRun;
use crate::verdict::{Outcome, TaskResult};
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The limits every task of a batch runs under.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock and CPU seconds.
    pub timeout: Duration,
    /// Resident memory in MiB.
    pub memory_mb: Option<u64>,
}

/// How many bytes of a child's stderr are kept for error messages.
const STDERR_TAIL: usize = 16 << 10;

/// Runs `spec` in a child process `exe __task` and waits for it.
pub(crate) fn run(exe: &PathBuf, spec: &TaskSpec, limits: &Limits) -> TaskRun {
    let start = Instant::now();
    let label = spec.label();
    let memory_bytes = limits.memory_mb.map(|m| m * MIB);
    let rl = ChildRlimits {
        // The wall-clock watchdog normally fires first; SIGXCPU catches a child whose
        // threads burn CPU faster than wall time passes.
        cpu_seconds: limits.timeout.as_secs_f64().ceil() as u64 + 1,
        // Virtual size overstates use (reserved stacks and arenas), so this is only a
        // backstop for allocations the heap budget cannot see; the watchdog and the budget
        // are what make the limit accurate.
        address_space: memory_bytes.map(|b| b.saturating_mul(2).saturating_add(1 << 30)),
    };
    let mut cmd = Command::new(exe);
    cmd.arg("__task").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    // Its own process group, so that a kill also reaches the preprocessor it runs.
    cmd.process_group(0);
    // SAFETY: the closure only calls setrlimit, which is async-signal-safe.
    unsafe {
        cmd.pre_exec(move || rl.apply());
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return failed(&label, start, Outcome::Error(Diagnostic::internal(&label, format!("cannot start the task process: {e}")))),
    };
    let pid = child.id() as i32;
    let request = ChildRequest { spec: spec.clone(), memory_bytes };
    if let Some(mut stdin) = child.stdin.take() {
        // A child that dies before reading gives EPIPE here; its exit tells the story.
        let _ = stdin.write_all(serde_json::to_string(&request).unwrap_or_default().as_bytes());
    }
    let stdout = child.stdout.take().map(|mut s| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = s.read_to_end(&mut buf);
            buf
        })
    });
    let stderr = child.stderr.take().map(|s| std::thread::spawn(move || tail(s, STDERR_TAIL)));

    let mut killed: Option<Killed> = None;
    let mut peak_rss = 0u64;
    let exit = loop {
        match sys::try_reap(pid) {
            Ok(Some(e)) => break Some(e),
            Ok(None) => {}
            Err(_) => break None,
        }
        let elapsed = start.elapsed();
        if killed.is_none() {
            if sys::interrupted() {
                sys::kill_group(pid);
                killed = Some(Killed::Interrupt);
            } else if elapsed >= limits.timeout {
                sys::kill_group(pid);
                killed = Some(Killed::Time);
            } else if let Some(limit) = memory_bytes {
                if let Some(rss) = sys::resident_bytes(pid) {
                    peak_rss = peak_rss.max(rss);
                    if rss > limit {
                        sys::kill_group(pid);
                        killed = Some(Killed::Memory(rss));
                    }
                }
            }
        }
        std::thread::sleep(sys::poll_interval(elapsed));
    };
    // A grandchild (the preprocessor) may still hold the pipes open; end the group.
    if killed.is_some() {
        sys::kill_group(pid);
    }
    let out = stdout.and_then(|h| h.join().ok()).unwrap_or_default();
    let err = stderr.and_then(|h| h.join().ok()).unwrap_or_default();
    let seconds = start.elapsed().as_secs_f64();
    let peak = exit.map(|e| e.max_rss).unwrap_or(0).max(peak_rss);
    let peak_memory_mb = (peak > 0).then(|| peak as f64 / MIB as f64);
    let outcome = classify(&label, limits, killed, exit, &out, &err);
    let result = match outcome {
        Ok(mut r) => {
            r.seconds = seconds;
            r
        }
        Err(outcome) => TaskResult { file: label, outcome, seconds, sections: Vec::new(), artifacts: Default::default(), races: None },
    };
    TaskRun { result, peak_memory_mb }
}

fn failed(label: &str, start: Instant, outcome: Outcome) -> TaskRun {
    TaskRun { result: TaskResult { file: label.to_string(), outcome, seconds: start.elapsed().as_secs_f64(), sections: Vec::new(), artifacts: Default::default(), races: None }, peak_memory_mb: None }
}

#[derive(Copy, Clone, Debug)]
enum Killed {
    Time,
    Memory(u64),
    /// The batch was interrupted (SIGINT).
    Interrupt,
}

/// The child's result, or the outcome that stands for how it ended.
fn classify(label: &str, limits: &Limits, killed: Option<Killed>, exit: Option<sys::Exit>, out: &[u8], err: &str) -> Result<TaskResult, Outcome> {
    let secs = limits.timeout.as_secs_f64();
    let mem = limits.memory_mb.unwrap_or(0);
    match killed {
        Some(Killed::Time) => return Err(Outcome::Timeout(format!("time limit of {secs} s reached"))),
        Some(Killed::Memory(rss)) => return Err(Outcome::OutOfMemory(format!("memory limit of {mem} MB reached (resident size {} MB)", rss / MIB))),
        Some(Killed::Interrupt) => return Err(Outcome::Interrupted("stopped while running: the batch was interrupted".to_string())),
        None => {}
    }
    let Some(exit) = exit else {
        return Err(Outcome::Error(Diagnostic::internal(label, "lost track of the task process")));
    };
    if let Some(line) = err.lines().find(|l| l.contains("memory allocation of") && l.contains("failed")) {
        let what = if limits.memory_mb.is_some() { format!("memory limit of {mem} MB reached") } else { "out of memory".to_string() };
        return Err(Outcome::OutOfMemory(format!("{what}: {}", line.trim())));
    }
    match exit.signal {
        Some(libc::SIGXCPU) => return Err(Outcome::Timeout(format!("CPU time limit of {secs} s reached"))),
        Some(libc::SIGKILL) => {
            // Nobody here sent it, and the CPU hard limit is later than the watchdog, so it
            // is almost always the kernel's out-of-memory killer.
            return Err(Outcome::OutOfMemory("killed by SIGKILL (most likely the system's out-of-memory killer)".to_string()));
        }
        Some(sig) => return Err(Outcome::Error(crash(label, format!("the task process was killed by {}", sys::signal_name(sig)), err))),
        None => {}
    }
    let code = exit.code.unwrap_or(-1);
    if code == 0 {
        if let Ok(r) = serde_json::from_slice::<TaskResult>(out) {
            return Ok(r);
        }
        let shown: String = String::from_utf8_lossy(out).chars().take(200).collect();
        let d = crash(label, "the task process ended without a readable result", err).with_note(format!("stdout: {}", shown.trim()));
        return Err(Outcome::Error(d));
    }
    Err(Outcome::Error(crash(label, format!("the task process exited with code {code} without a result"), err)))
}

/// An internal error whose notes are the last lines the child wrote on stderr.
fn crash(label: &str, message: impl Into<String>, err: &str) -> Diagnostic {
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    let keep = &lines[lines.len().saturating_sub(12)..];
    keep.iter().fold(Diagnostic::internal(label, message), |d, l| d.with_note(format!("stderr: {l}")))
}

/// Reads a stream to its end, keeping only the last `keep` bytes.
fn tail(mut r: impl Read, keep: usize) -> String {
    let mut kept: Vec<u8> = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > 2 * keep {
                    kept.drain(..kept.len() - keep);
                }
            }
        }
    }
    if kept.len() > keep {
        kept.drain(..kept.len() - keep);
    }
    String::from_utf8_lossy(&kept).into_owned()
}
