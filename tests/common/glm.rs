//! Independent checks of the RVM for non-Gaussian targets (classes, counts), shared by
//! tests/classification.rs and tests/poisson.rs: the marginal likelihood by quadrature and
//! the fast method's statistics from the dense linearised model, each written out here
//! from the formulas, not the library's algebra.

use nalgebra::{DMatrix, DVector};

/// ln ∫ p(t|w)p(w|α) dw by the trapezoid rule over w* ± 14 Laplace standard deviations
/// along each axis (`points` nodes per axis), for M = 1 or 2, with `log_posterior` the
/// log of the integrand without the prior's normaliser, ln p(t|w) − ½wᵀAw: the integrand
/// is smooth and its tails beyond 14 σ are below e⁻⁹⁸ of the peak, so the rule converges
/// geometrically.
pub fn brute_force_log_ml(
    log_posterior: &dyn Fn(&DVector<f64>) -> f64,
    alpha: &[f64],
    centre: &[f64],
    sd: &[f64],
    points: usize,
) -> f64 {
    let m = alpha.len();
    let prior_norm: f64 = alpha.iter().map(|a| 0.5 * (a / std::f64::consts::TAU).ln()).sum();
    let axis = |i: usize| -> Vec<f64> {
        (0..points).map(|k| centre[i] + sd[i] * 14.0 * (2.0 * k as f64 / (points - 1) as f64 - 1.0)).collect()
    };
    let grids: Vec<Vec<f64>> = (0..m).map(axis).collect();
    let step: f64 = (0..m).map(|i| grids[i][1] - grids[i][0]).product();
    let nodes: Vec<Vec<f64>> = match m {
        1 => grids[0].iter().map(|&a| vec![a]).collect(),
        2 => grids[0].iter().flat_map(|&a| grids[1].iter().map(move |&b| vec![a, b])).collect(),
        _ => unreachable!("M = 1 or 2"),
    };
    let trapezoid = |k: usize| if k == 0 || k == points - 1 { 0.5 } else { 1.0 };
    let logs: Vec<(f64, f64)> = nodes
        .iter()
        .enumerate()
        .map(|(idx, w)| {
            let weight: f64 = match m {
                1 => trapezoid(idx),
                _ => trapezoid(idx / points) * trapezoid(idx % points),
            };
            (log_posterior(&DVector::from_column_slice(w)), weight)
        })
        .collect();
    let peak = logs.iter().fold(f64::NEG_INFINITY, |p, &(l, _)| p.max(l));
    let sum: f64 = logs.iter().map(|&(l, weight)| weight * (l - peak).exp()).sum();
    peak + (sum * step).ln() + prior_norm
}

/// The link of a likelihood, as the dense checks need it: the mean y(a) and the weight
/// b(y) = −∂² ln p/∂a² (σ(a) and y(1 − y) for classes; eᵃ and y for counts).
#[derive(Clone, Copy)]
pub struct Link {
    pub mean: fn(f64) -> f64,
    pub weight: fn(f64) -> f64,
}

/// Sₘ = φₘᵀC⁻¹φₘ and Qₘ = φₘᵀC⁻¹t̂ of every column, from the dense N × N matrix
/// C = B⁻¹ + Φ_𝒜A⁻¹Φ_𝒜ᵀ and t̂ = Φ_𝒜w* + B⁻¹(t − y), B = diag b(yₙ) (PRML 7.117–7.119,
/// with the misprint C = B + ΦAΦᵀ corrected), everything recomputed here from the weights.
pub fn dense_statistics(
    link: Link,
    phi: &DMatrix<f64>,
    t: &DVector<f64>,
    (active, alpha): (&[usize], &[f64]),
    w: &DVector<f64>,
) -> Vec<(f64, f64)> {
    let phi_a = phi.select_columns(active);
    let a = &phi_a * w;
    let y = a.map(link.mean);
    let b = y.map(link.weight);
    let t_hat = DVector::from_fn(t.len(), |n, _| a[n] + (t[n] - y[n]) / b[n]);
    let mut c = DMatrix::from_diagonal(&b.map(|b| 1.0 / b));
    for (j, &al) in alpha.iter().enumerate() {
        let col = phi_a.column(j);
        c += col * col.transpose() / al;
    }
    let c = c.cholesky().expect("C is positive definite");
    (0..phi.ncols())
        .map(|m| {
            let col = phi.column(m).into_owned();
            let solved = c.solve(&col);
            (col.dot(&solved), solved.dot(&t_hat))
        })
        .collect()
}

/// Φᵀ(t − y) − Aw (PRML 7.110), y = mean(Φw), and the scale of its terms,
/// ‖Φᵀ(t − y)‖ + ‖Aw‖.
pub fn gradient(
    link: Link,
    phi: &DMatrix<f64>,
    t: &DVector<f64>,
    alpha: &[f64],
    w: &DVector<f64>,
) -> (DVector<f64>, f64) {
    let y = (phi * w).map(link.mean);
    let fit = phi.transpose() * (t - y);
    let prior = DVector::from_fn(w.len(), |i, _| alpha[i] * w[i]);
    (&fit - &prior, fit.norm() + prior.norm())
}

/// ΦᵀBΦ + A with B = diag b(yₙ) (PRML 7.111), formed densely.
pub fn hessian(link: Link, phi: &DMatrix<f64>, alpha: &[f64], w: &DVector<f64>) -> DMatrix<f64> {
    let y = (phi * w).map(link.mean);
    let b = DMatrix::from_diagonal(&y.map(link.weight));
    phi.transpose() * b * phi + DMatrix::from_diagonal(&DVector::from_column_slice(alpha))
}

/// The log posterior Ψ(w) = ln p(t|w) − ½wᵀAw of a likelihood, written out by a test.
pub type LogPosterior = fn(&DMatrix<f64>, &DVector<f64>, &[f64], &DVector<f64>) -> f64;

/// The Laplace L (PRML 7.114) recomputed densely on the columns `active`:
/// Ψ(w*) + ½Σ ln αᵢ − ½ ln|H|.
pub fn dense_laplace(
    (link, log_posterior): (Link, LogPosterior),
    phi: &DMatrix<f64>,
    t: &DVector<f64>,
    (active, alpha): (&[usize], &[f64]),
    w: &DVector<f64>,
) -> f64 {
    let phi_a = phi.select_columns(active);
    let h = hessian(link, &phi_a, alpha, w).cholesky().expect("H is positive definite");
    let ln_det: f64 = 2.0 * h.l().diagonal().iter().map(|d| d.ln()).sum::<f64>();
    log_posterior(&phi_a, t, alpha, w) + 0.5 * alpha.iter().map(|a| a.ln()).sum::<f64>() - 0.5 * ln_det
}
