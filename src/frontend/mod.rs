//! The front-end: C source (and Boolean programs, through C: [`bp`]) to the concurrent IR.
//!
//! `cc -E` preprocesses (run directly, never through a shell), `lang-c` parses in its GNU C11
//! flavour, `lower` inlines and lowers to control flow, and [`passes`] establish the IR's
//! invariants.

pub(crate) mod attributes;
pub(crate) mod bp;
pub(crate) mod ctypes;
mod data_model;
mod lower;
/// The default of [`FrontendOptions::inline_limit`].
pub use lower::INLINE_LIMIT;
/// The default of [`FrontendOptions::recursion_depth`].
pub use lower::RECURSION_DEPTH;
pub(crate) mod passes;
pub(crate) mod pragma;
pub mod preprocess;
pub(crate) mod source_map;

use crate::diag::Diagnostic;
use crate::ir::{Mode, Program};
use lang_c::driver::{parse_preprocessed, Config};
use std::path::{Path, PathBuf};

/// How to preprocess and lower a file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FrontendOptions {
    /// The C compiler used as preprocessor (`cc` by default).
    pub cc: String,
    /// `-D` definitions (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// `-I` directories.
    pub includes: Vec<PathBuf>,
    /// Preprocess for a 32-bit target (ILP32 data model).
    pub m32: bool,
    /// Preprocess for a 64-bit target (LP64) even when a preprocessed file's own type
    /// definitions say ILP32 (`--m64`).
    #[serde(default)]
    pub m64: bool,
    /// `main` starts the program (otherwise `init` runs first and the entry points are threads).
    pub whole_program: bool,
    /// Without a whole program, each entry point runs in one thread (`--once`, DUET's
    /// reading) instead of unboundedly many.
    #[serde(default)]
    pub entry_once: bool,
    /// Without a whole program, the functions run as threads (`--entry`); empty: the
    /// uncalled functions with external linkage and those whose address is stored.
    #[serde(default)]
    pub entries: Vec<String>,
    /// Every thread template has unboundedly many instances.
    pub parameterized: bool,
    /// Copies of a recursive function inlined exactly on one call chain (the outermost call
    /// included, at least 1) before a deeper call enters the shared copy.
    #[serde(default = "default_recursion_depth")]
    pub recursion_depth: usize,
    /// A call whose inlined size (C statements and expressions, callees included) exceeds
    /// this enters one shared copy of the callee per thread template instead of a copy.
    #[serde(default = "default_inline_limit")]
    pub inline_limit: usize,
    /// Lower for the race check (`check --races` sets it): the integer and pointer arguments
    /// of a call to a function without a definition become reads of the caller (C evaluates
    /// them there), and a single atomic load or store (`__atomic_load_n`) its own atomic
    /// section. Neither changes what the program does; only the race check needs them.
    #[serde(default)]
    pub for_races: bool,
}

fn default_recursion_depth() -> usize {
    lower::RECURSION_DEPTH
}

fn default_inline_limit() -> usize {
    lower::INLINE_LIMIT
}

impl Default for FrontendOptions {
    fn default() -> Self {
        FrontendOptions {
            cc: "cc".into(),
            defines: Vec::new(),
            includes: Vec::new(),
            m32: false,
            m64: false,
            whole_program: true,
            entry_once: false,
            entries: Vec::new(),
            parameterized: false,
            recursion_depth: lower::RECURSION_DEPTH,
            inline_limit: lower::INLINE_LIMIT,
            for_races: false,
        }
    }
}

/// Reads, preprocesses, parses and lowers one C file.
pub fn load(path: &Path, opts: &FrontendOptions) -> Result<Program, Diagnostic> {
    let display = path.display().to_string();
    check_readable(path, &display)?;
    if path.extension().is_some_and(|e| e == "bp") {
        return bp::load(path, opts);
    }
    let mut opts = std::borrow::Cow::Borrowed(opts);
    let mut note = None;
    if path.extension().is_some_and(|e| e == "i") {
        let raw = std::fs::read(path).map_err(|e| Diagnostic::file(&display, format!("cannot read: {e}")))?;
        let (m32, why) = data_model::follow_file(&String::from_utf8_lossy(&raw), opts.m32, opts.m64);
        if m32 != opts.m32 {
            opts.to_mut().m32 = m32;
        }
        note = why;
    }
    let text = preprocess::preprocess(path, &display, &opts)?;
    let mut prog = lower_text(&text, &path.to_string_lossy(), &display, &opts)?;
    prog.notes.extend(note.map(|n| ("data model".to_string(), n)));
    Ok(prog)
}

/// Parses and lowers already preprocessed text (markers naming `input_path` map to `display`).
pub fn lower_text(text: &str, input_path: &str, display: &str, opts: &FrontendOptions) -> Result<Program, Diagnostic> {
    let text = &*dollar_identifiers(text);
    let (text, text_attributes) = attributes::scan(text);
    let text = &*text;
    let map = source_map::SourceMap::new(text, input_path, display);
    let parsed = parse_preprocessed(&Config::with_gcc(), text.to_string()).map_err(|e| {
        let span = map.span(e.offset);
        let file = map.files.get(span.file as usize).cloned().unwrap_or_else(|| display.to_string());
        let mut expected: Vec<&str> = e.expected.iter().copied().collect();
        expected.sort_unstable();
        let found = text.get(e.offset..).and_then(|r| r.split_whitespace().next()).unwrap_or("end of file");
        let found: String = found.chars().take(24).collect();
        Diagnostic::input(file, span.line, span.col, format!("syntax error at `{found}`: expected {}", list_expected(&expected)))
    })?;
    let mut l = lower::Lowerer::new(&parsed.source, &map, opts, display);
    l.types.text_attributes = text_attributes;
    l.declare_unit(&parsed.unit)?;
    l.register_uncalled_assertions();
    l.lower_program()?;
    // Unboundedly many threads of each entry point, and so of every thread they create: the
    // parameterized reading, in which each of the root's forks stands for unboundedly many.
    let mode = Mode { whole_program: opts.whole_program, parameterized: opts.parameterized || (!opts.whole_program && !opts.entry_once) };
    let sites = std::mem::take(&mut l.indirect_sites);
    let indeterminate = std::mem::take(&mut l.indeterminate_fn_ptrs);
    let mut prog = l.finish(map.files.clone(), mode);
    passes::finish(&mut prog);
    lower::check_indirect_calls(&mut prog, &sites, &indeterminate);
    Ok(prog)
}

/// GCC accepts `$` in identifiers (SV-COMP's weak-memory tasks name `main$tmp_guard0`); the
/// parser does not. Each such `$` becomes `_`, which keeps every offset, unless a renamed
/// identifier would then name one the program already has (the parser then reports the `$`).
/// String and character literals are left alone.
fn dollar_identifiers(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let (mut plain, mut dollar) = (hashbrown::HashSet::new(), Vec::new());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_ascii_digit() {
            // A number, suffix and exponent included, is no identifier.
            while i < b.len() && (ident(b[i]) || b[i] == b'.') {
                i += 1;
            }
        } else if ident(c) {
            let start = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            if b[start..i].contains(&b'$') {
                dollar.push(start..i);
            } else {
                plain.insert(&text[start..i]);
            }
        } else {
            i += 1;
        }
    }
    if dollar.is_empty() || dollar.iter().any(|r| plain.contains(text[r.clone()].replace('$', "_").as_str())) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = b.to_vec();
    for r in dollar {
        for k in r {
            if out[k] == b'$' {
                out[k] = b'_';
            }
        }
    }
    std::borrow::Cow::Owned(String::from_utf8(out).expect("only ASCII bytes were replaced"))
}

/// Describes the parser's expected-token set in words: punctuation first, then classes
/// (an identifier, a type name, a constant, an operator) instead of dozens of tokens.
fn list_expected(tokens: &[&str]) -> String {
    let mut items: Vec<String> = Vec::new();
    let mut push = |s: String| {
        if !items.contains(&s) {
            items.push(s);
        }
    };
    for p in [";", ")", "]", "}", ",", "(", "{", ":", "="] {
        if tokens.contains(&p) {
            push(format!("`{p}`"));
        }
    }
    let mut operator = false;
    for t in tokens {
        match *t {
            "" => {}
            t if t.starts_with("[_a-zA-Z") || t == "<identifier>" => push("an identifier".into()),
            "<typedef_name>" => push("a type name".into()),
            t if t.starts_with("[0-9") || t.starts_with("<constant") || matches!(t, "\"" | "'" | "u8" | "u" | "U" | "L") => push("a constant".into()),
            t if t.chars().all(|c| "+-*/%<>=!&|^~?.".contains(c)) => operator = true,
            t if t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => push(format!("`{t}`")),
            _ => {}
        }
    }
    if operator {
        push("an operator".into());
    }
    match items.len() {
        0 => "something else".into(),
        1 => items.remove(0),
        n if n > 8 => format!("{}, or one of {} other tokens", items[..6].join(", "), n - 6),
        _ => {
            let last = items.pop().unwrap();
            format!("{} or {last}", items.join(", "))
        }
    }
}

/// Rejects missing, unreadable, empty and binary files before the compiler sees them.
fn check_readable(path: &Path, display: &str) -> Result<(), Diagnostic> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Diagnostic::file(display, "no such file"),
        _ => Diagnostic::file(display, format!("cannot read the file: {e}")),
    })?;
    if meta.is_dir() {
        return Err(Diagnostic::file(display, "is a directory, expected a C source file"));
    }
    let bytes = std::fs::read(path).map_err(|e| Diagnostic::file(display, format!("cannot read the file: {e}")))?;
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Diagnostic::file(display, "the file is empty: expected C declarations and a program to verify"));
    }
    if let Some(pos) = bytes.iter().take(8192).position(|&b| b == 0) {
        return Err(Diagnostic::file(display, format!("binary content (a NUL byte at offset {pos}): expected a C source file")));
    }
    Ok(())
}

/// Loads a program with panics turned into internal errors, on a thread with a large stack
/// so that deeply nested input cannot overflow it.
pub fn load_program(path: &Path, opts: &FrontendOptions) -> Result<Program, Diagnostic> {
    let p = path.to_path_buf();
    let o = opts.clone();
    let handle = std::thread::Builder::new().stack_size(256 << 20).name("frontend".into()).spawn(move || std::panic::catch_unwind(|| load(&p, &o)));
    let display = path.display().to_string();
    match handle {
        Ok(h) => match h.join() {
            Ok(Ok(r)) => r,
            _ => Err(Diagnostic::internal(display, "the front-end crashed; please report this input")),
        },
        Err(e) => Err(Diagnostic::internal(display, format!("cannot start the front-end thread: {e}"))),
    }
}
