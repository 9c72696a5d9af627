//! Rendering witnesses: SV-COMP's YAML format 2.0 (a `violation_sequence` of segments and
//! waypoints, or an `invariant_set` of location invariants) and GraphML format 1.0
//! ([`super::graphml`]). Output is deterministic: the creation time is the input file's
//! modification time and the uuid is derived from a hash of the witness's content (see
//! [`uuid_of`]), so the same input gives byte-identical witnesses from run to run.

use super::graphml::{self, sha256_hex};
use crate::witness::{Correctness, SourcePoint, Violation, Witness};
use std::fmt::Write;

/// The file format of a witness (`--witness-format`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum WitnessFormat {
    /// SV-COMP YAML witnesses, format 2.0.
    Yaml,
    /// SV-COMP GraphML witnesses, format 1.0.
    Graphml,
}

impl WitnessFormat {
    /// The file extension of the format.
    pub(crate) fn extension(self) -> &'static str {
        match self {
            WitnessFormat::Yaml => "yml",
            WitnessFormat::Graphml => "graphml",
        }
    }
}

/// The specification every witness is for: no failure call is reached.
const SPECIFICATION: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";

/// The witness in `format`, reading the input file for its hash and modification time.
pub(crate) fn render(w: &Witness, format: WitnessFormat) -> String {
    let file = w.file();
    let source = std::fs::read(file).unwrap_or_default();
    let created = std::fs::metadata(file)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| iso8601(d.as_secs()))
        .unwrap_or_else(|| "1970-01-01T00:00:00Z".into());
    match (w, format) {
        (Witness::Violation(v), WitnessFormat::Graphml) => graphml::violation(v, file, &source, &created),
        (Witness::Correctness(c), WitnessFormat::Graphml) => graphml::correctness(c, file, &source, &created),
        (Witness::Violation(v), WitnessFormat::Yaml) => yaml_violation(v, &source, &created),
        (Witness::Correctness(c), WitnessFormat::Yaml) => yaml_correctness(c, &source, &created),
    }
}

/// A YAML scalar: a double-quoted string with JSON's escapes, which YAML reads the same.
fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// The metadata block of an entry, with `UUID` standing for the uuid.
fn metadata(o: &mut String, file: &str, source: &[u8], data_model: &str, created: &str, configuration: &str) {
    let hash = sha256_hex(source);
    let _ = writeln!(o, "  metadata:");
    let _ = writeln!(o, "    format_version: \"2.0\"");
    let _ = writeln!(o, "    uuid: UUID");
    let _ = writeln!(o, "    creation_time: {}", q(created));
    let _ = writeln!(o, "    producer:");
    let _ = writeln!(o, "      name: \"duet-rs\"");
    let _ = writeln!(o, "      version: {}", q(env!("CARGO_PKG_VERSION")));
    let _ = writeln!(o, "      configuration: {}", q(configuration));
    let _ = writeln!(o, "    task:");
    let _ = writeln!(o, "      input_files:");
    let _ = writeln!(o, "        - {}", q(file));
    let _ = writeln!(o, "      input_file_hashes:");
    let _ = writeln!(o, "        {}: {}", q(file), q(&hash));
    let _ = writeln!(o, "      specification: {}", q(SPECIFICATION));
    let _ = writeln!(o, "      data_model: {}", q(data_model));
    let _ = writeln!(o, "      language: \"C\"");
}

fn location(o: &mut String, indent: &str, file: &str, p: &SourcePoint, column: u32) {
    let _ = writeln!(o, "{indent}location:");
    let _ = writeln!(o, "{indent}  file_name: {}", q(file));
    let _ = writeln!(o, "{indent}  line: {}", p.line);
    let _ = writeln!(o, "{indent}  column: {column}");
    let _ = writeln!(o, "{indent}  function: {}", q(&p.function));
}

/// Replaces the uuid placeholder by the uuid derived from the rest of the text.
fn with_uuid(text: String) -> String {
    let uuid = uuid_of(&text);
    text.replacen("uuid: UUID", &format!("uuid: {}", q(&uuid)), 1)
}

/// A uuid (RFC 9562 version 8, "custom") made of the first 128 bits of the SHA-256 of the
/// witness text. A random (version 4) uuid would make every run's witness differ; one derived
/// from the content is as unique as the content, and the same input gives the same file.
pub(crate) fn uuid_of(text: &str) -> String {
    let h = sha256_hex(text.as_bytes());
    let mut b: Vec<char> = h[..32].chars().collect();
    b[12] = '8';
    // The variant bits `10`: the first hex digit of the fourth group is 8, 9, a or b.
    let v = b[16].to_digit(16).unwrap_or(0);
    b[16] = std::char::from_digit(8 | (v & 3), 16).unwrap_or('8');
    let s: String = b.into_iter().collect();
    format!("{}-{}-{}-{}-{}", &s[0..8], &s[8..12], &s[12..16], &s[16..20], &s[20..32])
}

/// The 1-based column of the closing parenthesis of the first `__VERIFIER_nondet_*` call on
/// `line` at or after `column`, where format 2.0 places a `function_return` waypoint.
fn nondet_call_end(source: &str, line: u32, column: u32) -> Option<u32> {
    let text = source.lines().nth((line as usize).checked_sub(1)?)?;
    let from = (column as usize).saturating_sub(1).min(text.len());
    let start = from + text.get(from..)?.find("__VERIFIER_nondet_")?;
    let open = start + text[start..].find('(')?;
    let mut depth = 0usize;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((open + i + 1) as u32);
                }
            }
            _ => {}
        }
    }
    None
}

/// The YAML violation witness: a segment per program input whose call can be located (a
/// `function_return` waypoint constraining `\result`), then the segment ending at the
/// failing assertion (the `target` waypoint).
pub(crate) fn yaml_violation(v: &Violation, source: &[u8], created: &str) -> String {
    let text = String::from_utf8_lossy(source);
    let mut o = String::from("- entry_type: \"violation_sequence\"\n");
    metadata(&mut o, &v.file, source, &v.data_model, created, &v.engine);
    o.push_str("  content:\n");
    for step in &v.steps {
        let Some(input) = &step.input else { continue };
        let Some(end) = nondet_call_end(&text, step.line, step.column) else { continue };
        let at = SourcePoint { line: step.line, column: end, function: input.function.clone() };
        o.push_str("    - segment:\n        - waypoint:\n            type: \"function_return\"\n            action: \"follow\"\n");
        location(&mut o, "            ", &v.file, &at, end);
        let _ = writeln!(o, "            constraint:\n              value: {}\n              format: \"acsl_expression\"", q(&format!("\\result == {}", input.value)));
    }
    o.push_str("    - segment:\n        - waypoint:\n            type: \"target\"\n            action: \"follow\"\n");
    location(&mut o, "            ", &v.file, &v.target, v.target.column);
    with_uuid(o)
}

/// The YAML correctness witness: one `location_invariant` per position.
pub(crate) fn yaml_correctness(c: &Correctness, source: &[u8], created: &str) -> String {
    let mut o = String::from("- entry_type: \"invariant_set\"\n");
    metadata(&mut o, &c.file, source, &c.data_model, created, &c.configuration());
    if c.invariants.is_empty() {
        o.push_str("  content: []\n");
    } else {
        o.push_str("  content:\n");
    }
    for inv in &c.invariants {
        o.push_str("    - invariant:\n        type: \"location_invariant\"\n");
        location(&mut o, "        ", &c.file, &inv.at, inv.at.column);
        let _ = writeln!(o, "        value: {}\n        format: \"c_expression\"", q(&inv.value));
    }
    with_uuid(o)
}

/// `YYYY-MM-DDThh:mm:ssZ` of a Unix time.
pub(crate) fn iso8601(secs: u64) -> String {
    let days = (secs / 86400) as i64;
    let rem = secs % 86400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_is_well_formed_and_follows_the_content() {
        let a = uuid_of("a");
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "8");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"), "{a}");
        assert_eq!(a, uuid_of("a"));
        assert_ne!(a, uuid_of("b"));
    }

    #[test]
    fn nondet_calls_end_at_their_closing_parenthesis() {
        let src = "int main() {\n  int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int();\n}\n";
        assert_eq!(nondet_call_end(src, 2, 3), Some(33));
        assert_eq!(nondet_call_end(src, 2, 35), Some(66));
        assert_eq!(nondet_call_end(src, 1, 1), None);
        assert_eq!(nondet_call_end(src, 9, 1), None);
    }

    #[test]
    fn dates() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
    }
}
