//! Reading the user's files: only regular files, and none above a stated size, checked before
//! a byte is read. A device (`/dev/zero`, `/dev/urandom`), a FIFO or a directory named as a
//! config, a sweep spec, an assembly or a GOAL file would otherwise be read until memory runs
//! out, or block.

use std::io::Read;
use std::path::Path;

/// The largest text file read whole: a config, a sweep spec, an assembly program (64 MiB).
pub const MAX_TEXT_BYTES: u64 = 64 << 20;

/// A file the user named that cannot be read: what it was for, the rule and what was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {what} must be {rule} (got {got})")]
pub struct InputFileError {
    /// The path as given.
    pub path: String,
    /// What the file was for, e.g. `config`.
    pub what: &'static str,
    /// The rule it broke.
    pub rule: String,
    /// What was found.
    pub got: String,
}

impl crate::fault::Classify for InputFileError {
    fn fault(&self) -> crate::fault::Fault {
        crate::fault::Fault::Input
    }
}

/// Checks that `path` is a regular file of at most `limit` bytes, before it is opened.
pub fn check_file(path: &Path, what: &'static str, limit: u64) -> Result<(), InputFileError> {
    let fail = |rule: String, got: String| InputFileError {
        path: path.display().to_string(),
        what,
        rule,
        got,
    };
    let meta =
        std::fs::metadata(path).map_err(|e| fail("a readable file".into(), e.to_string()))?;
    if !meta.is_file() {
        let kind = if meta.is_dir() { "a directory" } else { "a device, FIFO or socket" };
        return Err(fail("a regular file".into(), kind.into()));
    }
    if meta.len() > limit {
        return Err(fail(format!("at most {limit} bytes"), format!("{} bytes", meta.len())));
    }
    Ok(())
}

/// Reads `path` as UTF-8 text after [`check_file`] with `limit`; a file that grows past the
/// limit while it is read is refused too.
pub fn read_text(path: &Path, what: &'static str, limit: u64) -> Result<String, InputFileError> {
    check_file(path, what, limit)?;
    let fail = |rule: &str, got: String| InputFileError {
        path: path.display().to_string(),
        what,
        rule: rule.to_string(),
        got,
    };
    let file = std::fs::File::open(path).map_err(|e| fail("a readable file", e.to_string()))?;
    let mut text = String::new();
    file.take(limit.saturating_add(1))
        .read_to_string(&mut text)
        .map_err(|e| fail("readable UTF-8 text", e.to_string()))?;
    if text.len() as u64 > limit {
        return Err(fail(&format!("at most {limit} bytes"), "a file that grew while read".into()));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_large_files_are_refused() {
        let dev = read_text(Path::new("/dev/zero"), "config", MAX_TEXT_BYTES).unwrap_err();
        assert_eq!(dev.rule, "a regular file", "{dev}");
        let dir = read_text(Path::new("."), "config", MAX_TEXT_BYTES).unwrap_err();
        assert_eq!(dir.got, "a directory", "{dir}");
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        let small = read_text(&manifest, "config", 10).unwrap_err();
        assert!(small.to_string().contains("must be at most 10 bytes"), "{small}");
        assert!(read_text(&manifest, "config", MAX_TEXT_BYTES).unwrap().contains("[package]"));
        let missing = read_text(Path::new("no/such/file"), "config", 10).unwrap_err();
        assert_eq!(missing.rule, "a readable file", "{missing}");
    }
}
