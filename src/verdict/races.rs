//! Data-race verdicts (`check --races`): per shared memory location, and per pair of accesses
//! that may race, as the race engine returns them and every report reads them.

use serde::{Deserialize, Serialize};

/// The conclusion about a memory location or a pair of accesses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RaceStatus {
    /// No two accesses race, in any interleaving, for every number of threads the mode allows.
    RaceFree,
    /// A replayed execution makes two conflicting accesses adjacent.
    Race,
    /// Neither could be shown.
    Unknown,
}

impl RaceStatus {
    /// The word printed in reports.
    pub fn word(self) -> &'static str {
        match self {
            RaceStatus::RaceFree => "race-free",
            RaceStatus::Race => "race",
            RaceStatus::Unknown => "unknown",
        }
    }
}

/// One side of a racing pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceAccess {
    /// `file:line:col` of the access.
    pub at: String,
    /// `true` for a write, `false` for a read.
    pub write: bool,
    /// The locks the accessing thread holds there on every path.
    pub locks: Vec<String>,
    /// The thread template that makes the access.
    pub thread: String,
}

/// Two accesses to one memory location, from two threads, at least one a write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RacePair {
    /// `race` (replayed) or `unknown`; pairs proved race-free are not listed.
    pub status: RaceStatus,
    /// Why.
    pub reason: String,
    /// The two accesses.
    pub accesses: [RaceAccess; 2],
    /// For a `race`: the replayed steps, one per line (`T<thread> file:line:col action`), the
    /// last two the racing accesses, adjacent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interleaving: Vec<String>,
}

/// The verdict on one shared memory location (an abstract location of the alias model, which
/// may stand for many cells: an array, a heap allocation site).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceVerdict {
    /// The location's name (`x`, `a[*]`, `s.f`, `heap#0:int32`).
    pub memory: String,
    /// `race` when some pair is a replayed race, else `unknown` when some pair is, else `race-free`.
    pub status: RaceStatus,
    /// Why.
    pub reason: String,
    /// The pairs that are not race-free.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<RacePair>,
}

/// The worst status among verdicts: a race, else an unknown, else race-free.
pub fn worst(vs: &[RaceVerdict]) -> RaceStatus {
    if vs.iter().any(|v| v.status == RaceStatus::Race) {
        RaceStatus::Race
    } else if vs.iter().any(|v| v.status == RaceStatus::Unknown) {
        RaceStatus::Unknown
    } else {
        RaceStatus::RaceFree
    }
}
