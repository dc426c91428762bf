//! Seeded random streams.
//!
//! Every random choice in the workspace comes from a [`SimRng`] made by [`seeded`].
//! The `rand` dependency is built without default features, so an unseeded generator
//! (`rand::rng()`) does not exist and cannot slip into a model.

/// The one generator type of the workspace: PCG-XSL-RR 128/64.
pub type SimRng = rand_pcg::Pcg64;

/// The generator for stream `stream` of seed `seed`.
///
/// Different streams of one seed are independent sequences, so each sweep point, processor or
/// actor derives its own stream from ids, never from execution order.
///
/// ```
/// use rand::RngExt;
/// let mut a = netcore::rng::seeded(7, 1);
/// let mut b = netcore::rng::seeded(7, 1);
/// assert_eq!(a.random::<u64>(), b.random::<u64>());
/// ```
pub fn seeded(seed: u64, stream: u64) -> SimRng {
    // The state mixes the seed with a fixed odd constant so that seed 0 is not a degenerate
    // all-zero state; the stream selects the PCG increment.
    let state =
        (u128::from(seed) << 64) ^ u128::from(seed) ^ 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;
    SimRng::new(state, u128::from(stream))
}
