// The words of the regularisation panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.regularisation.intro':
    'Ridge minimises ½‖t − Φw‖² + λ/2‖w‖²: closed form (ΦᵀΦ + λI)w = Φᵀt and batch gradient descent agree. Lasso minimises ½‖t − Φw‖² + λ‖w‖₁ by proximal gradient (ISTA, step 1/L) with soft thresholding, which sets weights exactly to zero.',
  'panel.regularisation.chart': 'Left: data with the ridge, ridge-by-GD and lasso fits. Right: ridge and lasso coefficient paths against ln λ, with the current λ marked.',
  'summary.regularisation': 'At λ = {lambda}: the ridge fit, by its closed form and by gradient descent, and the lasso fit, which sets {lasso-zeros} of {M} weights to exactly zero; beside them, both coefficient paths against ln λ.',
};
