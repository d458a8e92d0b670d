// The words of the multiclass panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.multiclass.intro':
    'K = 3 classes with a softmax, p(C_k|x) = exp(w_kᵀφ(x)) / Σⱼ exp(wⱼᵀφ(x)) (PRML 7.120–7.122), one weight vector per class on a Gaussian kernel and one αₖᵢ per weight. Each sweep finds the posterior mode by IRLS with the 3M × 3M Hessian, re-estimates every αₖᵢ = γₖᵢ/wₖᵢ*² from the Laplace approximation and prunes the weights whose α runs off to ∞; a basis function stays a relevance vector while any of its three weights is active. The sweeps run in the background: press Play or Step to follow them. Click the plot to place a point of the chosen class.',
  'panel.multiclass.chart': 'Left: the inputs of the three classes (circles, crosses, triangles), each region in shades of its class’s colour by how probable the class is, the decision boundaries, and the relevance vectors ringed. Right: the Laplace ln p(T|α) and the number of relevance vectors against sweep.',
  'summary.preparing-fit': 'The first fit is being computed in the background, the data drawn meanwhile.',
  'summary.multiclass': 'Sweep {sweep} of {sweeps}: {relevance-vectors} {relevance-vectors|relevance vector|relevance vectors} with {active-weights} active {active-weights|weight|weights}; the Laplace ln p(T|α) = {laplace-log-ml}; training accuracy {accuracy}.',
};
