//! Command-line paths to input files: directories are searched recursively, in sorted order,
//! for files with the wanted extensions; files named directly are kept as given.

use std::path::{Path, PathBuf};

/// Expands `paths`, keeping files named directly and the files with one of `extensions`
/// (without the dot) found below each directory.
pub fn expand(paths: &[PathBuf], extensions: &[&str]) -> Vec<PathBuf> {
    fn walk(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut items: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        items.sort();
        for p in items {
            if p.is_dir() {
                walk(&p, extensions, out);
            } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| extensions.contains(&e)) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, extensions, &mut out);
        } else {
            out.push(p.clone());
        }
    }
    out
}
