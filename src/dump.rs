//! COARSEN's Datalog facts as an engine returns them (`check --dump-facts`), in no file
//! format: the input relations it fed the interference rules, round by round, and what the
//! rules derived from them. Relation names and columns are those of
//! `datalog::schema::INTERFERENCE`; the command line writes them as Soufflé fact files
//! (`report::facts`).

use serde::{Deserialize, Serialize};

/// Named relations, each with its rows.
pub type Relations = Vec<(String, Vec<Vec<u32>>)>;

/// Every round of one COARSEN run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactsDump {
    /// The input relations that are the same in every round.
    pub fixed: Relations,
    /// Per round, from round 1 (`RoundStats::round`).
    pub rounds: Vec<FactsRound>,
    /// What the ids of the facts' columns stand for, sorted by kind and id.
    #[serde(default)]
    pub symbols: Vec<Symbol>,
}

/// What one id of the facts stands for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Symbol {
    /// The column kind the id belongs to: `loc`, `cell`, `lock` or `cond`.
    pub kind: String,
    /// The id as it appears in the facts.
    pub id: u32,
    /// A location's thread template and action, a cell's variables, a lock's or a condition's
    /// source text.
    pub name: String,
    /// `file:line` in the source, where the id has one (locations and conditions).
    pub source: String,
}

/// What changes in a round.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactsRound {
    /// The input relations computed from the round's invariants (`cond_val`).
    pub inputs: Relations,
    /// The output relations COARSEN reads (`may_flow`, `may_stand`) as the rules held them
    /// after the round: the sum of the changes COARSEN took in, up to this round. A tuple the
    /// rules retract later (a `cond_val` fact gone) leaves it, while the data-flow graph,
    /// which only grows, keeps its edge.
    pub derived: Relations,
}
