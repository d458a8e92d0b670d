//! eˣ by Tang's table method, for the N² exponentials of [`super::kernel_design`].
//!
//! # Formula
//!
//! ```text
//! x = (128i + j)·ln2/128 + r,   j ∈ {0, …, 127},   |r| ≤ ln2/256
//! eˣ = 2ⁱ · 2^(j/128) · eʳ,     eʳ ≈ 1 + r + r²/2! + r³/3! + r⁴/4! + r⁵/5!
//! ```
//!
//! where k = 128i + j is x·128/ln2 rounded to the nearest integer, r = x − k·ln2/128 is
//! taken with ln2/128 split into a 32-bit head (so k·head is exact) and a tail, the 128
//! values 2^(j/128) come from `exp2` once per table, and 2ⁱ is put straight into the
//! exponent bits. The Taylor remainder is below r⁶/6! < 5.4·10⁻¹⁹, so the error is that of
//! the table entry and three roundings: under 3 units in the last place against the exact
//! value (the tests measure at most 2 against `f64::exp`).
//!
//! Why: in the browser `f64::exp` is a software routine of about 15 ns; this is a table
//! look-up, a polynomial and three products, three to four times faster there, and the
//! kernel design of N = 2000 takes 2 million exponentials.
//!
//! ## References
//! P. T. P. Tang, "Table-driven implementation of the exponential function in IEEE
//! floating-point arithmetic", ACM Trans. Math. Softw. 15 (2), 144–157, 1989.

/// Entries in the table of 2^(j/N).
const N: usize = 128;
/// N/ln 2.
const INV_LN2_N: f64 = N as f64 / std::f64::consts::LN_2;
/// The head of ln 2 (fdlibm's `ln2_hi`, 0x3fe62e42fee00000: its low 21 bits are zero, so
/// k·head is exact for |k| < 2²¹), over N.
const LN2_N_HEAD: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000) / N as f64;
/// ln 2 − head (fdlibm's `ln2_lo`, 0x3dea39ef35793c76), over N.
const LN2_N_TAIL: f64 = f64::from_bits(0x3dea_39ef_3579_3c76) / N as f64;
/// 1.5·2⁵²: adding and subtracting it rounds a double below 2⁵¹ in size to the nearest
/// integer (ties to even) without a rounding instruction.
const ROUND: f64 = 6_755_399_441_055_744.0;
/// Beyond ±this the result leaves the normal range (or the argument is not finite), and
/// `f64::exp` handles it.
const TABLE_RANGE: f64 = 700.0;

/// The table 2^(j/128), j = 0, …, 127.
#[derive(Debug, Clone)]
pub(crate) struct ExpTable {
    powers: [f64; N],
}

impl ExpTable {
    /// The table, from 128 calls of `exp2`.
    pub(crate) fn new() -> Self {
        Self { powers: std::array::from_fn(|j| (j as f64 / N as f64).exp2()) }
    }

    /// eˣ (see the module's formula); `f64::exp` outside |x| < 700 and for NaN.
    pub(crate) fn exp(&self, x: f64) -> f64 {
        if x.is_nan() || x.abs() >= TABLE_RANGE {
            return x.exp();
        }
        let k = (x * INV_LN2_N + ROUND) - ROUND;
        let r = (x - k * LN2_N_HEAD) - k * LN2_N_TAIL;
        let k = k as i64;
        let (i, j) = (k.div_euclid(N as i64), k.rem_euclid(N as i64) as usize);
        let poly = 1.0 + r * (1.0 + r * (1.0 / 2.0 + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0)))));
        // |x| < 700 keeps i within ±1011, so 1023 + i is a normal exponent.
        let two_i = f64::from_bits(((1023 + i) as u64) << 52);
        self.powers[j] * poly * two_i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// |a − b| in units of the last place of b.
    fn ulps(a: f64, b: f64) -> f64 {
        let ulp = f64::from_bits(b.to_bits() + 1) - b;
        (a - b).abs() / ulp
    }

    #[test]
    fn agrees_with_std_exp_to_two_ulps() {
        let table = ExpTable::new();
        // 400 001 points over [−745, 710] (both fall-back ends included), and a fine
        // sweep over [−1, 1] where the table index turns over most often per unit.
        let wide = (0..=400_000).map(|i| -745.0 + 1455.0 * i as f64 / 400_000.0);
        let near = (0..=100_000).map(|i| -1.0 + 2.0 * i as f64 / 100_000.0);
        let mut worst = 0.0_f64;
        for x in wide.chain(near) {
            let (got, want) = (table.exp(x), x.exp());
            if want > f64::MIN_POSITIVE {
                worst = worst.max(ulps(got, want));
            } else {
                assert_eq!(got, want, "x = {x}");
            }
        }
        assert!(worst <= 2.0, "worst error {worst} ulp");
    }

    #[test]
    fn the_split_of_ln2_is_exact() {
        let (head, tail) = (LN2_N_HEAD * N as f64, LN2_N_TAIL * N as f64);
        assert_eq!(head + tail, std::f64::consts::LN_2);
        assert_eq!(head.to_bits() & ((1 << 21) - 1), 0);
        assert!(tail.abs() < 1e-9);
    }

    #[test]
    fn exact_where_exp_is_exact_and_special_values() {
        let table = ExpTable::new();
        assert_eq!(table.exp(0.0), 1.0);
        assert_eq!(table.exp(-0.0), 1.0);
        assert_eq!(table.exp(f64::NEG_INFINITY), 0.0);
        assert_eq!(table.exp(f64::INFINITY), f64::INFINITY);
        assert!(table.exp(f64::NAN).is_nan());
        // At multiples of ln2/128 the table entry is the whole answer (r ≈ 0).
        for k in [-1280_i32, -129, -1, 1, 128, 640] {
            let x = f64::from(k) * std::f64::consts::LN_2 / 128.0;
            assert!(ulps(table.exp(x), x.exp()) <= 2.0, "k = {k}");
        }
    }
}
