//! Connecting the processes of a distributed batch. timely's own set-up prints its
//! progress on stdout, which must carry only results, and cannot tell that two processes
//! were given different batches; so the sockets are made here, each pair of processes
//! swaps a greeting that names its batch and worker count, and the connected sockets are
//! then handed to timely.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

const MAGIC: &[u8; 8] = b"DUETRS01";

/// How long to wait for the other processes to come up.
pub(crate) const PATIENCE: Duration = Duration::from_secs(120);

/// What each process states about itself when connecting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Greeting {
    /// The process index.
    pub process: u64,
    /// Workers per process.
    pub workers: u64,
    /// A fingerprint of the task list and options.
    pub batch: String,
}

fn write_greeting(s: &mut TcpStream, g: &Greeting) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(32 + g.batch.len());
    buf.extend_from_slice(MAGIC);
    buf.extend_from_slice(&g.process.to_le_bytes());
    buf.extend_from_slice(&g.workers.to_le_bytes());
    buf.extend_from_slice(&(g.batch.len() as u64).to_le_bytes());
    buf.extend_from_slice(g.batch.as_bytes());
    s.write_all(&buf)?;
    s.flush()
}

fn read_u64(s: &mut TcpStream) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    s.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn read_greeting(s: &mut TcpStream) -> Result<Greeting, String> {
    let io = |e: std::io::Error| format!("the connection broke during the greeting: {e}");
    let mut magic = [0u8; 8];
    s.read_exact(&mut magic).map_err(io)?;
    if &magic != MAGIC {
        return Err("a peer that is not a duet-rs batch process (of this version) connected".into());
    }
    let process = read_u64(s).map_err(io)?;
    let workers = read_u64(s).map_err(io)?;
    let len = read_u64(s).map_err(io)?;
    if len > 1 << 16 {
        return Err("a peer sent an oversized greeting".into());
    }
    let mut batch = vec![0u8; len as usize];
    s.read_exact(&mut batch).map_err(io)?;
    Ok(Greeting { process, workers, batch: String::from_utf8_lossy(&batch).into_owned() })
}

fn agree(me: &Greeting, other: &Greeting) -> Result<(), String> {
    if other.workers != me.workers {
        return Err(format!("process {} runs {} worker(s) and process {} runs {}; give every process the same --workers", me.process, me.workers, other.process, other.workers));
    }
    if other.batch != me.batch {
        return Err(format!("processes {} and {} were given different batches; give every process the same inputs and options", me.process, other.process));
    }
    Ok(())
}

/// The stderr line of a process that waits for `missing`: whom, where, and until when.
fn waiting_note(me: &Greeting, addresses: &[String], missing: &[usize], how: &str) -> String {
    let whom: Vec<String> = missing.iter().map(|&q| format!("process {q} ({})", addresses[q])).collect();
    format!(
        "note: process {} of {} is waiting for {} {how}; it gives up {} s after it started (start the others with the same inputs and options, -n {} and their own -p)",
        me.process,
        addresses.len(),
        whom.join(", "),
        PATIENCE.as_secs(),
        addresses.len()
    )
}

/// Connects process `me.process` to every other one listed in `addresses`: it dials the
/// lower indices and accepts the higher ones. The result has one socket per process, `None`
/// at this process's own index, as timely expects.
pub(crate) fn sockets(addresses: &[String], me: &Greeting) -> Result<Vec<Option<TcpStream>>, String> {
    let my = me.process as usize;
    let deadline = Instant::now() + PATIENCE;
    let listener = TcpListener::bind(addresses[my].as_str()).map_err(|e| format!("cannot listen on {}: {e}", addresses[my]))?;
    listener.set_nonblocking(true).map_err(|e| format!("cannot configure the listener: {e}"))?;
    let mut result: Vec<Option<TcpStream>> = (0..addresses.len()).map(|_| None).collect();

    for (q, addr) in addresses.iter().enumerate().take(my) {
        let mut told = false;
        let mut s = loop {
            match TcpStream::connect(addr.as_str()) {
                Ok(s) => break s,
                Err(e) if Instant::now() >= deadline => return Err(format!("cannot reach process {q} at {addr}: {e}")),
                Err(_) => {
                    // A partner that is not up yet would otherwise leave this process silent for minutes.
                    if !told {
                        told = true;
                        crate::stderr!("{}", waiting_note(me, addresses, &[q], "to listen"));
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        };
        let _ = s.set_nodelay(true);
        write_greeting(&mut s, me).map_err(|e| format!("cannot greet process {q} at {addr}: {e}"))?;
        let other = read_greeting(&mut s)?;
        if other.process != q as u64 {
            return Err(format!("{addr} answered as process {}, expected {q}; check the hostfile", other.process));
        }
        agree(me, &other)?;
        result[q] = Some(s);
    }

    let mut waiting = addresses.len() - my - 1;
    let mut told = false;
    while waiting > 0 {
        match listener.accept() {
            Ok((mut s, _)) => {
                let _ = s.set_nonblocking(false);
                let _ = s.set_nodelay(true);
                let other = read_greeting(&mut s)?;
                let q = other.process as usize;
                if q <= my || q >= addresses.len() || result[q].is_some() {
                    return Err(format!("unexpected connection from a process claiming index {q}"));
                }
                write_greeting(&mut s, me).map_err(|e| format!("cannot greet process {q}: {e}"))?;
                agree(me, &other)?;
                result[q] = Some(s);
                waiting -= 1;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing: Vec<String> = (my + 1..addresses.len()).filter(|&q| result[q].is_none()).map(|q| q.to_string()).collect();
                    return Err(format!("process(es) {} did not connect within {} s", missing.join(", "), PATIENCE.as_secs()));
                }
                if !told {
                    told = true;
                    let missing: Vec<usize> = (my + 1..addresses.len()).filter(|&q| result[q].is_none()).collect();
                    crate::stderr!("{}", waiting_note(me, addresses, &missing, &format!("to connect to {}", addresses[my])));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(format!("accepting a connection failed: {e}")),
        }
    }
    Ok(result)
}
