//! IR snapshots of small programs: locations, actions, mod/ref sets and templates are
//! compared with their expected rendering.

use crate::common;

use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::ir::{self, Action, Multiplicity};

fn lower(name: &str) -> ir::Program {
    load(&common::repo(&format!("tests/programs/{name}")), &FrontendOptions::default()).unwrap()
}

/// The template listings of `duet-rs ir`, without the header and variable table.
fn templates(p: &ir::Program) -> String {
    let full = ir::display::program(p);
    let start = full.find("\ntemplate").unwrap();
    full[start + 1..].to_string()
}

#[test]
fn shared_accesses_are_split_one_per_action() {
    let p = lower("shared_split.c");
    let expected = "\
template 0 main (function main, root, 1 instance, entry L0)
  L0     2:1   skip  -> L1
  L1     3:9   l := 1  -> L2   mod {l} ref {}
  L2     4:5   $r3 := h  -> L3   mod {$r3} ref {h}
  L3     4:5   g := $r3 + l  -> L4   mod {g} ref {l, $r3}
  L4     5:5   $r4 := g  -> L5   mod {$r4} ref {g}
  L5     5:5   g := $r4 + 1  -> L6 L9   mod {g} ref {$r4}
  L6     6:9   $r5 := g  -> L7   mod {$r5} ref {g}
  L7     6:9   assume($r5 > h)  -> L8   mod {h, $r5} ref {h, $r5}
  L8     6:16  l := 2  -> L11   mod {l} ref {}
  L9     6:9   $r6 := g  -> L10   mod {$r6} ref {g}
  L10    6:9   assume($r6 <= h)  -> L11   mod {h, $r6} ref {h, $r6}
  L11    7:5   exit
";
    let got = templates(&p);
    assert!(got.starts_with(expected), "got:\n{got}");
}

#[test]
fn thread_templates_and_multiplicity() {
    let p = lower("threads.c");
    let names: Vec<(&str, Multiplicity, usize)> = p.templates.iter().map(|t| (t.name.as_str(), t.multiplicity, t.spawned_at.len())).collect();
    assert_eq!(names, vec![("main", Multiplicity::One, 0), ("worker", Multiplicity::Unbounded, 1), ("once", Multiplicity::One, 1)]);
    // Each fork names its template and stores the handle in `t`, which stays a plain local:
    // passing `&t` to pthread_create is not an escaping address.
    let forks: Vec<String> = p.locs.iter().filter(|l| matches!(l.action, Action::Fork { .. })).map(|l| ir::display::action(&p, &l.action)).collect();
    assert_eq!(forks, vec!["fork worker -> t", "fork once -> t"]);
    let t = p.vars.iter().find(|v| v.name == "t").unwrap();
    assert!(!t.addr_taken);
    assert!(p.locs.iter().any(|l| matches!(l.action, Action::Join(_))));
    // `x` is global: both thread bodies modify it.
    for name in ["worker", "once"] {
        let tpl = p.templates.iter().find(|t| t.name == name).unwrap();
        let mods: Vec<String> = tpl.locs.iter().flat_map(|l| p.memory.access(*l).mods.clone()).map(|a| p.memory.info(a).name.clone()).collect();
        assert_eq!(mods, vec!["x"], "{name}");
    }
}

#[test]
fn locks_trylock_and_atomic_functions() {
    let p = lower("locks_atomic.c");
    let t = p.templates.iter().find(|t| t.name == "t").unwrap();
    let listing: Vec<(String, bool)> = t.locs.iter().map(|l| (ir::display::action(&p, &p.loc(*l).action), p.loc(*l).atomic)).collect();
    assert_eq!(
        listing,
        vec![
            ("skip".to_string(), false),
            ("acquire(m)".to_string(), false),
            ("atomic_begin".to_string(), false),
            ("flag := 1".to_string(), true),
            ("atomic_end".to_string(), true),
            ("release(m)".to_string(), false),
            ("thread_exit".to_string(), false),
        ]
    );
    // The lock is one definite object everywhere it is used.
    let locks: Vec<_> = p.locs.iter().enumerate().filter_map(|(i, _)| p.memory.lock_of[i]).collect();
    assert!(locks.len() >= 4);
    assert!(locks.iter().all(|l| *l == locks[0] && matches!(l, ir::LockRef::Exact(_))));
    // trylock: one branch acquires, the other finds the lock busy.
    let main_actions: Vec<String> = p.templates[0].locs.iter().map(|l| ir::display::action(&p, &p.loc(*l).action)).collect();
    assert!(main_actions.contains(&"acquire(m)".to_string()));
    assert!(main_actions.contains(&"busy(m)".to_string()));
}

#[test]
fn alias_model_points_to_and_regions() {
    let p = lower("alias.c");
    let info = |name: &str| p.memory.locs.iter().find(|l| l.name == name).unwrap_or_else(|| panic!("no abstract location {name}: {:?}", p.memory.locs.iter().map(|l| &l.name).collect::<Vec<_>>()));
    let access_of = |text: &str| {
        let at = p.locs.iter().position(|l| ir::display::action(&p, &l.action) == text).unwrap_or_else(|| panic!("no action `{text}`"));
        p.memory.access(ir::LocId(at as u32)).clone()
    };
    let names = |set: &[ir::AbsLoc]| set.iter().map(|a| p.memory.info(*a).name.clone()).collect::<Vec<_>>();
    // `x` has its address taken, but `p` can only point to it: the store through `p` is a
    // strong update of `x`.
    assert!(p.vars.iter().find(|v| v.name == "x").unwrap().addr_taken);
    let acc = access_of("*p := 3");
    assert_eq!(names(&acc.mods), vec!["x"]);
    assert_eq!(names(&acc.kills), vec!["x"]);
    // A plain global, a struct field and an array inside a struct.
    assert!(info("y").strong && info("y").shared);
    assert!(info("v.a").strong);
    assert!(!info("v.b[*]").strong);
    // `s` points to `x` or `y`: the store may write either, and kills neither.
    let acc = access_of("*s := 9");
    assert_eq!(names(&acc.mods), vec!["x", "y"]);
    assert!(acc.kills.is_empty());
    assert_eq!(names(&acc.refs), vec!["x", "y", "s"]);
    // Memory a library function hands out is the weakly-updated `int` region.
    let acc = access_of("*r := 7");
    assert_eq!(names(&acc.mods), vec!["*int32"]);
    let region = info("*int32");
    assert!(!region.strong && region.shared);
}

#[test]
fn switch_loops_goto_and_short_circuit() {
    let p = lower("control.c");
    let acts: Vec<String> = p.templates[0].locs.iter().map(|l| ir::display::action(&p, &p.loc(*l).action)).collect();
    for needed in [
        "assume($t1 == 1)",
        "assume($t1 == 2)",
        "assume($t1 != 1)",
        "assume($t1 != 2)",
        "r := 10",
        "r := 20",
        "r := r + 1",
        "k := k - 1",
        "assume(k == 3)",
        "assume(k < 0)",
        "assume(k > 0)",
        "assume(r > 1)",
        "$t2 := -r",
        "r := $t2",
    ] {
        assert!(acts.iter().any(|a| a == needed), "missing `{needed}` in {acts:#?}");
    }
    // A short-circuit assertion fails where both disjuncts are false.
    assert_eq!(p.assertions.len(), 1);
    let a = &p.assertions[0];
    assert_eq!(a.text, "r != 5 || k");
    assert!(matches!(p.loc(a.locs[0]).action, Action::Assert(_, ir::Expr::Const(0, _))), "{:?}", p.loc(a.locs[0]).action);
    let preds = p.predecessors();
    let guard = preds[a.locs[0].index()].clone();
    assert_eq!(guard.len(), 1);
    assert_eq!(ir::display::action(&p, &p.loc(guard[0]).action), "assume(k == 0)");
    // `case 2` falls through into `default`.
    let r20 = p.templates[0].locs.iter().find(|l| ir::display::action(&p, &p.loc(**l).action) == "r := 20").unwrap();
    let next = &p.loc(*r20).succs;
    assert_eq!(next.len(), 1);
    assert_eq!(ir::display::action(&p, &p.loc(next[0]).action), "r := r + 1");
}
