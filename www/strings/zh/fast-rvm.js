// The words of the fast-rvm panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.fast-rvm.intro':
    '序贯稀疏贝叶斯学习（Tipping & Faul 2003）：模型从与 t 最对齐的一个核函数开始；每一步计算每个基函数的稀疏度 s 与质量 q（PRML 7.102–7.105），并在添加（θ = q² − s > 0）、重估 α = s²/θ 或删除（θ ≤ 0）中选出使 ln p(t|α,β) 增加最多的操作；从第 10 步起每 5 步重估一次噪声。点击“单步”或“播放”。点击图像可添加数据点，算法将重新开始。',
  'panel.fast-rvm.chart': '左：数据、sin 2πx、预测均值及 ±1σ、±2σ 区间、乘以权重的活跃核函数（灰色）、圈出的相关向量，以及按操作着色的本步基函数。右上：ln p(t|α,β) 随步数的变化。右下：本步基函数的 λ(α)，标出其步前的 α，最大值处即新的 α。',
  'summary.preparing': '正在准备运行：设计矩阵在后台计算，数据已先画出。',
  'summary.fast-rvm': '第 {step} 步（共 {steps} 步）：{action} φ{m}，α = {alpha}；{rv} 个相关向量；ln p(t|α,β) = {L}，变化 {dL}。',
  'summary.fast-rvm-other': '第 {step} 步（共 {steps} 步）：{action}；{rv} 个相关向量；ln p(t|α,β) = {L}，变化 {dL}。',
};
