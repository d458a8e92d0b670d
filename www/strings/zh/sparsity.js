// The words of the sparsity panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.sparsity.intro':
    '两个观测 t = (t₁, t₂)，一个基向量 φ = (φ(x₁), φ(x₂))（PRML 图 7.10）。边缘似然为 p(t|α) = N(t | 0, C)，其中 C = β⁻¹I + α⁻¹φφᵀ（PRML 7.92）：实线椭圆是 C 在单位马氏距离处的等高线，虚线圆只对应噪声 β⁻¹I。有限的 α 使椭圆沿 φ 方向拉长，只有当 t 沿着 φ 时这才划算。拖动 t 或 φ 的末端：一旦 q² = (βφᵀt)² ≤ s = β‖φ‖²，任何有限的 α 都会降低 p(t|α)，概率最大的模型会去掉 φ（α = ∞）。',
  'panel.sparsity.chart': '左：(t₁, t₂) 平面上的目标 t、基向量 φ、噪声圆与 C 的椭圆。右：ln p(t|α) 随 ln α 的变化，并标出当前 α 与最可能的 α。',
  'summary.sparsity': 'α = {alpha} 时：ln p(t|α) = {log-p-alpha}。基向量的稀疏度 s = {sparsity}，质量 q² = {quality-squared}，因此最可能的 α 为 {alpha-star}。',
};
