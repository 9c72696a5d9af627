//! SV-COMP answers and scoring: a task result becomes TRUE, FALSE or UNKNOWN, and each answer
//! scores against the expected verdict by SV-COMP's table.

use crate::verdict::{Outcome, Status, TaskResult};

/// An SV-COMP answer for `unreach-call`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Answer {
    /// `reach_error` is unreachable: every failure point is safe.
    True,
    /// A confirmed violation.
    False,
    /// Anything else, including errors and limits.
    Unknown,
}

impl Answer {
    /// The word SV-COMP tables use.
    pub fn word(self) -> &'static str {
        match self {
            Answer::True => "TRUE",
            Answer::False => "FALSE",
            Answer::Unknown => "UNKNOWN",
        }
    }
}

/// The answer a task result gives: TRUE only when every assertion is `safe` (bounded-safe
/// is no proof), FALSE on a `violated` one (the engines only report confirmed violations).
pub(crate) fn answer(r: &TaskResult) -> Answer {
    match &r.outcome {
        Outcome::Checked(vs) if vs.iter().any(|v| v.status == Status::Violated) => Answer::False,
        Outcome::Checked(vs) if vs.iter().all(|v| v.status == Status::Safe) => Answer::True,
        _ => Answer::Unknown,
    }
}

/// How an answer compares with the expected verdict.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Judgement {
    /// The right TRUE or FALSE.
    Correct,
    /// The wrong TRUE or FALSE.
    Wrong,
    /// UNKNOWN, or no expected verdict to compare with.
    Unscored,
}

/// Judges `got` against `expected`.
pub(crate) fn judge(expected: Option<bool>, got: Answer) -> Judgement {
    match (expected, got) {
        (_, Answer::Unknown) | (None, _) => Judgement::Unscored,
        (Some(true), Answer::True) | (Some(false), Answer::False) => Judgement::Correct,
        _ => Judgement::Wrong,
    }
}

/// SV-COMP's points: +2 correct TRUE, +1 correct FALSE, −32 wrong TRUE, −16 wrong FALSE,
/// 0 for UNKNOWN.
pub(crate) fn points(expected: Option<bool>, got: Answer) -> i64 {
    match (judge(expected, got), got) {
        (Judgement::Correct, Answer::True) => 2,
        (Judgement::Correct, Answer::False) => 1,
        (Judgement::Wrong, Answer::True) => -32,
        (Judgement::Wrong, Answer::False) => -16,
        _ => 0,
    }
}

/// Counts of (expected, answer) pairs and the score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Confusion {
    /// `cells[e][a]`: e = expected true, false, none; a = TRUE, FALSE, UNKNOWN.
    pub cells: [[usize; 3]; 3],
    /// The SV-COMP score.
    pub score: i64,
}

impl Confusion {
    /// Counts one task.
    pub fn add(&mut self, expected: Option<bool>, got: Answer) {
        let e = match expected {
            Some(true) => 0,
            Some(false) => 1,
            None => 2,
        };
        let a = match got {
            Answer::True => 0,
            Answer::False => 1,
            Answer::Unknown => 2,
        };
        self.cells[e][a] += 1;
        self.score += points(expected, got);
    }

    /// Correct TRUE answers.
    pub fn correct_true(&self) -> usize {
        self.cells[0][0]
    }
    /// Correct FALSE answers.
    pub fn correct_false(&self) -> usize {
        self.cells[1][1]
    }
    /// TRUE where FALSE was expected.
    pub fn wrong_true(&self) -> usize {
        self.cells[1][0]
    }
    /// FALSE where TRUE was expected.
    pub fn wrong_false(&self) -> usize {
        self.cells[0][1]
    }
    /// The best score the scored tasks allow.
    pub fn max_score(&self) -> i64 {
        2 * self.cells[0].iter().sum::<usize>() as i64 + self.cells[1].iter().sum::<usize>() as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_follow_the_sv_comp_table() {
        assert_eq!(points(Some(true), Answer::True), 2);
        assert_eq!(points(Some(false), Answer::False), 1);
        assert_eq!(points(Some(false), Answer::True), -32);
        assert_eq!(points(Some(true), Answer::False), -16);
        assert_eq!(points(Some(true), Answer::Unknown), 0);
        assert_eq!(points(None, Answer::True), 0);
    }

    #[test]
    fn confusion_counts_and_scores() {
        let mut c = Confusion::default();
        c.add(Some(true), Answer::True);
        c.add(Some(false), Answer::True);
        c.add(Some(false), Answer::Unknown);
        assert_eq!((c.correct_true(), c.wrong_true(), c.score, c.max_score()), (1, 1, -30, 4));
    }
}
