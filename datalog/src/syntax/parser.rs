//! Recursive-descent parser for the Souffle subset.

use super::ast::*;
use super::lexer::{Tok, Token};
use super::Pos;

/// Relation qualifiers Souffle accepts after a declaration that change only its storage.
const IGNORED_QUALIFIERS: &[&str] = &["btree", "brie", "btree_delete", "inline", "no_inline", "magic", "no_magic", "overridable"];

/// A syntax error: where, and what was expected.
pub type ParseError = (Pos, String);

struct Parser<'a> {
    toks: &'a [Token],
    at: usize,
}

/// Parses one file's tokens into items; `.include` items are left for the loader.
pub fn parse(toks: &[Token]) -> Result<Vec<Item>, ParseError> {
    let mut p = Parser { toks, at: 0 };
    let mut items = Vec::new();
    while p.peek() != &Tok::Eof {
        p.item(&mut items)?;
    }
    Ok(items)
}

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.toks[self.at].tok
    }
    fn peek2(&self) -> &Tok {
        let i = (self.at + 1).min(self.toks.len() - 1);
        &self.toks[i].tok
    }
    fn pos(&self) -> Pos {
        self.toks[self.at].pos
    }
    fn bump(&mut self) -> &Token {
        let t = &self.toks[self.at];
        if self.at + 1 < self.toks.len() {
            self.at += 1;
        }
        t
    }
    fn error<T>(&self, expected: &str) -> Result<T, ParseError> {
        Err((self.pos(), format!("expected {expected}, found {}", self.peek().describe())))
    }
    fn expect(&mut self, tok: Tok, expected: &str) -> Result<Pos, ParseError> {
        if *self.peek() == tok {
            Ok(self.bump().pos)
        } else {
            self.error(expected)
        }
    }
    fn name(&mut self, expected: &str) -> Result<Name, ParseError> {
        match self.peek().clone() {
            Tok::Ident(text) => {
                let pos = self.bump().pos;
                Ok(Name { text, pos })
            }
            _ => self.error(expected),
        }
    }

    fn item(&mut self, items: &mut Vec<Item>) -> Result<(), ParseError> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Directive(d) => {
                self.bump();
                match d.as_str() {
                    "decl" => self.decl(items),
                    "type" => {
                        let name = self.name("a type name after '.type'")?;
                        if !matches!(self.peek(), Tok::Subtype | Tok::Eq) {
                            return self.error("'<:' or '=' after the type name");
                        }
                        self.bump();
                        let base = self.name("a base type (number, unsigned or symbol)")?;
                        if *self.peek() == Tok::Pipe {
                            return Err((self.pos(), "union types are not supported: expected a single base type".into()));
                        }
                        items.push(Item::Type(TypeDecl { name, base }));
                        Ok(())
                    }
                    "input" => self.io(IoKind::Input, items),
                    "output" => self.io(IoKind::Output, items),
                    "printsize" => self.io(IoKind::PrintSize, items),
                    "include" => match self.peek().clone() {
                        Tok::Str(path) => {
                            self.bump();
                            items.push(Item::Include(path, pos));
                            Ok(())
                        }
                        _ => self.error("a quoted file name after '.include'"),
                    },
                    other => Err((pos, format!("unsupported directive '.{other}': expected .decl, .type, .input, .output, .printsize or .include"))),
                }
            }
            Tok::Ident(_) => {
                let clause = self.clause()?;
                items.push(Item::Clause(clause));
                Ok(())
            }
            Tok::Other('#') => Err((pos, "preprocessor lines are not supported: expected a directive, fact or rule (use .include)".into())),
            _ => self.error("a directive, fact or rule"),
        }
    }

    fn decl(&mut self, items: &mut Vec<Item>) -> Result<(), ParseError> {
        loop {
            let name = self.name("a relation name after '.decl'")?;
            self.expect(Tok::LParen, "'(' after the relation name")?;
            let mut attrs = Vec::new();
            if *self.peek() != Tok::RParen {
                loop {
                    let attr = self.name("an attribute name")?;
                    self.expect(Tok::Colon, "':' and a type after the attribute name")?;
                    let ty = self.name("a type (number, unsigned or symbol)")?;
                    attrs.push((attr, ty));
                    match self.peek() {
                        Tok::Comma => {
                            self.bump();
                        }
                        Tok::RParen => break,
                        _ => return self.error("',' or ')' in the attribute list"),
                    }
                }
            }
            self.bump();
            items.push(Item::Decl(Decl { name, attrs }));
            // Qualifiers are identifiers not followed by '(' (which would start a fact).
            while let Tok::Ident(q) = self.peek().clone() {
                if *self.peek2() == Tok::LParen || *self.peek2() == Tok::Comma {
                    break;
                }
                if q == "eqrel" {
                    return Err((self.pos(), "the 'eqrel' qualifier is not supported: declare the relation plainly and write the equivalence rules".into()));
                }
                if !IGNORED_QUALIFIERS.contains(&q.as_str()) {
                    break;
                }
                self.bump();
            }
            if *self.peek() == Tok::Comma {
                self.bump();
                continue;
            }
            return Ok(());
        }
    }

    fn io(&mut self, kind: IoKind, items: &mut Vec<Item>) -> Result<(), ParseError> {
        loop {
            let rel = self.name("a relation name")?;
            let mut params = Vec::new();
            if *self.peek() == Tok::LParen {
                self.bump();
                loop {
                    let key = self.name("a parameter name such as filename or delimiter")?;
                    self.expect(Tok::Eq, "'=' after the parameter name")?;
                    let value = match self.peek().clone() {
                        Tok::Str(s) => s,
                        Tok::Ident(s) => s,
                        Tok::Num(n) => n.to_string(),
                        _ => return self.error("a parameter value"),
                    };
                    self.bump();
                    params.push((key, value));
                    match self.peek() {
                        Tok::Comma => {
                            self.bump();
                        }
                        Tok::RParen => {
                            self.bump();
                            break;
                        }
                        _ => return self.error("',' or ')' in the parameter list"),
                    }
                }
            }
            items.push(Item::Io(IoDecl { kind, rel, params }));
            if *self.peek() == Tok::Comma {
                self.bump();
                continue;
            }
            return Ok(());
        }
    }

    fn clause(&mut self) -> Result<Clause, ParseError> {
        let pos = self.pos();
        let mut heads = vec![self.atom()?];
        while *self.peek() == Tok::Comma {
            self.bump();
            heads.push(self.atom()?);
        }
        match self.peek() {
            Tok::Dot => {
                self.bump();
                Ok(Clause { heads, bodies: vec![Vec::new()], is_fact: true, pos })
            }
            Tok::Turnstile => {
                self.bump();
                let bodies = self.disjunction()?;
                self.expect(Tok::Dot, "',', ';' or '.' after a body literal")?;
                Ok(Clause { heads, bodies, is_fact: false, pos })
            }
            _ => self.error("'.' or ':-' after the head"),
        }
    }

    /// Parses `conj (';' conj)*` and returns its disjunctive normal form.
    fn disjunction(&mut self) -> Result<Vec<Vec<Literal>>, ParseError> {
        let mut alts = self.conjunction()?;
        while *self.peek() == Tok::Semi {
            self.bump();
            alts.extend(self.conjunction()?);
        }
        Ok(alts)
    }

    fn conjunction(&mut self) -> Result<Vec<Vec<Literal>>, ParseError> {
        let mut alts: Vec<Vec<Literal>> = vec![Vec::new()];
        loop {
            let part = self.literal()?;
            let mut next = Vec::with_capacity(alts.len() * part.len());
            for a in &alts {
                for b in &part {
                    let mut c = a.clone();
                    c.extend(b.iter().cloned());
                    next.push(c);
                }
            }
            if next.len() > 4096 {
                return Err((self.pos(), "the body has too many disjunctive alternatives (more than 4096): expected a simpler body".into()));
            }
            alts = next;
            if *self.peek() == Tok::Comma {
                self.bump();
            } else {
                return Ok(alts);
            }
        }
    }

    /// One literal; a parenthesised disjunction yields several alternatives.
    fn literal(&mut self) -> Result<Vec<Vec<Literal>>, ParseError> {
        match self.peek() {
            Tok::Bang => {
                let pos = self.bump().pos;
                if !matches!(self.peek(), Tok::Ident(_)) {
                    return self.error("an atom after '!'");
                }
                let atom = self.atom()?;
                Ok(vec![vec![Literal::Neg(atom, pos)]])
            }
            Tok::LParen => {
                self.bump();
                let alts = self.disjunction()?;
                self.expect(Tok::RParen, "')' closing the parenthesised body")?;
                Ok(alts)
            }
            Tok::Ident(_) if *self.peek2() == Tok::LParen => Ok(vec![vec![Literal::Pos(self.atom()?)]]),
            _ => {
                let pos = self.pos();
                let lhs = self.term("an atom, a negation or a constraint")?;
                let op = match self.peek() {
                    Tok::Eq => CmpOp::Eq,
                    Tok::Ne => CmpOp::Ne,
                    Tok::Lt => CmpOp::Lt,
                    Tok::Le => CmpOp::Le,
                    Tok::Gt => CmpOp::Gt,
                    Tok::Ge => CmpOp::Ge,
                    Tok::Other(c @ ('+' | '-' | '*' | '/' | '%')) => {
                        let c = *c;
                        return Err((self.pos(), format!("arithmetic ('{c}') is not supported: expected a comparison operator (=, !=, <, <=, >, >=)")));
                    }
                    _ => return self.error("a comparison operator (=, !=, <, <=, >, >=)"),
                };
                self.bump();
                let rhs = self.term("a variable or constant after the comparison operator")?;
                if let Tok::Other(c @ ('+' | '-' | '*' | '/' | '%')) = self.peek() {
                    let c = *c;
                    return Err((self.pos(), format!("arithmetic ('{c}') is not supported: expected ',', ';' or '.'")));
                }
                Ok(vec![vec![Literal::Cmp(lhs, op, rhs, pos)]])
            }
        }
    }

    fn atom(&mut self) -> Result<Atom, ParseError> {
        let rel = self.name("a relation name")?;
        self.expect(Tok::LParen, "'(' after the relation name")?;
        let mut args = Vec::new();
        if *self.peek() == Tok::RParen {
            self.bump();
            return Ok(Atom { rel, args });
        }
        loop {
            args.push(self.term("an argument (variable, '_', number or string)")?);
            match self.peek() {
                Tok::Comma => {
                    self.bump();
                }
                Tok::RParen => {
                    self.bump();
                    return Ok(Atom { rel, args });
                }
                Tok::Other(c @ ('+' | '-' | '*' | '/' | '%')) => {
                    let c = *c;
                    return Err((self.pos(), format!("arithmetic ('{c}') is not supported: expected ',' or ')'")));
                }
                _ => return self.error("',' or ')' in the argument list"),
            }
        }
    }

    fn term(&mut self, expected: &str) -> Result<Term, ParseError> {
        let pos = self.pos();
        let t = match self.peek().clone() {
            Tok::Ident(text) => Term::Var(Name { text, pos }),
            Tok::Wild => Term::Wild(pos),
            Tok::Num(n) => Term::Num(n, pos),
            Tok::Str(s) => Term::Str(s, pos),
            _ => return self.error(expected),
        };
        self.bump();
        Ok(t)
    }
}
