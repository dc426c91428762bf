//! The error messages of the GOAL parser: a line's syntax error, quoting at most
//! [`ECHO_MAX`] characters of the text, and the bounds on ids and line numbers.

use crate::error::Error;

/// Longest piece of GOAL text an error message quotes (a 50 MB line gives a one-line error).
pub const ECHO_MAX: usize = 60;

/// `text` as quoted in an error: at most [`ECHO_MAX`] characters, then `...` and its length.
pub(super) fn echo(text: &str) -> String {
    match text.char_indices().nth(ECHO_MAX) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
    }
}

pub(super) fn syntax(line: usize, message: impl Into<String>) -> Error {
    Error::GoalSyntax { line, message: message.into() }
}

pub(super) fn not_utf8(line: usize) -> Error {
    syntax(line, "the line is not valid UTF-8")
}

pub(super) fn schedule_err(message: impl Into<String>) -> Error {
    Error::GoalSchedule { message: message.into() }
}

pub(super) fn too_many_ops(line: usize) -> Error {
    syntax(line, "a schedule holds at most 2^31 - 1 operations")
}

/// An operation count or index as an id.
pub(super) fn op_id(count: usize, line: usize) -> Result<u32, Error> {
    u32::try_from(count).map_err(|_| too_many_ops(line))
}

/// A line number as stored per operation.
pub(super) fn line32(line: usize) -> Result<u32, Error> {
    u32::try_from(line).map_err(|_| syntax(line, "a GOAL text has at most 2^32 - 1 lines"))
}

pub(super) fn parse_num<T: std::str::FromStr>(
    line: usize,
    token: &str,
    what: &str,
) -> Result<T, Error> {
    token.parse::<T>().map_err(|_| {
        syntax(line, format!("{what} must be a non-negative integer (got `{}`)", echo(token)))
    })
}
