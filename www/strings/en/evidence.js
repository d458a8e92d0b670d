// The words of the evidence panel in English that only it shows: its introduction, its chart
// in words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.evidence.intro':
    'The data choose α and β: ln p(t|α,β) (PRML 3.86) over (ln α, ln β), darker = higher, the maximum crossed. From a start you click, four re-estimation schemes climb it: α with β fixed (α = γ/m_Nᵀm_N), β with α fixed (1/β = ‖t − Φm_N‖²/(N − γ)), both, and EM (α = M/(m_Nᵀm_N + Tr S_N)). γ = Σ βλᵢ/(α + βλᵢ) is the effective number of parameters.',
  'panel.evidence.chart': 'Left: the log evidence over ln α and ln β in bands, with the paths of the four re-estimation schemes and the maximum marked. Right: the log evidence along each path against iteration.',
  'summary.evidence': 'The evidence surface over (ln α, ln β), largest at ln p = {surface-max}; step {step} of {steps} of the schemes: the joint fixed point is at α = {alpha}, β = {beta}, with γ = {gamma} and ln p(t|α,β) = {log-evidence}.',
};
