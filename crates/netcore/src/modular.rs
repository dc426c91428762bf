//! Modular arithmetic shared by the number-theoretic programs: the NTT of the PRAM library,
//! hpram's FFT and the finite projective plane of dbsp-hmos's Polarity graph.

/// `x^e mod q` by binary exponentiation, with 128-bit products, so any `q < 2^64` works;
/// `q = 1` gives 0.
pub fn pow_mod(x: u64, mut e: u64, q: u64) -> u64 {
    let q128 = u128::from(q);
    let mut base = u128::from(x) % q128;
    let mut acc = 1 % q128;
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * base % q128;
        }
        base = base * base % q128;
        e >>= 1;
    }
    // acc < q <= u64::MAX.
    u64::try_from(acc).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::pow_mod;

    #[test]
    fn small_and_large_moduli() {
        assert_eq!(pow_mod(3, 4, 7), 4); // 81 = 11 * 7 + 4
        assert_eq!(pow_mod(2, 10, 1), 0);
        assert_eq!(pow_mod(5, 0, 13), 1);
        // Fermat: a^(p-1) = 1 mod p for the NTT prime and for a prime near 2^64.
        assert_eq!(pow_mod(3, 998_244_352, 998_244_353), 1);
        assert_eq!(pow_mod(2, 18_446_744_073_709_551_556, 18_446_744_073_709_551_557), 1);
    }
}
