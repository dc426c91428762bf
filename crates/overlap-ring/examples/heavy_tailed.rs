//! A custom guest program on a host with heavy-tailed link delays: the naive one-copy
//! simulation against OVERLAP (paper Theorem 2).
//!
//! The guest is a heat-diffusion row: each cell averages itself with its neighbours, and its
//! database counts how often it got hotter. Values are `f64`, which has no `Hash`, so the
//! value type implements [`Digest`] from its bits for the engine's verification.
//!
//! Run with `cargo run -p overlap-ring --example heavy_tailed`.

use overlap_ring::guest::fold;
use overlap_ring::overlap::C;
use overlap_ring::{DelayLaw, Digest, GuestProgram, Host, Side, naive, overlap, seeded};

/// A cell temperature.
#[derive(Debug, Clone, PartialEq)]
struct Heat(f64);

impl Digest for Heat {
    fn digest(&self, state: u64) -> u64 {
        fold(state, &self.0.to_bits())
    }
}

/// Heat diffusion with a hot left wall and a cold right wall.
struct Diffusion;

impl GuestProgram for Diffusion {
    type Val = Heat;
    type Db = u32;
    fn init_db(&self, _col: usize) -> u32 {
        0
    }
    fn init_val(&self, col: usize) -> Heat {
        Heat(if col.is_multiple_of(7) { 1.0 } else { 0.0 })
    }
    fn boundary(&self, side: Side, _row: u64) -> Heat {
        Heat(match side {
            Side::Left => 1.0,
            Side::Right => 0.0,
        })
    }
    fn step(
        &self,
        warmer: &mut u32,
        _col: usize,
        _row: u64,
        l: &Heat,
        me: &Heat,
        r: &Heat,
    ) -> Heat {
        let next = 0.25 * l.0 + 0.5 * me.0 + 0.25 * r.0;
        if next > me.0 {
            *warmer += 1;
        }
        Heat(next)
    }
}

fn main() -> Result<(), overlap_ring::Error> {
    let (n, steps) = (1024, 64);
    // Pareto delays with tail index 1.1, capped at 4096 host steps: a few links are very slow.
    let law = DelayLaw::Pareto { alpha: 1.1, cap: 4096 };
    let host = Host::from_law(n, &law, 10, &mut seeded(7, 0))?;
    println!("host: n = {n}, d_ave = {:.2}, d_max = {}", host.d_ave(), host.d_max());

    let slow = naive::simulate(&host, n, &Diffusion, steps)?;
    let (fast, labelling) = overlap::simulate(&host, C::new(3, 1)?, &Diffusion, steps)?;
    assert!(slow.verified && fast.verified, "both runs equal the direct run");
    println!("naive:   slowdown {:8.2} host steps per guest step", slow.slowdown);
    println!(
        "OVERLAP: slowdown {:8.2} host steps per guest step ({} of {n} processors live, N = {})",
        fast.slowdown, labelling.live, labelling.n_prime
    );
    Ok(())
}
