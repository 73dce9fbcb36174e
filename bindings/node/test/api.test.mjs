// The API surface: every function, both module systems, the result shapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import sandgateDefault, * as sandgate from 'sandgate';

const require = createRequire(import.meta.url);
const examples = new URL('../../../examples/', import.meta.url);
const readExample = (p) => readFileSync(new URL(p, examples), 'utf8');

const { Checker, Policy, check, checkMany, codes, compareQuantities, exceptionAncestors, exceptionFor, grpcCodes,
  isSpillEligible, knownReasons, normalizeResources, parseQuantity, QuantityError, validatePolicy } = sandgate;

test('require and import give the same module', () => {
  const cjs = require('sandgate');
  assert.equal(cjs, sandgateDefault);
  assert.equal(cjs.check, sandgate.check);
  for (const name of Object.keys(cjs)) assert.ok(name in sandgate, `ESM lacks the named export ${name}`);
});

test('the package version is the repository VERSION', () => {
  const version = readFileSync(new URL('../../../VERSION', import.meta.url), 'utf8').trim();
  assert.equal(require('../package.json').version, version);
  assert.equal(sandgate.version, version, 'the addon was built from another VERSION');
});

test('check accepts the TypeScript SDK spelling and answers with the SPEC §7 fields', () => {
  const r = check({ containerImage: 'python:3.11', resources: { cpu: '1', memory: '1Gi' }, maxLifetimeSeconds: 900 });
  assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
  assert.deepEqual(Object.keys(r), ['ok', 'placement_mode', 'qos_class', 'runner', 'resolved', 'provenance',
    'rules_applied', 'gpu', 'runtime_class', 'slurm', 'diagnostics']);
  assert.equal(r.placement_mode, 'serverless');
  assert.equal(r.qos_class, 'Guaranteed');
  assert.equal(r.resolved.container_image, 'python:3.11');
  assert.equal(r.resolved.max_lifetime_seconds, 900);
  assert.equal(r.provenance['/container_image'], 'sandbox');
  assert.equal(r.rules_applied['/max_lifetime_seconds'], undefined, 'the request set it: no rule decided it');
  assert.equal(r.rules_applied['/resources'], 'N-QOS');
  assert.equal(Object.getPrototypeOf(r), Object.prototype, 'results are plain objects');
  assert.equal(typeof r.raiseForErrors, 'function');
  assert.equal(Object.keys(r).includes('raiseForErrors'), false, 'raiseForErrors is not enumerable');
  assert.deepEqual(JSON.parse(JSON.stringify(r)).ok, true);
});

test('snake_case and camelCase inputs resolve alike; both at once is a duplicate spelling', () => {
  const a = check({ container_image: 'x:1', max_lifetime_seconds: 60, resources: { cpu: '1', memory: '1Gi' } });
  const b = check({ containerImage: 'x:1', maxLifetimeSeconds: 60, resources: { cpu: '1', memory: '1Gi' } });
  assert.deepEqual(a.resolved, b.resolved);
  const both = check({ container_image: 'x:1', containerImage: 'x:1' });
  assert.ok(both.diagnostics.some((d) => d.code === 'SG_DUPLICATE_SPELLING'));
});

test('diagnostics carry the SPEC §3 fields', () => {
  const r = check('resources: {cpu: 2, memory: 1Gi}\n', { client: 'python' });
  assert.equal(r.ok, false);
  const d = r.diagnostics.find((x) => x.severity === 'error');
  assert.deepEqual(Object.keys(d), ['rule', 'code', 'severity', 'reason', 'grpc_code', 'python_exception',
    'js_exception', 'input', 'path', 'source', 'message', 'hint', 'related']);
  assert.equal(d.input, 'sandbox');
  assert.equal(d.path, '/resources/cpu');
  assert.deepEqual(d.source, { file: '<sandbox>', line: 1, column: 18 });
});

test('the default client is typescript; python is an option', () => {
  const spec = { resources: { cpu: '1', memory: '1Gi' }, tags: ['a', 'a'] };
  const ts = check(spec);
  const py = check(spec, { client: 'python' });
  const dup = (r) => r.diagnostics.find((d) => d.code === 'SG_TAG_DUPLICATE');
  assert.equal(dup(ts).severity, 'error');
  assert.equal(dup(py).severity, 'warning');
  assert.equal(new Checker().client, 'typescript');
});

test('check reads every input as an object or as text', () => {
  const policy = YAML.parse(readExample('policies/gpu-cks.yaml'));
  const runners = readExample('runners.yaml');
  const org = YAML.parse(readExample('org.yaml'));
  const sandbox = readExample('sandboxes/gpu-wrong-case.yaml');
  for (const p of [policy, readExample('policies/gpu-cks.yaml'), Policy.fromObject(policy)]) {
    const r = check(sandbox, { policy: p, runners, org, client: 'python' });
    assert.equal(r.ok, false);
    assert.ok(r.diagnostics.some((d) => d.code === 'SG_GPU_TYPE_UNAVAILABLE'), JSON.stringify(r.diagnostics));
  }
});

test('defaults and function overrides are layers around the sandbox', () => {
  const r = check({ max_lifetime_seconds: 1800, resources: { cpu: '1', memory: '1Gi' } }, {
    defaults: { max_lifetime_seconds: 1200, command: '/bin/bash' },
    overrides: 'max_lifetime_seconds: 3600\n',
  });
  assert.equal(r.resolved.max_lifetime_seconds, 3600);
  assert.equal(r.resolved.command, '/bin/bash');
  assert.equal(r.provenance['/max_lifetime_seconds'], 'function');
});

test('misused options are TypeErrors, not diagnostics', () => {
  assert.throws(() => check({}, { client: 'java' }), TypeError);
  assert.throws(() => check({}, { placement: 'moon' }), TypeError);
  assert.throws(() => check({}, { polciy: {} }), /unknown option "polciy"/);
  assert.throws(() => check({}, 'client: python'), TypeError);
  assert.throws(() => normalizeResources({}, { client: 'go' }), TypeError);
  // A Policy where the options go has no own keys: it used to be read as "no options" and the
  // request was checked against no policy.
  const policy = Policy.fromObject({ constraints: { resources: { maxCpu: '2' } } });
  assert.throws(() => check({}, policy), /not a Policy; pass it as \{ policy \}/);
  assert.throws(() => new Checker({ policy }).check({}, policy), /not a Policy/);
  assert.throws(() => check({}, new Map([['policy', policy]])), /plain object .* not a Map/);
  assert.equal(check({}, Object.assign(Object.create(null), { client: 'python' })).ok, true);
});

test('Policy.load, fromObject and fromText always give a Policy', () => {
  const file = new URL('policies/production-cks.yaml', examples);
  const p = Policy.load(file.pathname);
  assert.equal(p.ok, true, JSON.stringify(p.diagnostics));
  assert.equal(p.broken, false);
  assert.equal(p.document.display_name, 'prod-posture');
  const q = Policy.fromObject({ constraints: { resources: { maxCpu: '2' } } });
  assert.equal(q.ok, true);
  assert.equal(q.document.constraints.resources.max_cpu, '2', 'REST camelCase is read as proto snake_case');
  const bad = Policy.fromText('constraints: {resources: {max_cpu: 2}}\n', { file: 'p.yaml' });
  assert.equal(bad.ok, false);
  assert.equal(bad.broken, false);
  assert.equal(bad.errors[0].code, 'SG_NOT_A_STRING');
  assert.equal(bad.errors[0].source.file, 'p.yaml');
  assert.throws(() => bad.raiseForErrors(), sandgate.CWSandboxValidationError);
  assert.equal(Policy.fromObject(null).isNull, true);
  assert.throws(() => new Policy(), TypeError);
  assert.throws(() => Policy.fromText({}), TypeError);
  assert.throws(() => Policy.load('/nonexistent/policy.yaml'), { code: 'ENOENT' });
});

test('policy.check is check with that policy, every option passed on', () => {
  const policy = Policy.load(new URL('policies/gpu-cks.yaml', examples).pathname);
  const runners = readExample('runners.yaml');
  const res = { cpu: '1', memory: '1Gi' };
  const sandbox = { placementMode: 'cks', runnerIds: ['gpu-us-east-1'],
    resources: { requests: res, limits: res, gpu: { count: 1, type: 'h100' } } };
  const cases = [
    undefined,
    { runners, org: { gpuAllowed: true } },
    { runners, org: { gpuAllowed: true }, client: 'python', placement: 'serverless' },
    { defaults: { tags: ['a'] }, overrides: { resources: { cpu: '64' } }, runners },
  ];
  const answers = new Set();
  for (const options of cases) {
    const mine = JSON.stringify(policy.check(sandbox, options));
    assert.equal(mine, JSON.stringify(check(sandbox, { ...options, policy })), JSON.stringify(options));
    answers.add(mine);
  }
  assert.equal(answers.size, cases.length, 'every option reaches the check');
  assert.throws(() => policy.check(sandbox, { policy }), /take no policy/);
  assert.throws(() => policy.check(sandbox, 'runners.yaml'), /must be an object/);
  assert.throws(() => policy.check(sandbox, { runner: runners }), TypeError);
});

test('a broken policy text gives a broken Policy whose errors every check returns', () => {
  const broken = Policy.fromText('constraints: [\n');
  assert.equal(broken.broken, true);
  assert.equal(broken.ok, false);
  assert.equal(broken.document, null);
  const r = check({ resources: { cpu: '1', memory: '1Gi' } }, { policy: broken });
  assert.equal(r.ok, false);
  assert.deepEqual(r.diagnostics.map((d) => d.code), broken.errors.map((d) => d.code));
  assert.equal(r.placement_mode, undefined);
});

test('Policy.load reads bytes, so invalid UTF-8 is the engine\'s diagnostic', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandgate-'));
  const path = join(dir, 'bad.yaml');
  writeFileSync(path, Buffer.from([0x64, 0x3a, 0x20, 0xff, 0x0a]));
  const p = Policy.load(path);
  assert.equal(p.broken, true);
  assert.equal(p.diagnostics[0].code, 'SG_INVALID_UTF8');
  assert.equal(p.diagnostics[0].source.file, path);
});

test('validatePolicy takes text, objects and Policies', () => {
  const text = 'base:\n  spec:\n    affinity: {}\n';
  const byText = validatePolicy(text);
  assert.equal(byText.ok, false);
  assert.deepEqual(byText.diagnostics.map((d) => [d.code, d.path, d.source?.line]), [['SG_BASE_FORBIDDEN_FIELD', '/base/spec/affinity', 3]]);
  const byObject = validatePolicy({ base: { spec: { affinity: {} } } });
  assert.deepEqual(byObject.diagnostics.map((d) => [d.code, d.path, d.source]), [['SG_BASE_FORBIDDEN_FIELD', '/base/spec/affinity', null]]);
  assert.deepEqual(validatePolicy(Policy.fromText(text)).diagnostics, byText.diagnostics);
  assert.deepEqual(Object.keys(validatePolicy('{}')), ['ok', 'diagnostics']);
});

test('normalizeResources mirrors the SDK', () => {
  const flat = normalizeResources({ cpu: '2', memory: '4Gi', gpu: 1 }, { client: 'python' });
  assert.equal(flat.ok, true);
  assert.deepEqual(flat.resolved, { requests: { cpu: '2', memory: '4Gi' }, limits: { cpu: '2', memory: '4Gi' }, gpu: { count: 1 } });
  assert.equal(flat.qos_class, 'Guaranteed');
  const bad = normalizeResources({ requests: { cpu: '4' }, limits: { cpu: '2' } }, { client: 'python' });
  assert.equal(bad.ok, false);
  assert.equal(bad.diagnostics[0].code, 'SG_REQUEST_EXCEEDS_LIMIT');
  assert.equal(bad.diagnostics[0].path.startsWith('/resources'), true);
  const str = normalizeResources('cpu: 1');
  assert.equal(str.ok, false, 'a string is a wrong resources value, not YAML');
});

test('parseQuantity is exact and throws QuantityError', () => {
  assert.deepEqual({ ...parseQuantity('1.5Gi') }, { text: '1.5Gi', decimal: '1610612736', canonical: '1536Mi', milli: 1610612736000n, trimmed: false });
  assert.equal(parseQuantity('100m').decimal, '0.1');
  assert.equal(parseQuantity(' 1 ').trimmed, true);
  assert.equal(parseQuantity('1E3', 'kubernetes').decimal, '1000');
  assert.equal(parseQuantity('1P', 'kubernetes').milli, 10n ** 18n);
  // SPEC §9: exact past int64 (the SDK's Decimal has no bound); only milli says it does not fit.
  assert.deepEqual({ ...parseQuantity('1Ei') }, { text: '1Ei', decimal: '1152921504606846976', canonical: '1Ei', milli: null, trimmed: false });
  assert.equal(parseQuantity('1E', 'kubernetes').milli, null);
  assert.equal(compareQuantities('1Ei', '1E'), 1);
  assert.throws(() => parseQuantity('1K'), (e) => e instanceof QuantityError && e.kind === 'format' && e.name === 'QuantityError');
  assert.throws(() => parseQuantity('-1'), { kind: 'negative' });
  assert.throws(() => parseQuantity(''), { kind: 'empty' });
  assert.throws(() => parseQuantity('2E6024865272343', 'kubernetes'), { kind: 'exponent_too_large' });
  assert.throws(() => parseQuantity(5), TypeError);
  assert.throws(() => parseQuantity('1', 'k8s'), TypeError);
  assert.equal(compareQuantities('1Gi', '1000Mi'), 1);
  assert.equal(compareQuantities('1000m', '1'), 0);
  assert.equal(compareQuantities('500m', '1'), -1);
});

test('exceptionFor, isSpillEligible and exceptionAncestors follow SPEC §8', () => {
  assert.deepEqual(exceptionFor('UNAVAILABLE', 'CWSANDBOX_RUNNER_UNAVAILABLE'), { python: 'SandboxUnavailableError', js: 'CWSandboxUnavailableError' });
  assert.deepEqual(exceptionFor('RESOURCE_EXHAUSTED'), { python: 'SandboxResourceExhaustedError', js: 'CWSandboxResourceExhaustedError' });
  assert.deepEqual(exceptionFor('INVALID_ARGUMENT', null, null, false), { python: 'SandboxError', js: 'CWSandboxTransportError' });
  // Reasons count only from the trusted domain.
  assert.equal(exceptionFor('NOT_FOUND', 'CWSANDBOX_FILE_NOT_FOUND', 'example.com').js, 'CWSandboxNotFoundError');
  assert.equal(exceptionFor('NOT_FOUND', 'CWSANDBOX_FILE_NOT_FOUND').js, 'CWSandboxFileError');
  assert.equal(isSpillEligible('RESOURCE_EXHAUSTED', 'CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED'), true);
  assert.equal(isSpillEligible('RESOURCE_EXHAUSTED', 'CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED', 'example.com'), false);
  assert.equal(isSpillEligible('RESOURCE_EXHAUSTED', ''), false);
  assert.deepEqual(exceptionAncestors('CWSandboxUnavailableError'), ['CWSandboxUnavailableError', 'CWSandboxTransportError', 'CWSandboxError', 'Error']);
  assert.ok(exceptionAncestors('SandboxValidationError', 'python').includes('CWSandboxValidationError'));
  assert.ok(knownReasons().includes('CWSANDBOX_RUNNER_UNAVAILABLE'));
  assert.ok(grpcCodes().includes('INVALID_ARGUMENT'));
});

test('codes() is the engine table', () => {
  const table = codes();
  assert.ok(table.length > 50);
  const row = table.find((c) => c.code === 'SG_GPU_TYPE_AND_MEMORY');
  assert.deepEqual(Object.keys(row), ['code', 'rule', 'severity', 'reason', 'grpc_code', 'python_exception', 'js_exception', 'side', 'summary']);
  assert.equal(row.rule, 'R-GPU-3');
  assert.ok(Object.isFrozen(table) && Object.isFrozen(row));
  assert.equal(new Set(table.map((c) => c.code)).size, table.length, 'codes are unique');
});

test('a Checker compiles its inputs once and checks many times', async () => {
  const checker = new Checker({ policy: Policy.load(new URL('policies/production-cks.yaml', examples).pathname), runners: readExample('runners.yaml') });
  const ok = checker.check(readExample('sandboxes/prod-ok.yaml'));
  assert.equal(ok.ok, true, JSON.stringify(ok.diagnostics));
  const bad = checker.check(readExample('sandboxes/memory-volume-80.yaml'));
  assert.equal(bad.ok, false);
  const many = await checker.checkMany([{ sandbox: readExample('sandboxes/prod-ok.yaml') }, { sandbox: readExample('sandboxes/memory-volume-80.yaml') }]);
  assert.deepEqual(many.map((r) => r.ok), [true, false]);
  assert.deepEqual(many[0], ok);
});

// SPEC §10.1, as Python's check_many and diffPolicies read records: a string item is one JSON Lines
// line, a sandbox or {id, sandbox, defaults, overrides}, whose own layers replace the shared ones.
test('checkMany reads a string item as a record', async () => {
  const checker = new Checker({ client: 'python' });
  const shared = { defaults: { max_lifetime_seconds: 5 } };
  const [envelope, bare, own, yamlText, list] = await checker.checkMany([
    JSON.stringify({ id: 'a', sandbox: { container_image: 'python:3.11', tags: ['x'] } }),
    JSON.stringify({ container_image: 'python:3.11', tags: ['x'] }),
    JSON.stringify({ sandbox: {}, defaults: { max_lifetime_seconds: 77 } }),
    'container_image: python:3.11',
    '[1]',
  ], shared);
  const object = checker.check({ container_image: 'python:3.11', tags: ['x'] }, shared);
  for (const r of [envelope, bare]) {
    assert.deepEqual(r.diagnostics.map((d) => d.code), object.diagnostics.map((d) => d.code));
    assert.deepEqual(r.resolved, object.resolved);
  }
  assert.equal(own.resolved.max_lifetime_seconds, 77);
  assert.equal(envelope.resolved.max_lifetime_seconds, 5);
  assert.deepEqual(yamlText.diagnostics.map((d) => [d.code, d.source]), [['SG_SYNTAX', { file: '<records>', line: 4, column: 1 }]]);
  assert.deepEqual(list.diagnostics.map((d) => [d.code, d.source]), [['SG_NOT_AN_OBJECT', { file: '<records>', line: 5, column: 1 }]]);
});

test('checkMany items may carry their own layers and options', async () => {
  const results = await checkMany([
    { resources: { cpu: '1', memory: '1Gi' }, tags: ['a', 'a'] },
    { sandbox: { resources: { cpu: '1', memory: '1Gi' }, tags: ['a', 'a'] }, client: 'python' },
    { sandbox: { resources: { cpu: '1', memory: '1Gi' } }, policy: 'constraints: {lifecycle: {default_lifetime_seconds: 120}}' },
    { sandbox: {}, defaults: { max_lifetime_seconds: 77 } },
  ]);
  assert.deepEqual(results.map((r) => r.ok), [false, true, true, true]);
  assert.equal(results[2].resolved.max_lifetime_seconds, 120);
  assert.equal(results[3].resolved.max_lifetime_seconds, 77);
  await assert.rejects(checkMany('nope'), TypeError);
  await assert.rejects(checkMany([{ sandbox: {}, polcy: 1 }]), TypeError);
  await assert.rejects(checkMany([], { client: 'rust' }), TypeError);
  assert.deepEqual(await checkMany([]), []);
});

test("an item's own layers replace the shared ones, whatever kind of value either is", async () => {
  // Class instances are walked, not sent as JSON text: the item's own defaults must still win.
  class Defaults { constructor(image) { this.container_image = image; } }
  const sandbox = { resources: { cpu: '1', memory: '1Gi' } };
  for (const shared of [new Defaults('img:shared'), { container_image: 'img:shared' }]) {
    const results = await checkMany([
      { sandbox, defaults: new Defaults('img:own') },
      { sandbox, defaults: { container_image: 'img:own' } },
      { sandbox, overrides: new Defaults('img:over') },
      { sandbox },
    ], { defaults: shared });
    assert.deepEqual(results.map((r) => r.resolved.container_image), ['img:own', 'img:own', 'img:over', 'img:shared']);
  }
});

// As a Policy and Python's Result have them: `result.errors` was undefined on a check's result, so
// code written from the Python docs (`r.errors.map(…)`) threw a TypeError.
test('errors and warnings are the diagnostics of that severity, on every kind of result, not enumerable', async () => {
  const policy = Policy.load(new URL('policies/production-cks.yaml', examples));
  const bad = { container_image: 'python:3.11', resources: { cpu: 2 } };
  const warned = 'container_image: python:3.11\n';
  const checker = new Checker({ policy });
  const eager = () => {
    const before = require('../lib/native.js').resultsAsText(false);
    try {
      return check(bad, { policy });
    } finally {
      require('../lib/native.js').resultsAsText(before);
    }
  };
  const results = {
    'check(obj)': check(bad, { policy }),
    'Checker.check(obj)': checker.check(bad),
    'Checker.check(text)': checker.check(warned),
    'check(obj), built by the addon': eager(),
    'checkMany': (await checkMany([bad, warned], { policy }))[0],
    'validatePolicy': validatePolicy({ constraints: { bogus: 1 } }),
  };
  for (const [what, r] of Object.entries(results)) {
    // Read first, before anything else fills the result (a lazy result answers them from its text).
    const errors = r.errors;
    const warnings = r.warnings;
    assert.deepEqual(errors, r.diagnostics.filter((d) => d.severity === 'error'), what);
    assert.deepEqual(warnings, r.diagnostics.filter((d) => d.severity === 'warning'), what);
    assert.equal(errors.length > 0, !r.ok, what);
    assert.equal(Object.keys(r).includes('errors') || Object.keys(r).includes('warnings'), false, `${what}: not enumerable`);
    assert.equal('errors' in JSON.parse(JSON.stringify(r)), false, `${what}: not in the JSON`);
    assert.deepEqual(r.errors, errors, `${what}: the same after the result is filled`);
  }
  const w = check(warned); // no policy: the platform's default resources (a warning)
  assert.equal(w.ok, true);
  assert.ok(w.warnings.some((d) => d.code === 'SG_PLATFORM_DEFAULT_RESOURCES'), JSON.stringify(w.diagnostics));
  assert.deepEqual(w.errors, []);
});
