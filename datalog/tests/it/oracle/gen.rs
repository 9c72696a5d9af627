//! Random fact sets: chaotic small ones for the property tests, structured synthetic programs
//! for the benchmark. Deterministic given a seed (a small xorshift generator, no dependency).

/// A deterministic pseudo-random generator (xorshift64*).
#[derive(Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (n > 0).
    pub(crate) fn below(&mut self, n: u32) -> u32 {
        (((self.next() >> 32) * n as u64) >> 32) as u32
    }
    /// True with probability `p`.
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64) / ((1u64 << 53) as f64) < p
    }
}

/// The input relations of the interference rules, as rows.
#[derive(Clone, Debug, Default)]
pub(crate) struct Facts {
    pub cf: Vec<Vec<u32>>,
    pub spawn: Vec<Vec<u32>>,
    pub multi_spawn: Vec<Vec<u32>>,
    pub r#mod: Vec<Vec<u32>>,
    pub kill: Vec<Vec<u32>>,
    pub r#use: Vec<Vec<u32>>,
    pub acquires: Vec<Vec<u32>>,
    pub holds: Vec<Vec<u32>>,
    pub atomic: Vec<Vec<u32>>,
    pub needs: Vec<Vec<u32>>,
    pub cond_val: Vec<Vec<u32>>,
    pub observe: Vec<Vec<u32>>,
    pub join_waits: Vec<Vec<u32>>,
}

impl Facts {
    /// `(relation name, rows)` for every input relation.
    pub(crate) fn relations(&self) -> Vec<(&'static str, &Vec<Vec<u32>>)> {
        vec![
            ("cf", &self.cf),
            ("spawn", &self.spawn),
            ("multi_spawn", &self.multi_spawn),
            ("mod", &self.r#mod),
            ("kill", &self.kill),
            ("use", &self.r#use),
            ("acquires", &self.acquires),
            ("holds", &self.holds),
            ("atomic", &self.atomic),
            ("needs", &self.needs),
            ("cond_val", &self.cond_val),
            ("observe", &self.observe),
            ("join_waits", &self.join_waits),
        ]
    }
    pub(crate) fn len(&self) -> usize {
        self.relations().iter().map(|(_, r)| r.len()).sum()
    }
}

/// Parameters of a thread template body.
struct Body {
    vars: u32,
    locks: u32,
    conds: u32,
    p_write: f64,
    p_weak: f64,
    p_read: f64,
    p_assume: f64,
    p_branch: f64,
    p_loop: f64,
    p_lock: f64,
    p_atomic: f64,
}

/// Which shared variables and conditions a template uses: `var0 .. var0 + vars`, and so on.
struct Shared<'a> {
    var0: u32,
    cond0: u32,
    cond_vars: &'a dyn Fn(u32) -> Vec<u32>,
}

/// Emits one thread template of `n` locations starting at id `base`; returns its exit location.
/// Location `base` is the entry.
fn template(rng: &mut Rng, f: &mut Facts, base: u32, n: u32, body: &Body, shared: &Shared) -> u32 {
    let Shared { var0, cond0, cond_vars } = *shared;
    let last = base + n - 1;
    let mut i = base;
    while i < last {
        // A critical section or an atomic section over a short stretch, or a single action.
        let len = 2 + rng.below(4);
        if i + len < last && body.locks > 0 && rng.chance(body.p_lock) {
            let l = rng.below(body.locks);
            f.acquires.push(vec![i, l]);
            for j in i..i + len {
                f.cf.push(vec![j, j + 1]);
                if j > i {
                    f.holds.push(vec![j, l]);
                    access(rng, f, j, body, var0);
                }
            }
            f.holds.push(vec![i + len, l]);
            i += len;
            continue;
        }
        if i + len < last && rng.chance(body.p_atomic) {
            for j in i..i + len {
                f.cf.push(vec![j, j + 1]);
                f.atomic.push(vec![j + 1]);
                if j > i {
                    access(rng, f, j, body, var0);
                }
            }
            i += len;
            continue;
        }
        f.cf.push(vec![i, i + 1]);
        if body.conds > 0 && rng.chance(body.p_assume) {
            // assume(c == v) on shared variables: blocks, and defines and reads its variables.
            let c = cond0 + rng.below(body.conds);
            f.needs.push(vec![i, c, rng.below(2)]);
            for x in cond_vars(c) {
                f.r#mod.push(vec![i, x]);
                f.kill.push(vec![i, x]);
                f.r#use.push(vec![i, x]);
            }
            // Its negation on the other branch, when there is room for one.
            if i + 2 <= last && rng.chance(0.5) {
                f.cf.push(vec![i, i + 2]);
            }
        } else {
            access(rng, f, i, body, var0);
            if rng.chance(body.p_branch) && i + 3 <= last {
                f.cf.push(vec![i, i + 2 + rng.below(2)]);
            }
            if rng.chance(body.p_loop) && i > base + 2 {
                let back = i - 1 - rng.below((i - base - 1).min(6));
                f.cf.push(vec![i, back]);
            }
        }
        i += 1;
    }
    last
}

/// A plain action at `a`: maybe a strong or weak write, maybe reads.
fn access(rng: &mut Rng, f: &mut Facts, a: u32, body: &Body, var0: u32) {
    if body.vars == 0 {
        return;
    }
    if rng.chance(body.p_write) {
        let x = var0 + rng.below(body.vars);
        f.r#mod.push(vec![a, x]);
        if rng.chance(body.p_weak) {
            f.r#use.push(vec![a, x]);
        } else {
            f.kill.push(vec![a, x]);
        }
    }
    if rng.chance(body.p_read) {
        f.r#use.push(vec![a, var0 + rng.below(body.vars)]);
    }
}

fn dedup(f: &mut Facts) {
    for rel in [
        &mut f.cf,
        &mut f.spawn,
        &mut f.multi_spawn,
        &mut f.r#mod,
        &mut f.kill,
        &mut f.r#use,
        &mut f.acquires,
        &mut f.holds,
        &mut f.atomic,
        &mut f.needs,
        &mut f.cond_val,
        &mut f.observe,
        &mut f.join_waits,
    ] {
        rel.sort();
        rel.dedup();
    }
}

/// A small random concurrent program for the property tests: a main thread that forks 1-3
/// templates (some repeatedly), templates that fork others, random locks, atomic sections,
/// assumes and accesses to a few shared variables, and random `cond_val` facts.
pub(crate) fn small(seed: u64, max_locs: u32) -> Facts {
    let mut rng = Rng::new(seed);
    let mut f = Facts::default();
    let vars = 1 + rng.below(4);
    let conds = rng.below(3);
    let body = Body { vars, locks: rng.below(3), conds, p_write: 0.4, p_weak: 0.3, p_read: 0.4, p_assume: 0.15, p_branch: 0.2, p_loop: 0.15, p_lock: 0.15, p_atomic: 0.1 };
    let cond_vars = move |c: u32| vec![c % vars.max(1)];
    let templates = 2 + rng.below(3);
    let per = (max_locs / templates).max(4);
    let mut entries = Vec::new();
    let mut ranges = Vec::new();
    let mut next = 0;
    for _ in 0..templates {
        let n = 3 + rng.below(per - 2);
        template(&mut rng, &mut f, next, n, &body, &Shared { var0: 0, cond0: 0, cond_vars: &cond_vars });
        entries.push(next);
        ranges.push((next, next + n - 1));
        next += n;
    }
    // Forks: each non-main template is forked from an earlier template's non-final location.
    for (t, &entry) in entries.iter().enumerate().skip(1) {
        let forks = 1 + rng.below(2);
        for _ in 0..forks {
            let parent = rng.below(t as u32) as usize;
            let (lo, hi) = ranges[parent];
            if hi <= lo {
                continue;
            }
            let a = lo + rng.below(hi - lo);
            f.spawn.push(vec![a, entry]);
            if rng.chance(0.3) {
                f.multi_spawn.push(vec![a]);
            }
            if rng.chance(0.3) {
                f.r#mod.push(vec![a, rng.below(vars)]);
            }
        }
    }
    // Joins: a plain location of main waits while a later template stands anywhere but at its
    // last location (its exit).
    if templates > 1 && rng.chance(0.5) {
        let (lo, hi) = ranges[0];
        let t = 1 + rng.below(templates - 1) as usize;
        let (tlo, thi) = ranges[t];
        let a = lo + rng.below(hi - lo + 1);
        if !f.acquires.iter().any(|r| r[0] == a) && !f.needs.iter().any(|r| r[0] == a) {
            f.join_waits.extend((tlo..thi).map(|v| vec![a, v]));
        }
    }
    // The variables the conditions read are observed.
    for c in 0..conds {
        f.observe.extend(cond_vars(c).into_iter().map(|x| vec![x]));
    }
    // What each condition may be at each location: usually both values, sometimes one, rarely none.
    for b in 0..next {
        for c in 0..conds {
            let r = rng.below(10);
            if r < 6 {
                f.cond_val.push(vec![b, c, 0]);
                f.cond_val.push(vec![b, c, 1]);
            } else if r < 9 {
                f.cond_val.push(vec![b, c, rng.below(2)]);
            }
        }
    }
    dedup(&mut f);
    f
}

/// Shape of a synthetic benchmark program.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Groups of threads that run together; group g+1 starts when group g has finished.
    pub groups: u32,
    /// Thread templates per group.
    pub threads: u32,
    /// Locations per thread template.
    pub locs: u32,
}

impl Shape {
    /// A shape with about `total` locations, sized so that coreachability stays near-linear.
    pub(crate) fn with_locations(total: u32) -> Shape {
        let threads = 3;
        let locs = 40;
        Shape { groups: (total / (threads * locs)).max(1), threads, locs }
    }
    pub(crate) fn locations(&self) -> u32 {
        self.groups * self.threads * self.locs + (self.threads + 1) * self.groups + 1
    }
}

/// A synthetic program: `main` forks the threads of each group in turn and waits for the group to
/// finish (an assume on a "done" condition) before forking the next. Threads of a group share a
/// few variables, locks and conditions; one thread per group is forked in a loop (multi_spawn).
/// `cond_val` gives, for each location, the conditions its group observes (usually both values);
/// a group's "done" condition is true only at the group's exit locations.
pub(crate) fn synthetic(seed: u64, shape: Shape) -> Facts {
    let mut rng = Rng::new(seed);
    let mut f = Facts::default();
    let vars_per_group = 6;
    let conds_per_group = 3;
    let locks_per_group = 2;
    let body = Body {
        vars: vars_per_group,
        locks: locks_per_group,
        conds: conds_per_group,
        p_write: 0.35,
        p_weak: 0.2,
        p_read: 0.5,
        p_assume: 0.06,
        p_branch: 0.1,
        p_loop: 0.05,
        p_lock: 0.12,
        p_atomic: 0.04,
    };
    // Condition ids: per group, `conds_per_group` body conditions then one "done" condition.
    // main, per group: one fork location per thread, then a wait location.
    let cond_stride = conds_per_group + 1;
    let main_len = (shape.threads + 1) * shape.groups + 1;
    let mut next = main_len;
    let mut main = 0;
    for g in 0..shape.groups {
        let var0 = g * vars_per_group;
        let cond0 = g * cond_stride;
        let cond_vars = move |c: u32| vec![var0 + (c - cond0) % vars_per_group];
        let done = cond0 + conds_per_group;
        for c in cond0..done {
            f.observe.extend(cond_vars(c).into_iter().map(|x| vec![x]));
        }
        let mut group_locs = Vec::new();
        let mut exits = Vec::new();
        for t in 0..shape.threads {
            let entry = next;
            let exit = template(&mut rng, &mut f, entry, shape.locs, &body, &Shared { var0, cond0, cond_vars: &cond_vars });
            next += shape.locs;
            group_locs.extend(entry..=exit);
            exits.push(exit);
            f.spawn.push(vec![main + t, entry]);
            f.cf.push(vec![main + t, main + t + 1]);
            if t == shape.threads - 1 {
                f.multi_spawn.push(vec![main + t]);
            }
        }
        // main waits for the group's done condition, then moves on to the next group.
        let wait = main + shape.threads;
        f.needs.push(vec![wait, done, 1]);
        f.cf.push(vec![wait, wait + 1]);
        for &b in &group_locs {
            for c in cond0..cond0 + conds_per_group {
                if rng.chance(0.8) {
                    f.cond_val.push(vec![b, c, 0]);
                    f.cond_val.push(vec![b, c, 1]);
                } else {
                    f.cond_val.push(vec![b, c, rng.below(2)]);
                }
            }
            f.cond_val.push(vec![b, done, u32::from(exits.contains(&b))]);
        }
        for b in main..wait {
            f.cond_val.push(vec![b, done, 0]);
        }
        for c in cond0..=done {
            f.cond_val.push(vec![wait, c, 0]);
            f.cond_val.push(vec![wait, c, 1]);
        }
        main = wait + 1;
    }
    dedup(&mut f);
    f
}
