//! The layering of ARCHITECTURE.md ("Layers: who may import whom") holds: no module of `src/`
//! imports one its row does not list. The table is read from the document, so the rule and its
//! check cannot drift apart.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Workspace crates the table names besides the modules of `src/`.
const CRATES: [&str; 2] = ["domains", "datalog"];

/// The table: module → what it may import (`None`: everything).
fn table(doc: &str) -> BTreeMap<String, Option<BTreeSet<String>>> {
    let start = doc.find("## Layers: who may import whom").expect("ARCHITECTURE.md has no layering section");
    let section = &doc[start..];
    let mut rows = BTreeMap::new();
    for line in section.lines().skip(1).take_while(|l| !l.starts_with("## ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || !cells[1].starts_with('`') {
            continue;
        }
        let module = cells[1].trim_matches('`').to_string();
        let allowed = if cells[2].starts_with("every module") { None } else { Some(cells[2].split(',').map(|w| w.trim().trim_matches('`').to_string()).filter(|w| !w.is_empty()).collect()) };
        rows.insert(module, allowed);
    }
    assert!(!rows.is_empty(), "the layering table of ARCHITECTURE.md has no rows");
    rows
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file under `src/` (`src/a/b.rs` and `src/a/b/mod.rs` are `[a, b]`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" && stem != "main" {
        parts.push(stem.to_string());
    }
    parts
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn ident_at(code: &[u8], i: usize) -> &str {
    let end = (i..code.len()).find(|&j| !is_ident(code[j])).unwrap_or(code.len());
    std::str::from_utf8(&code[i..end]).unwrap()
}

/// The first segment of every path in a `use` group starting at `code[i] == '{'`.
fn group_heads(code: &[u8], i: usize) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut at_item = true;
    for j in i..code.len() {
        match code[j] {
            b'{' => {
                depth += 1;
                at_item = depth == 1;
            }
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => at_item = true,
            c if at_item && depth == 1 && is_ident(c) => {
                heads.push(ident_at(code, j).to_string());
                at_item = false;
            }
            _ => {}
        }
    }
    heads
}

/// `(line, imported top-level name)` for every path into the crate in `code`, for a file whose
/// module path is `module`; workspace crates count as names too.
fn imports(code: &str, module: &[String]) -> Vec<(usize, String)> {
    let bytes = code.as_bytes();
    let line_of = |i: usize| code[..i].matches('\n').count() + 1;
    let mut out = Vec::new();
    let heads_after = |j: usize| -> Vec<String> {
        if j < bytes.len() && bytes[j] == b'{' {
            group_heads(bytes, j)
        } else if j < bytes.len() && is_ident(bytes[j]) {
            vec![ident_at(bytes, j).to_string()]
        } else {
            Vec::new()
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let starts = is_ident(bytes[i]) && (i == 0 || (!is_ident(bytes[i - 1]) && bytes[i - 1] != b':'));
        if !starts {
            i += 1;
            continue;
        }
        let word = ident_at(bytes, i);
        let after = i + word.len();
        let path_follows = code[after..].starts_with("::");
        if word == "crate" && path_follows {
            out.extend(heads_after(after + 2).into_iter().map(|h| (line_of(i), h)));
        } else if word == "super" && path_follows {
            // Climb as many levels as the path says; only a path that leaves its top-level
            // module names another one.
            let mut depth = module.len();
            let mut j = i;
            while code[j..].starts_with("super::") {
                depth = depth.saturating_sub(1);
                j += "super::".len();
            }
            if depth == 0 {
                out.extend(heads_after(j).into_iter().map(|h| (line_of(i), h)));
            }
            i = j;
            continue;
        } else if CRATES.contains(&word) && path_follows {
            out.push((line_of(i), word.to_string()));
        }
        i = after;
    }
    out
}

/// Blanks comments (so doc links are not imports) and string literals, keeping line breaks.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                    out.push(' ');
                }
                '"' => in_string = false,
                '\n' => out.push('\n'),
                _ => out.push(' '),
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' => in_string = true,
            '\'' => {
                // A char literal such as '"' must not open a string; a lifetime stays as is.
                let rest: String = chars.clone().take(12).collect();
                let close = if rest.starts_with('\\') { rest.get(2..).and_then(|r| r.find('\'')).map(|k| k + 2) } else { rest.chars().nth(1).filter(|&d| d == '\'').map(|_| 1) };
                match close {
                    Some(k) => {
                        for _ in 0..=k {
                            chars.next();
                        }
                        out.push_str("' '");
                    }
                    None => out.push(c),
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// Every import the table forbids, as `file:line: message`.
fn violations(root: &Path) -> Vec<String> {
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let rows = table(&doc);
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    // A `#[macro_export]` macro lives at the crate root (`crate::stderr!`) but belongs to the
    // module that defines it: using it imports that module.
    let mut macros: BTreeMap<String, String> = BTreeMap::new();
    for file in &files {
        let code = code_only(&std::fs::read_to_string(file).unwrap());
        let owner = module_path(file.strip_prefix(&src).unwrap()).first().cloned().unwrap_or_default();
        for pair in code.lines().collect::<Vec<_>>().windows(2) {
            if let (true, Some(rest)) = (pair[0].trim() == "#[macro_export]", pair[1].trim().strip_prefix("macro_rules!")) {
                macros.insert(rest.trim().trim_end_matches('{').trim().to_string(), owner.clone());
            }
        }
    }
    let mut bad = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let module = module_path(rel);
        let Some(top) = module.first() else { continue };
        let shown = format!("src/{}", rel.display());
        let Some(allowed) = rows.get(top) else {
            bad.push(format!("{shown}: module `{top}` has no row in the layering table of ARCHITECTURE.md"));
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        let code = code_only(&text);
        let test_from = code.lines().position(|l| l.trim() == "#[cfg(test)]").map(|k| k + 1).unwrap_or(usize::MAX);
        for (line, name) in imports(&code, &module) {
            let name = macros.get(&name).cloned().unwrap_or(name);
            if &name == top || name == "self" {
                continue;
            }
            if !rows.contains_key(&name) && !CRATES.contains(&name.as_str()) {
                bad.push(format!("{shown}:{line}: `crate::{name}` is no module in the layering table"));
                continue;
            }
            let ok = match allowed {
                None => true,
                Some(set) => set.contains(&name) || (line >= test_from && name == "frontend"),
            };
            if !ok {
                let list: Vec<&str> = allowed.iter().flatten().map(String::as_str).collect();
                bad.push(format!(
                    "{shown}:{line}: `{top}` imports `{name}`, which the layering table forbids (`{top}` may import: {})",
                    if list.is_empty() { "nothing".to_string() } else { list.join(", ") }
                ));
            }
        }
    }
    bad
}

#[test]
fn no_module_imports_one_its_row_does_not_list() {
    let bad = violations(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(bad.is_empty(), "imports against ARCHITECTURE.md's layering:\n{}", bad.join("\n"));
}

#[test]
fn the_scanner_sees_every_form_of_import() {
    let module = vec!["bounded".to_string(), "prune".to_string()];
    let code = code_only("use crate::{ir::Program, coarsen};\nfn f() { crate::engine::x(); super::super::report::y(); domains::z(); }\n// crate::cli in a comment\nlet s = \"crate::batch\";\n");
    let got: Vec<(usize, String)> = imports(&code, &module);
    let want: Vec<(usize, String)> = vec![(1, "ir".into()), (1, "coarsen".into()), (2, "engine".into()), (2, "report".into()), (2, "domains".into())];
    assert_eq!(got, want);
}

#[test]
fn the_table_forbids_what_it_does_not_list() {
    let rows = table(&std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md")).unwrap());
    let may = |a: &str, b: &str| rows[a].as_ref().is_none_or(|s| s.contains(b));
    assert!(may("cli", "engine"));
    assert!(may("engine", "coarsen"));
    assert!(!may("bounded", "coarsen"), "engines do not import each other");
    assert!(!may("report", "batch"), "reports read verdicts, not the batch machinery");
    assert!(!may("ir", "frontend"), "the IR knows nothing of the front-end");
    for (m, allowed) in &rows {
        assert!(allowed.as_ref().is_none_or(|s| !s.contains("cli")), "`{m}` may not import the command line");
    }
}
