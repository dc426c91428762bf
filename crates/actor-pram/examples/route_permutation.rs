//! One permutation read with `S = N` on the wrapped butterfly of dimension `n` (default 12:
//! `N = 49,152` routers, 143,360 virtual nodes), through the lockstep router or through
//! actors (every virtual node, host and PPU an actor, FIFO), with polynomial placement,
//! ranked keys and `b = 2`: prints the rounds, the link slots sent (one edge in one round
//! carrying a packet, ghost, end of stream or reply), slots per second, actor events and the
//! process's peak resident memory (`VmHWM` of `/proc/self/status`).
//!
//! Modes: `lockstep` keeps the digest of every slot the passes send
//! ([`LockstepRouter::read_pass_traced`], Property 1's check against the actors, which
//! counts the link slots); `lockstep-plain` routes as a program that only wants the values
//! does ([`LockstepRouter::read_pass`]: no digest, so it prints the packet hops instead of
//! the link slots); `actors` runs every node as an actor (whose passes always keep the digest).
//!
//! With `packets` below `N`, only PPUs `0..packets` read (the rest send none). The default
//! `S = N` is `n` packets per row of the `2^n` rows: the load matched with BookSim2's
//! random permutation on a `2^n`-row butterfly with `n` packets per row (Section 5,
//! Ranade's routing; see the model page's comparison table). On actors the run may take
//! [`LockstepRouter::pass_event_limit`] events, printed with the result.
//!
//! `cargo run --profile sweep -p actor-pram --example route_permutation --
//! lockstep|lockstep-plain|actors [n] [seed] [packets]`

use std::time::Instant;

use actor_pram::actor::Scheduler;
use actor_pram::hash::{HashFamily, KeyOrder};
use actor_pram::ranade::LockstepRouter;
use rand::seq::SliceRandom;

/// The peak resident set of this process in KiB (`VmHWM`), if the kernel reports it.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("lockstep", String::as_str);
    let n: u32 = args.get(2).map_or(Ok(12), |s| s.parse())?;
    let seed: u64 = args.get(3).map_or(Ok(1), |s| s.parse())?;
    let router =
        LockstepRouter::new(n, 2, true)?.with_hashing(&HashFamily::Poly, KeyOrder::Ranked, seed)?;
    let nn = router.routers();
    let mut perm: Vec<u32> = (0..nn).collect();
    perm.shuffle(&mut netcore::rng::seeded(seed, 1));
    let packets: usize = args.get(4).map_or(Ok(nn as usize), |s| s.parse())?;
    let reads: Vec<(u32, u32)> =
        perm.iter().take(packets).enumerate().map(|(p, &a)| (p as u32, a)).collect();
    let memory: Vec<i64> = (0..i64::from(nn)).map(|a| 1000 + a).collect();
    let before = peak_rss_kib();
    let start = Instant::now();
    // Every PPU got the value at the address it read.
    let got_all = |deliveries: &[(u32, u64, i64)]| {
        deliveries.len() == reads.len()
            && deliveries.iter().all(|&(p, _, v)| v == 1000 + i64::from(perm[p as usize]))
    };
    let (r_fwd, r_rev, ok, (what, slots), events) = match mode {
        "lockstep" => {
            let (s, digest) = router.read_pass_traced(&reads, &memory)?;
            (s.r_fwd, s.r_rev, got_all(&s.deliveries), ("link slots", digest.count), 0)
        }
        "lockstep-plain" => {
            let s = router.read_pass(&reads, &memory)?;
            (s.r_fwd, s.r_rev, got_all(&s.deliveries), ("packet hops", s.hops), 0)
        }
        "actors" => {
            let a = router.actor_read_pass(&reads, &memory, Scheduler::Fifo)?;
            let p = &a.pass;
            (
                p.r_fwd,
                p.r_rev,
                got_all(&p.deliveries),
                ("link slots", p.slots.count),
                a.actor.events,
            )
        }
        other => {
            return Err(
                format!("mode must be lockstep, lockstep-plain or actors (got {other})").into()
            );
        }
    };
    let secs = start.elapsed().as_secs_f64();
    let rows = 1u64 << n;
    let limit = if mode == "actors" {
        format!(" (event limit {})", router.pass_event_limit(u64::from(nn)))
    } else {
        String::new()
    };
    println!(
        "{mode}: n = {n}, 2^{n} = {rows} rows, N = {nn}, packets = {} ({:.2} per row), R_fwd = {r_fwd}, R_rev = {r_rev}, {what} = {slots}, events = {events}{limit}, {secs:.2} s, {:.1} M {what}/s, {:.1} M events/s, peak RSS {} MiB (before the pass {} MiB), every PPU got its value: {ok}",
        reads.len(),
        reads.len() as f64 / rows as f64,
        slots as f64 / secs / 1e6,
        events as f64 / secs / 1e6,
        peak_rss_kib().unwrap_or(0) / 1024,
        before.unwrap_or(0) / 1024,
    );
    Ok(())
}
