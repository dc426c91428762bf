//! Stated size limits of a full run, estimated from its [`Config`] before anything is
//! allocated (`docs/models/hpram.md`, Limits). The figures are measured peak resident bytes
//! (`/usr/bin/time -f %M cargo xtask run hpram`), rounded up; the Limits section gives the
//! runs they come from. Count-only runs store identical siblings once and are not limited
//! (under 5 MB at `P = 2^30`), except the FFT's `perm` form, whose remapping partition lists
//! its `P` parts ([`COUNTED_PERM_BYTES_PER_PROC`]).

use netcore::limits::{DEFAULT_MEMORY, TooLarge, check};

use crate::{Config, MemoryVariant};

/// Bytes per word of global memory under non-uniform memory: the memory, the input and the
/// reference (16 B measured for tree-reduce, 32 B for the FFT).
pub const NON_UNIFORM_BYTES_PER_WORD: u64 = 40;
/// Bytes per processor under non-uniform memory (its state, its share of the sub-PRAMs and
/// of the cost tree): 46-150 B measured.
pub const NON_UNIFORM_BYTES_PER_PROC: u64 = 160;
/// Bytes per word of global memory under uniform memory, whose determinacy checker keeps
/// a footprint of every touched cell per subtree until the join: 220-490 B measured.
pub const UNIFORM_BYTES_PER_WORD: u64 = 640;
/// Bytes per processor under uniform memory: 420 B measured (tree-reduce, hier).
pub const UNIFORM_BYTES_PER_PROC: u64 = 512;
/// Bytes per register (`local_words` per processor).
pub const BYTES_PER_REGISTER: u64 = 8;

/// Bytes per processor of a count-only `fft` run of the `perm` form: its remapping
/// partition builds one part per processor (about 72 bytes and a one-word list) before the
/// partition counts them, and the partition's size and block arrays (8 bytes each), rounded
/// up: `P = 2^28` would need about 28 GB.
pub const COUNTED_PERM_BYTES_PER_PROC: u64 = 128;

/// Refuses a count-only `fft` run of the `perm` form on `procs` processors past
/// [`DEFAULT_MEMORY`] ([`COUNTED_PERM_BYTES_PER_PROC`] each), naming `procs`.
pub fn check_counted_perm(procs: usize) -> Result<(), TooLarge> {
    let bytes = COUNTED_PERM_BYTES_PER_PROC.saturating_mul(procs as u64);
    check("procs", bytes, DEFAULT_MEMORY, "bytes (estimated: the remapping's parts)")
}

/// Bytes per character of a `shape` string parsed into items (`synth::Shape`): an item is 24
/// bytes, and the vector of items doubles as it grows, so its old and new buffers together
/// hold up to 72 bytes per item at a reallocation; each character is at most one item, and
/// the text itself is kept (66 bytes per character measured: 10,000,000 `c` on `P = 4`, 662 MB).
pub const SHAPE_BYTES_PER_CHAR: u64 = 80;

/// Refuses a shape of `chars` characters before it is parsed when its items
/// ([`SHAPE_BYTES_PER_CHAR`] each), with the full run's [`full_run_bytes`] if `run` is one
/// (a count-only run allocates no memory), exceed [`DEFAULT_MEMORY`]; names `shape` when its
/// part is the largest, else `words_field` or `procs` as [`check_full_run`].
pub fn check_shape(
    chars: usize,
    run: Option<&Config>,
    words_field: &'static str,
) -> Result<(), TooLarge> {
    let shape = SHAPE_BYTES_PER_CHAR.saturating_mul(chars as u64);
    let (words, procs) = run.map_or((0, 0), full_run_bytes);
    let field = match () {
        () if shape >= words.max(procs) => "shape",
        () if words >= procs => words_field,
        () => "procs",
    };
    let total = shape.saturating_add(words).saturating_add(procs);
    check(field, total, DEFAULT_MEMORY, "bytes (estimated: the shape's items and the run)")
}

/// The memory estimate of a full run: `(words, processors)` bytes, the part growing with
/// `M` and the part growing with `P` (registers included).
pub fn full_run_bytes(cfg: &Config) -> (u64, u64) {
    let (per_word, per_proc) = match cfg.memory {
        MemoryVariant::NonUniform => (NON_UNIFORM_BYTES_PER_WORD, NON_UNIFORM_BYTES_PER_PROC),
        MemoryVariant::Uniform => (UNIFORM_BYTES_PER_WORD, UNIFORM_BYTES_PER_PROC),
    };
    let registers = BYTES_PER_REGISTER.saturating_mul(cfg.local_words as u64);
    let procs = per_proc.saturating_add(registers).saturating_mul(cfg.procs as u64);
    (per_word.saturating_mul(cfg.mem_words as u64), procs)
}

/// Refuses a full run whose [`full_run_bytes`] exceed [`DEFAULT_MEMORY`], naming
/// `words_field` (the config field that sets `M`) when the words' part is the larger, else
/// `procs`.
pub fn check_full_run(cfg: &Config, words_field: &'static str) -> Result<(), TooLarge> {
    let (words, procs) = full_run_bytes(cfg);
    let field = if words >= procs { words_field } else { "procs" };
    check(field, words.saturating_add(procs), DEFAULT_MEMORY, "bytes (estimated)")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count-only perm FFT on 2^25 processors is estimated at 128 * 2^25 = 4 GiB, the
    /// limit; on 2^26 at 8 GiB, refused naming procs.
    #[test]
    fn counted_perm_is_bounded() {
        assert_eq!(check_counted_perm(1 << 25), Ok(()));
        let e = check_counted_perm(1 << 26).unwrap_err();
        assert_eq!((e.field, e.estimate), ("procs", 128 << 26));
    }

    /// A shape's characters count before it is parsed: 2^25 characters (80 B each, 2.5 GiB)
    /// pass alone; beside a full run of `M = 3·2^24` words (1.9 GiB) they are refused naming
    /// `shape`, the larger part, and 2^24 characters beside `M = 3·2^25` naming `n`; 2^26
    /// characters (5 GiB) are refused alone.
    #[test]
    fn shapes_are_estimated_before_parsing() {
        assert_eq!(check_shape(1 << 25, None, "n"), Ok(()));
        let procs = 4 * 192;
        let e = check_shape(1 << 25, Some(&Config::new(4, 3 << 24)), "n").unwrap_err();
        assert_eq!((e.field, e.estimate), ("shape", (80 << 25) + (120 << 24) + procs));
        let e = check_shape(1 << 24, Some(&Config::new(4, 3 << 25)), "n").unwrap_err();
        assert_eq!((e.field, e.estimate), ("n", (80 << 24) + (120 << 25) + procs));
        let e = check_shape(1 << 26, None, "n").unwrap_err();
        assert_eq!((e.field, e.estimate), ("shape", 80 << 26));
    }

    /// Both variants' estimates term by term, and the field that names the larger part.
    #[test]
    fn estimates_name_the_larger_part() {
        let mut cfg = Config::new(1 << 20, 1 << 20);
        assert_eq!(full_run_bytes(&cfg), (40 << 20, (160 + 32) << 20));
        assert_eq!(check_full_run(&cfg, "n"), Ok(()));
        cfg.memory = MemoryVariant::Uniform;
        assert_eq!(full_run_bytes(&cfg), (640 << 20, (512 + 32) << 20));
        cfg.procs = 1 << 23;
        let e = check_full_run(&cfg, "n").unwrap_err();
        assert_eq!((e.field, e.estimate), ("procs", (640 << 20) + ((512 + 32) << 23)));
    }
}
