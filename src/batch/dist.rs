//! The timely dataflow of a batch. Process `p` of `P` owns the tasks whose index is `p`
//! modulo `P`; its workers take them one at a time from a shared counter, so a long task
//! does not hold up the others of that process. Every worker sends "started" and
//! "finished" events through an exchange to worker 0 of process 0, which keeps the
//! progress display and puts the results back in task order. Output therefore depends only
//! on the task list, never on the worker or process count.

use super::connect;
use super::progress::Progress;
use super::{isolate, BatchConfig, BatchError, TaskSpec};
use crate::diag::Diagnostic;
use crate::verdict::TaskRun;
use crate::verdict::{Outcome, TaskResult};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::Hooks;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::{CommunicationConfig, WorkerConfig};

/// An event on its way to worker 0: (kind, task index, payload).
type Event = (u8, u64, String);
const STARTED: u8 = 1;
const FINISHED: u8 = 2;

/// How long a worker parks between looks at its running task.
const PARK: Duration = Duration::from_millis(5);

/// The addresses of the processes, from the hostfile or timely's default ports.
fn addresses(d: &super::Distribution) -> Result<Vec<String>, String> {
    match &d.hostfile {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read the hostfile {}: {e}", path.display()))?;
            let hosts: Vec<String> = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect();
            if hosts.len() < d.processes {
                return Err(format!("the hostfile {} lists {} address(es), but there are {} processes", path.display(), hosts.len(), d.processes));
            }
            Ok(hosts.into_iter().take(d.processes).collect())
        }
        // timely's own default, so that `-n` alone works on one machine.
        None => Ok((0..d.processes).map(|i| format!("localhost:{}", 2101 + i)).collect()),
    }
}

/// timely's communication for a distribution: threads in one process, or connected sockets.
fn communication(d: &super::Distribution, batch: &str) -> Result<(Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>), String> {
    let workers = d.workers.max(1);
    if d.processes <= 1 {
        return CommunicationConfig::Process(workers).try_build();
    }
    if d.process >= d.processes {
        return Err(format!("process index {} is not below the number of processes {}", d.process, d.processes));
    }
    let addrs = addresses(d)?;
    let me = connect::Greeting { process: d.process as u64, workers: workers as u64, batch: batch.to_string() };
    let sockets = connect::sockets(&addrs, &me)?;
    let hooks = Hooks::default();
    let local = ProcessBuilder::new_typed_vector(workers, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) = initialize_networking_from_sockets(local, sockets, d.process, workers, hooks).map_err(|e| format!("cannot start the network threads: {e}"))?;
    Ok((builders.into_iter().map(AllocatorBuilder::Tcp).collect(), Box::new(guard)))
}

/// A fingerprint of the task list and worker count, so the processes can tell that they were given the
/// same batch (FNV-1a: stable across builds, unlike the std hasher).
fn fingerprint(tasks: &[TaskSpec], workers: usize) -> String {
    let text = serde_json::to_string(&(tasks, workers)).unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}:{}", tasks.len())
}

/// What worker 0 of process 0 keeps.
struct Gather {
    results: Vec<Option<TaskRun>>,
    printed: usize,
    progress: Progress,
    stream: Option<fn(&TaskRun) -> String>,
    labels: Vec<String>,
}

impl Gather {
    fn take(&mut self, (kind, index, payload): Event) {
        let i = index as usize;
        match kind {
            STARTED if i < self.labels.len() => self.progress.started(i, &self.labels[i]),
            FINISHED if i < self.results.len() => {
                let run = serde_json::from_str::<TaskRun>(&payload).unwrap_or_else(|e| lost(&self.labels[i], &format!("its result could not be read back: {e}")));
                self.progress.finished(i, &run.result);
                self.results[i] = Some(run);
                self.flush();
            }
            _ => {}
        }
    }

    /// Prints the longest prefix of results that is complete and not yet printed.
    fn flush(&mut self) {
        let Some(render) = self.stream else { return };
        while let Some(Some(run)) = self.results.get(self.printed) {
            let text = render(run);
            self.progress.suspend(|| crate::diag::stdout::write(&text));
            self.printed += 1;
        }
    }
}

fn lost(label: &str, why: &str) -> TaskRun {
    TaskRun {
        result: TaskResult {
            file: label.to_string(),
            outcome: Outcome::Error(Diagnostic::internal(label, format!("the batch runner lost this task: {why}"))),
            seconds: 0.0,
            sections: Vec::new(),
            artifacts: Default::default(),
            races: None,
        },
        peak_memory_mb: None,
    }
}

/// A task that an interrupt kept from starting.
fn not_started(label: &str) -> TaskRun {
    TaskRun {
        result: TaskResult {
            file: label.to_string(),
            outcome: Outcome::Interrupted("not started: the batch was interrupted".to_string()),
            seconds: 0.0,
            sections: Vec::new(),
            artifacts: Default::default(),
            races: None,
        },
        peak_memory_mb: None,
    }
}

/// Runs the batch on timely; see [`super::run`].
pub(crate) fn run(tasks: Vec<TaskSpec>, cfg: &BatchConfig) -> Result<Option<Vec<TaskRun>>, BatchError> {
    super::sys::catch_interrupts();
    let d = &cfg.dist;
    let processes = d.processes.max(1);
    let process = d.process;
    let total = tasks.len();
    let print = fingerprint(&tasks, d.workers);
    let (builders, others) = communication(d, &print).map_err(BatchError::Setup)?;
    let mine: Arc<Vec<usize>> = Arc::new((0..total).filter(|i| i % processes == process).collect());
    let next = Arc::new(AtomicUsize::new(0));
    let tasks = Arc::new(tasks);
    let cfg = Arc::new(cfg.clone());

    let guards = timely::execute::execute_from(builders, others, WorkerConfig::default(), move |worker| {
        let leader = worker.index() == 0;
        let mut input: InputHandle<u64, CapacityContainerBuilder<Vec<Event>>> = InputHandle::new();
        let probe = ProbeHandle::new();
        let inbox: Rc<RefCell<Vec<Event>>> = Rc::new(RefCell::new(Vec::new()));
        let sink = inbox.clone();
        worker.dataflow::<u64, _, _>(|scope| {
            scope.input_from(&mut input).exchange(|_e: &Event| 0).inspect(move |e: &Event| sink.borrow_mut().push(e.clone())).probe_with(&probe);
        });
        let mut gather = leader.then(|| Gather {
            results: (0..total).map(|_| None).collect(),
            printed: 0,
            progress: Progress::new(cfg.progress, total),
            stream: cfg.stream,
            labels: tasks.iter().map(TaskSpec::label).collect(),
        });
        let drain = |gather: &mut Option<Gather>| {
            if let Some(g) = gather.as_mut() {
                let events: Vec<Event> = inbox.borrow_mut().drain(..).collect();
                for e in events {
                    g.take(e);
                }
                g.progress.tick();
            }
        };

        let mut running: Option<(usize, mpsc::Receiver<TaskRun>)> = None;
        loop {
            if running.is_none() {
                // After an interrupt no task starts; the gatherer marks the rest interrupted.
                if super::sys::interrupted() {
                    break;
                }
                let k = next.fetch_add(1, Ordering::SeqCst);
                if let Some(&i) = mine.get(k) {
                    let (tx, rx) = mpsc::channel();
                    let spec = tasks[i].clone();
                    let c = cfg.clone();
                    std::thread::spawn(move || {
                        let _ = tx.send(isolate::run(&c.exe, &spec, &c.limits));
                    });
                    input.send((STARTED, i as u64, String::new()));
                    input.flush();
                    running = Some((i, rx));
                } else {
                    break;
                }
            }
            if let Some((i, rx)) = &running {
                let done = match rx.try_recv() {
                    Ok(run) => Some(run),
                    Err(mpsc::TryRecvError::Empty) => None,
                    Err(mpsc::TryRecvError::Disconnected) => Some(lost(&tasks[*i].label(), "its runner thread stopped")),
                };
                if let Some(run) = done {
                    let payload = serde_json::to_string(&run).unwrap_or_default();
                    input.send((FINISHED, *i as u64, payload));
                    input.flush();
                    running = None;
                    worker.step();
                    drain(&mut gather);
                    continue;
                }
            }
            worker.step_or_park(Some(PARK));
            drain(&mut gather);
        }
        input.close();
        while !probe.done() {
            worker.step_or_park(Some(PARK));
            drain(&mut gather);
        }
        drain(&mut gather);
        gather.map(|mut g| {
            g.progress.finish();
            let interrupted = super::sys::interrupted();
            for (r, l) in g.results.iter_mut().zip(&g.labels) {
                if r.is_none() {
                    *r = Some(if interrupted { not_started(l) } else { lost(l, "no process reported it") });
                }
            }
            // The tasks filled in here are streamed too, so the text report lists every task.
            g.flush();
            g.results.into_iter().flatten().collect::<Vec<_>>()
        })
    })
    .map_err(BatchError::Failed)?;

    // A peer process that dies takes timely's network threads down with a panic, raised
    // again when the guards are dropped; that is the batch failing, not duet-rs crashing.
    let joined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guards.join())).map_err(|_| BatchError::Failed("lost the connection to another process of the batch".into()))?;
    let mut gathered = None;
    for r in joined {
        match r {
            Ok(Some(runs)) if process == 0 => gathered = Some(runs),
            Ok(_) => {}
            Err(e) => return Err(BatchError::Failed(format!("a batch worker failed: {e}"))),
        }
    }
    if process == 0 {
        gathered.map(Some).ok_or_else(|| BatchError::Failed("worker 0 returned no results".into()))
    } else {
        Ok(None)
    }
}
