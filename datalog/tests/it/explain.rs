//! Proof trees of minimal height (`datalog::explain`): recursion, the shorter of two
//! derivations, negation, comparisons, facts, repeated subproofs and worker counts.

use datalog::explain::{column_labels, Model, Proof};
use datalog::{NoIncludes, Program};

fn program(text: &str) -> Program {
    Program::parse(text, "t.dl", &mut NoIncludes).unwrap_or_else(|e| panic!("{e}"))
}

/// The tree as `rel(a, b) @line [children]`, leaves without `@`.
fn shape(p: &Proof) -> String {
    let args: Vec<String> = p.tuple.iter().map(|v| (*v as i32).to_string()).collect();
    let mut s = format!("{}({})", p.relation, args.join(", "));
    if let Some(r) = &p.rule {
        s.push_str(&format!(" @{}", r.line));
    }
    if p.elided {
        s.push_str(" ...");
    }
    if !p.children.is_empty() {
        let kids: Vec<String> = p.children.iter().map(shape).collect();
        s.push_str(&format!(" [{}]", kids.join("; ")));
    }
    s
}

const EDGES: &str = ".decl edge(a: number, b: number)\n.input edge\n.decl path(a: number, b: number)\n.output path\n";

#[test]
fn recursion_gives_the_chain() {
    let p = program(&format!("{EDGES}path(x, y) :- edge(x, y).\npath(x, z) :- path(x, y), edge(y, z).\n"));
    let edges = vec![vec![1, 2], vec![2, 3], vec![3, 4]];
    let m = Model::evaluate(&p, &[("edge", &edges)], 1).unwrap();
    let proof = m.explain("path", &[1, 4]).unwrap();
    assert_eq!(proof.height, 3);
    assert_eq!(shape(&proof), "path(1, 4) @6 [path(1, 3) @6 [path(1, 2) @5 [edge(1, 2)]; edge(2, 3)]; edge(3, 4)]");
    let r = proof.rule.as_ref().unwrap();
    assert_eq!((r.file.as_str(), r.line, r.text.as_str()), ("t.dl", 6, "path(x, z) :- path(x, y), edge(y, z)."));
    assert_eq!(m.height("edge", &[3, 4]), Some(0));
    assert_eq!(m.height("path", &[2, 4]), Some(2));
    assert!(m.explain("path", &[4, 1]).is_none(), "a tuple that does not hold has no proof");
}

#[test]
fn the_shorter_of_two_derivations_is_chosen() {
    // The recursive rule comes first and derives path(1, 3) at height 2; the base rule, second,
    // derives it from edge(1, 3) at height 1.
    let p = program(&format!("{EDGES}path(x, z) :- path(x, y), edge(y, z).\npath(x, y) :- edge(x, y).\n"));
    let edges = vec![vec![1, 2], vec![2, 3], vec![1, 3]];
    let m = Model::evaluate(&p, &[("edge", &edges)], 1).unwrap();
    let proof = m.explain("path", &[1, 3]).unwrap();
    assert_eq!(shape(&proof), "path(1, 3) @6 [edge(1, 3)]");
    assert_eq!(proof.height, 1);
    // Without the shortcut, the long way.
    let m = Model::evaluate(&p, &[("edge", &edges[..2])], 1).unwrap();
    assert_eq!(shape(&m.explain("path", &[1, 3]).unwrap()), "path(1, 3) @5 [path(1, 2) @6 [edge(1, 2)]; edge(2, 3)]");
}

#[test]
fn negation_comparison_binding_and_facts() {
    let text = ".decl node(x: number)\n.input node\n.decl edge(a: number, b: number)\n\
                edge(1, 2).\n\
                .decl reach(x: number)\n.decl lonely(x: number)\n.output lonely\n.decl big(x: number, y: number)\n.output big\n\
                reach(1).\nreach(y) :- reach(x), edge(x, y).\n\
                lonely(x) :- node(x), !reach(x).\n\
                big(x, y) :- node(x), x > 2, y = x.\n";
    let p = program(text);
    let nodes = vec![vec![1], vec![2], vec![3], vec![-4i32 as u32]];
    let m = Model::evaluate(&p, &[("node", &nodes)], 1).unwrap();
    let proof = m.explain("lonely", &[3]).unwrap();
    assert_eq!(shape(&proof), "lonely(3) @12 [node(3)]", "a negated atom has no child: it is checked absent");
    assert_eq!(proof.rule.unwrap().text, "lonely(x) :- node(x), !reach(x).");
    assert!(m.explain("lonely", &[2]).is_none());
    assert_eq!(shape(&m.explain("reach", &[2]).unwrap()), "reach(2) @11 [reach(1); edge(1, 2)]", "facts in the rules are leaves");
    assert_eq!(shape(&m.explain("big", &[3, 3]).unwrap()), "big(3, 3) @13 [node(3)]");
    assert!(m.explain("big", &[-4i32 as u32, -4i32 as u32]).is_none(), "numbers compare as signed");
}

#[test]
fn a_repeated_subproof_is_given_once() {
    let text = ".decl e(x: number)\n.input e\n.decl p(x: number)\n.decl q(x: number)\n.decl both(x: number)\n.output both\n\
                p(x) :- e(x).\nq(x) :- p(x).\nboth(x) :- p(x), q(x).\n";
    let m = Model::evaluate(&program(text), &[("e", &[vec![7]])], 1).unwrap();
    assert_eq!(shape(&m.explain("both", &[7]).unwrap()), "both(7) @9 [p(7) @7 [e(7)]; q(7) @8 [p(7) @7 ...]]");
}

#[test]
fn the_tree_does_not_depend_on_workers() {
    let p = program(&format!("{EDGES}path(x, y) :- edge(x, y).\npath(x, z) :- path(x, y), edge(y, z).\npath(x, z) :- edge(x, y), path(y, z).\n"));
    let edges: Vec<Vec<u32>> = (0..40u32).flat_map(|i| [vec![i, (i * 7 + 3) % 40], vec![i, (i + 1) % 40]]).collect();
    let one = Model::evaluate(&p, &[("edge", &edges)], 1).unwrap();
    let three = Model::evaluate(&p, &[("edge", &edges)], 3).unwrap();
    for t in [[0u32, 39], [5, 2], [17, 16]] {
        assert_eq!(one.explain("path", &t), three.explain("path", &t));
    }
    assert_eq!(one.relation("path"), three.relation("path"));
}

#[test]
fn labels_follow_the_rules() {
    let p = program(&format!("{EDGES}.decl far(a: number, b: number, n: number)\npath(x, y) :- edge(x, y).\npath(x, z) :- path(x, y), edge(y, z).\nfar(x, y, 3) :- path(x, y).\n"));
    let labels = column_labels(&p, &[("edge", 0, "node"), ("edge", 1, "node")]);
    assert_eq!(labels.get(&("path".to_string(), 1)), Some(&"node"));
    assert_eq!(labels.get(&("far".to_string(), 0)), Some(&"node"));
    assert_eq!(labels.get(&("far".to_string(), 2)), None, "a constant has no label");
}
