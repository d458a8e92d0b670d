// The words of the least-squares panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.least-squares.intro':
    '极大似然：w_ML = Φ†t，用 SVD 计算（Φ 秩亏时取最小范数解），1/β_ML 为残差平方的均值（001 式 4–8）。右图：训练与测试 RMS 误差随 M 的变化——过拟合曲线。',
  'panel.least-squares.chart': '左：数据、真实曲线与最小二乘拟合。右：训练与测试 RMS 误差随基函数个数 M 的变化。',
  'summary.least-squares': 'M = {M} 的最小二乘拟合（N = {N} 个点）：训练均方根误差 {train}，测试均方根误差 {test}；旁边是两种误差随 M 的变化。',
};
