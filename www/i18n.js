// Every visible string of the page, in English and 中文. Keys are stable identifiers;
// `{name}` placeholders are filled by `format`.

export const LANGUAGES = ['en', 'zh'];

export const STRINGS = {
  en: {
    'lang.name': 'English',
    'lang.switch': '中文',
    'lang.switch.label': 'Switch the interface to Chinese',
    'app.title': 'RVM Lab',
    'app.tagline': 'Bayesian linear regression, the evidence and the relevance vector machine — live.',
    'app.loading': 'Loading the solver…',
    'app.crashed': 'The solver module stopped after an internal error (see the browser console). Reload the page to start again.',
    'app.nowasm': 'This page needs JavaScript and WebAssembly.',
    'app.footer': 'Rust + WebAssembly; no data leaves your browser.',
    'panel.label': 'Panel',
    'panel.predictive': 'Predictive distribution',
    'panel.predictive.intro':
      'The posterior over weights turns into a predictive distribution: its mean m_Nᵀφ(x) and the bands ±1σ and ±2σ, where σ²(x) = 1/β + φ(x)ᵀS_Nφ(x) (PRML 3.58–3.59). Click the plot to add a point.',
    'chart.label': 'Plot of the data, the true curve, the predictive mean with its ±1σ and ±2σ bands, and functions drawn from the posterior',
    'legend.data': 'data',
    'legend.truth': 'sin 2πx',
    'legend.mean': 'predictive mean',
    'legend.band1': '±1σ',
    'legend.band2': '±2σ',
    'legend.samples': 'posterior samples',
    'param.basis': 'Basis family',
    'param.M': 'Basis functions M',
    'param.s': 'Gaussian width s',
    'param.alpha': 'Prior precision α',
    'param.beta': 'Noise precision β',
    'param.N': 'Data points N',
    'param.noise': 'Data noise σ',
    'param.seed': 'Seed',
    'choice.polynomial': 'polynomial xʲ',
    'choice.gaussian': 'Gaussian exp(−(x−μⱼ)²/2s²)',
    'control.reset': 'Reset',
    'control.addpoint': 'Add a point',
    'control.add': 'Add',
    'control.x': 'x',
    'control.t': 't',
    'readout.N': 'N',
    'readout.M': 'M',
    'readout.log-evidence': 'ln p(t|α,β)',
    'notice.title': 'Some URL parameters were not used:',
    'notice.default': '{key}: {message} — using the default.',
    'notice.whole': 'The state in the URL does not fit ({message}); showing the defaults.',
    'notice.panel': 'Unknown panel “{value}”; showing {fallback}.',
    'notice.lang': 'Unknown language “{value}”; using English.',
    'notice.embed': 'embed must be 0 or 1, but is “{value}”.',
    'notice.dismiss': 'Dismiss',
    'bound.positive': '> 0',
    'bound.non-negative': '≥ 0',
    'bound.whole-between': 'a whole number from {min} to {max}',
    'bound.at-most': 'at most {max}',
    'error.out-of-range': '{name} must be {bound}, but is {value}',
    'error.not-finite': '{name} must be a finite number, but is {value}',
    'error.unknown-choice': '{name} must be one of {options}, but is {value}',
    'error.unknown-parameter': 'unknown parameter {key}',
    'error.no-data': 'no data points: N must be at least 1',
    'error.not-positive-definite':
      'the matrix {matrix} is not positive definite (numerically singular): regularise more (raise α) or use fewer basis functions',
    'error.not-converged': '{algorithm} did not converge in {iterations} iterations',
  },
  zh: {
    'lang.name': '中文',
    'lang.switch': 'English',
    'lang.switch.label': '将界面切换为英文',
    'app.title': 'RVM 实验室',
    'app.tagline': '贝叶斯线性回归、证据近似与相关向量机——实时演示。',
    'app.loading': '正在加载求解器……',
    'app.crashed': '求解模块因内部错误而停止（详见浏览器控制台）。请刷新页面重新开始。',
    'app.nowasm': '本页面需要 JavaScript 与 WebAssembly。',
    'app.footer': 'Rust + WebAssembly；数据不会离开你的浏览器。',
    'panel.label': '面板',
    'panel.predictive': '预测分布',
    'panel.predictive.intro':
      '权重的后验分布给出预测分布：均值 m_Nᵀφ(x)，以及 ±1σ 与 ±2σ 区间，其中 σ²(x) = 1/β + φ(x)ᵀS_Nφ(x)（PRML 3.58–3.59）。点击图像可添加数据点。',
    'chart.label': '数据、真实曲线、预测均值及其 ±1σ、±2σ 区间，以及从后验中抽取的函数',
    'legend.data': '数据',
    'legend.truth': 'sin 2πx',
    'legend.mean': '预测均值',
    'legend.band1': '±1σ',
    'legend.band2': '±2σ',
    'legend.samples': '后验样本',
    'param.basis': '基函数类型',
    'param.M': '基函数个数 M',
    'param.s': '高斯宽度 s',
    'param.alpha': '先验精度 α',
    'param.beta': '噪声精度 β',
    'param.N': '数据点数 N',
    'param.noise': '数据噪声 σ',
    'param.seed': '随机种子',
    'choice.polynomial': '多项式 xʲ',
    'choice.gaussian': '高斯 exp(−(x−μⱼ)²/2s²)',
    'control.reset': '重置',
    'control.addpoint': '添加数据点',
    'control.add': '添加',
    'control.x': 'x',
    'control.t': 't',
    'readout.N': 'N',
    'readout.M': 'M',
    'readout.log-evidence': 'ln p(t|α,β)',
    'notice.title': '以下 URL 参数未被采用：',
    'notice.default': '{key}：{message}——已使用默认值。',
    'notice.whole': 'URL 中的状态无法求解（{message}），已显示默认设置。',
    'notice.panel': '未知面板“{value}”，已显示{fallback}。',
    'notice.lang': '未知语言“{value}”，已使用英文。',
    'notice.embed': 'embed 只能为 0 或 1，当前为“{value}”。',
    'notice.dismiss': '关闭',
    'bound.positive': '> 0',
    'bound.non-negative': '≥ 0',
    'bound.whole-between': '{min} 到 {max} 之间的整数',
    'bound.at-most': '不超过 {max}',
    'error.out-of-range': '{name} 必须 {bound}，当前为 {value}',
    'error.not-finite': '{name} 必须是有限的数，当前为 {value}',
    'error.unknown-choice': '{name} 必须是 {options} 之一，当前为 {value}',
    'error.unknown-parameter': '未知参数 {key}',
    'error.no-data': '没有数据点：N 至少为 1',
    'error.not-positive-definite': '矩阵 {matrix} 数值上非正定（奇异）：请加强正则化（增大 α）或减少基函数个数',
    'error.not-converged': '{algorithm} 在 {iterations} 次迭代内未收敛',
  },
};

/** Fills `{name}` placeholders of `template` from `args`. */
export function format(template, args = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

/** The string `key` in `lang`, falling back to English, then to the key itself. */
export function translate(lang, key, args) {
  const template = STRINGS[lang]?.[key] ?? STRINGS.en[key] ?? key;
  return format(template, args);
}

/**
 * The message of an error thrown by the wasm module, in `lang`: its `code` and `args`
 * pick and fill a template; anything else shows its own message.
 */
export function errorMessage(lang, error) {
  const code = error?.code;
  if (!code || !(`error.${code}` in STRINGS.en)) return String(error?.message ?? error);
  const args = { ...(error.args ?? {}) };
  if (args.bound) args.bound = translate(lang, `bound.${args.bound}`, args);
  return translate(lang, `error.${code}`, args);
}
