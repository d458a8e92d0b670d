// The words of the lambda-curve panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.lambda-curve.intro':
    '边缘似然如何依赖某一个基向量的精度 α：λ(α) = ½[ln α − ln(α + s) + q²/(α + s)]（PRML 7.97），其中 s 为稀疏度，q 为质量（7.98–7.99）。若 q² > s，λ 在 α* = s²/(q² − s) 处有唯一最大值（7.101；图 7.11 左：q² = 4，s = 1，α* = 1/3）；若 q² ≤ s，λ 随 α → ∞ 一直上升到 0，该基向量被剪除（图 7.11 右：q² = 1，s = 2）。在 (s, q²) 平面上拖动该点，使其越过直线 q² = s。',
  'panel.lambda-curve.chart': '左：λ(α) 随 ln α 的变化，并标出最大值。右：(s, q²) 平面，q² > s（保留）的区域加了底色，标出该基向量与图 7.11 的两种情形。',
  'summary.lambda-curve': 's = {s}、q² = {q2}（θ = {theta}）时的 λ(α)：在 α* = {alpha-star} 处最大，λ(α*) = {lambda-star}。',
};
