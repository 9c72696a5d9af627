//! The `duet-rs` command line.

mod check;
mod datalog;
mod ir;
mod predict;
mod rules;
mod svcomp;

use crate::diag::exit;
use crate::frontend::FrontendOptions;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// duet-rs verifies assertions of concurrent C programs (POSIX threads) for any number of threads.
#[derive(Parser, Debug)]
#[command(name = "duet-rs", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Verify every assertion of C files (directories are searched for .c, .i and .bp files).
    Check(check::CheckArgs),
    /// Print the intermediate representation of a C file.
    Ir(ir::IrArgs),
    /// Print the built-in interference rules, or write them out for editing.
    Rules(rules::RulesArgs),
    /// Run Datalog rules on Soufflé-style fact files (REL.facts in, REL.csv out).
    Datalog(datalog::DatalogArgs),
    /// Predict violations from observed runs: other interleavings of the same events.
    Predict(predict::PredictArgs),
    /// Run SV-COMP task files (.yml) and score the answers.
    Svcomp(svcomp::SvcompArgs),
    /// Internal: run one task of a batch (a request on stdin, a result on stdout).
    #[command(name = "__task", hide = true)]
    Task,
}

/// How C files are read: preprocessor options and the program's thread structure.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// C compiler used as the preprocessor.
    #[arg(long, default_value = "cc", value_name = "CC")]
    cc: String,
    /// Define a preprocessor macro (NAME or NAME=VALUE).
    #[arg(short = 'D', value_name = "MACRO")]
    defines: Vec<String>,
    /// Add a directory to the include path.
    #[arg(short = 'I', value_name = "DIR")]
    includes: Vec<PathBuf>,
    /// Preprocess for a 32-bit target (ILP32: 32-bit long and pointers). A preprocessed `.i`
    /// file whose size_t/ptrdiff_t/intptr_t are 32-bit is read as ILP32 without it.
    #[arg(long, conflicts_with = "m64")]
    m32: bool,
    /// Read a preprocessed file as LP64 (64-bit long and pointers) even when its own type
    /// definitions say ILP32.
    #[arg(long)]
    m64: bool,
    /// There is no single `main`: `init()` runs first, then every entry point runs in
    /// unboundedly many threads (a driver's clients).
    #[arg(long)]
    no_whole_program: bool,
    /// With --no-whole-program, the entry points (comma-separated); by default the functions
    /// with external linkage that no function calls and those whose address is stored.
    #[arg(long, value_name = "F,G,...", value_delimiter = ',', requires = "no_whole_program")]
    entry: Vec<String>,
    /// With --no-whole-program, run each entry point in one thread only (DUET's reading).
    #[arg(long, requires = "no_whole_program", conflicts_with = "parameterized")]
    once: bool,
    /// Every thread template has unboundedly many instances.
    #[arg(long)]
    parameterized: bool,
    /// Copies of a recursive function inlined exactly on one call chain, the outermost call
    /// included; a deeper call enters the shared copy of the recursive functions. From the
    /// default up, a caller's guard on the argument (`n > 10`) raises it to reach the base
    /// case (up to 16).
    #[arg(long, default_value_t = crate::frontend::RECURSION_DEPTH, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    recursion_depth: usize,
    /// Size (C statements and expressions of the callee, its own calls included) above which
    /// a call enters one shared copy of the function per thread template instead of being
    /// inlined; the bounded search then gives `bounded-safe` at most for what follows.
    #[arg(long, default_value_t = crate::frontend::INLINE_LIMIT, value_name = "N")]
    inline_limit: usize,
}

impl InputArgs {
    /// The front-end options these flags select.
    pub fn frontend_options(&self) -> FrontendOptions {
        FrontendOptions {
            cc: self.cc.clone(),
            defines: self.defines.clone(),
            includes: self.includes.clone(),
            m32: self.m32,
            m64: self.m64,
            whole_program: !self.no_whole_program,
            entry_once: self.once,
            entries: self.entry.clone(),
            parameterized: self.parameterized,
            recursion_depth: self.recursion_depth,
            inline_limit: self.inline_limit,
            for_races: false,
        }
    }
}

/// The exit status of a process whose reader went away (128 + SIGPIPE), as a shell reports it.
const BROKEN_PIPE: i32 = 141;

/// Ends the process quietly when standard output is a closed pipe (`duet-rs rules | head`),
/// and with [`exit::OUTPUT_ERROR`] and a message when it fails otherwise (`> /dev/full`).
/// Rust ignores SIGPIPE, so `print!` on a closed pipe panics with the standard library's
/// "failed printing to stdout" message; every other panic keeps the default report.
fn exit_quietly_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info.payload().downcast_ref::<String>().map(String::as_str).or_else(|| info.payload().downcast_ref::<&str>().copied()).unwrap_or("");
        if msg.starts_with("failed printing to stdout") {
            if msg.contains("Broken pipe") {
                std::process::exit(BROKEN_PIPE);
            }
            let why = msg.trim_start_matches("failed printing to stdout").trim_start_matches(':').trim();
            crate::stderr!("error: cannot write to stdout: {why}");
            std::process::exit(exit::OUTPUT_ERROR);
        }
        default(info)
    }));
}

/// The `--version` text: the crate version, the commit it was built from, and the Z3 library
/// the bounded search links.
fn version_text() -> String {
    let commit = option_env!("DUET_RS_COMMIT").unwrap_or("unknown commit");
    format!("{} ({commit})\nZ3 {}", env!("CARGO_PKG_VERSION"), z3::full_version())
}

/// Runs the command line and returns the exit code.
pub fn main() -> i32 {
    exit_quietly_on_broken_pipe();
    use clap::{CommandFactory, FromArgMatches};
    let version: &'static str = Box::leak(version_text().into_boxed_str());
    let args = join_output_values(std::env::args_os().collect());
    let parsed = Cli::command().version(version).try_get_matches_from(args).and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { exit::USAGE } else { exit::SAFE };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Check(a) => check::run(&a),
        Command::Ir(a) => ir::run(&a),
        Command::Rules(a) => rules::run(&a),
        Command::Datalog(a) => datalog::run(&a),
        Command::Svcomp(a) => svcomp::run(&a),
        Command::Predict(a) => predict::run(&a),
        Command::Task => crate::batch::child::main(),
    }
}

/// Extensions of the files `check` and `svcomp` read: a word with one of them after `--dot` or
/// `--invariants` is an input, not the file to write.
const INPUT_EXTENSIONS: &[&str] = &["c", "i", "bp", "yml", "yaml"];

/// `--dot FILE` and `--invariants FILE` (a space instead of `=`) of `check` and `svcomp`, as
/// `--dot=FILE`: both flags take an optional value, so clap alone would read FILE as an input.
/// The word is the output file unless it looks like an input (a directory, or an input
/// extension): `check --invariants F.c` still prints the invariants of F.c.
fn join_output_values(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if !matches!(args.get(1).and_then(|a| a.to_str()), Some("check" | "svcomp")) {
        return args;
    }
    let is_output = |w: &std::ffi::OsString| {
        let p = std::path::Path::new(w);
        !w.to_string_lossy().starts_with('-') && !p.is_dir() && !p.extension().and_then(|e| e.to_str()).is_some_and(|e| INPUT_EXTENSIONS.contains(&e))
    };
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.into_iter().peekable();
    while let Some(a) = it.next() {
        if a == "--" {
            out.push(a);
            out.extend(it);
            break;
        }
        if a == "--dot" || a == "--invariants" {
            if let Some(value) = it.next_if(is_output) {
                let mut joined = a;
                joined.push("=");
                joined.push(value);
                out.push(joined);
                continue;
            }
        }
        out.push(a);
    }
    out
}

/// Expands directories into the .c, .i and .bp files they contain, sorted, recursively.
pub fn expand_inputs(paths: &[PathBuf]) -> Vec<PathBuf> {
    crate::inputs::expand(paths, &["c", "i", "bp"])
}
