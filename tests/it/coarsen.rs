//! COARSEN's verdicts on real programs: the project's annotated programs, DUET's Figure 1 and
//! Figure 2, DUET's regression set, and the SV-COMP development set.

use crate::common;

use duet_rs::coarsen::DomainKind;
use duet_rs::coarsen::{self, CoarsenOptions};
use duet_rs::engine::CheckOptions;
use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::ir::{self, LocId, Program};
use duet_rs::strategy::check_program;
use duet_rs::verdict::Status;
use std::path::Path;

const DOMAINS: [DomainKind; 2] = [DomainKind::Interval, DomainKind::Octagon];

fn statuses(prog: &Program, domain: DomainKind) -> Vec<Status> {
    let opts = CheckOptions { domain, ..CheckOptions::coarsen_only() };
    check_program(prog, &opts).verdicts.into_iter().map(|v| v.status).collect()
}

/// Every assertion of `tests/programs/coarsen/*.c` carries `// expect: safe` or
/// `// expect: unknown` on its line; both domains must give exactly that.
#[test]
fn annotated_programs() {
    let dir = common::repo("tests/programs/coarsen");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 6);
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        let prog = load(&f, &FrontendOptions::default()).unwrap();
        let expected: Vec<Status> = prog
            .assertions
            .iter()
            .map(|a| {
                let line = src.lines().nth(a.span.line as usize - 1).unwrap();
                if line.contains("// expect: safe") {
                    Status::Safe
                } else if line.contains("// expect: unknown") {
                    Status::Unknown
                } else {
                    panic!("{}:{} has no expectation", f.display(), a.span.line)
                }
            })
            .collect();
        for d in DOMAINS {
            assert_eq!(statuses(&prog, d), expected, "{} with {d:?}", f.display());
        }
    }
}

/// The project's examples, with the verdicts their comments state.
#[test]
fn examples() {
    let cases: &[(&str, &[Status])] =
        &[("producer_consumer.c", &[Status::Safe]), ("increment_decrement.c", &[Status::Safe, Status::Unknown]), ("locked_counter.c", &[Status::Safe]), ("racy_counter.c", &[Status::Unknown])];
    for (file, expected) in cases {
        let prog = load(&common::repo(&format!("benchmarks/examples/{file}")), &FrontendOptions::default()).unwrap();
        for d in DOMAINS {
            assert_eq!(&statuses(&prog, d), expected, "{file} with {d:?}");
        }
    }
}

fn find(prog: &Program, template: &str, pred: impl Fn(&str, LocId) -> bool) -> LocId {
    let t = prog.templates.iter().find(|t| t.function == template).unwrap();
    *t.locs.iter().find(|l| pred(&ir::display::action(prog, &prog.loc(**l).action), **l)).unwrap_or_else(|| panic!("no such location in {template}"))
}

/// DUET's Figure 1 (Example 5.1): the value 0 stored in batch mode (u10) never flows to the
/// consumer's decrement (v5), whose invariant stays `counter > 0`; the rounds stop once no
/// edge is added.
fn figure1(prog: &Program) {
    for domain in DOMAINS {
        let out = coarsen::run(prog, &CoarsenOptions { domain, ..Default::default() }).unwrap();
        assert_eq!(out.assertions[0].status, Status::Safe, "{domain:?}");
        let u10 = find(prog, "producer", |a, _| a == "counter := 0");
        // v5 reads `counter` into a temporary, then stores the decrement.
        let v5 = find(prog, "consumer", |a, l| {
            a.starts_with("$r") && a.ends_with(":= counter") && {
                let next = prog.loc(l).succs[0];
                ir::display::action(prog, &prog.loc(next).action).contains("- 1")
            }
        });
        let counter = prog.memory.locs.iter().position(|l| l.name == "counter").unwrap();
        let cell = out.cells.cell_of(ir::AbsLoc(counter as u32));
        assert!(!out.dfg.round.contains_key(&(u10, cell, v5)), "{domain:?}: the edge u10 -> v5 must never be added");
        // Other producer writes do reach v5, from the second round on.
        let incoming: Vec<_> = out.dfg.incoming[v5.index()].iter().filter(|(c, _, _)| *c == cell).collect();
        assert!(incoming.iter().any(|(_, u, _)| prog.template(prog.loc(*u).template).function == "producer"), "{domain:?}");
        let inv = out.invariants[v5.index()].as_ref().expect("v5 is reachable");
        assert!(inv.contains("1 <= counter") || inv.contains("counter >= 1"), "{domain:?}: invariant at v5 is `{inv}`");
        assert!(out.rounds.len() >= 2, "{domain:?}: {} rounds", out.rounds.len());
        assert!(out.rounds[0].edges_added > 0);
        assert_eq!(out.rounds.last().unwrap().edges_added, 0);
    }
}

#[test]
fn figure1_producer_consumer_example() {
    let prog = load(&common::repo("benchmarks/examples/producer_consumer.c"), &FrontendOptions::default()).unwrap();
    figure1(&prog);
}

#[test]
fn figure1_producer_consumer_duet() {
    let Some(shared) = common::shared_benchmarks("figure1_producer_consumer_duet") else { return };
    let opts = FrontendOptions { whole_program: false, parameterized: true, ..Default::default() };
    let prog = load(&shared.join("duet-coarsen/code/producer_consumer.c"), &opts).unwrap();
    figure1(&prog);
}

/// DUET's Figure 2: `c >= 0` is safe and `c <= 0` is not.
#[test]
fn figure2_popl12() {
    let Some(shared) = common::shared_benchmarks("figure2_popl12") else { return };
    let opts = FrontendOptions { parameterized: true, ..Default::default() };
    let prog = load(&shared.join("duet-coarsen/code/popl12fig2.c"), &opts).unwrap();
    for d in DOMAINS {
        assert_eq!(statuses(&prog, d), vec![Status::Safe, Status::Unknown], "{d:?}");
    }
}

fn duet_options(shared: &Path, file: &str) -> FrontendOptions {
    let reg = std::fs::read_to_string(shared.join("duet-coarsen/regression.txt")).unwrap();
    let flags = common::duet_flags(&reg, file);
    FrontendOptions {
        whole_program: !flags.iter().any(|f| f == "--no-whole-program"),
        parameterized: flags.iter().any(|f| f == "--parameterized"),
        entry_once: flags.iter().any(|f| f == "--once"),
        ..Default::default()
    }
}

/// DUET's regression programs, with the flags its regression file gives: at least DUET's own
/// count of safe assertions per file (its baselines), and exactly the counts measured here.
#[test]
fn duet_regression_set() {
    let Some(shared) = common::shared_benchmarks("duet_regression_set") else { return };
    // (file, baseline name, safe assertions duet-rs proves with intervals, assertions)
    let cases = [
        ("alias.c", "alias", 2, 3),
        ("dekker.c", "dekker_c", 1, 2),
        ("fork_interproc.c", "fork_interproc", 3, 9),
        ("nested_locks.c", "nested_locks", 1, 2),
        ("popl12fig2.c", "popl12fig2", 1, 2),
        ("producer_consumer.c", "producer_consumer", 1, 1),
        ("rendez-vous.c", "rendez-vous", 1, 1),
    ];
    let mut total = 0;
    for (file, baseline, safe, n) in cases {
        let prog = load(&shared.join("duet-coarsen/code").join(file), &duet_options(&shared, file)).unwrap();
        assert_eq!(prog.assertions.len(), n, "{file}");
        let text = std::fs::read_to_string(shared.join(format!("duet-coarsen/baselines/{baseline}.baseline"))).unwrap();
        let duet_safe: usize = text.lines().find(|l| l.contains("safe assertions")).and_then(|l| l.split_whitespace().next()).and_then(|n| n.parse().ok()).unwrap();
        let got = statuses(&prog, DomainKind::Interval).iter().filter(|s| **s == Status::Safe).count();
        assert_eq!(got, safe, "{file}");
        assert!(got >= duet_safe, "{file}: {got} safe, DUET proves {duet_safe}");
        total += got;
    }
    assert_eq!(total, 10);
}

/// The SV-COMP development set: no expected-`false` task is reported all-safe (a soundness
/// test), both domains run on every task, and the expected-`true` tasks proved so far stay
/// proved.
#[test]
fn slow_svcomp_dev_set() {
    if !common::slow("svcomp_dev_set") {
        return;
    }
    let Some(shared) = common::shared_benchmarks("svcomp_dev_set") else { return };
    let tasks = std::fs::read_to_string(shared.join("tasks.tsv")).unwrap();
    let must_prove = [
        "28-race_reach_02-simple_racefree",
        "28-race_reach_04-munge_racefree",
        "28-race_reach_05-lockfuns_racefree",
        "28-race_reach_10-ptrmunge_racefree",
        "28-race_reach_12-ptr_racefree",
        "28-race_reach_22-deref_read_racefree",
        "28-race_reach_36-indirect_racefree",
        "28-race_reach_41-trylock_racefree",
        "28-race_reach_42-trylock2_racefree",
        "28-race_reach_46-escape_racefree",
        "28-race_reach_51-mutexptr_racefree",
        "28-race_reach_60-invariant_racefree",
        "45_monabsex1_vs",
        "01_inc",
    ];
    let mut proved = Vec::new();
    for line in tasks.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (input, expected) = (cols[1], cols[2]);
        let prog = load(&shared.join(input), &FrontendOptions::default()).unwrap_or_else(|e| panic!("{input}: {e}"));
        for d in DOMAINS {
            let opts = CheckOptions { domain: d, ..CheckOptions::coarsen_only() };
            let verdicts = check_program(&prog, &opts).verdicts;
            for v in &verdicts {
                assert!(!v.reason.contains("unknown: ") || v.reason.contains("unsupported"), "{input} with {d:?}: {}", v.reason);
            }
            let all_safe = verdicts.iter().all(|v| v.status == Status::Safe);
            if expected == "false" {
                assert!(!all_safe, "SOUNDNESS: {input} is expected false but every assertion was proved with {d:?}");
            }
            if expected == "true" && all_safe && d == DomainKind::Interval {
                proved.push(Path::new(input).file_stem().unwrap().to_str().unwrap().trim_end_matches(".wvr").to_string());
            }
        }
    }
    for t in must_prove {
        assert!(proved.iter().any(|p| p == t), "{t} is no longer proved (proved: {proved:?})");
    }
}
