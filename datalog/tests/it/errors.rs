//! Every class of error in rule text is reported with file:line:col and what was expected.

use datalog::{MapResolver, NoIncludes, Program};
use proptest::prelude::*;

fn errors(text: &str) -> Vec<String> {
    match Program::parse(text, "t.dl", &mut NoIncludes) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(d) => d.iter().map(|d| d.to_string()).collect(),
    }
}

fn one_error(text: &str) -> String {
    let e = errors(text);
    assert_eq!(e.len(), 1, "{e:?}");
    e.into_iter().next().unwrap_or_default()
}

const DECLS: &str = ".decl e(a: number, b: number)\n.decl s(x: symbol)\n.decl p(a: number, b: number)\n";

#[test]
fn syntax_errors() {
    assert_eq!(one_error("p(x) :- q(x)"), "t.dl:1:13: error: expected ',', ';' or '.' after a body literal, found end of file");
    assert_eq!(one_error(".decl e(a: number,\n  b number)"), "t.dl:2:5: error: expected ':' and a type after the attribute name, found identifier 'number'");
    assert_eq!(one_error("e(1, 2) e(2, 3)."), "t.dl:1:9: error: expected '.' or ':-' after the head, found identifier 'e'");
    assert_eq!(one_error("/* never closed"), "t.dl:1:1: error: unterminated comment: expected '*/' before end of file");
    assert_eq!(one_error("s(\"abc)."), "t.dl:1:3: error: unterminated string: expected '\"' before end of line");
    assert_eq!(one_error(&format!("{DECLS}p(x, y) :- e(x, y + 1).")), "t.dl:4:19: error: arithmetic ('+') is not supported: expected ',' or ')'");
    assert_eq!(one_error(".pragma \"x\""), "t.dl:1:1: error: unsupported directive '.pragma': expected .decl, .type, .input, .output, .printsize or .include");
    assert_eq!(one_error(".decl f(x: float)"), "t.dl:1:12: error: type float is not supported: expected number, unsigned or symbol");
}

#[test]
fn unknown_relation() {
    assert_eq!(one_error(&format!("{DECLS}p(x, y) :- edge(x, y).")), "t.dl:4:12: error: unknown relation 'edge': expected a relation declared with .decl");
    assert_eq!(one_error(&format!("{DECLS}.output pp")), "t.dl:4:9: error: unknown relation 'pp': expected a relation declared with .decl (did you mean 'p'?)");
}

#[test]
fn arity_and_type_mismatches() {
    assert_eq!(one_error(&format!("{DECLS}p(x, y) :- e(x, y, x).")), "t.dl:4:12: error: arity mismatch: relation 'e' has 2 columns, but 3 arguments are given");
    assert_eq!(one_error(&format!("{DECLS}s(1).")), "t.dl:4:3: error: type mismatch: expected a symbol (a quoted string) for column 1 of 's', found number 1");
    assert_eq!(one_error(&format!("{DECLS}e(\"a\", 2).")), "t.dl:4:3: error: type mismatch: expected a number for column 1 of 'e', found string \"a\"");
    assert_eq!(one_error(&format!("{DECLS}p(x, x) :- e(x, _), s(x).")), "t.dl:4:23: error: type mismatch: variable 'x' is a symbol here (column 1 of 's') but a number at 4:3");
    assert_eq!(one_error(&format!("{DECLS}p(x, y) :- e(x, y), s(z), x < z.")), "t.dl:4:27: error: type mismatch in '<': expected both sides to have the same type, found number and symbol");
    assert_eq!(one_error(&format!("{DECLS}p(1, 1) :- s(z), z < \"b\".")), "t.dl:4:18: error: '<' orders numbers: expected number or unsigned operands, found symbol");
    assert_eq!(one_error(&format!("{DECLS}e(3000000000, 1).")), "t.dl:4:3: error: number 3000000000 is out of range for column 1 of 'e': expected a signed 32-bit value");
}

#[test]
fn range_restriction() {
    assert_eq!(one_error(&format!("{DECLS}p(x, y) :- e(x, _).")), "t.dl:4:6: error: variable 'y' in the head of 'p' is not range-restricted: expected it in a positive body atom");
    assert_eq!(
        one_error(&format!("{DECLS}p(x, x) :- e(x, _), !e(x, y).")),
        "t.dl:4:21: error: variable 'y' in the negation of 'e' is not range-restricted: expected it in a positive body atom (write '_' for an unconstrained argument)"
    );
    assert_eq!(one_error(&format!("{DECLS}p(x, x) :- e(x, _), x < y.")), "t.dl:4:21: error: variable 'y' in the constraint '<' is not range-restricted: expected it in a positive body atom");
    assert_eq!(one_error(&format!("{DECLS}p(x, _) :- e(x, _).")), "t.dl:4:6: error: '_' is not allowed in a head: expected a variable or constant");
    assert_eq!(one_error(&format!("{DECLS}e(x, 1).")), "t.dl:4:3: error: a fact takes constants only: expected a number or string for column 1 of 'e', found variable 'x'");
    // `=` binds a variable once the other side is bound, so this is accepted.
    Program::parse(&format!("{DECLS}p(x, y) :- e(x, _), y = x."), "t.dl", &mut NoIncludes).unwrap();
}

#[test]
fn negation_through_recursion_names_the_cycle() {
    let text = ".decl a(x: number)\n.decl b(x: number)\n.decl c(x: number)\n.decl base(x: number)\n\
                a(x) :- base(x), !b(x).\nb(x) :- c(x).\nc(x) :- a(x).";
    assert_eq!(
        one_error(text),
        "t.dl:5:1: error: negation through recursion: 'a' depends negatively on 'b' in the cycle a -> !b -> c -> a \
         (each relation depends on the next); expected a stratified program"
    );
    let selfneg = ".decl a(x: number)\n.decl base(x: number)\na(x) :- base(x), !a(x).";
    assert_eq!(
        one_error(selfneg),
        "t.dl:3:1: error: negation through recursion: 'a' depends negatively on 'a' in the cycle a -> !a -> a \
         (each relation depends on the next); expected a stratified program"
    );
}

#[test]
fn several_errors_are_reported_together() {
    let e = errors(&format!("{DECLS}p(x, y) :- edge(x, y).\np(x) :- e(x, _).\ns(2)."));
    assert_eq!(e.len(), 3, "{e:?}");
    assert!(e[0].starts_with("t.dl:4:12:") && e[1].starts_with("t.dl:5:1:") && e[2].starts_with("t.dl:6:3:"), "{e:?}");
}

#[test]
fn include_errors_point_into_the_right_file() {
    let mut r = MapResolver::new().with("lib/decls.dl", ".decl e(a: number, b: number)\ne(1, \"x\").");
    let e = Program::parse(".include \"lib/decls.dl\"", "main.dl", &mut r).unwrap_err();
    assert_eq!(e[0].to_string(), "lib/decls.dl:2:6: error: type mismatch: expected a number for column 2 of 'e', found string \"x\"");
    let e = Program::parse(".include \"missing.dl\"", "main.dl", &mut MapResolver::new()).unwrap_err();
    assert_eq!(e[0].to_string(), "main.dl:1:1: error: no embedded rule file named 'missing.dl'");
}

#[test]
fn io_directive_errors() {
    assert_eq!(one_error(&format!("{DECLS}.input e(IO=sqlite)")), "t.dl:4:10: error: unsupported IO=sqlite: expected IO=file");
    assert_eq!(one_error(&format!("{DECLS}.output p(compress=true)")), "t.dl:4:11: error: unsupported parameter 'compress': expected IO, filename or delimiter");
}

fn shipped() -> String {
    std::fs::read_to_string(format!("{}/../rules/interference.dl", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary text never panics the loader.
    #[test]
    fn garbage_never_panics(text in "[ -~\\n\\t]{0,200}") {
        let _ = Program::parse(&text, "g.dl", &mut NoIncludes);
    }

    /// Every prefix, and every single-character deletion, of the shipped rules is handled.
    #[test]
    fn damaged_rules_never_panic(cut in 0usize..10_000, del in 0usize..10_000) {
        let text = shipped();
        let chars: Vec<char> = text.chars().collect();
        let prefix: String = chars[..cut.min(chars.len())].iter().collect();
        let _ = Program::parse(&prefix, "p.dl", &mut NoIncludes);
        let mut deleted = chars.clone();
        if !deleted.is_empty() {
            deleted.remove(del % chars.len());
        }
        let deleted: String = deleted.into_iter().collect();
        if let Err(d) = Program::parse(&deleted, "d.dl", &mut NoIncludes) {
            for e in d.iter() {
                prop_assert!(e.line >= 1 && e.col >= 1 && !e.message.is_empty());
            }
        }
    }
}
