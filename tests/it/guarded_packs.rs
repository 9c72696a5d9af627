//! Octagon packs that relate a lock-protected global with the locals tested against it (issue
//! 37, item 1): the pairs of `tests/programs/unbounded/` (buffer, ring, exclusive open, device
//! state). COARSEN alone proves every `// expect: safe` assertion of a correct program, in the
//! default (interval) run through its octagon retry and with `--domain octagon`, and never
//! proves a `// expect: violated` one; the default check's violations are covered by the
//! `expect` runner.

use crate::common;

use duet_rs::coarsen::DomainKind;
use duet_rs::engine::CheckOptions;
use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::strategy::check_program;
use duet_rs::verdict::Status;

const PREFIXES: [&str; 4] = ["buffer_", "ring_", "busy_open", "devstate_"];

#[test]
fn guarded_relations_prove_correct_programs_and_never_their_twins() {
    let files = common::programs_named("tests/programs/unbounded", &PREFIXES);
    assert!(files.len() >= 11, "the pairs are there: {files:?}");
    let mut failures = Vec::new();
    let mut proved = 0;
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let prog = load(f, &FrontendOptions::default()).unwrap();
        for d in [DomainKind::Interval, DomainKind::Octagon] {
            let opts = CheckOptions { domain: d, ..CheckOptions::coarsen_only() };
            let got = check_program(&prog, &opts).verdicts;
            for (a, v) in prog.assertions.iter().zip(&got) {
                let line = src.lines().nth(a.span.line as usize - 1).unwrap();
                if line.contains("// expect: safe") {
                    if v.status == Status::Safe {
                        proved += 1;
                    } else {
                        failures.push(format!("{}:{} {d:?}: not proved ({:?})", f.display(), a.span.line, v.status));
                    }
                } else if line.contains("// expect: violated") && v.status == Status::Safe {
                    failures.push(format!("{}:{} {d:?}: WRONG SAFE", f.display(), a.span.line));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(proved >= 30, "{proved} proofs");
}

/// The default run says how the retry proved it, and the octagon run gives the relation itself
/// as the invariant at the assertion.
#[test]
fn the_default_check_names_the_related_global() {
    let f = common::repo("tests/programs/unbounded/buffer_len.c");
    let out = common::duet(&["check", "--engines", "coarsen", "--format", "json", f.to_str().unwrap()]);
    let (stdout, _) = common::texts(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("with octagons relating dev.len to the locals tested against it under its lock"), "{stdout}");
    let inv = std::env::temp_dir().join(format!("guarded_packs_{}.txt", std::process::id()));
    let arg = format!("--invariants={}", inv.display());
    let out = common::duet(&["check", "--engines", "coarsen", "--domain", "octagon", &arg, f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&inv).unwrap();
    std::fs::remove_file(&inv).ok();
    // Before the store: the writer's test, as the octagon constraint it is.
    let store = text.lines().find(|l| l.contains("dev.len := $r")).unwrap_or_else(|| panic!("{text}"));
    assert!(store.contains("n (declared at line 46) + dev.len <= 32"), "{store}");
}
