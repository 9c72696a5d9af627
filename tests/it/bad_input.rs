//! Bad input gives a located, readable error and the documented exit code; never a panic or
//! a hang. Unsupported constructs give `unknown` verdicts that name the construct.

use crate::common;

use common::{duet, texts};

/// (file in tests/bad_input, exit code, text that must appear in the output).
const CORPUS: &[(&str, i32, &str)] = &[
    ("syntax_error.c", 2, "syntax_error.c:1:11: error: syntax error at `{`: expected `)`, a type name or an identifier"),
    ("missing_semicolon.c", 2, "missing_semicolon.c:1:27: error: syntax error at `}`: expected `;`"),
    ("undeclared.c", 2, "undeclared.c:3:14: error: use of undeclared identifier `y`"),
    ("not_an_lvalue.c", 2, "not_an_lvalue.c:3:5: error: expression is not assignable (expected an lvalue)"),
    ("break_outside.c", 2, "break_outside.c:2:5: error: `break` outside of a loop or switch"),
    ("missing_header.c", 2, "missing_header.c:1:10: error: preprocessor: no_such_header.h: No such file or directory"),
    ("preprocessor_error.c", 2, "preprocessor_error.c:1:2: error: preprocessor: #error this configuration is not supported"),
    ("empty.c", 2, "empty.c: error: the file is empty"),
    ("no_main.c", 2, "no_main.c: error: no `main` function"),
    ("unsupported.c", 5, "unsupported construct: `pthread_key_create` with a destructor, which runs as each thread exits at tests/bad_input/unsupported.c:2:50"),
    ("function_pointer.c", 5, "unsupported construct: call through `f`, which may hold a pointer that is no function of the program (from unknown memory, an undefined function or a conversion) at tests/bad_input/function_pointer.c:7:23"),
    // Boolean programs get the same located errors as C.
    ("bp_constant.bp", 2, "bp_constant.bp:3:10: error: syntax error at `2`: expected a Boolean constant (0 or 1)"),
    ("bp_undeclared.bp", 2, "bp_undeclared.bp:3:5: error: undeclared variable `y`"),
    ("bp_missing_fi.bp", 2, "bp_missing_fi.bp:5:1: error: syntax error at `end`: expected `fi`"),
    // Inline assembly is an over-approximation: the output it may write is unknown.
    ("inline_asm.c", 5, "inline_asm.c:5:5  unknown"),
];

#[test]
fn corpus_gives_located_messages_and_exit_codes() {
    for (file, code, message) in CORPUS {
        let path = format!("tests/bad_input/{file}");
        let out = duet(&["check", &path]);
        let (stdout, stderr) = texts(&out);
        assert_eq!(out.status.code(), Some(*code), "{file}: stdout {stdout} stderr {stderr}");
        assert!(stdout.contains(message), "{file}: expected `{message}` in:\n{stdout}");
        assert!(!stderr.contains("panicked"), "{file}: {stderr}");
    }
}

#[test]
fn ir_command_reports_errors_too() {
    let out = duet(&["ir", "tests/bad_input/undeclared.c"]);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("undeclared.c:3:14: error: use of undeclared identifier `y`"), "{stderr}");
}

#[test]
fn missing_binary_and_directory_inputs() {
    let dir = std::env::temp_dir().join(format!("duet-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("image.c");
    std::fs::write(&bin, b"\x7fELF\x02\x01\x01\x00\x00\x00binary").unwrap();
    let out = duet(&["check", bin.to_str().unwrap()]);
    let (stdout, _) = texts(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout.contains("binary content (a NUL byte at offset 7): expected a C source file"), "{stdout}");

    let out = duet(&["check", dir.join("absent.c").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(texts(&out).0.contains("absent.c: error: no such file"));

    let empty_dir = dir.join("nothing");
    std::fs::create_dir_all(&empty_dir).unwrap();
    let out = duet(&["check", empty_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "a directory without C files is a usage error");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failing_file_does_not_stop_the_batch() {
    let out = duet(&["check", "tests/bad_input/syntax_error.c", "tests/programs/threads.c", "tests/bad_input/empty.c"]);
    let (stdout, _) = texts(&out);
    assert_eq!(out.status.code(), Some(2));
    let syntax = stdout.find("syntax_error.c:1:11").unwrap();
    let good = stdout.find("tests/programs/threads.c: 0 assertion(s)").unwrap();
    let empty = stdout.find("empty.c: error").unwrap();
    assert!(syntax < good && good < empty, "files are reported in order:\n{stdout}");
    assert!(stdout.contains("  error         2"), "{stdout}");
}

#[test]
fn deeply_nested_input_does_not_crash() {
    let dir = std::env::temp_dir().join(format!("duet-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("deep.c");
    let depth = 20_000;
    let src = format!("int main(void) {{ int x = {}1{}; return x; }}\n", "(".repeat(depth), ")".repeat(depth));
    std::fs::write(&path, src).unwrap();
    let out = duet(&["check", path.to_str().unwrap()]);
    let (stdout, stderr) = texts(&out);
    assert!(matches!(out.status.code(), Some(0 | 2 | 6)), "exit {:?}: {stdout} {stderr}", out.status.code());
    assert!(!stderr.contains("panicked") && !stderr.contains("overflow"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors_exit_with_1() {
    let out = duet(&["check"]);
    assert_eq!(out.status.code(), Some(1));
    let out = duet(&["check", "--no-such-flag", "x.c"]);
    assert_eq!(out.status.code(), Some(1));
    let out = duet(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(1));
    for sub in ["check", "ir"] {
        let out = duet(&[sub, "--help"]);
        assert_eq!(out.status.code(), Some(0));
        assert!(texts(&out).0.contains("Usage:"), "{sub} --help");
    }
}
