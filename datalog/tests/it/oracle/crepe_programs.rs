//! Crepe transcriptions of `rules/interference.dl`, `rules/reference/interference.dl` and the
//! examples. Relation and variable names follow the `.dl` files.

use std::collections::BTreeSet;

use crate::oracle::gen::Facts;

/// Sorted tuples per output relation, as flat `Vec<u32>` rows.
pub(crate) type Rows = BTreeSet<Vec<u32>>;

/// Outputs of the interference rules.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Interference {
    pub coreachable: Rows,
    pub may_reach: Rows,
    pub may_flow: Rows,
    pub may_stand: Rows,
}

impl Interference {
    /// `(relation name, rows)` for every output relation, as the `.dl` files name them.
    pub(crate) fn relations(&self) -> [(&'static str, &Rows); 4] {
        [("coreachable", &self.coreachable), ("may_reach", &self.may_reach), ("may_flow", &self.may_flow), ("may_stand", &self.may_stand)]
    }
}

/// How both transcriptions take their inputs: rows arrive under the relation names of
/// `datalog::schema::INTERFERENCE`, so a name or arity the transcription does not have is an
/// error that names it (see `accepts`), not a relation silently left empty.
macro_rules! feeding {
    () => {
        fn feed(rt: &mut Crepe, rel: &str, r: &[u32]) -> Result<(), String> {
            match (rel, r) {
                ("cf", &[a, b]) => rt.extend([Cf(a, b)]),
                ("spawn", &[a, e]) => rt.extend([Spawn(a, e)]),
                ("multi_spawn", &[a]) => rt.extend([MultiSpawn(a)]),
                ("mod", &[a, x]) => rt.extend([Defines(a, x)]),
                ("kill", &[a, x]) => rt.extend([Kill(a, x)]),
                ("use", &[a, x]) => rt.extend([Reads(a, x)]),
                ("acquires", &[a, l]) => rt.extend([Acquires(a, l)]),
                ("holds", &[a, l]) => rt.extend([Holds(a, l)]),
                ("atomic", &[a]) => rt.extend([Atomic(a)]),
                ("needs", &[a, c, v]) => rt.extend([Needs(a, c, v)]),
                ("cond_val", &[b, c, v]) => rt.extend([CondVal(b, c, v)]),
                ("observe", &[x]) => rt.extend([Observe(x)]),
                ("join_waits", &[a, v]) => rt.extend([JoinWaits(a, v)]),
                _ => return Err(format!("the crepe transcription has no input `{rel}` of {} columns", r.len())),
            }
            Ok(())
        }

        /// Whether the transcription takes rows of `arity` columns for input `rel`.
        pub(crate) fn accepts(rel: &str, arity: usize) -> Result<(), String> {
            feed(&mut Crepe::new(), rel, &vec![0; arity])
        }

        fn runtime(f: &super::Facts) -> Crepe {
            let mut rt = Crepe::new();
            for (rel, rows) in f.relations() {
                for r in rows {
                    feed(&mut rt, rel, r).unwrap_or_else(|e| panic!("{e}"));
                }
            }
            rt
        }
    };
}

pub(crate) mod optimised {
    use crepe::crepe;

    crepe! {
        @input struct Cf(u32, u32);
        @input struct Spawn(u32, u32);
        @input struct MultiSpawn(u32);
        @input struct Defines(u32, u32);
        @input struct Kill(u32, u32);
        @input struct Reads(u32, u32);
        @input struct Acquires(u32, u32);
        @input struct Holds(u32, u32);
        @input struct Atomic(u32);
        @input struct Needs(u32, u32, u32);
        @input struct CondVal(u32, u32, u32);
        @input struct Observe(u32);
        @input struct JoinWaits(u32, u32);

        @output struct Coreachable(u32, u32);
        @output struct MayReach(u32, u32, u32, u32);
        @output struct MayFlow(u32, u32, u32);
        @output struct MayStand(u32, u32, u32);

        struct Blocks(u32);
        struct FreeStep(u32, u32);
        struct LockStep(u32, u32, u32);
        struct CondStep(u32, u32, u32, u32);
        struct Relevant(u32, u32);
        struct SeqReach(u32, u32, u32);
        struct WriterAt(u32, u32);
        struct WriterStep(u32, u32, u32);
        struct WriterLockStep(u32, u32, u32, u32);
        struct WriterCondStep(u32, u32, u32, u32, u32);
        struct ReaderStep(u32, u32, u32);
        struct ReaderLockStep(u32, u32, u32, u32);
        struct ReaderCondStep(u32, u32, u32, u32, u32);
        struct ReaderFork(u32, u32, u32);
        struct Loc(u32);
        struct ObsReach(u32, u32, u32, u32);

        Blocks(a) <- Acquires(a, _);
        Blocks(a) <- Needs(a, _, _);
        FreeStep(a, b) <- Cf(a, b), !Blocks(a);
        LockStep(a, l, b) <- Cf(a, b), Acquires(a, l);
        CondStep(a, c, val, b) <- Cf(a, b), Needs(a, c, val);

        Coreachable(e, a1) <- Spawn(a0, e), Cf(a0, a1);
        Coreachable(e, w) <- Spawn(a0, e), Coreachable(a0, w), !Atomic(w);
        Coreachable(e, e) <- Spawn(a0, e), MultiSpawn(a0);
        Coreachable(v, u) <- Coreachable(u, v);
        Coreachable(u1, v) <- Coreachable(u0, v), FreeStep(u0, u1), !Atomic(v), !JoinWaits(u0, v);
        Coreachable(u1, v) <- Coreachable(u0, v), LockStep(u0, l, u1), !Holds(v, l), !Atomic(v);
        Coreachable(u1, v) <- Coreachable(u0, v), CondStep(u0, c, val, u1), CondVal(v, c, val), !Atomic(v);

        Loc(v) <- Cf(v, _);
        Loc(v) <- Cf(_, v);
        Relevant(v, x) <- Reads(v, x);
        Relevant(v, x) <- Defines(v, x);
        Relevant(a0, x) <- Spawn(a0, e), Loc(e), Observe(x), !Kill(a0, x);
        Relevant(v0, x) <- Cf(v0, v1), Relevant(v1, x), !Kill(v0, x), !Observe(x);
        Relevant(a0, x) <- Spawn(a0, e), Relevant(e, x), !Kill(a0, x);

        MayReach(u0, x, u1, v) <- Coreachable(u0, v), Defines(u0, x), FreeStep(u0, u1), !Atomic(v), !JoinWaits(u0, v), Relevant(v, x);
        MayReach(u0, x, u1, v) <- Coreachable(u0, v), Defines(u0, x), LockStep(u0, l, u1), !Holds(v, l), !Atomic(v), Relevant(v, x);
        MayReach(u0, x, u1, v) <- Coreachable(u0, v), Defines(u0, x), CondStep(u0, c, val, u1), CondVal(v, c, val), !Atomic(v), Relevant(v, x);
        MayReach(u0, x, u1, v) <- Coreachable(u0, v), Defines(u0, x), FreeStep(u0, u1), !Atomic(v), !JoinWaits(u0, v), Observe(x), Loc(v);
        MayReach(u0, x, u1, v) <- Coreachable(u0, v), Defines(u0, x), LockStep(u0, l, u1), !Holds(v, l), !Atomic(v), Observe(x), Loc(v);
        MayReach(u0, x, u1, v) <- Coreachable(u0, v), Defines(u0, x), CondStep(u0, c, val, u1), CondVal(v, c, val), !Atomic(v), Observe(x), Loc(v);

        SeqReach(u0, x, u1) <- Defines(u0, x), Cf(u0, u1);
        SeqReach(u0, x, u2) <- SeqReach(u0, x, u1), !Kill(u1, x), Cf(u1, u2);

        WriterAt(u1, x) <- SeqReach(_, x, u1);
        WriterStep(u1, x, u2) <- WriterAt(u1, x), !Kill(u1, x), FreeStep(u1, u2);
        WriterLockStep(u1, x, l, u2) <- WriterAt(u1, x), !Kill(u1, x), LockStep(u1, l, u2);
        WriterCondStep(u1, x, c, val, u2) <- WriterAt(u1, x), !Kill(u1, x), CondStep(u1, c, val, u2);
        ReaderStep(v0, x, v1) <- FreeStep(v0, v1), Relevant(v1, x), !Kill(v0, x);
        ReaderLockStep(v0, x, l, v1) <- LockStep(v0, l, v1), Relevant(v1, x), !Kill(v0, x);
        ReaderCondStep(v0, x, c, val, v1) <- CondStep(v0, c, val, v1), Relevant(v1, x), !Kill(v0, x);
        ReaderFork(a0, x, e) <- Spawn(a0, e), Relevant(e, x), !Kill(a0, x);
        ReaderFork(a0, x, e) <- Spawn(a0, e), Loc(e), Observe(x), !Kill(a0, x);
        ObsReach(u0, x, u1, v0) <- MayReach(u0, x, u1, v0), Observe(x), !Kill(v0, x), !Atomic(u1);

        MayReach(u0, x, u2, v) <- MayReach(u0, x, u1, v), WriterStep(u1, x, u2), !Atomic(v), !JoinWaits(u1, v);
        MayReach(u0, x, u2, v) <- MayReach(u0, x, u1, v), WriterLockStep(u1, x, l, u2), !Holds(v, l), !Atomic(v);
        MayReach(u0, x, u2, v) <- MayReach(u0, x, u1, v), WriterCondStep(u1, x, c, val, u2), CondVal(v, c, val), !Atomic(v);

        MayReach(u0, x, u1, v1) <- MayReach(u0, x, u1, v0), ReaderStep(v0, x, v1), !Atomic(u1), !JoinWaits(v0, u1);
        MayReach(u0, x, u1, v1) <- MayReach(u0, x, u1, v0), ReaderLockStep(v0, x, l, v1), !Holds(u1, l), !Atomic(u1);
        MayReach(u0, x, u1, v1) <- MayReach(u0, x, u1, v0), ReaderCondStep(v0, x, c, val, v1), CondVal(u1, c, val), !Atomic(u1);
        MayReach(u0, x, u1, v1) <- ObsReach(u0, x, u1, v0), FreeStep(v0, v1), !JoinWaits(v0, u1);
        MayReach(u0, x, u1, v1) <- ObsReach(u0, x, u1, v0), LockStep(v0, l, v1), !Holds(u1, l);
        MayReach(u0, x, u1, v1) <- ObsReach(u0, x, u1, v0), CondStep(v0, c, val, v1), CondVal(u1, c, val);

        MayReach(u0, x, a1, e) <- SeqReach(u0, x, a0), !Kill(a0, x), Spawn(a0, e), Cf(a0, a1), Relevant(e, x);
        MayReach(u0, x, a1, e) <- SeqReach(u0, x, a0), !Kill(a0, x), Spawn(a0, e), Cf(a0, a1), Observe(x), Loc(e);
        MayReach(a0, x, a1, e) <- Defines(a0, x), Spawn(a0, e), Cf(a0, a1), Relevant(e, x);
        MayReach(a0, x, a1, e) <- Defines(a0, x), Spawn(a0, e), Cf(a0, a1), Observe(x), Loc(e);
        MayReach(u0, x, u1, e) <- MayReach(u0, x, u1, a0), ReaderFork(a0, x, e), !Atomic(u1);

        MayFlow(u0, x, v) <- MayReach(u0, x, u1, v), Reads(v, x), !Blocks(v), !Atomic(u1), !JoinWaits(v, u1);
        MayFlow(u0, x, v) <- MayReach(u0, x, u1, v), Reads(v, x), Acquires(v, l), !Holds(u1, l), !Atomic(u1);
        MayFlow(u0, x, v) <- MayReach(u0, x, u1, v), Reads(v, x), Needs(v, c, val), CondVal(u1, c, val), !Atomic(u1);
        MayStand(u0, x, v) <- MayReach(u0, x, _, v), Observe(x);
    }

    /// Output sizes only: what the benchmark times, without converting the results.
    pub(crate) fn counts(f: &super::Facts) -> (usize, usize, usize) {
        let (co, mr, mf, _) = runtime(f).run();
        (co.len(), mr.len(), mf.len())
    }

    feeding!();

    pub(crate) fn run(f: &super::Facts) -> super::Interference {
        let (co, mr, mf, ms) = runtime(f).run();
        super::Interference {
            coreachable: co.into_iter().map(|Coreachable(a, b)| vec![a, b]).collect(),
            may_reach: mr.into_iter().map(|MayReach(a, b, c, d)| vec![a, b, c, d]).collect(),
            may_flow: mf.into_iter().map(|MayFlow(a, b, c)| vec![a, b, c]).collect(),
            may_stand: ms.into_iter().map(|MayStand(a, b, c)| vec![a, b, c]).collect(),
        }
    }
}

pub(crate) mod reference {
    use crepe::crepe;

    crepe! {
        @input struct Cf(u32, u32);
        @input struct Spawn(u32, u32);
        @input struct MultiSpawn(u32);
        @input struct Defines(u32, u32);
        @input struct Kill(u32, u32);
        @input struct Reads(u32, u32);
        @input struct Acquires(u32, u32);
        @input struct Holds(u32, u32);
        @input struct Atomic(u32);
        @input struct Needs(u32, u32, u32);
        @input struct CondVal(u32, u32, u32);
        @input struct Observe(u32);
        @input struct JoinWaits(u32, u32);

        @output struct Coreachable(u32, u32);
        @output struct MayReach(u32, u32, u32, u32);
        @output struct MayFlow(u32, u32, u32);
        @output struct MayStand(u32, u32, u32);

        struct SeqReach(u32, u32, u32);

        Coreachable(e, a1) <- Spawn(a0, e), Cf(a0, a1);
        Coreachable(e, w) <- Spawn(a0, e), Coreachable(a0, w), !Atomic(w);
        Coreachable(e, e) <- Spawn(a0, e), MultiSpawn(a0);
        Coreachable(v, u) <- Coreachable(u, v);
        Coreachable(u1, v) <- Coreachable(u0, v), !Atomic(v), Cf(u0, u1), !Acquires(u0, _), !Needs(u0, _, _), !JoinWaits(u0, v);
        Coreachable(u1, v) <- Coreachable(u0, v), !Atomic(v), Cf(u0, u1), Acquires(u0, l), !Holds(v, l);
        Coreachable(u1, v) <- Coreachable(u0, v), !Atomic(v), Cf(u0, u1), Needs(u0, c, val), CondVal(v, c, val);

        MayReach(u0, x, u1, v) <- Coreachable(u0, v), Defines(u0, x), !Atomic(v), Cf(u0, u1), !Acquires(u0, _), !Needs(u0, _, _), !JoinWaits(u0, v);
        MayReach(u0, x, u1, v) <- Coreachable(u0, v), Defines(u0, x), !Atomic(v), Cf(u0, u1), Acquires(u0, l), !Holds(v, l);
        MayReach(u0, x, u1, v) <- Coreachable(u0, v), Defines(u0, x), !Atomic(v), Cf(u0, u1), Needs(u0, c, val), CondVal(v, c, val);
        MayReach(u0, x, u2, v) <- MayReach(u0, x, u1, v), !Kill(u1, x), !Atomic(v), Cf(u1, u2), !Acquires(u1, _), !Needs(u1, _, _), !JoinWaits(u1, v);
        MayReach(u0, x, u2, v) <- MayReach(u0, x, u1, v), !Kill(u1, x), !Atomic(v), Cf(u1, u2), Acquires(u1, l), !Holds(v, l);
        MayReach(u0, x, u2, v) <- MayReach(u0, x, u1, v), !Kill(u1, x), !Atomic(v), Cf(u1, u2), Needs(u1, c, val), CondVal(v, c, val);
        MayReach(u0, x, u1, v1) <- MayReach(u0, x, u1, v0), !Kill(v0, x), !Atomic(u1), Cf(v0, v1), !Acquires(v0, _), !Needs(v0, _, _), !JoinWaits(v0, u1);
        MayReach(u0, x, u1, v1) <- MayReach(u0, x, u1, v0), !Kill(v0, x), !Atomic(u1), Cf(v0, v1), Acquires(v0, l), !Holds(u1, l);
        MayReach(u0, x, u1, v1) <- MayReach(u0, x, u1, v0), !Kill(v0, x), !Atomic(u1), Cf(v0, v1), Needs(v0, c, val), CondVal(u1, c, val);

        SeqReach(u0, x, u1) <- Defines(u0, x), Cf(u0, u1);
        SeqReach(u0, x, u2) <- SeqReach(u0, x, u1), !Kill(u1, x), Cf(u1, u2);
        MayReach(u0, x, a1, e) <- SeqReach(u0, x, a0), !Kill(a0, x), Spawn(a0, e), Cf(a0, a1);
        MayReach(a0, x, a1, e) <- Defines(a0, x), Spawn(a0, e), Cf(a0, a1);
        MayReach(u0, x, u1, e) <- MayReach(u0, x, u1, a0), Spawn(a0, e), !Kill(a0, x), !Atomic(u1);

        MayFlow(u0, x, v) <- MayReach(u0, x, u1, v), Reads(v, x), !Atomic(u1), !Acquires(v, _), !Needs(v, _, _), !JoinWaits(v, u1);
        MayFlow(u0, x, v) <- MayReach(u0, x, u1, v), Reads(v, x), !Atomic(u1), Acquires(v, l), !Holds(u1, l);
        MayFlow(u0, x, v) <- MayReach(u0, x, u1, v), Reads(v, x), !Atomic(u1), Needs(v, c, val), CondVal(u1, c, val);
        MayStand(u0, x, v) <- MayReach(u0, x, _, v), Observe(x);
    }

    /// Output sizes only: what the benchmark times, without converting the results.
    pub(crate) fn counts(f: &super::Facts) -> (usize, usize, usize) {
        let (co, mr, mf, _) = runtime(f).run();
        (co.len(), mr.len(), mf.len())
    }

    feeding!();

    pub(crate) fn run(f: &super::Facts) -> super::Interference {
        let (co, mr, mf, ms) = runtime(f).run();
        super::Interference {
            coreachable: co.into_iter().map(|Coreachable(a, b)| vec![a, b]).collect(),
            may_reach: mr.into_iter().map(|MayReach(a, b, c, d)| vec![a, b, c, d]).collect(),
            may_flow: mf.into_iter().map(|MayFlow(a, b, c)| vec![a, b, c]).collect(),
            may_stand: ms.into_iter().map(|MayStand(a, b, c)| vec![a, b, c]).collect(),
        }
    }
}

pub(crate) mod tc {
    use crepe::crepe;

    crepe! {
        @input struct Edge(u32, u32);
        @output struct Path(u32, u32);
        Path(a, b) <- Edge(a, b);
        Path(a, c) <- Path(a, b), Edge(b, c);
    }

    /// The closure's size only: what the benchmark times.
    pub(crate) fn count(edges: &[[u32; 2]]) -> usize {
        let mut rt = Crepe::new();
        rt.extend(edges.iter().map(|e| Edge(e[0], e[1])));
        rt.run().0.len()
    }

    pub(crate) fn run(edges: &[[u32; 2]]) -> super::Rows {
        let mut rt = Crepe::new();
        rt.extend(edges.iter().map(|e| Edge(e[0], e[1])));
        let (p,) = rt.run();
        p.into_iter().map(|Path(a, b)| vec![a, b]).collect()
    }
}

pub(crate) mod same_generation {
    use crepe::crepe;

    crepe! {
        @input struct Parent(u32, u32);
        @output struct SameGeneration(u32, u32);
        SameGeneration(a, b) <- Parent(a, p), Parent(b, p), (a != b);
        SameGeneration(a, b) <- Parent(a, pa), SameGeneration(pa, pb), Parent(b, pb);
    }

    pub(crate) fn run(parent: &[[u32; 2]]) -> super::Rows {
        let mut rt = Crepe::new();
        rt.extend(parent.iter().map(|e| Parent(e[0], e[1])));
        let (p,) = rt.run();
        p.into_iter().map(|SameGeneration(a, b)| vec![a, b]).collect()
    }
}

pub(crate) mod unreachable {
    use crepe::crepe;

    crepe! {
        @input struct Edge(u32, u32);
        @input struct Root(u32);
        struct Node(u32);
        struct Reached(u32);
        @output struct Unreachable(u32);
        @output struct BackEdge(u32, u32);
        Node(a) <- Edge(a, _);
        Node(b) <- Edge(_, b);
        Node(a) <- Root(a);
        Reached(a) <- Root(a);
        Reached(b) <- Reached(a), Edge(a, b);
        Unreachable(a) <- Node(a), !Reached(a);
        BackEdge(a, b) <- Reached(a), Edge(a, b), (b <= a);
    }

    pub(crate) fn run(edges: &[[u32; 2]], roots: &[u32]) -> (super::Rows, super::Rows) {
        let mut rt = Crepe::new();
        rt.extend(edges.iter().map(|e| Edge(e[0], e[1])));
        rt.extend(roots.iter().map(|&r| Root(r)));
        let (u, b) = rt.run();
        (u.into_iter().map(|Unreachable(a)| vec![a]).collect(), b.into_iter().map(|BackEdge(a, b)| vec![a, b]).collect())
    }
}
