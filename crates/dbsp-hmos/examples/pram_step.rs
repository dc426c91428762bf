//! One PRAM step as a library user runs it: a fresh process, the system allocator and its
//! default settings, a machine built here and one global step of the HMOS access protocol
//! (Sections 3-4) on it. The step is the PRAM-step bench's (`benches/pram_step.rs`): n = 2^16
//! reads of random addresses among m = n variables, k = k_max(n) = 5 levels, r = 3 (729
//! copies per variable), culling at every level (a = 2, eps = 0.3, Lemma 3) and staged
//! delivery (Theorem 3), under `g_i = l_i = (n / 2^i)^(1/2)`.
//!
//! `cargo build --release -p dbsp-hmos --example pram_step`, then run the binary itself
//! (`target/release/examples/pram_step [log_n [steps]]`, default `16 1`; steps after the
//! first are warm), not through `cargo run`, whose environment carries `.cargo/config.toml`'s
//! allocator setting. It prints the build's and the first step's wall times, that step's
//! D-BSP supersteps, messages and cost and a hash of the values read (identical for every
//! engine change that keeps the results), then each warm step's wall time.
//! `docs/benchmarks/dbsp-hmos.md` ("The cold step") has its figures.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

use dbsp_hmos::hmos::k_max;
use dbsp_hmos::netcore::bsp::DbspParams;
use dbsp_hmos::netcore::pram::GlobalMemory;
use dbsp_hmos::protocol::{HmosMemory, Selection};
use dbsp_hmos::simulation::random_reads;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let log_n: u32 = std::env::args().nth(1).map_or(Ok(16), |a| a.parse())?;
    let steps: u32 = std::env::args().nth(2).map_or(Ok(1), |a| a.parse())?;
    let n: u32 = 1 << log_n;
    let k = k_max(u64::from(n));
    let start = Instant::now();
    let params = DbspParams::power_law(n, 0.5, 0.5)?;
    let selection = Selection::Cull { a: 2.0, eps: 0.3 };
    let mut memory = HmosMemory::new(params.clone(), u64::from(n), &[], 3, k, 1, selection)?;
    let reads = random_reads(n, 1);
    let built = start.elapsed();
    let mut accesses = reads.clone();
    let start = Instant::now();
    memory.step(1, &mut accesses);
    let stepped = start.elapsed();
    if let Some(e) = memory.error() {
        return Err(e.clone().into());
    }
    let ledger = memory.ledger();
    let mut hash = DefaultHasher::new();
    accesses.iter().for_each(|a| a.value.hash(&mut hash));
    println!(
        "n = 2^{log_n}, k = {k}, r = 3: build {:.2} s, step {:.2} s (wall)",
        built.as_secs_f64(),
        stepped.as_secs_f64()
    );
    println!(
        "{} supersteps, {} D-BSP messages, cost {:.4e}; values read: hash {:016x}",
        ledger.supersteps(),
        ledger.messages(),
        ledger.cost(&params)?,
        hash.finish()
    );
    // Further steps (the same reads) on the same machine are warm: its buffers were grown
    // by the first step.
    for step in 2..=steps {
        let mut again = reads.clone();
        let start = Instant::now();
        memory.step(u64::from(step), &mut again);
        if let Some(e) = memory.error() {
            return Err(e.clone().into());
        }
        println!("step {step} (warm): {:.2} s (wall)", start.elapsed().as_secs_f64());
    }
    Ok(())
}
