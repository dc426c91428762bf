//! A library PRAM program (prefix sums) whose global memory is the HMOS access protocol on a
//! D-BSP machine (Sections 3-4): every global step of the PRAM becomes a round of the protocol
//! (combine, copy selection, delivery, reply), priced as D-BSP supersteps. The program's output
//! is checked against the library's plain-Rust reference, and the D-BSP cost is printed per
//! protocol phase, for the flat majority scheme (k = 0) and the HMOS with one level (k = 1).
//!
//! `cargo run -p dbsp-hmos --example prefix_on_hmos` prints, for n = 64 and 64 items,
//! `k = 0 (3 copies per variable): 18 PRAM global steps, 1926 D-BSP supersteps, cost 17541`
//! and `k = 1 (9 copies per variable): ... cost 21709`, each with its cost per phase (combine,
//! deliver, reply, uncombine) and the check against the reference (0.16 s user CPU in a
//! debug build).

use dbsp_hmos::netcore::bsp::DbspParams;
use dbsp_hmos::netcore::pram::library::Algorithm;
use dbsp_hmos::netcore::pram::{Limits, NoTrace, run_with};
use dbsp_hmos::protocol::{HmosMemory, Selection};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // n = 64 processors, g_i = l_i = (n / 2^i)^(1/2); prefix sums of 64 items (seed 0).
    let n = 64;
    let params = DbspParams::power_law(n, 0.5, 0.5)?;
    let prefix = Algorithm::PrefixSums.instance(64, 0)?;
    let (r, seed) = (3, 0);
    for k in [0, 1] {
        let mut memory = HmosMemory::new(
            params.clone(),
            prefix.program.mem(),
            &prefix.input,
            r,
            k,
            seed,
            Selection::Naive,
        )?;
        let done = run_with(&prefix.program, &mut memory, &Limits::default(), &mut NoTrace)?;
        // A protocol error stops the step it happened in; the memory keeps the first one.
        if let Some(e) = memory.error() {
            return Err(e.clone().into());
        }
        let output = &done.memory[prefix.output.clone()];
        let ok = output == prefix.expected.as_slice();
        let ledger = memory.ledger();
        println!(
            "k = {k} ({} copies per variable): {} PRAM global steps, {} D-BSP supersteps, \
             cost {:.0}, output {}",
            memory.hmos().copies(),
            done.cost.g,
            ledger.supersteps(),
            ledger.cost(&params)?,
            if ok { "equals the reference" } else { "DIFFERS from the reference" }
        );
        for (phase, cost) in ledger.by_phase(&params)? {
            println!("  {phase:<12} {cost:>10.0}");
        }
        if !ok {
            return Err("the PRAM run on HMOS differs from the reference".into());
        }
    }
    Ok(())
}
