//! Boolean programs (`.bp`): DUET's regression programs against its baselines, the dialect's
//! semantics on programs with failing twins, and the lowering's shape (malformed programs are
//! in the bad-input corpus).

use crate::common;

use duet_rs::engine::CheckOptions;
use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::ir::{self, Multiplicity};
use duet_rs::strategy::check_program;
use duet_rs::verdict::Status;

fn statuses(file: &str, extra: &[&str]) -> Vec<(String, String)> {
    let mut args = vec!["check", "--format", "json", "--search-time", "20"];
    args.extend_from_slice(extra);
    args.push(file);
    let o = common::duet(&args);
    let (out, err) = common::texts(&o);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{file}: {e}: {out}{err}"));
    r["tasks"][0]["assertions"].as_array().unwrap_or_else(|| panic!("{file}: {out}")).iter().map(|a| (a["id"].as_str().unwrap().into(), a["status"].as_str().unwrap().into())).collect()
}

/// DUET's `.bp` regression programs with the flags of its regression file: the same number of
/// errors as its baseline, and at least its reachable safe assertions, by COARSEN alone; the
/// default strategy turns each error into a replayed violation.
#[test]
fn duet_bp_regressions_match_the_baselines() {
    let Some(shared) = common::shared_benchmarks("duet_bp_regressions_match_the_baselines") else { return };
    let reg = std::fs::read_to_string(shared.join("duet-coarsen/regression.txt")).unwrap();
    for (file, baseline) in [("dekker.bp", "dekker_bp"), ("multiround.bp", "multiround"), ("coarsen_init_condition.bp", "coarsen_init_condition")] {
        let flags = common::duet_flags(&reg, file);
        let opts = FrontendOptions {
            whole_program: !flags.iter().any(|f| f == "--no-whole-program"),
            parameterized: flags.iter().any(|f| f == "--parameterized"),
            entry_once: flags.iter().any(|f| f == "--once"),
            ..Default::default()
        };
        let path = shared.join("duet-coarsen/code").join(file);
        let prog = load(&path, &opts).unwrap_or_else(|d| panic!("{file}: {d}"));
        let text = std::fs::read_to_string(shared.join(format!("duet-coarsen/baselines/{baseline}.baseline"))).unwrap();
        let count = |what: &str| -> usize { text.lines().find(|l| l.contains(what)).and_then(|l| l.split_whitespace().next()).and_then(|n| n.parse().ok()).unwrap() };
        // DUET counts its copies of statically unreachable assertions among the safe ones.
        let unreachable: usize = text.split("safe assertions (").nth(1).and_then(|r| r.split_whitespace().next()).and_then(|n| n.parse().ok()).unwrap_or(0);
        let (duet_errors, duet_safe) = (count("errors total"), count("safe assertions") - unreachable);
        let coarsen: Vec<Status> = check_program(&prog, &CheckOptions::coarsen_only()).verdicts.into_iter().map(|v| v.status).collect();
        let safe = coarsen.iter().filter(|s| **s == Status::Safe).count();
        assert!(safe >= duet_safe, "{file}: COARSEN proves {safe}, DUET {duet_safe}");
        assert_eq!(coarsen.len() - safe, duet_errors, "{file}: {coarsen:?}");
        let p = path.to_string_lossy().into_owned();
        let extra: Vec<&str> = flags.iter().map(String::as_str).collect();
        let default = statuses(&p, &extra);
        assert_eq!(default.iter().filter(|(_, s)| s == "violated").count(), duet_errors, "{file}: {default:?}");
        assert_eq!(default.iter().filter(|(_, s)| s == "safe").count(), safe, "{file}: {default:?}");
    }
}

/// Each assertion that holds is `safe`, each failing twin `violated`, by default; and never the
/// other way round at small bounds or by COARSEN alone.
#[test]
fn dialect_semantics_with_failing_twins() {
    // (file, [(line, expected default verdict)])
    let cases: [(&str, &[(u32, &str)]); 3] = [
        ("assign.bp", &[(10, "safe"), (11, "violated"), (14, "safe"), (15, "violated"), (17, "safe"), (18, "violated"), (20, "safe"), (22, "violated")]),
        ("procs.bp", &[(17, "safe"), (19, "violated"), (21, "safe")]),
        ("threads.bp", &[(16, "safe"), (21, "violated")]),
    ];
    for (file, expected) in cases {
        let path = format!("tests/programs/bp/{file}");
        let got = statuses(&path, &[]);
        let lines: Vec<(u32, &str)> = got.iter().map(|(id, s)| (id.split(':').nth(1).unwrap().parse().unwrap(), s.as_str())).collect();
        assert_eq!(lines, expected.to_vec(), "{file}");
        for extra in [&["--bound", "1"][..], &["--bound", "2"], &["--engines", "coarsen"]] {
            for ((_, s), (_, want)) in statuses(&path, extra).iter().zip(expected.iter()) {
                match *want {
                    "safe" => assert_ne!(s, "violated", "{file} {extra:?}"),
                    _ => assert!(s != "safe" && s != "bounded-safe", "{file} {extra:?}: a failing twin is {s}"),
                }
            }
        }
    }
}

/// The lowering: a thread started at a label is a template of its own, created once per
/// `start_thread` (so two of them, not unboundedly many), whose body holds only what it can
/// reach; globals start arbitrary; statements keep their `.bp` positions.
#[test]
fn lowering_shape() {
    let p = load(&common::repo("tests/programs/bp/threads.bp"), &FrontendOptions::default()).unwrap();
    let names: Vec<(&str, Multiplicity)> = p.templates.iter().map(|t| (t.name.as_str(), t.multiplicity)).collect();
    assert_eq!(names, vec![("main", Multiplicity::One), ("__duet_bp_main_at_W", Multiplicity::One), ("__duet_bp_main_at_W@2", Multiplicity::One)]);
    assert_eq!(p.assertions.len(), 2);
    let text = ir::display::program(&p);
    assert!(text.contains("lock := (i32)nondet__Bool()"), "{text}");
    // The critical section's check sits at its `.bp` line and column, in both threads.
    let at = |t: usize| p.templates[t].locs.iter().filter(|l| matches!(p.loc(**l).action, ir::Action::Assert(..))).map(|l| (p.loc(*l).span.line, p.loc(*l).span.col)).collect::<Vec<_>>();
    assert_eq!(at(0), vec![]);
    assert_eq!(at(1), vec![(16, 5), (21, 5)]);
    assert_eq!(at(2), vec![(16, 5), (21, 5)]);
}
