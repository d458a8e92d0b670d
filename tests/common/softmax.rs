//! The softmax model written out from its definition (PRML 4.104–4.110, 7.120–7.122), the
//! reference the tests hold the library's multiclass RVM (and, as K = 2 with class 0's
//! weights fixed at 0, σ(a) = e^a/(1 + e^a), its binary classifier) against: plain loops,
//! no code of the crate.
//!
//! Weights W and precisions α are M × K (entry (i, k) for basis function i and class k);
//! αₖᵢ = +∞ marks a pruned weight, fixed at 0.

use nalgebra::DMatrix;

/// The logits aₙₖ = wₖᵀφₙ of point n (PRML 7.120).
pub fn logits(phi: &DMatrix<f64>, w: &DMatrix<f64>, n: usize) -> Vec<f64> {
    (0..w.ncols()).map(|k| (0..w.nrows()).map(|i| phi[(n, i)] * w[(i, k)]).sum()).collect()
}

/// yₙ = softmax(aₙ), by the textbook formula with the largest logit subtracted.
pub fn class_probabilities(a: &[f64]) -> Vec<f64> {
    let top = a.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = a.iter().map(|v| (v - top).exp()).sum();
    a.iter().map(|v| (v - top).exp() / total).collect()
}

/// Ψ(W) = Σₙ ln yₙ,cₙ − ½ Σ αₖᵢwₖᵢ² over the finite αₖᵢ (PRML 7.122 with the prior).
pub fn psi(phi: &DMatrix<f64>, labels: &[usize], alpha: &DMatrix<f64>, w: &DMatrix<f64>) -> f64 {
    let fit: f64 = labels.iter().enumerate().map(|(n, &c)| class_probabilities(&logits(phi, w, n))[c].ln()).sum();
    let prior: f64 = alpha.iter().zip(w.iter()).filter(|(a, _)| a.is_finite()).map(|(a, w)| a * w * w).sum();
    fit - 0.5 * prior
}

/// ∂Ψ/∂wₖᵢ = Σₙ (tₙₖ − yₙₖ)φₙᵢ − αₖᵢwₖᵢ (PRML 4.109 plus the prior) as an M × K matrix
/// (0 where αₖᵢ = ∞), and the largest size of its two terms, Σₙ|tₙₖ − yₙₖ||φₙᵢ| + |αₖᵢwₖᵢ|.
pub fn gradient(phi: &DMatrix<f64>, labels: &[usize], alpha: &DMatrix<f64>, w: &DMatrix<f64>) -> (DMatrix<f64>, f64) {
    let (m, k) = w.shape();
    let mut g = DMatrix::zeros(m, k);
    let mut size = DMatrix::zeros(m, k);
    for (n, &c) in labels.iter().enumerate() {
        let y = class_probabilities(&logits(phi, w, n));
        for class in 0..k {
            let r = f64::from(u8::from(class == c)) - y[class];
            for i in 0..m {
                g[(i, class)] += r * phi[(n, i)];
                size[(i, class)] += (r * phi[(n, i)]).abs();
            }
        }
    }
    for ((g, s), (&a, &w)) in g.iter_mut().zip(size.iter_mut()).zip(alpha.iter().zip(w.iter())) {
        if a.is_finite() {
            *g -= a * w;
            *s += (a * w).abs();
        } else {
            *g = 0.0;
            *s = 0.0;
        }
    }
    let largest = size.iter().cloned().fold(0.0, f64::max);
    (g, largest)
}

/// The active weights (finite αₖᵢ), class by class and each class's by ascending basis
/// function — the order of the library's `Mode::active`.
pub fn active(alpha: &DMatrix<f64>) -> Vec<(usize, usize)> {
    let (m, k) = alpha.shape();
    (0..k).flat_map(|c| (0..m).map(move |i| (i, c))).filter(|&ik| alpha[ik].is_finite()).collect()
}

/// H = −∇∇Ψ on the active weights, entry by entry: H_(i,k),(j,c) =
/// Σₙ yₙₖ(δₖc − yₙc)φₙᵢφₙⱼ + δ αₖᵢ (PRML 4.110 plus the prior).
pub fn hessian(phi: &DMatrix<f64>, alpha: &DMatrix<f64>, w: &DMatrix<f64>) -> DMatrix<f64> {
    let weights = active(alpha);
    let mut h = DMatrix::zeros(weights.len(), weights.len());
    for n in 0..phi.nrows() {
        let y = class_probabilities(&logits(phi, w, n));
        for (p, &(i, k)) in weights.iter().enumerate() {
            for (q, &(j, c)) in weights.iter().enumerate() {
                let same = f64::from(u8::from(k == c));
                h[(p, q)] += y[k] * (same - y[c]) * phi[(n, i)] * phi[(n, j)];
            }
        }
    }
    for (p, &ik) in weights.iter().enumerate() {
        h[(p, p)] += alpha[ik];
    }
    h
}

/// The Laplace ln p(T|α) ≈ Ψ(W) + ½ Σ ln αₖᵢ − ½ ln|H| over the active weights (PRML
/// 7.114), at W (a mode, for the approximation to mean anything).
pub fn laplace_log_ml(phi: &DMatrix<f64>, labels: &[usize], alpha: &DMatrix<f64>, w: &DMatrix<f64>) -> f64 {
    let ln_alpha: f64 = active(alpha).iter().map(|&ik| alpha[ik].ln()).sum();
    let h = hessian(phi, alpha, w).cholesky().expect("H is positive definite");
    psi(phi, labels, alpha, w) + 0.5 * ln_alpha - 0.5 * h.ln_determinant()
}
