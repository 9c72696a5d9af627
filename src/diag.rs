//! Errors shown to users: where (file, line, column), what went wrong, and what was expected.

use std::fmt;

/// The class of an error, which decides the exit code.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    /// The input could not be read, preprocessed, parsed or lowered.
    Input,
    /// The command line was wrong.
    Usage,
    /// A bug in duet-rs.
    Internal,
}

/// A located error message.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    /// Error class.
    pub kind: ErrorKind,
    /// File the error is in (the input file when the position is unknown).
    pub file: String,
    /// 1-based line, 0 when the error concerns the whole file.
    pub line: u32,
    /// 1-based column, 0 when unknown.
    pub col: u32,
    /// What went wrong and what was expected.
    pub message: String,
    /// Further lines (compiler output, include chains, hints).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An input error at a position.
    pub fn input(file: impl Into<String>, line: u32, col: u32, message: impl Into<String>) -> Diagnostic {
        Diagnostic { kind: ErrorKind::Input, file: file.into(), line, col, message: message.into(), notes: Vec::new() }
    }

    /// An input error about a whole file.
    pub fn file(file: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::input(file, 0, 0, message)
    }

    /// An internal error (a bug), reported without a source position.
    pub fn internal(file: impl Into<String>, message: impl Into<String>) -> Diagnostic {
        Diagnostic { kind: ErrorKind::Internal, ..Diagnostic::file(file, message) }
    }

    /// Adds a note line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// `file:line:col` (or just `file` when the position is unknown).
    pub fn location(&self) -> String {
        match (self.line, self.col) {
            (0, _) => self.file.clone(),
            (l, 0) => format!("{}:{}", self.file, l),
            (l, c) => format!("{}:{}:{}", self.file, l, c),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::Internal => "internal error",
            _ => "error",
        };
        write!(f, "{}: {}: {}", self.location(), what, self.message)?;
        for n in &self.notes {
            write!(f, "\n  {n}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// Exit codes, following CBMC's convention.
pub mod exit {
    /// Every assertion is safe.
    pub const SAFE: i32 = 0;
    /// The command line was wrong.
    pub const USAGE: i32 = 1;
    /// An input file could not be parsed or lowered.
    pub const INPUT_ERROR: i32 = 2;
    /// Some assertion is not proved and none is violated.
    pub const INCONCLUSIVE: i32 = 5;
    /// A bug in duet-rs.
    pub const INTERNAL: i32 = 6;
    /// Some assertion is violated.
    pub const VIOLATED: i32 = 10;
    /// The report could not be written (stdout or `--output` failed while writing, e.g. a full
    /// disk): whatever the verdicts, the user did not get them.
    pub const OUTPUT_ERROR: i32 = 3;
    /// The run was interrupted (SIGINT), as a shell reports it: 128 + 2.
    pub const INTERRUPTED: i32 = 130;
}

/// Writes a line to stderr, best effort: unlike `eprintln!`, a closed or full stderr
/// (`2>&1 | head`) is ignored instead of panicking, so it never changes the exit code or cuts
/// the report on stdout short. Messages on stderr are for people; losing one is harmless.
#[macro_export]
macro_rules! stderr {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Standard output, which carries the report: every write is flushed, and a failure other
/// than a closed pipe is remembered so that the run ends with an error instead of a verdict
/// nobody received (`check F.c > /dev/full`).
pub mod stdout {
    use std::io::Write;
    use std::sync::Mutex;

    /// The first failure to write to stdout, if any.
    static FAILURE: Mutex<Option<String>> = Mutex::new(None);

    /// Writes `text` to stdout and flushes it. A closed pipe (`| head`) is the reader's choice
    /// and is ignored; any other error is kept for [`failure`].
    pub fn write(text: &str) {
        let mut out = std::io::stdout().lock();
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                let mut first = FAILURE.lock().unwrap_or_else(|p| p.into_inner());
                first.get_or_insert_with(|| e.to_string());
            }
        }
    }

    /// The first error a [`write`] met, other than a closed pipe.
    pub fn failure() -> Option<String> {
        FAILURE.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}
