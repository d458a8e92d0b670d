// Benchmark page: times calls into the wasm core with performance.now(). Each case runs a
// few warm-up calls, then repeats until it has taken about a second, and reports the median.
// The RVM cases are the native `cargo bench --bench rvm` ones (benches/rvm.rs), so the two
// can be compared; each also reports what the fit found (relevance vectors, L, steps).

//
// It runs the bench module (pkg/bench.js and its two builds): the page's module with the
// benchmarks besides, which the page's readers do not download (scripts/build.sh).

import { loadFormulaModule } from './formula.js';
import { fittingBuild } from './module.js';
import init, { ClassifierBenchmark, DesignBenchmark, EvidenceBenchmark, Lab, RvmBenchmark } from './pkg/bench.js';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(run) {
  for (let i = 0; i < 3; i += 1) run(i);
  const samples = [];
  const start = performance.now();
  for (let i = 0; samples.length < 200 && (performance.now() - start < 1000 || samples.length < 5); i += 1) {
    const t0 = performance.now();
    run(i);
    samples.push(performance.now() - t0);
  }
  return { median: median(samples), runs: samples.length };
}

async function main() {
  // The build this browser loads, or the one asked for (?build=scalar or ?build=simd), so
  // that both can be timed in one browser.
  const asked = new URLSearchParams(location.search).get('build');
  const build = ['simd', 'scalar'].includes(asked) ? asked : fittingBuild();
  await init({ module_or_path: new URL(`./pkg/${build === 'simd' ? 'bench_simd_bg' : 'bench_bg'}.wasm`, import.meta.url) });
  document.querySelector('#build').textContent = build;
  const results = {};
  for (const [m, n] of [[20, 1000], [9, 25]]) {
    const bench = new EvidenceBenchmark(m, n);
    results[`surface 256x256, M=${m}, N=${n}`] = time(() => bench.surface(256));
    bench.free();
  }
  const canvas = document.querySelector('#bench-chart');
  const lab = new Lab('evidence');
  lab.set('M', '20');
  lab.set('N', '1000');
  results['evidence panel change + redraw, M=20, N=1000'] = time((i) => {
    lab.set('seed', String(i % 50));
    lab.draw(canvas, 1, 0, Infinity);
  });
  results['evidence panel redraw only'] = time(() => lab.draw(canvas, 1, 0, Infinity));
  lab.free();
  for (const n of [100, 500, 1000, 2000]) {
    const bench = new RvmBenchmark(n);
    const fit = bench.fit();
    results[`fast RVM to convergence, sinc N=${n}, M=${n + 1}`] = {
      ...time(() => bench.fit()),
      relevant: fit.relevant.length,
      log_marginal_likelihood: fit.log_marginal_likelihood,
      steps: fit.iterations,
      converged: fit.converged,
    };
    if (n === 2000) results[`kernel design N=${n}, M=${n + 1}`] = time(() => bench.design());
    bench.free();
  }
  for (const n of [100, 200, 400]) {
    const bench = new ClassifierBenchmark(n);
    const fit = bench.fit();
    results[`fast RVM classifier to convergence, two-class N=${n}, M=${n + 1}`] = {
      ...time(() => bench.fit()),
      relevant: fit.relevant.length,
      log_marginal_likelihood: fit.log_marginal_likelihood,
      steps: fit.iterations,
      accuracy: fit.accuracy,
    };
    bench.free();
  }
  // The design of a typed formula against the built-in family it spells out (benches/formula.rs):
  // the same 50 Gaussians, N = 1000.
  await loadFormulaModule();
  for (const family of ['gaussian', 'formula']) {
    const bench = new DesignBenchmark(family, 1000, 50);
    results[`design ${family} N=1000 M=50`] = time(() => bench.design());
    bench.free();
  }
  const classifier = new Lab('classification');
  // The run is recorded in slices: finish it, then show its last step.
  while (classifier.work(Infinity));
  classifier.set('step', '3000');
  results['classification panel redraw (200x200 map), N=200, last step'] = time(() => classifier.draw(canvas, 1, 0, Infinity));
  classifier.free();
  const body = document.querySelector('#results tbody');
  for (const [name, { median: ms, runs, relevant, log_marginal_likelihood: l, steps }] of Object.entries(results)) {
    const row = body.insertRow();
    row.insertCell().textContent = name;
    row.insertCell().textContent = ms.toFixed(3);
    row.insertCell().textContent = String(runs);
    row.insertCell().textContent = relevant === undefined ? '' : `${relevant} RVs, L = ${l.toFixed(4)}, ${steps} steps`;
  }
  document.querySelector('#json').textContent = JSON.stringify(results, null, 2);
  document.body.dataset.done = '1';
}

main().catch((error) => {
  document.querySelector('#json').textContent = `failed: ${error.message}`;
  document.body.dataset.done = 'error';
});
