//! Prints how a rule file is compiled: strata, join plans and shared arrangements.
//!
//!     cargo run -p duet-datalog --example explain -- rules/interference.dl

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: explain RULES.dl");
        std::process::exit(2);
    };
    match datalog::Program::from_file(&path) {
        Ok(p) => print!("{}", p.explain()),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
