//! Column types, values, and the flat tuple container used across the API.

use std::fmt;

use crate::symbols::SymbolTable;

/// The type of a relation column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnType {
    /// Souffle `number`: a signed 32-bit integer, passed through the API as its `u32` bit pattern.
    Number,
    /// Souffle `unsigned`: an unsigned 32-bit integer.
    Unsigned,
    /// Souffle `symbol`: a string, passed through the API as its interned id.
    Symbol,
}

impl ColumnType {
    /// The Souffle name of the type.
    pub fn name(self) -> &'static str {
        match self {
            ColumnType::Number => "number",
            ColumnType::Unsigned => "unsigned",
            ColumnType::Symbol => "symbol",
        }
    }

    /// Maps an API value to the engine's internal encoding, and back (the map is an involution).
    ///
    /// Numbers get their sign bit flipped so that unsigned comparison of encoded values is signed
    /// comparison of numbers: the dataflow then compares and sorts every column the same way.
    #[inline]
    pub(crate) fn flip(self, raw: u32) -> u32 {
        match self {
            ColumnType::Number => raw ^ 0x8000_0000,
            _ => raw,
        }
    }
}

impl fmt::Display for ColumnType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A decoded value, for display and for callers that prefer not to handle raw ids.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// A `number`.
    Number(i32),
    /// An `unsigned`.
    Unsigned(u32),
    /// A `symbol`.
    Symbol(String),
}

impl Value {
    /// Decodes an API value of type `ty`; unknown symbol ids decode as `#id`.
    pub fn decode(ty: ColumnType, raw: u32, symbols: &SymbolTable) -> Value {
        match ty {
            ColumnType::Number => Value::Number(raw as i32),
            ColumnType::Unsigned => Value::Unsigned(raw),
            ColumnType::Symbol => Value::Symbol(symbols.resolve(raw).map(str::to_string).unwrap_or_else(|| format!("#{raw}"))),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(n) => write!(f, "{n}"),
            Value::Unsigned(n) => write!(f, "{n}"),
            Value::Symbol(s) => f.write_str(s),
        }
    }
}

/// A set or list of tuples of one arity, stored flat (`arity` values per tuple).
///
/// Values are in API form: numbers as their `u32` bit pattern, symbols as interned ids.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tuples {
    arity: usize,
    len: usize,
    data: Vec<u32>,
}

/// A tuple whose length differs from the container's arity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArityError {
    /// The container's arity.
    pub expected: usize,
    /// The offending tuple's length.
    pub found: usize,
}

impl fmt::Display for ArityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected a tuple of {} values, found {}", self.expected, self.found)
    }
}

impl std::error::Error for ArityError {}

impl Tuples {
    /// An empty container for tuples of `arity` values.
    pub fn new(arity: usize) -> Self {
        Tuples { arity, len: 0, data: Vec::new() }
    }
    /// Builds a container from rows, checking each row's length.
    pub fn from_rows<'a>(arity: usize, rows: impl IntoIterator<Item = &'a [u32]>) -> Result<Self, ArityError> {
        let mut t = Tuples::new(arity);
        for r in rows {
            t.try_push(r)?;
        }
        Ok(t)
    }
    /// Builds a container from flat data; `data.len()` must be a multiple of `arity`
    /// (for arity 0, `count` gives the number of empty tuples).
    pub fn from_flat(arity: usize, data: Vec<u32>, count: usize) -> Result<Self, ArityError> {
        if arity == 0 {
            if !data.is_empty() {
                return Err(ArityError { expected: 0, found: data.len() });
            }
            return Ok(Tuples { arity, len: count, data });
        }
        if !data.len().is_multiple_of(arity) || data.len() / arity != count {
            return Err(ArityError { expected: arity, found: data.len() % arity });
        }
        Ok(Tuples { arity, len: count, data })
    }
    /// Appends a tuple, or reports a length mismatch.
    pub fn try_push(&mut self, row: &[u32]) -> Result<(), ArityError> {
        if row.len() != self.arity {
            return Err(ArityError { expected: self.arity, found: row.len() });
        }
        self.data.extend_from_slice(row);
        self.len += 1;
        Ok(())
    }
    /// Appends a tuple.
    ///
    /// # Panics
    /// If `row.len()` differs from the arity; use [`Tuples::try_push`] for unchecked input.
    pub fn push(&mut self, row: &[u32]) {
        if let Err(e) = self.try_push(row) {
            panic!("Tuples::push: {e}");
        }
    }
    /// Values per tuple.
    pub fn arity(&self) -> usize {
        self.arity
    }
    /// Number of tuples.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True if there are no tuples.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The `i`-th tuple.
    pub fn get(&self, i: usize) -> Option<&[u32]> {
        (i < self.len).then(|| &self.data[i * self.arity..(i + 1) * self.arity])
    }
    /// The tuples in order.
    pub fn iter(&self) -> TupleIter<'_> {
        TupleIter { tuples: self, next: 0 }
    }
    /// The flat values, `arity` per tuple.
    pub fn as_flat(&self) -> &[u32] {
        &self.data
    }
    /// Copies the tuples into owned vectors (convenient in tests).
    pub fn to_vecs(&self) -> Vec<Vec<u32>> {
        self.iter().map(|r| r.to_vec()).collect()
    }
}

/// Iterator over the tuples of a [`Tuples`].
pub struct TupleIter<'a> {
    tuples: &'a Tuples,
    next: usize,
}

impl<'a> Iterator for TupleIter<'a> {
    type Item = &'a [u32];
    fn next(&mut self) -> Option<&'a [u32]> {
        let r = self.tuples.get(self.next)?;
        self.next += 1;
        Some(r)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.tuples.len - self.next;
        (n, Some(n))
    }
}

impl<'a> IntoIterator for &'a Tuples {
    type Item = &'a [u32];
    type IntoIter = TupleIter<'a>;
    fn into_iter(self) -> TupleIter<'a> {
        self.iter()
    }
}
