//! `duet-rs rules`: the built-in Datalog rules, printed or written out for editing.

use crate::diag::exit;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `duet-rs rules`.
#[derive(Args, Debug)]
pub(super) struct RulesArgs {
    /// Write the rule files into this directory (for editing and `check --rules`).
    #[arg(long, value_name = "DIR")]
    write: Option<PathBuf>,
    /// Overwrite existing files.
    #[arg(long, requires = "write")]
    force: bool,
}

/// Runs `duet-rs rules`.
pub(super) fn run(a: &RulesArgs) -> i32 {
    match &a.write {
        None => {
            for (name, text) in crate::coarsen::rules::FILES {
                if crate::coarsen::rules::FILES.len() > 1 {
                    println!("// ===== {name} =====");
                }
                print!("{text}");
            }
            exit::SAFE
        }
        Some(dir) => match crate::coarsen::rules::write_to(dir, a.force) {
            Ok(files) => {
                for f in files {
                    crate::stderr!("wrote {}", f.display());
                }
                crate::stderr!("edit them, then run: duet-rs check --rules {} FILE.c", dir.join(crate::coarsen::rules::FILES[0].0).display());
                exit::SAFE
            }
            Err(e) => {
                crate::stderr!("error: {e}");
                exit::USAGE
            }
        },
    }
}
