//! The syntax of a schedule's lines: the `num_ranks` header and the operations with their
//! annotations, each error naming its line.
#![warn(clippy::cast_possible_truncation)]

use super::errors::{echo, parse_num, syntax};
use crate::error::Error;
use crate::goal::schedule::{ANY, MAX_RANKS, MAX_TIME, Op, OpKind, size_limit_message};

pub(super) fn parse_num_ranks(line: usize, tokens: &[&str]) -> Result<u32, Error> {
    match tokens {
        ["num_ranks", n] => {
            let p: u32 = parse_num(line, n, "num_ranks")?;
            if p == 0 || p > MAX_RANKS {
                return Err(syntax(
                    line,
                    format!("num_ranks must satisfy 1 <= num_ranks <= {MAX_RANKS} (got {p})"),
                ));
            }
            Ok(p)
        }
        _ => Err(syntax(
            line,
            format!(
                "expected `num_ranks <P>` as the first line (got `{}`)",
                echo(&tokens.join(" "))
            ),
        )),
    }
}

/// A calc time or message size: a number up to [`MAX_TIME`] (so it is stored in 4 bytes).
fn parse_size(line: usize, token: &str, kind: OpKind, what: &str) -> Result<u32, Error> {
    let size: u64 = parse_num(line, token, what)?;
    if size > MAX_TIME {
        return Err(syntax(line, size_limit_message(kind, size)));
    }
    u32::try_from(size).map_err(|_| syntax(line, size_limit_message(kind, size)))
}

pub(super) fn parse_op(line: usize, tokens: &[&str], p: u32, rank: u32) -> Result<Op, Error> {
    Ok(match tokens {
        ["calc", t, rest @ ..] => {
            let (_, cpu, _) = annotations(line, rest, false)?;
            let size = parse_size(line, t, OpKind::Calc, "calc time")?;
            Op { size, peer: 0, tag: 0, kind: OpKind::Calc, cpu, nic: 0 }
        }
        [verb @ ("send" | "recv"), bytes, dir, peer, rest @ ..] => {
            let (kind, want) =
                if *verb == "send" { (OpKind::Send, "to") } else { (OpKind::Recv, "from") };
            if *dir != want {
                return Err(syntax(
                    line,
                    format!("`{verb}` needs `{want} <rank>` (got `{}`)", echo(dir)),
                ));
            }
            let Some(n) = bytes.strip_suffix('b') else {
                return Err(syntax(
                    line,
                    format!("message size must be written `<n>b` (got `{}`)", echo(bytes)),
                ));
            };
            let size = parse_size(line, n, kind, "message size")?;
            let peer: u32 = if *peer == "-1" && kind == OpKind::Recv {
                ANY
            } else {
                let peer: u32 = parse_num(line, peer, "peer rank")?;
                if peer >= p {
                    return Err(syntax(
                        line,
                        format!("peer rank must be < num_ranks = {p} (got {peer})"),
                    ));
                }
                peer
            };
            if peer == rank {
                return Err(syntax(line, format!("rank {peer} cannot {verb} a message to itself")));
            }
            let (tag, cpu, nic) = annotations(line, rest, true)?;
            Op { size, peer, tag, kind, cpu, nic }
        }
        rest => {
            return Err(syntax(
                line,
                format!(
                    "expected `send <n>b to <dst> [tag <t>] [cpu <c>] [nic <k>]`, `recv <n>b from <src> [tag <t>] [cpu <c>] [nic <k>]` or `calc <time> [cpu <c>]` (got `{}`)",
                    echo(&rest.join(" "))
                ),
            ));
        }
    })
}

/// The optional `tag <t>` (`-1` = any), `cpu <c>` and `nic <k>` after an operation, in this
/// order (`txt2bin`'s grammar; a calc takes only `cpu`).
fn annotations(line: usize, mut rest: &[&str], message: bool) -> Result<(u32, u8, u8), Error> {
    let (mut tag, mut cpu, mut nic) = (0, 0, 0);
    let mut seen = 0;
    while let [word, value, tail @ ..] = rest {
        let order = match *word {
            "tag" if message => 1,
            "cpu" => 2,
            "nic" if message => 3,
            _ => break,
        };
        if order <= seen {
            break;
        }
        seen = order;
        match order {
            1 if *value == "-1" => tag = ANY,
            1 => {
                tag = parse_num(line, value, "tag")?;
                if tag == ANY {
                    return Err(syntax(line, "tag 4294967295 is reserved for `-1` (any tag)"));
                }
            }
            2 => cpu = parse_num(line, value, "cpu index (0..=255)")?,
            _ => nic = parse_num(line, value, "nic index (0..=255)")?,
        }
        rest = tail;
    }
    if !rest.is_empty() {
        let expected = if message {
            "optional `tag <t>`, `cpu <c>`, `nic <k>` in this order"
        } else {
            "optional `cpu <c>`"
        };
        return Err(syntax(line, format!("expected {expected} (got `{}`)", echo(&rest.join(" ")))));
    }
    Ok((tag, cpu, nic))
}
