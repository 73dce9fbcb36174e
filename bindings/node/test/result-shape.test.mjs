// The Node result follows the one table of result and diagnostic fields
// (core/include/sandgate/result_shape.def, from which index.d.ts is generated): the members of a
// result, a diagnostic, a related location and a source, in the table's order, and the same
// object as the C++ JSON writer's (the CLI's `results` entry without file and command).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { check } from 'sandgate';

const table = readFileSync(fileURLToPath(new URL('../../../core/include/sandgate/result_shape.def', import.meta.url)), 'utf8');
function rows(kind) {
  const out = [];
  for (const m of table.matchAll(new RegExp(`^SG_${kind}_FIELD\\((\\w+),`, 'gm'))) out.push(m[1]);
  return out;
}

const POLICY = 'constraints:\n  resources:\n    max_cpu: "2"\n';

test('a checked result, its diagnostics, related locations and sources have the table rows in order', () => {
  const r = check('resources: {cpu: "4", memory: 1Gi}\n', { policy: POLICY, client: 'python' });
  assert.deepEqual(Object.keys(r), rows('RESULT'));
  assert.ok(r.diagnostics.length > 0);
  for (const d of r.diagnostics) assert.deepEqual(Object.keys(d), rows('DIAGNOSTIC'));
  const d = r.diagnostics.find((x) => x.code === 'SG_RESOURCE_ABOVE_MAX');
  assert.ok(d, 'cpu above the policy max');
  // The same related location, word for word, as Python's (test_result_shape.py): text passed
  // directly is named `<policy>` in both bindings.
  assert.deepEqual(d.related, [{
    input: 'policy',
    path: '/constraints/resources/max_cpu',
    source: { file: '<policy>', line: 3, column: 14 },
    message: 'the limit is set here',
  }]);
  assert.deepEqual(Object.keys(d.related[0]), rows('RELATED'));
  assert.deepEqual(Object.keys(d.related[0].source), rows('SOURCE'));
  assert.deepEqual(Object.keys(d.source), rows('SOURCE'));
});

test('a result whose layer could not be read has ok and diagnostics only', () => {
  const r = check('resources: [\n');
  assert.deepEqual(Object.keys(r), ['ok', 'diagnostics']);
  // Python reads the same absence as empty collections and None (docs/python.md).
  for (const name of ['resolved', 'provenance', 'rules_applied', 'other_candidates', 'placement_mode',
    'qos_class', 'runner', 'gpu', 'runtime_class', 'slurm']) {
    assert.equal(r[name], undefined, name);
  }
});
