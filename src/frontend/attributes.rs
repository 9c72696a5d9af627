//! GCC layout directives the parser loses: attribute lists written right after a `struct`,
//! `union` or `enum` keyword (lang-c misreads `struct __attribute__((packed)) S { ... }` as a
//! function definition), and `#pragma pack` lines (lang-c skips every directive).
//!
//! [`scan`] finds both in the preprocessed text before it is parsed. Keyword attribute lists
//! are blanked with spaces, which keeps every byte offset (and so every span and line marker)
//! valid, and are kept by the keyword's offset so that the type environment can apply them to
//! the record or enumeration that keyword starts.

use std::borrow::Cow;
use std::collections::HashMap;

/// Layout directives found in the text, by byte offset.
#[derive(Clone, Debug, Default)]
pub(crate) struct TextAttributes {
    /// The attribute lists (`__attribute__((...))`, as written) right after a `struct`,
    /// `union` or `enum` keyword, by the keyword's offset.
    pub after_keyword: HashMap<usize, Vec<String>>,
    /// Each `#pragma pack` line's offset and the maximum member alignment from there on
    /// (`None`: no limit), in text order; `Err` names a form that is not understood.
    pub packs: Vec<(usize, Result<Option<u64>, String>)>,
}

impl TextAttributes {
    /// The `#pragma pack` limit in force at an offset: `Ok(None)` when there is none, `Err`
    /// (the offending line's offset and text) when a line before it is not understood.
    pub(crate) fn pack_at(&self, offset: usize) -> Result<Option<u64>, (usize, String)> {
        let mut cur = None;
        for (at, p) in &self.packs {
            if *at >= offset {
                break;
            }
            match p {
                Ok(v) => cur = *v,
                Err(e) => return Err((*at, e.clone())),
            }
        }
        Ok(cur)
    }
}

/// Finds the layout directives of a preprocessed text; see the module documentation.
pub(crate) fn scan(text: &str) -> (Cow<'_, str>, TextAttributes) {
    let b = text.as_bytes();
    let mut out = TextAttributes::default();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut stack: Vec<Option<u64>> = Vec::new();
    let mut cur: Option<u64> = None;
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
            let line = &text[i..end];
            if let Some(p) = pragma_pack(line) {
                let r = apply_pack(p, &mut stack, &mut cur);
                out.packs.push((i, r.map(|_| cur)));
            }
            i = end;
            continue;
        }
        line_start = false;
        if c == b'"' || c == b'\'' {
            i = skip_literal(b, i);
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if matches!(&text[start..i], "struct" | "union" | "enum") {
                let mut lists = Vec::new();
                let mut j = i;
                loop {
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    let w = j;
                    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                        j += 1;
                    }
                    if !matches!(&text[w..j], "__attribute__" | "__attribute") {
                        break;
                    }
                    let Some(end) = balanced(b, j) else { break };
                    lists.push(text[w..end].to_string());
                    blank.push((w, end));
                    j = end;
                    i = end;
                }
                if !lists.is_empty() {
                    out.after_keyword.insert(start, lists);
                }
            }
            continue;
        }
        i += 1;
    }
    if blank.is_empty() {
        return (Cow::Borrowed(text), out);
    }
    let mut bytes = b.to_vec();
    for (s, e) in blank {
        for x in &mut bytes[s..e] {
            // Newlines stay, so that line counting is unchanged.
            if *x != b'\n' {
                *x = b' ';
            }
        }
    }
    // Only ASCII bytes were replaced by spaces inside ASCII-delimited ranges.
    (Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())), out)
}

/// The end of a string or character literal starting at `i`.
fn skip_literal(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut j = i + 1;
    while j < b.len() && b[j] != q && b[j] != b'\n' {
        if b[j] == b'\\' {
            j += 1;
        }
        j += 1;
    }
    (j + 1).min(b.len())
}

/// The end (one past the closing parenthesis) of the parenthesised group that starts, after
/// whitespace, at `i`; `None` when there is none.
fn balanced(b: &[u8], mut i: usize) -> Option<usize> {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if b.get(i) != Some(&b'(') {
        return None;
    }
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' | b'\'' => {
                i = skip_literal(b, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The argument text of a `#pragma pack(...)` line, or `None` for other lines.
fn pragma_pack(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('#')?.trim_start().strip_prefix("pragma")?.trim_start();
    let rest = rest.strip_prefix("pack")?.trim_start();
    Some(rest)
}

/// Applies one `#pragma pack` argument list (`(n)`, `()`, `(push)`, `(push, n)`, `(pop)`) to
/// the stack of limits; `Err` names a form that is not understood (identifiers, `show`).
fn apply_pack(args: &str, stack: &mut Vec<Option<u64>>, cur: &mut Option<u64>) -> Result<(), String> {
    let what = || format!("`#pragma pack{args}`");
    let inner = args.strip_prefix('(').and_then(|a| a.trim_end().strip_suffix(')')).ok_or_else(what)?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
    let number = |p: &str| -> Result<u64, String> {
        let n: u64 = p.parse().map_err(|_| what())?;
        if n.is_power_of_two() && n <= 16 {
            Ok(n)
        } else {
            Err(what())
        }
    };
    match parts.as_slice() {
        [] => *cur = None,
        ["push"] => stack.push(*cur),
        ["push", n] => {
            let n = number(n)?;
            stack.push(*cur);
            *cur = Some(n);
        }
        ["pop"] => *cur = stack.pop().ok_or_else(what)?,
        [n] => *cur = Some(number(n)?),
        _ => return Err(what()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_attributes_are_blanked_in_place() {
        let text = "struct __attribute__((packed)) PK { char c; };\nunion __attribute__ ((__aligned__(8))) __attribute__((packed)) U { int x; };";
        let (t, a) = scan(text);
        assert_eq!(t.len(), text.len());
        assert!(t.starts_with("struct                         PK {"));
        assert_eq!(a.after_keyword[&0], vec!["__attribute__((packed))".to_string()]);
        let u = text.find("union").unwrap();
        assert_eq!(a.after_keyword[&u].len(), 2);
        assert!(!t.contains("__attribute__"));
    }

    #[test]
    fn attributes_elsewhere_and_in_literals_stay() {
        let text = "struct S { int x __attribute__((aligned(8))); } __attribute__((packed));\nchar *s = \"struct __attribute__((packed))\";";
        let (t, a) = scan(text);
        assert_eq!(t, text);
        assert!(a.after_keyword.is_empty());
    }

    #[test]
    fn pragma_pack_stack() {
        let text =
            "#pragma pack(push, 2)\nstruct A;\n#pragma pack(1)\nstruct B;\n#pragma pack(pop)\nstruct C;\n#pragma pack(4)\nstruct D;\n#pragma pack()\nstruct E;\n#pragma pack(push, x, 2)\nstruct F;";
        let (_, a) = scan(text);
        let at = |s: &str| text.find(s).unwrap();
        assert_eq!(a.pack_at(at("struct A")), Ok(Some(2)));
        assert_eq!(a.pack_at(at("struct B")), Ok(Some(1)));
        assert_eq!(a.pack_at(at("struct C")), Ok(None));
        assert_eq!(a.pack_at(at("struct D")), Ok(Some(4)));
        assert_eq!(a.pack_at(at("struct E")), Ok(None));
        assert!(a.pack_at(at("struct F")).is_err());
        assert_eq!(a.pack_at(0), Ok(None));
    }
}
