//! What one task is: a file and the options that load and check it, in a form a child
//! process can receive as JSON.

use crate::engine::CheckOptions;
use crate::frontend::FrontendOptions;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The front-end options of a task; a serialisable mirror of [`FrontendOptions`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrontSpec {
    /// The preprocessor.
    pub cc: String,
    /// `-D` definitions.
    pub defines: Vec<String>,
    /// `-I` directories.
    pub includes: Vec<PathBuf>,
    /// ILP32 instead of LP64.
    pub m32: bool,
    /// `main` starts the program.
    pub whole_program: bool,
    /// Every thread template has unboundedly many instances.
    pub parameterized: bool,
}

impl From<&FrontendOptions> for FrontSpec {
    fn from(o: &FrontendOptions) -> FrontSpec {
        FrontSpec {
            cc: o.cc.clone(),
            defines: o.defines.clone(),
            includes: o.includes.clone(),
            m32: o.m32,
            whole_program: o.whole_program,
            parameterized: o.parameterized,
        }
    }
}

impl FrontSpec {
    /// The front-end options this spec stands for.
    pub fn options(&self) -> FrontendOptions {
        FrontendOptions {
            cc: self.cc.clone(),
            defines: self.defines.clone(),
            includes: self.includes.clone(),
            m32: self.m32,
            whole_program: self.whole_program,
            parameterized: self.parameterized,
        }
    }
}

/// One unit of a batch: one file in one mode.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TaskSpec {
    /// The C file to check.
    pub file: PathBuf,
    /// How to read it.
    pub front: FrontSpec,
    /// What to run on it.
    pub check: CheckOptions,
}

impl TaskSpec {
    /// The file as reports name it.
    pub fn label(&self) -> String {
        self.file.display().to_string()
    }
}

/// What the parent sends a task process on its standard input.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChildRequest {
    /// The task.
    pub spec: TaskSpec,
    /// The memory limit in bytes, enforced inside the child by the allocator budget.
    pub memory_bytes: Option<u64>,
}
