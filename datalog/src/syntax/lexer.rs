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

/// Splits `text` into tokens; the error is a position and a message.
pub fn lex(text: &str, file: u32) -> Result<Vec<Token>, (Pos, String)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    // Advances over one character, keeping line and column in step.
    macro_rules! bump {
        () => {{
            if chars[i] == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
            i += 1;
        }};
    }
    while i < chars.len() {
        let c = chars[i];
        let pos = Pos { file, line, col };
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            bump!();
            continue;
        }
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                bump!();
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            bump!();
            bump!();
            loop {
                if i >= chars.len() {
                    return Err((pos, "unterminated comment: expected '*/' before end of file".into()));
                }
                if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    bump!();
                    bump!();
                    break;
                }
                bump!();
            }
            continue;
        }
        if c == '"' {
            bump!();
            let mut s = String::new();
            loop {
                if i >= chars.len() || chars[i] == '\n' {
                    return Err((pos, "unterminated string: expected '\"' before end of line".into()));
                }
                let ch = chars[i];
                if ch == '"' {
                    bump!();
                    break;
                }
                if ch == '\\' {
                    let epos = Pos { file, line, col };
                    bump!();
                    let e = chars.get(i).copied();
                    let val = match e {
                        Some('n') => '\n',
                        Some('t') => '\t',
                        Some('r') => '\r',
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('\'') => '\'',
                        Some('0') => '\0',
                        _ => return Err((epos, "unknown escape in string: expected one of \\n \\t \\r \\\" \\\\ \\' \\0".into())),
                    };
                    bump!();
                    s.push(val);
                    continue;
                }
                s.push(ch);
                bump!();
            }
            out.push(Token { tok: Tok::Str(s), pos });
            continue;
        }
        let digit_follows = next.is_some_and(|d| d.is_ascii_digit());
        if c.is_ascii_digit() || (c == '-' && digit_follows) {
            let negative = c == '-';
            if negative {
                bump!();
            }
            let (radix, skip) = if chars[i] == '0' && matches!(chars.get(i + 1), Some('x' | 'X')) {
                (16, 2)
            } else if chars[i] == '0' && matches!(chars.get(i + 1), Some('b' | 'B')) {
                (2, 2)
            } else {
                (10, 0)
            };
            for _ in 0..skip {
                bump!();
            }
            let mut digits = String::new();
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                digits.push(chars[i]);
                bump!();
            }
            let value = i64::from_str_radix(&digits, radix)
                .ok()
                .filter(|v| *v <= u32::MAX as i64)
                .ok_or_else(|| (pos, format!("malformed number '{}{digits}': expected a 32-bit integer", if negative { "-" } else { "" })))?;
            out.push(Token { tok: Tok::Num(if negative { -value } else { value }), pos });
            continue;
        }
        if c.is_alphabetic() || c == '_' || c == '?' {
            let mut s = String::new();
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '?') {
                s.push(chars[i]);
                bump!();
            }
            let tok = if s == "_" { Tok::Wild } else { Tok::Ident(s) };
            out.push(Token { tok, pos });
            continue;
        }
        if c == '.' {
            let mut j = i + 1;
            let mut word = String::new();
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                word.push(chars[j]);
                j += 1;
            }
            if DIRECTIVES.contains(&word.as_str()) {
                while i < j {
                    bump!();
                }
                out.push(Token { tok: Tok::Directive(word), pos });
            } else {
                bump!();
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
            bump!();
        }
        out.push(Token { tok, pos });
    }
    out.push(Token { tok: Tok::Eof, pos: Pos { file, line, col } });
    Ok(out)
}
