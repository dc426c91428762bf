//! One-line messages for TOML parse errors, shared by every module that parses a config
//! ([`crate::topology`], [`crate::study`]) so neither depends on the other for it.

/// One line describing a TOML error: `line L, column C: message`.
pub fn toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim_end().replace('\n', " ");
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
