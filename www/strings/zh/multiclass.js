// The words of the multiclass panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.multiclass.intro':
    'K = 3 个类别，使用 softmax：p(C_k|x) = exp(w_kᵀφ(x)) / Σⱼ exp(wⱼᵀφ(x))（PRML 7.120–7.122），每个类别在高斯核上有一个权重向量，每个权重有一个 αₖᵢ。每一轮先用 3M × 3M 的 Hessian 通过 IRLS 求后验众数，再由拉普拉斯近似重估每个 αₖᵢ = γₖᵢ/wₖᵢ*²，并剪除 α 趋于 ∞ 的权重；只要某个基函数的三个权重中还有一个活跃，它就仍是相关向量。各轮在后台计算：按“播放”或“单步”跟随。点击图像可放置所选类别的点。',
  'panel.multiclass.chart': '左：三类输入（圆圈、叉号、三角形），各区域按该类概率以其颜色深浅表示，决策边界，以及圈出的相关向量。右：拉普拉斯 ln p(T|α) 与相关向量个数随轮数的变化。',
  'summary.preparing-fit': '正在后台计算第一次拟合，数据已先画出。',
  'summary.multiclass': '第 {sweep} 轮（共 {sweeps} 轮）：{relevance-vectors} 个相关向量，{active-weights} 个有效权重；拉普拉斯近似 ln p(T|α) = {laplace-log-ml}；训练准确率 {accuracy}。',
};
