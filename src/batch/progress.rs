//! Progress of a batch on stderr: a live bar on a terminal, plain periodic lines otherwise.
//! Nothing here writes to stdout, which carries only results.

use crate::verdict::Summary;
use crate::verdict::TaskResult;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How progress is shown.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Not at all.
    Off,
    /// A bar redrawn in place (stderr is a terminal).
    Bar,
    /// A line every so often (stderr is a file or a pipe).
    Lines(Duration),
}

impl Mode {
    /// The mode for this process's stderr.
    pub fn detect(enabled: bool, interval: Duration) -> Mode {
        if !enabled {
            Mode::Off
        } else if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Lines(interval)
        }
    }
}

/// The progress display of one batch.
pub(crate) struct Progress {
    mode: Mode,
    total: usize,
    done: usize,
    counts: Summary,
    running: BTreeMap<usize, String>,
    start: Instant,
    last_line: Instant,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A display for `total` tasks.
    pub(crate) fn new(mode: Mode, total: usize) -> Progress {
        let bar = (mode == Mode::Bar).then(|| {
            let b = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{bar:30.cyan/blue} {pos}/{len} [{elapsed_precise}] {wide_msg}") {
                b.set_style(style);
            }
            b.enable_steady_tick(Duration::from_millis(200));
            b
        });
        let now = Instant::now();
        Progress { mode, total, done: 0, counts: Summary::default(), running: BTreeMap::new(), start: now, last_line: now, bar }
    }

    /// Task `index` (named `label`) has started somewhere.
    pub(crate) fn started(&mut self, index: usize, label: &str) {
        self.running.insert(index, label.to_string());
        self.refresh(false);
    }

    /// Task `index` has finished with `result`.
    pub(crate) fn finished(&mut self, index: usize, result: &TaskResult) {
        self.running.remove(&index);
        self.done += 1;
        self.counts.add(result);
        if let Some(b) = &self.bar {
            b.set_position(self.done as u64);
        }
        self.refresh(false);
    }

    /// Runs `f` (which prints to stdout) without tearing the bar.
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(b) => b.suspend(f),
            None => f(),
        }
    }

    /// The batch is over: clears the bar, or prints a last line.
    pub(crate) fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        if matches!(self.mode, Mode::Lines(_)) {
            self.refresh(true);
        }
    }

    fn status(&self) -> String {
        let c = &self.counts;
        // Counted as the summary counts them: bounded-safe apart from unknown, shown when there are any.
        let bounded = if c.bounded_safe > 0 { format!(" bounded-safe {}", c.bounded_safe) } else { String::new() };
        let mut s = format!("safe {} violated {}{bounded} unknown {} timeout {} error {}", c.safe, c.violated, c.unknown, c.timeout, c.error);
        if c.out_of_memory > 0 {
            s.push_str(&format!(" out-of-memory {}", c.out_of_memory));
        }
        if c.interrupted > 0 {
            s.push_str(&format!(" interrupted {}", c.interrupted));
        }
        if let Some((_, first)) = self.running.iter().next() {
            s.push_str(&format!(" | running {first}"));
            if self.running.len() > 1 {
                s.push_str(&format!(" (+{} more)", self.running.len() - 1));
            }
        }
        s
    }

    fn refresh(&mut self, force: bool) {
        match self.mode {
            Mode::Off => {}
            Mode::Bar => {
                if let Some(b) = &self.bar {
                    b.set_message(self.status());
                }
            }
            Mode::Lines(every) => {
                if force || self.last_line.elapsed() >= every {
                    self.last_line = Instant::now();
                    crate::stderr!("[{}/{} {:.0} s] {}", self.done, self.total, self.start.elapsed().as_secs_f64(), self.status());
                }
            }
        }
    }

    /// Call now and then while waiting, so periodic lines keep coming during a long task.
    pub(crate) fn tick(&mut self) {
        self.refresh(false);
    }
}
