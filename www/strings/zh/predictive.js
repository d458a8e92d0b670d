// The words of the predictive panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.predictive.intro':
    '权重的后验分布给出预测分布：均值 m_Nᵀφ(x)，以及 ±1σ 与 ±2σ 区间，其中 σ²(x) = 1/β + φ(x)ᵀS_Nφ(x)（PRML 3.58–3.59）。点击图像可添加数据点。',
  'panel.predictive.chart': '数据、真实曲线、预测均值及其 ±1σ、±2σ 区间，以及从后验中抽取的函数',
  'summary.predictive': '由 N = {N} 个点、M = {M} 个基函数得到的预测均值及其 ±1σ、±2σ 带：±2σ 带最窄处宽 {narrow}，最宽处宽 {wide}；ln p(t|α,β) = {log-evidence}。',
};
