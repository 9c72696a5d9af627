//! The loop each timely worker runs: apply a batch of input changes, run to completion, report.

use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;

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
}

/// Consolidated changes to one observed relation, as seen by one worker.
pub(crate) struct RelChange {
    pub rel: usize,
    pub data: Vec<u32>,
    pub diffs: Vec<Diff>,
}

/// A worker's answer to a [`Cmd::Step`].
pub(crate) struct Reply {
    pub changes: Vec<RelChange>,
}

/// Runs the worker loop for the plan's preset until the command channel closes.
pub(crate) fn run(
    worker: &mut timely::worker::Worker,
    plan: &Plan,
    observed: &[bool],
    commands: Receiver<Cmd>,
    replies: Sender<Reply>,
) {
    match (plan.key_width, plan.val_width) {
        (1, 1) => run_preset::<1, 1>(worker, plan, observed, commands, replies),
        (2, 2) => run_preset::<2, 2>(worker, plan, observed, commands, replies),
        (3, 3) => run_preset::<3, 3>(worker, plan, observed, commands, replies),
        (4, 4) => run_preset::<4, 4>(worker, plan, observed, commands, replies),
        _ => run_preset::<8, 8>(worker, plan, observed, commands, replies),
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

fn run_preset<const K: usize, const V: usize>(
    worker: &mut timely::worker::Worker,
    plan: &Plan,
    observed: &[bool],
    commands: Receiver<Cmd>,
    replies: Sender<Reply>,
) {
    let mut df = build::<K, V>(worker, plan, observed);
    let index = worker.index();
    let peers = worker.peers();
    while let Ok(Cmd::Step { epoch, updates }) = commands.recv() {
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
        let probe = df.probe.clone();
        worker.step_while(|| probe.less_than(&next));

        let mut changes = Vec::new();
        for (rel, buf) in df.outputs.iter().enumerate() {
            let Some(buf) = buf else { continue };
            let mut v = std::mem::take(&mut *buf.borrow_mut());
            if v.is_empty() {
                continue;
            }
            differential_dataflow::consolidation::consolidate(&mut v);
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
        if replies.send(Reply { changes }).is_err() {
            break;
        }
    }
}
