//! The interference skeleton: every global access and synchronisation event of every thread
//! instance, as `(loc, val, occ)` tuples, with the partial order in which each thread (and
//! fork/join) makes them.

use super::term::{Terms, T};
use super::unroll::Unrolled;
use crate::ir::{AbsLoc, AssertId, LocId};

/// What an event is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EvKind {
    /// A read of shared memory; its value is a fresh unknown.
    Read {
        /// A mutex cell read by a lock operation (mutexes start unlocked whatever their storage).
        mutex: bool,
    },
    /// A write of shared memory.
    Write,
    /// A thread creation (the child's events follow it).
    Fork {
        /// The instances created (none: the thread is never scheduled).
        children: Vec<u32>,
    },
    /// `pthread_join`: waits for the thread whose handle is `val`.
    Join {
        /// True when the join completes: some modelled thread with that handle has ended.
        joined: T,
    },
    /// The thread ended.
    End,
    /// `abort()` or `exit()`: the whole program stops.
    Halt,
    /// An assertion fails here (`occ` includes the failing condition).
    Fail(AssertId),
    /// Entering an atomic section.
    AtomicBegin,
    /// Leaving an atomic section.
    AtomicEnd,
}

/// One event of the skeleton.
#[derive(Clone, Debug)]
pub(crate) struct Event {
    /// Kind.
    pub kind: EvKind,
    /// The thread instance.
    pub thread: u32,
    /// Node of the instance's unrolled graph.
    pub node: u32,
    /// The IR location.
    pub loc: LocId,
    /// Address (reads and writes).
    pub addr: T,
    /// Value read or written; the handle for a join.
    pub val: T,
    /// Condition under which it happens.
    pub occ: T,
    /// The atomic unit it belongs to (events of one unit execute without interruption).
    pub unit: u32,
    /// Position inside its unit.
    pub rank: u32,
    /// Events that immediately precede it (program order, fork).
    pub preds: Vec<u32>,
    /// The abstract location of the lvalue accessed, for COARSEN's hints.
    pub absloc: Option<AbsLoc>,
}

impl Event {
    /// True for reads.
    pub(crate) fn is_read(&self) -> bool {
        matches!(self.kind, EvKind::Read { .. })
    }

    /// True for writes.
    pub(crate) fn is_write(&self) -> bool {
        matches!(self.kind, EvKind::Write)
    }
}

/// What the summary knows about one node of an instance's unrolled graph.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeInfo {
    /// The node was reached with a path condition that is not syntactically false.
    pub reached: bool,
    /// Path condition on entry.
    pub psi_in: Option<T>,
    /// Path condition after its guard (an assume, a lock, a join).
    pub psi_out: Option<T>,
    /// The unknown that picks a successor at a nondeterministic branch.
    pub choice: Option<T>,
    /// At a branch between complementary guards: whether the first successor's guard holds on
    /// this node's own path. The successors' path conditions cannot tell when a successor is
    /// shared with other paths (a loop exit every iteration reaches).
    pub branch: Option<T>,
    /// Unknowns of the `Nondet` expressions it evaluates, in evaluation order.
    pub nondets: Vec<T>,
    /// Its events, in order.
    pub events: Vec<u32>,
    /// The instances a fork here creates.
    pub children: Vec<u32>,
}

/// One thread instance.
#[derive(Clone, Debug)]
pub(crate) struct Instance {
    /// Its number; the handle `pthread_create` stores for it.
    pub id: u32,
    /// The fork event that creates it.
    pub fork: Option<u32>,
    /// Index of its template's unrolled graph.
    pub graph: usize,
    /// Per node of that graph.
    pub nodes: Vec<NodeInfo>,
    /// Its `End` events (one per way of ending).
    pub ends: Vec<u32>,
}

/// The whole bounded program, summarised.
pub(crate) struct Skeleton {
    /// Term store.
    pub terms: Terms,
    /// Unrolled graph per template (index by `Instance::graph`).
    pub graphs: Vec<Unrolled>,
    /// Thread instances; 0 is the root.
    pub instances: Vec<Instance>,
    /// All events.
    pub events: Vec<Event>,
    /// Number of atomic units.
    pub units: u32,
    /// Side constraints (ranges of initial values, join completion).
    pub constraints: Vec<T>,
    /// "No signed overflow here" conditions (C leaves signed overflow undefined): assumed only
    /// when searching again for a witness after one that overflowed.
    pub no_overflow: Vec<T>,
    /// Path conditions of the havoc nodes summarising loops beyond the bound.
    pub havoc_taken: Vec<T>,
    /// Path conditions under which a value of one of the IR's over-approximations (a call the
    /// front-end does not model exactly) is read.
    pub approx_taken: Vec<T>,
    /// Over-approximations made (floating point, aggregate loads), with where.
    pub approximations: Vec<String>,
    /// Where the bound cut a loop, by header.
    pub cut_loops: Vec<LocId>,
    /// Loops whose further iterations were summarised by a havoc.
    pub havoc_loops: Vec<LocId>,
    /// Forks beyond the instance bound (threads created but never scheduled).
    pub unscheduled_forks: u32,
    /// Notes on what makes the exploration incomplete beyond the bounds.
    pub incomplete: Vec<String>,
}
