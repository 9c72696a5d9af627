//! Runs the analyses on a lowered program and turns their results into verdicts.

use crate::ir::Program;
use crate::verdict::{AssertionVerdict, Status};

/// Verdicts for every assertion of the program.
pub fn check_program(prog: &Program) -> Vec<AssertionVerdict> {
    let unsupported = prog.unsupported.first().map(|u| format!("unsupported construct: {} at {}", u.construct, prog.span_str(u.span)));
    prog.assertions
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let id = prog.assertion_id(crate::ir::AssertId(i as u32));
            let (status, reason) = if a.locs.is_empty() {
                (Status::Safe, format!("never reached: `{}` is never called", a.function))
            } else if let Some(u) = &unsupported {
                (Status::Unknown, u.clone())
            } else {
                (Status::Unknown, "no analysis engine has run".to_string())
            };
            AssertionVerdict { id, text: a.text.clone(), status, reason, detail: None }
        })
        .collect()
}
