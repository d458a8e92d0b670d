//! Powers of x: φⱼ(x) = xʲ (lecture notes on linear models, "多项式"; PRML §1.1).

/// xʲ for j = 1..=degree; x⁰ = 1 is the bias, which [`super::Basis`] adds.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Polynomial {
    degree: usize,
}

impl Polynomial {
    /// The powers x¹ … x^degree.
    pub(super) fn new(degree: usize) -> Self {
        Self { degree }
    }

    /// K = degree.
    pub(super) fn len(&self) -> usize {
        self.degree
    }

    /// Writes x, x², …, one running product per power.
    pub(super) fn eval_into(&self, x: f64, out: &mut [f64]) {
        let mut power = 1.0;
        for slot in out {
            power *= x;
            *slot = power;
        }
    }
}
