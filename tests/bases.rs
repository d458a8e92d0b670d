#![cfg(not(target_arch = "wasm32"))]
//! The seven basis families of `rvm_lab::basis` against numbers worked out by
//! hand, and against properties that hold in closed form.
//!
//! Where the reference numbers come from:
//! - values of each family: arithmetic written out in the comment beside each assertion
//!   (σ(0) = ½, σ(ln 3) = ¾; e^(−z²/2) at whole z; cos/sin at multiples of π/6 and π/4;
//!   B-spline values from the Cox–de Boor recursion by hand and the Bernstein form
//!   C(p, i)uⁱ(1 − u)ᵖ⁻ⁱ when there are no interior knots; ψ(0) = 1, ψ(1) = 0,
//!   ψ(u) = (1 − u²)e^(−u²/2) at whole u), never from the code under test;
//! - B-splines: non-negative and summing to 1 on the closed domain (de Boor, *A Practical
//!   Guide to Splines*, ch. IX), checked with proptest;
//! - Fourier: on N equally spaced points over one period, Σ cos²(2πkxₙ/P) = Σ sin² = N/2
//!   and every cross sum is 0 for 0 < k, 2k < N (the discrete orthogonality of the roots of
//!   unity); with the bias, Σ 1 = N;
//! - the kernel basis: N (+1) columns, centred on the training inputs as given;
//! - errors: the typed variants and messages the docs promise, for inputs built to trigger them;
//! - a typed formula (`Family::Formula`): the formula of a built-in family (Gaussian, sigmoid
//!   written two ways, polynomial) reproduces that family's Φ to 1e-12 on three domains, one
//!   in other units; values by hand; formulas that do not vary or have no finite value.

use nalgebra::DMatrix;
use proptest::prelude::*;
use rvm_lab::Error;
use rvm_lab::basis::{Basis, BasisSpec, Family, MAX_BASIS_FUNCTIONS, mexican_hat};
use rvm_lab::error::{Bound, Cause, Fault};

/// Asserts every entry of `got` within `tol` of `want`.
fn assert_all_close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (j, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tol, "{what}: φ[{j}] = {g}, want {w}\n got {got:?}\nwant {want:?}");
    }
}

fn spec(family: Family, m: usize, width: f64, degree: usize, bias: bool) -> BasisSpec {
    BasisSpec { family, m, width, degree, bias, ..BasisSpec::default() }
}

fn build(spec: &BasisSpec, domain: (f64, f64)) -> Basis {
    Basis::from_spec(spec, domain, &[]).unwrap()
}

fn features(basis: &Basis, x: f64) -> Vec<f64> {
    basis.features(x).iter().copied().collect()
}

// ---------------------------------------------------------------------------------------
// Each family by hand.
// ---------------------------------------------------------------------------------------

#[test]
fn polynomial_is_raw_powers_whatever_the_domain() {
    // 1, x, x² at x = 2 → 1, 2, 4; without the bias x, x², x³ at x = −3 → −3, 9, −27.
    let b = build(&spec(Family::Polynomial, 3, 0.1, 0, true), (5.0, 6.0));
    assert_eq!(features(&b, 2.0), [1.0, 2.0, 4.0]);
    let b = build(&spec(Family::Polynomial, 3, 0.1, 0, false), (5.0, 6.0));
    assert_eq!(features(&b, -3.0), [-3.0, 9.0, -27.0]);
}

#[test]
fn gaussian_centres_are_evenly_spaced_with_the_ends() {
    // M = 4 with the bias on [0, 1]: centres 0, ½, 1; s = ¼. At x = ¼ the z = (x − μ)/s are
    // 1, −1, −3, so φ = (1, e^(−½), e^(−½), e^(−9/2)).
    let b = build(&spec(Family::Gaussian, 4, 0.25, 0, true), (0.0, 1.0));
    assert_eq!(b.centres().unwrap(), [0.0, 0.5, 1.0]);
    let (e1, e9) = ((-0.5_f64).exp(), (-4.5_f64).exp());
    assert_all_close(&features(&b, 0.25), &[1.0, e1, e1, e9], 1e-16, "Gaussian at ¼");
    // One Gaussian (M = 2 with the bias) sits in the middle.
    assert_eq!(build(&spec(Family::Gaussian, 2, 0.25, 0, true), (-1.0, 3.0)).centres().unwrap(), [1.0]);
}

#[test]
fn sigmoid_by_hand() {
    // Domain [0, 2 ln 3], M = 3 without the bias: centres 0, ln 3, 2 ln 3; s = 1. At x = ln 3:
    // σ(ln 3) = 1/(1 + 1/3) = ¾, σ(0) = ½, σ(−ln 3) = 1/(1 + 3) = ¼.
    let ln3 = 3.0_f64.ln();
    let b = build(&spec(Family::Sigmoid, 3, 1.0, 0, false), (0.0, 2.0 * ln3));
    assert_all_close(b.centres().unwrap(), &[0.0, ln3, 2.0 * ln3], 1e-15, "centres");
    assert_all_close(&features(&b, ln3), &[0.75, 0.5, 0.25], 1e-15, "σ at ln 3");
    // s = 2 halves the slope: at x = 2 ln 3 the arguments are (2 ln 3 − μ)/2 = ln 3, ln 3/2, 0.
    let b = build(&spec(Family::Sigmoid, 4, 2.0, 0, true), (0.0, 2.0 * ln3));
    // σ(ln 3 / 2) = 1/(1 + 1/√3) = √3/(√3 + 1).
    let r3 = 3.0_f64.sqrt();
    assert_all_close(&features(&b, 2.0 * ln3), &[1.0, 0.75, r3 / (r3 + 1.0), 0.5], 1e-15, "s = 2");
}

#[test]
fn fourier_is_cos_sin_pairs_in_order() {
    // Domain [−1, 1], P = 2: columns 1, cos πx, sin πx, cos 2πx, sin 2πx, cos 3πx (M = 6).
    let b = build(&spec(Family::Fourier, 6, 0.1, 0, true), (-1.0, 1.0));
    // x = ½: cos π/2 = 0, sin π/2 = 1, cos π = −1, sin π = 0, cos 3π/2 = 0.
    assert_all_close(&features(&b, 0.5), &[1.0, 0.0, 1.0, -1.0, 0.0, 0.0], 1e-15, "x = ½");
    // x = ⅓: cos π/3 = ½, sin π/3 = √3/2, cos 2π/3 = −½, sin 2π/3 = √3/2, cos π = −1.
    let h = 0.5 * 3.0_f64.sqrt();
    assert_all_close(&features(&b, 1.0 / 3.0), &[1.0, 0.5, h, -0.5, h, -1.0], 1e-15, "x = ⅓");
    // Without the bias and P = 4 (domain [3, 7]), M = 3 at x = ½: angles kπ/4 → √2/2, √2/2, 0.
    let b = build(&spec(Family::Fourier, 3, 0.1, 0, false), (3.0, 7.0));
    let r = 0.5 * 2.0_f64.sqrt();
    assert_all_close(&features(&b, 0.5), &[r, r, 0.0], 1e-15, "P = 4");
}

#[test]
fn bspline_by_hand() {
    // Degree 1, M = 4 with the bias on [0, 1]: three hats on knots 0, 0, ½, 1, 1:
    // B₀ = 1 − 2x, B₁ = 2x then 2 − 2x, B₂ = 2x − 1.
    let b = build(&spec(Family::BSpline, 4, 0.1, 1, true), (0.0, 1.0));
    assert_all_close(&features(&b, 0.25), &[1.0, 0.5, 0.5, 0.0], 1e-15, "p = 1 at ¼");
    assert_all_close(&features(&b, 0.75), &[1.0, 0.0, 0.5, 0.5], 1e-15, "p = 1 at ¾");
    assert_all_close(&features(&b, 1.0), &[1.0, 0.0, 0.0, 1.0], 1e-15, "p = 1 at 1");
    // Degree 2, K = 4 on [0, 2]: knots 0, 0, 0, 1, 2, 2, 2. At the knots: x = 0 → (1, 0, 0, 0);
    // x = 1: B₁,₂ = ((2 − 1)/(2 − 0))·B₂,₁(1) = ½·1, B₂,₂ = ((1 − 0)/(2 − 0))·1 = ½;
    // x = 2 → (0, 0, 0, 1).
    let b = build(&spec(Family::BSpline, 4, 0.1, 2, false), (0.0, 2.0));
    assert_all_close(&features(&b, 0.0), &[1.0, 0.0, 0.0, 0.0], 1e-15, "p = 2 at 0");
    assert_all_close(&features(&b, 1.0), &[0.0, 0.5, 0.5, 0.0], 1e-15, "p = 2 at 1");
    assert_all_close(&features(&b, 2.0), &[0.0, 0.0, 0.0, 1.0], 1e-15, "p = 2 at 2");
    // Degree 3 with K = 4 has no interior knots: Bernstein C(3, i)uⁱ(1 − u)³⁻ⁱ, u = (x − lo)/P.
    // On [−2, 2] at x = 1, u = ¾: (1, 9, 27, 27)/64.
    let b = build(&spec(Family::BSpline, 4, 0.1, 3, false), (-2.0, 2.0));
    assert_all_close(&features(&b, 1.0), &[1.0 / 64.0, 9.0 / 64.0, 27.0 / 64.0, 27.0 / 64.0], 1e-15, "Bernstein");
    // Degree 0, K = 2 on [0, 1]: indicators of [0, ½) and [½, 1].
    let b = build(&spec(Family::BSpline, 2, 0.1, 0, false), (0.0, 1.0));
    assert_eq!(
        (features(&b, 0.49), features(&b, 0.5), features(&b, 1.0)),
        (vec![1.0, 0.0], vec![0.0, 1.0], vec![0.0, 1.0])
    );
    // Outside the domain every B-spline is 0 (only the bias remains).
    let b = build(&spec(Family::BSpline, 6, 0.1, 3, true), (0.0, 1.0));
    assert_eq!(features(&b, 1.5), [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn wavelet_layout_by_hand() {
    // Domain [0, 4], s = 1, M = 5 with the bias: hats (c, a) = (2, 1), (1, ½), (3, ½), (½, ¼).
    let b = build(&spec(Family::Wavelet, 5, 1.0, 0, true), (0.0, 4.0));
    // x = 2: u = 0, 2, −2, 6: ψ(0) = 1, ψ(±2) = (1 − 4)e⁻² = −3e⁻², ψ(6) = −35e⁻¹⁸.
    let (m3, m35) = (-3.0 * (-2.0_f64).exp(), -35.0 * (-18.0_f64).exp());
    assert_all_close(&features(&b, 2.0), &[1.0, 1.0, m3, m3, m35], 1e-15, "x = 2");
    // x = 3: u = 1, 4, 0, 10: ψ(1) = 0, ψ(4) = −15e⁻⁸, ψ(0) = 1, ψ(10) = −99e⁻⁵⁰.
    let (m15, m99) = (-15.0 * (-8.0_f64).exp(), -99.0 * (-50.0_f64).exp());
    assert_all_close(&features(&b, 3.0), &[1.0, 0.0, m15, 1.0, m99], 1e-15, "x = 3");
    // x = 2 + √3 (level 0 only, no bias): ψ(√3) = (1 − 3)e^(−3/2) = −2e^(−3/2), the minimum.
    let b = build(&spec(Family::Wavelet, 1, 1.0, 0, false), (0.0, 4.0));
    assert_all_close(&features(&b, 2.0 + 3.0_f64.sqrt()), &[-2.0 * (-1.5_f64).exp()], 1e-15, "ψ(√3)");
    assert_eq!(mexican_hat(0.0), 1.0);
}

#[test]
fn kernel_has_one_column_per_training_input() {
    let x = [0.1, 0.5, 0.9];
    // M is not free: 50 is ignored, M = N + 1 = 4.
    let b = Basis::from_spec(&spec(Family::Kernel, 50, 0.2, 0, true), (0.0, 1.0), &x).unwrap();
    assert_eq!(b.len(), 4);
    assert_eq!(b.centres().unwrap(), x);
    // At 0.5 the z = (0.5 − xₙ)/0.2 are 2, 0, −2: (1, e⁻², 1, e⁻²).
    let e2 = (-2.0_f64).exp();
    assert_all_close(&features(&b, 0.5), &[1.0, e2, 1.0, e2], 1e-15, "kernel at 0.5");
    let b = Basis::from_spec(&spec(Family::Kernel, 1, 0.2, 0, false), (0.0, 1.0), &x).unwrap();
    assert_eq!(b.len(), 3);
    let phi = b.design_matrix(&x).unwrap();
    assert_eq!((phi.nrows(), phi.ncols()), (3, 3));
    // Φ is the Gram matrix: 1 on the diagonal, e^(−(0.4/0.2)²/2) = e⁻² next to it, e⁻⁸ in
    // the corners.
    let e8 = (-8.0_f64).exp();
    let want = DMatrix::from_row_slice(3, 3, &[1.0, e2, e8, e2, 1.0, e2, e8, e2, 1.0]);
    assert!((phi - want).abs().max() < 1e-15);
}

// ---------------------------------------------------------------------------------------
// Properties.
// ---------------------------------------------------------------------------------------

proptest! {
    #[test]
    fn bsplines_are_a_nonnegative_partition_of_unity_on_the_closed_domain(
        degree in 0usize..=5,
        extra in 0usize..40,
        lo in -10.0f64..10.0,
        length in 0.01f64..20.0,
        fractions in prop::collection::vec(0.0f64..=1.0, 1..20),
    ) {
        let hi = lo + length;
        let b = build(&spec(Family::BSpline, degree + 1 + extra, 0.1, degree, false), (lo, hi));
        let xs = fractions.iter().map(|t| (lo + t * (hi - lo)).min(hi)).chain([lo, hi]);
        for x in xs {
            let f = features(&b, x);
            prop_assert!(f.iter().all(|&v| v >= 0.0), "negative B-spline at x = {}: {:?}", x, f);
            let sum: f64 = f.iter().sum();
            prop_assert!((sum - 1.0).abs() < 1e-12, "Σ B = {} at x = {} (domain [{}, {}])", sum, x, lo, hi);
        }
        // At the end points only the first / last function is non-zero, and it is 1.
        let (first, last) = (features(&b, lo), features(&b, hi));
        prop_assert!((first[0] - 1.0).abs() < 1e-12 && (last[last.len() - 1] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn fourier_columns_are_orthogonal_over_one_period(
        n in 8usize..64,
        k_share in 0.0f64..1.0,
        lo in -10.0f64..10.0,
        period in 0.5f64..20.0,
        bias in any::<bool>(),
    ) {
        // K functions reach frequency ⌈K/2⌉, which must stay below N/2.
        let k_max = (n - 1) / 2;
        let count = 1 + ((2 * k_max - 1) as f64 * k_share) as usize;
        let m = count + usize::from(bias);
        let b = build(&spec(Family::Fourier, m, 0.1, 0, bias), (lo, lo + period));
        let grid: Vec<f64> = (0..n).map(|i| lo + period * i as f64 / n as f64).collect();
        let phi = b.design_matrix(&grid).unwrap();
        let gram = phi.transpose() * &phi;
        for i in 0..m {
            for j in 0..m {
                // Σ 1 = N for the bias, Σ cos² = Σ sin² = N/2, cross sums 0.
                let want = match (i == j, bias && i == 0) {
                    (false, _) => 0.0,
                    (true, true) => n as f64,
                    (true, false) => n as f64 / 2.0,
                };
                prop_assert!((gram[(i, j)] - want).abs() < 1e-9, "(ΦᵀΦ)[{}, {}] = {}, want {}", i, j, gram[(i, j)], want);
            }
        }
    }

    #[test]
    fn design_matrix_rows_are_the_features(
        family in prop::sample::select(Family::ALL.to_vec()),
        m in 1usize..=30,
        width in 0.01f64..3.0,
        degree in 0usize..=5,
        bias in any::<bool>(),
        xs in prop::collection::vec(-3.0f64..3.0, 1..25),
    ) {
        let m = if family == Family::BSpline { m.max(degree + 1 + usize::from(bias)) } else { m };
        let basis = Basis::from_spec(&spec(family, m, width, degree, bias), (-2.0, 2.0), &xs).unwrap();
        let phi = basis.design_matrix(&xs).unwrap();
        prop_assert_eq!(phi.shape(), (xs.len(), basis.len()));
        for (n, &x) in xs.iter().enumerate() {
            let row: Vec<f64> = phi.row(n).iter().copied().collect();
            prop_assert_eq!(row, features(&basis, x));
        }
    }
}

#[test]
fn with_centre_moves_exactly_one_centre() {
    let training = [0.1, 0.4, 0.7, 0.9];
    for family in [Family::Gaussian, Family::Sigmoid, Family::Kernel] {
        let basis = Basis::from_spec(&spec(family, 5, 0.2, 0, true), (0.0, 1.0), &training).unwrap();
        let before = basis.centres().unwrap().to_vec();
        let moved = basis.with_centre(2, 0.55).unwrap();
        let after = moved.centres().unwrap();
        assert_eq!(after.len(), before.len(), "{family:?}");
        for (j, (a, b)) in after.iter().zip(&before).enumerate() {
            if j == 2 {
                assert_eq!(*a, 0.55, "{family:?}");
            } else {
                assert_eq!(a, b, "{family:?}: centre {j} moved");
            }
        }
        // Only column 1 + 2 (after the bias) of φ changes, and it is now centred at 0.55.
        let (old, new) = (features(&basis, 0.3), features(&moved, 0.3));
        for j in 0..old.len() {
            assert_eq!(old[j] == new[j], j != 3, "{family:?}: column {j}");
        }
        let peak = if family == Family::Sigmoid { 0.5 } else { 1.0 };
        assert_eq!(features(&moved, 0.55)[3], peak, "{family:?}");
        assert_eq!(moved.family(), family);
    }
}

#[test]
fn a_tiny_width_never_gives_nan() {
    // s = 1e-9: Gaussians become spikes (1 at the centre, 0 elsewhere), sigmoids steps
    // (0, ½ at the centre, 1), Mexican hats spikes too.
    let grid: Vec<f64> = (0..=1000).map(|i| i as f64 / 1000.0).collect();
    for family in [Family::Gaussian, Family::Sigmoid, Family::Wavelet, Family::Kernel] {
        let basis = Basis::from_spec(&spec(family, 11, 1e-9, 0, false), (0.0, 1.0), &[0.25, 0.5]).unwrap();
        let phi = basis.design_matrix(&grid).unwrap();
        assert!(phi.iter().all(|v| v.is_finite()), "{family:?}");
        for x in [1e300, -1e300] {
            assert!(basis.features(x).iter().all(|v| v.is_finite()), "{family:?} at {x}");
        }
    }
    let gaussian = build(&spec(Family::Gaussian, 3, 1e-9, 0, false), (0.0, 1.0));
    assert_eq!(features(&gaussian, 0.5), [0.0, 1.0, 0.0]);
    let sigmoid = build(&spec(Family::Sigmoid, 3, 1e-9, 0, false), (0.0, 1.0));
    assert_eq!(features(&sigmoid, 0.5), [1.0, 0.5, 0.0]);
    let wavelet = build(&spec(Family::Wavelet, 3, 1e-9, 0, false), (0.0, 1.0));
    assert_eq!(features(&wavelet, 0.75), [0.0, 0.0, 1.0]);
}

// ---------------------------------------------------------------------------------------
// Errors.
// ---------------------------------------------------------------------------------------

fn out_of_range(name: &'static str, value: impl ToString, bound: Bound) -> Error {
    Error::OutOfRange { name, value: value.to_string(), bound }
}

fn not_finite(name: &str, value: &str) -> Error {
    Error::NotFinite { name: name.to_owned(), value: value.to_owned() }
}

#[test]
fn every_bad_input_is_refused_with_its_variant() {
    let m_range = Bound::WholeBetween { min: 1, max: MAX_BASIS_FUNCTIONS as u64 };
    let err = |s: &BasisSpec, domain: (f64, f64), x: &[f64]| Basis::from_spec(s, domain, x).unwrap_err();
    let unit = (0.0, 1.0);
    for family in Family::ALL.into_iter().filter(|f| f.count_is_free()) {
        let degree = 0;
        for m in [0, MAX_BASIS_FUNCTIONS + 1] {
            assert_eq!(
                err(&spec(family, m, 0.1, degree, true), unit, &[]),
                out_of_range("M", m, m_range),
                "{family:?}"
            );
        }
        assert!(Basis::from_spec(&spec(family, MAX_BASIS_FUNCTIONS, 0.1, degree, true), unit, &[]).is_ok());
    }
    for family in Family::ALL.into_iter().filter(|f| f.uses_width()) {
        let x = [0.5];
        assert_eq!(err(&spec(family, 3, 0.0, 0, true), unit, &x), out_of_range("s", 0, Bound::Positive));
        assert_eq!(err(&spec(family, 3, -1.0, 0, true), unit, &x), out_of_range("s", -1, Bound::Positive));
        assert_eq!(err(&spec(family, 3, f64::NAN, 0, true), unit, &x), not_finite("s", "NaN"));
        assert_eq!(err(&spec(family, 3, f64::INFINITY, 0, true), unit, &x), not_finite("s", "inf"));
    }
    for family in Family::ALL {
        let s = spec(family, 6, 0.1, 2, true);
        assert_eq!(err(&s, (f64::NAN, 1.0), &[0.5]), not_finite("lo", "NaN"), "{family:?}");
        assert_eq!(err(&s, (0.0, f64::NEG_INFINITY), &[0.5]), not_finite("hi", "-inf"), "{family:?}");
        assert_eq!(err(&s, (1.0, 1.0), &[0.5]), out_of_range("hi − lo", 0, Bound::Positive), "{family:?}");
        assert_eq!(err(&s, (1.0, 0.5), &[0.5]), out_of_range("hi − lo", -0.5, Bound::Positive), "{family:?}");
        let basis = Basis::from_spec(&s, unit, &[0.5]).unwrap();
        assert_eq!(basis.design_matrix(&[0.1, 0.2, f64::NAN]).unwrap_err(), not_finite("x[2]", "NaN"));
    }
    // B-splines: degree above 5; fewer than p + 1 functions besides the bias.
    let degrees = Bound::WholeBetween { min: 0, max: 5 };
    assert_eq!(err(&spec(Family::BSpline, 20, 0.1, 6, true), unit, &[]), out_of_range("degree", 6, degrees));
    let at_least = |min| Bound::WholeBetween { min, max: MAX_BASIS_FUNCTIONS as u64 };
    assert_eq!(err(&spec(Family::BSpline, 4, 0.1, 3, true), unit, &[]), out_of_range("M", 4, at_least(5)));
    assert_eq!(err(&spec(Family::BSpline, 5, 0.1, 5, false), unit, &[]), out_of_range("M", 5, at_least(6)));
    assert_eq!(err(&spec(Family::BSpline, 1, 0.1, 0, true), unit, &[]), out_of_range("M", 1, at_least(2)));
    assert_eq!(Basis::from_spec(&spec(Family::BSpline, 5, 0.1, 3, true), unit, &[]).unwrap().len(), 5);
    // Kernel: at most MAX_BASIS_FUNCTIONS columns with the bias; inputs present and finite.
    let kernel = |bias| spec(Family::Kernel, 1, 0.1, 0, bias);
    let many = vec![0.5; MAX_BASIS_FUNCTIONS];
    assert_eq!(err(&kernel(true), unit, &many), out_of_range("M", MAX_BASIS_FUNCTIONS + 1, m_range));
    assert_eq!(Basis::from_spec(&kernel(false), unit, &many).unwrap().len(), MAX_BASIS_FUNCTIONS);
    assert_eq!(Basis::from_spec(&kernel(true), unit, &many[1..]).unwrap().len(), MAX_BASIS_FUNCTIONS);
    assert_eq!(err(&kernel(true), unit, &[0.5; 250]).to_string(), "M must be a whole number from 1 to 200, but is 251");
    assert_eq!(err(&kernel(true), unit, &[]), Error::NoData);
    assert_eq!(err(&kernel(true), unit, &[0.1, f64::INFINITY]), not_finite("x[1]", "inf"));
    assert_eq!(Basis::spread(Family::Kernel, 5, 0.1, true, unit).unwrap_err(), Error::NoData);
    // with_centre: no centres, past the last centre, a non-finite centre.
    let fourier = build(&spec(Family::Fourier, 4, 0.1, 0, true), unit);
    assert_eq!(fourier.centres(), None);
    assert_eq!(fourier.with_centre(0, 0.5).unwrap_err(), Error::UnknownParameter { key: "μ[0]".into() });
    let gaussian = build(&spec(Family::Gaussian, 4, 0.1, 0, true), unit);
    assert_eq!(gaussian.with_centre(3, 0.5).unwrap_err(), out_of_range("j", 3, Bound::WholeBetween { min: 0, max: 2 }));
    assert_eq!(gaussian.with_centre(0, f64::NAN).unwrap_err(), not_finite("μ", "NaN"));
}

// ---------------------------------------------------------------------------------------
// A typed formula as a family: against the built-in families it spells out, and its
// errors.
// ---------------------------------------------------------------------------------------

fn formula(text: &str, m: usize, width: f64, bias: bool) -> BasisSpec {
    BasisSpec { formula: text.into(), ..spec(Family::Formula, m, width, 0, bias) }
}

/// Asserts Φ of `got` and `want` agree entry by entry to `tol` relative to the entry (or
/// absolutely below 1).
fn assert_designs_close(got: &DMatrix<f64>, want: &DMatrix<f64>, tol: f64, what: &str) {
    assert_eq!(got.shape(), want.shape(), "{what}: shape");
    for ((r, c), w) in want.iter().enumerate().map(|(i, w)| ((i % want.nrows(), i / want.nrows()), w)) {
        let g = got[(r, c)];
        assert!((g - w).abs() <= tol * w.abs().max(1.0), "{what}: Φ[{r}, {c}] = {g}, want {w}");
    }
}

#[test]
fn formulas_of_the_built_in_families_reproduce_their_designs() {
    // Three domains, the last in other units (one answer in any units); inputs across each
    // and a tenth beyond either end; several M, s, with and without the bias.
    for (lo, hi) in [(0.0, 1.0), (-2.0, 3.0), (3e6, 5e6)] {
        let p = hi - lo;
        let x: Vec<f64> = (0..=60).map(|i| lo - 0.1 * p + 1.2 * p * f64::from(i) / 60.0).collect();
        for m in [1, 2, 5, 12, 50] {
            for bias in [true, false] {
                for s in [0.04 * p, 0.3 * p] {
                    let cases = [
                        (Family::Gaussian, "exp(-(x - mu)^2/(2*s^2))"),
                        (Family::Sigmoid, "sigmoid((x - mu)/s)"),
                        (Family::Sigmoid, "1/(1 + exp(-(x - mu)/s))"),
                    ];
                    for (family, text) in cases {
                        let what = format!("{text} on [{lo}, {hi}], M = {m}, s = {s}, bias {bias}");
                        let built_in = build(&spec(family, m, s, 0, bias), (lo, hi));
                        let typed = build(&formula(text, m, s, bias), (lo, hi));
                        assert_eq!(typed.centres(), built_in.centres(), "{what}");
                        assert_eq!(typed.len(), m, "{what}");
                        let want = built_in.design_matrix(&x).unwrap();
                        assert_designs_close(&typed.design_matrix(&x).unwrap(), &want, 1e-12, &what);
                    }
                }
                // The powers xʲ, whatever the domain; relative agreement, as x¹² reaches 10⁸⁰
                // (and x⁵⁰ overflows there).
                if m > 12 {
                    continue;
                }
                let what = format!("x^j on [{lo}, {hi}], M = {m}, bias {bias}");
                let polynomial = build(&spec(Family::Polynomial, m, 0.1, 0, bias), (lo, hi));
                let typed = build(&formula("x^j", m, 0.1, bias), (lo, hi));
                let want = polynomial.design_matrix(&x).unwrap();
                assert_designs_close(&typed.design_matrix(&x).unwrap(), &want, 1e-12, &what);
            }
        }
    }
}

#[test]
fn a_formula_basis_by_hand() {
    // M = 4 with the bias on [0, 1]: centres 0, ½, 1, s = ½, K = 3. At x = ½:
    // j·(x − μ)/s + K = (1·1 + 3, 2·0 + 3, 3·(−1) + 3) = (4, 3, 0).
    let basis = build(&formula("j*(x - mu)/s + K", 4, 0.5, true), (0.0, 1.0));
    assert_eq!(basis.family(), Family::Formula);
    assert_eq!(basis.centres().unwrap(), [0.0, 0.5, 1.0]);
    assert_eq!(features(&basis, 0.5), [1.0, 4.0, 3.0, 0.0]);
    assert_eq!(basis.formula().unwrap().to_string(), "j*(x - mu)/s + K");
    assert_eq!(build(&spec(Family::Gaussian, 3, 0.1, 0, true), (0.0, 1.0)).formula(), None);
    // One function (K = 1) needs neither mu nor j; erf at the centre ½ is 0.
    let one = build(&formula("erf((x - mu)/s) + x^0", 1, 0.2, false), (0.0, 1.0));
    assert_eq!(features(&one, 0.5), [1.0]);
    // Dragging a centre moves that function only.
    let moved = basis.with_centre(1, 0.25).unwrap();
    assert_eq!(moved.centres().unwrap(), [0.0, 0.25, 1.0]);
    assert_eq!(features(&moved, 0.5), [1.0, 4.0, 2.0 * 0.25 / 0.5 + 3.0, 0.0]);
    assert_eq!(basis.with_centre(3, 0.5).unwrap_err(), out_of_range("j", 3, Bound::WholeBetween { min: 0, max: 2 }));
    assert_eq!(basis.with_centre(0, f64::INFINITY).unwrap_err(), not_finite("μ", "inf"));
    // A formula without mu has no centres to show or drag.
    let waves = build(&formula("cos(j*pi*x)", 4, 0.5, true), (0.0, 1.0));
    assert_eq!(waves.centres(), None);
    assert_eq!(waves.with_centre(0, 0.3).unwrap_err().code(), "unknown-parameter");
    // spread lays out the default formula, the Gaussian's.
    let spread = Basis::spread(Family::Formula, 5, 0.2, true, (0.0, 1.0)).unwrap();
    let gaussian = Basis::spread(Family::Gaussian, 5, 0.2, true, (0.0, 1.0)).unwrap();
    assert_designs_close(
        &spread.design_matrix(&[0.1, 0.6]).unwrap(),
        &gaussian.design_matrix(&[0.1, 0.6]).unwrap(),
        1e-15,
        "default",
    );
}

#[test]
fn a_formula_whose_functions_do_not_vary_is_refused() {
    let err = |s: &BasisSpec| Basis::from_spec(s, (0.0, 1.0), &[]).unwrap_err().to_string();
    let same = "every function is the same: the formula does not depend on mu or j";
    assert_eq!(err(&formula("exp(-(x - 0.5)^2/(2*s^2))", 5, 0.1, true)), same);
    assert_eq!(err(&formula("x*s*K", 3, 0.1, false)), same);
    let constant = "the formula does not depend on x: every function would be a constant";
    assert_eq!(err(&formula("mu + j", 5, 0.1, true)), constant);
    assert_eq!(err(&formula("exp(1)", 1, 0.1, true)), constant, "even with no function besides the bias");
    let e = Basis::from_spec(&formula("2", 3, 0.1, true), (0.0, 1.0), &[]).unwrap_err();
    assert_eq!((e.code(), e.args()), ("formula-no-x", vec![]));
    // One function, or a formula with mu or j, is fine.
    assert!(Basis::from_spec(&formula("x^2", 2, 0.1, true), (0.0, 1.0), &[]).is_ok());
    assert!(Basis::from_spec(&formula("x^2 + 0*j", 5, 0.1, true), (0.0, 1.0), &[]).is_ok());
    // Text that does not parse, as the spec carries it.
    assert_eq!(err(&formula("", 3, 0.1, true)), "the formula is empty");
    assert_eq!(err(&formula("exp(-(x - mu)^2/(2*sigma^2))", 3, 0.1, true)), {
        "unknown name 'sigma' at character 20 — did you mean s?"
    });
    // The width is checked as for the Gaussian family, even if the formula does not use it.
    assert_eq!(
        Basis::from_spec(&formula("x - mu", 3, 0.0, true), (0.0, 1.0), &[]).unwrap_err(),
        out_of_range("s", 0, Bound::Positive)
    );
}

#[test]
fn a_formula_with_no_finite_value_is_refused_naming_the_function_and_input() {
    // 1/(x − μ) at μ₁ = 0 (M = 9 with the bias on [0, 1]): infinite at x = 0.
    // A typed formula's refusal names the operation that gives no value, and why.
    let fault = |j, x: &str, operation: &str, value: &str, cause| Error::FormulaFault {
        j,
        x: x.into(),
        fault: Box::new(Fault { cause, operation: operation.into(), value: value.into() }),
    };
    let e = Basis::from_spec(&formula("1/(x - mu)", 9, 0.1, true), (0.0, 1.0), &[]).unwrap_err();
    assert_eq!(e, fault(1, "0", "1/0", "inf", Cause::DivisionByZero));
    assert_eq!(e.to_string(), "φ_1(x) has no finite value at x = 0: 1/0 is inf, a division by zero");
    assert_eq!(e.code(), "formula-fault");
    // √(x − μ) for μ₃ = 0.5 of K = 3 on [0, 1]: NaN left of ½, first at x = 0 (j = 2, μ₂ = ½).
    let e = Basis::from_spec(&formula("sqrt(x - mu)", 3, 0.1, false), (0.0, 1.0), &[]).unwrap_err();
    assert_eq!(e, fault(2, "0", "sqrt(-0.5)", "NaN", Cause::RootOfNegative));
    // x^1e9 overflows beyond x = 1: on [0, 2] the first checked point past 1 is 602/600.
    let e = Basis::from_spec(&formula("x^1e9", 1, 0.1, false), (0.0, 2.0), &[]).unwrap_err();
    let past_one = rvm_lab::grid::evenly_spaced(0.0, 2.0, 601)[301];
    assert_eq!(e, fault(1, &past_one.to_string(), &format!("{past_one}^1000000000"), "inf", Cause::Overflow));
    // ln of a negative number, wherever it is in the formula; ∞ − ∞ after two overflows.
    let e = Basis::from_spec(&formula("log(-1) + mu*x", 3, 0.1, false), (0.0, 1.0), &[]).unwrap_err();
    assert_eq!(e, fault(1, "0", "ln(-1)", "NaN", Cause::LogOfNegative));
    let e = Basis::from_spec(&formula("ln(x - mu)", 3, 0.1, false), (0.0, 1.0), &[]).unwrap_err();
    assert_eq!(e, fault(1, "0", "ln(0)", "-inf", Cause::LogOfZero));
    let e = Basis::from_spec(&formula("(x - mu)^0.5", 3, 0.1, false), (0.0, 1.0), &[]).unwrap_err();
    assert_eq!(e, fault(2, "0", "-0.5^0.5", "NaN", Cause::PowerOfNegative));
    let e = Basis::from_spec(&formula("exp(1000*x) - exp(1000*x) + mu", 3, 0.1, false), (0.0, 1.0), &[]).unwrap_err();
    assert!(matches!(&e, Error::FormulaFault { fault, .. } if fault.cause == Cause::Overflow), "{e:?}");
    // On [0, 1] it is finite (0 or 1) where it is checked, and refused in Φ at an input past 1.
    let power = build(&formula("x^1e9", 2, 0.1, true), (0.0, 1.0));
    assert_eq!(power.design_matrix(&[0.5, 1.0]).unwrap().as_slice(), [1.0, 1.0, 0.0, 1.0]);
    let e = power.design_matrix(&[0.5, 3.0]).unwrap_err();
    assert_eq!(e, Error::FunctionNotFinite { j: 1, x: "3".into(), value: "inf".into() });
    // A dragged centre that makes a function infinite at a checked point is refused too.
    let shifted = build(&formula("1/(x - mu + 2)", 4, 0.1, false), (0.0, 1.0));
    assert_eq!(shifted.with_centre(2, 2.5).unwrap_err(), fault(3, "0.5", "1/0", "inf", Cause::DivisionByZero));
    // A built-in family's overflow is named the same way: x⁸ of 10⁵⁰.
    let polynomial = build(&spec(Family::Polynomial, 9, 0.1, 0, true), (0.0, 1.0));
    assert_eq!(polynomial.design_matrix(&[1.0, 1e50]).unwrap_err(), {
        Error::FunctionNotFinite { j: 7, x: "1e50".into(), value: "inf".into() }
    });
}
