// The words of the poisson panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.poisson.intro':
    'Counts tₙ = 0, 1, 2, … of events at times xₙ, modelled as Poisson with rate exp(wᵀφ(x)) on a Gaussian kernel at the data (Tipping 2001 §4). The same machinery as the RVM classifier with B = diag yₙ, yₙ = exp(aₙ): at the mode w* (IRLS) the Laplace approximation gives targets t̂ = Φw* + B⁻¹(t − y) and C = B⁻¹ + ΦA⁻¹Φᵀ (PRML 7.117–7.119), and the fast method adds, re-estimates or deletes one basis function a step. The band is exp(a ± σ) and exp(a ± 2σ) with σ² = φᵀΣφ, Σ the Laplace covariance (PRML 4.150); the data are drawn with rate exp(1 + sin 2πx). Click the plot to add a count (rounded to a whole number): the run starts again.',
  'panel.poisson.chart': 'Left: the counts against x, the true rate exp(1 + sin 2πx) dashed, the predicted rate exp(w*ᵀφ(x)) with the bands exp(a ± σ) and exp(a ± 2σ), the relevance vectors ringed, and the basis function of this step coloured by its action. Right, top: the Laplace ln p(t|α) against step. Right, bottom: λ(α) of this step’s basis function.',
  'summary.poisson': 'Step {step} of {steps}: {action} φ{m}, α = {alpha}; {rv} {rv|relevance vector|relevance vectors}; the Laplace ln p(t|α) = {L}, a change of {dL}; mean Poisson deviance {mean-deviance}.',
  'summary.poisson-other': 'Step {step} of {steps}: {action}; {rv} {rv|relevance vector|relevance vectors}; the Laplace ln p(t|α) = {L}; mean Poisson deviance {mean-deviance}.',
};
