//! SV-COMP task definitions (`format_version` 1.x/2.x `.yml` files): the input file, the
//! `unreach-call` property with its expected verdict, the language and the data model.

pub use crate::ir::DataModel;
use std::path::{Path, PathBuf};
use yaml_rust2::{Yaml, YamlLoader};

/// A task that asks about `unreach-call`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The `.yml` file.
    pub yml: PathBuf,
    /// The C file, resolved against the `.yml`'s directory.
    pub input: PathBuf,
    /// The expected verdict (`true`: `reach_error` is unreachable), when the task gives one.
    pub expected: Option<bool>,
    /// The data model (`options.data_model`).
    pub data_model: DataModel,
}

/// Why a task file cannot be used, with the line when one is to blame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskError {
    /// The `.yml` file.
    pub yml: PathBuf,
    /// 1-based line, 0 for the whole file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for TaskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: {}", self.yml.display(), self.line, self.message)
        } else {
            write!(f, "{}: {}", self.yml.display(), self.message)
        }
    }
}

/// What reading a task file gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// A task about `unreach-call`.
    Task(Task),
    /// A valid task that does not ask about `unreach-call`; not ours to score.
    OtherProperty,
}

/// The property file name duet-rs answers.
pub const UNREACH_CALL: &str = "unreach-call.prp";

/// Reads a task file.
pub fn read(yml: &Path) -> Result<Read, TaskError> {
    let err = |line: usize, message: String| TaskError { yml: yml.to_path_buf(), line, message };
    let text = std::fs::read_to_string(yml).map_err(|e| err(0, format!("cannot read the task file: {e}")))?;
    let docs = YamlLoader::load_from_str(&text).map_err(|e| err(e.marker().line().max(1), format!("malformed YAML: {}", e.info())))?;
    let doc = docs.first().ok_or_else(|| err(0, "the task file is empty".into()))?;
    if doc.as_hash().is_none() {
        return Err(err(1, "expected a mapping with `input_files`, `properties` and `options`".into()));
    }
    let line_of = |key: &str| key_line(&text, key);

    let inputs = match &doc["input_files"] {
        Yaml::String(s) => vec![s.clone()],
        Yaml::Array(items) => {
            let mut v = Vec::new();
            for it in items {
                match it.as_str() {
                    Some(s) => v.push(s.to_string()),
                    None => return Err(err(line_of("input_files"), "`input_files` must list file names".into())),
                }
            }
            v
        }
        Yaml::BadValue => return Err(err(0, "missing `input_files`".into())),
        _ => return Err(err(line_of("input_files"), "`input_files` must be a file name or a list of them".into())),
    };
    let input = match inputs.as_slice() {
        [one] => one.clone(),
        [] => return Err(err(line_of("input_files"), "`input_files` is empty".into())),
        _ => return Err(err(line_of("input_files"), format!("{} input files; duet-rs checks one file per task", inputs.len()))),
    };
    let dir = yml.parent().unwrap_or(Path::new("."));
    let input = dir.join(input);

    let Some(props) = doc["properties"].as_vec() else {
        let line = line_of("properties");
        return Err(err(line, if line == 0 { "missing `properties`".into() } else { "`properties` must be a list".into() }));
    };
    let mut expected = None;
    let mut asks = false;
    for p in props {
        let Some(file) = p["property_file"].as_str() else {
            return Err(err(line_of("properties"), "every property needs a `property_file`".into()));
        };
        if Path::new(file).file_name().and_then(|n| n.to_str()) != Some(UNREACH_CALL) {
            continue;
        }
        asks = true;
        expected = match &p["expected_verdict"] {
            Yaml::Boolean(b) => Some(*b),
            Yaml::BadValue | Yaml::Null => None,
            _ => return Err(err(line_of("expected_verdict"), "`expected_verdict` must be `true` or `false`".into())),
        };
    }
    if !asks {
        return Ok(Read::OtherProperty);
    }

    let options = &doc["options"];
    match options["language"].as_str() {
        Some("C") | None => {}
        Some(other) => return Err(err(line_of("language"), format!("language `{other}` is not supported; duet-rs reads C"))),
    }
    let data_model = match options["data_model"].as_str() {
        Some("ILP32") => DataModel::ILP32,
        Some("LP64") | None => DataModel::LP64,
        Some(other) => return Err(err(line_of("data_model"), format!("unknown data model `{other}`: expected ILP32 or LP64"))),
    };
    // A missing C file is the task file's error, named with it, not a verdict.
    if !input.is_file() {
        let what = if input.exists() { "is not a file" } else { "does not exist" };
        return Err(err(line_of("input_files"), format!("the input file {} {what}", input.display())));
    }
    Ok(Read::Task(Task { yml: yml.to_path_buf(), input, expected, data_model }))
}

/// The 1-based line where `key:` first appears, 0 when it does not.
fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            t.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map_or(0, |i| i + 1)
}

/// Expands directories into the `.yml` files they contain, sorted, recursively.
pub fn expand(paths: &[PathBuf]) -> Vec<PathBuf> {
    crate::inputs::expand(paths, &["yml", "yaml"])
}
