//! The cascade sort's communication stage by stage, against p: for `p = 2^k`, `k = 6, 8, ...,
//! 16`, sorts `c` keys per processor (uniform in `0..range`, seeded) with
//! `cascade_sort_blocks` (fan-in 4 from 32 keys per block, else 2) and prints the total `h`
//! (the sum over supersteps of the largest number of messages one processor sends or
//! receives), then per stage of the pipeline (Cole's three stages per level, four supersteps
//! each; the scatter superstep first) the stage's summed `h` and summed `w`. An `O(log p)`
//! sort at fixed `c` adds a constant to the total per doubling of p once the pipeline's
//! start-up levels, whose lists are shorter than the blocks, are behind it
//! (`docs/models/logp-stall.md`, "Theorem 2 and Corollary 1: the two sorts").
//!
//! `cargo run --release -p netcore --example cascade_stages -- [c] [range]` (defaults 2 and
//! 2^32).

use netcore::bsp::primitives::cascade_sort_blocks;
use netcore::bsp::{Bsp, BspMachine, BspParams};
use rand::RngExt;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let c: usize = args.get(1).map_or(Ok(2), |s| s.parse())?;
    let range: u64 = args.get(2).map_or(Ok(1 << 32), |s| s.parse())?;
    if c == 0 || range == 0 || range > 1 << 32 {
        return Err("c must be at least 1 and range in 1..=2^32".into());
    }
    let mut previous: Option<u64> = None;
    for k in (6..=16u32).step_by(2) {
        let p = 1u32 << k;
        let mut rng = netcore::rng::seeded(3, u64::from(k));
        let blocks: Vec<Vec<u64>> =
            (0..p).map(|_| (0..c).map(|_| rng.random_range(0..range)).collect()).collect();
        let mut m: BspMachine<Vec<u64>, u32> =
            BspMachine::new(BspParams::new(Bsp { p, g: 1, l: 1 })?, blocks)?;
        cascade_sort_blocks(&mut m, c, "sort")?;
        let records = &m.ledger().records;
        let total: u64 = records.iter().map(|r| r.h).sum();
        // Record 0 is the scatter; then four supersteps per stage, three in the last.
        let stages: Vec<String> = records[1..]
            .chunks(4)
            .map(|stage| {
                let h: u64 = stage.iter().map(|r| r.h).sum();
                let w: u64 = stage.iter().map(|r| r.w).sum();
                format!("{h}/{w}")
            })
            .collect();
        let added = previous.map_or(String::new(), |before| {
            format!(", {} more than at p = 2^{}", total - before, k - 2)
        });
        println!("p = 2^{k}: {} supersteps, total h {total}{added}", records.len());
        println!("  per stage, h/w: {}", stages.join(" "));
        previous = Some(total);
    }
    Ok(())
}
