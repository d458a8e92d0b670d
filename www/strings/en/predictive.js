// The words of the predictive panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.predictive.intro':
    'The posterior over weights turns into a predictive distribution: its mean m_Nᵀφ(x) and the bands ±1σ and ±2σ, where σ²(x) = 1/β + φ(x)ᵀS_Nφ(x) (PRML 3.58–3.59). Click the plot to add a point.',
  'panel.predictive.chart': 'Plot of the data, the true curve, the predictive mean with its ±1σ and ±2σ bands, and functions drawn from the posterior',
  'summary.predictive': 'The predictive mean with its ±1σ and ±2σ bands, from N = {N} points and M = {M} basis functions: the ±2σ band is {narrow} wide at its narrowest and {wide} at its widest; ln p(t|α,β) = {log-evidence}.',
};
