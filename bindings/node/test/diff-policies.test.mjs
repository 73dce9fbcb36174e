// diffPolicies (SPEC §10.3) beyond the shared cases: its inputs, options and renderings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { diffPolicies, Policy } from 'sandgate';

const example = (p) => new URL(`../../../examples/${p}`, import.meta.url);
const OLD = Policy.load(example('policies/production-cks.yaml'));
const NEW = Policy.load(example('policies/production-cks-v2.yaml'));
const STREAM = readFileSync(example('requests.jsonl'));

test('the example stream: every record counted, the same on 1 and 2 threads', async () => {
  const lines = STREAM.toString('utf8').split('\n').filter((l) => l.trim()).length;
  const one = await diffPolicies(OLD, NEW, STREAM, { jobs: 1 });
  const two = await diffPolicies(OLD, NEW, STREAM, { jobs: 2 });
  assert.equal(Object.values(one.counts).reduce((a, b) => a + b, 0), lines);
  assert.deepEqual(one, two);
  assert.equal(one.ok, false);
  assert.ok(one.counts.newly_rejected > 0);
  assert.ok(one.records.every((r) => r.class !== 'unchanged'));
  const md = one.toMarkdown();
  assert.match(md, /NEW would reject/);
  assert.match(one.toText(), /newly_rejected|newly rejected/);
  assert.deepEqual(Object.keys(JSON.parse(JSON.stringify(one))), Object.keys(one)); // renderings are not data
});

test('without records only the static part is computed', async () => {
  const d = await diffPolicies(OLD, NEW);
  assert.equal(d.replayed, false);
  assert.ok(d.static_changes.some((c) => c.field === 'constraints.resources.max_cpu' && c.old === '8' && c.new === '4'));
  assert.equal(d.ok, true);
});

test('policies may be text or values; records an array of values', async () => {
  const d = await diffPolicies({ constraints: { resources: { max_cpu: '8' } } }, 'constraints: {resources: {max_cpu: "4"}}',
    [{ resources: { cpu: '6' } }, { id: 'small', sandbox: { resources: { cpu: '1' } } }]);
  assert.deepEqual(d.counts, { newly_rejected: 1, newly_accepted: 0, rejection_changed: 0, resolution_changed: 0, unchanged: 1, unreadable: 0 });
  assert.equal(d.records[0].record, 1);
  assert.deepEqual(d.records[0].caused_by.map((c) => c.field), ['constraints.resources.max_cpu']);
  // Each error says what NEW would accept, as check() does.
  assert.deepEqual(d.records[0].errors.map((e) => [e.code, e.hint]), [['SG_RESOURCE_ABOVE_MAX', 'request at most 4']]);
});

test('wrong arguments reject with TypeError; runners with errors are refused', async () => {
  await assert.rejects(diffPolicies(OLD, NEW, 5), TypeError);
  await assert.rejects(diffPolicies(OLD, NEW, [], { polcy: 1 }), TypeError);
  await assert.rejects(diffPolicies(OLD, NEW, [], { client: 'rust' }), TypeError);
  await assert.rejects(diffPolicies(OLD, NEW, [], { jobs: -1 }), TypeError);
  // jobs as the CLI's --jobs (1 to 1024) and 0 for every core: not thousands of threads, nor a
  // bare EAGAIN, nor a value that wraps.
  for (const jobs of [1025, 5000, 1e9, 2 ** 31, 2 ** 32 + 2, 2 ** 53, Infinity, NaN, 1.5, '2', 2n]) {
    await assert.rejects(diffPolicies(OLD, NEW, [{}], { jobs }), (e) => e instanceof TypeError &&
      e.message.startsWith('diffPolicies options: jobs must be an integer from 0 (every core) to 1024, as the CLI\'s --jobs, not ') &&
      e.message.endsWith(typeof jobs === 'number' ? String(jobs) : `a ${typeof jobs}`), String(jobs));
  }
  const counts = (await diffPolicies(OLD, NEW, [{}, {}], { jobs: 1024 })).counts;
  assert.equal(Object.values(counts).reduce((a, b) => a + b), 2, JSON.stringify(counts));
  for (const examples of [-1, 2 ** 53, 0.5, '5']) await assert.rejects(diffPolicies(OLD, NEW, [], { examples }), /examples must be a non-negative integer, not /);
  // A count of examples past 2^32 keeps every example (it does not wrap to 0).
  const all = await diffPolicies(OLD, NEW, STREAM, { examples: 2 ** 40 });
  assert.deepEqual(all.newly_rejected_by_code, (await diffPolicies(OLD, NEW, STREAM, { examples: 1e6 })).newly_rejected_by_code);
  // Runners or an org with errors are refused, as the CLI refuses them, in a grammatical sentence.
  await assert.rejects(diffPolicies(OLD, NEW, [], { runners: 'runners: 5' }),
    { message: /^diffPolicies: the runners input has errors; fix them first: SG_\w+ at \/runners: / });
  await assert.rejects(diffPolicies(OLD, NEW, [], { org: 'gpu_allowed: 5' }),
    { message: /^diffPolicies: the org input has errors; fix them first: SG_\w+ at \/gpu_allowed: / });
});

test('a records file keeps its name, as the CLI names it; two text policies are <old> and <new>', async () => {
  const file = fileURLToPath(example('requests.jsonl'));
  for (const records of [file, example('requests.jsonl')]) {
    const d = await diffPolicies(OLD, NEW, records);
    assert.equal(d.requests, file);
    const error = d.records.flatMap((r) => r.errors)[0];
    assert.equal(error?.source?.file, file, JSON.stringify(error));
  }
  // Stream text has no name.
  assert.equal((await diffPolicies(OLD, NEW, STREAM)).requests, '<records>');
  const text = await diffPolicies('constraints:\n  resources: {max_cpu: "4"}\n', Buffer.from('constraints:\n  resources: {max_cpu: "8"}\n'), []);
  assert.deepEqual([text.old, text.new, text.static_changes[0].old_source, text.static_changes[0].new_source], ['<old>', '<new>', '<old>:2', '<new>:2']);
  assert.match(text.toText(), /^policy diff: <old> → <new>/);
  const broken = await diffPolicies('constraints: [', {}, []);
  assert.equal(broken.old_errors[0].source.file, '<old>');
});
