// The words of the sequential panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.sequential.intro':
    '逐个数据点学习直线 y = w₀ + w₁x（PRML 图 3.7）：最新数据点的似然、(w₀, w₁) 上的后验——每一步的后验就是下一步的先验——从后验抽取的直线，以及逐渐变窄的预测区间（图 3.8：试试 k = 1、2、4、25）。单步或播放以加入数据点。',
  'panel.sequential.chart': '左上：最新数据点关于权重的似然。右上：权重的先验或后验，并标出真实权重。左下：数据与从后验抽取的直线。右下：预测均值及 ±1σ、±2σ 区间。',
  'summary.sequential': '观测 {observed} 个点后，(w₀, w₁) 的后验均值为 ({m0}, {m1})，标准差为 {sd0} 和 {sd1}。',
};
