//! `--dump-facts DIR`: COARSEN's Datalog facts as Soufflé fact directories, one per input file
//! and round, so that the interference rules can be run on them in Soufflé or in
//! `duet-rs datalog` and the results compared with what `check` used:
//!
//! ```text
//! DIR/<input stem>/round-N/<relation>.facts        every input relation of the schema
//! DIR/<input stem>/round-N/derived/may_flow.csv    what the rules held after round N, as
//! DIR/<input stem>/round-N/derived/may_stand.csv   COARSEN took it in (outputs, not inputs)
//! DIR/<input stem>/symbols.tsv                     what each loc, cell, lock and cond id is
//! ```
//!
//! Every file is tab-separated and sorted as the Datalog engine sorts its outputs, so a round's
//! `derived/may_flow.csv` and the `may_flow.csv` that `duet-rs datalog -F round-N -D OUT`
//! writes compare with `diff`.

use crate::dump::FactsDump;
use datalog::schema::{Role, INTERFERENCE as SCHEMA};
use std::path::{Path, PathBuf};

/// The subdirectory of a round that holds derived relations, apart from the inputs so that no
/// Datalog run reads them as facts.
pub(crate) const DERIVED: &str = "derived";

/// One directory per input file under `dir`: the file's name without its extension, with
/// `.2`, `.3`, ... when inputs in different directories (or with different extensions) share it.
pub(crate) fn dir_names(dir: &Path, files: &[&str]) -> Vec<PathBuf> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    files
        .iter()
        .map(|f| {
            let base = Path::new(f).file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "task".into());
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            dir.join(if *n == 1 { base } else { format!("{base}.{n}") })
        })
        .collect()
}

/// The file beside the rounds that says what each id stands for.
pub(crate) const SYMBOLS: &str = "symbols.tsv";

/// `symbols.tsv`: a header, then `kind  id  name  source` per id, tab-separated (tabs and line
/// breaks in names become spaces).
pub(crate) fn symbols_text(dump: &FactsDump) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let mut out = String::from("kind\tid\tname\tsource\n");
    for s in &dump.symbols {
        out.push_str(&format!("{}\t{}\t{}\t{}\n", s.kind, s.id, clean(&s.name), clean(&s.source)));
    }
    out
}

/// The directory of round `n` (from 1) under an input's directory.
pub(crate) fn round_dir(input_dir: &Path, n: usize) -> PathBuf {
    input_dir.join(format!("round-{n}"))
}

/// Writes every round of `dump` under `input_dir`, each file atomically, and removes the
/// `round-N` directories a longer earlier dump left behind.
pub(crate) fn write(input_dir: &Path, dump: &FactsDump) -> Result<(), String> {
    let err = |p: &Path, e: &dyn std::fmt::Display| format!("cannot write the facts to {}: {e}", p.display());
    for (i, round) in dump.rounds.iter().enumerate() {
        let rdir = round_dir(input_dir, i + 1);
        let derived = rdir.join(DERIVED);
        std::fs::create_dir_all(&derived).map_err(|e| err(&derived, &e))?;
        let inputs = dump.fixed.iter().chain(&round.inputs);
        for rel in SCHEMA.with_role(Role::Input) {
            // A relation COARSEN did not export is written empty: Soufflé wants every file.
            let rows = inputs.clone().find(|(n, _)| n == rel.name).map(|(_, r)| r.as_slice()).unwrap_or(&[]);
            let path = rdir.join(format!("{}.facts", rel.name));
            let text = rel.facts_text(rows).map_err(|e| err(&path, &e))?;
            super::atomic::write(&path, &text).map_err(|e| err(&path, &e))?;
        }
        for (name, rows) in &round.derived {
            let path = derived.join(format!("{name}.csv"));
            let rel = SCHEMA.get(name).ok_or_else(|| err(&path, &format!("`{name}` is not in the {} schema", SCHEMA.name)))?;
            let text = rel.facts_text(rows).map_err(|e| err(&path, &e))?;
            super::atomic::write(&path, &text).map_err(|e| err(&path, &e))?;
        }
    }
    let path = input_dir.join(SYMBOLS);
    super::atomic::write(&path, &symbols_text(dump)).map_err(|e| err(&path, &e))?;
    let Ok(entries) = std::fs::read_dir(input_dir) else { return Ok(()) };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let stale = name.strip_prefix("round-").and_then(|n| n.parse::<usize>().ok()).is_some_and(|n| n > dump.rounds.len());
        if stale && e.path().is_dir() {
            std::fs::remove_dir_all(e.path()).map_err(|x| err(&e.path(), &x))?;
        }
    }
    Ok(())
}
