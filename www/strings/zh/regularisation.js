// The words of the regularisation panel in 中文 that only it shows: its introduction, its chart in
// words, and the sentences of its summary. They load with the panel (i18n.js).

export default {
  'panel.regularisation.intro':
    '岭回归最小化 ½‖t − Φw‖² + λ/2‖w‖²：闭式解 (ΦᵀΦ + λI)w = Φᵀt 与批量梯度下降结果一致。Lasso 最小化 ½‖t − Φw‖² + λ‖w‖₁，用近端梯度法（ISTA，步长 1/L）与软阈值求解，可使权重恰好为零。',
  'panel.regularisation.chart': '左：数据及岭回归、梯度下降岭回归与 Lasso 的拟合。右：岭回归与 Lasso 系数随 ln λ 的路径，并标出当前 λ。',
  'summary.regularisation': 'λ = {lambda} 时：岭回归（闭式解与梯度下降）和 Lasso 的拟合，Lasso 把 {M} 个权重中的 {lasso-zeros} 个恰好置零；旁边是两者的系数随 ln λ 的路径。',
};
