// The words of the gradient-descent panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.gradient-descent.intro':
    'Batch (BGD), stochastic (SGD) and mini-batch (MBGD) gradient descent on E(w) = ½Σ(φₙᵀw − tₙ)² with the same learning rate η. Top: loss against iteration. Bottom: for M = 2, the paths in weight space over the error surface (click it to choose the start), and the fitted functions.',
  'panel.gradient-descent.chart': 'Top: loss against iteration for BGD, SGD and MBGD. Bottom left: weight-space paths over the error surface with the least-squares point. Bottom right: data and the current fits.',
  'summary.gradient-descent': 'Update {step} of {steps}: E(w) is {bgd-loss} for batch GD, {sgd-loss} for stochastic GD and {mbgd-loss} for mini-batch GD; least squares reaches {least-squares-loss}.',
};
