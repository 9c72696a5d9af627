//! The lexer, parser and include loader on their own.

use datalog::syntax::ast::Item;
use datalog::syntax::lexer::{lex, Tok};
use datalog::syntax::parser::parse;
use datalog::syntax::resolve::load;
use datalog::{MapResolver, NoIncludes};

fn toks(s: &str) -> Vec<Tok> {
    lex(s, 0).unwrap().into_iter().map(|t| t.tok).collect()
}

#[test]
fn lexer_splits_facts_and_directives() {
    assert_eq!(
        toks("a(1).b(-2). .decl x // c\n/* d */ :- != _"),
        vec![
            Tok::Ident("a".into()),
            Tok::LParen,
            Tok::Num(1),
            Tok::RParen,
            Tok::Dot,
            Tok::Ident("b".into()),
            Tok::LParen,
            Tok::Num(-2),
            Tok::RParen,
            Tok::Dot,
            Tok::Directive("decl".into()),
            Tok::Ident("x".into()),
            Tok::Turnstile,
            Tok::Ne,
            Tok::Wild,
            Tok::Eof
        ]
    );
    assert_eq!(toks("0x10 0b11"), vec![Tok::Num(16), Tok::Num(3), Tok::Eof]);
}

#[test]
fn lexer_positions_and_errors() {
    let t = lex("a\n  \"x\\ty\"", 0).unwrap();
    assert_eq!((t[1].pos.line, t[1].pos.col), (2, 3));
    assert_eq!(t[1].tok, Tok::Str("x\ty".into()));
    let (p, m) = lex("a /* open", 0).unwrap_err();
    assert_eq!((p.line, p.col), (1, 3));
    assert!(m.contains("expected '*/'"), "{m}");
    assert!(lex("99999999999", 0).unwrap_err().1.contains("32-bit"));
    assert!(lex("\"a\\q\"", 0).unwrap_err().1.contains("unknown escape"));
}

fn items(s: &str) -> Vec<Item> {
    parse(&lex(s, 0).unwrap()).unwrap()
}

#[test]
fn parser_expands_disjunctions_and_reads_parameters() {
    let it = items(
        ".decl e(a: number, b: number) btree\n.input e(IO=file, delimiter=\",\")\ne(1,2).\n\
         p(x,y) :- e(x,y), !q(y), x != y ; e(y, x), (r(x) ; s(x)).",
    );
    assert_eq!(it.len(), 4);
    match &it[3] {
        Item::Clause(c) => {
            assert_eq!(c.bodies.len(), 3);
            assert_eq!(c.bodies[0].len(), 3);
            assert_eq!(c.bodies[2].len(), 2);
        }
        other => panic!("{other:?}"),
    }
    match &it[1] {
        Item::Io(io) => assert_eq!(io.params[1].1, ","),
        other => panic!("{other:?}"),
    }
}

#[test]
fn includes_resolve_relative_and_detect_cycles() {
    let mut r = MapResolver::new().with("rules/lib/b.dl", ".decl b(x: number)\n.include \"../c.dl\"").with("rules/c.dl", ".decl c(x: number)");
    let l = load(".include \"lib/b.dl\"\n.include \"c.dl\"", "rules/a.dl", &mut r).unwrap();
    assert_eq!(l.files, vec!["rules/a.dl", "rules/lib/b.dl", "rules/c.dl"]);
    assert_eq!(l.items.len(), 2, "c.dl is loaded once");

    let mut r = MapResolver::new().with("x.dl", ".include \"y.dl\"").with("y.dl", ".include \"x.dl\"");
    let e = load(".include \"x.dl\"", "main.dl", &mut r).unwrap_err();
    assert_eq!(e[0].to_string(), "y.dl:1:1: error: include cycle: x.dl -> y.dl -> x.dl");

    let e = load(".include \"nope.dl\"", "main.dl", &mut NoIncludes).unwrap_err();
    assert!(e[0].message.contains("cannot include"), "{}", e[0]);
}
