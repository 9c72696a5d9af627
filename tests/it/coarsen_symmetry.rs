//! Folding thread templates with identical facts (`coarsen::facts::Symmetry`) and identical
//! code (`coarsen::fold::Fold`): on real and generated programs the folded analysis keeps the
//! image of every data-flow edge of the unfolded one on a shared cell (each location replaced
//! by the one analysed for it) and proves no assertion the unfolded one leaves open, and the
//! failing twins stay unproved.

use crate::common;

use duet_rs::coarsen::DomainKind;
use duet_rs::coarsen::{self, CoarsenOptions};
use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::ir::Program;
use duet_rs::verdict::Status;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

const DOMAINS: [DomainKind; 2] = [DomainKind::Interval, DomainKind::Octagon];

type Edges = BTreeSet<(u32, u32, u32)>;

/// Statuses, the edges on shared cells, locations folded for the rules, and per location the
/// one analysed for it.
fn run(prog: &Program, domain: DomainKind, no_symmetry: bool) -> (Vec<Status>, Edges, usize, Vec<u32>) {
    let out = coarsen::run(prog, &CoarsenOptions { domain, no_symmetry, ..Default::default() }).unwrap();
    let rep: Vec<u32> = out.representative.iter().map(|l| l.0).collect();
    if no_symmetry {
        assert_eq!(out.folded_locations, 0);
        assert!(rep.iter().enumerate().all(|(i, r)| i as u32 == *r));
    }
    let edges = out.dfg.edges().into_iter().filter(|(_, c, _, _, _)| out.cells.cells[c.index()].shared).map(|(u, c, v, _, _)| (u.0, c.0, v.0)).collect();
    (out.assertions.into_iter().map(|a| a.status).collect(), edges, out.folded_locations, rep)
}

/// Both runs on `prog`; returns the statuses with folding. Folding may only add edges and may
/// only lose proofs; `same` asks for identical verdicts, `folds` whether templates must (not) fold.
fn compare(name: &str, prog: &Program, same: bool, folds: Option<bool>) -> Vec<Vec<Status>> {
    let mut all = Vec::new();
    for d in DOMAINS {
        let (s_off, e_off, _, _) = run(prog, d, true);
        let (s_on, e_on, folded, rep) = run(prog, d, false);
        if let Some(folds) = folds {
            assert_eq!(folded > 0, folds, "{name}: {folded} locations folded");
        }
        let e_off: Edges = e_off.into_iter().map(|(u, c, v)| (rep[u as usize], c, rep[v as usize])).collect();
        let missing: Vec<_> = e_off.difference(&e_on).take(5).collect();
        assert!(missing.is_empty(), "{name} with {d:?}: folding lost data-flow edges, e.g. {missing:?}");
        for (i, (on, off)) in s_on.iter().zip(&s_off).enumerate() {
            assert!(!(*on == Status::Safe && *off != Status::Safe), "SOUNDNESS: {name} with {d:?}: assertion {i} safe only when folded");
        }
        if same {
            assert_eq!(s_on, s_off, "{name} with {d:?}");
        }
        all.push(s_on);
    }
    all
}

fn figure3(n: u32, m: u32, form: &str, buggy: bool) -> PathBuf {
    let mut cmd = Command::new("bash");
    cmd.arg(common::repo("benchmarks/coarsen/figure3.sh")).args([n.to_string(), m.to_string(), form.to_string()]);
    if buggy {
        cmd.arg("buggy");
    }
    let out = cmd.output().expect("run figure3.sh");
    assert!(out.status.success(), "figure3.sh: {}", String::from_utf8_lossy(&out.stderr));
    let path = std::env::temp_dir().join(format!("duet-fig3-{}-{n}-{m}-{form}-{buggy}.c", std::process::id()));
    std::fs::write(&path, out.stdout).unwrap();
    path
}

#[test]
fn project_programs_keep_their_edges_and_verdicts() {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["tests/programs/coarsen", "benchmarks/examples"] {
        let mut fs: Vec<_> = std::fs::read_dir(common::repo(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        fs.sort();
        files.extend(fs.into_iter().filter(|p| p.extension().is_some_and(|e| e == "c")));
    }
    assert!(files.len() >= 10);
    for f in files {
        let prog = load(&f, &FrontendOptions::default()).unwrap();
        compare(&f.display().to_string(), &prog, true, None);
    }
}

#[test]
fn indexer_folds_without_losing_edges() {
    for n in ["2", "5"] {
        let opts = FrontendOptions { defines: vec![format!("NTHREADS={n}")], ..Default::default() };
        let prog = load(&common::repo("benchmarks/bounded/indexer.c"), &opts).unwrap();
        compare(&format!("indexer({n})"), &prog, true, Some(true));
    }
}

/// The Figure 3 family in both forms, and its failing twin (one thread skips the lock once):
/// the twin's unlocked section must never be proved, folded or not.
#[test]
fn figure3_family_and_its_failing_twin() {
    for form in ["shared", "distinct"] {
        let path = figure3(3, 2, form, false);
        let prog = load(&path, &FrontendOptions::default()).unwrap();
        compare(&format!("figure3(3, 2, {form})"), &prog, true, Some(true));
        let twin = figure3(3, 2, form, true);
        let prog = load(&twin, &FrontendOptions::default()).unwrap();
        for statuses in compare(&format!("figure3(3, 2, {form}, buggy)"), &prog, true, Some(true)) {
            assert!(statuses.iter().any(|s| *s != Status::Safe), "SOUNDNESS: the twin {form} was proved safe");
        }
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&twin);
    }
}

/// Templates whose facts agree but whose code writes different values are folded for the rules
/// only: each keeps its own invariants, so the value one writes is not attributed to the other.
#[test]
fn folding_keeps_values_apart() {
    let src = r#"
#include <pthread.h>
extern void __VERIFIER_assert(int cond);
int x = 0;
void *one(void *a) { x = 1; return 0; }
void *two(void *a) { x = 2; return 0; }
int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, one, 0);
    pthread_create(&t2, 0, two, 0);
    __VERIFIER_assert(x <= 2);
    __VERIFIER_assert(x != 2);
    return 0;
}
"#;
    let path = std::env::temp_dir().join(format!("duet-fold-values-{}.c", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let prog = load(&path, &FrontendOptions::default()).unwrap();
    let _ = std::fs::remove_file(&path);
    for statuses in compare("fold-values", &prog, true, Some(true)) {
        assert_eq!(statuses, vec![Status::Safe, Status::Unknown]);
    }
}

/// Templates that touch different shared cells, or one of them under a lock, are not folded.
#[test]
fn different_templates_do_not_fold() {
    let src = r#"
#include <pthread.h>
extern void __VERIFIER_assert(int cond);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0, y = 0;
void *wx(void *a) { x = 1; return 0; }
void *wy(void *a) { y = 1; return 0; }
void *wx_locked(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
    pthread_t t1, t2, t3;
    pthread_create(&t1, 0, wx, 0);
    pthread_create(&t2, 0, wy, 0);
    pthread_create(&t3, 0, wx_locked, 0);
    __VERIFIER_assert(x + y <= 2);
    return 0;
}
"#;
    let path = std::env::temp_dir().join(format!("duet-fold-none-{}.c", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let prog = load(&path, &FrontendOptions::default()).unwrap();
    let _ = std::fs::remove_file(&path);
    compare("no-fold", &prog, true, Some(false));
}

/// The SV-COMP development set: folding keeps every edge and every verdict (measured: on all
/// 40 tasks the edge counts and verdicts agree).
#[test]
fn slow_dev_set_keeps_its_edges_and_verdicts() {
    if !common::slow("dev_set_keeps_its_edges_and_verdicts") {
        return;
    }
    let Some(shared) = common::shared_benchmarks("dev_set_keeps_its_edges_and_verdicts") else { return };
    let tasks = std::fs::read_to_string(shared.join("tasks.tsv")).unwrap();
    for line in tasks.lines().skip(1) {
        let input = line.split('\t').nth(1).unwrap();
        let prog = load(&shared.join(input), &FrontendOptions::default()).unwrap_or_else(|e| panic!("{input}: {e}"));
        compare(input, &prog, true, None);
    }
}

/// One routine created at two sites with different arguments is analysed once, with its
/// parameter joined over the sites: the value either site passes still reaches the reader, so
/// the assertion a real execution violates stays unproved.
#[test]
fn folded_templates_join_their_arguments() {
    let src = r#"
#include <pthread.h>
extern void __VERIFIER_assert(int cond);
int x = 0;
void *w(void *a) { long v = (long)a; x = v; return 0; }
int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, w, (void *)1);
    pthread_create(&t2, 0, w, (void *)2);
    __VERIFIER_assert(x <= 2);
    __VERIFIER_assert(x != 2);
    return 0;
}
"#;
    let path = std::env::temp_dir().join(format!("duet-fold-args-{}.c", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let prog = load(&path, &FrontendOptions::default()).unwrap();
    let _ = std::fs::remove_file(&path);
    for d in DOMAINS {
        let (_, _, _, rep) = run(&prog, d, false);
        assert!(rep.iter().enumerate().any(|(i, r)| i as u32 != *r), "the two templates of `w` are analysed once");
    }
    for statuses in compare("fold-args", &prog, true, Some(true)) {
        assert_eq!(statuses[1], Status::Unknown, "SOUNDNESS: x == 2 is reachable");
    }
}

/// The Figure 3 family in both forms is analysed as one thread template: the graph has no
/// edge into the other templates' locations.
#[test]
fn figure3_is_analysed_once() {
    for form in ["shared", "distinct"] {
        let path = figure3(4, 2, form, false);
        let prog = load(&path, &FrontendOptions::default()).unwrap();
        let _ = std::fs::remove_file(&path);
        let out = coarsen::run(&prog, &CoarsenOptions::default()).unwrap();
        let folded: Vec<usize> = (0..prog.locs.len()).filter(|&i| out.representative[i].index() != i).collect();
        assert_eq!(folded.len(), 3 * prog.templates[1].locs.len(), "{form}: three of the four templates fold");
        assert!(out.dfg.edges().iter().all(|(u, _, v, _, _)| out.representative[u.index()] == *u && out.representative[v.index()] == *v), "{form}");
    }
}
