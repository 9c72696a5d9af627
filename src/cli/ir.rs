//! `duet-rs ir`: print a program's intermediate representation.

use super::InputArgs;
use crate::diag::{exit, ErrorKind};
use crate::frontend::load_program;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `duet-rs ir`.
#[derive(Args, Debug)]
pub(super) struct IrArgs {
    /// The C file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Print each template's control-flow graph as Graphviz instead.
    #[arg(long)]
    dot: bool,
    #[command(flatten)]
    input: InputArgs,
}

/// Runs `duet-rs ir`.
pub(super) fn run(a: &IrArgs) -> i32 {
    match load_program(&a.file, &a.input.frontend_options()) {
        Ok(p) => {
            if a.dot {
                print!("{}", crate::ir::dot::cfg(&p));
            } else {
                print!("{}", crate::ir::display::program(&p));
            }
            exit::SAFE
        }
        Err(d) => {
            crate::stderr!("{d}");
            match d.kind {
                ErrorKind::Internal => exit::INTERNAL,
                _ => exit::INPUT_ERROR,
            }
        }
    }
}
