// The words of the gradient-descent panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.gradient-descent.intro':
    '在 E(w) = ½Σ(φₙᵀw − tₙ)² 上以相同学习率 η 运行批量（BGD）、随机（SGD）与小批量（MBGD）梯度下降。上：损失随迭代次数的变化。下：M = 2 时权重空间中的路径与误差曲面（点击可选择起点），以及拟合的函数。',
  'panel.gradient-descent.chart': '上：BGD、SGD、MBGD 的损失随迭代次数变化。左下：误差曲面上的权重路径与最小二乘解。右下：数据与当前拟合。',
  'summary.gradient-descent': '第 {step} 次更新（共 {steps} 次）：批量梯度下降 E(w) = {bgd-loss}，随机梯度下降 {sgd-loss}，小批量梯度下降 {mbgd-loss}；最小二乘为 {least-squares-loss}。',
};
