//! The workspace's Rust sources read as text: comments, strings and characters blanked, test
//! code cut, each file named by its module path. Enough to follow imports and measure
//! functions, without a parser.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One source file of a crate.
pub(super) struct Source {
    /// The file, for messages.
    pub(super) path: PathBuf,
    /// Its code without comments, string or character contents, and without test code (from
    /// the first `#[cfg(test)]` on), line structure kept.
    pub(super) code: String,
    /// Its number of lines, test code included.
    pub(super) lines: usize,
}

/// Every `.rs` file under `dir/src`, by module path.
pub(super) fn crate_sources(dir: &Path) -> BTreeMap<Vec<String>, Source> {
    let src = dir.join("src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    let mut sources = BTreeMap::new();
    for path in files {
        let rel = path.strip_prefix(&src).unwrap();
        let mut module: Vec<String> =
            rel.with_extension("").iter().map(|s| s.to_string_lossy().to_string()).collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        if module.len() == 1 && (module[0] == "lib" || module[0] == "main") {
            module.clear();
        }
        // Binaries under src/bin are crates of their own; snapshots are not sources.
        if module.first().is_some_and(|m| m == "bin" || m == "snapshots") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines = text.lines().count();
        let mut code = blank(&text);
        if let Some(at) = code.find("#[cfg(test)]") {
            code.truncate(at);
        }
        sources.insert(module, Source { path, code, lines });
    }
    sources
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// `text` with comments and the contents of string and character literals replaced by
/// spaces (newlines kept), so that braces and paths can be counted on what is left.
pub(super) fn blank(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let keep = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(keep(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !ident(chars.get(i.wrapping_sub(1)))
        {
            // A raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.push('"');
            j += 1;
            while j < chars.len() {
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                out.push(keep(chars[j]));
                j += 1;
            }
            out.push('"');
            i = j;
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(keep(chars[i]));
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'), or a lifetime ('a).
            let end = if next == Some('\\') {
                (i + 2..chars.len()).find(|&j| chars[j] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    out.push_str("' ");
                    out.extend(std::iter::repeat_n(' ', end - i - 2));
                    out.push('\'');
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}
