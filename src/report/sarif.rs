//! The SARIF 2.1.0 report, for GitHub code scanning and other SARIF viewers: every assertion
//! that is not proved safe is a result at its source position, and so is every file that
//! could not be analysed. `schemas/sarif-schema-2.1.0.json` is the schema it must satisfy.

use super::location;
use crate::verdict::races::{RaceStatus, RaceVerdict};
use crate::verdict::TaskRun;
use crate::verdict::{Outcome, Status};
use serde_json::{json, Value};

/// The rules results refer to, by index: (id, name, short description, level).
const RULES: &[(&str, &str, &str, &str)] = &[
    ("DUET001", "AssertionViolated", "An assertion fails in some execution.", "error"),
    ("DUET002", "AssertionUnproved", "An assertion could not be proved for every execution.", "warning"),
    ("DUET003", "AssertionBoundedSafe", "An assertion holds within the search bound only.", "note"),
    ("DUET004", "AnalysisFailed", "The file could not be analysed (error, time or memory limit, interrupt).", "warning"),
    ("DUET005", "AssertionProvedUnderCustomRules", "An assertion was proved only under interference rules given with --rules, which may be unsound.", "note"),
    ("DUET006", "DataRace", "Two threads access the same memory, one writing, adjacently in a replayed execution.", "error"),
    ("DUET007", "DataRaceUnproved", "Two accesses may race: neither race freedom nor a racing interleaving could be shown.", "warning"),
];

/// Percent-encodes a path into a URI reference: relative paths stay relative (GitHub
/// resolves them against the repository root), absolute ones become `file://` URIs.
pub(crate) fn uri(path: &str) -> String {
    let mut out = String::new();
    let p = path.replace('\\', "/");
    let p = p.strip_prefix("./").unwrap_or(&p);
    if p.starts_with('/') {
        out.push_str("file://");
    }
    for b in p.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn location(file: &str, line: u32, column: u32) -> Value {
    let mut physical = json!({ "artifactLocation": { "uri": uri(file) } });
    if line > 0 {
        let mut region = json!({ "startLine": line });
        if column > 0 {
            region["startColumn"] = json!(column);
        }
        physical["region"] = region;
    }
    json!({ "physicalLocation": physical })
}

fn result(rule: usize, text: String, loc: Value, fingerprint: &str) -> Value {
    json!({
        "ruleId": RULES[rule].0,
        "ruleIndex": rule,
        "level": RULES[rule].3,
        "message": { "text": text },
        "locations": [loc],
        "partialFingerprints": { "duetAssertionId/v1": fingerprint },
    })
}

/// A result per racing (or possibly racing) pair at its first access, the second a related
/// location; a location `unknown` for want of any pair (an unsupported construct) at no line.
fn race_results(v: &RaceVerdict) -> Vec<Value> {
    let mut out = Vec::new();
    let kind = |w: bool| if w { "write" } else { "read" };
    for p in &v.pairs {
        let rule = if p.status == RaceStatus::Race { 5 } else { 6 };
        let [a, b] = &p.accesses;
        let mut text = format!(
            "{} on `{}`: {} at {} [locks: {}] ({}) and {} at {} [locks: {}] ({}): {}",
            p.status.word(),
            v.memory,
            kind(a.write),
            a.at,
            a.locks.join(", "),
            a.thread,
            kind(b.write),
            b.at,
            b.locks.join(", "),
            b.thread,
            p.reason
        );
        for step in &p.interleaving {
            text.push('\n');
            text.push_str(step);
        }
        let (pa, pb) = (location::of_id(&a.at), location::of_id(&b.at));
        let mut r = result(rule, text, location(&pa.file, pa.line, pa.column), &format!("{}|{}|{}", v.memory, a.at, b.at));
        r["relatedLocations"] = json!([{ "id": 0, "physicalLocation": location(&pb.file, pb.line, pb.column)["physicalLocation"].clone() }]);
        out.push(r);
    }
    if v.pairs.is_empty() && v.status == RaceStatus::Unknown {
        let mut r = result(6, format!("`{}`: {}", v.memory, v.reason), json!({}), &v.memory);
        r.as_object_mut().map(|o| o.remove("locations"));
        out.push(r);
    }
    out
}

/// The report of a run as a SARIF log, ending with a newline.
pub(crate) fn render(runs: &[TaskRun], exit_code: i32) -> String {
    let mut results = Vec::new();
    let mut failed = false;
    for run in runs {
        let r = &run.result;
        match &r.outcome {
            Outcome::Checked(vs) => {
                for v in vs {
                    let rule = match v.status {
                        Status::Safe if v.custom_rules.is_some() => 4,
                        Status::Safe => continue,
                        Status::Violated => 0,
                        Status::Unknown => 1,
                        Status::BoundedSafe => 2,
                    };
                    let p = location::of_id(&v.id);
                    // Reasons mostly begin with the status word already ("violated: ...").
                    let mut text =
                        if v.reason.starts_with(v.status.word()) { format!("assertion `{}` is {}", v.text, v.reason) } else { format!("assertion `{}` is {}: {}", v.text, v.label(), v.reason) };
                    if let Some(d) = &v.detail {
                        text.push('\n');
                        text.push_str(d);
                    }
                    results.push(result(rule, text, location(&p.file, p.line, p.column), &v.id));
                }
            }
            Outcome::Error(d) => {
                failed = true;
                results.push(result(3, d.to_string(), location(&d.file, d.line, d.col), &r.file));
            }
            Outcome::Timeout(why) => {
                failed = true;
                results.push(result(3, format!("timeout: {why}"), location(&r.file, 0, 0), &r.file));
            }
            Outcome::OutOfMemory(why) => {
                failed = true;
                results.push(result(3, format!("out of memory: {why}"), location(&r.file, 0, 0), &r.file));
            }
            Outcome::Interrupted(why) => {
                failed = true;
                results.push(result(3, format!("interrupted: {why}"), location(&r.file, 0, 0), &r.file));
            }
        }
    }
    for run in runs {
        for v in run.result.races.iter().flatten() {
            results.extend(race_results(v));
        }
    }
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, name, text, level)| {
            json!({
                "id": id,
                "name": name,
                "shortDescription": { "text": text },
                "defaultConfiguration": { "level": level },
            })
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "duet-rs",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "invocations": [{ "executionSuccessful": !failed, "exitCode": exit_code }],
            "results": results,
        }],
    });
    let mut s = serde_json::to_string_pretty(&log).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn uris_are_relative_or_file_and_escaped() {
        assert_eq!(uri("./src/a b.c"), "src/a%20b.c");
        assert_eq!(uri("/abs/x.c"), "file:///abs/x.c");
        assert_eq!(uri("dir\\y.c"), "dir/y.c");
    }
}
