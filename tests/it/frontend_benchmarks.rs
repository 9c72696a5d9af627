//! Every real program of the external benchmark set lowers to the IR, with the failure points
//! its source contains.

use crate::common;

use duet_rs::frontend::{load, FrontendOptions};
use std::path::{Path, PathBuf};

fn programs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "i")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn options_for(path: &Path, shared: &Path) -> FrontendOptions {
    let mut o = FrontendOptions::default();
    if path.starts_with(shared.join("duet-coarsen")) {
        let reg = std::fs::read_to_string(shared.join("duet-coarsen/regression.txt")).unwrap();
        let flags = common::duet_flags(&reg, path.file_name().unwrap().to_str().unwrap());
        o.whole_program = !flags.iter().any(|f| f == "--no-whole-program");
        o.parameterized = flags.iter().any(|f| f == "--parameterized");
        o.entry_once = flags.iter().any(|f| f == "--once");
    }
    // The driver tasks are preprocessed for a 32-bit target (their `tasks.tsv` says ILP32).
    o.m32 = path.starts_with(shared.join("drivers"));
    o
}

/// An independent count of the failure calls a source contains, by reading its text: calls
/// of `__VERIFIER_assert`, `assert`, `reach_error` and `__VERIFIER_error`, leaving out the
/// definitions of those helpers (whose bodies are built in).
fn textual_failure_calls(src: &str) -> usize {
    let mut n = 0;
    // Open braces of a helper definition that spans several lines (its body is built in).
    let mut helper_depth = 0i32;
    for line in src.lines() {
        let l = line.trim_start();
        let braces = line.matches('{').count() as i32 - line.matches('}').count() as i32;
        if helper_depth > 0 {
            helper_depth += braces;
            continue;
        }
        if l.starts_with("void __VERIFIER_assert(") || l.starts_with("void reach_error(") || l.starts_with("extern") || l.starts_with("void assert(") {
            helper_depth = braces.max(0);
            continue;
        }
        for pat in ["__VERIFIER_assert(", "reach_error()", "__VERIFIER_error()"] {
            n += line.matches(pat).count();
        }
        // `assert(` as a whole word, not the tail of `__VERIFIER_assert(`.
        n += line.match_indices("assert(").filter(|(i, _)| *i == 0 || !line.as_bytes()[i - 1].is_ascii_alphanumeric() && line.as_bytes()[i - 1] != b'_').count();
    }
    n
}

#[test]
fn every_shared_program_lowers_with_its_failure_points() {
    let Some(shared) = common::shared_benchmarks("every_shared_program_lowers_with_its_failure_points") else { return };
    let files = programs(&shared);
    assert!(files.len() >= 57, "expected the 40 SV-COMP tasks, 10 driver tasks and 7 DUET programs, found {}", files.len());
    let mut failures = Vec::new();
    for f in &files {
        match load(f, &options_for(f, &shared)) {
            Ok(p) => {
                let src = std::fs::read_to_string(f).unwrap();
                let expected = textual_failure_calls(&src);
                if p.assertions.len() != expected {
                    failures.push(format!("{}: {} assertions lowered, the text has {expected}", f.display(), p.assertions.len()));
                }
                assert!(p.unsupported.is_empty(), "{}: unsupported constructs {:?}", f.display(), p.unsupported);
                if f.starts_with(shared.join("drivers")) {
                    // The Whoop harness defines a wrapper for every entry point of the driver
                    // but each task starts only two of them: the failure points of the others
                    // are never called, by design.
                    assert!(p.assertions.iter().any(|a| !a.locs.is_empty()), "{}: no assertion has an instance", f.display());
                } else {
                    for a in &p.assertions {
                        assert!(!a.locs.is_empty(), "{}: assertion '{}' has no instance", f.display(), a.text);
                    }
                }
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hand_checked_assertion_counts() {
    let Some(shared) = common::shared_benchmarks("hand_checked_assertion_counts") else { return };
    // Counted by reading each program: the failure calls in code that runs.
    let expected = [
        ("c/goblint-regression/28-race_reach_01-simple_racing.i", 1),
        ("c/goblint-regression/28-race_reach_42-trylock2_racefree.i", 4),
        ("c/goblint-regression/28-race_reach_60-invariant_racefree.i", 2),
        ("c/goblint-regression/28-race_reach_70-funloop_racefree.i", 1),
        ("c/pthread-atomic/peterson.i", 2),
        ("c/pthread-ext/40_barrier_vf.i", 1),
        ("c/weaver/chl-node-subst.wvr.c", 1),
        ("duet-coarsen/code/fork_interproc.c", 9),
        ("duet-coarsen/code/alias.c", 3),
        ("duet-coarsen/code/dekker.c", 2),
        ("duet-coarsen/code/producer_consumer.c", 1),
        ("duet-coarsen/code/popl12fig2.c", 2),
    ];
    for (file, n) in expected {
        let path = shared.join(file);
        let p = load(&path, &options_for(&path, &shared)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(p.assertions.len(), n, "{file}");
    }
}

#[test]
fn thread_structure_of_shared_programs() {
    let Some(shared) = common::shared_benchmarks("thread_structure_of_shared_programs") else { return };
    use duet_rs::ir::Multiplicity::*;
    // (file, [(template function, multiplicity)]) read off each program's thread creation.
    let cases: &[(&str, &[(&str, duet_rs::ir::Multiplicity)])] = &[
        ("c/goblint-regression/28-race_reach_01-simple_racing.i", &[("main", One), ("t_fun", Unbounded)]),
        ("c/goblint-regression/28-race_reach_45-escape_racing.i", &[("main", One), ("t_fun", One)]),
        ("c/pthread-atomic/peterson.i", &[("main", One), ("thr1", One), ("thr2", One)]),
        ("c/pthread-ext/01_inc.i", &[("main", One), ("thr1", Unbounded)]),
        ("duet-coarsen/code/fork_interproc.c", &[("main", One), ("t1", One), ("t2", One), ("t3", One)]),
        ("duet-coarsen/code/popl12fig2.c", &[("main", One), ("func1", Unbounded), ("func2", Unbounded)]),
        // Without a whole program the root runs `init` and is named after it.
        ("duet-coarsen/code/dekker.c", &[("init", One), ("thread0", One), ("thread1", One)]),
        ("duet-coarsen/code/producer_consumer.c", &[("init", One), ("producer", Unbounded), ("consumer", Unbounded)]),
    ];
    for (file, templates) in cases {
        let path = shared.join(file);
        let p = load(&path, &options_for(&path, &shared)).unwrap();
        let got: Vec<(&str, duet_rs::ir::Multiplicity)> = p.templates.iter().map(|t| (t.function.as_str(), t.multiplicity)).collect();
        assert_eq!(&got[..], *templates, "{file}");
    }
}
