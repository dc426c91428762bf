//! One-line messages for TOML parse errors, shared by every module that parses a config
//! ([`crate::topology`], [`crate::study`]) so neither depends on the other for it.
#![warn(clippy::cast_possible_truncation)]

/// One line describing a TOML error: `line L, column C: key.path: message` (the key path
/// where toml knows it, e.g. `program.default.k`).
pub fn toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim_end().replace('\n', " ");
    // Without its input, toml's error shows the key path on a line `in `a.b.c``.
    let mut bare = error.clone();
    bare.set_input(None);
    let shown = bare.to_string();
    let message = match shown.lines().find_map(|l| l.strip_prefix("in `")?.strip_suffix('`')) {
        Some(path) => format!("{path}: {message}"),
        None => message,
    };
    match error.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {column}: {message}")
        }
        None => message,
    }
}
