//! Interning of `symbol` values to dense `u32` ids.

use hashbrown::HashMap;

/// A bidirectional map between strings and dense ids, in first-seen order.
///
/// Ids are assigned in the order strings are first interned, so a run that loads the same rule
/// file and facts in the same order assigns the same ids whatever the number of workers.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    names: Vec<Box<str>>,
    ids: HashMap<Box<str>, u32>,
}

impl SymbolTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }
    /// The id of `s`, assigning the next id if it is new.
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(s.into());
        self.ids.insert(s.into(), id);
        id
    }
    /// The id of `s` if it has been interned.
    pub fn lookup(&self, s: &str) -> Option<u32> {
        self.ids.get(s).copied()
    }
    /// The string with id `id`.
    pub fn resolve(&self, id: u32) -> Option<&str> {
        self.names.get(id as usize).map(|b| &**b)
    }
    /// The number of interned strings.
    pub fn len(&self) -> usize {
        self.names.len()
    }
    /// True if nothing has been interned.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
