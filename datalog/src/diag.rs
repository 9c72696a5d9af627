//! Diagnostics: errors that point at a file, line and column.

use std::fmt;

/// One error in a rule file or fact file, with the place it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file name as given to the loader (a path or a virtual name).
    pub file: String,
    /// 1-based line number.
    pub line: u32,
    /// 1-based column number, counted in characters; 0 when only the line is known.
    pub col: u32,
    /// What went wrong, usually saying what was expected.
    pub message: String,
}

impl Diagnostic {
    /// Creates a diagnostic.
    pub fn new(file: impl Into<String>, line: u32, col: u32, message: impl Into<String>) -> Self {
        Diagnostic { file: file.into(), line, col, message: message.into() }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col == 0 {
            write!(f, "{}:{}: error: {}", self.file, self.line, self.message)
        } else {
            write!(f, "{}:{}:{}: error: {}", self.file, self.line, self.col, self.message)
        }
    }
}

impl std::error::Error for Diagnostic {}

/// A non-empty list of diagnostics, as returned by the loaders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Wraps a single diagnostic.
    pub fn one(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
    /// The diagnostics, in the order they were found.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
}

impl std::ops::Deref for Diagnostics {
    type Target = [Diagnostic];
    fn deref(&self) -> &[Diagnostic] {
        &self.0
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}
