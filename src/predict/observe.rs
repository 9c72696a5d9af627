//! One observed run: the IR interpreter driven by a seeded random scheduler, recording every
//! step it takes (the trace the CTP is built from).

use crate::interp::layout::Layout;
use crate::interp::{nondet_types, Executed, Interp, Step};
use crate::ir::{Action, AssertId, Halt, LocId, Program, TemplateId, Ty};

/// A small deterministic generator (SplitMix64): runs depend only on the seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles a slice in place.
    pub fn shuffle<X>(&mut self, xs: &mut [X]) {
        for i in (1..xs.len()).rev() {
            let j = self.below(i + 1);
            xs.swap(i, j);
        }
    }
}

/// How an observed run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Its last step made this assertion fail.
    Failed(AssertId),
    /// Every thread ended, or the program halted.
    Finished,
    /// No thread could take a step (a deadlock, or a step the interpreter cannot execute).
    Blocked,
    /// The step limit was reached.
    StepLimit,
}

/// The record of one run: the steps taken, what each did, and how it ended.
pub struct Observed {
    /// The schedule, replayable by [`Interp::run`].
    pub steps: Vec<Step>,
    /// What each step did (accesses with their concrete values).
    pub trace: Vec<Executed>,
    /// How the run ended.
    pub end: End,
}

#[derive(Clone)]
struct Mirror {
    id: u32,
    template: TemplateId,
    pc: Option<LocId>,
    done: bool,
}

/// Executes the program from its initial state under a random scheduler. `switch` is the
/// chance, per step, of moving on to another thread (so runs with a small value interleave
/// in few, long slices, and with a large one in many short ones). At most `per_template`
/// threads of each template are scheduled: later ones are created but never run, which is
/// the prefix of an execution in which they run later (and keeps a thread created in a long
/// loop from swamping the trace).
pub fn run(prog: &Program, layout: &Layout, seed: u64, max_steps: usize, switch: f64, per_template: usize) -> Observed {
    let mut scheduled = vec![0usize; prog.templates.len()];
    let oracle = |_: i128| 0i128;
    let mut it = Interp::new(prog, layout, &oracle);
    let mut rng = Rng::new(seed);
    let mut threads = vec![Mirror { id: 0, template: TemplateId(0), pc: None, done: false }];
    let mut steps = Vec::new();
    let mut current = 0usize;
    let mut next_id = 1u32;
    let threshold = (switch.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
    let end = loop {
        if steps.len() >= max_steps {
            break End::StepLimit;
        }
        let live: Vec<usize> = (0..threads.len()).filter(|&i| !threads[i].done).collect();
        if live.is_empty() {
            break End::Finished;
        }
        // The current thread first unless a switch is drawn; then the others in random order.
        let mut order = live.clone();
        rng.shuffle(&mut order);
        if rng.next_u64() >= threshold {
            if let Some(p) = order.iter().position(|&i| i == current) {
                order.swap(0, p);
            }
        }
        let mut taken = None;
        'threads: for &ti in &order {
            let t = &threads[ti];
            let mut cands = match t.pc {
                None => vec![prog.template(t.template).entry],
                Some(pc) => prog.loc(pc).succs.clone(),
            };
            rng.shuffle(&mut cands);
            for loc in cands {
                let nondets = nondet_types(prog, &prog.loc(loc).action).into_iter().map(|ty| random_value(&mut rng, ty, prog)).collect();
                let children = match &prog.loc(loc).action {
                    Action::Fork { template, .. } if scheduled[template.index()] < per_template => vec![next_id],
                    _ => Vec::new(),
                };
                let step = Step::Exec { thread: t.id, loc, nondets, children };
                // A rejected step changes nothing the schedule depends on (at most it caches
                // the initial value of memory it read), so the next candidate can be tried.
                match it.step(&step) {
                    Ok(r) => {
                        taken = Some((ti, step, r));
                        break 'threads;
                    }
                    Err(_) => continue,
                }
            }
        }
        let Some((ti, step, failed)) = taken else { break End::Blocked };
        current = ti;
        let Step::Exec { loc, children, .. } = &step else { unreachable!("the scheduler only makes Exec steps") };
        let l = prog.loc(*loc);
        threads[ti].pc = Some(*loc);
        if let Action::Fork { template, .. } = &l.action {
            for c in children {
                threads.push(Mirror { id: *c, template: *template, pc: None, done: false });
                scheduled[template.index()] += 1;
                next_id += 1;
            }
        }
        let halted = matches!(l.action, Action::Halt(Halt::Abort | Halt::Exit));
        if l.succs.is_empty() || matches!(l.action, Action::Halt(Halt::ThreadExit)) {
            threads[ti].done = true;
        }
        steps.push(step);
        if let Some(a) = failed {
            break End::Failed(a);
        }
        if halted {
            break End::Finished;
        }
    };
    Observed { steps, trace: std::mem::take(&mut it.trace), end }
}

/// A random input of a type: mostly small values, where branches on inputs usually turn.
fn random_value(rng: &mut Rng, ty: Ty, prog: &Program) -> i128 {
    let v = match rng.below(8) {
        0..=3 => rng.below(4) as i128 - 1,
        4..=5 => rng.below(201) as i128 - 100,
        6 => ty.range(prog.data_model).map_or(0, |r| r.0),
        _ => ty.range(prog.data_model).map_or(0, |r| r.1),
    };
    ty.convert(v, crate::interp::layout::ADDRESS_MODEL)
}
