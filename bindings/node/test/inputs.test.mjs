// The one rule for document inputs (docs/node.md, "Input kinds"), mirroring Python's: for every
// public function that takes a document, each kind of value is read as the rule says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { check, checkMany, Checker, diffPolicies, Policy, validatePolicy } from 'sandgate';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandgate-inputs-'));
const write = (name, text) => { const p = path.join(dir, name); fs.writeFileSync(p, text); return p; };
const POLICY = 'constraints:\n  resources: {max_cpu: "4"}\n';
const policyYaml = write('policy.YML', POLICY);                       // suffix in any case
const policyNoExt = write('policy-no-extension', POLICY);             // an existing file, no suffix
const runnersJson = write('runners.json', JSON.stringify({ runners: [{ runner_id: 'prod-us-east-1', mode: 'serverless' }] }));
const bigSandbox = write('big.yaml', 'resources: {cpu: "8", memory: 1Gi}\n');
const errorCodes = (r) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
const over = { resources: { cpu: '8', memory: '1Gi' } };

test('a string: a path when it ends in .yaml/.yml/.json or names a file, else text', () => {
  for (const policy of [policyYaml, policyNoExt, pathToFileURL(policyYaml), POLICY, Buffer.from(POLICY), new TextEncoder().encode(POLICY)]) {
    assert.deepEqual(errorCodes(check(over, { policy })), ['SG_RESOURCE_ABOVE_MAX'], String(policy));
  }
  // A file's diagnostics name the file, as the CLI's do.
  const bad = write('bad.yaml', 'constraints:\n  resources: {max_cpu: "four"}\n');
  const d = validatePolicy(bad).diagnostics.find((x) => x.severity === 'error');
  assert.equal(d.source?.file, bad, JSON.stringify(d));
  // A carriage return is a line break too: text, even when it ends in .yaml.
  const cr = validatePolicy('constraints: {}\r# see policy.yaml');
  assert.equal(cr.ok, false);
  assert.equal(cr.diagnostics[0].source?.file, '<policy>', JSON.stringify(cr.diagnostics));
  // One-line JSON text and a name with a line break are text, not paths.
  assert.equal(check(over, { policy: '{"constraints": {"resources": {"max_cpu": "16"}}}' }).ok, true);
  assert.equal(check('resources: {cpu: "8", memory: 1Gi}\n', { policy: policyYaml }).ok, false);
  assert.deepEqual(errorCodes(check(bigSandbox, { policy: policyYaml })), ['SG_RESOURCE_ABOVE_MAX'], 'the sandbox too');
  assert.equal(check(over, { runners: runnersJson, defaults: write('d.yml', 'annotations: {team: ml}\n') }).resolved.annotations.team, 'ml');
});

test('any typed array, a DataView and an ArrayBuffer are the text of all their bytes', () => {
  const bytes = new TextEncoder().encode(POLICY.length % 8 ? POLICY + ' '.repeat(8 - (POLICY.length % 8)) : POLICY);
  const { buffer } = bytes;
  for (const policy of [new Uint16Array(buffer), new Int32Array(buffer), new Float64Array(buffer), new BigUint64Array(buffer), new DataView(buffer), buffer]) {
    assert.deepEqual(errorCodes(check(over, { policy })), ['SG_RESOURCE_ABOVE_MAX'], policy.constructor.name);
    assert.equal(validatePolicy(policy).ok, true, policy.constructor.name);
  }
});

test('a missing path throws ENOENT saying how to pass text instead', () => {
  assert.throws(() => check(over, { policy: path.join(dir, 'missing.yaml') }), (e) => e.code === 'ENOENT' && /pass YAML\/JSON text as a Buffer/.test(e.message) && /policy:/.test(e.message));
  assert.throws(() => validatePolicy('nope.JSON'), { code: 'ENOENT' });
  assert.throws(() => Policy.load(path.join(dir, 'missing.yaml')), { code: 'ENOENT' });
});

test('null and undefined are "not given"', () => {
  for (const v of [null, undefined]) {
    const r = check(over, { policy: v, runners: v, org: v, defaults: v, overrides: v });
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
  }
});

test('what is not a document throws a TypeError naming the right call', () => {
  const p = Policy.fromText(POLICY);
  const cases = [
    [() => check(over, { runners: p }), /runners: got a sandgate Policy; pass it as the policy option/],
    [() => check(p), /sandbox: got a sandgate Policy/],
    [() => check(over, { defaults: p }), /defaults: got a sandgate Policy/],
    [() => check(class Spec {}), /sandbox: got the class Spec; pass an instance/],
    [() => check(() => over), /sandbox: got a function; pass its result/],
    [() => check(over, { policy: Readable.from([POLICY]) }), /policy: got a stream; pass its path, or its text/],
    [() => check(over, { policy: fs.createReadStream(policyYaml) }), /policy: got a stream/],
    [() => check(over, { org: new URL('https://example.com/org.yaml') }), /org: only a file: URL names a file, not a https: URL/],
    [() => new Checker({ org: p }), /org: got a sandgate Policy/],
    [() => new Checker({ policy: policyYaml }).check(p), /sandbox: got a sandgate Policy/],
    [() => validatePolicy(() => 1), /policy: got a function/],
    [() => Policy.load({ path: policyYaml }), /Policy\.load expects a path .*Policy\.fromObject/],
  ];
  for (const [call, message] of cases) assert.throws(call, (e) => e instanceof TypeError && message.test(e.message), String(message));
});

test('Checker, checkMany and validatePolicy follow the rule', async () => {
  const checker = new Checker({ policy: policyYaml, runners: runnersJson });
  assert.deepEqual(errorCodes(checker.check(bigSandbox)), ['SG_RESOURCE_ABOVE_MAX']);
  assert.deepEqual(errorCodes(checker.check(over, { defaults: pathToFileURL(write('d2.yaml', 'annotations: {a: b}\n')) })), ['SG_RESOURCE_ABOVE_MAX']);
  const results = await checkMany([over, { sandbox: over, policy: policyNoExt }, { sandbox: over, policy: '{}' }], { policy: policyYaml });
  assert.deepEqual(results.map(errorCodes), [['SG_RESOURCE_ABOVE_MAX'], ['SG_RESOURCE_ABOVE_MAX'], []]);
  // A string item is a record's text (a JSON Lines line), never a path, as in Python's check_many:
  // a path is not JSON.
  const [item] = await checkMany([bigSandbox], { policy: policyYaml });
  assert.deepEqual(errorCodes(item), ['SG_SYNTAX']);
  await assert.rejects(checkMany([over], { runners: Policy.fromObject({}) }), TypeError);
  // An item's `sandbox` follows the rule as its other layers do: a path is the file.
  const byPath = await checkMany([{ sandbox: bigSandbox }, { sandbox: pathToFileURL(bigSandbox) }, { sandbox: 'resources: {cpu: "8", memory: 1Gi}' }], { policy: policyYaml });
  assert.deepEqual(byPath.map(errorCodes), [['SG_RESOURCE_ABOVE_MAX'], ['SG_RESOURCE_ABOVE_MAX'], ['SG_RESOURCE_ABOVE_MAX']]);
  assert.deepEqual(byPath[0], check(bigSandbox, { policy: policyYaml }));
  assert.equal(byPath[0].diagnostics[0].source.file, bigSandbox);
  assert.equal(byPath[2].diagnostics[0].source.file, '<sandbox>');
  for (const v of [policyYaml, pathToFileURL(policyYaml), POLICY, Buffer.from(POLICY), Policy.load(policyYaml), { constraints: {} }]) {
    assert.equal(validatePolicy(v).ok, true, String(v));
  }
});

test('diffPolicies: policies and records by the rule', async () => {
  const newer = write('new.yaml', 'constraints:\n  resources: {max_cpu: "2"}\n');
  const records = write('requests.jsonl', '{"id": "a", "sandbox": {"resources": {"cpu": "3", "memory": "1Gi"}}}\n');
  for (const [a, b, r] of [[policyYaml, newer, records], [pathToFileURL(policyYaml), pathToFileURL(newer), pathToFileURL(records)],
    [POLICY, fs.readFileSync(newer), fs.readFileSync(records, 'utf8')]]) {
    const diff = await diffPolicies(a, b, r);
    assert.equal(diff.counts.newly_rejected, 1, String(a));
  }
  await assert.rejects(diffPolicies(policyYaml, newer, Readable.from(['{}'])), /records: got a stream/);
  await assert.rejects(diffPolicies(policyYaml, newer, null, { runners: Policy.load(newer) }), /runners: got a sandgate Policy/);
});

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

// A string the rule read as text whose document is one bare string is most often a path the rule
// did not take for one: the "must be an object …, not a string" says so, and whether that file
// exists (docs/node.md, "Input kinds").
test('a string read as text whose document is a bare string: the hint says it was not a path', async () => {
  const missing = path.join(dir, 'policy');       // policy.YML exists: the extension was left off
  const spaced = `${policyYaml} `;                // a trailing space
  const nonFile = path.join(dir);                 // a directory
  const hintOf = (r, input) => {
    const d = r.diagnostics.find((x) => x.input === input && x.path === '' && x.severity === 'error');
    assert.ok(d, `${input}: ${JSON.stringify(r.diagnostics)}`);
    assert.match(d.message, /not a string/);
    return d.hint ?? '';
  };
  const readAsText = /this string was read as YAML text, not as a path \(docs\/node\.md, Input kinds: .*ends in \.yaml, \.yml or \.json or names an existing file\)/;
  for (const input of ['policy', 'runners', 'org', 'defaults', 'overrides']) {
    const h = hintOf(check({}, { [input]: missing }), input);
    assert.match(h, readAsText, input);
    assert.match(h, new RegExp(`no file named ${JSON.stringify(missing).replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')} exists`), input);
    assert.match(h, /pass a file: URL/, input);
  }
  const h = hintOf(check(missing), 'sandbox');
  assert.match(h, /no file named .* exists/);
  assert.match(hintOf(check(spaced), 'sandbox'), /the file ".*policy\.YML" exists: remove the white space around its name/);
  assert.match(hintOf(check(nonFile), 'sandbox'), /is a directory, not a file/);
  assert.match(hintOf(check('/dev/null'), 'sandbox'), /"\/dev\/null" is not a regular file: to read it, pass a file: URL/);
  // The same from every entry point where the rule applies.
  assert.match(hintOf(validatePolicy(missing), 'policy'), readAsText);
  assert.match(hintOf(new Checker({ policy: missing }).check({}), 'policy'), readAsText);
  assert.match(hintOf(new Checker().check({}, { defaults: missing }), 'defaults'), readAsText);
  const [a, b] = await checkMany([{ sandbox: missing }, {}], { overrides: missing });
  assert.match(hintOf(a, 'sandbox'), readAsText);
  assert.match(hintOf(b, 'overrides'), readAsText);
  await assert.rejects(diffPolicies({}, {}, undefined, { runners: missing }), { message: /not a string.*this string was read as YAML text/s });
  // Not where the string was meant as text: Policy.fromText, a Buffer, text of more than one line,
  // or a document that is not a bare string.
  assert.equal(hintOf(Policy.fromText(missing), 'policy'), '');
  assert.equal(hintOf(check(Buffer.from(missing)), 'sandbox'), '');
  assert.equal(hintOf(check(`${missing}\n`), 'sandbox'), '');
  assert.equal(check('42').diagnostics.some((d) => readAsText.test(d.hint ?? '')), false);
});

// diffPolicies' old_errors and new_errors get the hint check() gives the same string as `policy`,
// each side its own, and only where the rule read a one-line string as text.
test('diffPolicies: a policy string read as text whose document is a bare string gets the hint', async () => {
  const missing = path.join(dir, 'policy');       // no such file
  const spaced = `${policyYaml} `;                // a trailing space
  const hintOf = (errors) => {
    const e = errors.find((x) => x.input === 'policy' && x.path === '');
    assert.ok(e, JSON.stringify(errors));
    assert.match(e.message, /not a string/);
    return e.hint ?? '';
  };
  const fromCheck = (policy) => check({}, { policy }).diagnostics.find((x) => x.input === 'policy' && x.path === '').hint;
  const d = await diffPolicies(missing, spaced, [{}]);
  assert.equal(hintOf(d.old_errors), fromCheck(missing));
  assert.equal(hintOf(d.new_errors), fromCheck(spaced));
  assert.match(hintOf(d.old_errors), /^this string was read as YAML text, not as a path .*; no file named ".*policy" exists/);
  assert.match(hintOf(d.new_errors), /the file ".*policy\.YML" exists: remove the white space around its name/);
  // Not where the string was meant as text: Policy.fromText, a Buffer, text of more than one line.
  const meant = await diffPolicies(Policy.fromText(missing), Buffer.from(missing));
  assert.equal(hintOf(meant.old_errors), '');
  assert.equal(hintOf(meant.new_errors), '');
  assert.equal(hintOf((await diffPolicies(`${missing}\n`, {})).old_errors), '');
});
