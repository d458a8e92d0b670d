// The words of the basis panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.basis.intro': '线性模型 y(x, w) = Σⱼ wⱼφⱼ(x) 对 w 是线性的，无论 φⱼ 取何种形式。选择一类基函数并观察；拖动三角形可移动高斯或 sigmoid 基函数的中心。',
  'panel.basis.chart': '所选类型的全部基函数在 x ∈ [0, 1] 上的图像，可拖动的中心以三角形标出',
  'summary.basis': '图中是 {M} 个基函数：{family}。',
};
