// The words of the least-squares panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.least-squares.intro':
    'Maximum likelihood: w_ML = Φ†t, computed by SVD (minimum norm when Φ is rank-deficient), and 1/β_ML = the mean squared residual (001 eq 4–8). Right: training and test RMS error against M — the over-fitting curve.',
  'panel.least-squares.chart': 'Left: data, true curve and the least-squares fit. Right: training and test RMS error against the number of basis functions M.',
  'summary.least-squares': 'The least-squares fit with M = {M} to N = {N} points: training RMS error {train}, test RMS error {test}; beside it, both errors against M.',
};
