use netcore::delay::DelayLaw;
use overlap_ring::guest::{Program, reference};
use overlap_ring::host::{Host, log_n};
fn main() {
    let a: Vec<usize> = std::env::args().skip(1).map(|s| s.parse().unwrap()).collect();
    let (n, t, b) = (a[0], a[1] as u64, a[2]);
    let law = DelayLaw::Pareto { alpha: 1.2, cap: 1000 };
    let host = Host::from_law(n, &law, log_n(n), &mut netcore::rng::seeded(7, 0)).unwrap();
    let (plan, _) =
        overlap_ring::overlap::plan(&host, overlap_ring::overlap::C::new(3, 1).unwrap(), b)
            .unwrap();
    let r = reference(&Program::Mix, plan.n_cols, t).unwrap();
    let s = std::time::Instant::now();
    let run = overlap_ring::engine::simulate(&host, &plan, &Program::Mix, &r).unwrap();
    let e = s.elapsed().as_secs_f64();
    println!(
        "overlap b={b}: {:.2}s {:.1} M pebbles/s host_steps={} verified={} msgs={} units={}",
        e,
        (plan.held_total() as u64 * t) as f64 / e / 1e6,
        run.host_steps,
        run.verified,
        run.messages,
        run.link_units
    );
}
