//! Batch execution: every task in its own limited child process, the tasks spread over timely
//! workers and processes, the results gathered in task order on process 0.
//!
//! - [`spec`]: what a task is, as sent to a child;
//! - [`child`]: the child's side (`duet-rs __task`);
//! - [`isolate`]: the parent's side of one task (limits, watchdog, classification);
//! - [`dist`]: the timely dataflow that spreads tasks and gathers results;
//! - [`connect`]: the sockets between the processes of a distributed batch;
//! - [`progress`]: the progress bar or lines on stderr;
//! - [`budget`]: the heap budget behind `--memory` inside a child;
//! - [`sys`]: the operating-system calls.

pub(crate) mod budget;
pub(crate) mod child;
pub(crate) mod connect;
pub(crate) mod dist;
pub(crate) mod isolate;
pub(crate) mod progress;
pub(crate) mod spec;
pub(crate) mod sys;

use crate::verdict::TaskRun;

use std::path::PathBuf;

pub use isolate::Limits;
pub use spec::TaskSpec;

/// Where the tasks run: timely workers in this process and, optionally, other processes.
#[derive(Clone, Debug)]
pub struct Distribution {
    /// Workers (tasks running at once) in each process.
    pub workers: usize,
    /// Processes taking part.
    pub processes: usize,
    /// This process's index, 0 for the one that reports.
    pub process: usize,
    /// Addresses (`host:port`, one a line) of the processes.
    pub hostfile: Option<PathBuf>,
}

impl Default for Distribution {
    fn default() -> Distribution {
        Distribution { workers: 1, processes: 1, process: 0, hostfile: None }
    }
}

/// How a batch runs.
#[derive(Clone, Debug)]
pub struct BatchConfig {
    /// Limits of each task.
    pub limits: Limits,
    /// Workers and processes.
    pub dist: Distribution,
    /// Progress display on process 0.
    pub progress: progress::Mode,
    /// The duet-rs binary that runs tasks (`__task`).
    pub exe: PathBuf,
    /// Prints each result on stdout as soon as every earlier one is in; `None` to stay quiet.
    pub stream: Option<fn(&TaskRun) -> String>,
}

/// Why a batch could not run to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// The processes could not be set up as asked (hostfile, addresses, mismatched
    /// batches); a usage error.
    Setup(String),
    /// The batch broke while running (a peer process died).
    Failed(String),
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Setup(m) | BatchError::Failed(m) => f.write_str(m),
        }
    }
}

impl BatchError {
    /// The exit code this error gives.
    pub fn exit_code(&self) -> i32 {
        match self {
            BatchError::Setup(_) => crate::diag::exit::USAGE,
            BatchError::Failed(_) => crate::diag::exit::INTERNAL,
        }
    }
}

/// Runs every task; process 0 gets `Some` with the results in task order, the other
/// processes `None` once their share has been delivered. The first SIGINT stops the batch:
/// no task starts, the running ones are killed, and both kinds come back as
/// [`crate::verdict::Outcome::Interrupted`] (see [`interrupted`]); a second one exits at once.
pub fn run(tasks: Vec<TaskSpec>, cfg: &BatchConfig) -> Result<Option<Vec<TaskRun>>, BatchError> {
    dist::run(tasks, cfg)
}

/// Whether an interrupt (SIGINT) stopped a batch of this process; the run then ends with
/// exit code 130 after reporting what finished.
pub fn interrupted() -> bool {
    sys::interrupted()
}
