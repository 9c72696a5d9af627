//! Data races for any number of threads (`check --races`).
//!
//! A race is two accesses to the same memory cell by two threads, at least one a write, neither
//! inside an atomic section, that can be adjacent in some execution. The engine works in two
//! steps:
//! - candidates: the Datalog rules `rules/races.dl` (or `--race-rules FILE`) derive, from the
//!   facts COARSEN exports for its interference analysis (control flow, forks and their
//!   multiplicity, must-held locks, atomic sections, definite joins) and the accesses of the
//!   alias model, every pair of conflicting accesses that may happen in parallel with no common
//!   lock. A pair they do not derive cannot race, for every number of threads: an abstract
//!   location that stands for many cells is treated as one cell, which only adds pairs;
//! - replay (`replay.rs`): an explicit-state search over the interpreter's states looks for a
//!   state from which one thread's access and then the other's execute back to back on the same
//!   address, with nothing resting on an approximation. Only such a pair is a `race`; a
//!   candidate the search does not show is `unknown`.
//!
//! COARSEN's must-held locks come from `coarsen::locks`: this engine is a client of COARSEN's
//! facts, as `predict` is of the bounded search's replay.

mod guards;
mod replay;
pub(crate) mod rules;

use crate::coarsen::locks;
use crate::interp::layout::Layout;
use crate::ir::memory::{AbsKind, AbsLoc};
use crate::ir::{display, Action, CType, Expr, LocId, Program};
use crate::verdict::races::{RaceAccess, RacePair, RaceStatus, RaceVerdict};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What `--races` asks for.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RaceOptions {
    /// Report races instead of the assertion verdicts.
    #[serde(default)]
    pub only: bool,
    /// A Datalog file replacing the built-in race rules.
    #[serde(default)]
    pub rules: Option<PathBuf>,
    /// Seconds the replay search may spend.
    #[serde(default = "default_replay_time")]
    pub replay_time: f64,
    /// Most distinct states the replay search stores.
    #[serde(default = "default_replay_states")]
    pub replay_states: usize,
}

fn default_replay_time() -> f64 {
    10.0
}

fn default_replay_states() -> usize {
    300_000
}

impl Default for RaceOptions {
    fn default() -> Self {
        RaceOptions { only: false, rules: None, replay_time: default_replay_time(), replay_states: default_replay_states() }
    }
}

/// One access of a location to a shared abstract location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Access {
    loc: LocId,
    x: AbsLoc,
    write: bool,
}

/// The verdicts on every shared memory location the program's threads access, sorted by name.
pub fn check(prog: &Program, opts: &RaceOptions) -> Result<Vec<RaceVerdict>, String> {
    let rules = rules::load(opts.rules.as_deref())?;
    let lk = locks::analyse(prog);
    let held = &lk.held;
    let accesses = accesses(prog);
    let candidates = rules::candidates(&rules, prog, &lk, &accesses)?;
    // Two atomic accesses never race (C11 5.1.2.4): an atomic section or an `_Atomic` object
    // named directly on each side. The rules see the sections only.
    let atomic = atomic_accesses(prog, &accesses);
    let atomic_side = |l: LocId, x: AbsLoc| prog.loc(l).atomic || atomic.contains(&(l, x));
    let candidates: Vec<(LocId, LocId, AbsLoc)> = candidates.into_iter().filter(|&(a, b, x)| !(atomic_side(a, x) && atomic_side(b, x))).collect();
    let custom = opts.rules.as_ref().map(|p| format!(" under the race rules of {} (may be unsound)", p.display()));
    let custom = custom.unwrap_or_default();

    // The whole program is beyond the IR: nothing can be claimed.
    if let Some(u) = prog.unsupported.first() {
        let why = format!("unknown: the program uses an unsupported construct ({} at {})", u.construct, prog.span_str(u.span));
        return Ok(memories(&accesses).into_iter().map(|x| RaceVerdict { memory: display::source_name(prog, x), status: RaceStatus::Unknown, reason: why.clone(), pairs: Vec::new() }).collect());
    }

    // Replay every candidate pair whose accesses are both the program's own.
    let havoc: Vec<bool> = prog.locs.iter().map(|l| action_havocs(&l.action)).collect();
    let real: Vec<(LocId, LocId)> = candidates.iter().filter(|(a, b, _)| !havoc[a.index()] && !havoc[b.index()]).map(|(a, b, _)| (*a, *b)).collect();
    let layout = Layout::new(prog);
    let deadline = Instant::now() + Duration::from_secs_f64(opts.replay_time.max(0.0));
    let replayed = replay::search(prog, &layout, &real, deadline, opts.replay_states);

    // Group the IR pairs by what the report shows: inlined copies of one access are one access.
    let side = |l: LocId, x: AbsLoc| {
        let loc = prog.loc(l);
        let write = accesses.binary_search(&Access { loc: l, x, write: true }).is_ok();
        RaceAccess { at: prog.span_str(loc.span), write, locks: held[l.index()].iter().map(|k| prog.memory.locks[k.0 as usize].clone()).collect(), thread: prog.template(loc.template).name.clone() }
    };
    let mut groups: BTreeMap<(AbsLoc, String, String), RacePair> = BTreeMap::new();
    for (a, b, x) in &candidates {
        let (mut sa, mut sb) = (side(*a, *x), side(*b, *x));
        if (&sb.at, sb.write, &sb.thread) < (&sa.at, sa.write, &sa.thread) {
            std::mem::swap(&mut sa, &mut sb);
        }
        let key = (*x, format!("{}|{}|{}", sa.at, sa.write, sa.thread), format!("{}|{}|{}", sb.at, sb.write, sb.thread));
        let found = replayed.get(&(*a, *b)).or_else(|| replayed.get(&(*b, *a)));
        let pair = match found {
            // The replay does not know which accesses C makes atomic through a member or a pointer.
            Some(_) if prog.atomic_elsewhere => RacePair {
                status: RaceStatus::Unknown,
                reason: "unknown: replayed, but an access may be to an `_Atomic` object through a member or a pointer, which is no race".into(),
                accesses: [sa, sb],
                interleaving: Vec::new(),
            },
            Some(steps) => RacePair {
                status: RaceStatus::Race,
                reason: format!("race: replayed in {} steps, the two accesses adjacent (an atomic section one step)", steps.len()),
                accesses: [sa, sb],
                interleaving: steps.clone(),
            },
            None if havoc[a.index()] || havoc[b.index()] => {
                let l = if havoc[a.index()] { a } else { b };
                RacePair {
                    status: RaceStatus::Unknown,
                    reason: format!("unknown: may race; the access at {} stands for an unmodelled call", prog.span_str(prog.loc(*l).span)),
                    accesses: [sa, sb],
                    interleaving: Vec::new(),
                }
            }
            None => RacePair { status: RaceStatus::Unknown, reason: format!("unknown: may race{custom}; no interleaving replayed"), accesses: [sa, sb], interleaving: Vec::new() },
        };
        match groups.get_mut(&key) {
            Some(p) if p.status == RaceStatus::Race => {}
            Some(p) if pair.status == RaceStatus::Race => *p = pair,
            Some(_) => {}
            None => {
                groups.insert(key, pair);
            }
        }
    }
    let mut by_memory: BTreeMap<AbsLoc, Vec<RacePair>> = BTreeMap::new();
    for ((x, _, _), p) in groups {
        by_memory.entry(x).or_default().push(p);
    }
    let incomplete = prog.incomplete_approximation();
    let mut out: Vec<RaceVerdict> = Vec::new();
    for x in memories(&accesses) {
        let pairs = by_memory.remove(&x).unwrap_or_default();
        let name = display::source_name(prog, x);
        let writers: BTreeSet<LocId> = accesses.iter().filter(|a| a.x == x && a.write).map(|a| a.loc).collect();
        let (status, reason) = if pairs.iter().any(|p| p.status == RaceStatus::Race) {
            (RaceStatus::Race, format!("race: {} pair(s) replayed", pairs.iter().filter(|p| p.status == RaceStatus::Race).count()))
        } else if !pairs.is_empty() {
            (RaceStatus::Unknown, format!("unknown: {} pair(s) may race, none replayed", pairs.len()))
        } else if let Some(a) = incomplete {
            (RaceStatus::Unknown, format!("unknown: {} may access it unseen", prog.approx_str(a)))
        } else if let Some((f, at)) = prog.external_calls.first() {
            // Code without a definition may read any object it can name, or call back
            // functions whose address it received, none of which the program shows.
            (RaceStatus::Unknown, format!("unknown: the call of `{f}` at {}, which has no definition, may access it unseen", prog.span_str(*at)))
        } else if writers.is_empty() {
            (RaceStatus::RaceFree, format!("race-free: only read{custom}"))
        } else {
            (RaceStatus::RaceFree, format!("race-free{custom}: no two conflicting accesses may happen in parallel without a common lock, for any number of threads"))
        };
        out.push(RaceVerdict { memory: name, status, reason, pairs });
    }
    out.sort_by(|a, b| a.memory.cmp(&b.memory));
    if let Some((f, at)) = prog.external_calls.first() {
        out.push(RaceVerdict {
            memory: "*".into(),
            status: RaceStatus::Unknown,
            reason: format!("unknown: the call of `{f}` at {}, which has no definition, may run code or access memory unseen", prog.span_str(*at)),
            pairs: Vec::new(),
        });
    }
    Ok(out)
}

/// The verdict standing for every memory location when the engine could not run.
pub fn failed(why: String) -> RaceVerdict {
    RaceVerdict { memory: "*".into(), status: RaceStatus::Unknown, reason: format!("unknown: the race analysis failed: {why}"), pairs: Vec::new() }
}

/// The shared abstract locations some thread accesses.
fn memories(accesses: &[Access]) -> Vec<AbsLoc> {
    let set: BTreeSet<AbsLoc> = accesses.iter().map(|a| a.x).collect();
    set.into_iter().collect()
}

/// Every location's accesses to shared memory, sorted. Lock operations touch their mutex
/// through the lock's own semantics, and an `assume` or `assert` only reads what it
/// mentions (the alias model counts it as refining, DUET's `mod`). A location of the root
/// that runs before any thread exists is left out: nothing can run beside it.
fn accesses(prog: &Program) -> Vec<Access> {
    let alone = alone(prog);
    let mut out = Vec::new();
    for (i, loc) in prog.locs.iter().enumerate() {
        if alone[i] {
            continue;
        }
        let reads_only = match &loc.action {
            Action::Skip | Action::Halt(_) | Action::AtomicBegin | Action::AtomicEnd | Action::Acquire(_) | Action::Release(_) | Action::LockBusy(_) => continue,
            Action::Assume(_) | Action::Assert(..) => true,
            _ => false,
        };
        let acc = prog.memory.access(LocId(i as u32));
        let shared = |x: &&AbsLoc| prog.memory.info(**x).shared && !sync_object(prog, **x);
        for x in acc.mods.iter().filter(shared) {
            out.push(Access { loc: LocId(i as u32), x: *x, write: !reads_only });
        }
        for x in acc.refs.iter().filter(shared) {
            out.push(Access { loc: LocId(i as u32), x: *x, write: false });
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The accesses `(location, memory)` to an `_Atomic` object: every lvalue of the action
/// that may touch the memory names an `_Atomic` variable directly (no pointer on the way).
fn atomic_accesses(prog: &Program, accesses: &[Access]) -> HashSet<(LocId, AbsLoc)> {
    let mut out = HashSet::new();
    if prog.atomic_vars.is_empty() {
        return out;
    }
    for a in accesses {
        let (mut any, mut all) = (false, true);
        crate::ir::visit::action_lvals(&prog.loc(a.loc).action, &mut |lv| {
            if prog.memory.targets(prog, lv).contains(&a.x) {
                any = true;
                all &= lv.root_var().is_some_and(|v| prog.atomic_vars.binary_search(&v).is_ok());
            }
        });
        if any && all {
            out.insert((a.loc, a.x));
        }
    }
    out
}

/// Whether the location is (part of) a synchronisation object the front-end models on an
/// integer (`pthread_once_t`, semaphores, read-write locks, barriers, spin locks): its
/// accesses are the model's, synchronised by the library, not the program's data.
fn sync_object(prog: &Program, x: AbsLoc) -> bool {
    fn named(t: &CType) -> bool {
        match t {
            CType::Array(e, _) => named(e),
            CType::Int(_, n) => matches!(n.as_str(), "pthread_once_t" | "sem_t" | "pthread_rwlock_t" | "pthread_barrier_t" | "pthread_spinlock_t"),
            _ => false,
        }
    }
    match &prog.memory.info(x).kind {
        AbsKind::Var(v) | AbsKind::Cell(v, _) => named(&prog.var(*v).ty),
        _ => false,
    }
}

/// The root's locations that run before its first fork, on every path (its deterministic
/// prefix): no other thread exists there.
fn alone(prog: &Program) -> Vec<bool> {
    let mut out = vec![false; prog.locs.len()];
    for l in crate::ir::visit::root_prefix(prog) {
        out[l.index()] = true;
    }
    out
}

/// Whether the action evaluates a value the IR makes up for an unmodelled construct (an
/// undefined function's effect on the objects passed to it).
fn action_havocs(a: &Action) -> bool {
    let mut found = false;
    crate::ir::visit::action_exprs(a, &mut |e| found |= matches!(e, Expr::Havoc(..)));
    found
}
