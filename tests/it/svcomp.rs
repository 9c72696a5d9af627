//! The SV-COMP runner: task files in, answers, a confusion matrix and the score out; never a
//! wrong TRUE or FALSE on the development set; bad task files are rows, not crashes.

use crate::common;

use common::{repo, shared_benchmarks, texts};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn duet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_duet-rs")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().expect("run duet-rs")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("duet-svcomp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A parsed table row: (task, expected, got, seconds, points, note).
type Row = (String, String, String, f64, i64, String);

/// The rows of the table, checking the header and every row's shape.
fn table_rows(stdout: &str) -> Vec<Row> {
    let mut lines = stdout.lines();
    let header = lines.next().unwrap();
    let cols: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(cols, ["task", "expected", "got", "time", "(s)", "points", "note"], "header: {header}");
    let mut rows = Vec::new();
    for line in lines.by_ref() {
        if line.is_empty() {
            break;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert!(f.len() >= 5, "row: {line}");
        assert!(["true", "false", "-"].contains(&f[1]), "expected column: {line}");
        assert!(["TRUE", "FALSE", "UNKNOWN"].contains(&f[2]), "got column: {line}");
        let secs: f64 = f[3].parse().unwrap_or_else(|_| panic!("time column: {line}"));
        let points: i64 = f[4].parse().unwrap_or_else(|_| panic!("points column: {line}"));
        rows.push((f[0].to_string(), f[1].to_string(), f[2].to_string(), secs, points, f[5..].join(" ")));
    }
    rows
}

/// Checks the confusion matrix and score lines against the rows, returning the score.
fn check_summary(stdout: &str, rows: &[Row]) -> i64 {
    assert!(stdout.contains("confusion matrix (rows: expected verdict, columns: answer)\n"), "{stdout}");
    let count = |e: &str, g: &str| rows.iter().filter(|r| r.1 == e && r.2 == g).count();
    for (name, e) in [("expected true", "true"), ("expected false", "false")] {
        let line = stdout.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no `{name}` line:\n{stdout}"));
        let n: Vec<usize> = line[name.len()..].split_whitespace().map(|x| x.parse().unwrap()).collect();
        assert_eq!(n, [count(e, "TRUE"), count(e, "FALSE"), count(e, "UNKNOWN")], "{line}");
    }
    let score: i64 = rows.iter().map(|r| r.4).sum();
    let max: i64 = rows
        .iter()
        .map(|r| {
            if r.1 == "true" {
                2
            } else if r.1 == "false" {
                1
            } else {
                0
            }
        })
        .sum();
    let line = format!("score {score} (of {max} possible; +2 correct TRUE, +1 correct FALSE, -32 wrong TRUE, -16 wrong FALSE)");
    assert!(stdout.lines().any(|l| l == line), "expected `{line}` in:\n{stdout}");
    for r in rows {
        let want = match (r.1.as_str(), r.2.as_str()) {
            ("true", "TRUE") => 2,
            ("false", "FALSE") => 1,
            ("false", "TRUE") => -32,
            ("true", "FALSE") => -16,
            _ => 0,
        };
        assert_eq!(r.4, want, "points of {r:?}");
    }
    score
}

#[test]
fn slow_dev_set_has_no_wrong_answers_and_prints_table_matrix_and_score() {
    if !common::slow("dev_set_has_no_wrong_answers_and_prints_table_matrix_and_score") {
        return;
    }
    let Some(bench) = shared_benchmarks("dev_set_has_no_wrong_answers_and_prints_table_matrix_and_score") else { return };
    let dir = scratch("dev");
    let csv = dir.join("dev.csv");
    let tasks = bench.join("c");
    // With a bound, COARSEN's unknowns go on to the bounded search, so both engines' answers
    // are scored; every expected-false task is found by bound 3.
    let out = duet(&["svcomp", "--bound", "3", "--workers", "2", "--timeout", "30", "--csv", csv.to_str().unwrap(), tasks.to_str().unwrap()]);
    let (stdout, stderr) = texts(&out);
    let rows = table_rows(&stdout);
    assert_eq!(rows.len(), 40, "{stdout}");
    let wrong: Vec<&Row> = rows.iter().filter(|r| (r.1 == "true" && r.2 == "FALSE") || (r.1 == "false" && r.2 == "TRUE")).collect();
    assert!(wrong.is_empty(), "wrong answers on the dev set: {wrong:#?}");
    assert!(!stdout.contains("WRONG"));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(rows.iter().filter(|r| r.1 == "true").count(), 26);
    assert_eq!(rows.iter().filter(|r| r.1 == "false").count(), 14);
    let found: Vec<&Row> = rows.iter().filter(|r| r.1 == "false" && r.2 == "FALSE").collect();
    assert_eq!(found.len(), 14, "expected-false tasks not found violated: {:#?}", rows.iter().filter(|r| r.1 == "false" && r.2 != "FALSE").collect::<Vec<_>>());
    let score = check_summary(&stdout, &rows);
    eprintln!("dev-set score: {score}");
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv_text.lines().next(), Some("task,expected,answer,correct,points,outcome,seconds,note"));
    assert_eq!(csv_text.lines().count(), 41);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// A task file; LP64 because the test programs include system headers, which need the
/// 32-bit multilib headers under ILP32 (SV-COMP's own inputs are preprocessed already).
fn task_yml(input: &str, expected: &str) -> String {
    format!(
        "format_version: '2.0'\ninput_files: '{input}'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: {expected}\noptions:\n  language: C\n  data_model: LP64\n"
    )
}

#[test]
fn bad_task_files_are_reported_and_the_others_run() {
    let dir = scratch("bad");
    let threads = repo("tests/programs/threads.c");
    // A thread-specific key with a destructor is an unsupported construct: its verdicts stay unknown whatever
    // the engines do.
    let unsupported = repo("tests/bad_input/unsupported.c");
    std::fs::copy(&threads, dir.join("threads.c")).unwrap();
    let good = write(&dir, "a_good.yml", &task_yml("threads.c", "true"));
    let unknown = write(&dir, "b_unknown.yml", &task_yml(unsupported.to_str().unwrap(), "false"));
    // The unclosed flow sequence is noticed at the end of the input, line 5.
    let malformed = write(&dir, "c_malformed.yml", "format_version: '2.0'\ninput_files: 'x.c'\nproperties:\n  - property_file: [unclosed\n");
    let missing_input = write(&dir, "d_missing_input.yml", &task_yml("absent.c", "true"));
    let java = write(&dir, "e_java.yml", &task_yml("threads.c", "true").replace("language: C", "language: Java"));
    let other = write(&dir, "f_other.yml", "format_version: '2.0'\ninput_files: 'threads.c'\nproperties:\n  - property_file: ../properties/no-data-race.prp\n    expected_verdict: true\n");
    let two = write(&dir, "g_two.yml", &task_yml("threads.c", "true").replace("input_files: 'threads.c'", "input_files:\n  - threads.c\n  - other.c"));
    let absent = dir.join("h_absent.yml");
    let out = duet(&["svcomp", &good, &unknown, &malformed, &missing_input, &java, &other, &two, absent.to_str().unwrap()]);
    let (stdout, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "unusable task files are input errors:\n{stdout}\n{stderr}");
    let rows = table_rows(&stdout);
    assert_eq!(rows.len(), 7, "the task without unreach-call is skipped:\n{stdout}");
    assert_eq!((rows[0].1.as_str(), rows[0].2.as_str(), rows[0].4), ("true", "TRUE", 2), "no failure point at all: TRUE");
    assert_eq!((rows[1].1.as_str(), rows[1].2.as_str(), rows[1].4), ("false", "UNKNOWN", 0));
    assert!(rows[2].5.starts_with("bad-task:") && rows[2].5.contains("c_malformed.yml:5: malformed YAML"), "{:?}", rows[2]);
    assert!(rows[3].5.starts_with("bad-task:") && rows[3].5.contains("d_missing_input.yml:2: the input file") && rows[3].5.contains("absent.c does not exist"), "{:?}", rows[3]);
    assert!(rows[4].5.contains("e_java.yml:7: language `Java` is not supported"), "{:?}", rows[4]);
    assert!(rows[5].5.contains("g_two.yml:2: 2 input files"), "{:?}", rows[5]);
    assert!(rows[6].5.contains("h_absent.yml: cannot read the task file"), "{:?}", rows[6]);
    assert!(stdout.contains("1 task file(s) without an unreach-call property skipped"), "{stdout}");
    assert!(stderr.contains("c_malformed.yml:5: malformed YAML"), "bad task files are also errors on stderr: {stderr}");
    assert_eq!(check_summary(&stdout, &rows), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_wrong_answer_is_marked_and_fails_the_run() {
    let dir = scratch("wrong");
    std::fs::copy(repo("tests/programs/threads.c"), dir.join("threads.c")).unwrap();
    // threads.c has no failure point, so duet-rs answers TRUE; this task claims FALSE.
    let wrong = write(&dir, "wrong.yml", &task_yml("threads.c", "false"));
    let out = duet(&["svcomp", &wrong]);
    let (stdout, _) = texts(&out);
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    let rows = table_rows(&stdout);
    assert_eq!(rows[0].4, -32);
    assert!(rows[0].5.ends_with("WRONG"), "{stdout}");
    assert!(stdout.contains("correct true 0, correct false 0, wrong true 1, wrong false 0, unknown 0"), "{stdout}");
    assert_eq!(check_summary(&stdout, &rows), -32);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors() {
    let dir = scratch("usage");
    let out = duet(&["svcomp", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(texts(&out).1.contains("no .yml task files"));
    let out = duet(&["svcomp", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(texts(&out).0.contains("--csv <FILE>"));
    std::fs::remove_dir_all(&dir).unwrap();
}
