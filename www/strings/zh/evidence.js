// The words of the evidence panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.evidence.intro':
    '由数据决定 α 与 β：ln p(t|α,β)（PRML 3.86）在 (ln α, ln β) 上的取值，颜色越深越大，最大值以叉号标出。从你点击的起点出发，四种重估计方案向上攀登：固定 β 更新 α（α = γ/m_Nᵀm_N），固定 α 更新 β（1/β = ‖t − Φm_N‖²/(N − γ)），同时更新两者，以及 EM（α = M/(m_Nᵀm_N + Tr S_N)）。γ = Σ βλᵢ/(α + βλᵢ) 为有效参数个数。',
  'panel.evidence.chart': '左：对数证据在 ln α、ln β 上的分层图，四种重估计方案的路径与最大值。右：各路径上对数证据随迭代的变化。',
  'summary.evidence': '(ln α, ln β) 上的证据曲面，最大值 ln p = {surface-max}；各迭代方案第 {step} 步（共 {steps} 步）：联合不动点在 α = {alpha}、β = {beta}，γ = {gamma}，ln p(t|α,β) = {log-evidence}。',
};
