//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The external benchmark directory `../shared/benchmarks`, or `None` (with a visible message)
/// when this clone has no `../shared/` next to it. `DUET_SHARED` overrides the location.
pub(crate) fn shared_benchmarks(test: &str) -> Option<PathBuf> {
    let base = std::env::var_os("DUET_SHARED").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("shared"));
    let dir = base.join("benchmarks");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIPPED {test}: {} is absent (it ships beside the repository in CI; set DUET_SHARED to point elsewhere)", dir.display());
        None
    }
}

/// Path of a file in the repository.
pub(crate) fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The `.c` programs of the repository folder `dir` whose names start with one of `prefixes`,
/// sorted.
pub(crate) fn programs_named(dir: &str, prefixes: &[&str]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c") && prefixes.iter().any(|x| p.file_name().unwrap().to_string_lossy().starts_with(x)))
        .collect();
    files.sort();
    files
}

/// Runs the `duet-rs` binary with `args`.
pub(crate) fn duet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_duet-rs")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().expect("run duet-rs")
}

/// Stdout and stderr of a run, as text.
pub(crate) fn texts(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Runs `duet-rs` with `args` (a `--format json` run) and returns its report and exit code;
/// panics, naming `what`, when stdout is not JSON.
pub(crate) fn json_run(args: &[&str], what: &str) -> (serde_json::Value, i32) {
    let out = duet(args);
    let (stdout, stderr) = texts(&out);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{what}: no JSON ({e}): {stdout}\n{stderr}"));
    (json, out.status.code().unwrap_or(-1))
}

/// The flags DUET's regression file gives for one of its C programs.
pub(crate) fn duet_flags(regression: &str, file: &str) -> Vec<String> {
    for line in regression.lines() {
        if line.contains(&format!("@code/{file}")) {
            let mut flags: Vec<String> = line
                .split_whitespace()
                .filter_map(|w| match w {
                    "-no-whole-program" => Some("--no-whole-program".to_string()),
                    "-parameterized" => Some("--parameterized".to_string()),
                    _ => None,
                })
                .collect();
            // DUET runs each entry point once unless parameterized.
            if flags == ["--no-whole-program"] {
                flags.push("--once".into());
            }
            return flags;
        }
    }
    Vec::new()
}

/// Whether the slow tests (a minute or more each) run: only when `DUET_SLOW_TESTS=1` asks,
/// as CI's second step does. A skipped one says so, so that a quick run hides nothing.
pub(crate) fn slow(test: &str) -> bool {
    if std::env::var("DUET_SLOW_TESTS").is_ok_and(|v| v == "1") {
        true
    } else {
        eprintln!("SKIPPED {test}: a slow test (set DUET_SLOW_TESTS=1 to run it)");
        false
    }
}

/// A YAML document as JSON, to check a witness against its JSON schema.
pub(crate) fn yaml_json(y: &yaml_rust2::Yaml) -> serde_json::Value {
    use serde_json::Value;
    use yaml_rust2::Yaml;
    match y {
        Yaml::Real(r) => r.parse::<f64>().map(Value::from).unwrap_or(Value::Null),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::String(s) => Value::from(s.clone()),
        Yaml::Boolean(b) => Value::from(*b),
        Yaml::Array(a) => Value::Array(a.iter().map(yaml_json).collect()),
        Yaml::Hash(h) => Value::Object(h.iter().map(|(k, v)| (k.as_str().map(String::from).unwrap_or_else(|| format!("{k:?}")), yaml_json(v))).collect()),
        _ => Value::Null,
    }
}
