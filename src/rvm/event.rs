//! One step of the fast RVM as a plain value: what the algorithm looked at, what it did and
//! what that did to the marginal likelihood, so a lecture can replay and show it.

use serde::Serialize;

/// What a step of the fast RVM did (Tipping & Faul 2003, §4, steps 5–8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// An inactive basis function with θᵢ = qᵢ² − sᵢ > 0 entered the model with
    /// αᵢ = sᵢ²/θᵢ (PRML 7.101).
    Add,
    /// An active basis function with θᵢ > 0 had αᵢ set to sᵢ²/θᵢ.
    #[serde(rename = "re-estimate")]
    Reestimate,
    /// An active basis function with θᵢ ≤ 0 left the model (αᵢ = ∞).
    Delete,
    /// The noise precision β was re-estimated and everything recomputed.
    Noise,
    /// No addition or deletion would raise L and every |Δ ln αᵢ| is small: the end.
    Converged,
}

impl Action {
    /// The action's name, as in the event log and the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Action::Add => "add",
            Action::Reestimate => "re-estimate",
            Action::Delete => "delete",
            Action::Noise => "noise",
            Action::Converged => "converged",
        }
    }
}

/// One step of the fast RVM.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    /// Step number; step 0 is the initialisation on the basis best aligned with t.
    pub step: usize,
    /// What happened.
    pub action: Action,
    /// The basis function acted on (0-based column of Φ); `None` for noise and convergence.
    pub basis: Option<usize>,
    /// Its sparsity sᵢ before the step (PRML 7.102/7.104).
    pub s: Option<f64>,
    /// Its quality qᵢ before the step (PRML 7.103/7.105).
    pub q: Option<f64>,
    /// θᵢ = qᵢ² − sᵢ: positive means the basis belongs in the model.
    pub theta: Option<f64>,
    /// αᵢ before the step (`None`: inactive, α = ∞).
    pub alpha_old: Option<f64>,
    /// αᵢ after the step (`None`: inactive, α = ∞).
    pub alpha_new: Option<f64>,
    /// Change of L made by the step.
    pub delta_l: f64,
    /// L = ln p(t|α, β) after the step (natural log, −N/2 ln 2π included).
    pub log_ml: f64,
    /// Active basis functions after the step.
    pub active: usize,
    /// Noise precision after the step (`None` for a classifier, which has no noise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beta: Option<f64>,
    /// Candidates refused while choosing this step because each was nearly parallel to an
    /// active basis function (the alignment test).
    pub refused: Vec<usize>,
}

impl Event {
    /// Step `step`, which acted on no basis function (noise, convergence): L went from
    /// `log_ml.0` to `log_ml.1`, with `active` basis functions and noise precision `beta`.
    pub fn without_basis(
        step: usize,
        action: Action,
        log_ml: (f64, f64),
        (active, beta): (usize, Option<f64>),
        refused: Vec<usize>,
    ) -> Self {
        Self {
            step,
            action,
            basis: None,
            s: None,
            q: None,
            theta: None,
            alpha_old: None,
            alpha_new: None,
            delta_l: log_ml.1 - log_ml.0,
            log_ml: log_ml.1,
            active,
            beta,
            refused,
        }
    }
}
