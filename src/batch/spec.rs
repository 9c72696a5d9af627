//! What one task is: a file and the options that load and check it, in a form a child
//! process can receive as JSON.

use crate::engine::CheckOptions;
use crate::frontend::FrontendOptions;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One unit of a batch: one file in one mode.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TaskSpec {
    /// The C file to check.
    pub file: PathBuf,
    /// How to read it.
    pub front: FrontendOptions,
    /// What to run on it.
    pub check: CheckOptions,
    /// Run the predictive analysis instead of `check`'s engines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predict: Option<crate::predict::PredictOptions>,
    /// Also (or only) check for data races.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub races: Option<crate::races::RaceOptions>,
}

impl TaskSpec {
    /// The file as reports name it.
    pub fn label(&self) -> String {
        self.file.display().to_string()
    }
}

/// What the parent sends a task process on its standard input.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ChildRequest {
    /// The task.
    pub spec: TaskSpec,
    /// The memory limit in bytes, enforced inside the child by the allocator budget.
    pub memory_bytes: Option<u64>,
}
