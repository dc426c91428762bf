//! Stated size limits of a run, estimated before it allocates (`docs/models/actor-pram.md`,
//! Limits): memory from measured bytes per actor, virtual node, packet hop and cell, checked
//! against the run's budget (`netcore::pram::Limits::max_bytes`: 1 GiB in the library API,
//! [`netcore::limits::DEFAULT_MEMORY`] under `cargo xtask run`), and the butterfly
//! translation's work and per-step events. The figures are peak resident bytes (`VmHWM`,
//! release build) of the runs named at each constant, rounded up.

use netcore::limits::{TooLarge, check};

/// The unit of every memory estimate.
pub const BYTES: &str = "bytes (estimated)";

/// What a refusal names when the program's PPUs `S` set the size: the `[pram]` table (a
/// library program's `n` or a file's PPUs), since `S` is no field of a config.
pub const PPUS_FIELD: &str = "pram (its S PPUs)";
/// What a refusal names when the program's global steps `G` set the work.
pub const STEPS_FIELD: &str = "pram (its G global steps)";

/// Bytes per PPU actor of the direct translation and broadcast-sync (behaviour, mailbox,
/// metadata, the reference's and the result's registers), besides its local memory: 1037
/// measured on `2^18` PPUs that only halt, 1452 (1526 of address space) on a hot-spot read
/// of `2^18` PPUs, its schedule entries included.
pub const DIRECT_BYTES_PER_PPU: u64 = 1536;
/// Bytes per cell actor the run creates (one per touched cell): about 1000 measured (`2^18`
/// PPUs each writing its own cell, less the PPU actors).
pub const DIRECT_BYTES_PER_CELL: u64 = 1024;
/// Bytes per schedule or acquaintance entry (two per access): 44 per access measured
/// (`2^16` PPUs reading one cell 16 times).
pub const DIRECT_BYTES_PER_ENTRY: u64 = 32;

/// Bytes per virtual node of a lockstep pass (node state, the slot and ack arrays of two
/// rounds): 565-578 measured (the empty pass at n = 10, 12: `route_permutation lockstep n 1
/// 0`'s peak resident set less the process's before the pass).
pub const LOCKSTEP_BYTES_PER_NODE: u64 = 832;
/// Bytes per actor of a pass on actors (virtual nodes, hosts, hash actors, PPUs: behaviour,
/// mailbox, the messages in flight): 2.0-2.2 KB measured (the empty pass at n = 10, 12,
/// before the hash actors; counted at the same rate, which over-estimates them).
pub const ACTOR_BYTES_PER_ACTOR: u64 = 2304;
/// Bytes per packet and hop of a lockstep pass (direction-queue records and parts, buffered
/// packets, the replies), counting `2n` hops per packet (a packet exits by level
/// `c + 2n − 1`): 105-115 measured (permutation reads with `S = N` at n = 8, 10, 12, less the
/// empty pass).
pub const LOCKSTEP_BYTES_PER_PACKET_HOP: u64 = 128;
/// The same on actors (the packets and replies also travel in messages): 165-170 measured
/// (n = 10, 12).
pub const ACTOR_BYTES_PER_PACKET_HOP: u64 = 192;
/// Bytes per global cell of the butterfly translation (the memory, its copy for the lockstep
/// check, the actors' environment and the reference's array).
pub const BUTTERFLY_BYTES_PER_CELL: u64 = 32;

/// The most work units a butterfly run may take: virtual-node rounds of the lockstep
/// router, [`ACTOR_WORK_PER_NODE_ROUND`] per node-round when the steps also run on actors.
/// About 30-60 minutes at the measured 4.5-10 M node-rounds per second.
pub const MAX_BUTTERFLY_WORK: u64 = 1 << 34;
/// Work units of one virtual-node round on actors: the lockstep check and the actor run
/// together were measured 5-14 times as slow as the lockstep pass alone (n = 12).
pub const ACTOR_WORK_PER_NODE_ROUND: u64 = 16;
/// Actor events per virtual-node round: 2.0 measured (empty pass and permutation read at
/// n = 12).
pub const EVENTS_PER_NODE_ROUND: u64 = 2;

/// The butterfly network of dimension `n`: virtual nodes `(3n − 1) 2^n`, routers `n 2^n`,
/// and the empty pass's rounds `2 (3n − 1)`, the least any pass takes.
fn network(n: u32) -> (u64, u64, u64) {
    let rows = 1_u64.checked_shl(n).unwrap_or(u64::MAX);
    let levels = 3 * u64::from(n) - 1;
    (levels.saturating_mul(rows), u64::from(n).saturating_mul(rows), 2 * levels)
}

/// The memory estimate of a butterfly translation of `s` PPUs with `lmem` local words on
/// dimension `n`, `cells` global cells, with or without actors: the PPU replicas `(1536 + 8
/// lmem) s`, the cells `32 cells`, and the larger of the lockstep pass `832 (3n − 1) 2^n +
/// 128 · 2n s` and (with actors) the actor pass `2304 ((3n − 1) 2^n + 2 n 2^n + s) + 192 ·
/// 2n s` (a host and a hash actor per router), which run one after the other. Returns the part growing with the network and the
/// part growing with the program.
pub fn butterfly_bytes(s: u32, lmem: u32, cells: u64, n: u32, actors: bool) -> (u64, u64) {
    let (v, routers, _) = network(n);
    let s = u64::from(s);
    let ppus = s.saturating_mul(DIRECT_BYTES_PER_PPU + 8 * u64::from(lmem));
    let (net, per_ppu, per_hop) = if actors {
        let actors = v.saturating_add(routers.saturating_mul(2));
        let net = actors.saturating_mul(ACTOR_BYTES_PER_ACTOR);
        (net, ACTOR_BYTES_PER_ACTOR, ACTOR_BYTES_PER_PACKET_HOP)
    } else {
        (v.saturating_mul(LOCKSTEP_BYTES_PER_NODE), 0, LOCKSTEP_BYTES_PER_PACKET_HOP)
    };
    let hops = s.saturating_mul(2 * u64::from(n)).saturating_mul(per_hop);
    let program = ppus
        .saturating_add(hops)
        .saturating_add(s.saturating_mul(per_ppu))
        .saturating_add(cells.saturating_mul(BUTTERFLY_BYTES_PER_CELL));
    (net, program)
}

/// Refuses a butterfly run whose [`butterfly_bytes`] exceed `budget`, naming `dim_field`
/// (`butterfly.dim`, or [`PPUS_FIELD`] when the dimension follows from `S`) when the network's
/// part is the larger, else [`PPUS_FIELD`].
pub fn check_butterfly_memory(
    s: u32,
    lmem: u32,
    cells: u64,
    n: u32,
    actors: bool,
    dim_field: &'static str,
    budget: u64,
) -> Result<(), TooLarge> {
    let (net, program) = butterfly_bytes(s, lmem, cells, n, actors);
    let field = if net >= program { dim_field } else { PPUS_FIELD };
    check(field, net.saturating_add(program), budget, BYTES)
}

/// The work estimate of `passes` passes on dimension `n`: `passes · (3n − 1) 2^n · 2 (3n −
/// 1)` virtual-node rounds (every pass takes at least the empty pass's rounds, so this is a
/// lower bound of the lockstep work), times [`ACTOR_WORK_PER_NODE_ROUND`] with actors.
/// Returns one pass's work and the run's.
pub fn butterfly_work(passes: u64, n: u32, actors: bool) -> (u64, u64) {
    let (v, _, rounds) = network(n);
    let weight = if actors { ACTOR_WORK_PER_NODE_ROUND } else { 1 };
    let one = v.saturating_mul(rounds).saturating_mul(weight);
    (one, one.saturating_mul(passes))
}

/// Refuses a butterfly run of `passes` passes whose [`butterfly_work`] exceeds
/// [`MAX_BUTTERFLY_WORK`], naming `dim_field` if one pass alone exceeds it, else `G` (the
/// program's global steps set the passes); and, with actors, a step whose events
/// (`2 · (3n − 1) 2^n · 2 (3n − 1)`, a lower estimate) exceed the actor runtime's
/// `max_events`, which it would otherwise reach only after doing that work.
pub fn check_butterfly_work(
    passes: u64,
    n: u32,
    actors: bool,
    dim_field: &'static str,
    max_events: u64,
) -> Result<(), TooLarge> {
    let (one, all) = butterfly_work(passes, n, actors);
    let field = if one > MAX_BUTTERFLY_WORK { dim_field } else { STEPS_FIELD };
    check(field, all, MAX_BUTTERFLY_WORK, "work units (virtual-node rounds, estimated)")?;
    if actors {
        let (v, _, rounds) = network(n);
        let events = v.saturating_mul(rounds).saturating_mul(EVENTS_PER_NODE_ROUND);
        check(dim_field, events, max_events, "actor events per step (estimated)")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The estimates term by term at n = 12 with `S = N` (the permutation read of the
    /// benchmarks): 143,360 virtual nodes and 49,152 routers.
    #[test]
    fn estimates_at_n12() {
        let s = 49_152;
        let ppus = 49_152 * 1536;
        assert_eq!(butterfly_bytes(s, 0, 0, 12, false), (143_360 * 832, ppus + 49_152 * 24 * 128));
        assert_eq!(
            butterfly_bytes(s, 0, 0, 12, true),
            ((143_360 + 2 * 49_152) * 2304, ppus + 49_152 * 24 * 192 + 49_152 * 2304)
        );
        assert_eq!(butterfly_work(3, 12, false), (143_360 * 70, 3 * 143_360 * 70));
        // n = 14 on actors: 2 · 671,744 · 82 events per step, over 10^8.
        let e = check_butterfly_work(1, 14, true, "butterfly.dim", 100_000_000).unwrap_err();
        assert_eq!((e.field, e.estimate), ("butterfly.dim", 2 * 671_744 * 82));
        assert_eq!(check_butterfly_work(1, 13, true, PPUS_FIELD, 100_000_000), Ok(()));
        // Many passes at n = 13: the global steps are named.
        let e = check_butterfly_work(10_000, 13, false, PPUS_FIELD, u64::MAX).unwrap_err();
        assert_eq!(e.field, STEPS_FIELD);
    }
}
