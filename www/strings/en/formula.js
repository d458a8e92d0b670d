// The words of the formula basis family in English (the basis menu's choice stays with the
// language's strings): its control, its presets, its errors and the sentence that names a
// formula in a chart's description. They load with the formula module (www/formula.js).

export default {
  'message.basis-formula': 'Your formula is evaluated once for each function j = 1 … K, with its own centre μⱼ (mu: spread over the inputs as the Gaussians’ are, and draggable), the width s and K. Type another, or start from a preset.',
  'param.formula': 'Each basis function φⱼ(x) =',
  'summary.basis-formula': 'Each basis function is φⱼ(x) = {formula}.',
  'presets.formula': 'Start from a formula',
  'preset.gaussian': 'Gaussian',
  'preset.sigmoid': 'sigmoid',
  'preset.polynomial': 'xʲ',
  'preset.laplace': 'Laplace',
  'preset.cosine': 'cosines',
  'preset.slope': 'Gaussian slope',
  'error.formula-empty': 'the formula is empty: write φ in terms of x (and mu, s, j, K)',
  'error.formula-too-deep': 'the formula is nested too deep at character {at}: at most {max} levels',
  'error.formula-unexpected': 'unexpected ‘{token}’ at character {at}',
  'error.formula-ends-early': 'the formula ends too soon at character {at}: a number, a name or ‘(’ must follow',
  'error.formula-unclosed': 'missing ‘)’ for the ‘(’ at character {at}',
  'error.formula-unknown-name': 'unknown name ‘{name}’ at character {at}: use x, mu, s, j, K, pi, e and functions such as exp',
  'error.formula-unknown-name-suggestion': 'unknown name ‘{name}’ at character {at}: did you mean {suggestion}?',
  'error.formula-argument-count': '{function} at character {at} takes {expected} argument(s), got {got}',
  'error.formula-bad-number': '‘{text}’ at character {at} is not a number',
  'error.formula-missing-operator': 'missing an operator before ‘{token}’ at character {at}: write 2*x, not 2x',
  'error.formula-needs-parentheses': '{function} at character {at} needs its argument in parentheses: {function}(…)',
  'error.formula-no-x': 'the formula does not depend on x: every function would be a constant',
  'error.formula-same-functions': 'every function is the same: the formula depends on neither mu nor j',
};
