//! Writing a report file so that readers see the old file or the whole new one, never a
//! half-written one: the text goes to a temporary file beside the target, which is synced
//! and then renamed over it.
//!
//! Only a regular file (or a path where nothing exists yet) is replaced that way. Anything
//! else is written through, as `cp` does: a FIFO or a device (`/dev/null`, `/dev/stdout`)
//! must stay what it is, and renaming over it would replace it with a plain file (as root,
//! `/dev/null` itself). A symlink is followed: the link stays and its target gets the text.

use std::io::Write;
use std::path::{Path, PathBuf};

/// How `write` treats a path.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// A regular file or nothing yet, at this path with the symlinks resolved: replaced
    /// atomically.
    Replace(PathBuf),
    /// Anything else (FIFO, device, a file reached through `/proc/self/fd`): opened and
    /// written in place.
    Through,
}

/// Most symlinks followed before leaving it to the kernel (which reports the loop).
const MAX_LINKS: usize = 40;

/// Where `path` leads. Symlinks are followed one at a time, so that a dangling link still
/// names the file to create, and so that a link into `/proc` (`/dev/stdout` is one to
/// `/proc/self/fd/1`) is written through: renaming over what an open descriptor names would
/// cut the file off from whoever holds it (a shell's `>>`).
fn target(path: &Path) -> std::io::Result<Target> {
    let mut cur = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let name = match cur.file_name() {
            Some(n) => n.to_owned(),
            None => return Ok(Target::Through),
        };
        let dir = match cur.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let dir = std::fs::canonicalize(&dir)?;
        if dir.starts_with("/proc") {
            return Ok(Target::Through);
        }
        let here = dir.join(&name);
        match std::fs::symlink_metadata(&here) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Target::Replace(here)),
            Err(e) => return Err(e),
            Ok(m) if m.file_type().is_symlink() => {
                let next = std::fs::read_link(&here)?;
                cur = if next.is_absolute() { next } else { dir.join(next) };
            }
            Ok(m) if m.file_type().is_file() => return Ok(Target::Replace(here)),
            Ok(_) => return Ok(Target::Through),
        }
    }
    Ok(Target::Through)
}

/// Writes `text` to `path`: atomically when `path` is (or leads by symlinks to) a regular
/// file or nothing yet, and in place for anything else (FIFO, character device).
pub(crate) fn write(path: &Path, text: &str) -> std::io::Result<()> {
    match target(path)? {
        Target::Replace(real) => replace(&real, text),
        Target::Through => {
            // No sync: a FIFO or a device has nothing to flush to disk (fsync on a pipe fails).
            let mut f = std::fs::OpenOptions::new().write(true).create(true).truncate(true).open(path)?;
            f.write_all(text.as_bytes())?;
            f.flush()
        }
    }
}

/// Writes `text` to a temporary file beside `path` and renames it over `path`; the new file
/// keeps the permissions of the one it replaces.
fn replace(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "report".into());
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let old = std::fs::metadata(path).ok().map(|m| m.permissions());
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        if let Some(p) = old {
            f.set_permissions(p)?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Whether [`write`] can be expected to succeed on `path`, checked before a long run: for a
/// file to replace, its directory exists and takes a new file (a probe file, removed at
/// once); anything else must not be a directory and must be writable.
pub(crate) fn probe(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err("it is a directory".into());
    }
    match target(path).map_err(|e| e.to_string())? {
        Target::Replace(real) => {
            let dir = match real.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            if !dir.is_dir() {
                return Err(format!("no directory {}", dir.display()));
            }
            let probe = dir.join(format!(".duet-rs-probe.{}", std::process::id()));
            std::fs::File::create(&probe).map_err(|e| e.to_string())?;
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Target::Through => {
            // Not opened: opening a FIFO blocks until a reader comes.
            use std::os::unix::ffi::OsStrExt;
            let c = std::ffi::CString::new(path.as_os_str().as_bytes()).map_err(|_| "the path contains a NUL byte".to_string())?;
            // SAFETY: `c` is a NUL-terminated path that outlives the call.
            if unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error().to_string())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{target, write, Target};

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("duet-rs-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::canonicalize(d).unwrap()
    }

    #[test]
    fn regular_and_missing_files_are_replaced_and_links_followed() {
        let d = scratch("links");
        let file = d.join("f.txt");
        assert_eq!(target(&file).unwrap(), Target::Replace(file.clone()));
        std::fs::write(&file, "old").unwrap();
        std::os::unix::fs::symlink("f.txt", d.join("link")).unwrap();
        std::os::unix::fs::symlink(d.join("link"), d.join("link2")).unwrap();
        assert_eq!(target(&d.join("link2")).unwrap(), Target::Replace(file.clone()));
        std::os::unix::fs::symlink("nothing.txt", d.join("dangling")).unwrap();
        assert_eq!(target(&d.join("dangling")).unwrap(), Target::Replace(d.join("nothing.txt")));
        write(&d.join("dangling"), "new").unwrap();
        assert_eq!(std::fs::read_to_string(d.join("nothing.txt")).unwrap(), "new");
        assert!(std::fs::symlink_metadata(d.join("dangling")).unwrap().file_type().is_symlink());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn devices_and_descriptor_links_are_written_through() {
        assert_eq!(target(std::path::Path::new("/dev/null")).unwrap(), Target::Through);
        if std::path::Path::new("/dev/stdout").exists() {
            assert_eq!(target(std::path::Path::new("/dev/stdout")).unwrap(), Target::Through);
        }
    }
}
