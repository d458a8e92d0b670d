// The page's own modules (www/*.js, not the built bundles) import one another without a
// cycle: each stands above what it imports, so each can be read from the bottom up, and a
// module that changes the state never needs one that follows it (they register with
// sync.js instead). No browser: the import lines are read as text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));

/** The page's module sources: www/*.js but the minified builds. */
const modules = () => readdirSync(WWW).filter((f) => f.endsWith('.js') && !f.endsWith('.min.js'));

/** The sibling modules `text` imports or re-exports from (`from './name.js'`). */
export function importsOf(text) {
  return [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"]\.\/([\w.-]+\.js)['"]/gm)].map((m) => m[1]);
}

/** A cycle of the graph (a Map from each node to the nodes it points to), or null. */
export function findCycle(graph) {
  const done = new Set();
  const visit = (node, path) => {
    const at = path.indexOf(node);
    if (at >= 0) return [...path.slice(at), node];
    if (done.has(node)) return null;
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, path);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(node);
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return null;
}

test('the import reader and the cycle finder see what they must', () => {
  const text = "import { a } from './a.js';\nimport {\n  b,\n} from './b.js';\nexport { c } from './c.js';\n// import { d } from './d.js';\nconst e = await import('./e.js');";
  assert.deepEqual(importsOf(text), ['a.js', 'b.js', 'c.js']);
  assert.equal(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', []]])), null);
  assert.deepEqual(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]])), ['a', 'b', 'c', 'a']);
});

test("the page's modules import one another without a cycle", () => {
  const names = modules();
  assert.ok(names.includes('app.js') && names.includes('sync.js'), names.join(' '));
  const graph = new Map(
    names.map((name) => [name, importsOf(readFileSync(WWW + name, 'utf8')).filter((to) => names.includes(to))]),
  );
  assert.ok(graph.get('app.js').length > 5, 'the reader found the entry point\'s imports');
  const cycle = findCycle(graph);
  assert.equal(cycle, null, `modules import one another in a circle: ${cycle?.join(' → ')}`);
});
