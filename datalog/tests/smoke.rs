use datalog::{Engine, FsResolver, NoIncludes, Program};

#[test]
fn transitive_closure_smoke() {
    let text = r#"
        .decl edge(a: number, b: number)
        .input edge
        .decl path(a: number, b: number)
        .output path
        path(x, y) :- edge(x, y).
        path(x, z) :- path(x, y), edge(y, z).
        edge(1, 2).
    "#;
    let p = Program::parse(text, "tc.dl", &mut NoIncludes).unwrap();
    let mut e = Engine::new(&p, 1).unwrap();
    e.insert("edge", [&[2u32, 3][..], &[3, 4]]).unwrap();
    e.advance().unwrap();
    assert_eq!(e.relation("path").unwrap().to_vecs(), vec![vec![1, 2], vec![1, 3], vec![1, 4], vec![2, 3], vec![2, 4], vec![3, 4]]);
    e.remove("edge", [&[2u32, 3][..]]).unwrap();
    let c = e.advance().unwrap();
    assert_eq!(c.get("path").unwrap().removed.to_vecs(), vec![vec![1, 3], vec![1, 4], vec![2, 3], vec![2, 4]]);
}

#[test]
fn shipped_files_load() {
    for f in ["interference.dl", "reference/interference.dl", "examples/transitive_closure.dl", "examples/same_generation.dl", "examples/unreachable.dl"] {
        let path = format!("{}/../rules/{f}", env!("CARGO_MANIFEST_DIR"));
        let p = Program::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
        println!("== {f}\n{}", p.explain());
    }
    let _ = FsResolver;
}
