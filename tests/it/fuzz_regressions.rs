//! Inputs the fuzzer (benchmarks/fuzz/run.sh) found: each must end in a program or a located
//! error, never a panic.

use std::path::PathBuf;

fn inputs(ext: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    duet_rs::inputs::expand(&[dir], &[ext])
}

#[test]
fn c_inputs_lower_or_fail_with_a_location() {
    // Through the command, as a user meets them: lowering runs on the front-end's own
    // large-stack thread there, so deep nesting is judged as in real use.
    for f in inputs("c") {
        // A hang is a failure too: give each input a minute, not the whole CI run.
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_duet-rs")).arg("ir").arg(&f).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::piped()).spawn().unwrap();
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(60) {
                child.kill().ok();
                panic!("{}: still lowering after 60 s (a hang)", f.display());
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        match o.status.code() {
            Some(0) => {}
            Some(2) => assert!(err.contains(&format!("{}:", f.display())), "{}: an input error without its location: {err}", f.display()),
            other => panic!("{}: ended with {other:?} (an internal error or a crash): {err}", f.display()),
        }
    }
}

#[test]
fn rule_inputs_parse_or_fail_with_a_location() {
    for f in inputs("dl") {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.display().to_string();
        let r = std::panic::catch_unwind(|| datalog::Program::parse(&text, &name, &mut datalog::NoIncludes));
        match r {
            Ok(Ok(_)) => {}
            Ok(Err(d)) => assert!(d.to_string().contains(&format!("{name}:")), "{name}: {d}"),
            Err(_) => panic!("{name}: the rule checker panicked"),
        }
    }
}
