//! A sweep's output directory as generations switched by one symbolic link, so that the whole
//! directory goes from one complete run to the next in one atomic step.
//!
//! The layout of an output directory `OUT` (`--out`, default `target/sweeps`):
//!
//! ```text
//! OUT/.xtask-current -> .xtask-gen-N            the one link a sweep switches
//! OUT/.xtask-gen-N/STUDY/{report.md, ...}       every study's files
//! OUT/.xtask-gen-N/report.md                    the index
//! OUT/STUDY          -> .xtask-current/STUDY    one link per study, made once
//! OUT/report.md      -> .xtask-current/report.md
//! OUT/.xtask-lock                               locked while a sweep writes
//! ```
//!
//! The paths users type (`OUT/STUDY/report.md`, `OUT/report.md`) go through two links to the
//! current generation; the links are relative, so `OUT` can be moved as a whole.
//!
//! [`publish`] writes the next generation `.xtask-gen-(N+1)` in full: the studies the sweep
//! ran, hard links to the files of every study it did not run (copies where the file system
//! has no hard links) and the index. It then makes the links of the studies new to `OUT`
//! (dangling until the switch, so they read as absent, as in the previous run) and renames a
//! new link over `.xtask-current` (rename(2) replaces it atomically). After a kill at any
//! instant `.xtask-current` names the previous complete generation or the new one, so every
//! study and the index read as one run. The previous generation is removed after the switch;
//! the next sweep removes every generation that is not current and every `.xtask-tmp-*` entry
//! a kill left. Entries of `OUT` that xtask did not write are never moved or removed (the
//! callers refuse to replace one first, `sweep::check_out`).
//!
//! The files are not synced to disk: the guarantee is against a killed process, not against a
//! power loss.
//!
//! An `OUT` written by an older xtask holds the study directories and the index themselves. A
//! sweep first migrates it without changing what it reads as: each such directory is hard
//! linked into the current generation and then exchanged with its link in one step
//! (`renameat2` with `RENAME_EXCHANGE` on Linux, see [`replace_dir`]), the index likewise.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// The prefix of every temporary entry xtask makes beside what it writes (and the only
/// entries it removes there besides its own generations).
pub(crate) const TEMP_PREFIX: &str = ".xtask-tmp-";

/// The prefix of a generation directory, followed by its number.
const GENERATION_PREFIX: &str = ".xtask-gen-";

/// The link to the current generation.
const CURRENT: &str = ".xtask-current";

/// The file locked while a sweep writes, so that two sweeps into one `OUT` take turns.
const LOCK: &str = ".xtask-lock";

/// The index's name, in `OUT` and in each generation.
pub(crate) const INDEX: &str = "report.md";

/// Whether `out/name` is the link xtask makes for an entry of the current generation.
pub(crate) fn is_entry_link(out: &Path, name: &str) -> bool {
    std::fs::read_link(out.join(name)).is_ok_and(|target| target == entry_target(name))
}

/// What the link `OUT/name` points to, relative to `OUT`.
fn entry_target(name: &str) -> PathBuf {
    Path::new(CURRENT).join(name)
}

/// Writes a new generation of `out` and makes it current in one step: the studies of the
/// current generation not among `rewritten` (those `out` shows) are linked into it, then
/// `fill` writes the rewritten studies (one directory each) and the index into it.
pub(crate) fn publish(
    out: &Path,
    rewritten: &[&str],
    fill: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let _lock = lock(out)?;
    remove_stale(out);
    migrate(out).with_context(|| format!("cannot migrate {} to generations", out.display()))?;
    let previous = current(out);
    let next = out.join(format!("{GENERATION_PREFIX}{}", next_number(out)?));
    std::fs::create_dir(&next).with_context(|| format!("cannot create {}", next.display()))?;
    let written = (|| -> anyhow::Result<()> {
        if let Some(previous) = &previous {
            carry(out, previous, &next, rewritten)?;
        }
        fill(&next)?;
        link_entries(out, &next)?;
        switch(out, &next).with_context(|| format!("cannot switch {} to a new run", out.display()))
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&next);
        return Err(e);
    }
    if let Some(previous) = previous {
        let _ = std::fs::remove_dir_all(previous);
    }
    Ok(())
}

/// Locks `out/.xtask-lock` (waiting for another sweep's writing to end); unlocked when the
/// file is dropped.
fn lock(out: &Path) -> anyhow::Result<File> {
    let path = out.join(LOCK);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.lock().with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(file)
}

/// The current generation's directory, if `out/.xtask-current` links to one.
fn current(out: &Path) -> Option<PathBuf> {
    let target = std::fs::read_link(out.join(CURRENT)).ok()?;
    let name = target.to_str()?;
    let generation = out.join(name);
    (generation_number(name).is_some() && generation.is_dir()).then_some(generation)
}

/// The number of a generation's directory name `.xtask-gen-N`.
fn generation_number(name: &str) -> Option<u64> {
    name.strip_prefix(GENERATION_PREFIX)?.parse().ok()
}

/// One more than the largest generation number in `out` (0 when there is none).
fn next_number(out: &Path) -> anyhow::Result<u64> {
    let largest = std::fs::read_dir(out)?
        .flatten()
        .filter_map(|e| generation_number(&e.file_name().to_string_lossy()))
        .max();
    match largest {
        None => Ok(0),
        Some(n) => n.checked_add(1).context("the generation number overflows u64"),
    }
}

/// Removes what an interrupted earlier sweep may have left in `out`: its temporaries
/// (`.xtask-tmp-*`), every generation that is not current, and `.xtask-current` when it does
/// not link to a generation (a copy that followed the links made it a directory). No other
/// entry is touched.
fn remove_stale(out: &Path) {
    remove_temporaries(out, TEMP_PREFIX);
    let current = current(out);
    if current.is_none() {
        let _ = remove_entry(&out.join(CURRENT));
    }
    let Ok(entries) = std::fs::read_dir(out) else { return };
    for entry in entries.flatten() {
        let stale = generation_number(&entry.file_name().to_string_lossy()).is_some()
            && current.as_deref() != Some(entry.path().as_path());
        if stale {
            let _ = remove_entry(&entry.path());
        }
    }
}

/// Removes every entry of `dir` whose name starts with `prefix` (xtask's temporaries).
pub(crate) fn remove_temporaries(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(prefix) {
            let _ = remove_entry(&entry.path());
        }
    }
}

/// Removes a file, a link (not what it points to) or a directory with its contents.
fn remove_entry(path: &Path) -> io::Result<()> {
    if std::fs::symlink_metadata(path)?.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
}

/// Links every study of `previous` that `out` shows and the sweep does not rewrite into
/// `next`.
fn carry(out: &Path, previous: &Path, next: &Path, rewritten: &[&str]) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(previous)?.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if entry.file_type()?.is_dir()
            && !rewritten.contains(&name.as_str())
            && is_entry_link(out, &name)
        {
            link_tree(&entry.path(), &next.join(&name))
                .with_context(|| format!("cannot keep {}", out.join(&name).display()))?;
        }
    }
    Ok(())
}

/// Makes the directory `to` with the files of `from` (subdirectories recursively): hard links,
/// or copies where the file system refuses them.
fn link_tree(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::create_dir(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type()?.is_dir() {
            link_tree(&source, &target)?;
        } else if std::fs::hard_link(&source, &target).is_err() {
            std::fs::copy(&source, &target)?;
        }
    }
    Ok(())
}

/// Makes the link `out/NAME -> .xtask-current/NAME` of every entry of `next` that lacks one.
fn link_entries(out: &Path, next: &Path) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(next)? {
        let name = entry?.file_name().to_string_lossy().to_string();
        let path = out.join(&name);
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                symlink(&entry_target(&name), &path)
                    .with_context(|| format!("cannot link {}", path.display()))?;
            }
            Ok(_) if is_entry_link(out, &name) => {}
            Ok(_) => anyhow::bail!("{} exists and was not written by xtask", path.display()),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
    }
    Ok(())
}

/// Points `out/.xtask-current` at `generation` in one step: a new link renamed over it.
fn switch(out: &Path, generation: &Path) -> io::Result<()> {
    let name = generation.file_name().ok_or(io::ErrorKind::InvalidInput)?;
    let temp = out.join(format!("{TEMP_PREFIX}current-{}", std::process::id()));
    symlink(Path::new(name), &temp)?;
    std::fs::rename(&temp, out.join(CURRENT)).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}

/// Moves the study directories and the index an older xtask wrote into `out` itself into the
/// current generation (made empty first when there is none), replacing each by its link in one
/// step: what `out` reads as never changes. A kill leaves some entries migrated and others not;
/// the next sweep migrates the rest, re-linking what a kill left half-linked (a directory of
/// the current generation is read through its link only once migrated).
fn migrate(out: &Path) -> anyhow::Result<()> {
    let studies: Vec<String> = std::fs::read_dir(out)?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|name| !name.starts_with('.') && out.join(name).join("run.json").is_file())
        .collect();
    let index = out.join(INDEX);
    let old_index = std::fs::symlink_metadata(&index).is_ok_and(|m| m.is_file());
    if studies.is_empty() && !old_index {
        return Ok(());
    }
    let generation = match current(out) {
        Some(generation) => generation,
        None => {
            let generation = out.join(format!("{GENERATION_PREFIX}{}", next_number(out)?));
            std::fs::create_dir(&generation)?;
            switch(out, &generation)?;
            generation
        }
    };
    for name in studies {
        let staged = generation.join(&name);
        if std::fs::symlink_metadata(&staged).is_ok() {
            remove_entry(&staged)?;
        }
        link_tree(&out.join(&name), &staged)?;
        replace_dir(&temporary_link(out, &name)?, &out.join(&name))?;
    }
    if old_index {
        std::fs::copy(&index, generation.join(INDEX))?;
        std::fs::rename(temporary_link(out, INDEX)?, &index)?;
    }
    Ok(())
}

/// A new link `out/.xtask-tmp-link-PID -> .xtask-current/name`, to be renamed into place.
fn temporary_link(out: &Path, name: &str) -> io::Result<PathBuf> {
    let temp = out.join(format!("{TEMP_PREFIX}link-{}", std::process::id()));
    symlink(&entry_target(name), &temp)?;
    Ok(temp)
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// Windows needs to know a link's kind; a name with an extension is the index (a file).
#[cfg(windows)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    if target.extension().is_some() {
        std::os::windows::fs::symlink_file(target, link)
    } else {
        std::os::windows::fs::symlink_dir(target, link)
    }
}

/// Puts `new` (a directory or a link) at `target`, replacing what is there in one atomic
/// step: on Linux the two are exchanged (`renameat2` with `RENAME_EXCHANGE`) and `new`, now
/// holding the previous contents, is removed; elsewhere the previous entry is renamed aside
/// first, which leaves a short window without `target`.
pub(crate) fn replace_dir(new: &Path, target: &Path) -> io::Result<()> {
    if std::fs::symlink_metadata(target).is_err() {
        return std::fs::rename(new, target);
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        renameat_with(CWD, new, CWD, target, RenameFlags::EXCHANGE)?;
        remove_entry(new)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let mut aside = new.as_os_str().to_owned();
        aside.push("-previous");
        std::fs::rename(target, &aside)?;
        std::fs::rename(new, target)?;
        remove_entry(Path::new(&aside))
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// A fresh scratch directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("xtask-generations-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// What a reader of `out` sees: `NAME/FILE` or `NAME` (a file) to its text, hidden entries
    /// left out, links followed.
    fn visible(out: &Path) -> BTreeMap<String, String> {
        let mut files = BTreeMap::new();
        for entry in std::fs::read_dir(out).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let path = entry.path();
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                for file in std::fs::read_dir(&path).unwrap().flatten() {
                    let text = std::fs::read_to_string(file.path()).unwrap();
                    files.insert(format!("{name}/{}", file.file_name().to_string_lossy()), text);
                }
            } else if path.is_file() {
                files.insert(name, std::fs::read_to_string(path).unwrap());
            }
        }
        files
    }

    /// The hidden entries of `out`, sorted.
    fn hidden(out: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(out)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.starts_with('.'))
            .collect();
        names.sort();
        names
    }

    /// A fill that writes each `(study, text)` as `STUDY/run.json` and the index `index`.
    fn studies<'a>(
        written: &'a [(&str, &str)],
        index: &'a str,
    ) -> impl FnOnce(&Path) -> anyhow::Result<()> + 'a {
        move |next| {
            for (study, text) in written {
                std::fs::create_dir(next.join(study))?;
                std::fs::write(next.join(study).join("run.json"), text)?;
            }
            std::fs::write(next.join(INDEX), index)?;
            Ok(())
        }
    }

    fn expected(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    /// A second publish rewrites one study and keeps the other (a hard link to the same
    /// file); what a kill left (a half-written generation, a temporary link, a
    /// `.xtask-current` a copy made a directory) is removed and a user's hidden file kept;
    /// one generation, its link and the lock remain.
    #[test]
    fn publish_keeps_untouched_studies_and_removes_leftovers() {
        let out = scratch("publish");
        publish(&out, &["a", "b"], studies(&[("a", "a1"), ("b", "b1")], "i1")).unwrap();
        assert_eq!(
            visible(&out),
            expected(&[("a/run.json", "a1"), ("b/run.json", "b1"), ("report.md", "i1")])
        );
        std::fs::create_dir_all(out.join(".xtask-gen-7/a")).unwrap();
        symlink(Path::new(".xtask-gen-7"), &out.join(".xtask-tmp-current-1")).unwrap();
        std::fs::write(out.join(".notes"), "mine").unwrap();
        let inode = |out: &Path| {
            std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(out.join("a/run.json")).unwrap())
        };
        let kept = inode(&out);
        publish(&out, &["b"], studies(&[("b", "b2")], "i2")).unwrap();
        assert_eq!(inode(&out), kept);
        assert_eq!(
            visible(&out),
            expected(&[("a/run.json", "a1"), ("b/run.json", "b2"), ("report.md", "i2")])
        );
        assert_eq!(hidden(&out), [".notes", ".xtask-current", ".xtask-gen-1", ".xtask-lock"]);
        // A copy that followed the links: `.xtask-current` is a directory, the studies too.
        let copy = scratch("publish-copy");
        for (path, text) in visible(&out) {
            let path = copy.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        std::fs::create_dir_all(copy.join(CURRENT).join("a")).unwrap();
        publish(&copy, &["a"], studies(&[("a", "a3")], "i3")).unwrap();
        assert_eq!(
            visible(&copy),
            expected(&[("a/run.json", "a3"), ("b/run.json", "b2"), ("report.md", "i3")])
        );
        assert!(is_entry_link(&copy, "b") && is_entry_link(&copy, INDEX));
        assert_eq!(hidden(&copy).len(), 3, "{:?}", hidden(&copy));
    }

    /// A fill that fails leaves the previous run and no new generation.
    #[test]
    fn a_failed_fill_leaves_the_previous_run() {
        let out = scratch("failed");
        publish(&out, &["a"], studies(&[("a", "a1")], "i1")).unwrap();
        let before = (visible(&out), hidden(&out));
        let failing = |next: &Path| -> anyhow::Result<()> {
            std::fs::create_dir(next.join("a"))?;
            anyhow::bail!("disk full")
        };
        assert!(publish(&out, &["a"], failing).is_err());
        assert_eq!((visible(&out), hidden(&out)), before);
    }

    /// An older xtask's layout, killed half way through its migration (study `b` already a
    /// link, `a` a plain directory with a partial copy in the current generation), beside a
    /// user's directory: the next publish migrates the rest and keeps what it read as.
    #[test]
    fn a_half_migrated_older_layout_is_completed() {
        let out = scratch("migrate");
        for (study, text) in [("a", "a0"), ("b", "b0")] {
            std::fs::create_dir_all(out.join(study)).unwrap();
            std::fs::write(out.join(study).join("run.json"), text).unwrap();
            std::fs::write(out.join(study).join("plot.svg"), format!("{text} plot")).unwrap();
        }
        std::fs::write(out.join(INDEX), "i0").unwrap();
        std::fs::create_dir_all(out.join("mine")).unwrap();
        std::fs::write(out.join("mine").join("notes.md"), "my notes").unwrap();
        let old = visible(&out);
        // The state a kill during the migration leaves.
        let generation = out.join(".xtask-gen-0");
        std::fs::create_dir_all(generation.join("a")).unwrap();
        std::fs::write(generation.join("a").join("run.json"), "a0").unwrap();
        link_tree(&out.join("b"), &generation.join("b")).unwrap();
        symlink(Path::new(".xtask-gen-0"), &out.join(CURRENT)).unwrap();
        replace_dir(&temporary_link(&out, "b").unwrap(), &out.join("b")).unwrap();
        assert_eq!(visible(&out), old);
        migrate(&out).unwrap();
        assert_eq!(visible(&out), old);
        for entry in ["a", "b", INDEX] {
            assert!(is_entry_link(&out, entry), "{entry}");
        }
        publish(&out, &["a"], studies(&[("a", "a1")], "i1")).unwrap();
        let mut new = old.clone();
        new.remove("a/plot.svg");
        new.insert("a/run.json".into(), "a1".into());
        new.insert(INDEX.into(), "i1".into());
        assert_eq!(visible(&out), new);
        assert!(std::fs::symlink_metadata(out.join("mine")).unwrap().is_dir());
    }
}
