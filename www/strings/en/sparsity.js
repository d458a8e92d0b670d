// The words of the sparsity panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.sparsity.intro':
    'Two observations t = (t₁, t₂) and one basis vector φ = (φ(x₁), φ(x₂)) (PRML Fig 7.10). The marginal likelihood is p(t|α) = N(t | 0, C) with C = β⁻¹I + α⁻¹φφᵀ (PRML 7.92): the solid ellipse is C at unit Mahalanobis distance, the dashed circle the noise β⁻¹I alone. A finite α stretches the ellipse along φ, which pays only if t lies along φ. Drag t or the tip of φ: once q² = (βφᵀt)² ≤ s = β‖φ‖², every finite α lowers p(t|α) and the most probable model removes φ (α = ∞).',
  'panel.sparsity.chart': 'Left: the (t₁, t₂) plane with the target t, the basis vector φ, the noise circle and the ellipse of C. Right: ln p(t|α) against ln α with the current and the most probable α marked.',
  'summary.sparsity': 'At α = {alpha}: ln p(t|α) = {log-p-alpha}. The basis vector has sparsity s = {sparsity} and quality q² = {quality-squared}, so its most probable α is {alpha-star}.',
};
