//! The HTML report (`--html DIR`): one self-contained page, checked as text and, where
//! Chromium is installed (always in CI), as the DOM a real browser builds from it.

use crate::common::{duet, repo, texts};
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duet-html-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A Chromium binary on PATH. Absent: a visible skip, or a failure where CI (or
/// `DUET_REQUIRE_CHROMIUM=1`) says the browser test must run.
fn chromium(test: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Some(p) = std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file()) {
            return Some(p);
        }
    }
    let required = std::env::var_os("CI").is_some() || std::env::var("DUET_REQUIRE_CHROMIUM").is_ok_and(|v| v == "1");
    assert!(!required, "{test}: Chromium is required here (CI or DUET_REQUIRE_CHROMIUM=1) but none of chromium, chromium-browser, google-chrome is on PATH");
    eprintln!("SKIPPED {test}: no Chromium on PATH (chromium, chromium-browser or google-chrome; Debian's package is `chromium`)");
    None
}

/// The DOM Chromium builds from `page` after its script ran, and what it logged; asserts that
/// no script error was logged.
fn dom(browser: &Path, page: &Path) -> String {
    let profile = page.with_file_name("chromium-profile");
    let out = Command::new(browser)
        .args(["--headless", "--disable-gpu", "--no-sandbox", "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    let (dom, log) = texts(&out);
    assert!(out.status.success(), "chromium failed: {log}");
    let console: Vec<&str> = log.lines().filter(|l| l.contains("CONSOLE") || l.contains("Uncaught")).collect();
    assert!(console.is_empty(), "console messages: {console:?}");
    assert!(dom.contains("data-js-ready=\"1\""), "the page's script did not run to its end");
    assert!(dom.contains("data-js-errors=\"0\""), "script errors in the page");
    dom
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("no JSON report ({e}): {}", texts(out).1))
}

#[test]
fn the_examples_page_has_a_row_per_file_and_a_marker_per_assertion_in_chromium() {
    let dir = scratch("examples");
    let files = ["increment_decrement.c", "locked_counter.c", "producer_consumer.c", "racy_counter.c"].map(|f| repo(&format!("benchmarks/examples/{f}")).display().to_string());
    let mut args = vec!["check", "--no-progress", "--format", "json", "--html", dir.to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    let out = duet(&args);
    assert_eq!(out.status.code(), Some(10), "{}", texts(&out).1);
    let report = json_of(&out);
    let tasks = report["tasks"].as_array().unwrap();
    // --html asks COARSEN for the invariants and the graph for the page, not for the report.
    assert!(tasks.iter().all(|t| t["sections"].as_array().unwrap().is_empty()), "{report}");
    let page_path = dir.join("index.html");
    let page = std::fs::read_to_string(&page_path).unwrap();
    // Self-contained: nothing is fetched (the SVG namespace is a name, not a request).
    for needle in ["<link", " src=", "@import", "https://", "url(http"] {
        assert!(!page.contains(needle), "the page refers to something outside it: {needle}");
    }
    assert_eq!(page.matches("http://").count(), page.matches("http://www.w3.org/2000/svg").count());
    let assertions: usize = tasks.iter().map(|t| t["assertions"].as_array().unwrap().len()).sum();
    assert_eq!(assertions, 5);
    assert_eq!(page.matches("<tr class=\"file-row\"").count(), 4);
    assert_eq!(page.matches("<a class=\"marker verdict-").count(), assertions);
    assert_eq!(page.matches("<a class=\"marker verdict-violated\"").count(), 2);
    // Each engine that decided is named next to its verdict.
    for t in tasks {
        for a in t["assertions"].as_array().unwrap() {
            let engine = a["engine"].as_str().unwrap();
            assert!(page.contains(&format!("<td class=\"engine\">{engine}</td>")), "{engine}");
        }
    }
    // COARSEN's graph is drawn for every file, with its interference edges apart.
    assert_eq!(page.matches("<svg class=\"dfg\"").count(), 4);
    assert!(page.contains("class=\"edge interference round-1"));
    assert!(page.contains("class=\"line has-inv"), "no invariants on the source lines");

    // Each violation's interleaving: a lane per thread of its trace, a row per step.
    let lanes = |html: &str| -> Vec<(String, usize, usize)> {
        let mut found = Vec::new();
        for (i, t) in tasks.iter().enumerate() {
            for (k, a) in t["assertions"].as_array().unwrap().iter().enumerate() {
                let Some(trace) = a["trace"].as_array() else { continue };
                let mut threads: Vec<u64> = trace.iter().map(|s| s["thread"].as_u64().unwrap()).collect();
                threads.sort_unstable();
                threads.dedup();
                let at = html.find(&format!("id=\"f{i}-trace-{k}\"")).unwrap_or_else(|| panic!("no swimlanes for {}", a["id"]));
                let table = &html[at..at + html[at..].find("</table>").unwrap()];
                assert_eq!(table.matches("<th class=\"lane\"").count(), threads.len(), "{}: lanes", a["id"]);
                assert_eq!(table.matches("<tr class=\"step").count(), trace.len(), "{}: steps", a["id"]);
                found.push((a["id"].as_str().unwrap().to_string(), threads.len(), trace.len()));
            }
        }
        found
    };
    let violations = lanes(&page);
    assert_eq!(violations.len(), 2, "increment_decrement.c and racy_counter.c each have a violation with its trace: {violations:?}");
    assert!(violations.iter().all(|(_, threads, _)| *threads >= 2), "{violations:?}");

    let Some(browser) = chromium("the_examples_page_has_a_row_per_file_and_a_marker_per_assertion_in_chromium") else { return };
    let dom = dom(&browser, &page_path);
    assert_eq!(dom.matches("<tr class=\"file-row\"").count(), 4);
    assert_eq!(dom.matches("<a class=\"marker verdict-").count(), assertions);
    assert_eq!(dom.matches("<g class=\"node\"").count(), page.matches("<g class=\"node\"").count());
    assert_eq!(lanes(&dom), violations);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn program_text_that_is_markup_stays_text() {
    let dir = scratch("inject");
    let out = duet(&["check", "--no-progress", "--engines", "coarsen", "--html", dir.to_str().unwrap(), "tests/programs/html/script_literal.c"]);
    assert!(out.status.code().is_some_and(|c| c == 0 || c == 5), "{}", texts(&out).1);
    let page_path = dir.join("index.html");
    let page = std::fs::read_to_string(&page_path).unwrap();
    // The page's own two scripts close; the program's does not.
    assert_eq!(page.matches("</script>").count(), 2);
    assert!(page.contains("&lt;/script&gt;&lt;script&gt;document.body.dataset.injected = &#39;1&#39;;&lt;/script&gt;&lt;!--"));
    assert!(page.contains("&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;"));
    let Some(browser) = chromium("program_text_that_is_markup_stays_text") else { return };
    let dom = dom(&browser, &page_path);
    let injected = dom.find("data-injected=").map(|i| &dom[i.saturating_sub(200)..(i + 100).min(dom.len())]);
    assert!(injected.is_none(), "the program's script ran: {injected:?}");
    assert!(dom.contains("data-js-ready=\"1\""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_html_directory_that_cannot_be_created_is_an_input_error() {
    let out = duet(&["check", "--no-progress", "--html", "/dev/null/report", "benchmarks/examples/locked_counter.c"]);
    let (_, err) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot create --html /dev/null/report"), "{err}");
}

#[test]
fn html_with_dot_keeps_the_graph_in_the_report_too() {
    let dir = scratch("dot");
    let out = duet(&["check", "--no-progress", "--format", "json", "--dot", "--html", dir.to_str().unwrap(), "benchmarks/examples/racy_counter.c"]);
    let report = json_of(&out);
    let sections = report["tasks"][0]["sections"].as_array().unwrap();
    assert_eq!(sections.len(), 1, "{sections:?}");
    assert_eq!(sections[0]["title"], "dfg");
    let data = &sections[0]["data"];
    let nodes = data["nodes"].as_array().unwrap();
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert_eq!(page.matches("<g class=\"node\"").count(), nodes.len());
    let templates: Vec<&str> = data["templates"].as_array().unwrap().iter().map(|t| t["function"].as_str().unwrap()).collect();
    assert_eq!(templates, ["main", "worker", "worker"]);
    assert_eq!(page.matches("<tr class=\"template\">").count(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn svcomp_pages_have_the_confusion_matrix_and_the_score() {
    let dir = scratch("svcomp");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, expected) in [("racy_counter", "false"), ("locked_counter", "true")] {
        std::fs::copy(repo(&format!("benchmarks/examples/{name}.c")), dir.join(format!("{name}.c"))).unwrap();
        let yml = format!(
            "format_version: '2.0'\ninput_files: '{name}.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: {expected}\noptions:\n  language: C\n  data_model: LP64\n"
        );
        std::fs::write(dir.join(format!("{name}.yml")), yml).unwrap();
    }
    let html = dir.join("html");
    let out = duet(&["svcomp", "--no-progress", "--html", html.to_str().unwrap(), dir.join("racy_counter.yml").to_str().unwrap(), dir.join("locked_counter.yml").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(page.contains("<tr><th>true</th><td>1</td><td>0</td><td>0</td></tr>"), "{page}");
    assert!(page.contains("<tr><th>false</th><td>0</td><td>1</td><td>0</td></tr>"));
    assert!(page.contains("score <strong>3</strong> of 3 possible"));
    assert_eq!(page.matches("<tr class=\"file-row\"").count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The page shows the proof trees of the nearest 5 edges of an assertion.
const TREES_SHOWN: usize = 5;

/// An `explain` section's data counted as the page shows it: the edges, and the derived and
/// input nodes of the trees of the first [`TREES_SHOWN`] edges.
fn proof_counts(explain: &serde_json::Value) -> (usize, usize, usize) {
    fn walk(n: &serde_json::Value, derived: &mut usize, inputs: &mut usize) {
        if n["rule"].is_null() {
            *inputs += 1;
        } else {
            *derived += 1;
        }
        for c in n["children"].as_array().into_iter().flatten() {
            walk(c, derived, inputs);
        }
    }
    let (mut edges, mut derived, mut inputs) = (0, 0, 0);
    for a in explain["assertions"].as_array().unwrap().iter().filter(|a| a["proved"] == false) {
        for (k, e) in a["edges"].as_array().unwrap().iter().enumerate() {
            edges += 1;
            if !e["proof"].is_null() && k < TREES_SHOWN {
                walk(&e["proof"], &mut derived, &mut inputs);
            }
        }
    }
    (edges, derived, inputs)
}

#[test]
fn an_open_assertion_shows_its_derivation_tree_and_the_edges_that_let_the_value_in_in_chromium() {
    const FLAG: &str = "tests/programs/explain/flag.c";
    let dir = scratch("explain");
    let out = duet(&["check", "--no-progress", "--format", "json", "--engines", "coarsen", "--html", dir.to_str().unwrap(), FLAG]);
    assert_eq!(out.status.code(), Some(5), "{}", texts(&out).1);
    // The page's explanations stay out of the report unless --explain asks.
    assert!(json_of(&out)["tasks"][0]["sections"].as_array().unwrap().is_empty());
    let page_path = dir.join("index.html");
    let page = std::fs::read_to_string(&page_path).unwrap();
    // What `--explain` derives for the open assertion of line 17 is what the page shows.
    let asked = json_of(&duet(&["check", "--no-progress", "--format", "json", "--engines", "coarsen", "--explain", &format!("{FLAG}:17"), FLAG]));
    let explain = asked["tasks"][0]["sections"].as_array().unwrap().iter().find(|s| s["title"] == "explain").expect("an explain section")["data"].clone();
    let (edges, derived, inputs) = proof_counts(&explain);
    assert!(edges > 0 && derived > 0 && inputs > 0, "{explain}");
    let count = |html: &str| (html.matches("<li class=\"edge-proof\">").count(), html.matches("<li class=\"derived\">").count(), html.matches("<li class=\"input\">").count());
    assert_eq!(count(&page), (edges, derived, inputs));
    assert!(edges > TREES_SHOWN && page.contains("(its derivation: <code>--explain tests/programs/explain/flag.c:17</code>"), "the other edges say how to see theirs");
    assert_eq!(page.matches("<details class=\"explain\"").count(), 1, "the proved assertion of line 18 has nothing to explain");
    assert!(page.contains("data-assert=\"tests/programs/explain/flag.c:17:5\""));
    // Every edge explained is marked on the graph, and only those: the graph draws one path
    // per pair of locations, round and use.
    let marked: std::collections::BTreeSet<(u64, u64, u64, String)> = explain["assertions"][0]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["from_id"].as_u64().unwrap(), e["to_id"].as_u64().unwrap(), e["round"].as_u64().unwrap(), e["use"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(page.matches(" culprit\" data-round=").count(), marked.len(), "{marked:?}");
    assert!(page.matches("class=\"edge interference").count() > marked.len(), "some interference edges do not reach line 17");
    assert!(page.contains("data-culprit-of=\"tests/programs/explain/flag.c:17:5\""));

    let Some(browser) = chromium("an_open_assertion_shows_its_derivation_tree_and_the_edges_that_let_the_value_in_in_chromium") else { return };
    let dom = dom(&browser, &page_path);
    assert_eq!(count(&dom), (edges, derived, inputs));
    assert_eq!(dom.matches("data-culprit-of=").count(), page.matches("data-culprit-of=").count());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn race_pairs_are_side_by_side_in_chromium() {
    const RACY: &str = "tests/programs/races/counter_lock_racy.c";
    let dir = scratch("races");
    let out = duet(&["check", "--no-progress", "--format", "json", "--races-only", "--html", dir.to_str().unwrap(), RACY]);
    let report = json_of(&out);
    let races = report["tasks"][0]["races"].as_array().unwrap_or_else(|| panic!("no races: {report}"));
    let pairs: usize = races.iter().map(|r| r["pairs"].as_array().map_or(0, Vec::len)).sum();
    assert!(pairs > 0 && races.iter().any(|r| r["status"] == "race"), "{report}");
    let page_path = dir.join("index.html");
    let page = std::fs::read_to_string(&page_path).unwrap();
    let Some(browser) = chromium("race_pairs_are_side_by_side_in_chromium") else { return };
    let dom = dom(&browser, &page_path);
    for html in [&page, &dom] {
        assert_eq!(html.matches("<tr class=\"race-memory").count(), races.len());
        assert_eq!(html.matches("<div class=\"race-pair").count(), pairs);
        // Each pair shows both of its accesses.
        assert_eq!(html.matches("<div class=\"race-access").count(), 2 * pairs);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
