// The words of the lambda-curve panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.lambda-curve.intro':
    'How the marginal likelihood depends on one basis vector’s precision α: λ(α) = ½[ln α − ln(α + s) + q²/(α + s)] (PRML 7.97), with sparsity s and quality q (7.98–7.99). If q² > s, λ has a single maximum at α* = s²/(q² − s) (7.101; Fig 7.11 left: q² = 4, s = 1, α* = 1/3); if q² ≤ s, λ rises all the way to 0 as α → ∞ and the basis vector is pruned (Fig 7.11 right: q² = 1, s = 2). Drag the point in the (s, q²) plane across the line q² = s.',
  'panel.lambda-curve.chart': 'Left: λ(α) against ln α with its maximum marked. Right: the (s, q²) plane, shaded where q² > s (kept), with this basis vector and the two cases of Fig 7.11.',
  'summary.lambda-curve': 'λ(α) for s = {s} and q² = {q2} (θ = {theta}): largest at α* = {alpha-star}, where λ(α*) = {lambda-star}.',
};
