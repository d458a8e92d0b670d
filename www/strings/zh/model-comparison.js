// The words of the model-comparison panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.model-comparison.intro':
    '用证据比较模型。左上：各阶多项式的 ln p(t|α,β)（PRML 图 3.14，α = 5·10⁻³，β = 11.1）。对所选基函数沿 ln α：γ 与 2αE_W 在证据最大处相交（图 3.16 左），证据与测试误差（图 3.16 右），以及权重随 γ 的变化（图 3.17）。灰线标出最优 α。',
  'panel.model-comparison.chart': '六幅图：对数证据随多项式阶数变化；γ 与 2αE_W 随 ln α；对数证据随 ln α；测试 RMS 误差随 ln α；权重随 γ；最优 α 下的拟合。',
  'summary.model-comparison': '多项式阶数 M = {best-order} 时证据最大；沿 ln α 方向在 ln α = {best-ln-alpha} 处达到峰值。',
};
