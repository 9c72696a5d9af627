//! Standard output, which carries the report: every write is flushed, and a failure other
//! than a closed pipe is remembered so that the run ends with an error instead of a verdict
//! nobody received (`check F.c > /dev/full`).

use std::io::Write;
use std::sync::Mutex;

/// The first failure to write to stdout, if any.
static FAILURE: Mutex<Option<String>> = Mutex::new(None);

/// Writes `text` to stdout and flushes it. A closed pipe (`| head`) is the reader's choice
/// and is ignored; any other error is kept for [`failure`].
pub fn write(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let mut first = FAILURE.lock().unwrap_or_else(|p| p.into_inner());
            first.get_or_insert_with(|| e.to_string());
        }
    }
}

/// The first error a [`write`] met, other than a closed pipe.
pub fn failure() -> Option<String> {
    FAILURE.lock().unwrap_or_else(|p| p.into_inner()).clone()
}
