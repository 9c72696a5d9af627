//! Tests as data (issue 38), in the style of Goblint's regression tests: every program under
//! `tests/programs/` (and `benchmarks/examples/`) states what `duet-rs check` must say about it,
//! in comments, and one runner checks them all through the binary's JSON report.
//!
//! The annotations (also in `tests/programs/README.md`):
//! - `// expect: V` on an assertion's line, or alone on the line just above it, where `V` is
//!   `safe`, `violated`, `unknown`, `bounded-safe` (that status exactly), `fails` (the assertion
//!   can fail: any status but `safe`), or `holds` (it holds: any status but `violated`, for an
//!   assertion the tool cannot prove). `// expect: V [ENGINE]` also pins the JSON field `engine`
//!   (`coarsen`, `finite`, `transactions`, `explore`, `bounded`, `sequential`, `lowering`, ...).
//!   Text after the verdict (and engine) says why, e.g. `// expect: safe (little-endian)`.
//!   Every assertion at that line (a thread template's copies, a macro's expansions) must match;
//!   `// expect: V1, V2` gives one verdict per assertion of the line, in column order.
//! - `// expect at FILE:LINE: V [ENGINE]`, anywhere: the same for an assertion at LINE of FILE,
//!   a file the program `#include`s (whose own annotations describe that file alone) or that a
//!   line marker of a `.i` file names.
//! - `// PARAM: --flag ...`: extra `duet-rs check` flags for this program. Without
//!   `--search-time` in them, the runner gives `--search-time 10`.
//! - `// expect-error: TEXT`: the program is rejected with exit code 2 and TEXT in the output.
//!
//! A program with assertions but no annotation is listed, not failed; the allow-list below names
//! each one, and shrinks as they gain annotations.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The trees the runner walks, relative to the repository.
const TREES: [&str; 2] = ["tests/programs", "benchmarks/examples"];

/// The search time a program gets unless its `// PARAM:` line gives one.
const DEFAULT_SEARCH_TIME: &str = "10";

/// What an annotation accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    Safe,
    Violated,
    Unknown,
    BoundedSafe,
    /// Any status but `safe`: the assertion can fail.
    Fails,
    /// Any status but `violated`: the assertion holds.
    Holds,
}

impl Verdict {
    fn parse(word: &str) -> Option<Verdict> {
        Some(match word {
            "safe" => Verdict::Safe,
            "violated" => Verdict::Violated,
            "unknown" => Verdict::Unknown,
            "bounded-safe" => Verdict::BoundedSafe,
            "fails" => Verdict::Fails,
            "holds" => Verdict::Holds,
            _ => return None,
        })
    }

    fn accepts(self, status: &str) -> bool {
        match self {
            Verdict::Safe => status == "safe",
            Verdict::Violated => status == "violated",
            Verdict::Unknown => status == "unknown",
            Verdict::BoundedSafe => status == "bounded-safe",
            Verdict::Fails => status != "safe",
            Verdict::Holds => status != "violated",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Verdict::Safe => "safe",
            Verdict::Violated => "violated",
            Verdict::Unknown => "unknown",
            Verdict::BoundedSafe => "bounded-safe",
            Verdict::Fails => "fails (never safe)",
            Verdict::Holds => "holds (never violated)",
        }
    }
}

/// One `// expect:` annotation.
#[derive(Clone, Debug, PartialEq)]
struct Expect {
    verdict: Verdict,
    engine: Option<String>,
}

/// A program's annotations.
#[derive(Debug, Default)]
struct Spec {
    /// Extra flags from `// PARAM:` lines.
    params: Vec<String>,
    /// By the line of the assertions they describe, in this file: one for all of them, or one
    /// per assertion of the line in column order.
    own: BTreeMap<u32, Vec<Expect>>,
    /// By (file name, line), for assertions in files this one includes.
    included: BTreeMap<(String, u32), Vec<Expect>>,
    /// The text an `// expect-error:` program's rejection must contain.
    error: Option<String>,
}

impl Spec {
    fn annotated(&self) -> bool {
        !self.own.is_empty() || !self.included.is_empty() || self.error.is_some()
    }
}

/// `V`, `V [ENGINE]`, either followed by free text (why).
fn parse_expect(text: &str) -> Result<Expect, String> {
    let text = text.trim();
    let end = text.find(|c: char| c.is_whitespace() || c == '[').unwrap_or(text.len());
    let (word, rest) = text.split_at(end);
    let verdict = Verdict::parse(word).ok_or_else(|| format!("`{word}` is not safe, violated, unknown, bounded-safe, fails or holds"))?;
    let engine = match rest.trim_start().strip_prefix('[') {
        Some(r) => Some(r.split_once(']').ok_or_else(|| format!("`{text}`: no `]` after the engine"))?.0.trim().to_string()),
        None => None,
    };
    Ok(Expect { verdict, engine })
}

/// `V, V, ...` (one per assertion of the line, in column order), the last followed by free text.
fn parse_expects(text: &str) -> Result<Vec<Expect>, String> {
    let head = text.find('(').map_or(text, |i| &text[..i]);
    let n = head.matches(',').count();
    let mut parts: Vec<&str> = text.splitn(n + 1, ',').collect();
    let last = parts.pop().unwrap();
    let mut out = parts.into_iter().map(parse_expect).collect::<Result<Vec<_>, _>>()?;
    out.push(parse_expect(last)?);
    Ok(out)
}

/// Reads the annotations of a program's text; errors name the line.
fn parse_spec(text: &str) -> Result<Spec, Vec<String>> {
    let mut spec = Spec::default();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let Some(at) = line.find("//") else { continue };
        let (code, comment) = (&line[..at], line[at + 2..].trim());
        if let Some(flags) = comment.strip_prefix("PARAM:") {
            spec.params.extend(flags.split_whitespace().map(String::from));
        } else if let Some(msg) = comment.strip_prefix("expect-error:") {
            spec.error = Some(msg.trim().to_string());
        } else if let Some(rest) = comment.strip_prefix("expect at ") {
            let parsed = rest.split_once(": ").and_then(|(place, e)| place.rsplit_once(':').map(|(f, l)| (f, l, e))).and_then(|(f, l, e)| l.parse::<u32>().ok().map(|l| (f.to_string(), l, e)));
            match parsed {
                Some((file, l, e)) => match parse_expects(e) {
                    Ok(e) => drop(spec.included.insert((file, l), e)),
                    Err(m) => errors.push(format!("line {n}: {m}")),
                },
                None => errors.push(format!("line {n}: `expect at` wants `FILE:LINE: VERDICT`")),
            }
        } else if let Some(e) = comment.strip_prefix("expect:") {
            // Alone on its line, the annotation describes the next one.
            let target = if code.trim().is_empty() { n + 1 } else { n };
            match parse_expects(e) {
                Ok(e) => {
                    if spec.own.insert(target, e).is_some() {
                        errors.push(format!("line {n}: a second expectation for line {target}"));
                    }
                }
                Err(m) => errors.push(format!("line {n}: {m}")),
            }
        }
    }
    if errors.is_empty() {
        Ok(spec)
    } else {
        Err(errors)
    }
}

/// Whether a program's text has a failure point outside comments, or includes another program
/// that may have one: a cheap stand-in for loading it.
fn has_assertions(text: &str) -> bool {
    text.lines().any(|l| {
        let code = l.split("//").next().unwrap_or("");
        let code = code.trim_start();
        if code.starts_with('*')
            || code.starts_with("/*")
            || code.starts_with("extern")
            || code.starts_with("#define")
            || code.starts_with("void __VERIFIER_assert")
            || code.starts_with("void reach_error")
        {
            return false;
        }
        code.contains("assert(") || code.contains("reach_error(") || code.contains("__VERIFIER_error(") || code.starts_with("#include \"")
    })
}

/// The `.c`, `.i` and `.bp` programs of the trees, relative to the repository, sorted.
fn programs() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "i" | "bp")) {
                out.push(p);
            }
        }
    }
    let root = common::repo("");
    let mut files = Vec::new();
    for t in TREES {
        walk(&common::repo(t), &mut files);
    }
    let mut names: Vec<String> = files.iter().map(|p| p.strip_prefix(&root).unwrap().display().to_string()).collect();
    names.sort();
    names
}

/// The programs with assertions that no annotation describes yet, each covered by the test
/// of its directory (grep `tests/it/` for its name). Shrink this list; never grow it.
const UNANNOTATED: &[&str] = &[];

fn read(file: &str) -> String {
    std::fs::read_to_string(common::repo(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Checks one task of the JSON report against its program's annotations.
fn check_task(file: &str, spec: &Spec, task: &serde_json::Value, failures: &mut Vec<String>) {
    if task["outcome"] != "checked" {
        failures.push(format!("{file}: expected verdicts, got outcome {} ({})", task["outcome"], if task["error"].is_null() { &task["reason"] } else { &task["error"]["message"] }));
        return;
    }
    let asserts = task["assertions"].as_array().unwrap();
    let mut seen: Vec<(bool, String, u32)> = Vec::new();
    for a in asserts {
        let (afile, line) = (a["file"].as_str().unwrap(), a["line"].as_u64().unwrap() as u32);
        let own = afile == file;
        let name = Path::new(afile).file_name().unwrap().to_string_lossy().into_owned();
        let expect = if own { spec.own.get(&line) } else { spec.included.get(&(name.clone(), line)) };
        let place = if own { format!("{file}:{line}") } else { format!("{file}: {afile}:{line}") };
        let status = a["status"].as_str().unwrap();
        let engine = a["engine"].as_str().unwrap_or("none");
        let reason = a["reason"].as_str().unwrap_or("");
        let Some(es) = expect else {
            failures.push(format!("{place}: no expectation for this assertion (got {status} [{engine}], reason: {reason})"));
            continue;
        };
        seen.push((own, name, line));
        // Several verdicts on a line go to its assertions by column.
        let e = if es.len() == 1 {
            &es[0]
        } else {
            let mut cols: Vec<u64> = asserts.iter().filter(|b| b["file"] == a["file"] && b["line"] == a["line"]).map(|b| b["column"].as_u64().unwrap()).collect();
            cols.sort();
            cols.dedup();
            if cols.len() != es.len() {
                failures.push(format!("{place}: {} expectations for {} assertions", es.len(), cols.len()));
                continue;
            }
            &es[cols.iter().position(|c| Some(*c) == a["column"].as_u64()).unwrap()]
        };
        if !e.verdict.accepts(status) {
            failures.push(format!("{place}: expected {}, got {status} [{engine}] (reason: {reason})", e.verdict.word()));
        } else if let Some(want) = &e.engine {
            if want != engine {
                failures.push(format!("{place}: expected engine {want}, got {status} [{engine}] (reason: {reason})"));
            }
        }
    }
    // An annotation that describes no assertion is stale (or one line off).
    for l in spec.own.keys() {
        if !seen.iter().any(|(own, _, sl)| *own && sl == l) {
            failures.push(format!("{file}:{l}: an expectation, but no assertion at this line"));
        }
    }
    for (f, l) in spec.included.keys() {
        if !seen.iter().any(|(own, n, sl)| !own && n == f && sl == l) {
            failures.push(format!("{file}: expect at {f}:{l}: no such assertion"));
        }
    }
}

/// The directories of `tests/programs/` each shard takes; the last shard takes the rest. Three
/// shards keep each test under a minute and let the test harness run two at once.
const SHARDS: [&[&str]; 2] = [&["precision", "soundness"], &["finite", "library", "transactions"]];

/// Whether `file` belongs to shard `k` of [`SHARDS`] (the last, `SHARDS.len()`, takes the rest).
fn in_shard(file: &str, k: usize) -> bool {
    let dir = file.strip_prefix("tests/programs/").and_then(|r| r.split_once('/')).map(|(d, _)| d);
    match SHARDS.iter().position(|s| dir.is_some_and(|d| s.contains(&d))) {
        Some(i) => i == k,
        None => k == SHARDS.len(),
    }
}

#[test]
fn expectations_of_precision_and_soundness() {
    meet_expectations(0);
}

#[test]
fn expectations_of_finite_library_and_transactions() {
    meet_expectations(1);
}

#[test]
fn expectations_of_the_other_programs() {
    meet_expectations(2);
}

/// Every annotated program of the shard gets what its annotations say: one `duet-rs check` run
/// per group of programs with the same `// PARAM:` flags, two workers each.
fn meet_expectations(shard: usize) {
    let start = std::time::Instant::now();
    let mut failures = Vec::new();
    let mut groups: BTreeMap<Vec<String>, Vec<(String, Spec)>> = BTreeMap::new();
    let mut rejected = Vec::new();
    let mut unannotated = Vec::new();
    for file in programs().into_iter().filter(|f| in_shard(f, shard)) {
        let text = read(&file);
        let spec = match parse_spec(&text) {
            Ok(s) => s,
            Err(errs) => {
                failures.extend(errs.into_iter().map(|e| format!("{file}: {e}")));
                continue;
            }
        };
        if spec.error.is_some() {
            rejected.push((file, spec));
        } else if spec.annotated() {
            groups.entry(spec.params.clone()).or_default().push((file, spec));
        } else if has_assertions(&text) {
            unannotated.push(file);
        }
    }
    let (mut programs, mut assertions) = (0, 0);
    for (params, specs) in &groups {
        let mut args: Vec<&str> = vec!["check", "--format", "json", "--no-progress", "--workers", "2", "--timeout", "300"];
        if !params.iter().any(|p| p == "--search-time") {
            args.extend(["--search-time", DEFAULT_SEARCH_TIME]);
        }
        args.extend(params.iter().map(String::as_str));
        args.push("--");
        args.extend(specs.iter().map(|(f, _)| f.as_str()));
        let out = common::duet(&args);
        let (stdout, stderr) = common::texts(&out);
        let report: serde_json::Value = match serde_json::from_str(&stdout) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("PARAM {params:?}: no JSON report ({e}): {stderr}"));
                continue;
            }
        };
        let tasks = report["tasks"].as_array().unwrap();
        assert_eq!(tasks.len(), specs.len(), "PARAM {params:?}: one task per program");
        for ((file, spec), task) in specs.iter().zip(tasks) {
            assert_eq!(task["file"].as_str(), Some(file.as_str()), "the tasks come in input order");
            check_task(file, spec, task, &mut failures);
            programs += 1;
            assertions += task["assertions"].as_array().map_or(0, Vec::len);
        }
    }
    for (file, spec) in &rejected {
        let mut args: Vec<&str> = vec!["check", "--no-progress"];
        args.extend(spec.params.iter().map(String::as_str));
        args.push(file);
        let out = common::duet(&args);
        let (stdout, stderr) = common::texts(&out);
        let want = spec.error.as_deref().unwrap();
        // The text report carries a batch's input errors; a usage error goes to stderr.
        if out.status.code() != Some(2) || !format!("{stdout}{stderr}").contains(want) {
            failures.push(format!("{file}: expected rejection (exit 2) with `{want}`, got exit {:?}: {stdout}{stderr}", out.status.code()));
        }
        programs += 1;
    }
    eprintln!("expect: shard {shard}: {programs} programs, {assertions} assertions, {} groups, {:.1} s", groups.len(), start.elapsed().as_secs_f64());
    if !unannotated.is_empty() {
        eprintln!("expect: {} programs with assertions have no annotation:\n  {}", unannotated.len(), unannotated.join("\n  "));
    }
    assert!(programs >= 30, "the runner found its programs: {programs}");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// A program with assertions has annotations, or is on the allow-list (and the list names only
/// such programs, so it shrinks as they gain annotations).
#[test]
fn every_program_is_annotated_or_listed() {
    let mut missing = Vec::new();
    let mut stale = Vec::new();
    let all = programs();
    for file in &all {
        let text = read(file);
        let annotated = parse_spec(&text).map(|s| s.annotated()).unwrap_or(true);
        let listed = UNANNOTATED.contains(&file.as_str());
        if !annotated && has_assertions(&text) && !listed {
            missing.push(file.clone());
        }
        if listed && annotated {
            stale.push(file.clone());
        }
    }
    for l in UNANNOTATED {
        if !all.iter().any(|f| f == l) {
            stale.push(l.to_string());
        }
    }
    assert!(missing.is_empty(), "programs with assertions but no `// expect:`; annotate them:\n{}", missing.join("\n"));
    assert!(stale.is_empty(), "allow-listed but annotated or gone; remove them from UNANNOTATED:\n{}", stale.join("\n"));
}

#[test]
fn annotations_parse() {
    let spec = parse_spec("// PARAM: --once --engines coarsen\nint x;\n  assert(x); // expect: safe [coarsen]\n// expect: fails\nassert(!x);\n// expect at a.c:7: violated\n").unwrap();
    assert_eq!(spec.params, ["--once", "--engines", "coarsen"]);
    assert_eq!(spec.own[&3], [Expect { verdict: Verdict::Safe, engine: Some("coarsen".into()) }]);
    assert_eq!(spec.own[&5], [Expect { verdict: Verdict::Fails, engine: None }]);
    assert_eq!(spec.included[&("a.c".to_string(), 7)][0].verdict, Verdict::Violated);
    let two = parse_spec("f(); g(); // expect: holds, violated [explore] (why, and more)\n").unwrap();
    assert_eq!(two.own[&1], [Expect { verdict: Verdict::Holds, engine: None }, Expect { verdict: Verdict::Violated, engine: Some("explore".into()) }]);
    assert!(parse_spec("assert(x); // expect: sure\n").is_err());
    assert!(parse_spec("assert(x); // expect: safe [coarsen\n").is_err());
    assert!(Verdict::Fails.accepts("bounded-safe") && !Verdict::Fails.accepts("safe"));
    assert!(Verdict::Holds.accepts("unknown") && !Verdict::Holds.accepts("violated"));
}
