//! The documentation's command lines run as written, and the per-file tables of `check`
//! (`--csv`, the text summary's lines, structured `--stats` in JSON, the facts' symbols).
use crate::common;

use common::{duet, repo, texts};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A small program whose verdicts come in about a second: a racy counter of two workers.
const SMALL: &str = "benchmarks/examples/racy_counter.c";

/// A fresh, empty directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duet-rs-docs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every `duet-rs ...` command line in the fenced code blocks of `text`: from `duet-rs` (or
/// `cargo run ... --`) to a comment or a pipe, split on white space.
fn doc_commands(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        let rest = if let Some(i) = line.find("cargo run --release -- ") {
            &line[i + "cargo run --release -- ".len()..]
        } else if let Some(i) = line.find("duet-rs ") {
            &line[i + "duet-rs ".len()..]
        } else {
            continue;
        };
        let rest = rest.split(" #").next().unwrap().split(" | ").next().unwrap();
        out.push(rest.split_whitespace().map(String::from).collect());
    }
    out
}

/// Paths the documentation uses as placeholders, and the small real inputs they stand for.
fn placeholder(word: &str, work: &Path) -> Option<PathBuf> {
    Some(match word {
        "FILE.c" | "F.c" => repo(SMALL),
        "F.bp" => repo("tests/programs/bp/threads.bp"),
        "DIR/" | "drivers/" | "benchmarks/examples/" => work.join("small-dir"),
        "RULES.dl" => repo("rules/interference.dl"),
        "E.txt" => work.join("E.txt"),
        _ => return None,
    })
}

#[test]
fn every_documented_command_line_parses_and_runs() {
    let work = scratch("commands");
    std::fs::create_dir_all(work.join("small-dir")).unwrap();
    std::fs::copy(repo(SMALL), work.join("small-dir/racy_counter.c")).unwrap();
    std::fs::write(work.join("E.txt"), "# no products: the automatic exception sets are replaced by none\n").unwrap();
    std::fs::write(work.join("hosts.txt"), "localhost:2101\nlocalhost:2102\n").unwrap();
    let mut docs = vec![repo("README.md")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(repo("docs")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "md")).collect();
    more.sort();
    docs.extend(more);
    let mut ran = 0;
    let mut failures = Vec::new();
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        for words in doc_commands(&text) {
            let shown = words.join(" ");
            let mut args: Vec<String> = Vec::new();
            // Parse only: commands that need external data (SV-COMP tasks, other machines).
            let mut parse_only = false;
            for (i, w) in words.iter().enumerate() {
                if i == 0 {
                    args.push(w.clone());
                } else if let Some(p) = placeholder(w, &work) {
                    args.push(p.display().to_string());
                } else if repo(w).exists() && !w.ends_with('/') {
                    args.push(repo(w).display().to_string());
                } else {
                    parse_only |= w.starts_with("../") || w.ends_with(".yml") || w == "-n" || w.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c == '/');
                    args.push(w.clone());
                }
            }
            if args.first().is_some_and(|c| c == "check") && !args.iter().any(|a| a == "--search-time") {
                args.splice(1..1, ["--search-time".to_string(), "2".to_string(), "--finite-time".to_string(), "1".to_string()]);
            }
            if parse_only {
                eprintln!("parse only (needs external data or other processes): duet-rs {shown}");
                args.push("--help".into());
            }
            let o = Command::new(env!("CARGO_BIN_EXE_duet-rs")).args(&args).current_dir(&work).output().unwrap();
            let (out, err) = texts(&o);
            let code = o.status.code().unwrap_or(-1);
            let ok = if parse_only { code == 0 } else { matches!(code, 0 | 5 | 10) };
            if !ok {
                failures.push(format!("{}: duet-rs {shown}\n  ran: {}\n  exit {code}\n  {}", doc.display(), args.join(" "), err.lines().chain(out.lines()).take(4).collect::<Vec<_>>().join("\n  ")));
            }
            ran += 1;
        }
    }
    assert!(ran >= 25, "only {ran} command lines found in the documentation");
    assert!(failures.is_empty(), "documented command lines that fail:\n{}", failures.join("\n"));
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn unroll_and_threads_alone_run_one_fixed_bound_round() {
    let o = duet(&["check", "--format", "json", "--unroll", "2", "--threads", "2", "--search-time", "20", SMALL]);
    let (out, err) = texts(&o);
    assert_eq!(o.status.code(), Some(10), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let a = &v["tasks"][0]["assertions"][0];
    assert_eq!(a["status"], "violated", "{a}");
    assert_eq!(a["bound"], 2, "{a}");
    // Both parts needed the bounded engine: without it they are a usage error, as --bound is.
    let o = duet(&["check", "--engines", "coarsen", "--unroll", "2", SMALL]);
    assert_eq!(o.status.code(), Some(1));
    assert!(texts(&o).1.contains("--unroll needs the bounded engine"), "{}", texts(&o).1);
}

#[test]
fn help_names_every_input_kind_and_the_hostfile_flag_whole() {
    let (out, _) = texts(&duet(&["--help"]));
    assert!(out.contains(".bp"), "{out}");
    let (out, _) = texts(&duet(&["check", "--help"]));
    let host = out.split("--hostfile").nth(1).unwrap().split("\n\n").next().unwrap().to_string();
    assert!(host.contains("localhost:2101") && host.contains("localhost:2102"), "{host}");
}

#[test]
fn csv_has_a_row_per_file_and_the_text_summary_a_line_per_file() {
    let work = scratch("csv");
    let csv = work.join("table.csv");
    let o = duet(&["check", "--engines", "coarsen", "--csv", csv.to_str().unwrap(), "benchmarks/examples/locked_counter.c", "benchmarks/examples/racy_counter.c"]);
    let (out, err) = texts(&o);
    assert_eq!(o.status.code(), Some(5), "{err}");
    let table = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0], ["file", "safe", "violated", "bounded-safe", "unknown", "outcome", "seconds", "memory_mb"]);
    assert_eq!(rows.len(), 3, "{table}");
    assert_eq!(&rows[1][..6], ["benchmarks/examples/locked_counter.c", "1", "0", "0", "0", "checked"], "{table}");
    assert_eq!(&rows[2][..6], ["benchmarks/examples/racy_counter.c", "0", "0", "0", "1", "checked"], "{table}");
    assert!(rows[1][6].parse::<f64>().is_ok() && rows[1][7].parse::<f64>().is_ok(), "{table}");
    let per_file = out.split("per file\n").nth(1).unwrap_or_else(|| panic!("no per-file lines:\n{out}"));
    let line = per_file.lines().find(|l| l.contains("racy_counter.c")).unwrap();
    assert!(line.contains("safe 0 violated 0 bounded-safe 0 unknown 1") && line.trim_end().ends_with(" s"), "{line}");
    // One file: no per-file block, the summary says it all.
    let (out, _) = texts(&duet(&["check", "--engines", "coarsen", SMALL]));
    assert!(!out.contains("per file"), "{out}");
    // A CSV path that cannot be written is a usage error before any analysis.
    let o = duet(&["check", "--csv", work.join("no/such/dir/t.csv").to_str().unwrap(), SMALL]);
    assert_eq!(o.status.code(), Some(1), "{}", texts(&o).1);
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn stats_in_json_are_named_numbers_per_round() {
    let o = duet(&["check", "--format", "json", "--stats", "--search-time", "5", "--finite-time", "1", SMALL]);
    let (out, err) = texts(&o);
    assert_eq!(o.status.code(), Some(10), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sections = v["tasks"][0]["sections"].as_array().unwrap();
    let data = |title: &str| sections.iter().find(|s| s["title"] == title).unwrap_or_else(|| panic!("no {title} section: {out}"))["data"].clone();
    let coarsen = data("stats");
    let rounds = coarsen["rounds"].as_array().unwrap();
    assert!(!rounds.is_empty(), "{coarsen}");
    for (i, r) in rounds.iter().enumerate() {
        assert_eq!(r["round"], i + 1, "{r}");
        assert!(r["edges_added"].is_u64() && r["evaluations"].is_u64() && r["absint_ms"].is_number() && r["datalog_ms"].is_number(), "{r}");
    }
    assert!(coarsen["cells"].is_u64() && coarsen["edges"].is_u64(), "{coarsen}");
    let bounded = data("bounded");
    assert!(bounded["events"].is_u64() && bounded["copy_pairs"].is_u64() && bounded["solve_s"].is_number(), "{bounded}");
    let rounds = bounded["rounds"].as_array().unwrap_or_else(|| panic!("no bounded rounds: {bounded}"));
    assert!(rounds.iter().any(|r| r["events"].is_u64() && r["total_s"].is_number()), "{bounded}");
}

#[test]
fn dumped_facts_come_with_a_symbol_table() {
    let work = scratch("symbols");
    let o = duet(&["check", "--engines", "coarsen", "--dump-facts", work.to_str().unwrap(), SMALL]);
    assert_eq!(o.status.code(), Some(5), "{}", texts(&o).1);
    let table = std::fs::read_to_string(work.join("racy_counter/symbols.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows[0], ["kind", "id", "name", "source"]);
    assert!(rows.iter().all(|r| r.len() == 4), "{table}");
    let named = |kind: &str, id: &str| rows.iter().find(|r| r[0] == kind && r[1] == id).unwrap_or_else(|| panic!("no {kind} {id} in\n{table}")).clone();
    // Every id in the facts has its row, and the shared counter is named.
    let round = work.join("racy_counter/round-1");
    for (rel, kinds) in [("mod", ["loc", "cell"]), ("use", ["loc", "cell"])] {
        for fact in std::fs::read_to_string(round.join(format!("{rel}.facts"))).unwrap().lines() {
            let cols: Vec<&str> = fact.split('\t').collect();
            named(kinds[0], cols[0]);
            named(kinds[1], cols[1]);
        }
    }
    assert!(rows.iter().any(|r| r[0] == "cell" && r[2].contains("count")), "{table}");
    // A worker's read of the counter is on the assertion's line of the source.
    assert!(rows.iter().any(|r| r[0] == "loc" && r[3] == "benchmarks/examples/racy_counter.c:14" && r[2].contains("count")), "{table}");
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn rules_diff_lists_the_flows_edited_rules_lose() {
    let work = scratch("rules-diff");
    let builtin = std::fs::read_to_string(repo("rules/interference.dl")).unwrap();
    // Without the first may_flow rule, no unguarded read gets another thread's write.
    let first = "may_flow(u0, x, v) :- may_reach(u0, x, u1, v), use(v, x), !blocks(v), !atomic(u1), !join_waits(v, u1).";
    assert!(builtin.contains(first));
    let edited = work.join("edited.dl");
    std::fs::write(&edited, builtin.replace(first, "")).unwrap();
    let o = duet(&["check", "--engines", "coarsen", "--rules", edited.to_str().unwrap(), "--rules-diff", SMALL]);
    let (out, err) = texts(&o);
    assert!(matches!(o.status.code(), Some(0 | 5)), "{err}");
    let diff = out.split("--- rules-diff of ").nth(1).unwrap_or_else(|| panic!("no rules-diff section:\n{out}"));
    let lost: Vec<&str> = diff.lines().filter(|l| l.starts_with("- ")).collect();
    assert!(!lost.is_empty() && diff.lines().all(|l| !l.starts_with("+ ")), "{diff}");
    assert!(lost.iter().any(|l| l.contains("count") && l.contains("racy_counter.c:14")), "{diff}");
    // The built-in rules themselves: no difference.
    let same = work.join("same.dl");
    std::fs::write(&same, &builtin).unwrap();
    let (out, _) = texts(&duet(&["check", "--engines", "coarsen", "--rules", same.to_str().unwrap(), "--rules-diff", SMALL]));
    assert!(out.contains("no difference"), "{out}");
    // It compares with --rules, so it needs them.
    assert_eq!(duet(&["check", "--rules-diff", SMALL]).status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&work);
}
