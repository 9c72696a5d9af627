//! `duet-rs check`: verdicts for every assertion of every file.

use super::{expand_inputs, InputArgs};
use crate::batch::{self, progress, BatchConfig, Distribution, Limits, TaskSpec};
use crate::coarsen::DomainKind;
use crate::diag::exit;
use crate::engine::{Bound, CheckOptions, EngineId};
use crate::report::{self, witness::WitnessFormat, Format};
use crate::verdict::combined_exit_code;
use crate::verdict::TaskRun;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The abstract domain of the invariant analysis.
#[derive(Copy, Clone, Debug, ValueEnum)]
pub(super) enum DomainArg {
    /// Intervals per variable (non-relational).
    Interval,
    /// Octagons over variable packs, intervals for the rest.
    Octagon,
}

/// A comma-separated list of engines (`--engines`).
#[derive(Clone, Debug)]
pub(super) struct EngineList(pub Vec<EngineId>);

fn engine_list(s: &str) -> Result<EngineList, String> {
    EngineId::parse_list(s).map(EngineList)
}

/// Arguments of `duet-rs check`.
#[derive(Args, Debug)]
pub(super) struct CheckArgs {
    /// C files or directories.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub races: RaceArgs,
    /// Report format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Write the report to FILE; `-` is stdout. A regular file is replaced atomically (a
    /// stopped run leaves no partial report); a FIFO or device is written through, and a
    /// symlink is followed.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write a table with one row per file to FILE as CSV: file, verdict counts,
    /// outcome, seconds, peak memory in MB.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Explain why COARSEN did not prove the assertion at FILE:LINE (an `explain` section):
    /// the derivation, by the interference rules, of each interference edge that reaches its
    /// failing branch, down to input facts with their source lines.
    #[arg(long, value_name = "FILE:LINE", value_parser = explain_target)]
    pub explain: Option<(PathBuf, u32)>,
}

fn explain_target(s: &str) -> Result<(PathBuf, u32), String> {
    let (file, line) = s.rsplit_once(':').ok_or_else(|| format!("expected FILE:LINE, found `{s}`"))?;
    match line.parse::<u32>() {
        Ok(n) if n > 0 && !file.is_empty() => Ok((PathBuf::from(file), n)),
        _ => Err(format!("expected FILE:LINE with a line number from 1, found `{s}`")),
    }
}

/// Gives `--explain` to the task of its file, after checking that the file is an input and that
/// the line has an assertion (a usage or input error otherwise, before any analysis).
fn explain_spec(a: &CheckArgs, specs: &mut [TaskSpec]) -> Result<(), (i32, String)> {
    let Some((file, line)) = &a.explain else { return Ok(()) };
    if a.analysis.engines.as_ref().is_some_and(|l| !l.0.contains(&EngineId::Coarsen)) {
        return Err((exit::USAGE, "--explain needs the coarsen engine, which --engines leaves out".into()));
    }
    let same = |p: &std::path::Path| p == file || matches!((p.canonicalize(), file.canonicalize()), (Ok(x), Ok(y)) if x == y);
    // Else the one input whose path ends with FILE (`--explain f.c:9 DIR/`).
    let ends: Vec<usize> = (0..specs.len()).filter(|&i| specs[i].file.ends_with(file)).collect();
    let Some(i) = specs.iter().position(|s| same(&s.file)).or(if ends.len() == 1 { Some(ends[0]) } else { None }) else {
        let why = if ends.len() > 1 { "which names more than one input file" } else { "which is not among the input files" };
        return Err((exit::INPUT_ERROR, format!("--explain names {}, {why}", file.display())));
    };
    let spec = &mut specs[i];
    // A file the front-end rejects is reported by its task, as without --explain.
    if let Ok(prog) = crate::frontend::pragma::file_options(&spec.file, &spec.front).and_then(|front| crate::frontend::load_program(&spec.file, &front)) {
        if crate::coarsen::explain::on_line(&prog, *line).is_empty() {
            let lines: Vec<String> = crate::coarsen::explain::assertion_lines(&prog).iter().map(u32::to_string).collect();
            let has = if lines.is_empty() { "it has no assertion".to_string() } else { format!("its assertions are on line{} {}", if lines.len() > 1 { "s" } else { "" }, lines.join(", ")) };
            return Err((exit::INPUT_ERROR, format!("--explain {}:{line}: no assertion on that line of {}; {has}", file.display(), spec.file.display())));
        }
    }
    spec.check.explain = Some((spec.file.display().to_string(), *line));
    Ok(())
}

/// The data-race flags of `check`.
#[derive(Args, Debug, Clone)]
pub(super) struct RaceArgs {
    /// Also report data races: per shared memory location `race-free` (for any number of
    /// threads), `race` (with a replayed interleaving in which the two accesses are adjacent)
    /// or `unknown`.
    #[arg(long)]
    pub races: bool,
    /// Report data races instead of the assertion verdicts.
    #[arg(long)]
    pub races_only: bool,
    /// Use this Datalog file for the race rules instead of the built-in `rules/races.dl`.
    #[arg(long, value_name = "FILE")]
    pub race_rules: Option<PathBuf>,
    /// Seconds the search for racing interleavings may spend per file.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = positive_seconds)]
    pub race_replay_time: f64,
}

impl RaceArgs {
    /// The race options of every task, when races are asked for.
    pub(super) fn options(&self) -> Option<crate::races::RaceOptions> {
        (self.races || self.races_only || self.race_rules.is_some()).then(|| crate::races::RaceOptions {
            only: self.races_only,
            rules: self.race_rules.clone(),
            replay_time: self.race_replay_time,
            ..crate::races::RaceOptions::default()
        })
    }
}

/// The analysis flags, shared by `check` and `svcomp`.
#[derive(Args, Debug, Clone)]
pub(super) struct AnalysisArgs {
    /// Numerical domain of the invariants.
    #[arg(long, value_enum, default_value = "interval")]
    pub domain: DomainArg,
    /// Use this Datalog file for the interference rules instead of the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// The engines to run, comma-separated: coarsen (proofs for any number of threads),
    /// finite (the finite-state engine, for the threads the program creates), explore (the
    /// explicit-state search and sampled runs, for violations only), bounded (the bounded
    /// search with Z3). Default: all, COARSEN first.
    #[arg(long, value_name = "LIST", value_parser = engine_list)]
    pub engines: Option<EngineList>,
    /// One fixed bound instead of iterative deepening: K loop iterations and K instances per
    /// unbounded thread template.
    #[arg(long, value_name = "K")]
    pub bound: Option<u32>,
    /// Seconds the bounded search (iterative deepening, or the round of a fixed --bound) may spend on a file (always within --timeout).
    #[arg(long, value_name = "SECS", default_value_t = crate::engine::DEFAULT_SEARCH_TIME, value_parser = positive_seconds)]
    pub search_time: f64,
    /// Most iterations of a loop with a constant trip count that the search unrolls exactly.
    #[arg(long, value_name = "N", default_value_t = crate::bounded::DEFAULT_MAX_UNROLL)]
    pub max_unroll: u32,
    /// Most instances of a thread template created by counted loops that the search creates
    /// exactly.
    #[arg(long, value_name = "N", default_value_t = crate::bounded::DEFAULT_MAX_THREADS)]
    pub max_threads: u32,
    /// Loop iterations of one fixed-bound round (overrides --bound for loops; without
    /// --bound, --threads defaults to 1).
    #[arg(long, value_name = "N")]
    pub unroll: Option<u32>,
    /// Instances per unbounded thread template in one fixed-bound round (overrides --bound;
    /// without --bound, --unroll defaults to 1).
    #[arg(long, value_name = "N")]
    pub threads: Option<u32>,
    /// Instantiate every copy constraint of the bounded encoding (no MHP/kill pruning).
    #[arg(long)]
    pub no_prune: bool,
    /// Leave COARSEN's facts out of the other engines: its data-flow edges and value ranges
    /// out of the bounded encoding, its invariants out of the finite-state projection.
    #[arg(long)]
    pub no_coarsen_hints: bool,
    /// Give COARSEN's rules and abstract interpreter every thread template apart, even identical ones (for comparison).
    #[arg(long)]
    pub no_symmetry: bool,
    /// Exception sets for the finite-state engine, in the format of `src/finite/exceptions.rs`
    /// (instead of the automatic ones for flags and locks).
    #[arg(long, value_name = "FILE")]
    pub exceptions: Option<PathBuf>,
    /// Seconds the finite-state engine may spend per file, and the transaction summaries as
    /// much again on what it leaves open (default: a tenth of --search-time, at most 5).
    #[arg(long, value_name = "SECS", value_parser = positive_seconds)]
    pub finite_time: Option<f64>,
    /// Write an SV-COMP witness to FILE: the first violation's, or, when COARSEN proves every
    /// assertion, a correctness witness with its invariants (one input file only).
    #[arg(long, value_name = "FILE", conflicts_with = "witness_dir")]
    pub witness: Option<PathBuf>,
    /// Write one witness per input file into DIR (created if missing), named after the input.
    #[arg(long, value_name = "DIR")]
    pub witness_dir: Option<PathBuf>,
    /// Witness format: SV-COMP YAML 2.0, or GraphML 1.0.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "yaml")]
    pub witness_format: WitnessFormat,
    /// Write the bounded encoding as SMT-LIB2 to FILE (the last round's, when deepening; one
    /// input file only).
    #[arg(long, value_name = "FILE")]
    pub dump_smt: Option<PathBuf>,
    /// Write COARSEN's Datalog input facts as Soufflé `.facts` files into DIR (created if
    /// missing): DIR/<input stem>/round-N/, with the flows COARSEN used in round-N/derived/.
    #[arg(long, value_name = "DIR")]
    pub dump_facts: Option<PathBuf>,
    /// Print the invariant at every location, on the source lines; `--invariants=FILE` (or
    /// `--invariants FILE`, when FILE is no directory and does not end in .c, .i, .bp or .yml)
    /// writes them to FILE instead (one input file only).
    #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true)]
    pub invariants: Option<Option<PathBuf>>,
    /// Print the final data-flow graph as Graphviz, interference edges labelled by round;
    /// `--dot=FILE` (or `--dot FILE`, when FILE is no directory and does not end in .c, .i, .bp
    /// or .yml) writes it to FILE instead (one input file only).
    #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true)]
    pub dot: Option<Option<PathBuf>>,
    /// Print per-round statistics of the analysis.
    #[arg(long)]
    pub stats: bool,
    /// Write a self-contained HTML report to DIR/index.html (DIR created if missing): the
    /// files' verdicts, the source with each assertion marked, violations as swimlanes,
    /// COARSEN's invariants and data-flow graph, and why each assertion it leaves open is open
    /// (which it turns on, without printing them; the explanations cost COARSEN about twice
    /// its own time).
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
    /// With --rules: report the `may_flow` edges the given rules derive from the last round's
    /// facts that the built-in rules do not, and those they lose, with source lines.
    #[arg(long, requires = "rules")]
    pub rules_diff: bool,
}

impl AnalysisArgs {
    /// Flags that contradict each other, as a usage error.
    pub(super) fn validate(&self) -> Result<(), String> {
        let bounded = self.engines.as_ref().is_none_or(|l| l.0.contains(&EngineId::Bounded));
        if !bounded {
            let search =
                [(self.bound.is_some(), "--bound"), (self.unroll.is_some(), "--unroll"), (self.threads.is_some(), "--threads"), (self.no_prune, "--no-prune"), (self.dump_smt.is_some(), "--dump-smt")];
            if let Some((_, flag)) = search.iter().find(|(set, _)| *set) {
                return Err(format!("{flag} needs the bounded engine, which --engines leaves out"));
            }
        }
        let hinted = self.engines.as_ref().is_none_or(|l| l.0.contains(&EngineId::Bounded) || l.0.contains(&EngineId::Finite));
        if self.no_coarsen_hints && !hinted {
            return Err("--no-coarsen-hints needs the bounded or the finite-state engine, which --engines leaves out".into());
        }
        if (self.dump_facts.is_some() || self.rules_diff) && self.engines.as_ref().is_some_and(|l| !l.0.contains(&EngineId::Coarsen)) {
            return Err(format!("{} needs the coarsen engine, which --engines leaves out", if self.rules_diff { "--rules-diff" } else { "--dump-facts" }));
        }
        if self.exceptions.is_some() && self.engines.as_ref().is_some_and(|l| !l.0.contains(&EngineId::Finite)) {
            return Err("--exceptions needs the finite engine, which --engines leaves out".into());
        }
        if self.engines.as_ref().is_some_and(|l| l.0.is_empty()) {
            return Err("--engines names no engine".into());
        }
        Ok(())
    }

    /// Reads the input files the flags name, before any analysis: a malformed exceptions file
    /// is an input error (exit 2) with its file, line and column; names in it are checked
    /// against each program later.
    pub(super) fn read_inputs(&self) -> Result<(), String> {
        if let Some(path) = &self.exceptions {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read the --exceptions file {}: {e}", path.display()))?;
            crate::finite::exceptions::ExceptionSpec::parse(&path.display().to_string(), &text).map_err(|d| d.to_string())?;
        }
        Ok(())
    }

    /// Checks, before any analysis, that the files asked for can be written: one input for a
    /// single witness or SMT file (several would overwrite each other), and every path
    /// writable. A usage error otherwise.
    pub(super) fn check_outputs(&self, inputs: usize) -> Result<(), String> {
        let sections = self.section_files();
        let singles = [(self.witness.as_ref(), "--witness"), (self.dump_smt.as_ref(), "--dump-smt")]
            .into_iter()
            .chain(sections.iter().map(|(title, path)| (Some(path), if *title == "dfg" { "--dot" } else { "--invariants" })));
        for (path, flag) in singles {
            let Some(path) = path else { continue };
            if inputs > 1 {
                let hint = if flag == "--witness" { "; use --witness-dir DIR for one witness per input" } else { "" };
                return Err(format!("{flag} {} takes one input file, but {inputs} were given{hint}", path.display()));
            }
            report::atomic::probe(path).map_err(|e| format!("cannot write {flag} {}: {e}", path.display()))?;
        }
        if let Some(dir) = &self.witness_dir {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create --witness-dir {}: {e}", dir.display()))?;
            report::atomic::probe(&dir.join("witness")).map_err(|e| format!("cannot write into --witness-dir {}: {e}", dir.display()))?;
        }
        if let Some(dir) = &self.dump_facts {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create --dump-facts {}: {e}", dir.display()))?;
            report::atomic::probe(&dir.join("facts")).map_err(|e| format!("cannot write into --dump-facts {}: {e}", dir.display()))?;
        }
        Ok(())
    }

    /// Writes the witnesses and SMT files the tasks returned, each atomically; says on stderr
    /// when a witness was asked for and a task has none.
    pub(super) fn write_artifacts(&self, runs: &[TaskRun]) -> Result<(), String> {
        let dir_names = self.witness_dir.as_ref().map(|dir| witness_names(dir, runs, self.witness_format));
        for (i, run) in runs.iter().enumerate() {
            let target = match (&self.witness, &dir_names) {
                (Some(path), _) => Some(path.clone()),
                (None, Some(names)) => Some(names[i].clone()),
                (None, None) => None,
            };
            if let Some(path) = target {
                match &run.result.artifacts.witness {
                    Some(w) => {
                        let text = report::witness::render(w, self.witness_format);
                        report::atomic::write(&path, &text).map_err(|e| format!("cannot write the witness to {}: {e}", path.display()))?;
                    }
                    None if matches!(run.result.outcome, crate::verdict::Outcome::Checked(_)) => {
                        crate::stderr!("note: no witness for {}: no violation was found and COARSEN did not prove every assertion", run.result.file)
                    }
                    None => crate::stderr!("note: no witness for {}: its analysis did not finish", run.result.file),
                }
            }
            if let Some(path) = &self.dump_smt {
                match &run.result.artifacts.smt {
                    Some(smt) => report::atomic::write(path, smt).map_err(|e| format!("cannot write the SMT-LIB2 encoding to {}: {e}", path.display()))?,
                    None => crate::stderr!("note: nothing written to {} (--dump-smt): the bounded search made no encoding of {}: {}", path.display(), run.result.file, no_search_why(&run.result)),
                }
            }
        }
        if let Some(dir) = &self.dump_facts {
            let files: Vec<&str> = runs.iter().map(|r| r.result.file.as_str()).collect();
            for (run, sub) in runs.iter().zip(report::facts::dir_names(dir, &files)) {
                match &run.result.artifacts.facts {
                    Some(dump) => report::facts::write(&sub, dump)?,
                    None => crate::stderr!("note: no facts for {}: COARSEN did not run to its end on it", run.result.file),
                }
            }
        }
        Ok(())
    }

    /// Adds to each run a `rules-diff` section comparing the `may_flow` edges of `--rules` with
    /// the built-in rules' on its last round's facts (`--rules-diff`).
    pub(super) fn add_rules_diff(&self, runs: &mut [TaskRun]) -> Result<(), String> {
        let (true, Some(path)) = (self.rules_diff, &self.rules) else { return Ok(()) };
        let user = crate::coarsen::rules::load(Some(path))?;
        for run in runs.iter_mut() {
            let body = match &run.result.artifacts.facts {
                Some(dump) => crate::coarsen::facts::rules_diff(&user, dump)?,
                None => "COARSEN did not run to its end: no facts to compare\n".into(),
            };
            run.result.sections.push(crate::verdict::Section { title: "rules-diff".into(), body, data: None });
        }
        Ok(())
    }

    /// The report sections (by title) that go to a file instead of the report.
    pub(super) fn section_files(&self) -> Vec<(&'static str, PathBuf)> {
        let mut out = Vec::new();
        if let Some(Some(path)) = &self.invariants {
            out.push(("invariants", path.clone()));
        }
        if let Some(Some(path)) = &self.dot {
            out.push(("dfg", path.clone()));
        }
        out
    }

    /// Creates the `--html` directory before any analysis; an input error when it cannot be.
    pub(super) fn prepare_html(&self) -> Result<(), String> {
        self.html.as_deref().map_or(Ok(()), report::html::prepare)
    }

    /// Writes the `--html` page of the runs, then takes out of them the sections only the page
    /// asked for (the invariants, the DFG and the explanations, unless `--invariants`, `--dot` or
    /// `--explain` asked too).
    pub(super) fn write_html(&self, runs: &mut [TaskRun], exit_code: i32, seconds: f64, svcomp: Option<&report::html::Svcomp>) -> Result<(), String> {
        let Some(dir) = &self.html else { return Ok(()) };
        report::html::write(dir, &report::html::render(runs, exit_code, seconds, svcomp))?;
        for run in runs.iter_mut() {
            // `--explain`'s own section names its line; the page's explains every open assertion.
            let page_only = |s: &crate::verdict::Section| match s.title.as_str() {
                "invariants" => self.invariants.is_none(),
                "dfg" => self.dot.is_none(),
                "explain" => s.data.as_ref().is_some_and(|d| d["line"].is_null()),
                _ => false,
            };
            run.result.sections.retain(|s| !page_only(s));
        }
        Ok(())
    }

    /// Moves the sections asked for in a file out of the runs and writes each atomically.
    pub(super) fn write_sections(&self, runs: &mut [TaskRun]) -> Result<(), String> {
        for (title, path) in self.section_files() {
            let mut body = None;
            for run in runs.iter_mut() {
                if let Some(i) = run.result.sections.iter().position(|s| s.title == title) {
                    body = Some(run.result.sections.remove(i).body);
                }
            }
            match body {
                Some(text) => report::atomic::write(&path, &text).map_err(|e| format!("cannot write the {title} to {}: {e}", path.display()))?,
                None => crate::stderr!("note: nothing written to {}: the task produced no {title} (COARSEN did not run to its end)", path.display()),
            }
        }
        Ok(())
    }

    /// The one fixed bound asked for: `--bound K`, with `--unroll`/`--threads` overriding its
    /// parts; either of those alone also asks for a fixed-bound round (the other part 1).
    pub(super) fn fixed_bound(&self) -> Option<Bound> {
        let k = self.bound.or((self.unroll.is_some() || self.threads.is_some()).then_some(1))?;
        Some(Bound { unroll: self.unroll.unwrap_or(k), threads: self.threads.unwrap_or(k) })
    }

    /// The analysis options these flags select, for tasks limited to `task_timeout` seconds.
    pub(super) fn check_options(&self, task_timeout: f64) -> CheckOptions {
        CheckOptions {
            engines: self.engines.as_ref().map(|l| l.0.clone()).unwrap_or_else(|| EngineId::ALL.to_vec()),
            search_time: self.search_time,
            task_timeout: Some(task_timeout),
            max_unroll: self.max_unroll,
            max_threads: self.max_threads,
            domain: match self.domain {
                DomainArg::Interval => DomainKind::Interval,
                DomainArg::Octagon => DomainKind::Octagon,
            },
            rules: self.rules.clone(),
            bound: self.fixed_bound(),
            no_prune: self.no_prune,
            no_hints: self.no_coarsen_hints,
            no_symmetry: self.no_symmetry,
            exceptions: self.exceptions.clone(),
            finite_time: self.finite_time,
            witness: self.witness.is_some() || self.witness_dir.is_some(),
            dump_smt: self.dump_smt.is_some(),
            dump_facts: self.dump_facts.is_some() || self.rules_diff,
            invariants: self.invariants.is_some() || self.html.is_some(),
            dot: self.dot.is_some() || self.html.is_some(),
            stats: self.stats,
            // Set per batch, from the workers its tasks leave idle.
            datalog_workers: 1,
            explain: None,
            // The page shows why each open assertion is open, and where its value gets in.
            explain_open: self.html.is_some(),
        }
    }
}

impl CheckArgs {
    /// The analysis options these flags select.
    pub(super) fn check_options(&self) -> CheckOptions {
        self.analysis.check_options(self.batch.timeout)
    }
}

/// How a batch runs: limits, parallelism and distribution. `-n`, `-p` and `-h` are
/// timely's process flags, which is why `-h` is not short for `--help` here.
#[derive(Args, Debug, Clone)]
pub(super) struct BatchArgs {
    /// Tasks run at once in this process, each a timely worker.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub workers: u32,
    /// Time limit per task in seconds (CPU and wall clock); the task becomes `timeout`.
    #[arg(long, value_name = "SECS", default_value_t = 900.0, value_parser = positive_seconds)]
    pub timeout: f64,
    /// Memory limit per task in MB (resident); the task becomes `out-of-memory`.
    /// Default: 80 % of the physical memory, shared among the workers.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(16..))]
    pub memory: Option<u64>,
    /// Number of processes taking part in the batch (timely's `-n`).
    #[arg(short = 'n', long = "processes", value_name = "PROCESSES", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub processes: u32,
    /// Index of this process, from 0; process 0 prints the report (timely's `-p`).
    #[arg(short = 'p', long = "process", value_name = "INDEX", default_value_t = 0)]
    pub process: u32,
    /// File with one `host:port` line per process (timely's `-h`, here `-H`, since `-h` is
    /// help). Default: localhost:2101 for process 0, localhost:2102 for process 1, and so on.
    #[arg(short = 'H', long = "hostfile", value_name = "HOSTFILE")]
    pub hostfile: Option<PathBuf>,
    /// No progress display on stderr.
    #[arg(long)]
    pub no_progress: bool,
}

/// Why a task has no SMT-LIB2 encoding, for the `--dump-smt` note.
fn no_search_why(r: &crate::verdict::TaskResult) -> &'static str {
    use crate::verdict::{Outcome, Status};
    match &r.outcome {
        Outcome::Checked(vs) if vs.is_empty() => "the file has no assertions",
        Outcome::Checked(vs) if vs.iter().all(|v| v.status == Status::Safe) => "the engines before it proved every assertion, so it did not run (`--engines bounded` runs it alone)",
        Outcome::Checked(_) => "it did not run to an encoding (the verdicts' reasons say what stopped it)",
        Outcome::Error(_) => "the file could not be analysed",
        Outcome::Timeout(_) | Outcome::OutOfMemory(_) | Outcome::Interrupted(_) => "the task was stopped before the search wrote one",
    }
}

/// One witness file per task in `dir`: `<input file name>.witness.<ext>`, with `.2`, `.3`, ...
/// before `.witness` when inputs in different directories share a name.
fn witness_names(dir: &std::path::Path, runs: &[TaskRun], format: WitnessFormat) -> Vec<PathBuf> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    runs.iter()
        .map(|r| {
            let base = std::path::Path::new(&r.result.file).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "task".into());
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            let stem = if *n == 1 { base } else { format!("{base}.{n}") };
            dir.join(format!("{stem}.witness.{}", format.extension()))
        })
        .collect()
}

/// A positive, finite number of seconds (a usage error otherwise).
pub(super) fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

impl BatchArgs {
    /// Runs `specs` as one batch, giving idle workers to the tasks' Datalog engines; `stream`
    /// prints results as they come. `Ok(None)` on a process other than 0, which reports
    /// nothing; `Err` is the exit code, after the error has been printed.
    pub(super) fn run(&self, mut specs: Vec<TaskSpec>, stream: Option<fn(&TaskRun) -> String>) -> Result<Option<Vec<TaskRun>>, i32> {
        let datalog_workers = self.datalog_workers(specs.len());
        for s in &mut specs {
            s.check.datalog_workers = datalog_workers;
        }
        let cfg = self.config(stream).map_err(|e| {
            crate::stderr!("error: {e}");
            exit::USAGE
        })?;
        batch::run(specs, &cfg).map_err(|e| {
            crate::stderr!("error: {e}");
            e.exit_code()
        })
    }

    /// Datalog workers each of `tasks` tasks may use: workers the batch leaves idle (fewer
    /// tasks than `--workers` on one machine) go to the tasks' Datalog engines.
    pub(super) fn datalog_workers(&self, tasks: usize) -> usize {
        if self.processes == 1 && tasks > 0 {
            (self.workers as usize / tasks).max(1)
        } else {
            1
        }
    }

    /// The batch configuration these flags select; `stream` prints results as they come.
    pub(super) fn config(&self, stream: Option<fn(&TaskRun) -> String>) -> Result<BatchConfig, String> {
        if self.process >= self.processes {
            return Err(format!("--process {} must be below --processes {}", self.process, self.processes));
        }
        let exe = std::env::current_exe().map_err(|e| format!("cannot find the duet-rs binary to run tasks: {e}"))?;
        let memory_mb = self.memory.or_else(|| batch::sys::total_memory_bytes().map(|b| (b / batch::sys::MIB) * 8 / 10 / u64::from(self.workers)));
        Ok(BatchConfig {
            limits: Limits { timeout: Duration::from_secs_f64(self.timeout), memory_mb },
            dist: Distribution { workers: self.workers as usize, processes: self.processes as usize, process: self.process as usize, hostfile: self.hostfile.clone() },
            progress: progress::Mode::detect(!self.no_progress && self.process == 0, Duration::from_secs(10)),
            exe,
            stream,
        })
    }
}

/// Writes results to stdout; a closed pipe (`| head`) is the reader's choice, not a crash,
/// and any other failure makes the run end with [`exit::OUTPUT_ERROR`] (see
/// [`stdout_failed`]).
pub(super) fn emit(text: &str) {
    crate::diag::stdout::write(text);
}

/// `code`, unless writing to stdout failed: then the error is reported and the run exits
/// with [`exit::OUTPUT_ERROR`], since whatever the verdicts, nobody received them.
pub(super) fn stdout_failed(code: i32) -> i32 {
    match crate::diag::stdout::failure() {
        Some(e) => {
            crate::stderr!("error: cannot write the report to stdout: {e}");
            exit::OUTPUT_ERROR
        }
        None => code,
    }
}

fn stream_text(run: &TaskRun) -> String {
    report::text::task(&run.result)
}

/// Runs `duet-rs check`.
pub(super) fn run(a: &CheckArgs) -> i32 {
    let start = Instant::now();
    let mut front = a.input.frontend_options();
    front.for_races = a.races.options().is_some();
    if let Err(e) = a.analysis.validate() {
        crate::stderr!("error: {e}");
        return exit::USAGE;
    }
    if let Err(e) = a.analysis.read_inputs() {
        crate::stderr!("error: {e}");
        return exit::INPUT_ERROR;
    }
    let opts = a.check_options();
    // A broken rules file would make every verdict unknown: report it once, up front.
    if let Err(e) = crate::coarsen::rules::load(opts.rules.as_deref()) {
        crate::stderr!("error: {e}");
        return exit::INPUT_ERROR;
    }
    if let Err(e) = crate::races::rules::load(a.races.race_rules.as_deref()) {
        crate::stderr!("error: {e}");
        return exit::INPUT_ERROR;
    }
    let files = expand_inputs(&a.files);
    if files.is_empty() {
        crate::stderr!("error: no .c, .i or .bp files found in the given paths");
        return exit::USAGE;
    }
    if let Some(Err(e)) = a.csv.as_deref().map(report::atomic::probe) {
        crate::stderr!("error: cannot write --csv {}: {e}", a.csv.as_ref().map(|p| p.display().to_string()).unwrap_or_default());
        return exit::USAGE;
    }
    if let Some(task) = files.iter().find(|f| f.extension().and_then(|e| e.to_str()).is_some_and(|e| e == "yml" || e == "yaml")) {
        crate::stderr!("error: {} is an SV-COMP task file, not C; run it with `duet-rs svcomp {}`", task.display(), task.display());
        return exit::INPUT_ERROR;
    }
    if let Err(e) = a.analysis.check_outputs(files.len()) {
        crate::stderr!("error: {e}");
        return exit::USAGE;
    }
    if let Err(e) = a.analysis.prepare_html() {
        crate::stderr!("error: {e}");
        return exit::INPUT_ERROR;
    }
    // Each file's `// duet-rs:` pragma is read by its own task (`frontend::pragma`).
    let mut specs: Vec<TaskSpec> = files.into_iter().map(|file| TaskSpec { file, front: front.clone(), check: opts.clone(), predict: None, races: a.races.options() }).collect();
    if let Err((code, e)) = explain_spec(a, &mut specs) {
        crate::stderr!("error: {e}");
        return code;
    }
    run_and_report(&a.batch, specs, a.format, (a.output.as_deref(), a.csv.as_deref()), start, Some(&a.analysis))
}

/// Runs a batch and prints or writes its report; the exit code of the whole run. Text on
/// stdout streams in task order as results come in; every other report is whole only at the
/// end. Witnesses and SMT files `analysis` asks for, and the per-file CSV table (the second
/// of `outputs`, the first being the report's file), are written once every task is done.
/// `--output -` is stdout. After an interrupt the report covers what finished, the other
/// tasks marked `interrupted`, and the exit code is 130.
pub(super) fn run_and_report(
    batch: &BatchArgs,
    specs: Vec<TaskSpec>,
    format: Format,
    outputs: (Option<&std::path::Path>, Option<&std::path::Path>),
    start: Instant,
    analysis: Option<&AnalysisArgs>,
) -> i32 {
    let (output, csv) = outputs;
    let output = output.filter(|p| *p != std::path::Path::new("-"));
    // A report that cannot be written is better known before the analysis than after it.
    if let Some(path) = output {
        if let Err(e) = report::atomic::probe(path) {
            crate::stderr!("error: cannot write the report to {}: {e}", path.display());
            return exit::USAGE;
        }
    }
    // Sections bound for a file must not reach stdout, so their run reports at the end.
    let to_files = analysis.is_some_and(|a| !a.section_files().is_empty() || a.rules_diff || a.html.is_some());
    let streaming = format == Format::Text && output.is_none() && !to_files;
    let mut runs = match batch.run(specs, streaming.then_some(stream_text as fn(&TaskRun) -> String)) {
        Ok(Some(runs)) => runs,
        Ok(None) => return exit::SAFE,
        Err(code) => return code,
    };
    let results: Vec<_> = runs.iter().map(|r| r.result.clone()).collect();
    let code = if batch::interrupted() { exit::INTERRUPTED } else { combined_exit_code(&results) };
    if let Some(Err(e)) = analysis.map(|a| a.write_html(&mut runs, code, start.elapsed().as_secs_f64(), None)) {
        crate::stderr!("error: {e}");
        return exit::OUTPUT_ERROR;
    }
    if let Some(Err(e)) = analysis.map(|a| a.write_artifacts(&runs).and_then(|()| a.write_sections(&mut runs)).and_then(|()| a.add_rules_diff(&mut runs))) {
        crate::stderr!("error: {e}");
        return exit::OUTPUT_ERROR;
    }
    if let Some(Err(e)) = csv.map(|path| report::atomic::write(path, &report::csv::render(&runs)).map_err(|e| format!("cannot write the table to {}: {e}", path.display()))) {
        crate::stderr!("error: {e}");
        return exit::OUTPUT_ERROR;
    }
    let seconds = start.elapsed().as_secs_f64();
    if streaming {
        emit(&format!("\n{}", report::text_summary(&runs, code, seconds)));
        return finish(code);
    }
    let text = report::render(format, &runs, code, seconds);
    match output {
        Some(path) => {
            if let Err(e) = report::atomic::write(path, &text) {
                crate::stderr!("error: cannot write the report to {}: {e}", path.display());
                return if code == exit::INTERRUPTED { code } else { exit::OUTPUT_ERROR };
            }
        }
        None => emit(&text),
    }
    finish(code)
}

/// The exit code of a run whose verdicts give `code`: an interrupt gives 130 whatever else
/// happened, and a report that could not be written to stdout gives [`exit::OUTPUT_ERROR`].
fn finish(code: i32) -> i32 {
    let written = stdout_failed(code);
    if code == exit::INTERRUPTED {
        code
    } else {
        written
    }
}

#[cfg(test)]
mod tests {
    use super::BatchArgs;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        batch: BatchArgs,
    }

    fn batch(args: &[&str]) -> BatchArgs {
        Cli::parse_from(std::iter::once("duet-rs").chain(args.iter().copied())).batch
    }

    #[test]
    fn idle_workers_go_to_datalog_only_on_one_machine() {
        assert_eq!(batch(&["--workers", "4"]).datalog_workers(1), 4);
        assert_eq!(batch(&["--workers", "4"]).datalog_workers(3), 1);
        assert_eq!(batch(&["--workers", "8"]).datalog_workers(3), 2);
        assert_eq!(batch(&["--workers", "2"]).datalog_workers(40), 1);
        assert_eq!(batch(&[]).datalog_workers(1), 1);
        assert_eq!(batch(&["--workers", "4", "-n", "2"]).datalog_workers(1), 1);
    }
}
