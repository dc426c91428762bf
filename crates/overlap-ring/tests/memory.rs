//! The memory estimate of a config (`docs/models/overlap-ring.md`, Limits) against the peak
//! heap of its run, measured by a counting global allocator (this test binary's own): for every
//! plan kind (naive, OVERLAP, trapezoid, composite, 2-D, two-copy) at a size where the
//! per-column state dominates, and OVERLAP on the event engine (`B = 1`: queues can form), the
//! measured peak is at most 1.5 times the estimate, and the estimate at most
//! [`MAX_OVER`] times the peak (it is not wildly high either).

use std::path::Path;

use peak_alloc::PeakAlloc;

use overlap_ring::driver::config::{Config, ConfigText, estimated_bytes, run};

/// Counts the bytes allocated now and the most allocated at once since the last reset (a
/// reallocation counts the old and the new block: an upper bound on the system's peak).
#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// The estimate may exceed the measured peak by at most this factor.
const MAX_OVER: f64 = 4.0;

/// One config per plan kind, sized so that the per-column state dominates the heap.
const CASES: [(&str, &str); 8] = [
    (
        "naive",
        "algorithm = \"naive\"\nn = 131072\n[delays]\nlaw = \"pareto\"\nalpha = 1.2\ncap = 131072",
    ),
    (
        "overlap",
        "algorithm = \"overlap\"\nn = 131072\n[delays]\nlaw = \"pareto\"\nalpha = 1.2\ncap = 131072",
    ),
    (
        "overlap, event engine",
        "algorithm = \"overlap\"\nn = 65536\nbandwidth = 1\n[delays]\nlaw = \"pareto\"\nalpha = 1.2\ncap = 65536",
    ),
    ("trapezoid", "algorithm = \"trapezoid\"\nn = 16384\n[delays]\nlaw = \"uniform\"\nd = 100"),
    // Long phases: r = 128 rows on 384 held columns per processor, the windows (50 MB) far
    // above the columns (4 MB).
    (
        "trapezoid, long phases",
        "algorithm = \"trapezoid\"\nn = 64\n[delays]\nlaw = \"uniform\"\nd = 16384",
    ),
    (
        "composite",
        "algorithm = \"composite\"\nn = 131072\n[delays]\nlaw = \"pareto\"\nalpha = 1.2\ncap = 131072",
    ),
    (
        "array2d",
        "algorithm = \"array2d\"\nguest = \"grid\"\nn = 64\ncols = 256\n[delays]\nlaw = \"uniform\"\nd = 4",
    ),
    ("two_copy", "algorithm = \"two_copy\"\nhost = \"h2\"\nn = 65536"),
];

#[test]
fn estimates_cover_the_measured_peak() {
    let mut lines = Vec::new();
    let mut failed = false;
    for (name, body) in CASES {
        let program = if name == "array2d" { "grid_mix" } else { "mix" };
        let text = format!("steps = 6\nprogram = \"{program}\"\n{body}\n");
        let file = netcore::study::ConfigFile::new(&text, Path::new("."));
        let config = Config::try_from(file.parse::<ConfigText>().unwrap()).unwrap();
        let estimate = estimated_bytes(&config).unwrap() as f64;
        let base = ALLOCATOR.current_usage();
        ALLOCATOR.reset_peak_usage();
        let report = run(&config).unwrap();
        assert!(report.run.verified, "{name}");
        drop(report);
        let peak = (ALLOCATOR.peak_usage() - base) as f64;
        let ok = peak <= 1.5 * estimate && estimate <= MAX_OVER * peak;
        failed |= !ok;
        lines.push(format!(
            "{name}: estimate {:.1} MiB, peak {:.1} MiB, peak / estimate {:.2}{}",
            estimate / 1048576.0,
            peak / 1048576.0,
            peak / estimate,
            if ok { "" } else { "  <-- out of [1/4, 1.5]" }
        ));
    }
    let table = lines.join("\n");
    println!("{table}");
    assert!(!failed, "{table}");
}
