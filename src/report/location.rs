//! Source positions of assertions, recovered from their stable ids `file:line:col`.

/// A source position; `line` and `column` are 1-based, 0 when unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    /// The file as the id names it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// Splits an assertion id `file:line:col` (the file may itself contain colons).
pub(crate) fn of_id(id: &str) -> Position {
    let mut parts = id.rsplitn(3, ':');
    let col = parts.next().and_then(|c| c.parse().ok());
    let line = parts.next().and_then(|l| l.parse().ok());
    match (parts.next(), line, col) {
        (Some(file), Some(line), Some(column)) => Position { file: file.to_string(), line, column },
        _ => Position { file: id.to_string(), line: 0, column: 0 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_split_from_the_right() {
        assert_eq!(of_id("a/b.c:3:7"), Position { file: "a/b.c".into(), line: 3, column: 7 });
        assert_eq!(of_id("C:/x.c:10:2"), Position { file: "C:/x.c".into(), line: 10, column: 2 });
        assert_eq!(of_id("odd"), Position { file: "odd".into(), line: 0, column: 0 });
    }
}
