//! The shipped Datalog rules: built into the binary so that duet-rs works from anywhere, and
//! written out on request for researchers to edit and pass back with `--rules`.

use datalog::{Program, Source};
use std::path::Path;

/// The shipped rule files, by the name `.include` uses for them.
pub const FILES: &[(&str, &str)] = &[("interference.dl", include_str!("../../rules/interference.dl"))];

/// The built-in interference rules, or those of a file, checked against the relations
/// COARSEN feeds and reads.
pub fn load(file: Option<&Path>) -> Result<Program, String> {
    let rules = parse(file)?;
    super::facts::check_schema(&rules).map_err(|e| match file {
        Some(p) => format!("{}: {e}", p.display()),
        None => format!("the built-in rules: {e}"),
    })?;
    Ok(rules)
}

fn parse(file: Option<&Path>) -> Result<Program, String> {
    match file {
        Some(p) => Program::from_file(p).map_err(|d| format!("in the rules {}:\n{d}", p.display())),
        None => {
            let mut embedded = |_from: &str, path: &str| -> Result<Source, String> {
                FILES.iter().find(|(n, _)| *n == path).map(|(n, text)| Source { name: n.to_string(), text: text.to_string() }).ok_or_else(|| format!("`{path}` is not a built-in rule file"))
            };
            Program::parse(FILES[0].1, FILES[0].0, &mut embedded).map_err(|d| format!("the built-in rules do not load (a bug):\n{d}"))
        }
    }
}

/// Writes the shipped rules into a directory, refusing to overwrite files.
pub fn write_to(dir: &Path, force: bool) -> Result<Vec<std::path::PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for (name, text) in FILES {
        let p = dir.join(name);
        if p.exists() && !force {
            return Err(format!("{} exists; pass --force to overwrite it", p.display()));
        }
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        written.push(p);
    }
    Ok(written)
}
