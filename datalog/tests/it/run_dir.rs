//! The standalone command's library function: Souffle fact directories in, CSV files out.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use datalog::{run_dir, Error};

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let p = std::env::temp_dir().join(format!("duet-datalog-test-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/examples").join(name)
}

#[test]
fn transitive_closure_example() {
    let d = TempDir::new();
    d.write("facts/edge.facts", "1\t2\n2\t3\r\n\n3\t-1\n");
    for workers in [1, 2] {
        let out = d.0.join(format!("out{workers}"));
        let s = run_dir(&example("transitive_closure.dl"), &d.0.join("facts"), &out, workers).unwrap();
        assert_eq!(s.input_tuples, 3);
        assert!(s.missing_inputs.is_empty());
        assert_eq!(s.outputs.len(), 1);
        assert_eq!(s.outputs[0].2, 6);
        assert_eq!(read(&out.join("path.csv")), "1\t-1\n1\t2\n1\t3\n2\t-1\n2\t3\n3\t-1\n");
    }
}

#[test]
fn symbols_parameters_and_missing_inputs() {
    let d = TempDir::new();
    let rules = d.write(
        "r.dl",
        ".decl parent(c: symbol, p: symbol)\n.input parent(IO=file, filename=\"family.csv\", delimiter=\",\")\n\
         .decl extra(c: symbol)\n.input extra\n\
         .decl sibling(a: symbol, b: symbol)\n.output sibling(filename=\"sib.tsv\")\n.printsize sibling\n\
         sibling(a, b) :- parent(a, p), parent(b, p), a != b.\nsibling(a, a) :- extra(a).\n",
    );
    d.write("facts/family.csv", "ann,zoe\nbob,zoe\ncid,yan\n");
    let s = run_dir(&rules, &d.0.join("facts"), &d.0.join("out"), 1).unwrap();
    assert_eq!(s.missing_inputs, vec!["extra".to_string()]);
    assert_eq!(s.sizes, vec![("sibling".to_string(), 2)]);
    assert_eq!(read(&d.0.join("out/sib.tsv")), "ann\tbob\nbob\tann\n");
}

#[test]
fn malformed_fact_lines() {
    let d = TempDir::new();
    d.write("facts/edge.facts", "1\t2\n1\tx\n3\n4\t5\t6\n99999999999\t1\n");
    let err = run_dir(&example("transitive_closure.dl"), &d.0.join("facts"), &d.0.join("out"), 1).unwrap_err();
    let Error::Facts(diags) = err else { panic!("{err}") };
    let file = d.0.join("facts/edge.facts").to_string_lossy().into_owned();
    let msgs: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        msgs,
        vec![
            format!("{file}:2:3: error: expected a signed 32-bit number in column 2 (b: number), found 'x'"),
            format!("{file}:3:1: error: expected 2 tab-separated columns for 'edge', found 1"),
            format!("{file}:4:1: error: expected 2 tab-separated columns for 'edge', found 3"),
            format!("{file}:5:1: error: expected a signed 32-bit number in column 1 (a: number), found '99999999999'"),
        ]
    );
    assert!(!d.0.join("out").exists(), "nothing is written when the input is bad");
}

#[test]
fn rule_errors_and_io_errors() {
    let d = TempDir::new();
    let rules = d.write("bad.dl", ".decl e(a: number)\ne(x) :- f(x).\n");
    match run_dir(&rules, &d.0, &d.0.join("out"), 1) {
        Err(Error::Program(diags)) => assert!(diags[0].to_string().starts_with(&format!("{}:2:9: error: unknown relation 'f'", rules.display()))),
        other => panic!("{other:?}"),
    }
    match run_dir(&d.0.join("absent.dl"), &d.0, &d.0.join("out"), 1) {
        Err(Error::Program(diags)) => assert!(diags[0].message.starts_with("cannot read rule file")),
        other => panic!("{other:?}"),
    }
}
