//! Splits a program around its fixed inputs ([`crate::EngineConfig::fixed`]): the relations those
//! inputs alone determine are computed once, by a program of their own, before the first epoch;
//! the rest of the program then reads them as fixed relations, by lookup.
//!
//! Why: a join or antijoin with an arrangement must arrange its other side as well, since a
//! later change of the arrangement is matched against everything that side ever sent. Against a
//! relation that never changes, a lookup as the rows stream past gives the same answer and
//! keeps nothing. So the relations the fixed inputs alone determine (COARSEN's `free_step`,
//! `relevant`, `writer_step`, `reader_step`, ...) are evaluated once, and the main dataflow is
//! built without their rules, with them and the fixed inputs as tables every worker holds whole
//! (`dataflow::Table`: the rows sorted in one vector, found through an array indexed by the first
//! key column when its values are dense, as location and variable ids are, else through a hash
//! index). Consecutive lookups of a rule run as one operator, row by row (`dataflow::lookups`),
//! and the rules that derive one head from the same rows share it (`Ctx::render_fused`). What is
//! left as state is the `distinct` of each derived relation and the arrangements of joins with
//! the inputs that change (for COARSEN, `cond_val`: at 5 085 locations 2.8 million rows held
//! instead of 21.0 million), and the incremental evaluation of those is unchanged.
//! `Program::explain` shows the plan without fixed inputs (every arrangement it lists of a fixed
//! or static relation is then a table); with profiling on, `Engine::held_rows` reports the rows
//! each arrangement, `distinct` and table keeps.

use crate::check::Checked;
use crate::plan::{plan, Plan};
use crate::program::{IoParams, Lit, Program};

/// The two programs of a split.
pub(crate) struct Split {
    /// Derives the static relations from the fixed inputs; its outputs are exactly those relations.
    pub pre: Program,
    /// The original program without the static relations' rules: they arrive as fixed rows.
    pub main: Plan,
    /// The static relations, by index (the same in both programs).
    pub statics: Vec<usize>,
}

/// The relations with rules whose every rule reads only fixed inputs, static relations and their
/// own stratum: nothing that changes between epochs reaches them.
pub(crate) fn statics(program: &Program, fixed: &[bool]) -> Vec<bool> {
    let n = program.relations.len();
    let mut has_facts = vec![false; n];
    for (r, _) in &program.facts {
        has_facts[*r] = true;
    }
    let mut stat = vec![false; n];
    for s in &program.strata {
        let mine = |r: usize| s.rels.contains(&r);
        let ok = s.rels.iter().all(|&r| program.relations[r].has_rules && !program.relations[r].is_input() && !has_facts[r])
            && program.rules.iter().filter(|rule| mine(rule.head.rel)).all(|rule| {
                rule.body.iter().all(|l| match l {
                    Lit::Pos(a) | Lit::Neg(a) => fixed[a.rel] || stat[a.rel] || mine(a.rel),
                    Lit::Cmp(..) => true,
                })
            });
        if ok {
            for &r in &s.rels {
                stat[r] = true;
            }
        }
    }
    stat
}

/// Splits `program`, or `None` when no relation is static (the program runs as planned).
pub(crate) fn split(program: &Program, fixed: &[bool]) -> Result<Option<Split>, String> {
    let stat = statics(program, fixed);
    let statics: Vec<usize> = (0..stat.len()).filter(|&r| stat[r]).collect();
    if statics.is_empty() {
        return Ok(None);
    }
    let checked = |keep: &dyn Fn(usize) -> bool, relations| Checked {
        relations,
        by_name: program.by_name.clone(),
        rules: program.rules.iter().filter(|r| keep(r.head.rel)).cloned().collect(),
        facts: Vec::new(),
        symbols: program.symbols.clone(),
        strata: program.strata.clone(),
    };
    // The first program observes the static relations only; the main one keeps the declarations
    // (what the engine reports about its relations does not change).
    let mut pre_rels = program.relations.clone();
    for (r, info) in pre_rels.iter_mut().enumerate() {
        info.output = stat[r].then(IoParams::default);
        info.printsize = false;
        info.has_rules = stat[r];
    }
    let pre_checked = checked(&|r| stat[r], pre_rels);
    let pre_plan = plan(&pre_checked).map_err(|(_, m)| m)?;
    let main_checked = checked(&|r| !stat[r], program.relations.clone());
    let main = plan(&main_checked).map_err(|(_, m)| m)?;
    let pre = Program {
        files: program.files.clone(),
        relations: pre_checked.relations,
        by_name: pre_checked.by_name,
        facts: Vec::new(),
        symbols: pre_checked.symbols,
        strata: pre_checked.strata,
        plan: std::sync::Arc::new(pre_plan),
        rules: std::sync::Arc::new(pre_checked.rules),
    };
    Ok(Some(Split { pre, main, statics }))
}
