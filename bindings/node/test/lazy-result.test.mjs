// Lazy results (issue 12, item 2): a check hands its result over as JSON text, and index.js fills
// a plain object from it on first use. These tests hold that the filled result is, member for
// member, the object the addon builds itself (`resultsAsText(false)`), over every conformance
// case and the examples, over strings and numbers that JSON writes in more than one way, and when
// JSON cannot carry a value; and that the object behaves as a plain one wherever it is looked at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { types, inspect } from 'node:util';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { yamlFiles } from './fixtures/yaml-files.mjs';
import sandgate, { Checker, check, checkMany, Policy, validatePolicy } from 'sandgate';

const require = createRequire(import.meta.url);
const native = require('../lib/native.js');
const { plainJson } = require('../lib/plain_json.js');
const repo = fileURLToPath(new URL('../../../', import.meta.url));

// `fn` run with results as text (lazy) and as objects (built by the addon).
function both(fn) {
  const lazy = fn();
  const before = native.resultsAsText(false);
  try {
    return { lazy, eager: fn() };
  } finally {
    native.resultsAsText(before);
  }
}

// JSON.stringify, with bigints (which the addon builds past 2^53) spelled out.
const json = (v) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x));

function assertSame(lazy, eager, what) {
  assert.equal(Object.getPrototypeOf(eager), Object.prototype, `${what}: the addon built a plain object`);
  assert.equal(typeof lazy.ok, 'boolean');
  assert.equal(lazy.ok, eager.ok, `${what}: ok`);
  assert.equal(json(lazy), json(eager), `${what}: JSON`);
  assert.deepStrictEqual(lazy, eager, what);
  assert.deepEqual(Object.getOwnPropertyNames(lazy), Object.getOwnPropertyNames(eager), `${what}: own names`);
}

test('every conformance case: the lazy result is the object the addon builds', () => {
  let n = 0;
  for (const file of yamlFiles(join(repo, 'tests/conformance'))) {
    if (file.includes('/diff/')) continue;
    const doc = YAML.parse(readFileSync(file, 'utf8'), { version: '1.1' });
    for (const c of doc.cases ?? []) {
      const text = (k) => (typeof c[k] === 'string' ? c[k] : undefined);
      const options = c.options && typeof c.options === 'object' ? c.options : {};
      const { lazy, eager } = file.includes('/policy/')
        ? both(() => validatePolicy(Policy.fromText(c.policy ?? '', { file: 'policy.yaml' })))
        : both(() => check(text('sandbox') ?? '{}', {
          policy: text('policy'), runners: text('runners'), org: text('org'), defaults: text('defaults'),
          overrides: text('overrides'), client: options.client === undefined ? 'python' : String(options.client),
          placement: options.placement === undefined ? undefined : String(options.placement),
        }));
      assertSame(lazy, eager, `${file} :: ${c.name}`);
      n++;
    }
  }
  assert.ok(n > 500, `only ${n} cases`);
});

test('every example sandbox against every example policy, from values and from text', () => {
  const read = (p) => readFileSync(join(repo, 'examples', p), 'utf8');
  const runners = read('runners.yaml');
  const org = read('org.yaml');
  for (const p of readdirSync(join(repo, 'examples/policies')).sort()) {
    const policy = Policy.fromText(read(`policies/${p}`));
    const checker = new Checker({ policy, runners, org });
    for (const s of readdirSync(join(repo, 'examples/sandboxes')).sort()) {
      const text = read(`sandboxes/${s}`);
      const r1 = both(() => checker.check(YAML.parse(text)));
      assertSame(r1.lazy, r1.eager, `${s} / ${p} (value)`);
      const r2 = both(() => checker.check(text));
      assertSame(r2.lazy, r2.eager, `${s} / ${p} (text)`);
    }
  }
});

test('strings JSON must escape or may write as they are come back exactly', () => {
  const control = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('');
  const values = ['"', '\\', '\\"', control, `${control}${control}`, 'a"b\\c\u0001d', '12345678"', '1234567\\', '"1234567',
    'x'.repeat(7) + '\u001f' + 'y'.repeat(9), '\u007f\u0080\u00ff', '\u2028\u2029', 'é—日本語', '😀 emoji 😀',
    '</script>', '', ' '.repeat(100)];
  const annotations = Object.fromEntries(values.map((v, i) => [`k${i}`, v]));
  annotations['key"with\\escapes\n'] = 'v';
  const { lazy, eager } = both(() => check({ containerImage: 'x:1', annotations, environmentVariables: annotations }));
  assertSame(lazy, eager, 'escapes');
  // (Lone surrogates are SG_INVALID_UTF8, and a request holding one is not checked: hostile.test.mjs.)
  for (const [k, v] of Object.entries(annotations)) assert.equal(lazy.resolved.annotations[k], v, JSON.stringify(k));
});

test('invalid UTF-8 in text decodes as it did', () => {
  const bytes = Buffer.concat([Buffer.from('container_image: "a'), Buffer.from([0xe2, 0x82]), Buffer.from('b"\nannotations: {k: "'),
    Buffer.from([0xff, 0xc0, 0x80, 0xed, 0xa0, 0x80]), Buffer.from('"}\n')]);
  const { lazy, eager } = both(() => check(bytes));
  assertSame(lazy, eager, 'invalid UTF-8');
});

test('numbers come back as the same doubles', () => {
  // request_timeout_seconds keeps what it is given, fractions included (docs/check-output.md).
  for (const v of [0.1, 1 / 3, 1e-7, 1.2345e-300, 5e-324, -0, 123456789.125, 2 ** 53 - 1, -(2 ** 53 - 1), 1.5]) {
    const { lazy, eager } = both(() => check({ containerImage: 'x:1', requestTimeoutSeconds: v }));
    assert.equal(types.isProxy(lazy), true, String(v));
    assertSame(lazy, eager, String(v));
    assert.ok(Object.is(lazy.resolved.request_timeout_seconds, eager.resolved.request_timeout_seconds), String(v));
    assert.ok(lazy.resolved.request_timeout_seconds === v, String(v)); // -0 from a JS value is the integer 0 (hostile.test.mjs)
  }
  const { lazy, eager } = both(() => check('request_timeout_seconds: -0.0\n'));
  assertSame(lazy, eager, '-0.0 from text');
  assert.ok(Object.is(lazy.resolved.request_timeout_seconds, -0));
});

test('what JSON cannot carry comes as the object the addon builds, plain', () => {
  const cases = {
    bigint: { containerImage: 'x:1', requestTimeoutSeconds: 10n ** 30n },
    'an integer past 2^53': { containerImage: 'x:1', requestTimeoutSeconds: 2 ** 60 },
    infinity: { containerImage: 'x:1', requestTimeoutSeconds: Infinity },
    NaN: 'request_timeout_seconds: .nan\n',
    'a __proto__ key': JSON.parse('{"containerImage": "x:1", "annotations": {"__proto__": "p", "a": "b"}}'),
    'an environment __proto__ key': JSON.parse('{"containerImage": "x:1", "environmentVariables": {"__proto__": "p"}}'),
  };
  for (const [what, sandbox] of Object.entries(cases)) {
    const { lazy, eager } = both(() => check(sandbox));
    assert.equal(types.isProxy(lazy), false, `${what}: plain`);
    assertSame(lazy, eager, what);
  }
  assert.equal(check(cases.bigint).resolved.request_timeout_seconds, 10n ** 30n);
});

test('the bigint boundary is Number.MAX_SAFE_INTEGER, lazy or not', () => {
  // 2^53 - 1 is the last integer a number holds exactly; from 2^53 on the addon builds a bigint,
  // and the lazy result must say the same (its JSON text would read 2^53 + 1 as 2^53).
  for (const [v, type] of [[2n ** 53n - 1n, 'number'], [2n ** 53n, 'bigint'], [-(2n ** 53n), 'bigint']]) {
    const { lazy, eager } = both(() => check({ containerImage: 'x:1', requestTimeoutSeconds: v }));
    assert.equal(typeof eager.resolved.request_timeout_seconds, type, String(v));
    assert.equal(typeof lazy.resolved.request_timeout_seconds, type, String(v));
    assert.equal(BigInt(lazy.resolved.request_timeout_seconds), v);
  }
});

test('a lazy result behaves as a plain object', async () => {
  const make = () => check({ containerImage: 'x:1', resources: { cpu: '1', memory: '1Gi' } });
  const { eager } = both(make);
  // ok at once; then each way of looking at the whole object
  assert.equal(make().ok, true);
  assert.equal(inspect(make(), { depth: 9 }), inspect(eager, { depth: 9 }));
  assert.equal(inspect({ nested: make() }, { depth: 9 }), inspect({ nested: eager }, { depth: 9 }));
  assert.equal(inspect(make(), { showHidden: true, depth: 9 }), inspect(eager, { showHidden: true, depth: 9 }));
  assert.deepStrictEqual({ ...make() }, { ...eager });
  assert.deepStrictEqual(Object.entries(make()), Object.entries(eager));
  assert.deepStrictEqual(Reflect.ownKeys(make()), Reflect.ownKeys(eager));
  assert.deepStrictEqual(Object.getOwnPropertyDescriptors(make()), Object.getOwnPropertyDescriptors(eager));
  assert.equal('resolved' in make(), true);
  assert.equal('raiseForErrors' in make(), true);
  assert.equal(Object.getPrototypeOf(make()), Object.prototype);
  const r = make();
  r.extra = 1;
  r.ok = 'changed';
  delete r.slurm;
  assert.deepStrictEqual(Object.keys(r), [...Object.keys(eager).filter((k) => k !== 'slurm'), 'extra']);
  assert.equal(r.ok, 'changed');
  const frozen = Object.freeze(make());
  assert.ok(Object.isFrozen(frozen));
  assert.throws(() => { frozen.ok = false; }, TypeError);
  assert.deepStrictEqual(frozen, eager);
  assert.throws(() => { make().raiseForErrors = 1; }, TypeError, 'raiseForErrors stays read-only');
  // A result is not a thenable, and resolving a promise with it does not read it.
  assert.equal(make().then, undefined);
  assert.deepStrictEqual(await Promise.resolve(make()), eager);
  const bad = check({ containerImage: 'x:1', resources: { cpu: '-1' } });
  assert.equal(bad.ok, false);
  assert.throws(() => bad.raiseForErrors(), sandgate.CWSandboxError);
  assert.throws(() => sandgate.throwIfErrors(check({ containerImage: 'x:1', resources: { cpu: '-1' } })), sandgate.CWSandboxError);
  assert.equal(sandgate.errorFor(make()), null);
  // A Proxy is not cloneable (docs/node.md says so); a spread copy is.
  assert.throws(() => structuredClone(make()), { name: 'DataCloneError' });
  assert.deepStrictEqual(structuredClone({ ...make() }), JSON.parse(JSON.stringify(eager)));
});

test('checkMany and validatePolicy results are the same lazy objects', async () => {
  // A string item is a record's JSON text: as check() of the value it holds, or (not JSON) unreadable.
  const items = ['{"containerImage": "x:1"}', { containerImage: 'y:2', resources: { cpu: '1' } }, '{"resources": [\n'];
  const asCheck = [check({ containerImage: 'x:1' }), check(items[1]), null];
  const lazy = await checkMany(items);
  const before = native.resultsAsText(false);
  let eager;
  try {
    eager = await checkMany(items);
  } finally {
    native.resultsAsText(before);
  }
  assert.equal(lazy.length, 3);
  for (let i = 0; i < items.length; i++) {
    assert.equal(types.isProxy(lazy[i]), true);
    assertSame(lazy[i], eager[i], `item ${i}`);
    if (asCheck[i] !== null) assertSame(lazy[i], asCheck[i], `item ${i} as check()`);
  }
  // Record 3; its text ends on its second line, where the JSON breaks off.
  assert.deepEqual(lazy[2].diagnostics.map((d) => [d.code, d.source]), [['SG_SYNTAX', { file: '<records>', line: 4, column: 1 }]]);
  const v = validatePolicy('constraints: {resources: {max_cpu: 2x}}');
  assert.equal(types.isProxy(v), true);
  assert.equal(v.ok, false);
  assert.deepEqual(Object.keys(v), ['ok', 'diagnostics']);
});

// Deferred fields (index.js, "Deferred fields"): a check whose sandbox went by the fast input path
// hands over the head of its result; `resolved`, `provenance` and `rules_applied` come from the
// same call again on first read.
const decodeCase = (t) => {
  if (typeof t !== 'string') return undefined;
  const docs = YAML.parseAllDocuments(t, { version: '1.1' });
  if (docs.length !== 1 || docs[0].errors.length) return t;
  const v = docs[0].toJS({ maxAliasCount: -1 });
  return v !== null && typeof v === 'object' ? v : t;
};

test('every conformance case from values: a result filled in either order is the object the addon builds', () => {
  let deferred = 0;
  for (const file of yamlFiles(join(repo, 'tests/conformance'))) {
    if (file.includes('/diff/') || file.includes('/policy/')) continue;
    const doc = YAML.parse(readFileSync(file, 'utf8'), { version: '1.1' });
    for (const c of doc.cases ?? []) {
      const options = c.options && typeof c.options === 'object' ? c.options : {};
      const sandbox = decodeCase(c.sandbox) ?? {};
      const run = () => check(sandbox, {
        policy: decodeCase(c.policy), runners: decodeCase(c.runners), org: decodeCase(c.org), defaults: decodeCase(c.defaults),
        overrides: decodeCase(c.overrides), client: options.client === undefined ? 'python' : String(options.client),
        placement: options.placement === undefined ? undefined : String(options.placement),
      });
      const what = `${file} :: ${c.name}`;
      const { lazy, eager } = both(run);
      // The small fields first, then the deferred ones (assertSame reads the whole object).
      const small = { diagnostics: lazy.diagnostics, gpu: lazy.gpu, slurm: lazy.slurm, runner: lazy.runner };
      assertSame(lazy, eager, what);
      for (const [k, v] of Object.entries(small)) assert.equal(lazy[k], v, `${what}: ${k} kept its identity`);
      // The deferred ones first.
      const other = run();
      assert.deepStrictEqual(other.resolved, eager.resolved, what);
      assert.deepStrictEqual(other.provenance, eager.provenance, what);
      assertSame(other, eager, `${what} (deferred first)`);
      const third = run();
      assert.deepStrictEqual(third.rules_applied, eager.rules_applied, what);
      assertSame(third, eager, `${what} (rules_applied first)`);
      deferred += types.isProxy(lazy) && plainJson(sandbox) !== undefined;
    }
  }
  assert.ok(deferred > 300, `only ${deferred} results were deferred`);
});

test('a lazy result is made from the kept native result; only once that is gone is it checked again', () => {
  const checker = new Checker();
  const sandbox = { containerImage: 'x:1', resources: { gpu: { count: 1, type: 'H100' } } };
  const eager = both(() => check(sandbox)).eager;
  // Other requests take the kept results' places: a result read from the wrong one differs.
  const other = { containerImage: 'y:2', resources: { cpu: '3' } };
  for (const [name, checkOne, entry] of [['Checker.check', (s) => checker.check(s), 'check'], ['check', (s) => check(s), 'checkOnce']]) {
    const fn = () => checkOne(sandbox);
    const evict = (n = native.keptResults) => { for (let i = 0; i < n; i++) checkOne(other); };
    const calls = [];
    const original = native[entry];
    native[entry] = (...args) => {
      calls.push(args[args.length - 1]);
      return original(...args);
    };
    try {
      const r = fn();
      assert.deepEqual(calls, [true], `${name}: one call, deferring`);
      void r.ok, r.diagnostics, r.gpu, r.runtime_class, r.qos_class, r.placement_mode, r.runner, r.slurm;
      assert.equal(r.raiseForErrors(), r);
      assert.equal(typeof r.resolved, 'object');
      void r.provenance, JSON.stringify(r);
      assert.deepEqual(calls, [true], `${name}: every field from the kept result`);
      assertSame(r, eager, name);
      // Through inspect, which sees the target without the traps.
      calls.length = 0;
      assert.match(inspect(fn(), { depth: 9 }), /resolved: \{/);
      assert.deepEqual(calls, [true]);

      // Gone before anything is read: the whole result from one more call.
      calls.length = 0;
      const late = fn();
      evict();
      const count = calls.length;
      assertSame(late, eager, `${name}, read after ${native.keptResults} more checks`);
      assert.deepEqual(calls.slice(count), [false], `${name}: checked again once`);
      // Gone between the head and the deferred fields: those from one more call.
      calls.length = 0;
      const half = fn();
      const diagnostics = half.diagnostics;
      evict();
      assert.deepStrictEqual(half.resolved, eager.resolved, name);
      assert.deepEqual(calls.slice(1 + native.keptResults), [false], `${name}: checked again once`);
      assert.equal(half.diagnostics, diagnostics, `${name}: the head kept its identity`);
      assertSame(half, eager, `${name}, deferred fields read after ${native.keptResults} more checks`);
      // Still kept after keptResults - 1 checks.
      calls.length = 0;
      const kept = fn();
      evict(native.keptResults - 1);
      assertSame(kept, eager, name);
      assert.equal(calls.includes(false), false, `${name}: no call again while kept`);
    } finally {
      native[entry] = original;
    }
  }
});

test('changing the input after check() does not change what resolved says', () => {
  const checker = new Checker();
  const sandbox = { containerImage: 'x:1', resources: { requests: { cpu: '1', memory: '1Gi' } }, annotations: { team: 'a' } };
  const expected = JSON.parse(JSON.stringify(checker.check(sandbox)));
  for (const r of [checker.check(sandbox), check(sandbox)]) {
    const before = r.diagnostics;
    sandbox.resources.requests.cpu = '7';
    sandbox.annotations.team = 'b';
    sandbox.containerImage = 'other:2';
    assert.deepEqual(r.resolved, expected.resolved);
    assert.deepEqual(JSON.parse(JSON.stringify(r)), expected);
    assert.equal(r.diagnostics, before);
    Object.assign(sandbox, { containerImage: 'x:1', resources: { requests: { cpu: '1', memory: '1Gi' } }, annotations: { team: 'a' } });
  }
});

test('checkMany hands over the head of a result it can check again, and checks that item again only for resolved', async () => {
  const checker = new Checker({ client: 'python' });
  const items = [
    '{"container_image": "x:1", "resources": {"cpu": "1"}}', // a record's text
    { containerImage: 'y:2', annotations: { team: 'a' } }, // a plain value: its JSON text
    { sandbox: 'container_image: z:3\n', defaults: { environment_variables: { A: '1' } } }, // text and a value
    { containerImage: 'w:4', created: new Date(0) }, // walked: cannot be checked again the same way
  ];
  const eager = [];
  const before = native.resultsAsText(false);
  try {
    for (const r of await checker.checkMany(items)) eager.push(r);
  } finally {
    native.resultsAsText(before);
  }
  const calls = [];
  const original = native.checkItem;
  native.checkItem = (item) => {
    calls.push(item[1]);
    return original(item);
  };
  try {
    const lazy = await checker.checkMany(items);
    for (let i = 0; i < items.length; i++) {
      void lazy[i].ok, lazy[i].diagnostics, lazy[i].qos_class, lazy[i].runner;
    }
    assert.deepEqual(calls, [], 'the head answers every small field');
    for (let i = 0; i < items.length; i++) assertSame(lazy[i], eager[i], `item ${i}`);
    assert.equal(calls.length, 3, 'each of the three deferrable items once; the walked one came whole');
    assert.equal(calls[0], items[0]);
  } finally {
    native.checkItem = original;
  }
  // The deferred fields of a head are the whole result's, whichever is read first.
  const [first] = await checker.checkMany([items[1]]);
  assert.deepStrictEqual(first.provenance, eager[1].provenance);
  assertSame(first, eager[1], 'provenance first');
});
