//! The library API COARSEN calls: staging, epochs, errors, observation, determinism.

use crate::oracle;

use datalog::{ColumnType, Engine, EngineConfig, EngineError, MapResolver, NoIncludes, Program, Value};

fn program(text: &str) -> Program {
    Program::parse(text, "t.dl", &mut NoIncludes).unwrap_or_else(|e| panic!("{e}"))
}

const TC: &str = ".decl edge(a: number, b: number)\n.input edge\n.decl path(a: number, b: number)\n.output path\n\
                  path(x, y) :- edge(x, y).\npath(x, z) :- path(x, y), edge(y, z).\n";

#[test]
fn staging_is_set_based() {
    let mut e = Engine::new(&program(TC), 1).unwrap();
    assert_eq!(e.insert("edge", [&[1u32, 2][..], &[1, 2], &[2, 3]]).unwrap(), 2);
    assert_eq!(e.remove("edge", [&[2u32, 3][..]]).unwrap(), 1, "removing a staged insert cancels it");
    assert_eq!(e.remove("edge", [&[7u32, 7][..]]).unwrap(), 0, "removing an absent tuple does nothing");
    let c = e.advance().unwrap();
    assert_eq!(c.epoch, 0);
    assert_eq!(c.get("path").unwrap().added.to_vecs(), vec![vec![1, 2]]);
    assert_eq!(e.insert("edge", [&[1u32, 2][..]]).unwrap(), 0, "already present");
    let c = e.advance().unwrap();
    assert!(c.is_empty(), "{c:?}");
    assert_eq!(e.epoch(), 2);
    assert_eq!(e.relation("edge").unwrap().to_vecs(), vec![vec![1, 2]]);
}

#[test]
fn api_errors() {
    let mut e = Engine::new(&program(TC), 1).unwrap();
    assert_eq!(e.insert("path", [&[1u32, 2][..]]), Err(EngineError::NotInput("path".into())));
    assert_eq!(e.insert("nope", [&[1u32][..]]), Err(EngineError::UnknownRelation("nope".into())));
    assert_eq!(e.insert("edge", [&[1u32, 2][..], &[1]]), Err(EngineError::Arity { relation: "edge".into(), expected: 2, found: 1 }));
    assert_eq!(e.relation("edge").unwrap().len(), 0, "a failed insert stages nothing");
    assert_eq!(e.decode("edge", &[1]).unwrap_err().to_string(), "relation 'edge' has 2 columns, but a tuple has 1 values");
    assert!(matches!(Engine::new(&program(TC), 0), Err(EngineError::NoWorkers)));

    let mut s = Engine::new(&program(".decl s(x: symbol)\n.input s\n"), 1).unwrap();
    assert_eq!(s.insert("s", [&[99u32][..]]), Err(EngineError::UnknownSymbol { relation: "s".into(), id: 99 }));
    let id = s.intern("hello");
    assert_eq!(s.insert("s", [&[id][..]]).unwrap(), 1);
    s.advance().unwrap();
    assert_eq!(s.decode("s", &[id]).unwrap(), vec![Value::Symbol("hello".into())]);
}

#[test]
fn observation() {
    let text = ".decl e(a: number)\n.input e\n.decl mid(a: number)\n.decl out(a: number)\n.output out\n\
                mid(x) :- e(x).\nout(x) :- mid(x).\n";
    let p = program(text);
    let mut e = Engine::new(&p, 1).unwrap();
    e.insert("e", [&[5u32][..]]).unwrap();
    e.advance().unwrap();
    assert_eq!(e.relation("mid"), Err(EngineError::NotObserved("mid".into())));
    let mut all = Engine::with_config(&p, &EngineConfig { workers: 2, observe_all: true, ..EngineConfig::default() }).unwrap();
    all.insert("e", [&[5u32][..]]).unwrap();
    let c = all.advance().unwrap();
    assert_eq!(all.relation("mid").unwrap().to_vecs(), vec![vec![5]]);
    let names: Vec<&str> = c.relations.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, vec!["e", "mid", "out"], "changes are listed in declaration order");
}

#[test]
fn numbers_are_signed_and_unsigned_are_not() {
    let text = ".decl n(a: number)\n.input n\n.decl u(a: unsigned)\n.input u\n\
                .decl small(a: number)\n.output small\n.decl big(a: unsigned)\n.output big\n\
                small(x) :- n(x), x < 0.\nbig(x) :- u(x), x > 2147483647.\n";
    let mut e = Engine::new(&program(text), 1).unwrap();
    let vals: Vec<u32> = [-5i32, 3, -1, 0, i32::MIN, i32::MAX].iter().map(|v| *v as u32).collect();
    e.insert("n", vals.iter().map(std::slice::from_ref)).unwrap();
    e.insert("u", [&[3u32][..], &[u32::MAX], &[2147483648]]).unwrap();
    e.advance().unwrap();
    let small: Vec<i32> = e.relation("small").unwrap().iter().map(|r| r[0] as i32).collect();
    assert_eq!(small, vec![i32::MIN, -5, -1], "sorted as signed numbers");
    let n: Vec<i32> = e.relation("n").unwrap().iter().map(|r| r[0] as i32).collect();
    assert_eq!(n, vec![i32::MIN, -5, -1, 0, 3, i32::MAX]);
    assert_eq!(e.relation("big").unwrap().to_vecs(), vec![vec![2147483648], vec![u32::MAX]]);
    assert_eq!(e.relations()[1].columns[0].ty, ColumnType::Unsigned);
}

#[test]
fn rule_features() {
    let text = r#"
        .type Node <: number
        .decl e(a: Node, b: Node)
        .input e
        .decl tag(n: Node, t: symbol)
        .decl flag()
        .output flag
        .decl loops(a: Node)
        .output loops
        .decl both(a: Node, b: Node)
        .output both
        .decl named(n: Node)
        .output named
        .decl pick(a: Node, b: Node)
        .output pick
        tag(1, "one"). tag(2, "two").
        flag() :- e(_, _).
        loops(x) :- e(x, x).                       // a repeated variable
        both(x, y), both(y, x) :- e(x, y), x != y. // two heads
        named(n) :- tag(n, "two") ; tag(n, t), t = "one", n > 0.
        pick(x, y) :- e(x, z), y = z, !e(y, x), y >= 2.
    "#;
    let mut e = Engine::new(&program(text), 2).unwrap();
    e.insert("e", [&[1u32, 1][..], &[1, 2], &[2, 3], &[3, 2]]).unwrap();
    e.advance().unwrap();
    assert_eq!(e.relation("flag").unwrap().len(), 1);
    assert_eq!(e.relation("loops").unwrap().to_vecs(), vec![vec![1]]);
    assert_eq!(e.relation("both").unwrap().to_vecs(), vec![vec![1, 2], vec![2, 1], vec![2, 3], vec![3, 2]]);
    assert_eq!(e.relation("named").unwrap().to_vecs(), vec![vec![1], vec![2]]);
    assert_eq!(e.relation("pick").unwrap().to_vecs(), vec![vec![1, 2]]);
    e.remove("e", [&[1u32, 1][..], &[1, 2], &[2, 3], &[3, 2]]).unwrap();
    let c = e.advance().unwrap();
    assert_eq!(c.get("flag").unwrap().removed.len(), 1);
    assert_eq!(e.relation("flag").unwrap().len(), 0);
}

#[test]
fn facts_in_rules_arrive_with_the_first_epoch_and_can_be_removed() {
    let text = ".decl e(a: number)\n.input e\n.output e\ne(1). e(2).\n";
    let mut e = Engine::new(&program(text), 1).unwrap();
    assert_eq!(e.relation("e").unwrap().len(), 0);
    let c = e.advance().unwrap();
    assert_eq!(c.get("e").unwrap().added.to_vecs(), vec![vec![1], vec![2]]);
    e.remove("e", [&[1u32][..]]).unwrap();
    e.advance().unwrap();
    assert_eq!(e.relation("e").unwrap().to_vecs(), vec![vec![2]]);
}

#[test]
fn embedded_rules_with_includes() {
    let mut files = MapResolver::new()
        .with("rules/lib/graph.dl", ".decl edge(a: number, b: number)\n.input edge\n")
        .with("rules/main.dl", ".include \"lib/graph.dl\"\n.decl out(a: number)\n.output out\nout(a) :- edge(a, _).\n");
    let main = ".include \"main.dl\"";
    let p = Program::parse(main, "rules/top.dl", &mut files).unwrap();
    assert_eq!(p.files(), &["rules/top.dl", "rules/main.dl", "rules/lib/graph.dl"]);
    assert_eq!(p.relation("edge").unwrap().arity(), 2);
    assert!(p.explain().contains("stratum"));
}

/// Changes and relations are identical, in content and order, whatever the number of workers.
#[test]
fn deterministic_across_worker_counts() {
    let path = format!("{}/../rules/interference.dl", env!("CARGO_MANIFEST_DIR"));
    let p = Program::from_file(&path).unwrap();
    let facts = oracle::gen::small(11, 40);
    let run = |workers: usize| {
        let mut e = Engine::new(&p, workers).unwrap();
        let mut log = Vec::new();
        for (i, (name, rows)) in facts.relations().into_iter().enumerate() {
            e.insert(name, rows.iter().map(|r| r.as_slice())).unwrap();
            if i % 4 == 3 {
                log.push(e.advance().unwrap());
            }
        }
        log.push(e.advance().unwrap());
        (log, e.relation("may_flow").unwrap())
    };
    let one = run(1);
    assert!(!one.1.is_empty());
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
}

#[test]
fn engines_start_and_stop_repeatedly() {
    let p = program(TC);
    for workers in [1, 2, 4] {
        for _ in 0..5 {
            let mut e = Engine::new(&p, workers).unwrap();
            e.insert("edge", [&[1u32, 2][..]]).unwrap();
            e.advance().unwrap();
        }
        // Dropped without ever advancing, too.
        drop(Engine::new(&p, workers).unwrap());
    }
}

/// A rule whose negation, if planned first, would carry five values: the planner joins the fully
/// bound atom first, so the program runs on the narrow (3, 3) rows, with the same answer as a
/// direct evaluation of the rule.
#[test]
fn planner_keeps_rows_narrow() {
    let rules = "
        .decl big(u0: number, x: number, u1: number, v: number)
        .input big
        .decl step(u1: number, x: number, c: number, val: number, u2: number)
        .input step
        .decl cv(v: number, c: number, val: number)
        .input cv
        .decl at(v: number)
        .input at
        .decl out(u0: number, x: number, u2: number, v: number)
        .output out
        out(u0, x, u2, v) :- big(u0, x, u1, v), step(u1, x, c, val, u2), cv(v, c, val), !at(v).
    ";
    let p = Program::parse(rules, "narrow.dl", &mut NoIncludes).unwrap();
    assert!(p.explain().starts_with("engine preset: key width 3, value width 3"), "{}", p.explain());
    let mut rng = oracle::gen::Rng::new(5);
    let mut rows = |n: usize, width: usize| -> Vec<Vec<u32>> { (0..n).map(|_| (0..width).map(|_| rng.below(4)).collect()).collect() };
    let (big, step, cv, at) = (rows(60, 4), rows(60, 5), rows(20, 3), rows(2, 1));
    let mut expected = std::collections::BTreeSet::new();
    for b in &big {
        for s in step.iter().filter(|s| s[0] == b[2] && s[1] == b[1]) {
            if cv.iter().any(|c| c[..] == [b[3], s[2], s[3]]) && !at.iter().any(|a| a[0] == b[3]) {
                expected.insert(vec![b[0], b[1], s[4], b[3]]);
            }
        }
    }
    let mut e = Engine::new(&p, 1).unwrap();
    for (name, rs) in [("big", &big), ("step", &step), ("cv", &cv), ("at", &at)] {
        e.insert(name, rs.iter().map(|r| r.as_slice())).unwrap();
    }
    e.advance().unwrap();
    let got: std::collections::BTreeSet<Vec<u32>> = e.relation("out").unwrap().to_vecs().into_iter().collect();
    assert!(!expected.is_empty());
    assert_eq!(got, expected);
}

/// `a -> b` pairs connected by a path of one or more edges, computed naively.
fn closure(edges: &[[u32; 2]]) -> std::collections::BTreeSet<[u32; 2]> {
    let mut path: std::collections::BTreeSet<[u32; 2]> = edges.iter().copied().collect();
    loop {
        let next: Vec<[u32; 2]> = path.iter().flat_map(|p| edges.iter().filter(move |e| e[0] == p[1]).map(move |e| [p[0], e[1]])).collect();
        let before = path.len();
        path.extend(next);
        if path.len() == before {
            return path;
        }
    }
}

#[test]
fn a_stratum_after_a_loop_shares_its_scope_and_stays_exact() {
    // `two` joins path on the loop's own arrangement, so it is evaluated inside the loop, and it
    // negates the loop's relation: its value must still be the one on the converged `path`.
    let text = format!("{TC}.decl two(a: number, b: number)\n.output two\ntwo(x, w) :- path(x, y), edge(y, w), !path(w, x), !edge(x, w).\n");
    let p = program(&text);
    assert!(p.explain().contains("evaluated in the loop of stratum"), "{}", p.explain());
    let expected = |edges: &[[u32; 2]]| -> Vec<Vec<u32>> {
        let path = closure(edges);
        let mut two: Vec<Vec<u32>> = path
            .iter()
            .flat_map(|p| edges.iter().filter(move |e| e[0] == p[1]).map(move |e| [p[0], e[1]]))
            .filter(|t| !path.contains(&[t[1], t[0]]) && !edges.contains(t))
            .map(|t| t.to_vec())
            .collect();
        two.sort();
        two.dedup();
        two
    };
    for workers in [1, 2] {
        let mut e = Engine::new(&p, workers).unwrap();
        let mut edges: Vec<[u32; 2]> = vec![[1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [2, 7], [7, 8]];
        e.insert("edge", edges.iter().map(|r| &r[..])).unwrap();
        e.advance().unwrap();
        assert_eq!(e.relation("two").unwrap().to_vecs(), expected(&edges));
        // A back edge makes a cycle (pairs on it leave `two`); removing an edge cuts the chain.
        let changes: [(&str, [u32; 2]); 3] = [("insert", [6, 3]), ("remove", [2, 3]), ("insert", [8, 1])];
        for (what, edge) in changes {
            if what == "insert" {
                e.insert("edge", [&edge[..]]).unwrap();
                edges.push(edge);
            } else {
                e.remove("edge", [&edge[..]]).unwrap();
                edges.retain(|x| *x != edge);
            }
            e.advance().unwrap();
            assert_eq!(e.relation("two").unwrap().to_vecs(), expected(&edges), "{workers} worker(s), after {what} {edge:?}");
        }
    }
}

#[test]
fn held_rows_count_what_distinct_and_arrangements_keep() {
    let config = EngineConfig { workers: 1, profile: true, ..Default::default() };
    let mut e = Engine::with_config(&program(TC), &config).unwrap();
    let edges: Vec<[u32; 2]> = (0..40).map(|i| [i, i + 1]).chain([[40, 0]]).collect();
    e.insert("edge", edges.iter().map(|r| &r[..])).unwrap();
    e.advance().unwrap();
    let path = e.relation("path").unwrap().len();
    assert_eq!(path, closure(&edges).len());
    let held = e.held_rows().unwrap();
    let rows = |prefix: &str| held.iter().filter(|(n, _)| n.starts_with(prefix)).map(|(_, r)| *r).sum::<usize>();
    assert_eq!(rows("distinct path"), path, "distinct keeps one state per derived row: {held:?}");
    assert!(rows("arrange path[") >= path, "the loop's arrangement holds every path row at least once: {held:?}");
    let mut plain = Engine::new(&program(TC), 1).unwrap();
    plain.insert("edge", edges.iter().map(|r| &r[..])).unwrap();
    plain.advance().unwrap();
    assert!(plain.held_rows().unwrap().is_empty(), "nothing is recorded without profiling");
}

/// A fixed relation, and one derived from fixed relations alone (`open`, computed once before
/// the first epoch), are joined and negated by lookup: the results are those of the plain engine
/// over epochs that change only the other inputs, and a change to a fixed relation after the first
/// epoch is refused (a lookup table cannot retract what it already let through).
#[test]
fn fixed_inputs_are_looked_up_and_cannot_change() {
    let text = ".decl edge(a: number, b: number)\n.input edge\n.decl block(a: number)\n.input block\n.decl start(a: number)\n.input start\n\
                .decl open(a: number, b: number)\n.decl reach(a: number)\n.output reach\n\
                open(x, y) :- edge(x, y), !block(y).\nopen(x, z) :- open(x, y), open(y, z), x < 12.\n\
                reach(x) :- start(x), !block(x).\nreach(y) :- reach(x), open(x, y), !block(x).\n";
    let p = program(text);
    let edges: Vec<[u32; 2]> = (0..30).map(|i| [i, (i * 7 + 3) % 30]).chain((0..30).map(|i| [i, i + 1])).collect();
    let blocked: Vec<[u32; 1]> = [4, 9, 17].map(|b| [b]).to_vec();
    let starts: [&[[u32; 1]]; 3] = [&[[0]], &[[0], [5]], &[[5]]];
    for workers in [1, 2] {
        let config = EngineConfig { workers, profile: true, observe_all: true, fixed: vec!["edge".into(), "block".into()] };
        let mut fixed = Engine::with_config(&p, &config).unwrap();
        let mut plain = Engine::with_config(&p, &EngineConfig { workers, observe_all: true, ..EngineConfig::default() }).unwrap();
        for e in [&mut fixed, &mut plain] {
            e.insert("edge", edges.iter().map(|r| &r[..])).unwrap();
            e.insert("block", blocked.iter().map(|r| &r[..])).unwrap();
        }
        let mut prev: &[[u32; 1]] = &[];
        for s in starts {
            for e in [&mut fixed, &mut plain] {
                e.remove("start", prev.iter().map(|r| &r[..])).unwrap();
                e.insert("start", s.iter().map(|r| &r[..])).unwrap();
                e.advance().unwrap();
            }
            prev = s;
            let got = fixed.relation("reach").unwrap().to_vecs();
            assert!(!got.is_empty() && !got.contains(&vec![9]), "{got:?}");
            assert_eq!(got, plain.relation("reach").unwrap().to_vecs(), "{workers} worker(s), start {s:?}");
            let open = fixed.relation("open").unwrap().to_vecs();
            assert!(open.len() > edges.len(), "{open:?}");
            assert_eq!(open, plain.relation("open").unwrap().to_vecs(), "{workers} worker(s)");
        }
        assert_eq!(fixed.insert("block", [&[4u32][..]]).unwrap(), 0, "a tuple already present changes nothing");
        assert_eq!(fixed.insert("block", [&[5u32][..]]), Err(EngineError::Fixed("block".into())));
        assert_eq!(fixed.remove("edge", [&[0u32, 1][..]]), Err(EngineError::Fixed("edge".into())));
        let held = fixed.held_rows().unwrap();
        assert!(held.iter().any(|(n, rows)| n.starts_with("table block[") && *rows == 3), "{held:?}");
        assert!(held.iter().any(|(n, rows)| n.starts_with("table open[") && *rows > edges.len()), "{held:?}");
        assert!(!held.iter().any(|(n, _)| n.starts_with("arrange: ")), "no intermediate result is arranged: {held:?}");
    }
    let not_fixable = |name: &str| Engine::with_config(&p, &EngineConfig { fixed: vec![name.into()], ..EngineConfig::default() }).err();
    assert_eq!(not_fixable("reach"), Some(EngineError::NotFixable("reach".into())));
    assert_eq!(not_fixable("nope"), Some(EngineError::UnknownRelation("nope".into())));
}
