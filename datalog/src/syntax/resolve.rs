//! Loading a rule text and the files it includes.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use super::ast::Item;
use super::lexer::lex;
use super::parser::parse;
use super::Pos;
use crate::diag::{Diagnostic, Diagnostics};

/// A loaded text and the name it is reported under.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name used in diagnostics and for resolving nested includes.
    pub name: String,
    /// The rule text.
    pub text: String,
}

/// Finds the text of an `.include`d file.
///
/// `from` is the name of the including file, `path` the string written in the directive.
/// The error string becomes a diagnostic at the directive.
pub trait Resolver {
    /// Resolves `path`, written in file `from`, to a source.
    fn resolve(&mut self, from: &str, path: &str) -> Result<Source, String>;
}

impl<F: FnMut(&str, &str) -> Result<Source, String>> Resolver for F {
    fn resolve(&mut self, from: &str, path: &str) -> Result<Source, String> {
        self(from, path)
    }
}

/// Rejects every `.include`: for texts that must stand alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoIncludes;

impl Resolver for NoIncludes {
    fn resolve(&mut self, _from: &str, path: &str) -> Result<Source, String> {
        Err(format!("cannot include \"{path}\": this text is loaded without include support"))
    }
}

/// Reads included files from disk, relative to the including file's directory.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsResolver;

impl Resolver for FsResolver {
    fn resolve(&mut self, from: &str, path: &str) -> Result<Source, String> {
        let full = join(from, path);
        match std::fs::read_to_string(&full) {
            Ok(text) => Ok(Source { name: full.to_string_lossy().into_owned(), text }),
            Err(e) => Err(format!("cannot read included file '{}': {e}", full.display())),
        }
    }
}

/// Resolves includes against a fixed set of named texts, e.g. rule files embedded in a binary.
///
/// Names are matched after joining the include path to the including file's directory and
/// removing `.` and `..` components, so `rules/a.dl` including `"lib/b.dl"` looks up `rules/lib/b.dl`.
#[derive(Clone, Debug, Default)]
pub struct MapResolver {
    files: HashMap<String, String>,
}

impl MapResolver {
    /// An empty set of texts.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a text under `name`.
    pub fn with(mut self, name: &str, text: &str) -> Self {
        self.insert(name, text);
        self
    }
    /// Adds a text under `name`.
    pub fn insert(&mut self, name: &str, text: &str) {
        self.files.insert(normalize(Path::new(name)), text.to_string());
    }
}

impl Resolver for MapResolver {
    fn resolve(&mut self, from: &str, path: &str) -> Result<Source, String> {
        let name = normalize(&join(from, path));
        match self.files.get(&name) {
            Some(text) => Ok(Source { name, text: text.clone() }),
            None => Err(format!("no embedded rule file named '{name}'")),
        }
    }
}

fn join(from: &str, path: &str) -> PathBuf {
    let p = Path::new(path);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    match Path::new(from).parent() {
        Some(dir) => dir.join(p),
        None => p.to_path_buf(),
    }
}

fn normalize(p: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.last().is_some_and(|l| l != "..") {
                    parts.pop();
                } else {
                    parts.push("..".into());
                }
            }
            Component::RootDir => parts.push(String::new()),
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    parts.join("/")
}

/// All items of a text and its includes, in include order, with the file table.
#[derive(Debug)]
pub struct Loaded {
    /// File names, indexed by `Pos::file`.
    pub files: Vec<String>,
    /// Items; include directives have been replaced by the included items.
    pub items: Vec<Item>,
}

/// Lexes and parses `text` and every file it includes. A file already loaded is not loaded
/// again (like `#pragma once`); an include cycle is an error.
pub fn load(text: &str, name: &str, resolver: &mut dyn Resolver) -> Result<Loaded, Diagnostics> {
    let mut loaded = Loaded { files: Vec::new(), items: Vec::new() };
    let mut stack = Vec::new();
    load_into(text, name, resolver, &mut loaded, &mut stack)?;
    Ok(loaded)
}

fn load_into(text: &str, name: &str, resolver: &mut dyn Resolver, out: &mut Loaded, stack: &mut Vec<String>) -> Result<(), Diagnostics> {
    let file = out.files.len() as u32;
    out.files.push(name.to_string());
    stack.push(name.to_string());
    let diag = |out: &Loaded, pos: Pos, msg: String| Diagnostics::one(Diagnostic::new(out.files[pos.file as usize].clone(), pos.line, pos.col, msg));
    let tokens = lex(text, file).map_err(|(p, m)| diag(out, p, m))?;
    let items = parse(&tokens).map_err(|(p, m)| diag(out, p, m))?;
    for item in items {
        match item {
            Item::Include(path, pos) => {
                let src = resolver.resolve(name, &path).map_err(|m| diag(out, pos, m))?;
                if let Some(i) = stack.iter().position(|f| *f == src.name) {
                    let mut cycle: Vec<&str> = stack[i..].iter().map(|s| s.as_str()).collect();
                    cycle.push(&src.name);
                    return Err(diag(out, pos, format!("include cycle: {}", cycle.join(" -> "))));
                }
                if out.files.contains(&src.name) {
                    continue;
                }
                load_into(&src.text, &src.name, resolver, out, stack)?;
            }
            other => out.items.push(other),
        }
    }
    stack.pop();
    Ok(())
}
