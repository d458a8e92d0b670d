// The words of the basis panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.basis.intro':
    'A linear model y(x, w) = Σⱼ wⱼφⱼ(x) is linear in w whatever the φⱼ are. Choose a family and see its functions; drag a triangle to move a Gaussian or sigmoid centre.',
  'panel.basis.chart': 'Plot of every basis function of the chosen family over x from 0 to 1, with triangles under the draggable centres',
  'summary.basis': 'The chart shows {M} basis functions: {family}.',
};
