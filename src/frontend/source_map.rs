//! Maps byte offsets of the preprocessed text back to original files and lines, through the
//! `# line "file" flags` markers the preprocessor writes.

use crate::ir::Span;

/// Offsets of the preprocessed text, mapped to source positions.
pub(crate) struct SourceMap {
    /// Start offset of every preprocessed line.
    line_starts: Vec<usize>,
    /// For every preprocessed line: (file index, source line, from a system header).
    origin: Vec<(u32, u32, bool)>,
    /// File names, in order of first appearance; index 0 is the input.
    pub files: Vec<String>,
}

impl SourceMap {
    /// Builds the map. Markers naming `input_path` (as the preprocessor was given it) map to
    /// file 0, which is shown as `display`; so is text before any marker.
    pub(crate) fn new(text: &str, input_path: &str, display: &str) -> SourceMap {
        let mut files = vec![display.to_string()];
        let mut line_starts = Vec::new();
        let mut origin = Vec::new();
        let (mut file, mut line, mut system) = (0u32, 1u32, false);
        let mut start = 0;
        for raw in text.split_inclusive('\n') {
            line_starts.push(start);
            start += raw.len();
            if let Some((l, name, flags)) = parse_marker(raw) {
                origin.push((file, line, system));
                file = match files.iter().position(|f| f == &name) {
                    _ if name == input_path => 0,
                    Some(i) => i as u32,
                    None => {
                        files.push(name);
                        (files.len() - 1) as u32
                    }
                };
                line = l;
                system = flags.contains(&3);
                continue;
            }
            origin.push((file, line, system));
            line += 1;
        }
        SourceMap { line_starts, origin, files }
    }

    /// The source position of a byte offset.
    pub(crate) fn span(&self, offset: usize) -> Span {
        let (idx, file, line, _) = self.lookup(offset);
        let col = offset.saturating_sub(self.line_starts.get(idx).copied().unwrap_or(0)) + 1;
        Span { file, line, col: col as u32 }
    }

    /// True when the offset lies in a system header (marker flag 3).
    pub(crate) fn in_system_header(&self, offset: usize) -> bool {
        self.lookup(offset).3
    }

    fn lookup(&self, offset: usize) -> (usize, u32, u32, bool) {
        if self.line_starts.is_empty() {
            return (0, 0, 1, false);
        }
        let idx = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let (file, line, sys) = self.origin[idx];
        (idx, file, line, sys)
    }
}

/// Parses `# 12 "file.c" 1 3` or `#line 12 "file.c"`.
fn parse_marker(line: &str) -> Option<(u32, String, Vec<u32>)> {
    let t = line.trim_start();
    let rest = t.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let l: u32 = digits.parse().ok()?;
    let rest = rest[digits.len()..].trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    let name = rest[..end].to_string();
    let flags = rest[end + 1..].split_whitespace().filter_map(|f| f.parse().ok()).collect();
    Some((l, name, flags))
}
