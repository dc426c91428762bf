use overlap_ring::engine::{fast, simulate_event_driven};
use overlap_ring::guest::{Program, reference};
use overlap_ring::host::{Host, log_n};
use overlap_ring::{DelayLaw, overlap::C};
fn main() {
    let k: u32 = std::env::args().nth(1).unwrap().parse().unwrap();
    let n = 1usize << k;
    let law = DelayLaw::Pareto { alpha: 1.2, cap: n as u32 };
    let host = Host::from_law(n, &law, log_n(n), &mut overlap_ring::seeded(0, 0)).unwrap();
    let m = n.min(4096);
    let uni = Host::new(m, vec![100; m - 1], log_n(m)).unwrap();
    for kind in ["composite", "trapezoid"] {
        let (hh, plan) = if kind == "composite" {
            (&host, overlap_ring::trapezoid::composite(&host, C::new(3, 1).unwrap(), 1).unwrap().0)
        } else {
            (&uni, overlap_ring::trapezoid::plan(m, 100).unwrap())
        };
        let r = reference(&Program::Mix, plan.n_cols(), 64).unwrap();
        let t = std::time::Instant::now();
        let a = fast::simulate(hh, &plan, &Program::Mix, &r, 1).unwrap();
        let ta = t.elapsed();
        let t = std::time::Instant::now();
        let b = simulate_event_driven(hh, &plan, &Program::Mix, &r).unwrap();
        let tb = t.elapsed();
        println!("{kind}: fast {ta:?} event {tb:?} equal {} host_steps {} {} verified {}", format!("{a:?}") == format!("{b:?}"), a.host_steps, b.host_steps, a.verified);
    }
}
