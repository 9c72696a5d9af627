//! Turns rule text into tokens, each with its position.

use super::Pos;

/// The kinds of token in the Souffle subset.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier: a relation, variable, attribute or type name.
    Ident(String),
    /// A directive such as `.decl`, stored without the dot.
    Directive(String),
    /// A string literal, escapes resolved.
    Str(String),
    /// An integer literal; the range is checked against the column type later.
    Num(i64),
    /// `_`
    Wild,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// `.` ending a clause.
    Dot,
    /// `:`
    Colon,
    /// `;`
    Semi,
    /// `:-`
    Turnstile,
    /// `!`
    Bang,
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `<:`
    Subtype,
    /// `|`
    Pipe,
    /// Any other punctuation, kept so the parser can say what it found.
    Other(char),
    /// End of input.
    Eof,
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("identifier '{s}'"),
            Tok::Directive(s) => format!("directive '.{s}'"),
            Tok::Str(s) => format!("string \"{}\"", s.escape_default()),
            Tok::Num(n) => format!("number {n}"),
            Tok::Wild => "'_'".into(),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::Comma => "','".into(),
            Tok::Dot => "'.'".into(),
            Tok::Colon => "':'".into(),
            Tok::Semi => "';'".into(),
            Tok::Turnstile => "':-'".into(),
            Tok::Bang => "'!'".into(),
            Tok::Eq => "'='".into(),
            Tok::Ne => "'!='".into(),
            Tok::Lt => "'<'".into(),
            Tok::Le => "'<='".into(),
            Tok::Gt => "'>'".into(),
            Tok::Ge => "'>='".into(),
            Tok::Subtype => "'<:'".into(),
            Tok::Pipe => "'|'".into(),
            Tok::Other(c) => format!("'{}'", c.escape_default()),
            Tok::Eof => "end of file".into(),
        }
    }
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Its first character.
    pub pos: Pos,
}

/// Directive names that lex as one token. Others lex as `.` followed by an identifier,
/// because `a(1).b(2).` must read as two facts.
const DIRECTIVES: &[&str] = &["decl", "type", "input", "output", "printsize", "include", "pragma", "functor", "comp", "init", "number_type", "symbol_type", "plan", "limitsize", "override", "once"];

/// A position in the text being lexed.
struct Cursor {
    chars: Vec<char>,
    i: usize,
    line: u32,
    col: u32,
    file: u32,
}

impl Cursor {
    /// The character `k` places ahead.
    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn pos(&self) -> Pos {
        Pos { file: self.file, line: self.line, col: self.col }
    }

    /// Advances over one character, keeping line and column in step.
    fn bump(&mut self) {
        if self.chars[self.i] == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        self.i += 1;
    }

    /// A string literal from its opening quote.
    fn string(&mut self) -> Result<String, (Pos, String)> {
        let pos = self.pos();
        self.bump();
        let mut s = String::new();
        loop {
            let ch = match self.peek(0) {
                Some(ch) if ch != '\n' => ch,
                _ => return Err((pos, "unterminated string: expected '\"' before end of line".into())),
            };
            if ch == '"' {
                self.bump();
                return Ok(s);
            }
            if ch == '\\' {
                let epos = self.pos();
                self.bump();
                let val = match self.peek(0) {
                    Some('n') => '\n',
                    Some('t') => '\t',
                    Some('r') => '\r',
                    Some('"') => '"',
                    Some('\\') => '\\',
                    Some('\'') => '\'',
                    Some('0') => '\0',
                    _ => return Err((epos, "unknown escape in string: expected one of \\n \\t \\r \\\" \\\\ \\' \\0".into())),
                };
                self.bump();
                s.push(val);
                continue;
            }
            s.push(ch);
            self.bump();
        }
    }

    /// A 32-bit integer literal (decimal, `0x` or `0b`, maybe negative).
    fn number(&mut self) -> Result<i64, (Pos, String)> {
        let pos = self.pos();
        let negative = self.peek(0) == Some('-');
        if negative {
            self.bump();
        }
        let (radix, skip) = match (self.peek(0), self.peek(1)) {
            (Some('0'), Some('x' | 'X')) => (16, 2),
            (Some('0'), Some('b' | 'B')) => (2, 2),
            _ => (10, 0),
        };
        for _ in 0..skip {
            self.bump();
        }
        let mut digits = String::new();
        while let Some(ch) = self.peek(0).filter(|c| c.is_ascii_alphanumeric() || *c == '_') {
            digits.push(ch);
            self.bump();
        }
        let value = i64::from_str_radix(&digits, radix)
            .ok()
            .filter(|v| *v <= u32::MAX as i64)
            .ok_or_else(|| (pos, format!("malformed number '{}{digits}': expected a 32-bit integer", if negative { "-" } else { "" })))?;
        Ok(if negative { -value } else { value })
    }
}

/// Splits `text` into tokens; the error is a position and a message.
pub fn lex(text: &str, file: u32) -> Result<Vec<Token>, (Pos, String)> {
    let mut cur = Cursor { chars: text.chars().collect(), i: 0, line: 1, col: 1, file };
    let mut out = Vec::new();
    while let Some(c) = cur.peek(0) {
        let pos = cur.pos();
        let next = cur.peek(1);
        if c.is_whitespace() {
            cur.bump();
            continue;
        }
        if c == '/' && next == Some('/') {
            while cur.peek(0).is_some_and(|c| c != '\n') {
                cur.bump();
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            cur.bump();
            cur.bump();
            loop {
                if cur.peek(0).is_none() {
                    return Err((pos, "unterminated comment: expected '*/' before end of file".into()));
                }
                if cur.peek(0) == Some('*') && cur.peek(1) == Some('/') {
                    cur.bump();
                    cur.bump();
                    break;
                }
                cur.bump();
            }
            continue;
        }
        if c == '"' {
            out.push(Token { tok: Tok::Str(cur.string()?), pos });
            continue;
        }
        if c.is_ascii_digit() || (c == '-' && next.is_some_and(|d| d.is_ascii_digit())) {
            out.push(Token { tok: Tok::Num(cur.number()?), pos });
            continue;
        }
        if c.is_alphabetic() || c == '_' || c == '?' {
            let mut s = String::new();
            while let Some(ch) = cur.peek(0).filter(|c| c.is_alphanumeric() || *c == '_' || *c == '?') {
                s.push(ch);
                cur.bump();
            }
            let tok = if s == "_" { Tok::Wild } else { Tok::Ident(s) };
            out.push(Token { tok, pos });
            continue;
        }
        if c == '.' {
            let mut word = String::new();
            while let Some(ch) = cur.peek(1 + word.chars().count()).filter(|c| c.is_alphanumeric() || *c == '_') {
                word.push(ch);
            }
            if DIRECTIVES.contains(&word.as_str()) {
                for _ in 0..=word.chars().count() {
                    cur.bump();
                }
                out.push(Token { tok: Tok::Directive(word), pos });
            } else {
                cur.bump();
                out.push(Token { tok: Tok::Dot, pos });
            }
            continue;
        }
        let two = |a: char, b: char| c == a && next == Some(b);
        let (tok, len) = if two(':', '-') {
            (Tok::Turnstile, 2)
        } else if two('!', '=') {
            (Tok::Ne, 2)
        } else if two('<', '=') {
            (Tok::Le, 2)
        } else if two('>', '=') {
            (Tok::Ge, 2)
        } else if two('<', ':') {
            (Tok::Subtype, 2)
        } else {
            let t = match c {
                '(' => Tok::LParen,
                ')' => Tok::RParen,
                ',' => Tok::Comma,
                ':' => Tok::Colon,
                ';' => Tok::Semi,
                '!' => Tok::Bang,
                '=' => Tok::Eq,
                '<' => Tok::Lt,
                '>' => Tok::Gt,
                '|' => Tok::Pipe,
                other => Tok::Other(other),
            };
            (t, 1)
        };
        for _ in 0..len {
            cur.bump();
        }
        out.push(Token { tok, pos });
    }
    out.push(Token { tok: Tok::Eof, pos: cur.pos() });
    Ok(out)
}
