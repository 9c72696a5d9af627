//! The operating-system calls the batch runner needs: resource limits, resident memory,
//! signals and reaping, kept in one place so the unsafe code is small and reviewed together.

use std::time::Duration;

/// Bytes per MiB; `--memory` counts in MiB.
pub(crate) const MIB: u64 = 1 << 20;

/// The resident set size of a process in bytes, read from `/proc/PID/statm`.
pub(crate) fn resident_bytes(pid: i32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size())
}

/// The resident set size of this process in bytes.
pub(crate) fn own_resident_bytes() -> Option<u64> {
    resident_bytes(std::process::id() as i32)
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if n > 0 {
        n as u64
    } else {
        4096
    }
}

/// The machine's physical memory in bytes, from `/proc/meminfo`.
pub(crate) fn total_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Limits applied to a task process before it runs the duet-rs binary.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ChildRlimits {
    /// CPU seconds before SIGXCPU (the hard limit, a little later, is SIGKILL).
    pub cpu_seconds: u64,
    /// Address-space bytes, a backstop for memory that the allocator budget cannot see.
    pub address_space: Option<u64>,
}

impl ChildRlimits {
    /// Applies the limits to the calling process; meant for `pre_exec`, so it only makes
    /// async-signal-safe calls.
    pub(crate) fn apply(&self) -> std::io::Result<()> {
        set(libc::RLIMIT_CPU, self.cpu_seconds, self.cpu_seconds.saturating_add(2))?;
        if let Some(b) = self.address_space {
            set(libc::RLIMIT_AS, b, b)?;
        }
        // A SIGXCPU or abort in a batch of hundreds must not leave core files behind.
        set(libc::RLIMIT_CORE, 0, 0)?;
        // The child has its own process group, so a Ctrl-C at the terminal does not reach
        // it; it dies with the thread that started it instead of running on orphaned.
        // SAFETY: prctl with PR_SET_PDEATHSIG takes a signal number and has no pointers.
        if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }
}

#[cfg(target_env = "gnu")]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(target_env = "gnu"))]
type Resource = libc::c_int;

fn set(resource: Resource, soft: u64, hard: u64) -> std::io::Result<()> {
    let lim = libc::rlimit { rlim_cur: soft as libc::rlim_t, rlim_max: hard as libc::rlim_t };
    // SAFETY: `lim` is a valid rlimit for the duration of the call.
    if unsafe { libc::setrlimit(resource, &lim) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Sends SIGKILL to every process of the group `pgid` (a task process and, say, the
/// preprocessor it started).
pub(crate) fn kill_group(pgid: i32) {
    // SAFETY: kill has no memory preconditions; a group that is gone gives ESRCH.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

/// How a reaped process ended, with its peak resident size.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Exit {
    /// The exit code when it exited.
    pub code: Option<i32>,
    /// The signal when a signal ended it.
    pub signal: Option<i32>,
    /// Peak resident set size in bytes (`ru_maxrss`).
    pub max_rss: u64,
}

/// Reaps `pid` if it has ended, without blocking.
pub(crate) fn try_reap(pid: i32) -> std::io::Result<Option<Exit>> {
    let mut status = 0;
    // SAFETY: rusage is plain old data, fully written by wait4 on success.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are valid for the duration of the call.
    let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
    if r == 0 {
        return Ok(None);
    }
    if r < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let code = if libc::WIFEXITED(status) { Some(libc::WEXITSTATUS(status)) } else { None };
    let signal = if libc::WIFSIGNALED(status) { Some(libc::WTERMSIG(status)) } else { None };
    Ok(Some(Exit { code, signal, max_rss: (usage.ru_maxrss.max(0) as u64) * 1024 }))
}

/// The conventional name of a signal number, for messages.
pub(crate) fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGINT => "SIGINT",
        libc::SIGPIPE => "SIGPIPE",
        _ => return format!("signal {sig}"),
    };
    format!("{name} (signal {sig})")
}

/// How long to sleep between looks at a running child: short at first so quick tasks
/// return quickly, then longer so a long task costs the parent almost nothing.
pub(crate) fn poll_interval(elapsed: Duration) -> Duration {
    if elapsed < Duration::from_millis(50) {
        Duration::from_millis(1)
    } else if elapsed < Duration::from_secs(1) {
        Duration::from_millis(5)
    } else {
        Duration::from_millis(10)
    }
}

/// Set by the first SIGINT once [`catch_interrupts`] has run.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// What the first interrupt says on stderr (written from the handler, so a fixed text).
const FIRST_INTERRUPT: &[u8] = b"\ninterrupted: stopping the running tasks and reporting the finished ones; interrupt again to quit at once\n";

extern "C" fn on_interrupt(_sig: libc::c_int) {
    // Only async-signal-safe calls here: an atomic swap, write and _exit.
    if INTERRUPTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
        // SAFETY: _exit is async-signal-safe; task processes die with us (PR_SET_PDEATHSIG).
        unsafe { libc::_exit(crate::diag::exit::INTERRUPTED) };
    }
    // SAFETY: write is async-signal-safe and the buffer is static. Its result is ignored: a
    // closed stderr must not matter.
    unsafe {
        libc::write(2, FIRST_INTERRUPT.as_ptr().cast(), FIRST_INTERRUPT.len());
    }
}

/// From now on, the first SIGINT only sets a flag ([`interrupted`]) that the batch runner
/// watches, so that it can stop and still report what finished; a second one ends the
/// process at once with exit code 130.
pub(crate) fn catch_interrupts() {
    // SAFETY: sigaction is given a fully initialised struct whose handler is an
    // `extern "C" fn(c_int)`, as `sa_handler` expects without SA_SIGINFO.
    unsafe {
        let mut act: libc::sigaction = std::mem::zeroed();
        act.sa_sigaction = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
        act.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut act.sa_mask);
        libc::sigaction(libc::SIGINT, &act, std::ptr::null_mut());
    }
}

/// Whether a SIGINT has come since [`catch_interrupts`].
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}
