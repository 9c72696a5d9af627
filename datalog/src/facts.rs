//! Souffle-style fact files and the standalone `datalog` command.
//!
//! Input relations are read from `REL.facts` (or the directive's `filename`), one tuple per line,
//! columns separated by a tab (or the directive's `delimiter`). Output relations are written to
//! `REL.csv` the same way, sorted. Empty lines are skipped. A missing input file makes the
//! relation empty and is reported in [`Summary::missing_inputs`], where Souffle stops with an
//! error: a researcher can then run rules against a partial fact directory.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::{Engine, EngineError};
use crate::program::{Program, RelationInfo};
use crate::symbols::SymbolTable;
use crate::value::{ColumnType, Tuples, Value};

/// Why [`run_dir`] failed.
#[derive(Debug)]
pub enum Error {
    /// The rule file has errors.
    Program(Diagnostics),
    /// Fact files have malformed lines (file:line:column diagnostics).
    Facts(Diagnostics),
    /// A file could not be read or written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// The engine failed.
    Engine(EngineError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Program(d) | Error::Facts(d) => write!(f, "{d}"),
            Error::Io { path, message } => write!(f, "{}: error: {message}", path.display()),
            Error::Engine(e) => write!(f, "error: {e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<EngineError> for Error {
    fn from(e: EngineError) -> Self {
        Error::Engine(e)
    }
}

/// What [`run_dir`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Tuples read from fact files.
    pub input_tuples: usize,
    /// `.input` relations whose fact file did not exist (treated as empty).
    pub missing_inputs: Vec<String>,
    /// Each `.output` relation, its file, and its size.
    pub outputs: Vec<(String, PathBuf, usize)>,
    /// Each `.printsize` relation and its size.
    pub sizes: Vec<(String, usize)>,
}

/// The output directory that stands for stdout, as in Soufflé's `-D -`: each output relation
/// is printed there under a header with its name instead of written to a file.
pub const STDOUT: &str = "-";

/// At most this many malformed lines are reported per run.
const MAX_FACT_ERRORS: usize = 50;

/// Runs the rule file `rules` on the fact files in `facts_dir` and writes outputs to `out_dir`
/// (created if missing; [`STDOUT`] prints them), using `workers` timely workers.
pub fn run_dir(rules: &Path, facts_dir: &Path, out_dir: &Path, workers: usize) -> Result<Summary, Error> {
    let program = Program::from_file(rules).map_err(Error::Program)?;
    let mut engine = Engine::new(&program, workers)?;
    let mut summary = Summary::default();
    let mut errors = Vec::new();
    for info in program.relations() {
        let Some(params) = &info.input else { continue };
        let path = facts_dir.join(params.filename.clone().unwrap_or_else(|| format!("{}.facts", info.name)));
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                summary.missing_inputs.push(info.name.clone());
                continue;
            }
            Err(e) => return Err(Error::Io { path, message: format!("cannot read fact file: {e}") }),
        };
        let delimiter = params.delimiter.clone().unwrap_or_else(|| "\t".into());
        let tuples = parse_facts(&text, &path.to_string_lossy(), info, &delimiter, &mut |s| engine.intern(s), &mut errors);
        if errors.len() >= MAX_FACT_ERRORS {
            break;
        }
        summary.input_tuples += tuples.len();
        engine.insert(&info.name, &tuples)?;
    }
    if !errors.is_empty() {
        return Err(Error::Facts(Diagnostics(errors)));
    }
    engine.advance()?;
    let to_stdout = out_dir == Path::new(STDOUT);
    if !to_stdout {
        std::fs::create_dir_all(out_dir).map_err(|e| Error::Io { path: out_dir.to_path_buf(), message: format!("cannot create output directory: {e}") })?;
    }
    for info in program.relations() {
        if let Some(params) = &info.output {
            let tuples = engine.relation(&info.name)?;
            let delimiter = params.delimiter.clone().unwrap_or_else(|| "\t".into());
            let path = if to_stdout {
                print_relation(info, &tuples, &delimiter, engine.symbols())?;
                PathBuf::from(STDOUT)
            } else {
                let path = out_dir.join(params.filename.clone().unwrap_or_else(|| format!("{}.csv", info.name)));
                write_csv(&path, info, &tuples, &delimiter, engine.symbols())?;
                path
            };
            summary.outputs.push((info.name.clone(), path, tuples.len()));
        }
        if info.printsize {
            summary.sizes.push((info.name.clone(), engine.relation(&info.name)?.len()));
        }
    }
    Ok(summary)
}

/// Parses the lines of one fact file for relation `info`; symbols are interned through `intern`,
/// and malformed lines are added to `errors` (file:line:column, saying what was expected).
pub fn parse_facts(text: &str, file: &str, info: &RelationInfo, delimiter: &str, intern: &mut dyn FnMut(&str) -> u32, errors: &mut Vec<Diagnostic>) -> Tuples {
    let arity = info.arity();
    let mut tuples = Tuples::new(arity);
    let mut row = Vec::with_capacity(arity);
    for (lineno, line) in text.lines().enumerate() {
        if errors.len() >= MAX_FACT_ERRORS {
            break;
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        let lineno = lineno as u32 + 1;
        if line.is_empty() {
            continue;
        }
        if arity == 0 {
            if line.trim() == "()" {
                tuples.push(&[]);
            } else {
                errors.push(Diagnostic::new(file, lineno, 1, format!("expected '()' for the nullary relation '{}', found '{line}'", info.name)));
            }
            continue;
        }
        row.clear();
        let fields: Vec<&str> = line.split(delimiter).collect();
        if fields.len() != arity {
            let what = if delimiter == "\t" { "tab-separated".to_string() } else { format!("'{delimiter}'-separated") };
            errors.push(Diagnostic::new(file, lineno, 1, format!("expected {arity} {what} column{} for '{}', found {}", if arity == 1 { "" } else { "s" }, info.name, fields.len())));
            continue;
        }
        let mut col = 1u32;
        let mut ok = true;
        for (i, (field, column)) in fields.iter().zip(&info.columns).enumerate() {
            let value = match column.ty {
                ColumnType::Symbol => Some(intern(field)),
                ColumnType::Number => parse_int(field).filter(|v| *v >= i32::MIN as i64 && *v <= i32::MAX as i64).map(|v| v as i32 as u32),
                ColumnType::Unsigned => parse_int(field).filter(|v| *v >= 0 && *v <= u32::MAX as i64).map(|v| v as u32),
            };
            match value {
                Some(v) => row.push(v),
                None => {
                    errors.push(Diagnostic::new(
                        file,
                        lineno,
                        col,
                        format!(
                            "expected {} in column {} ({}: {}), found '{}'",
                            if column.ty == ColumnType::Number { "a signed 32-bit number" } else { "an unsigned 32-bit number" },
                            i + 1,
                            column.name,
                            column.ty,
                            field
                        ),
                    ));
                    ok = false;
                    break;
                }
            }
            col += field.chars().count() as u32 + delimiter.chars().count() as u32;
        }
        if ok {
            tuples.push(&row);
        }
    }
    tuples
}

fn parse_int(s: &str) -> Option<i64> {
    let t = s.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        i64::from_str_radix(b, 2).ok()?
    } else {
        if body.is_empty() || !body.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        body.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Writes tuples (already sorted by the engine) as delimiter-separated lines.
pub fn write_csv(path: &Path, info: &RelationInfo, tuples: &Tuples, delimiter: &str, symbols: &SymbolTable) -> Result<(), Error> {
    let io_err = |e: std::io::Error| Error::Io { path: path.to_path_buf(), message: format!("cannot write output: {e}") };
    let file = std::fs::File::create(path).map_err(io_err)?;
    let mut w = std::io::BufWriter::new(file);
    write_tuples(&mut w, info, tuples, delimiter, symbols).and_then(|()| w.flush()).map_err(io_err)
}

/// Prints the tuples of relation `info` on stdout between a header naming it and a closing
/// rule, as Soufflé does for `-D -`.
pub fn print_relation(info: &RelationInfo, tuples: &Tuples, delimiter: &str, symbols: &SymbolTable) -> Result<(), Error> {
    let io_err = |e: std::io::Error| Error::Io { path: PathBuf::from("<stdout>"), message: format!("cannot write output: {e}") };
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    let rule = "===============";
    writeln!(w, "---------------\n{}\n{rule}", info.name).map_err(io_err)?;
    write_tuples(&mut w, info, tuples, delimiter, symbols).map_err(io_err)?;
    writeln!(w, "{rule}").and_then(|()| w.flush()).map_err(io_err)
}

/// Writes one line per tuple, columns separated by `delimiter` (`()` for a nullary relation).
fn write_tuples(w: &mut impl Write, info: &RelationInfo, tuples: &Tuples, delimiter: &str, symbols: &SymbolTable) -> std::io::Result<()> {
    for t in tuples.iter() {
        if info.arity() == 0 {
            writeln!(w, "()")?;
            continue;
        }
        for (i, (&v, col)) in t.iter().zip(&info.columns).enumerate() {
            if i > 0 {
                w.write_all(delimiter.as_bytes())?;
            }
            write!(w, "{}", Value::decode(col.ty, v, symbols))?;
        }
        writeln!(w)?;
    }
    Ok(())
}
