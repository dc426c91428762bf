//! Stated size limits of a run, estimated from the validated config before anything is
//! allocated (`docs/models/dbsp-hmos.md`, Limits). The figures are measured peak resident
//! bytes (`/usr/bin/time -f %M cargo xtask run dbsp-hmos`), rounded up; the Limits section
//! gives the runs they come from.

#![warn(clippy::cast_possible_truncation)]

use netcore::limits::{DEFAULT_MEMORY, TooLarge, check};
use netcore::pram::library::Algorithm;

/// The unit of every memory estimate.
const BYTES: &str = "bytes (estimated)";

/// Bytes per D-BSP processor of a primitive run (engine state, inboxes, ledger share):
/// 556 measured (two-phase routing, n = 2^16 and 2^20 with one item each).
pub const PRIMITIVE_BYTES_PER_PROCESSOR: u64 = 640;
/// Bytes per item (key or message) of a primitive run: 40-120 measured (routing with
/// `n k skew = 2^20, 2^24`, k-sorting with 2^24 keys).
pub const PRIMITIVE_BYTES_PER_ITEM: u64 = 128;

/// Bytes per D-BSP processor of a `pram` run: 780 measured (permutation-read, n = 2^16),
/// raised so that the estimate covers that run's whole peak (220 MB resident, 288 MB of
/// address space; Limits).
pub const PRAM_BYTES_PER_PROCESSOR: u64 = 1280;
/// Bytes per stored copy of a memory cell (`cells x r 3^k`, an entry of the copies'
/// `BTreeMap` `(variable, copy) -> (value, timestamp)`): 62 measured (k = 3, 81 copies).
pub const PRAM_BYTES_PER_COPY: u64 = 96;
/// Bytes per PPU (its accesses sorted, combined and answered): about 800 measured.
pub const PRAM_BYTES_PER_PPU: u64 = 1024;
/// Bytes per selected copy of a PPU's access (`mu 2^k` packets per access): about 50
/// measured.
pub const PRAM_BYTES_PER_PACKET: u64 = 128;
/// Bytes per cell of the program's own data (input, expected output, the reference run's
/// array, the interpreter's conflict table).
pub const PRAM_BYTES_PER_CELL: u64 = 32;

/// Bytes per D-BSP superstep of a `pram` run's ledger: one record (label, phase, level, work,
/// h, messages: about 107 B) with the records' vector doubling, and the protocol's statistics
/// per global step: 250 measured per superstep (a file looping over one read by each of 8
/// PPUs, n = 8, 2,000 and 8,000 global steps: 10.3 kB more peak per global step of 41
/// supersteps).
pub const PRAM_BYTES_PER_SUPERSTEP: u64 = 320;

/// The most work units (processor-supersteps plus packet-supersteps, see [`pram_work`]) a
/// `pram` run may take: about 36 minutes at the slowest measured rate, 8 M units/s.
pub const MAX_PRAM_WORK: u64 = 1 << 34;

/// The most work units (level-0 edges visited plus 0-block walks, see [`placement_work`])
/// the placement report of `kind = "hmos"` and `kind = "hmos_figure"` may take: a computed
/// level-0 graph (hashed, modulo) accepts `m <= 2^40` variables, whose every edge the report
/// visits (about 17 s at the 65 M edges/s measured for the hashed graph, `m = 2^26`, `n = 2^10`:
/// 3.1 s; the modulo graph 2.2 s).
pub const MAX_PLACEMENT_WORK: u64 = 1 << 30;

/// The work of the placement report (the copies per processor, Section 4.1) and the field
/// that dominates it: `m r` level-0 edges (every variable's 0-modules) plus `n 3^k` walks of
/// the 0-blocks to their processors; `m` when the edges are the larger part, else `k`.
pub fn placement_work(n: u64, m: u64, r: u32, k: u32) -> (&'static str, u64) {
    let edges = m.saturating_mul(u64::from(r));
    let walks = n.saturating_mul(3_u64.saturating_pow(k));
    let field = if edges >= walks { "m" } else { "k" };
    (field, edges.saturating_add(walks))
}

/// Refuses a placement report whose [`placement_work`] exceeds [`MAX_PLACEMENT_WORK`].
pub fn check_placement_work(n: u64, m: u64, r: u32, k: u32) -> Result<(), TooLarge> {
    let (field, work) = placement_work(n, m, r, k);
    check(
        field,
        work,
        MAX_PLACEMENT_WORK,
        "work units (level-0 edges m r plus 0-block walks n 3^k of the placement report, estimated)",
    )
}

/// Refuses a primitive run of `n` processors and `items` keys or messages whose estimate
/// `640 n + 128 items` bytes exceeds [`DEFAULT_MEMORY`], naming `k`.
pub fn check_primitive(n: u64, items: u64) -> Result<(), TooLarge> {
    let bytes = PRIMITIVE_BYTES_PER_PROCESSOR
        .saturating_mul(n)
        .saturating_add(PRIMITIVE_BYTES_PER_ITEM.saturating_mul(items));
    check("k", bytes, DEFAULT_MEMORY, BYTES)
}

/// An upper bound on the global memory cells of `algorithm`'s library program of size
/// `size` (matrix-vector product: `size^2 + 2 size`; every other program at most
/// `3 size`), known before the instance is built.
pub fn library_cells(algorithm: Algorithm, size: u32) -> u64 {
    let s = u64::from(size);
    match algorithm {
        Algorithm::MatVec => s.saturating_mul(s).saturating_add(2 * s),
        _ => 3 * s,
    }
}

/// `mu 2^k`, the copies selected per access.
fn packets(r: u32, k: u32) -> u64 {
    u64::from(r).div_ceil(2).saturating_mul(1_u64.checked_shl(k).unwrap_or(u64::MAX))
}

/// The two parts of an estimate and the fields that set them: the part growing with the
/// processors (`n`) and the part growing with the program (`size`); the larger names the
/// field.
fn named(per_processor: u64, per_program: u64) -> (&'static str, u64) {
    let field = if per_processor >= per_program { "n" } else { "size" };
    (field, per_processor.saturating_add(per_program))
}

/// The memory estimate of a `pram` run and the field that dominates it: `1280 n + 96 cells
/// copies + 4 m r + (1024 + 128 mu 2^k) size + 32 cells` bytes, with `cells` from
/// [`library_cells`], `copies = r 3^k` (every cell stored at every copy at most),
/// `m = max(cells, n)` the variables of the level-0 graph (4 B per edge when stored),
/// `mu = ceil(r / 2)` and `size` bounding the PPUs.
pub fn pram_bytes(algorithm: Algorithm, size: u32, n: u32, r: u32, k: u32) -> (&'static str, u64) {
    program_bytes(library_cells(algorithm, size), u64::from(size), n, r, k)
}

/// [`pram_bytes`] of a program with `cells` global cells and `ppus` PPUs (a program of the
/// user's own: its `M` and `S_max`).
pub fn program_bytes(cells: u64, ppus: u64, n: u32, r: u32, k: u32) -> (&'static str, u64) {
    let copies = u64::from(r).saturating_mul(3_u64.saturating_pow(k));
    let edges = cells.max(u64::from(n)).saturating_mul(u64::from(r));
    let per_ppu =
        PRAM_BYTES_PER_PPU.saturating_add(PRAM_BYTES_PER_PACKET.saturating_mul(packets(r, k)));
    let program = PRAM_BYTES_PER_COPY
        .saturating_mul(cells)
        .saturating_mul(copies)
        .saturating_add(edges.saturating_mul(4))
        .saturating_add(per_ppu.saturating_mul(ppus))
        .saturating_add(PRAM_BYTES_PER_CELL.saturating_mul(cells));
    named(PRAM_BYTES_PER_PROCESSOR.saturating_mul(u64::from(n)), program)
}

/// Refuses a run of a program of the user's own whose [`program_bytes`] exceed
/// [`DEFAULT_MEMORY`].
pub fn check_program_memory(cells: u64, ppus: u64, n: u32, r: u32, k: u32) -> Result<(), TooLarge> {
    let (field, bytes) = program_bytes(cells, ppus, n, r, k);
    check(field, bytes, DEFAULT_MEMORY, BYTES)
}

/// An upper bound on the D-BSP supersteps the access protocol takes per global step on
/// `n = 2^L` processors with `k` HMOS levels: `3 (k + 1) (L + 2) (L + 1)^2`. Each of the
/// `k + 1` selection iterations culls in at most `L + 1` rounds (the rest is forced, Section
/// 4.1; `select.rs`), each round a k-sort, scans and prefixes of `O(L^2)` supersteps, and the
/// combining and the delivery's stages add `O(L^2)` more. Measured at most 0.41 of it (97
/// supersteps in one step at `L = 3`, `k = 0`, culling with `a = 10^-6`, found by the
/// proptest `protocol_equals_reference`, which holds every step to this bound; the library
/// programs 0.04-0.36 at `L = 2..12`, 0.03 for permutation-read at `L = 16`).
pub fn supersteps_per_step(n: u32, k: u32) -> u64 {
    let log_n = u64::from(n.max(1).ilog2());
    3 * (u64::from(k) + 1) * (log_n + 2) * (log_n + 1) * (log_n + 1)
}

/// The memory estimate of a `pram` run once the reference run has counted its `g` global
/// steps: [`program_bytes`] plus the ledger's [`PRAM_BYTES_PER_SUPERSTEP`] for each of its at
/// most `g` [`supersteps_per_step`]; the ledger's part names `size` (the program sets `g`).
pub fn run_bytes(cells: u64, ppus: u64, g: u64, n: u32, r: u32, k: u32) -> (&'static str, u64) {
    let (field, program) = program_bytes(cells, ppus, n, r, k);
    let ledger =
        g.saturating_mul(supersteps_per_step(n, k)).saturating_mul(PRAM_BYTES_PER_SUPERSTEP);
    let field = if ledger >= program { "size" } else { field };
    (field, program.saturating_add(ledger))
}

/// Refuses a `pram` run whose [`run_bytes`] exceed [`DEFAULT_MEMORY`].
pub fn check_run_memory(
    cells: u64,
    ppus: u64,
    g: u64,
    n: u32,
    r: u32,
    k: u32,
) -> Result<(), TooLarge> {
    let (field, bytes) = run_bytes(cells, ppus, g, n, r, k);
    check(field, bytes, DEFAULT_MEMORY, BYTES)
}

/// Refuses a `pram` run whose [`pram_bytes`] exceed [`DEFAULT_MEMORY`].
pub fn check_pram_memory(
    algorithm: Algorithm,
    size: u32,
    n: u32,
    r: u32,
    k: u32,
) -> Result<(), TooLarge> {
    let (field, bytes) = pram_bytes(algorithm, size, n, r, k);
    check(field, bytes, DEFAULT_MEMORY, BYTES)
}

/// The work estimate of a `pram` run from the reference run's global steps `g` and work
/// `w` (an upper bound on its accesses), and the field that dominates it: every global step
/// takes about `3 L^2` supersteps over all `n = 2^L` processors (522 per step measured at
/// L = 16, 237 at L = 10) and every access's `mu 2^k` packets are sorted and routed through
/// about `L^2` of them.
pub fn pram_work(g: u64, w: u64, n: u32, r: u32, k: u32) -> (&'static str, u64) {
    let log_n = u64::from(n.max(2).ilog2());
    let supersteps = 3 * log_n * log_n;
    named(
        g.saturating_mul(supersteps).saturating_mul(u64::from(n)),
        w.saturating_mul(packets(r, k)).saturating_mul(log_n * log_n),
    )
}

/// Refuses a `pram` run whose [`pram_work`] exceeds [`MAX_PRAM_WORK`].
pub fn check_pram_work(g: u64, w: u64, n: u32, r: u32, k: u32) -> Result<(), TooLarge> {
    let (field, work) = pram_work(g, w, n, r, k);
    check(field, work, MAX_PRAM_WORK, "work units (processor- and packet-supersteps, estimated)")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placement report's work names `m` for a computed graph of 2^40 variables and `k`
    /// when the block walks dominate; the fixtures' stored graphs pass.
    #[test]
    fn placement_work_names_the_larger_part() {
        let e = check_placement_work(1 << 20, 1 << 40, 3, 5).unwrap_err();
        assert_eq!((e.field, e.estimate), ("m", 3 * (1 << 40) + 243 * (1 << 20)));
        assert_eq!(placement_work(1 << 20, 1 << 20, 3, 4), ("k", (3 + 81) << 20));
        assert!(check_placement_work(1 << 16, 1 << 22, 3, 3).is_ok());
    }

    /// [`library_cells`] bounds every library program's memory from above (it is used
    /// before the instance exists), and tightly for the matrix-vector product.
    #[test]
    fn library_cells_bound_the_programs() {
        for algorithm in Algorithm::ALL {
            for size in [4, 8, 64] {
                let instance = algorithm.instance(size, 0).expect("a valid size");
                let mem = instance.program.mem();
                assert!(mem <= library_cells(algorithm, size), "{algorithm:?} size {size}");
            }
        }
        assert_eq!(library_cells(Algorithm::MatVec, 64), 64 * 64 + 128);
    }

    /// The fixture `pram-error-too-large-k5.toml`'s estimate, term by term, and the field
    /// that dominates each estimate.
    #[test]
    fn estimates_name_the_dominant_field() {
        let (field, bytes) = pram_bytes(Algorithm::PermutationRead, 1 << 16, 1 << 16, 3, 5);
        assert_eq!(
            (field, bytes),
            ("size", 83886080 + 13759414272 + 2359296 + 603979776 + 6291456)
        );
        assert_eq!(pram_bytes(Algorithm::HotSpotRead, 1, 1 << 20, 3, 0).0, "n");
        // Two global steps on 2^20 processors: 2 * 3 * 20^2 * 2^20 processor-supersteps.
        assert_eq!(pram_work(2, 2, 1 << 20, 3, 0), ("n", 2 * 1200 * (1 << 20) + 2 * 2 * 400));
        assert!(check_pram_work(16, 16, 1 << 20, 3, 0).is_err());
        // 2^20 processors and 2^24 items fit (2.8 GB), 2^25 more items do not.
        assert_eq!(check_primitive(1 << 20, 1 << 24), Ok(()));
        let e = check_primitive(1 << 20, 1 << 25).unwrap_err();
        assert_eq!((e.field, e.estimate), ("k", 640 * (1 << 20) + 128 * (1 << 25)));
    }
}
