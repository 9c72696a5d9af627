//! The loop each timely worker runs: apply a batch of input changes, run to completion, report.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::time::Duration;

use differential_dataflow::logging::{DifferentialEvent, DifferentialEventBuilder};
use timely::logging::{StartStop, TimelyEvent, TimelyEventBuilder};

use crate::dataflow::{build, Arr, Diff, Epoch, Row};
use crate::plan::Plan;

/// Changes to one relation's input in one epoch: flat rows in internal encoding.
pub(crate) struct Update {
    pub rel: usize,
    pub diff: Diff,
    pub count: usize,
    pub data: Vec<u32>,
}

/// A command from the engine to every worker.
pub(crate) enum Cmd {
    /// Apply `updates` at `epoch` and run until the epoch is complete.
    Step { epoch: Epoch, updates: Arc<Vec<Update>> },
    /// Report the time spent in each operator so far (empty unless profiling is on).
    Profile,
}

/// Consolidated changes to one observed relation, as seen by one worker.
pub(crate) struct RelChange {
    pub rel: usize,
    pub data: Vec<u32>,
    pub diffs: Vec<Diff>,
}

/// A worker's answer to a command.
pub(crate) struct Reply {
    pub changes: Vec<RelChange>,
    /// Per leaf operator: its name and the time spent running it.
    pub profile: Vec<(String, Duration)>,
    /// Per arrangement and `distinct`: its name and the updates (rows) it retains now.
    pub rows: Vec<(String, usize)>,
}

/// Operator run times collected from timely's event log.
#[derive(Default)]
struct Profiler {
    ops: HashMap<usize, (String, Vec<usize>)>,
    started: HashMap<usize, Duration>,
    total: HashMap<usize, Duration>,
    /// Updates held by each arrangement's trace, from differential's batch and merge events.
    held: HashMap<usize, isize>,
}

impl Profiler {
    fn record(&mut self, at: Duration, event: &TimelyEvent) {
        match event {
            TimelyEvent::Operates(o) => {
                self.ops.insert(o.id, (o.name.clone(), o.addr.clone()));
            }
            TimelyEvent::Schedule(s) => match s.start_stop {
                StartStop::Start => {
                    self.started.insert(s.id, at);
                }
                StartStop::Stop => {
                    if let Some(t0) = self.started.remove(&s.id) {
                        *self.total.entry(s.id).or_default() += at.saturating_sub(t0);
                    }
                }
            },
            _ => {}
        }
    }

    fn record_arrange(&mut self, event: &DifferentialEvent) {
        // Batch, merge and drop events balance (see differential's logging module), so their sum
        // is what each trace holds.
        let (op, d) = match event {
            DifferentialEvent::Batch(b) => (b.operator, b.length as isize),
            DifferentialEvent::Merge(m) => match m.complete {
                Some(n) => (m.operator, n as isize - m.length1 as isize - m.length2 as isize),
                None => return,
            },
            DifferentialEvent::Drop(d) => (d.operator, -(d.length as isize)),
            _ => return,
        };
        *self.held.entry(op).or_default() += d;
    }

    /// Updates held per arrangement, by operator name.
    fn rows(&self) -> Vec<(String, usize)> {
        self.held.iter().filter_map(|(id, n)| Some((self.ops.get(id)?.0.clone(), (*n).max(0) as usize))).collect()
    }

    /// Time per leaf operator; scopes are left out, since their time includes their children's.
    fn report(&self) -> Vec<(String, Duration)> {
        let scopes: std::collections::HashSet<&[usize]> = self.ops.values().filter_map(|(_, addr)| addr.split_last().map(|(_, p)| p)).collect();
        self.total
            .iter()
            .filter_map(|(id, t)| {
                let (name, addr) = self.ops.get(id)?;
                (!scopes.contains(addr.as_slice())).then(|| (name.clone(), *t))
            })
            .collect()
    }
}

/// Runs the worker loop for the plan's preset until the command channel closes.
pub(crate) fn run(worker: &mut timely::worker::Worker, plan: &Plan, observed: &[bool], fixed: &[bool], profile: bool, commands: Receiver<Cmd>, replies: Sender<Reply>) {
    let profiler = profile.then(|| {
        let p = Rc::new(RefCell::new(Profiler::default()));
        let sink = Rc::clone(&p);
        if let Some(mut registry) = worker.log_register() {
            registry.insert::<TimelyEventBuilder, _>("timely", move |_, data| {
                if let Some(events) = data {
                    let mut sink = sink.borrow_mut();
                    for (at, ev) in events.iter() {
                        sink.record(*at, ev);
                    }
                }
            });
            let sink = Rc::clone(&p);
            registry.insert::<DifferentialEventBuilder, _>("differential/arrange", move |_, data| {
                if let Some(events) = data {
                    let mut sink = sink.borrow_mut();
                    for (_, ev) in events.iter() {
                        sink.record_arrange(ev);
                    }
                }
            });
        }
        p
    });
    let io = (commands, replies, profiler);
    match (plan.key_width, plan.val_width) {
        (1, 1) => run_preset::<1, 1>(worker, plan, observed, fixed, io),
        (2, 2) => run_preset::<2, 2>(worker, plan, observed, fixed, io),
        (3, 3) => run_preset::<3, 3>(worker, plan, observed, fixed, io),
        _ => run_preset::<8, 8>(worker, plan, observed, fixed, io),
    }
}

fn to_row<const K: usize, const V: usize>(row: &[u32]) -> Row<K, V> {
    let mut k = Arr::<K>::ZERO;
    let mut v = Arr::<V>::ZERO;
    let split = row.len().min(K);
    k.0[..split].copy_from_slice(&row[..split]);
    v.0[..row.len() - split].copy_from_slice(&row[split..]);
    (k, v)
}

/// Sorts `v` by row and sums the diffs of equal rows, dropping zeros. The order among equal rows
/// does not matter here, so the sort need not be stable, and an unstable one is cheaper on the
/// millions of rows of a large relation.
fn consolidate_rows<const K: usize, const V: usize>(v: &mut Vec<(Row<K, V>, Diff)>) {
    v.sort_unstable_by_key(|a| a.0);
    let mut w = 0;
    let mut k = 0;
    while k < v.len() {
        let (row, mut d) = v[k];
        k += 1;
        while k < v.len() && v[k].0 == row {
            d += v[k].1;
            k += 1;
        }
        if d != 0 {
            v[w] = (row, d);
            w += 1;
        }
    }
    v.truncate(w);
}

type Io = (Receiver<Cmd>, Sender<Reply>, Option<Rc<RefCell<Profiler>>>);

fn run_preset<const K: usize, const V: usize>(worker: &mut timely::worker::Worker, plan: &Plan, observed: &[bool], fixed: &[bool], io: Io) {
    let (commands, replies, profiler) = io;
    let mut df = build::<K, V>(worker, plan, observed, fixed);
    let index = worker.index();
    let peers = worker.peers();
    while let Ok(cmd) = commands.recv() {
        let (epoch, updates) = match cmd {
            Cmd::Step { epoch, updates } => (epoch, updates),
            Cmd::Profile => {
                if let Some(mut registry) = worker.log_register() {
                    registry.flush();
                }
                let profile = profiler.as_ref().map(|p| p.borrow().report()).unwrap_or_default();
                let mut rows = profiler.as_ref().map(|p| p.borrow().rows()).unwrap_or_default();
                if profiler.is_some() {
                    rows.extend(df.distinct_rows.iter().map(|(name, n)| (name.clone(), n.get())));
                    // Every worker holds the whole table: report one copy, not one per worker.
                    if index == 0 {
                        rows.extend(df.table_rows(plan));
                    }
                }
                if replies.send(Reply { changes: Vec::new(), profile, rows }).is_err() {
                    break;
                }
                continue;
            }
        };
        // The engine refuses changes to a fixed relation after the first epoch, so the tables are
        // complete before any row is looked up in them.
        if epoch == 0 {
            df.fill_tables(plan, updates.iter().filter(|u| fixed[u.rel] && u.diff > 0).map(|u| (u.rel, u.data.as_slice(), u.count)));
        }
        // Each worker feeds a disjoint share of every batch; the dataflow exchanges as needed.
        for u in updates.iter() {
            let a = plan.arity[u.rel];
            let input = &mut df.inputs[u.rel];
            let mut i = index;
            while i < u.count {
                input.update(to_row::<K, V>(&u.data[i * a..(i + 1) * a]), u.diff);
                i += peers;
            }
        }
        if epoch == 0 && index == 0 {
            df.unit.update((Arr::ZERO, Arr::ZERO), 1);
        }
        let next = epoch + 1;
        for input in df.inputs.iter_mut() {
            input.advance_to(next);
            input.flush();
        }
        df.unit.advance_to(next);
        df.unit.flush();
        // Park rather than spin while waiting: with more workers than idle cores (or other
        // processes on the machine) a spinning worker steals the time its peers need.
        let probe = df.probe.clone();
        worker.step_or_park_while(None, || probe.less_than(&next));

        let mut changes = Vec::new();
        for (rel, buf) in df.outputs.iter().enumerate() {
            let Some(buf) = buf else { continue };
            let mut v = std::mem::take(&mut *buf.borrow_mut());
            if v.is_empty() {
                continue;
            }
            consolidate_rows(&mut v);
            let a = plan.arity[rel];
            let split = a.min(K);
            let mut data = Vec::with_capacity(v.len() * a);
            let mut diffs = Vec::with_capacity(v.len());
            for ((k, val), d) in v {
                data.extend_from_slice(&k.0[..split]);
                data.extend_from_slice(&val.0[..a - split]);
                diffs.push(d);
            }
            changes.push(RelChange { rel, data, diffs });
        }
        if replies.send(Reply { changes, profile: Vec::new(), rows: Vec::new() }).is_err() {
            break;
        }
    }
}
