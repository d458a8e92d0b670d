// The words of the poisson panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.poisson.intro':
    '时刻 xₙ 处事件的计数 tₙ = 0, 1, 2, …，用速率为 exp(wᵀφ(x)) 的泊松分布建模，基函数为数据处的高斯核（Tipping 2001 §4）。机制与 RVM 分类器相同，只是 B = diag yₙ、yₙ = exp(aₙ)：在众数 w*（IRLS 求得）处，拉普拉斯近似给出目标 t̂ = Φw* + B⁻¹(t − y) 与 C = B⁻¹ + ΦA⁻¹Φᵀ（PRML 7.117–7.119），快速算法每一步添加、重估或删除一个基函数。区间为 exp(a ± σ) 与 exp(a ± 2σ)，其中 σ² = φᵀΣφ，Σ 为拉普拉斯协方差（PRML 4.150）；数据按速率 exp(1 + sin 2πx) 生成。点击图像可添加一个计数（取整为整数），算法将重新开始。',
  'panel.poisson.chart': '左：计数随 x 的分布，虚线为真实速率 exp(1 + sin 2πx)，预测速率 exp(w*ᵀφ(x)) 及 exp(a ± σ)、exp(a ± 2σ) 区间，圈出的相关向量，以及按操作着色的本步基函数。右上：拉普拉斯 ln p(t|α) 随步数的变化。右下：本步基函数的 λ(α)。',
  'summary.poisson': '第 {step} 步（共 {steps} 步）：{action} φ{m}，α = {alpha}；{rv} 个相关向量；拉普拉斯近似 ln p(t|α) = {L}，变化 {dL}；平均泊松偏差 {mean-deviance}。',
  'summary.poisson-other': '第 {step} 步（共 {steps} 步）：{action}；{rv} 个相关向量；拉普拉斯近似 ln p(t|α) = {L}；平均泊松偏差 {mean-deviance}。',
};
