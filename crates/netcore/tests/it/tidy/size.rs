//! Function lengths, measured on blanked code (see `source::blank`): from the line of `fn` to
//! the line of its closing brace.

/// `(name, first line (1-based), lines)` of every function with a body in `code`.
pub(super) fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(at) = fn_keyword(line) else { continue };
        let name: String =
            line[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        // The body opens at the first `{` before any `;` (a declaration without a body).
        let mut depth = 0usize;
        let mut opened = false;
        'lines: for (offset, text) in lines[start..].iter().enumerate() {
            let text = if offset == 0 { &text[at..] } else { text };
            for c in text.chars() {
                match c {
                    ';' if !opened => break 'lines,
                    '{' => {
                        opened = true;
                        depth += 1;
                    }
                    '}' if opened => {
                        depth -= 1;
                        if depth == 0 {
                            out.push((name.clone(), start + 1, offset + 1));
                            break 'lines;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Where the keyword `fn` starts a function in `line`, if it does.
fn fn_keyword(line: &str) -> Option<usize> {
    let at = line.find("fn ")?;
    let before = line[..at].chars().last();
    let boundary = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
    let after = line[at + 3..].chars().next();
    (boundary && after.is_some_and(|c| c.is_alphabetic() || c == '_')).then_some(at)
}
