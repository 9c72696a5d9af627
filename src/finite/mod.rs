//! The finite-state engine: thread-modular verification with exception sets (Malkis,
//! Podelski and Rybalchenko, SAS 2007) on a finite projection of the program.
//!
//! [`model`] projects the IR onto locations and the small variables assertions and branches
//! depend on; [`cartesian`] computes the Cartesian abstract fixpoint refined by exception
//! sets ([`exceptions`]: Section 5's construction for flags and locks, or a file); when a
//! failing state survives, [`refine`] grows an exception set from the failing states that the
//! abstraction glued together (counterexample-guided), and if that does not settle it within
//! its budget, [`explicit`] refines the exception set to every reachable state of the
//! projection, within a budget. Threads running identical code form one class and are
//! abstracted symmetrically, so the cost does not grow with their number. Proofs hold for the
//! thread set the program creates (each template once per creation); for a template created
//! unboundedly, for every number of its threads (the parameterized abstraction: its class has
//! any number of copies), or, when asked, for a given number of instances; the outcome says
//! which.

pub mod cartesian;
pub(crate) mod copies;
pub mod derefs;
pub mod exceptions;
pub mod explicit;
pub mod model;
pub mod movers;
pub mod products;
pub mod refine;
pub(crate) mod space;
pub mod transactions;

use crate::diag::Diagnostic;
use crate::ir::{AssertId, Program};
use exceptions::ExceptionSpec;
use std::path::Path;

/// How the engine runs.
#[derive(Clone, Debug)]
pub struct FiniteOptions {
    /// Use Section 5's exceptions for flags and locks.
    pub auto_exceptions: bool,
    /// Exceptions from a file (already parsed).
    pub exceptions: Option<ExceptionSpec>,
    /// When the Cartesian fixpoint does not prove an assertion, refine: the refinement loop
    /// (if `refine`), then the exact exploration of the projection.
    pub exact_fallback: bool,
    /// Run the counterexample-guided refinement loop ([`refine`]) before the exact
    /// exploration. Off by default: on every protocol measured it costs more than the exact
    /// exploration (`benchmarks/finite/results-refine-20261127.md`).
    pub refine: bool,
    /// States the exact exploration may keep (products, where it keeps products).
    pub max_states: usize,
    /// Global or local stores (each) the projection may have.
    pub max_stores: usize,
    /// Stores the Cartesian phase may create before it gives way to the exact exploration
    /// (without exceptions, counters run up to the value bound there).
    pub cartesian_stores: usize,
    /// Instances of each unboundedly created template; without it such templates get any
    /// number of threads (proofs then hold for every number).
    pub instances: Option<u32>,
    /// Unboundedly created templates whose creation loops are counted, with the most threads
    /// any execution creates: they get that many, and proofs hold for the program as created.
    pub counts: std::collections::HashMap<crate::ir::TemplateId, u32>,
    /// When to give up: past it both phases stop and the open assertions are not proved.
    pub deadline: Option<std::time::Instant>,
    /// Facts of every execution proved by another analysis (COARSEN), which cut the
    /// projection's spurious steps.
    pub invariants: Option<Invariants>,
}

/// What another analysis proved of every execution of the program, for any number of
/// threads, in terms of the IR: the projection uses it to drop steps no execution takes.
#[derive(Clone, Debug, Default)]
pub struct Invariants {
    /// Per location: whether some thread may reach it.
    pub reached: Vec<bool>,
    /// Per location: bounds (`None`: unbounded on that side) of scalar variables that its
    /// action reads, holding for every value read when the action executes.
    pub reads: Vec<Vec<ReadBound>>,
}

/// A variable read by name, with the bounds of every value read (`None`: unbounded that side).
pub type ReadBound = (crate::ir::VarId, Option<i128>, Option<i128>);

impl Default for FiniteOptions {
    fn default() -> Self {
        FiniteOptions {
            auto_exceptions: true,
            exceptions: None,
            exact_fallback: true,
            refine: false,
            max_states: 16_000_000,
            max_stores: 200_000,
            cartesian_stores: 4_000,
            instances: None,
            counts: Default::default(),
            deadline: None,
            invariants: None,
        }
    }
}

/// Which thread counts a proof covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThreadClaim {
    /// The threads the program creates, each creation site once: the program's own instance.
    AsCreated,
    /// This many instances of every unboundedly created template (not every number).
    Instances(u32),
    /// Every number of threads of the unboundedly created templates (named here).
    Every(Vec<String>),
}

/// How an assertion was proved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// Cartesian abstraction alone (thread-modular).
    Cartesian,
    /// Cartesian abstraction refined by exception sets.
    Exceptions,
    /// The exception set grown by the refinement loop from spurious failing states.
    Refined,
    /// The exception set refined to every reachable state of the projection.
    Exact,
}

/// The engine's answer for one assertion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FiniteStatus {
    /// Holds in every interleaving of the claimed threads.
    Proved {
        /// Which analysis proved it.
        method: Method,
        /// For which thread counts.
        threads: ThreadClaim,
    },
    /// A state of the over-approximation fails it (possibly a spurious one).
    NotProved(String),
    /// The engine does not apply to this program.
    Declined(String),
}

/// One assertion's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FiniteOutcome {
    /// The assertion.
    pub assertion: AssertId,
    /// What the engine found.
    pub status: FiniteStatus,
    /// Steps of the projection that [`FiniteOptions::invariants`] cut or narrowed, over the
    /// whole run (0: the invariants changed nothing).
    pub cut: u64,
}

impl FiniteOutcome {
    /// True when the assertion was proved.
    pub fn proved(&self) -> bool {
        matches!(self.status, FiniteStatus::Proved { .. })
    }
}

/// The reachable states of the projection, one way or the other.
enum Exact<'m, 'p> {
    States(explicit::Explicit<'m, 'p>),
    Products(products::Products<'m, 'p>),
}

impl Exact<'_, '_> {
    fn failures(&self, a: AssertId) -> Vec<String> {
        match self {
            Exact::States(x) => x.failures(a),
            Exact::Products(x) => x.failures(a),
        }
    }
}

/// Fixpoints the refinement loop may compute before the exact exploration takes over.
const REFINE_ROUNDS: usize = 200;

/// Reads an exceptions file and checks its names against the program.
pub fn load_exceptions(path: &Path, prog: &Program, opts: &FiniteOptions) -> Result<ExceptionSpec, Diagnostic> {
    let direct = derefs::direct(prog);
    let prog = direct.as_ref().unwrap_or(prog);
    let display = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Diagnostic::file(&display, format!("cannot read the exceptions file: {e}")))?;
    let spec = ExceptionSpec::parse(&display, &text)?;
    if let Ok(m) = model::Model::build_counted(prog, opts.instances, &opts.counts, false) {
        spec.resolve(&m)?;
    }
    Ok(spec)
}

/// Tries to prove the open assertions.
pub fn prove(prog: &Program, open: &[AssertId], opts: &FiniteOptions) -> Vec<FiniteOutcome> {
    let direct = derefs::direct(prog);
    let prog = direct.as_ref().unwrap_or(prog);
    let all = |status: FiniteStatus| open.iter().map(|&a| FiniteOutcome { cut: 0, assertion: a, status: status.clone() }).collect();
    // An exceptions file names templates, so identical ones stay apart for it.
    let mut m = match model::Model::build_counted(prog, opts.instances, &opts.counts, opts.exceptions.is_none()) {
        Ok(m) => m,
        Err(why) => return all(FiniteStatus::Declined(why)),
    };
    if let Some(inv) = &opts.invariants {
        m.narrow(inv);
    }
    let unbounded: Vec<String> = prog
        .templates
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(i, t)| t.multiplicity == crate::ir::Multiplicity::Unbounded && !opts.counts.contains_key(&crate::ir::TemplateId(*i as u32)))
        .map(|(_, t)| t.name.clone())
        .collect();
    let threads = match opts.instances {
        _ if unbounded.is_empty() => ThreadClaim::AsCreated,
        Some(k) => ThreadClaim::Instances(k),
        None => ThreadClaim::Every(unbounded),
    };
    let products = match &opts.exceptions {
        Some(spec) => match spec.resolve(&m) {
            Ok(p) => p,
            Err(d) => return all(FiniteStatus::Declined(d.to_string())),
        },
        None => Vec::new(),
    };
    let families = if opts.auto_exceptions { exceptions::families(&m) } else { Vec::new() };
    let method = if families.is_empty() && products.is_empty() { Method::Cartesian } else { Method::Exceptions };
    let mut out: Vec<FiniteOutcome> = Vec::new();
    let mut left = Vec::new();
    match cartesian::Cartesian::run(&m, families, products, opts.cartesian_stores.min(opts.max_stores), opts.deadline) {
        Ok(c) => {
            for &a in open {
                let f = c.failures(a);
                if f.is_empty() {
                    out.push(FiniteOutcome { cut: 0, assertion: a, status: FiniteStatus::Proved { method, threads: threads.clone() } });
                } else {
                    left.push((a, format!("the Cartesian fixpoint holds a failing state: {}", f[0])));
                }
            }
        }
        Err(why) => left.extend(open.iter().map(|&a| (a, why.clone()))),
    }
    if !left.is_empty() && opts.exact_fallback && opts.refine && m.classes.iter().all(|c| c.count.is_some()) {
        // Half the time left, so that the exact exploration keeps its chance; and the Cartesian
        // phase's store budget, since the loop's first round is the plain Cartesian fixpoint.
        let deadline = opts.deadline.map(|d| {
            let now = std::time::Instant::now();
            now + d.saturating_duration_since(now) / 2
        });
        let budget = refine::Budget { rounds: REFINE_ROUNDS, max_states: opts.max_states / 4, max_stores: opts.cartesian_stores.min(opts.max_stores), deadline };
        let asked: Vec<AssertId> = left.iter().map(|(a, _)| *a).collect();
        let r = refine::refine(&m, &asked, budget);
        let mut still = Vec::new();
        for ((a, why), (_, v)) in left.drain(..).zip(r.verdicts) {
            match v {
                refine::Verdict::Proved => out.push(FiniteOutcome { cut: 0, assertion: a, status: FiniteStatus::Proved { method: Method::Refined, threads: threads.clone() } }),
                // A real path of the projection: the exact exploration would only find it again.
                refine::Verdict::Reached(s) => out.push(FiniteOutcome { cut: 0, assertion: a, status: FiniteStatus::NotProved(format!("{why}; the projection reaches a failing state: {s}")) }),
                refine::Verdict::Open(e) => still.push((a, format!("{why}; {e}"))),
            }
        }
        left = still;
    }
    if !left.is_empty() && opts.exact_fallback {
        // Interchangeable threads are best stored one state per orbit (sorted); threads that
        // differ are stored as products per global store, which is exact too and far smaller
        // where they wait independently of each other (the filter lock at n = 5: 11.6 s
        // instead of 134 s, `benchmarks/finite/results-products-20261129.md`).
        let symmetric = m.classes.iter().any(|c| c.count.is_some_and(|n| n > 1));
        let run = if symmetric {
            explicit::Explicit::run(&m, opts.max_stores, opts.max_states, opts.deadline).map(Exact::States)
        } else {
            products::Products::run(&m, opts.max_stores, opts.max_states, opts.deadline).map(Exact::Products)
        };
        match run {
            Ok(x) => {
                for (a, why) in left.drain(..) {
                    let f = x.failures(a);
                    let status = if f.is_empty() {
                        FiniteStatus::Proved { method: Method::Exact, threads: threads.clone() }
                    } else {
                        FiniteStatus::NotProved(format!("{why}; the projection reaches a failing state: {}", f[0]))
                    };
                    out.push(FiniteOutcome { cut: 0, assertion: a, status });
                }
            }
            Err(e) => {
                for (a, why) in left.drain(..) {
                    out.push(FiniteOutcome { cut: 0, assertion: a, status: FiniteStatus::NotProved(format!("{why}; {e}")) });
                }
            }
        }
    }
    for (a, why) in left {
        out.push(FiniteOutcome { cut: 0, assertion: a, status: FiniteStatus::NotProved(why) });
    }
    let cut = m.cut();
    for o in &mut out {
        o.cut = cut;
    }
    out.sort_by_key(|o| o.assertion);
    out
}
