//! `check --dump-facts`: the facts COARSEN fed its interference rules, as Soufflé fact files,
//! reproduce with `duet-rs datalog` exactly the flows `check` used, round by round; the
//! relations follow the one schema (`datalog::schema::INTERFERENCE`).

use crate::common;

use common::{duet, repo, texts};
use datalog::schema::{Conformance, Role, INTERFERENCE};
use duet_rs::coarsen::{self, CoarsenOptions};
use duet_rs::frontend::{load, FrontendOptions};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Real programs with threads, locks, conditions, forks in loops and several rounds.
const PROGRAMS: &[&str] = &[
    "benchmarks/examples/producer_consumer.c",
    "benchmarks/examples/locked_counter.c",
    "benchmarks/examples/racy_counter.c",
    "tests/programs/locks_atomic.c",
    "tests/programs/threads.c",
    "tests/programs/coarsen/locks_condition.c",
    "tests/programs/coarsen/fork_flow.c",
    "tests/programs/coarsen/atomic_section.c",
    "tests/programs/finite/dekker.c",
    "tests/programs/finite/szymanski.c",
    "tests/programs/finite/ticket.c",
];

type Rows = BTreeSet<Vec<i64>>;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duet-facts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn read_rows(path: &Path) -> Rows {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.is_empty()).map(|l| l.split('\t').map(|f| f.parse::<i64>().unwrap_or_else(|e| panic!("{}: `{l}`: {e}", path.display()))).collect()).collect()
}

fn rounds(input_dir: &Path) -> Vec<PathBuf> {
    let mut n = 1;
    let mut out = Vec::new();
    while input_dir.join(format!("round-{n}")).is_dir() {
        out.push(input_dir.join(format!("round-{n}")));
        n += 1;
    }
    out
}

fn dump(dir: &Path, files: &[&str], extra: &[&str]) {
    let mut args = vec!["check", "--engines", "coarsen", "--no-progress", "--dump-facts", dir.to_str().unwrap()];
    args.extend(extra);
    args.extend(files);
    let out = duet(&args);
    assert!(matches!(out.status.code(), Some(0 | 5)), "{}", texts(&out).1);
}

#[test]
fn datalog_on_dumped_facts_derives_the_flows_check_used() {
    let dir = scratch("rounds");
    dump(&dir, PROGRAMS, &[]);
    let mut flows = 0;
    let mut multi_round = 0;
    for file in PROGRAMS {
        let input = dir.join(Path::new(file).file_stem().unwrap());
        let rs = rounds(&input);
        assert!(!rs.is_empty(), "{file}: no rounds in {}", input.display());
        multi_round += usize::from(rs.len() > 2);
        for round in &rs {
            // Every input relation of the schema, with its columns, and nothing else.
            let mut names: Vec<String> = std::fs::read_dir(round).unwrap().flatten().filter(|e| e.path().is_file()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
            names.sort();
            let mut want: Vec<String> = INTERFERENCE.with_role(Role::Input).map(|r| format!("{}.facts", r.name)).collect();
            want.sort();
            assert_eq!(names, want, "{}", round.display());
            for rel in INTERFERENCE.with_role(Role::Input) {
                for row in read_rows(&round.join(format!("{}.facts", rel.name))) {
                    assert_eq!(row.len(), rel.arity(), "{}: {} has a row {row:?}", round.display(), rel.decl());
                }
            }
            let out = round.with_extension("out");
            let run = duet(&["datalog", "rules/interference.dl", "-F", round.to_str().unwrap(), "-D", out.to_str().unwrap()]);
            assert_eq!(run.status.code(), Some(0), "{}", texts(&run).1);
            assert!(!texts(&run).1.contains("no fact file"), "{}", texts(&run).1);
            for rel in INTERFERENCE.with_role(Role::Output) {
                let used = read_rows(&round.join("derived").join(format!("{}.csv", rel.name)));
                let derived = read_rows(&out.join(format!("{}.csv", rel.name)));
                assert_eq!(derived, used, "{file}, {}: `{}` of duet-rs datalog differs from what check used", round.display(), rel.name);
                // Same order too: the files compare with diff.
                assert_eq!(std::fs::read_to_string(out.join(format!("{}.csv", rel.name))).unwrap(), std::fs::read_to_string(round.join("derived").join(format!("{}.csv", rel.name))).unwrap());
            }
        }
        flows += read_rows(&rs.last().unwrap().join("derived/may_flow.csv")).len();
    }
    // Guards against programs (or a dump) with nothing to compare.
    assert!(flows > 50, "only {flows} flows over {} programs", PROGRAMS.len());
    assert!(multi_round >= 3, "only {multi_round} programs took more than two rounds");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The dumped `may_flow` is what COARSEN put into its data-flow graph: every interference edge
/// of the final graph is a dumped flow, and every dumped flow is an edge (without folding, so
/// that the rules saw every template).
#[test]
fn dumped_flows_are_the_graphs_interference_edges() {
    for file in PROGRAMS {
        let prog = load(&repo(file), &FrontendOptions::default()).unwrap_or_else(|e| panic!("{file}: {e}"));
        let out = coarsen::run(&prog, &CoarsenOptions { no_symmetry: true, dump_facts: true, ..Default::default() }).unwrap();
        let facts = out.facts.as_ref().expect("facts were asked for");
        assert_eq!(facts.rounds.len(), out.rounds.len(), "{file}");
        let last = &facts.rounds.last().unwrap().derived;
        let flows: BTreeSet<(u32, u32, u32)> = last.iter().find(|(n, _)| n == "may_flow").unwrap().1.iter().map(|r| (r[0], r[1], r[2])).collect();
        let edges: BTreeSet<(u32, u32, u32)> = out.dfg.edges().into_iter().map(|(u, c, v, _, _)| (u.0, c.0, v.0)).collect();
        let interference: BTreeSet<(u32, u32, u32)> =
            out.dfg.edges().into_iter().filter(|(_, _, _, round, usage)| *round > 0 && *usage == coarsen::Use::Exec).map(|(u, c, v, _, _)| (u.0, c.0, v.0)).collect();
        assert!(interference.is_subset(&flows), "{file}: an interference edge was never dumped");
        assert!(flows.is_subset(&edges), "{file}: a dumped flow is no edge of the graph");
        // The export follows the schema: its fixed relations and the round's are its inputs.
        let mut names: Vec<&str> = facts.fixed.iter().chain(&facts.rounds[0].inputs).map(|(n, _)| n.as_str()).collect();
        names.sort();
        let mut want: Vec<&str> = INTERFERENCE.with_role(Role::Input).map(|r| r.name).collect();
        want.sort();
        assert_eq!(names, want, "{file}");
    }
}

#[test]
fn dumps_are_deterministic_and_one_directory_per_input() {
    let (a, b, copies) = (scratch("det-a"), scratch("det-b"), scratch("det-copies"));
    // Two inputs with the same stem, in different directories.
    for sub in ["one", "two"] {
        std::fs::create_dir_all(copies.join(sub)).unwrap();
        std::fs::copy(repo("tests/programs/coarsen/fork_flow.c"), copies.join(sub).join("fork_flow.c")).unwrap();
    }
    let (one, two) = (copies.join("one/fork_flow.c"), copies.join("two/fork_flow.c"));
    let files = ["benchmarks/examples/racy_counter.c", "tests/programs/threads.c", one.to_str().unwrap(), two.to_str().unwrap()];
    dump(&a, &files, &[]);
    dump(&b, &files, &["--workers", "2"]);
    let listing = |d: &Path| -> Vec<(PathBuf, String)> {
        let mut out = Vec::new();
        let mut stack = vec![d.to_path_buf()];
        while let Some(p) = stack.pop() {
            for e in std::fs::read_dir(&p).unwrap().flatten() {
                if e.path().is_dir() {
                    stack.push(e.path());
                } else {
                    out.push((e.path().strip_prefix(d).unwrap().to_path_buf(), std::fs::read_to_string(e.path()).unwrap()));
                }
            }
        }
        out.sort();
        out
    };
    let (la, lb) = (listing(&a), listing(&b));
    assert!(la.len() > 20, "{la:?}");
    assert_eq!(la, lb, "two dumps differ");
    let mut tops: Vec<String> = std::fs::read_dir(&a).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    tops.sort();
    assert_eq!(tops, ["fork_flow", "fork_flow.2", "racy_counter", "threads"]);
    std::fs::remove_dir_all(&copies).unwrap();
    // A dump with fewer rounds replaces a longer one's round directories.
    let stale = a.join("threads/round-99");
    std::fs::create_dir_all(&stale).unwrap();
    dump(&a, &["tests/programs/threads.c"], &[]);
    assert!(!stale.exists());
    std::fs::remove_dir_all(&a).unwrap();
    std::fs::remove_dir_all(&b).unwrap();
}

#[test]
fn an_unwritable_directory_is_a_usage_error_before_any_analysis() {
    let dir = scratch("unwritable");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("plain");
    std::fs::write(&file, "").unwrap();
    let target = file.join("facts");
    let out = duet(&["check", "--no-progress", "--dump-facts", target.to_str().unwrap(), "benchmarks/examples/racy_counter.c"]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--dump-facts"), "{stderr}");
    assert!(!stdout.contains("racy_counter"), "an analysis ran: {stdout}");
    let out = duet(&["check", "--engines", "bounded", "--dump-facts", dir.to_str().unwrap(), "benchmarks/examples/racy_counter.c"]);
    assert_eq!(out.status.code(), Some(1), "{}", texts(&out).1);
    assert!(texts(&out).1.contains("--dump-facts needs the coarsen engine"), "{}", texts(&out).1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The shipped rules, built in and on disk, declare exactly the schema's relations.
#[test]
fn shipped_rules_follow_the_schema() {
    for (name, text) in duet_rs::coarsen::rules::FILES {
        let p = datalog::Program::parse(text, name, &mut datalog::NoIncludes).unwrap();
        assert_eq!(INTERFERENCE.check(&p, Conformance::Exact), Vec::<String>::new(), "built-in {name}");
    }
    for file in ["rules/interference.dl", "rules/reference/interference.dl"] {
        let p = datalog::Program::from_file(repo(file)).unwrap();
        assert_eq!(INTERFERENCE.check(&p, Conformance::Exact), Vec::<String>::new(), "{file}");
    }
}

/// Declarations written from the schema conform; a renamed, re-aritied or retyped relation is
/// named in the error.
#[test]
fn the_schema_check_names_each_mismatch() {
    let decls = |edit: &dyn Fn(String) -> String| -> datalog::Program {
        let text: String = INTERFERENCE.relations.iter().map(|r| edit(format!("{}\n{}\n", r.decl(), r.directive()))).collect();
        datalog::Program::parse(&text, "schema.dl", &mut datalog::NoIncludes).unwrap_or_else(|e| panic!("{e}\n{text}"))
    };
    assert_eq!(INTERFERENCE.check(&decls(&|s| s), Conformance::Exact), Vec::<String>::new());
    let renamed = INTERFERENCE.check(&decls(&|s| s.replace("cond_val", "cond_value")), Conformance::Exact);
    assert!(renamed.iter().any(|e| e.contains("do not declare `cond_val`")), "{renamed:?}");
    assert!(renamed.iter().any(|e| e.contains("`cond_value`")), "{renamed:?}");
    let arity = INTERFERENCE.check(&decls(&|s| s.replace(".decl spawn(loc: number, entry: number)", ".decl spawn(loc: number, entry: number, n: number)")), Conformance::Exact);
    assert!(arity.iter().any(|e| e.contains("`spawn` with 3 columns")), "{arity:?}");
    let typed = INTERFERENCE.check(&decls(&|s| s.replace(".decl observe(cell: number)", ".decl observe(cell: symbol)")), Conformance::Exact);
    assert!(typed.iter().any(|e| e.contains("`observe` as symbol")), "{typed:?}");
    let output = INTERFERENCE.check(&decls(&|s| s.replace(".output may_stand", "")), Conformance::Compatible);
    assert!(output.iter().any(|e| e.contains("`may_stand` without `.output may_stand`")), "{output:?}");
    // Researchers' rules may leave inputs out, but not the outputs COARSEN reads.
    let partial = decls(&|s| if s.contains("join_waits") || s.contains("coreachable") { String::new() } else { s });
    assert_eq!(INTERFERENCE.check(&partial, Conformance::Compatible), Vec::<String>::new());
    assert!(!INTERFERENCE.check(&partial, Conformance::Exact).is_empty());
}
