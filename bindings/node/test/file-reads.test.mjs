// Files named by a path or a file: URL: read up to the document size limit (SPEC §1.2) + 1 byte,
// as the CLI reads them, and an error that names the input and the path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { check, Checker, checkMany, diffPolicies, Policy, validatePolicy } from 'sandgate';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandgate-file-reads-'));

test('an endless file (/dev/zero) is SG_DOC_TOO_LARGE, not read without limit', { skip: !fs.existsSync('/dev/zero') }, () => {
  const zeroYaml = path.join(dir, 'zero.yaml');
  fs.symlinkSync('/dev/zero', zeroYaml);
  const script = fileURLToPath(new URL('./fixtures/endless-file.cjs', import.meta.url));
  // Under a 4 GB address-space limit, so that reading without limit fails at once rather than
  // growing until the OOM killer comes.
  const run = spawnSync('/bin/sh', ['-c', 'ulimit -v 4000000; exec "$0" "$@"', process.execPath, script, zeroYaml],
    { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, `${run.signal ?? ''} ${run.stderr}`);
  const tooLarge = ['SG_DOC_TOO_LARGE'];
  assert.deepEqual(JSON.parse(run.stdout), { load: tooLarge, url: tooLarge, path: tooLarge, validate: tooLarge, defaults: tooLarge });
});

test('a file past the limit is SG_DOC_TOO_LARGE as the CLI says it; one at the limit is read whole', () => {
  const max = 4 << 20;
  const big = path.join(dir, 'big.yaml');
  fs.writeFileSync(big, `# ${'x'.repeat(max + 100)}\n{}\n`);
  const d = Policy.load(big).diagnostics[0];
  assert.equal(d.code, 'SG_DOC_TOO_LARGE');
  assert.equal(d.message, `the document is larger than the limit of 4 MiB (at least ${max + 1} bytes)`);
  assert.deepEqual(d.source, { file: big, line: 1, column: 1 });
  const fits = path.join(dir, 'fits.yaml');
  fs.writeFileSync(fits, `# ${'x'.repeat(max - 6)}\n{}\n`);
  assert.equal(fs.statSync(fits).size, max);
  assert.equal(Policy.load(fits).ok, true);
  assert.equal(check({}, { policy: fits }).ok, true);
});

test('a directory given as a path names the input and the path (EISDIR)', async () => {
  const sub = path.join(dir, 'policies.yaml');
  fs.mkdirSync(sub);
  const named = (input) => (e) => e.code === 'EISDIR' && e.path === sub && e.message.includes(`${input}: ${JSON.stringify(sub)} is a directory`);
  assert.throws(() => check(sub), named('sandbox'));
  assert.throws(() => check({}, { policy: sub }), named('policy'));
  assert.throws(() => check({}, { runners: pathToFileURL(sub) }), named('runners'));
  assert.throws(() => validatePolicy(sub), named('policy'));
  assert.throws(() => Policy.load(sub), named('Policy.load'));
  assert.throws(() => new Checker().check({}, { overrides: sub }), named('overrides'));
  await assert.rejects(checkMany([{}], { defaults: sub }), named('defaults'));
});

test('a file: URL or Policy.load that names no file gets no hint about the Input kinds rule', () => {
  const missing = path.join(dir, 'missing.yaml');
  assert.throws(() => Policy.load(missing), (e) => e.code === 'ENOENT' && !/read as a file path/.test(e.message));
  assert.throws(() => check({}, { policy: pathToFileURL(missing) }), (e) => e.code === 'ENOENT' && !/read as a file path/.test(e.message));
  assert.throws(() => check({}, { policy: missing }), (e) => e.code === 'ENOENT' && /policy: a string without line breaks/.test(e.message));
});

test('a path that names nothing is told the path it most likely meant, by the core\'s rules', async () => {
  const home = path.join(dir, 'meant');
  fs.mkdirSync(path.join(home, 'sandboxes'), { recursive: true });
  fs.writeFileSync(path.join(home, 'policy.yaml'), '{}\n');
  fs.writeFileSync(path.join(home, 'policy-v2.yaml'), '{}\n');
  fs.writeFileSync(path.join(home, 'sandboxes', 'prod-ok.yaml'), '{}\n');
  const meant = (wanted) => (e) => e.code === 'ENOENT' && e.message.endsWith(` (did you mean ${JSON.stringify(path.join(home, wanted))}?)`) &&
    !/read as a file path/.test(e.message);
  assert.throws(() => check({}, { policy: path.join(home, 'policy.yml') }), meant('policy.yaml'));
  assert.throws(() => Policy.load(path.join(home, 'Policy.yaml')), meant('policy.yaml'));
  assert.throws(() => check({}, { runners: pathToFileURL(path.join(home, 'polcy.yaml')) }), meant('policy.yaml'));
  assert.throws(() => check(path.join(home, 'sandbox', 'prod-ok.yml')), meant(path.join('sandboxes', 'prod-ok.yaml')));
  await assert.rejects(checkMany([{}], { defaults: path.join(home, 'polic.yaml') }), meant('policy.yaml'));
  // Another version of a file is not a typo of its name: the Input kinds rule's hint instead.
  assert.throws(() => check({}, { policy: path.join(home, 'policy-v3.yaml') }),
    (e) => e.code === 'ENOENT' && !/did you mean/.test(e.message) && /policy: a string without line breaks/.test(e.message));
});

// diffPolicies' records are a stream, which may be longer than the document size limit: a file of
// them is read as the CLI reads `--requests FILE`, record by record in bounded memory, so an
// endless one (/dev/zero) is read on and on (as `sandgate policy diff … --requests /dev/zero` is),
// never whole into memory.
test('an endless records file is read in bounded memory, as the CLI reads --requests', { skip: !fs.existsSync('/dev/zero') }, () => {
  const zeroJsonl = path.join(dir, 'zero.json'); // a path by the rule
  fs.symlinkSync('/dev/zero', zeroJsonl);
  const script = fileURLToPath(new URL('./fixtures/endless-records.cjs', import.meta.url));
  const run = spawnSync('/bin/sh', ['-c', 'ulimit -v 4000000; exec "$0" "$@"', process.execPath, script, zeroJsonl],
    { encoding: 'utf8', timeout: 60_000 });
  // process.exit() ends the child while the reads go on (it waited for them, and the timeout came).
  assert.deepEqual([run.status, run.signal], [0, null], run.stderr);
  const { grewMiB, settled } = JSON.parse(run.stdout);
  assert.deepEqual(settled, [], 'still reading, as the CLI is');
  assert.ok(grewMiB < 256, `the resident set grew by ${grewMiB} MiB`);
});

// A FIFO has no end until its last writer closes it, and may never get a writer at all.
const mkfifo = (name) => {
  const fifo = path.join(dir, name);
  return spawnSync('mkfifo', [fifo]).status === 0 ? fifo : null;
};

test('process.exit() ends the process while diffPolicies reads a FIFO that never ends', () => {
  const script = fileURLToPath(new URL('./fixtures/exit-while-reading.cjs', import.meta.url));
  for (const mode of ['none', 'writer']) {
    const fifo = mkfifo(`exit-${mode}.json`);
    if (fifo === null) return; // no mkfifo here
    const run = spawnSync(process.execPath, [script, fifo, mode], { encoding: 'utf8', timeout: 60_000 });
    // Before, process.exit() waited for the read, which never ends: the timeout killed the child.
    assert.deepEqual([run.status, run.signal, run.stdout], [0, null, ''], `${mode}: ${run.stderr}`);
  }
});

test('a FIFO of records is read to its end, as the same records in a regular file are', async () => {
  const file = fileURLToPath(new URL('../../../examples/requests.jsonl', import.meta.url));
  const fifo = mkfifo('requests-fifo.json');
  if (fifo === null) return;
  const policies = [new URL('../../../examples/policies/production-cks.yaml', import.meta.url), new URL('../../../examples/policies/production-cks-v2.yaml', import.meta.url)]
    .map((u) => Policy.load(u));
  const want = await diffPolicies(...policies, file);
  const [got] = await Promise.all([diffPolicies(...policies, fifo), fs.promises.writeFile(fifo, fs.readFileSync(file))]);
  assert.ok(want.records.length > 0);
  assert.deepEqual(JSON.parse(JSON.stringify(got).replaceAll(JSON.stringify(fifo).slice(1, -1), JSON.stringify(file).slice(1, -1))), JSON.parse(JSON.stringify(want)));
});

// Each diff of a FIFO reads it through pipes of its own (src/records_feed.h). They are closed once
// the diff settles: before, the function index.js keeps to stop the read at exit held them until
// the garbage collector freed it, and about 20,000 diffs in a loop ran out of descriptors (EMFILE).
test('diffs of a FIFO give their descriptors back when they settle', { skip: !fs.existsSync('/proc/self/fd') }, async () => {
  const fifo = mkfifo('descriptors.json');
  if (fifo === null) return;
  const diff = () => Promise.all([
    diffPolicies({}, { constraints: { resources: { max_cpu: '4' } } }, fifo),
    fs.promises.writeFile(fifo, '{"resources": {"cpu": "8"}}\n'),
  ]);
  const open = () => fs.readdirSync('/proc/self/fd').length;
  const [first] = await diff();
  assert.equal(first.counts.newly_rejected, 1);
  const before = open();
  for (let i = 0; i < 200; i++) await diff();
  assert.ok(open() - before < 20, `${open() - before} more descriptors open after 200 diffs`);
});

test('a records file keeps the errors of a path: ENOENT with the rule\'s hint, EISDIR naming it', async () => {
  const missing = path.join(dir, 'missing-records.json');
  await assert.rejects(diffPolicies({}, {}, missing), (e) => e.code === 'ENOENT' && /diffPolicies: records: a string without line breaks/.test(e.message));
  await assert.rejects(diffPolicies({}, {}, pathToFileURL(missing)), (e) => e.code === 'ENOENT' && !/read as a file path/.test(e.message));
  const sub = path.join(dir, 'records.json');
  fs.mkdirSync(sub);
  await assert.rejects(diffPolicies({}, {}, sub), (e) => e.code === 'EISDIR' && e.path === sub &&
    e.message.includes(`diffPolicies: records: ${JSON.stringify(sub)} is a directory`));
});
