//! Running the system C preprocessor, directly and never through a shell.

use super::FrontendOptions;
use crate::diag::Diagnostic;
use std::path::Path;
use std::process::Command;

/// Preprocesses one file and returns the text with its line markers.
///
/// `.i` files are preprocessed again (`-x c`): their text has no directives left, and this lets
/// `-D__thread=_Thread_local` rewrite the GNU keyword that the parser rejects.
pub fn preprocess(path: &Path, display: &str, opts: &FrontendOptions) -> Result<String, Diagnostic> {
    let mut cmd = Command::new(&opts.cc);
    cmd.arg("-E").arg("-x").arg("c");
    // `linux` and `unix` are predefined as 1 in GNU mode and could rewrite identifiers of a
    // program that uses them as names.
    cmd.args(["-Ulinux", "-Uunix", "-D__thread=_Thread_local"]);
    if opts.m32 {
        cmd.arg("-m32");
    }
    for d in &opts.defines {
        cmd.arg(format!("-D{d}"));
    }
    for i in &opts.includes {
        cmd.arg("-I").arg(i);
    }
    // Headers the front-end models itself (<stdatomic.h>), after the user's own.
    if let Some(dir) = super::lower::library::model_headers() {
        cmd.arg("-I").arg(dir);
    }
    cmd.arg(path);
    let out = cmd
        .output()
        .map_err(|e| Diagnostic::file(display, format!("cannot run the C preprocessor `{}`: {e}", opts.cc)).with_note("install a C compiler (e.g. `apt-get install gcc`) or pass one with --cc"))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(compiler_error(display, &stderr));
    }
    String::from_utf8(out.stdout).map_err(|e| Diagnostic::file(display, format!("the preprocessed text is not valid UTF-8 (byte {})", e.utf8_error().valid_up_to())))
}

/// Turns the compiler's message into a diagnostic at the first `file:line:col: error:` it names.
fn compiler_error(display: &str, stderr: &str) -> Diagnostic {
    let first = stderr.lines().find(|l| l.contains("error:") || l.contains("fatal error:")).unwrap_or_else(|| stderr.lines().next().unwrap_or("the preprocessor failed"));
    let mut diag = match parse_gcc_location(first) {
        Some((file, line, col, msg)) => Diagnostic::input(file, line, col, format!("preprocessor: {msg}")),
        None => Diagnostic::file(display, format!("preprocessor: {}", first.trim())),
    };
    for l in stderr.lines().take(12) {
        diag = diag.with_note(l.to_string());
    }
    diag
}

fn parse_gcc_location(line: &str) -> Option<(String, u32, u32, String)> {
    let mut parts = line.splitn(4, ':');
    let file = parts.next()?.to_string();
    let l: u32 = parts.next()?.trim().parse().ok()?;
    let rest = parts.next()?;
    let (col, msg) = match rest.trim().parse::<u32>() {
        Ok(c) => (c, parts.next().unwrap_or("").to_string()),
        Err(_) => (0, format!("{rest}:{}", parts.next().unwrap_or(""))),
    };
    let msg = msg.trim().trim_start_matches("fatal error:").trim_start_matches("error:").trim().to_string();
    Some((file, l, col, msg))
}
