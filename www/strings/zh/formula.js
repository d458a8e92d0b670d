// The words of the formula basis family in 中文 (the basis menu's choice stays with the
// language's strings): its control, its presets, its errors and the sentence that names a
// formula in a chart's description. They load with the formula module (www/formula.js).

export default {
  'message.basis-formula': '你的公式对每个函数 j = 1 … K 各算一次，各用自己的中心 μⱼ（mu：像高斯基那样铺在输入范围上，可拖动）、宽度 s 和 K。换一个公式试试，或从预设开始。',
  'param.formula': '每个基函数 φⱼ(x) =',
  'summary.basis-formula': '每个基函数 φⱼ(x) = {formula}。',
  'presets.formula': '从一个公式开始',
  'preset.gaussian': '高斯',
  'preset.sigmoid': 'sigmoid',
  'preset.polynomial': 'xʲ',
  'preset.laplace': '拉普拉斯',
  'preset.cosine': '余弦',
  'preset.slope': '高斯斜坡',
  'error.formula-empty': '公式为空：请用 x（以及 mu、s、j、K）写出 φ',
  'error.formula-too-deep': '公式在第 {at} 个字符处嵌套太深：最多 {max} 层',
  'error.formula-unexpected': '第 {at} 个字符处出现了意外的“{token}”',
  'error.formula-ends-early': '公式在第 {at} 个字符处过早结束：后面应是数字、名称或“(”',
  'error.formula-unclosed': '第 {at} 个字符处的“(”缺少对应的“)”',
  'error.formula-unknown-name': '第 {at} 个字符处的名称“{name}”未知：可用 x、mu、s、j、K、pi、e 和 exp 等函数',
  'error.formula-unknown-name-suggestion': '第 {at} 个字符处的名称“{name}”未知：是不是想写 {suggestion}？',
  'error.formula-argument-count': '第 {at} 个字符处的 {function} 需要 {expected} 个参数，给了 {got} 个',
  'error.formula-bad-number': '第 {at} 个字符处的“{text}”不是数字',
  'error.formula-missing-operator': '第 {at} 个字符处的“{token}”前缺少运算符：请写 2*x，而不是 2x',
  'error.formula-needs-parentheses': '第 {at} 个字符处的 {function} 的参数要放在括号里：{function}(…)',
  'error.formula-no-x': '公式不含 x：每个函数都会是常数',
  'error.formula-same-functions': '每个函数都一样：公式既不含 mu 也不含 j',
};
