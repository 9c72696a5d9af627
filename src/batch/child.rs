//! The task process (`duet-rs __task`): reads one [`ChildRequest`] on stdin, checks the file
//! and writes its [`TaskResult`] as JSON on stdout. Whatever goes wrong in here, the parent
//! sees it as this process's exit and turns it into the task's verdict.

use super::budget;
use super::spec::ChildRequest;
use super::sys;
use crate::diag::Diagnostic;
use crate::frontend::load_program;
use crate::verdict::{Outcome, TaskResult};
use std::io::{Read, Write};
use std::time::Instant;

/// The environment variable of the fault-injection hook the isolation tests use:
/// `MODE:TEXT[,MODE:TEXT...]` makes every task whose file path contains TEXT misbehave,
/// with MODE one of `spin` (loop forever), `sleep` (block forever), `alloc` (allocate
/// without end), `abort`, `segv` and `garbage` (print something that is not a result).
pub(crate) const FAULT_ENV: &str = "DUET_RS_FAULT_INJECTION";

/// Runs the task process and returns its exit code.
pub(crate) fn main() -> i32 {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        crate::stderr!("error: cannot read the task request: {e}");
        return crate::diag::exit::INTERNAL;
    }
    let req: ChildRequest = match serde_json::from_str(&input) {
        Ok(r) => r,
        Err(e) => {
            crate::stderr!("error: malformed task request: {e}");
            return crate::diag::exit::INTERNAL;
        }
    };
    if let Some(limit) = req.memory_bytes {
        // The budget covers the heap only; what is resident already (code, libraries) counts
        // against the limit too, as the parent measures the whole resident set. A tenth of the
        // limit is kept for what becomes resident later (code paged in, stacks, the
        // allocator's own pages): a CI run under load once peaked 24 MB above a 200 MB limit
        // with no margin, though the budget had stopped the allocations.
        let baseline = sys::own_resident_bytes().unwrap_or(0);
        budget::set(limit.saturating_sub(baseline).saturating_sub(limit / 10));
    }
    let label = req.spec.label();
    inject_fault(&label);
    let start = Instant::now();
    // A file's own pragma adds to the command line's flags; a bad one fails this file only.
    let loaded = crate::frontend::pragma::file_options(&req.spec.file, &req.spec.front).and_then(|front| load_program(&req.spec.file, &front));
    let (outcome, sections, artifacts, races) = match loaded {
        Ok(prog) => {
            let opts = req.spec.check.clone();
            let predict = req.spec.predict.clone();
            let race_opts = req.spec.races.clone();
            let run = move || {
                let only = race_opts.as_ref().is_some_and(|r| r.only);
                let r = match &predict {
                    Some(p) => crate::predict::run_program(&prog, p),
                    None if only => Default::default(),
                    None => crate::strategy::check_program(&prog, &opts),
                };
                let races = race_opts.map(|o| crate::races::check(&prog, &o).unwrap_or_else(|e| vec![crate::races::failed(e)]));
                (r, races)
            };
            match std::panic::catch_unwind(run) {
                Ok((r, races)) => (Outcome::Checked(r.verdicts), r.sections, r.artifacts, races),
                Err(_) => (Outcome::Error(Diagnostic::internal(&label, "the analysis crashed; please report this input")), Vec::new(), Default::default(), None),
            }
        }
        Err(d) => (Outcome::Error(d), Vec::new(), Default::default(), None),
    };
    let result = TaskResult { file: label, outcome, seconds: start.elapsed().as_secs_f64(), sections, artifacts, races };
    let text = match serde_json::to_string(&result) {
        Ok(t) => t,
        Err(e) => {
            crate::stderr!("error: cannot serialise the task result: {e}");
            return crate::diag::exit::INTERNAL;
        }
    };
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_err() {
        return crate::diag::exit::INTERNAL;
    }
    0
}

fn inject_fault(label: &str) {
    let Ok(spec) = std::env::var(FAULT_ENV) else { return };
    for item in spec.split(',') {
        let Some((mode, text)) = item.split_once(':') else { continue };
        if text.is_empty() || !label.contains(text) {
            continue;
        }
        match mode {
            "spin" => {
                let mut x: u64 = 0;
                loop {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
            }
            "sleep" => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
            "alloc" => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    // Touch every page so the memory is resident, as an analysis's would be.
                    hoard.push(vec![1u8; 8 << 20]);
                    std::hint::black_box(&hoard);
                }
            }
            "abort" => std::process::abort(),
            "segv" => {
                // SAFETY: deliberately dying of a fatal signal for the isolation tests; the
                // default action replaces std's handler, which would otherwise return.
                unsafe {
                    libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                    libc::raise(libc::SIGSEGV);
                }
            }
            "garbage" => {
                println!("this is not a task result");
                std::process::exit(0);
            }
            _ => {}
        }
    }
}
