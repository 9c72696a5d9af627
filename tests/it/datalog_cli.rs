//! `duet-rs datalog` runs rule files on Soufflé-style fact directories.

use crate::common;

use common::{duet, texts};

#[test]
fn transitive_closure_with_one_and_two_workers() {
    let dir = std::env::temp_dir().join(format!("duet-datalog-cli-{}", std::process::id()));
    let facts = dir.join("facts");
    std::fs::create_dir_all(&facts).unwrap();
    std::fs::write(facts.join("edge.facts"), "1\t2\n2\t3\n3\t1\n4\t5\n").unwrap();
    let mut outputs = Vec::new();
    for workers in ["1", "2"] {
        let out_dir = dir.join(format!("out{workers}"));
        let out = duet(&["datalog", "rules/examples/transitive_closure.dl", "-F", facts.to_str().unwrap(), "-D", out_dir.to_str().unwrap(), "--workers", workers]);
        assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
        outputs.push(std::fs::read_to_string(out_dir.join("path.csv")).unwrap());
    }
    assert_eq!(outputs[0], outputs[1]);
    let expected: String = ["1\t1", "1\t2", "1\t3", "2\t1", "2\t2", "2\t3", "3\t1", "3\t2", "3\t3", "4\t5"].iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(outputs[0], expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_name_the_file_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("duet-datalog-cli-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = duet(&["datalog", "rules/examples/transitive_closure.dl", "-F", dir.to_str().unwrap(), "-D", dir.join("o").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "a missing fact file is an empty input");
    assert!(texts(&out).1.contains("no fact file for input `edge`"));
    std::fs::write(dir.join("edge.facts"), "1\tx\n").unwrap();
    let out = duet(&["datalog", "rules/examples/transitive_closure.dl", "-F", dir.to_str().unwrap(), "-D", dir.join("o").to_str().unwrap()]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("edge.facts:1:"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
