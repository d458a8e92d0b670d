// The words of the model-comparison panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.model-comparison.intro':
    'The evidence compares models. Top left: ln p(t|α,β) of polynomials of every order (PRML Fig 3.14, α = 5·10⁻³, β = 11.1). Along ln α for the chosen basis: γ meets 2αE_W where the evidence peaks (Fig 3.16 left), the evidence beside the test error (Fig 3.16 right), and the weights against γ (Fig 3.17). The grey line marks the best α.',
  'panel.model-comparison.chart': 'Six charts: log evidence against polynomial order; γ and 2αE_W against ln α; log evidence against ln α; test RMS error against ln α; weights against γ; the fit at the best α.',
  'summary.model-comparison': 'The evidence is largest for polynomials of order M = {best-order}; along ln α it peaks at ln α = {best-ln-alpha}.',
};
