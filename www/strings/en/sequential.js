// The words of the sequential panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.sequential.intro':
    'A straight line y = w₀ + w₁x learnt one point at a time (PRML Fig 3.7): the likelihood of the newest point, the posterior over (w₀, w₁) — each posterior is the prior for the next point — lines drawn from it, and the predictive band narrowing (Fig 3.8: try k = 1, 2, 4, 25). Step or play to add points.',
  'panel.sequential.chart': 'Top left: likelihood of the newest point over the weights. Top right: prior or posterior over the weights with the true weights marked. Bottom left: data with lines drawn from the posterior. Bottom right: predictive mean with ±1σ and ±2σ bands.',
  'summary.sequential': 'After {observed} points, the posterior over (w₀, w₁) has mean ({m0}, {m1}) and standard deviations {sd0} and {sd1}.',
};
