//! The network a model's engine sends over: processors at positions `0..n`, directed physical
//! links with integer delays and a bandwidth, and a route between any two positions.
//!
//! overlap-ring runs its plans on two fabrics (OVERLAP paper, Sections 1 and 5): the host
//! linear array, and a host graph seen through a dilation-3 embedding whose messages travel
//! the physical tree edges. Every fabric numbers directed links the same way: undirected link
//! `e` carries directed link `2e` forward (from its first endpoint to its second; rightward on
//! a linear array) and `2e + 1` back ([`directed`], [`directed_delays`]).

use crate::delay::Delay;

/// Processors at positions `0..n` and routes between them over directed physical links.
pub trait Fabric {
    /// Processors (array positions).
    fn n(&self) -> usize;
    /// Bandwidth `B`: units entering one directed link per step.
    fn bandwidth(&self) -> u32;
    /// Delay of every directed physical link, by directed link number.
    fn directed_delays(&self) -> Vec<Delay>;
    /// Appends to `out` the directed links a message takes from position `from` to `to`.
    fn route(&self, from: usize, to: usize, out: &mut Vec<u32>);
}

/// The directed link crossing undirected link `link` forward (`2 link`) or back
/// (`2 link + 1`).
pub fn directed(link: u32, forward: bool) -> u32 {
    2 * link + u32::from(!forward)
}

/// The delays of the directed links: each undirected link's delay, forward then back.
pub fn directed_delays(delays: &[Delay]) -> Vec<Delay> {
    delays.iter().flat_map(|&d| [d, d]).collect()
}

/// The route from `from` to `to` on a linear array whose link `i` joins positions `i` and
/// `i + 1`: the links between them, in travel order, each crossed toward `to`.
pub fn linear_route(from: usize, to: usize, out: &mut Vec<u32>) {
    if to > from {
        out.extend((from..to).map(|i| directed(i as u32, true)));
    } else {
        out.extend((to..from).rev().map(|i| directed(i as u32, false)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a 4-processor array, 3 -> 1 goes left over links 2 then 1 (directed 5, 3) and 0 -> 2
    /// right over links 0 and 1 (directed 0, 2); a route to oneself is empty.
    #[test]
    fn linear_routes_by_hand() {
        let mut out = Vec::new();
        linear_route(3, 1, &mut out);
        linear_route(0, 2, &mut out);
        linear_route(2, 2, &mut out);
        assert_eq!(out, vec![5, 3, 0, 2]);
        assert_eq!(directed_delays(&[4, 7]), vec![4, 4, 7, 7]);
    }
}
