// The words of the fast-rvm panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.fast-rvm.intro':
    'Sequential sparse Bayesian learning (Tipping & Faul 2003): the model starts with the one kernel best aligned with t; each step computes every basis function’s sparsity s and quality q (PRML 7.102–7.105) and adds it (θ = q² − s > 0), re-estimates α = s²/θ, or deletes it (θ ≤ 0), whichever raises ln p(t|α,β) most; every fifth step from the tenth re-estimates the noise. Press Step, or Play. Click the plot to add a point: the run starts again.',
  'panel.fast-rvm.chart': 'Left: data, sin 2πx, the predictive mean with ±1σ and ±2σ, the active kernels times their weights (grey), the relevance vectors circled, and the basis function of this step coloured by its action. Right, top: ln p(t|α,β) against step. Right, bottom: λ(α) of this step’s basis function, its α before the step marked and its maximum at the new α.',
  'summary.preparing': 'The run is being prepared: its design matrix is computed in the background, the data drawn meanwhile.',
  'summary.fast-rvm': 'Step {step} of {steps}: {action} φ{m}, α = {alpha}; {rv} {rv|relevance vector|relevance vectors}; ln p(t|α,β) = {L}, a change of {dL}.',
  'summary.fast-rvm-other': 'Step {step} of {steps}: {action}; {rv} {rv|relevance vector|relevance vectors}; ln p(t|α,β) = {L}, a change of {dL}.',
};
