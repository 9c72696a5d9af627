//! Per-file front-end flags: a C file may carry `// duet-rs: FLAGS` among its first lines, so
//! one batch can mix, say, drivers (`--no-whole-program`) with whole programs. The flags add to
//! the command line's; only the few that describe the program itself are allowed.

use super::FrontendOptions;
use crate::diag::Diagnostic;
use std::path::Path;

/// How many lines at the top of a file are searched for the pragma.
pub(crate) const PRAGMA_LINES: usize = 10;

/// The pragma's marker, after `//`.
const MARKER: &str = "duet-rs:";

/// The flags a pragma may give: they say what the program is, not how to analyse it.
pub(crate) const ALLOWED: &[&str] = &["--no-whole-program", "--parameterized", "--m32"];

/// The front-end options of `file`: `base` with the flags of its pragma, if any. An unknown
/// flag is an input error at `file:line:col`. Files that cannot be read keep `base` (the
/// front end reports them).
pub(crate) fn file_options(file: &Path, base: &FrontendOptions) -> Result<FrontendOptions, Diagnostic> {
    let mut front = base.clone();
    // Preprocessed files have no comments left; only C sources can carry the pragma.
    if file.extension().and_then(|e| e.to_str()) != Some("c") {
        return Ok(front);
    }
    // Only a regular file is read: a FIFO's data is the preprocessor's, which reads it under
    // the task's time limit.
    if !std::fs::metadata(file).is_ok_and(|m| m.is_file()) {
        return Ok(front);
    }
    let Ok(f) = std::fs::File::open(file) else { return Ok(front) };
    use std::io::BufRead;
    for (n, line) in std::io::BufReader::new(f).lines().take(PRAGMA_LINES).enumerate() {
        let Ok(line) = line else { break };
        for (col, flag) in pragma_flags(&line) {
            match flag {
                "--no-whole-program" => front.whole_program = false,
                "--parameterized" => front.parameterized = true,
                "--m32" => front.m32 = true,
                _ => {
                    return Err(Diagnostic::input(file.display().to_string(), n as u32 + 1, col as u32, format!("unknown flag `{flag}` in the `// duet-rs:` pragma; allowed: {}", ALLOWED.join(", "))))
                }
            }
        }
    }
    Ok(front)
}

/// The flags of a pragma line with their 1-based columns; none when the line is no pragma.
fn pragma_flags(line: &str) -> Vec<(usize, &str)> {
    let trimmed = line.trim_start();
    let Some(rest) = trimmed.strip_prefix("//") else { return Vec::new() };
    let Some(flags) = rest.trim_start().strip_prefix(MARKER) else { return Vec::new() };
    let start = line.len() - flags.len();
    let mut out = Vec::new();
    let mut pos = 0;
    for word in flags.split_whitespace() {
        let at = flags[pos..].find(word).map_or(pos, |i| pos + i);
        out.push((start + at + 1, word));
        pos = at + word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::pragma_flags;

    #[test]
    fn flags_carry_their_columns() {
        assert_eq!(pragma_flags("// duet-rs: --m32  --parameterized"), vec![(13, "--m32"), (20, "--parameterized")]);
        assert_eq!(pragma_flags("  //duet-rs: --x"), vec![(14, "--x")]);
        assert!(pragma_flags("// duet: --m32").is_empty());
        assert!(pragma_flags("int x; // duet-rs: --m32").is_empty());
    }
}
