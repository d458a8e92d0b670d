// The words of the classification panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.classification.intro':
    'The RVM classifier p(C₁|x) = σ(wᵀφ(x)) on a Gaussian kernel (PRML §7.2.3, Fig 7.12), trained by the fast method: at the posterior mode w* (IRLS), the Laplace approximation turns it into a regression with targets t̂ = Φw* + B⁻¹(t − y) and C = B⁻¹ + ΦA⁻¹Φᵀ, B = diag yₙ(1 − yₙ) (PRML 7.117–7.119), so each step adds, re-estimates or deletes one basis function as in the regression panel, then finds the new mode. L is the Laplace ln p(t|α) (7.114), which a step may lower slightly. The relevance vectors lie away from the decision boundary, unlike an SVM’s support vectors. Click the plot to place a point of the chosen class.',
  'panel.classification.chart': 'Left: the inputs of both classes (circles and crosses), p(C₁|x) in shades of each class’s colour, the decision boundary p = ½, the relevance vectors ringed, and the point whose basis function this step acted on ringed in the action’s colour. Right, top: the Laplace ln p(t|α) against step. Right, bottom: λ(α) of this step’s basis function.',
  'summary.classification': 'Step {step} of {steps}: {action} φ{m}, α = {alpha}; {rv} {rv|relevance vector|relevance vectors}; the Laplace ln p(t|α) = {L}, a change of {dL}; training accuracy {accuracy}.',
  'summary.classification-other': 'Step {step} of {steps}: {action}; {rv} {rv|relevance vector|relevance vectors}; the Laplace ln p(t|α) = {L}; training accuracy {accuracy}.',
};
