//! One library PRAM program (prefix sums of 64 items) through every machine of the
//! workspace: netcore's reference interpreter, actor-pram's butterfly translation on actors,
//! dbsp-hmos's D-BSP with the HMOS access protocol under two `(alpha, beta)` pairs, and
//! hpram's H-PRAM (the program as a flat H-PRAM, and the hierarchical algorithm for the same
//! function) under the hypercube and 2-D mesh presets. Prints one row per machine: its
//! processors, its cost in its own unit, the slowdown over the reference's `T`, the paper's
//! bound on the slowdown where there is one, and whether its output equals the reference.
//!
//! `cargo run -p cross-pram --example every_machine [ALGORITHM [N]]` (default `prefix-sums 64`;
//! ALGORITHM is a library name such as `tree-reduction` or `bitonic-sort`).
//!
//! The default prints 8 rows, all verified: reference `T = 76`; actor butterfly slowdown
//! 34.57 (bound 6.00); D-BSP 816.99 and 1256.65 (bounds 7.25 and 16.54); flat H-PRAM 4.63 (hypercube) and 5.92 (mesh); hierarchical 3.20 and 3.88
//! (0.72 s user CPU in a debug build, load average 1.7).

use cross_pram::machines::compare;
use cross_pram::netcore::pram::library::Algorithm;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("prefix-sums", String::as_str);
    let algorithm = Algorithm::ALL
        .into_iter()
        .find(|a| a.name() == name)
        .ok_or_else(|| format!("unknown algorithm {name:?}"))?;
    let n: u32 = args.get(2).map_or(Ok(64), |s| s.parse())?;
    let rows = compare(algorithm, n, 0)?;
    println!("{} at n = {n}, reference T = {}", algorithm.name(), rows[0].t);
    println!(
        "{:<28} {:>7} {:>12} {:>9} {:>9} {:>8}",
        "machine", "procs", "cost", "slowdown", "bound", "verified"
    );
    for row in &rows {
        let bound = row.bound.map_or_else(|| "-".to_string(), |b| format!("{b:.2}"));
        println!(
            "{:<28} {:>7} {:>12.0} {:>9.2} {:>9} {:>8}",
            row.machine.as_str(),
            row.procs,
            row.cost,
            row.slowdown,
            bound,
            row.verified
        );
    }
    if let Some(row) = rows.iter().find(|row| !row.verified) {
        return Err(format!("{}: output differs from the reference", row.machine).into());
    }
    Ok(())
}
