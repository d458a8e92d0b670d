// The words of the classification panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.classification.intro':
    '高斯核上的 RVM 分类器 p(C₁|x) = σ(wᵀφ(x))（PRML §7.2.3，图 7.12），用快速算法训练：在后验众数 w*（IRLS 求得）处，拉普拉斯近似把它变成目标为 t̂ = Φw* + B⁻¹(t − y)、C = B⁻¹ + ΦA⁻¹Φᵀ、B = diag yₙ(1 − yₙ) 的回归问题（PRML 7.117–7.119），于是每一步像回归面板一样添加、重估或删除一个基函数，再求新的众数。L 是拉普拉斯近似的 ln p(t|α)（7.114），某一步可能使它略微下降。相关向量远离决策边界，这与 SVM 的支持向量不同。点击图像可放置所选类别的点。',
  'panel.classification.chart': '左：两类输入（圆圈与叉号），以各类颜色深浅表示的 p(C₁|x)，决策边界 p = ½，圈出的相关向量，以及本步所操作基函数对应的点（按操作着色的圆圈）。右上：拉普拉斯 ln p(t|α) 随步数的变化。右下：本步基函数的 λ(α)。',
  'summary.classification': '第 {step} 步（共 {steps} 步）：{action} φ{m}，α = {alpha}；{rv} 个相关向量；拉普拉斯近似 ln p(t|α) = {L}，变化 {dL}；训练准确率 {accuracy}。',
  'summary.classification-other': '第 {step} 步（共 {steps} 步）：{action}；{rv} 个相关向量；拉普拉斯近似 ln p(t|α) = {L}；训练准确率 {accuracy}。',
};
