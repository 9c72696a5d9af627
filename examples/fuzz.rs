//! A mutation fuzzer for the two readers of user text: C (preprocessed source, parsed and
//! lowered to the IR) and Datalog rules (parsed and checked). It runs on the stable toolchain:
//! there is no coverage feedback, so it mutates seed files token by token, splices them, and
//! inserts tokens from a dictionary of the constructs each reader handles.
//!
//! ```sh
//! cargo run --release --example fuzz -- c  --seconds 600 tests/programs benchmarks/examples
//! cargo run --release --example fuzz -- dl --execs 1000000 rules
//! ```
//!
//! A panic is a crash: its input is saved as `OUT/crash-N.{c,dl}` with the panic's message and
//! location, once per location. An input that runs longer than `--hang-seconds` is saved as
//! `OUT/hang.{c,dl}` and ends the run. The input being run is always in `OUT/current.*`, so a
//! stack overflow, which aborts the process, leaves its input behind. Exit status 1 when
//! anything was found.

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Which reader is fuzzed.
#[derive(Clone, Copy, PartialEq)]
enum Target {
    C,
    Datalog,
}

impl Target {
    fn ext(self) -> &'static str {
        match self {
            Target::C => "c",
            Target::Datalog => "dl",
        }
    }

    /// Tokens worth inserting: constructs each reader must either take or reject cleanly.
    fn dictionary(self) -> &'static [&'static str] {
        match self {
            Target::C => &[
                "(",
                ")",
                "{",
                "}",
                "[",
                "]",
                ";",
                ",",
                "*",
                "&",
                "->",
                ".",
                "=",
                "==",
                "+",
                "-",
                "/",
                "%",
                "<<",
                ">>",
                "?",
                ":",
                "!",
                "~",
                "++",
                "--",
                "&&",
                "||",
                "sizeof",
                "int",
                "char",
                "long",
                "unsigned",
                "_Bool",
                "float",
                "double",
                "void",
                "struct s",
                "union u",
                "enum e",
                "typedef",
                "static",
                "const",
                "volatile",
                "_Atomic",
                "extern",
                "if",
                "else",
                "while",
                "for",
                "do",
                "switch",
                "case 1:",
                "default:",
                "break;",
                "continue;",
                "goto l;",
                "l:",
                "return",
                "0",
                "1",
                "-1",
                "2147483647",
                "-2147483648",
                "4294967295",
                "9223372036854775807",
                "18446744073709551615",
                "0x7fffffff",
                "1.5",
                "'a'",
                "\"s\"",
                "typeof(x)",
                "__typeof__(int)",
                "__attribute__((unused))",
                "__extension__",
                "({ 1; })",
                "asm(\"nop\")",
                "(int)",
                "(void *)",
                "(char *)",
                "pthread_create",
                "pthread_join",
                "pthread_mutex_lock",
                "pthread_mutex_unlock",
                "__VERIFIER_nondet_int()",
                "__VERIFIER_assert",
                "__VERIFIER_atomic_begin();",
                "__VERIFIER_atomic_end();",
                "reach_error();",
                "assume_abort_if_not",
                "malloc(4)",
                "free",
                "memset",
                "main",
                "x",
                "y",
                "p",
                "f",
                "(*f)()",
                "[10]",
                "[0]",
                "{ .a = 1 }",
                "(struct s){0}",
                "_Static_assert(1, \"\");",
                "__builtin_expect",
                "__builtin_offsetof(struct s, a)",
            ],
            Target::Datalog => &[
                ".decl",
                ".input",
                ".output",
                ".printsize",
                ".type",
                ".include \"x.dl\"",
                "r(x)",
                "s(x, y)",
                "(",
                ")",
                ",",
                ".",
                ":-",
                ";",
                "!",
                "_",
                "x",
                "y",
                "z",
                "=",
                "!=",
                "<",
                "<=",
                ">",
                ">=",
                "number",
                "symbol",
                "unsigned",
                "a: number",
                "b: symbol",
                "0",
                "1",
                "-1",
                "4294967295",
                "2147483648",
                "\"s\"",
                "//",
                "/*",
                "*/",
                "\n",
            ],
        }
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Splits text into tokens (identifiers, numbers, single punctuation, whitespace runs) so that
/// mutations keep most of the input lexically valid and reach the parser's later stages.
fn tokens(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
        } else {
            i += 1;
            while i < b.len() && !text.is_char_boundary(i) {
                i += 1;
            }
        }
        out.push(&text[start..i]);
    }
    out
}

/// One mutant of a seed: one to four stacked token edits, sometimes a splice from another seed.
fn mutate(seeds: &[String], target: Target, rng: &mut Rng) -> String {
    let seed = &seeds[rng.below(seeds.len())];
    let mut toks: Vec<String> = tokens(seed).into_iter().map(str::to_string).collect();
    let dict = target.dictionary();
    for _ in 0..1 + rng.below(4) {
        let n = toks.len();
        let at = rng.below(n + 1);
        match rng.below(7) {
            0 if n > 0 => {
                let len = 1 + rng.below(8);
                toks.drain(at.min(n - 1)..(at + len).min(n));
            }
            1 if n > 0 => {
                let from = rng.below(n);
                let piece: Vec<String> = toks[from..(from + 1 + rng.below(16)).min(n)].to_vec();
                toks.splice(at..at, piece);
            }
            2 if n > 0 => toks[at.min(n - 1)] = dict[rng.below(dict.len())].to_string(),
            3 if n > 1 => {
                let other = rng.below(n);
                toks.swap(at.min(n - 1), other);
            }
            4 => {
                let other = tokens(&seeds[rng.below(seeds.len())]).into_iter().map(str::to_string).collect::<Vec<_>>();
                if !other.is_empty() {
                    let from = rng.below(other.len());
                    let piece = other[from..(from + 1 + rng.below(32)).min(other.len())].to_vec();
                    let end = (at + rng.below(8)).min(n);
                    toks.splice(at..end, piece);
                }
            }
            5 if n > 0 => {
                // A byte-level change inside one token: malformed numbers, strings, comments.
                let i = at.min(n - 1);
                let mut bytes = toks[i].clone().into_bytes();
                if !bytes.is_empty() {
                    let j = rng.below(bytes.len());
                    const NOISE: &[u8] = b"()[]{};,'\"\\*/0123456789xeE.-+ \n#";
                    bytes[j] = NOISE[rng.below(NOISE.len())];
                }
                toks[i] = String::from_utf8_lossy(&bytes).into_owned();
            }
            _ => toks.insert(at, format!(" {} ", dict[rng.below(dict.len())])),
        }
    }
    toks.concat()
}

/// The seed texts: C files are preprocessed once (with the small headers beside this example's
/// script, so that each run parses a few kilobytes), rule files are read as they are.
fn load_seeds(target: Target, paths: &[PathBuf]) -> Vec<String> {
    let files = duet_rs::inputs::expand(paths, &[target.ext(), if target == Target::C { "i" } else { "dl" }]);
    let include = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benchmarks/fuzz/include");
    let opts = duet_rs::frontend::FrontendOptions { includes: vec![include], ..Default::default() };
    let mut seeds = Vec::new();
    for f in files {
        let text = match target {
            Target::C if f.extension().is_some_and(|e| e == "c") => duet_rs::frontend::preprocess::preprocess(&f, &f.display().to_string(), &opts).ok(),
            _ => std::fs::read_to_string(&f).ok(),
        };
        // Whole SV-COMP translation units would make each run a thousand times slower.
        if let Some(t) = text.filter(|t| t.len() <= 64 << 10) {
            seeds.push(t);
        }
    }
    seeds
}

/// Runs one input through the reader; the result itself does not matter, only that it returns.
fn run_one(target: Target, text: &str) {
    match target {
        Target::C => {
            let opts = duet_rs::frontend::FrontendOptions::default();
            let _ = duet_rs::frontend::lower_text(text, "fuzz.c", "fuzz.c", &opts);
        }
        Target::Datalog => {
            let _ = datalog::Program::parse(text, "fuzz.dl", &mut datalog::NoIncludes);
        }
    }
}

struct Args {
    target: Target,
    seconds: Option<u64>,
    execs: Option<u64>,
    seed: u64,
    out: PathBuf,
    hang: u64,
    paths: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let target = match it.next().as_deref() {
        Some("c") => Target::C,
        Some("dl") => Target::Datalog,
        _ => return Err("usage: fuzz c|dl [--seconds N] [--execs N] [--seed S] [--out DIR] [--hang-seconds N] SEEDS...".into()),
    };
    let mut a = Args { target, seconds: None, execs: None, seed: 1, out: PathBuf::from("target/fuzz"), hang: 10, paths: Vec::new() };
    while let Some(x) = it.next() {
        let mut num = |name: &str| -> Result<u64, String> { it.next().and_then(|v| v.parse().ok()).ok_or_else(|| format!("{name} needs a number")) };
        match x.as_str() {
            "--seconds" => a.seconds = Some(num("--seconds")?),
            "--execs" => a.execs = Some(num("--execs")?),
            "--seed" => a.seed = num("--seed")?.max(1),
            "--hang-seconds" => a.hang = num("--hang-seconds")?,
            "--out" => a.out = it.next().map(PathBuf::from).ok_or("--out needs a directory")?,
            _ => a.paths.push(PathBuf::from(x)),
        }
    }
    if a.paths.is_empty() {
        return Err("no seed files or directories given".into());
    }
    Ok(a)
}

fn save(dir: &Path, name: &str, text: &str) {
    let _ = std::fs::write(dir.join(name), text);
}

fn main() {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let seeds = load_seeds(a.target, &a.paths);
    if seeds.is_empty() {
        eprintln!("no usable seed among {:?}", a.paths);
        std::process::exit(2);
    }
    std::fs::create_dir_all(&a.out).expect("create the output directory");
    let ext = a.target.ext();

    // Where the last panic happened, recorded by the hook instead of printed.
    let last_panic: Arc<Mutex<String>> = Arc::default();
    let hook_slot = last_panic.clone();
    let last_panic_text = last_panic.clone();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info.payload().downcast_ref::<String>().cloned().or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()));
        let at = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
        *hook_slot.lock().unwrap() = format!("{at}: {}", msg.unwrap_or_default());
    }));

    // A watchdog: a run that does not return within the limit is a hang.
    let started_at = Arc::new(AtomicU64::new(u64::MAX));
    let current: Arc<Mutex<String>> = Arc::default();
    let epoch = Instant::now();
    {
        let (started, input, out, hang) = (started_at.clone(), current.clone(), a.out.clone(), a.hang);
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(200));
            let s = started.load(Ordering::Relaxed);
            if s != u64::MAX && epoch.elapsed().as_millis() as u64 > s + hang * 1000 {
                save(&out, &format!("hang.{ext}"), &input.lock().unwrap());
                eprintln!("HANG: an input ran over {hang} s; saved as {}", out.join(format!("hang.{ext}")).display());
                std::process::exit(1);
            }
        });
    }
    {
        let (target, seeds, out, seconds, execs, seed) = (a.target, seeds, a.out.clone(), a.seconds, a.execs, a.seed);
        let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || {
            let mut rng = Rng(seed);
            let mut crashes: Vec<String> = Vec::new();
            let begin = Instant::now();
            let mut n: u64 = 0;
            let current_file = out.join(format!("current.{ext}"));
            loop {
                if execs.is_some_and(|e| n >= e) || seconds.is_some_and(|s| begin.elapsed().as_secs() >= s) {
                    break;
                }
                if execs.is_none() && seconds.is_none() && n >= 100_000 {
                    break;
                }
                let input = mutate(&seeds, target, &mut rng);
                let _ = std::fs::File::create(&current_file).and_then(|mut f| f.write_all(input.as_bytes()));
                *current.lock().unwrap() = input.clone();
                started_at.store(epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
                let r = catch_unwind(AssertUnwindSafe(|| run_one(target, &input)));
                started_at.store(u64::MAX, Ordering::Relaxed);
                n += 1;
                if r.is_err() {
                    let what = last_panic.lock().unwrap().clone();
                    let place = what.split(": ").next().unwrap_or("").to_string();
                    if !crashes.iter().any(|c| c.split(": ").next() == Some(place.as_str())) {
                        let name = format!("crash-{}.{ext}", crashes.len() + 1);
                        save(&out, &name, &input);
                        eprintln!("CRASH {name}: {what}");
                        crashes.push(what);
                    }
                }
                if n.is_multiple_of(100_000) {
                    eprintln!("{n} runs, {:.0}/s, {} distinct crash(es)", n as f64 / begin.elapsed().as_secs_f64(), crashes.len());
                }
            }
            let secs = begin.elapsed().as_secs_f64();
            println!("{} runs in {secs:.1} s ({:.0}/s), {} distinct crash(es)", n, n as f64 / secs, crashes.len());
            crashes.len()
        });
        let crashes = match worker.expect("start the fuzzing thread").join() {
            Ok(n) => n,
            Err(_) => {
                eprintln!("the fuzzer itself failed: {}", last_panic_text.lock().unwrap());
                1
            }
        };
        let _ = std::fs::remove_file(a.out.join(format!("current.{ext}")));
        std::process::exit(if crashes > 0 { 1 } else { 0 });
    }
}
