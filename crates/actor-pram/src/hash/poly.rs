//! The polynomials of placement and ranks, and a published placement polynomial (Choice 21 of `docs/models/actor-pram.md`): the
//! `[butterfly] hash = { fixed = { degree, modulus, coefficients } }` of a run config, so a
//! run's placement can be fixed and reproduced without the seed (Section 5, proof of
//! Theorem 2: the placement is one member of a universal family \[MV84\]; here the member is
//! given instead of drawn).
//!
//! [`FixedPoly::new`] is the only way to build one (the config is read through it), so every
//! value satisfies: `1 <= degree <= 63` (the `k = degree + 1` coefficients of `poly-k`),
//! `modulus` a prime `>= 2^32` (every address, a `u32`, is its own field element, whatever the
//! program's memory size), `degree + 1` coefficients, each `< modulus`.

use netcore::rng::SimRng;
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::P61;
use crate::error::Error;

/// The least modulus: every address is a `u32`, so `2^32` distinct field elements suffice.
pub const MIN_MODULUS: u64 = 1 << 32;

/// A validated placement polynomial `h(a) = ((Σ_j c_j a^j) mod modulus) mod N`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawFixedPoly")]
pub struct FixedPoly {
    degree: u32,
    modulus: u64,
    coefficients: Vec<u64>,
}

/// The table as written, before [`FixedPoly::new`] checks it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFixedPoly {
    degree: u32,
    modulus: u64,
    coefficients: Vec<u64>,
}

impl TryFrom<RawFixedPoly> for FixedPoly {
    type Error = Error;
    fn try_from(raw: RawFixedPoly) -> Result<Self, Error> {
        FixedPoly::new(raw.degree, raw.modulus, raw.coefficients)
    }
}

fn invalid(field: &'static str, rule: &'static str, got: String) -> Error {
    Error::InvalidConfig { field, rule, got }
}

impl FixedPoly {
    /// Checks and builds a placement polynomial; `coefficients[j]` multiplies `a^j`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidConfig`] naming the field (`butterfly.hash.fixed.degree`, `.modulus`
    /// or `.coefficients`), the rule and the value, for a degree outside `1..=63`, a modulus
    /// below `2^32` or not prime, a coefficient count other than `degree + 1`, or a
    /// coefficient `>= modulus`.
    pub fn new(degree: u32, modulus: u64, coefficients: Vec<u64>) -> Result<Self, Error> {
        if !(1..=63).contains(&degree) {
            return Err(invalid(
                "butterfly.hash.fixed.degree",
                "1 <= degree <= 63",
                degree.to_string(),
            ));
        }
        if modulus < MIN_MODULUS {
            return Err(invalid(
                "butterfly.hash.fixed.modulus",
                "modulus >= 2^32 (every u32 address its own field element)",
                modulus.to_string(),
            ));
        }
        if !is_prime(modulus) {
            return Err(invalid("butterfly.hash.fixed.modulus", "a prime", modulus.to_string()));
        }
        if coefficients.len() as u64 != u64::from(degree) + 1 {
            return Err(invalid(
                "butterfly.hash.fixed.coefficients",
                "degree + 1 coefficients",
                format!("{} for degree {degree}", coefficients.len()),
            ));
        }
        if let Some((j, c)) = coefficients.iter().enumerate().find(|&(_, &c)| c >= modulus) {
            return Err(invalid(
                "butterfly.hash.fixed.coefficients",
                "every coefficient < modulus",
                format!("coefficients[{j}] = {c} for modulus {modulus}"),
            ));
        }
        Ok(Self { degree, modulus, coefficients })
    }

    /// `k` coefficients over `P = 2^61 − 1`, drawn by rejection (`v = next_u64() >> 3`, kept
    /// if `v < P`); the caller keeps `2 <= k <= 64`.
    pub(super) fn draw(k: u32, rng: &mut SimRng) -> Self {
        let coefficients = (0..k)
            .map(|_| {
                loop {
                    let v = rng.next_u64() >> 3;
                    if v < P61 {
                        break v;
                    }
                }
            })
            .collect();
        Self { degree: k.saturating_sub(1), modulus: P61, coefficients }
    }

    /// The value at `x` modulo `m >= 1`: `x` reduced modulo the field's prime, Horner's rule
    /// in `u128` (every `acc · x + c` with `acc, x, c` below a `u64` prime fits).
    pub(super) fn eval(&self, x: u64, m: u64) -> u128 {
        let p = u128::from(self.modulus);
        let x = u128::from(x) % p;
        let v = self.coefficients.iter().rev().fold(0u128, |acc, &a| (acc * x + u128::from(a)) % p);
        v % u128::from(m)
    }

    /// The degree (`coefficients().len() - 1`).
    pub fn degree(&self) -> u32 {
        self.degree
    }

    /// The prime modulus.
    pub fn modulus(&self) -> u64 {
        self.modulus
    }

    /// The coefficients, `c_0` first.
    pub fn coefficients(&self) -> &[u64] {
        &self.coefficients
    }
}

/// `a · b mod m` in `u128`.
fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    // The remainder is below m, a u64.
    u64::try_from(u128::from(a) * u128::from(b) % u128::from(m)).unwrap_or(u64::MAX)
}

fn pow_mod(mut base: u64, mut exp: u64, m: u64) -> u64 {
    let mut acc = 1 % m;
    base %= m;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul_mod(acc, base, m);
        }
        base = mul_mod(base, base, m);
        exp >>= 1;
    }
    acc
}

/// Miller–Rabin with the first twelve primes as bases, deterministic for every `u64`.
pub(crate) fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    if let Some(&p) = BASES.iter().find(|&&p| n.is_multiple_of(p)) {
        return n == p;
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    BASES.iter().all(|&a| {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            return true;
        }
        (1..s).any(|_| {
            x = mul_mod(x, x, n);
            x == n - 1
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn trial_division(n: u64) -> bool {
        n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d))
    }

    proptest! {
        #[test]
        fn miller_rabin_equals_trial_division(n in 0u64..200_000) {
            prop_assert_eq!(is_prime(n), trial_division(n));
        }
    }

    /// Known values: `2^61 − 1` and `2^32 + 15` are prime; `2^32 + 1 = 641 · 6700417`, the
    /// Carmichael number `3215031751 = 151 · 751 · 28351` (a strong pseudoprime to bases 2,
    /// 3, 5, 7) and `(2^31 − 1)^2` are not.
    #[test]
    fn known_primes_and_composites() {
        assert!(is_prime(P61));
        assert!(is_prime(MIN_MODULUS + 15));
        assert!(!is_prime(MIN_MODULUS + 1));
        assert!(!is_prime(3_215_031_751));
        assert!(!is_prime(((1u64 << 31) - 1) * ((1 << 31) - 1)));
    }

    fn rule(e: Error) -> (&'static str, &'static str, String) {
        match e {
            Error::InvalidConfig { field, rule, got } => (field, rule, got),
            other => panic!("not a config error: {other}"),
        }
    }

    #[test]
    fn each_rule_names_field_rule_and_value() {
        let degree = |d| rule(FixedPoly::new(d, P61, vec![1; 2]).unwrap_err());
        assert_eq!(degree(0), ("butterfly.hash.fixed.degree", "1 <= degree <= 63", "0".into()));
        assert_eq!(degree(64).2, "64");
        let small = rule(FixedPoly::new(1, 4_294_967_291, vec![1, 2]).unwrap_err());
        assert_eq!(small.0, "butterfly.hash.fixed.modulus");
        assert_eq!(small.2, "4294967291"); // 2^32 − 5, prime but below 2^32
        let composite = rule(FixedPoly::new(1, MIN_MODULUS + 1, vec![1, 2]).unwrap_err());
        assert_eq!(composite, ("butterfly.hash.fixed.modulus", "a prime", "4294967297".into()));
        let count = rule(FixedPoly::new(2, P61, vec![1, 2]).unwrap_err());
        assert_eq!(
            count,
            (
                "butterfly.hash.fixed.coefficients",
                "degree + 1 coefficients",
                "2 for degree 2".into()
            )
        );
        let big = rule(FixedPoly::new(1, P61, vec![3, P61]).unwrap_err());
        assert_eq!(big.1, "every coefficient < modulus");
        assert_eq!(big.2, format!("coefficients[1] = {P61} for modulus {P61}"));
        let ok = FixedPoly::new(2, P61, vec![3, 5, P61 - 1]).expect("valid");
        assert_eq!((ok.degree(), ok.modulus(), ok.coefficients()), (2, P61, &[3, 5, P61 - 1][..]));
    }

    /// The config path reaches the same check: serde refuses the table with its message.
    #[test]
    fn deserializing_checks() {
        let e =
            toml::from_str::<FixedPoly>("degree = 1\nmodulus = 4294967297\ncoefficients = [1, 2]")
                .unwrap_err()
                .to_string();
        assert!(
            e.contains("butterfly.hash.fixed.modulus must satisfy a prime (got 4294967297)"),
            "{e}"
        );
        let e =
            toml::from_str::<FixedPoly>("degree = 1\nmodulus = 7\ncoefficients = [1, 2]\nk = 3")
                .unwrap_err()
                .to_string();
        assert!(e.contains("unknown field"), "{e}");
    }
}
