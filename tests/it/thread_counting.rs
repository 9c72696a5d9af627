//! Counting threads (issue 37, item 2): the `count_*` and `refcount_*` pairs of
//! `tests/programs/unbounded/`. COARSEN alone proves every `// expect: safe` assertion of a
//! correct program from the tokens its threads hold (`coarsen::tokens`), and never proves an
//! assertion that can fail; the default strategy proves the correct programs with COARSEN. The
//! twins' violations are checked by the `expect` runner.

use crate::common;

use duet_rs::engine::CheckOptions;
use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::strategy::check_program;
use duet_rs::verdict::Status;

const PREFIXES: [&str; 2] = ["count_", "refcount_"];

fn programs() -> Vec<std::path::PathBuf> {
    common::programs_named("tests/programs/unbounded", &PREFIXES)
}

#[test]
fn counted_threads_prove_correct_programs_and_never_their_twins() {
    let files = programs();
    assert!(files.len() >= 18, "the pairs are there: {files:?}");
    let mut failures = Vec::new();
    let (mut proved, mut refuted) = (0, 0);
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let prog = load(f, &FrontendOptions::default()).unwrap();
        let got = check_program(&prog, &CheckOptions::coarsen_only()).verdicts;
        for (a, v) in prog.assertions.iter().zip(&got) {
            let line = src.lines().nth(a.span.line as usize - 1).unwrap();
            if line.contains("// expect: safe") {
                if v.status == Status::Safe {
                    proved += 1;
                } else {
                    failures.push(format!("{}:{}: not proved ({:?}: {})", f.display(), a.span.line, v.status, v.reason));
                }
            } else if line.contains("// expect: violated") || line.contains("// expect: fails") {
                if v.status == Status::Safe {
                    failures.push(format!("{}:{}: WRONG SAFE", f.display(), a.span.line));
                } else {
                    refuted += 1;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(proved >= 8 && refuted >= 12, "{proved} proofs, {refuted} failing assertions");
}

/// The default strategy decides the correct programs with COARSEN, for every thread count.
#[test]
fn the_default_strategy_proves_the_correct_programs_with_coarsen() {
    for name in ["refcount_get_put.c", "refcount_mutex.c", "count_inside.c", "count_pending.c", "count_readers.c", "count_semaphore.c"] {
        let f = common::repo(&format!("tests/programs/unbounded/{name}"));
        let (json, code) = common::json_run(&["check", "--format", "json", f.to_str().unwrap()], name);
        assert_eq!(code, 0, "{name}: {json}");
        let asserts = json["tasks"][0]["assertions"].as_array().unwrap();
        assert!(!asserts.is_empty(), "{name}");
        for a in asserts {
            assert_eq!(a["status"], "safe", "{name}: {a}");
            assert_eq!(a["engine"], "coarsen", "{name}: {a}");
        }
    }
}

/// The bound comes from the tokens: a worker about to put its reference sees `refcnt >= 2`
/// (its own reference and main's), whatever the other workers did.
#[test]
fn a_holder_sees_its_reference_and_mains() {
    let f = common::repo("tests/programs/unbounded/refcount_get_put.c");
    let inv = std::env::temp_dir().join(format!("thread_counting_{}.txt", std::process::id()));
    let arg = format!("--invariants={}", inv.display());
    let out = common::duet(&["check", "--engines", "coarsen", &arg, f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", common::texts(&out).0);
    let text = std::fs::read_to_string(&inv).unwrap();
    std::fs::remove_file(&inv).ok();
    let read = text.lines().find(|l| l.contains(":= $t4->refcnt") || l.contains(":= p#2->refcnt")).unwrap_or_else(|| panic!("{text}"));
    assert!(read.contains("o.refcnt >= 2"), "{read}");
}
