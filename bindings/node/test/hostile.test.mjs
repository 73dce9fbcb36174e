// Hostile JS values: each must end as a diagnostic at its JSON Pointer (or be read as JSON would
// read it), never as a crash, a hang or an uncaught exception.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, Checker, checkMany, diffPolicies, normalizeResources, Policy, validatePolicy } from 'sandgate';

const base = { resources: { cpu: '1', memory: '1Gi' } };
const find = (r, code, path) => r.diagnostics.find((d) => d.code === code && (path === undefined || d.path === path));
function expectDiag(r, code, path) {
  const d = find(r, code, path);
  assert.ok(d, `expected ${code} at ${path}; got ${JSON.stringify(r.diagnostics.map((x) => [x.code, x.path, x.message]))}`);
  assert.equal(r.ok, d.severity === 'error' ? false : r.ok);
  return d;
}

test('wrong types for a whole layer', () => {
  for (const v of [42, true, [1, 2], 'just a string', 10n]) {
    const r = check(v);
    assert.equal(r.ok, false, String(v));
    assert.ok(find(r, 'SG_NOT_AN_OBJECT', ''), `${String(v)}: ${JSON.stringify(r.diagnostics)}`);
  }
  // A function as the whole input is a programming error, not a value (docs/node.md, "Input kinds").
  assert.throws(() => check(() => 1), { name: 'TypeError', message: /sandbox: got a function; pass its result or a document/ });
  expectDiag(check(Symbol('s')), 'SG_VALUE_UNSUPPORTED', '');
  // null and undefined are an empty layer, as `null` in a file is.
  assert.equal(check(null).ok, true);
  assert.equal(check(undefined).ok, true);
});

test('functions and Symbols are reported where they are', () => {
  const r = check({ ...base, annotations: { a: () => 1, b: Symbol('x') }, tags: [Symbol('t')] });
  expectDiag(r, 'SG_VALUE_UNSUPPORTED', '/annotations/a');
  expectDiag(r, 'SG_VALUE_UNSUPPORTED', '/annotations/b');
  expectDiag(r, 'SG_VALUE_UNSUPPORTED', '/tags/0');
  assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 3, 'each bad value is reported once');
});

// NaN and ±Infinity are numbers, as YAML's .nan/.inf and Python's float('nan'/'inf') are: the
// engine's rules answer (issue 12, item 3), the same code at the same pointer as from text.
test('NaN and Infinity reach the engine as the numbers they are, for every input', () => {
  const r = check({ ...base, max_lifetime_seconds: NaN, request_timeout_seconds: Infinity },
    { defaults: { poll_rpc_timeout_seconds: NaN }, overrides: { create_retry_budget_seconds: -Infinity } });
  assert.equal(find(r, 'SG_VALUE_UNSUPPORTED'), undefined, JSON.stringify(r.diagnostics));
  assert.match(expectDiag(r, 'SG_NOT_AN_INTEGER', '/max_lifetime_seconds').message, /not NaN/);
  assert.match(expectDiag(r, 'SG_CLIENT_TIMEOUT_INVALID', '/request_timeout_seconds').message, /is Infinity; it must be finite/);
  assert.equal(expectDiag(r, 'SG_CLIENT_TIMEOUT_INVALID', '/poll_rpc_timeout_seconds').input, 'defaults');
  assert.match(expectDiag(r, 'SG_CLIENT_TIMEOUT_INVALID', '/create_retry_budget_seconds').message, /is -Infinity/);
  assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 4, 'each value is reported once');
  // The same answer as from the text the value would be written as.
  const text = check('max_lifetime_seconds: .nan\nrequest_timeout_seconds: .inf\nresources: {cpu: "1", memory: 1Gi}\n');
  const codes = (x) => x.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.path]).sort();
  assert.deepEqual(codes(check({ ...base, max_lifetime_seconds: NaN, request_timeout_seconds: Infinity })), codes(text));
  // In a policy, and in normalizeResources, a non-finite number is a number too.
  const p = Policy.fromObject({ constraints: { lifetime: { max_lifetime_seconds: Infinity } } });
  assert.equal(p.diagnostics.some((d) => d.code === 'SG_VALUE_UNSUPPORTED'), false, JSON.stringify(p.diagnostics));
  const t = Policy.fromText('constraints: {lifetime: {max_lifetime_seconds: .inf}}');
  assert.deepEqual(p.diagnostics.map((d) => [d.code, d.path]), t.diagnostics.map((d) => [d.code, d.path]));
  const n = normalizeResources({ cpu: Infinity });
  assert.equal(find(n, 'SG_VALUE_UNSUPPORTED'), undefined, JSON.stringify(n.diagnostics));
  assert.equal(n.ok, false);
});

test('Symbol keys are reported; undefined members are options not given', () => {
  const r = check({ ...base, [Symbol('k')]: 1 });
  expectDiag(r, 'SG_VALUE_UNSUPPORTED', '');
  // A value that cannot be read is not checked further, as in Python and as text that does not load.
  assert.deepEqual(r.diagnostics.map((d) => d.code), ['SG_VALUE_UNSUPPORTED']);
  assert.equal(r.resolved, undefined);
  const u = check({ ...base, container_image: undefined });
  assert.equal(u.resolved.container_image, 'python:3.11', 'undefined leaves the default');
  // An object's Symbol keys are one problem of that object: reported once, however many.
  const two = check({ ...base, annotations: { [Symbol('a')]: 'x', [Symbol('b')]: 'y', team: 'ml' } });
  assert.equal(two.diagnostics.filter((d) => d.code === 'SG_VALUE_UNSUPPORTED').length, 1, JSON.stringify(two.diagnostics));
  expectDiag(two, 'SG_VALUE_UNSUPPORTED', '/annotations');
});

test('undefined elements and holes stay in place as null, as JSON.stringify writes them', () => {
  for (const tags of [['a', undefined, 'b'], ['a', , 'b']]) { // eslint-disable-line no-sparse-arrays
    const r = check({ ...base, tags });
    assert.deepEqual(r.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.path]), [['SG_TYPE_MISMATCH', '/tags/1']]);
  }
  // A value that is dropped keeps its index too.
  expectDiag(check({ ...base, tags: ['a', 'b', () => 1] }), 'SG_VALUE_UNSUPPORTED', '/tags/2');
});

test('cycles are reported at the reference that closes them', () => {
  const a = { ...base, annotations: {} };
  a.annotations.self = a;
  const r = check(a);
  const d = expectDiag(r, 'SG_VALUE_CYCLE', '/annotations/self');
  assert.match(d.message, /cycle/);
  const list = [];
  list.push(list);
  expectDiag(check({ ...base, tags: list }), 'SG_VALUE_CYCLE', '/tags/0');
  const p = {};
  p.base = { spec: p };
  const pol = Policy.fromObject(p);
  assert.equal(pol.ok, false);
  assert.ok(pol.diagnostics.some((x) => x.code === 'SG_VALUE_CYCLE' && x.path === '/base/spec' && x.input === 'policy'));
  // The message names the ancestor the reference goes back to, not its child.
  const inner = { b: {} };
  inner.b.c = inner;
  const n = expectDiag(check({ ...base, annotations: { a: inner } }), 'SG_VALUE_CYCLE', '/annotations/a/b/c');
  assert.match(n.message, /enclosing object at "\/annotations\/a" \(a cycle\)/);
  assert.match(d.message, /enclosing object at "" \(a cycle\)/);
});

test('shared (non-circular) references are fine', () => {
  const res = { cpu: '1', memory: '1Gi' };
  const r = check({ resources: { requests: res, limits: res } });
  assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
});

test('nesting past the depth limit stops with a diagnostic, however deep', () => {
  let deep = {};
  for (let i = 0; i < 100000; i++) deep = { x: deep };
  const r = check({ ...base, annotations: deep });
  const d = expectDiag(r, 'SG_DOC_TOO_DEEP');
  assert.ok(d.path.startsWith('/annotations/x/x/'));
  assert.equal(r.placement_mode, undefined, 'an incomplete layer is not checked');
});

test('huge arrays stop at the node limit without being walked', () => {
  const t0 = Date.now();
  const big = new Array(2_000_000).fill('t');
  expectDiag(check({ ...base, tags: big }), 'SG_DOC_TOO_MANY_NODES', '/tags');
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  expectDiag(check({ ...base, tags: sparse }), 'SG_DOC_TOO_MANY_NODES', '/tags');
  const wide = Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`k${i}`, 'v']));
  expectDiag(check({ ...base, annotations: wide }), 'SG_DOC_TOO_MANY_NODES', '/annotations');
  assert.ok(Date.now() - t0 < 5000, 'limits are checked before walking');
});

test('a long string stops at the size limit', () => {
  const r = check({ ...base, container_image: 'x'.repeat(5 * 1024 * 1024) });
  expectDiag(r, 'SG_DOC_TOO_LARGE', '/container_image');
});

test('getters that throw are reported and the exception does not escape', () => {
  const spec = { ...base };
  Object.defineProperty(spec, 'container_image', { enumerable: true, get() { throw new Error('boom'); } });
  const r = check(spec);
  const d = expectDiag(r, 'SG_VALUE_READ_FAILED', '/container_image');
  assert.match(d.message, /boom/);
  // A thrown non-Error, and a thrown object whose message getter throws too.
  const odd = {};
  Object.defineProperty(odd, 'a', { enumerable: true, get() { throw 42; } }); // eslint-disable-line no-throw-literal
  Object.defineProperty(odd, 'b', { enumerable: true, get() { throw { get message() { throw new Error('again'); } }; } });
  const r2 = check({ ...base, annotations: odd });
  expectDiag(r2, 'SG_VALUE_READ_FAILED', '/annotations/a');
  expectDiag(r2, 'SG_VALUE_READ_FAILED', '/annotations/b');
});

test('Proxies: throwing traps, revoked proxies and endless fresh objects', () => {
  const throwing = new Proxy({}, { ownKeys() { throw new Error('no keys'); } });
  expectDiag(check({ ...base, annotations: throwing }), 'SG_VALUE_READ_FAILED', '/annotations');
  const getThrows = new Proxy({ a: 1 }, { get() { throw new TypeError('no get'); } });
  expectDiag(check({ ...base, annotations: getThrows }), 'SG_VALUE_READ_FAILED', '/annotations/a');
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  expectDiag(check({ ...base, annotations: proxy }), 'SG_VALUE_READ_FAILED', '/annotations');
  const endless = new Proxy({}, {
    ownKeys: () => ['next'],
    getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true, value: undefined }),
    get: () => endless2(),
  });
  function endless2() { return new Proxy({}, { ownKeys: () => ['next'], getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true }), get: () => endless2() }); }
  expectDiag(check({ ...base, annotations: endless }), 'SG_DOC_TOO_DEEP');
  // As JSON.stringify, the walk never asks for a prototype trap's answer: read as {}.
  assert.equal(check(new Proxy({ ...base }, { getPrototypeOf() { throw new Error('proto'); } })).ok, true);
});

test('BigInt: exact when it fits, flagged when it does not', () => {
  const r = check({ ...base, max_lifetime_seconds: 900n });
  assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
  assert.equal(r.resolved.max_lifetime_seconds, 900);
  const over = check({ ...base, max_lifetime_seconds: 2n ** 70n });
  const d = expectDiag(over, 'SG_INTEGER_RANGE', '/max_lifetime_seconds');
  assert.match(d.message, /1180591620717411303424/, 'the exact value is in the message');
  const neg = check({ ...base, max_lifetime_seconds: -(2n ** 64n) });
  expectDiag(neg, 'SG_INTEGER_RANGE', '/max_lifetime_seconds');
  expectDiag(check({ ...base, max_lifetime_seconds: 2n ** 100000n }), 'SG_INTEGER_RANGE', '/max_lifetime_seconds');
});

// Python's limit (CPython's 4,300 decimal digits), so both bindings hand the same integers to the
// engine; up to it the exact digits reach the engine, which decides (a finite timeout is valid).
test('BigInt: exact up to 4,300 digits, as Python ints are; refused past them', () => {
  for (const digits of [361, 1300, 4300]) {  // 361: past what a quantity's BigUnsigned holds
    const v = 10n ** BigInt(digits - 1) + 12345n;
    const r = check({ ...base, request_timeout_seconds: v, max_lifetime_seconds: -v });
    assert.equal(find(r, 'SG_INTEGER_RANGE', '/request_timeout_seconds'), undefined, `${digits}: ${JSON.stringify(r.diagnostics.map((d) => d.code))}`);
    const d = expectDiag(r, 'SG_INTEGER_RANGE', '/max_lifetime_seconds');
    assert.ok(d.message.includes(`-${v}`), `${digits} digits: the exact value is in the message`);
    assert.equal(r.diagnostics.filter((x) => x.severity === 'error').length, 1);
  }
  const over = 10n ** 4300n;  // 4,301 digits
  const r = check({ ...base, request_timeout_seconds: over });
  const d = expectDiag(r, 'SG_INTEGER_RANGE', '/request_timeout_seconds');
  assert.equal(d.message, 'an integer of 14285 bits does not fit any field');
  assert.equal(d.hint, "use a value within the field's range");
  assert.match(expectDiag(check({ ...base, request_timeout_seconds: -(2n ** 5000000n) }), 'SG_INTEGER_RANGE').message, /more than 4194304 bits/);
});

test('-0 is the integer 0, as JSON text -0 is (a JS number cannot say it was written -0.0)', () => {
  const r = check({ ...base, max_lifetime_seconds: -0, poll_rpc_timeout_seconds: -0 });
  assert.equal(find(r, 'SG_NOT_AN_INTEGER'), undefined);
  const d = expectDiag(r, 'SG_CLIENT_TIMEOUT_INVALID', '/poll_rpc_timeout_seconds');
  assert.match(d.message, /is 0;/);
  assert.deepEqual(r.diagnostics.map((x) => [x.code, x.path]), check(JSON.stringify({ ...base, max_lifetime_seconds: 0, poll_rpc_timeout_seconds: 0 })).diagnostics.map((x) => [x.code, x.path]));
});

test('integers and fractions keep their kind; doubles past int64 are flagged', () => {
  expectDiag(check({ ...base, max_lifetime_seconds: 1.5 }), 'SG_NOT_AN_INTEGER', '/max_lifetime_seconds');
  assert.equal(check({ ...base, max_lifetime_seconds: 60.0 }).resolved.max_lifetime_seconds, 60);
  expectDiag(check({ ...base, max_lifetime_seconds: 1e300 }), 'SG_INTEGER_RANGE', '/max_lifetime_seconds');
});

// 2^63 is the first double past int64: its exact digits, not int64's minimum (docs/node.md, "Numbers").
test('a double of exactly ±2^63 keeps its sign and exact digits', () => {
  const up = expectDiag(check({ ...base, max_lifetime_seconds: 2 ** 63 }), 'SG_INTEGER_RANGE', '/max_lifetime_seconds');
  assert.match(up.message, /^9223372036854775808 does not fit/);
  const down = expectDiag(check({ ...base, max_lifetime_seconds: -(2 ** 63) }), 'SG_INTEGER_RANGE', '/max_lifetime_seconds');
  assert.match(down.message, /^-9223372036854775808 does not fit/);
});

test('Dates, Maps, Sets, RegExps, Promises, Errors and boxed primitives are named', () => {
  const values = { d: new Date(0), m: new Map([['a', 'b']]), s: new Set(), r: /x/, p: Promise.resolve(), e: new Error('x'), b: new String('x') };
  const r = check({ ...base, annotations: values });
  for (const key of Object.keys(values)) expectDiag(r, 'SG_VALUE_UNSUPPORTED', `/annotations/${key}`);
  assert.match(find(r, 'SG_VALUE_UNSUPPORTED', '/annotations/m').hint, /Object\.fromEntries/);
});

test('frozen, prototype-less and class-instance objects are read like plain ones', () => {
  const bare = Object.assign(Object.create(null), { cpu: '1', memory: '1Gi' });
  class Options { constructor() { this.container_image = 'x:1'; this.resources = Object.freeze({ cpu: '1', memory: '1Gi' }); } get hidden() { return 'not own'; } }
  for (const spec of [Object.freeze({ resources: Object.freeze({ cpu: '1', memory: '1Gi' }) }), { resources: bare }, new Options()]) {
    const r = check(spec);
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.equal(r.resolved.resources.requests.cpu, '1');
  }
});

test('strings with NUL or an unpaired surrogate are reported', () => {
  expectDiag(check({ ...base, container_image: 'a\0b' }), 'SG_NUL_BYTE', '/container_image');
  expectDiag(check({ ...base, annotations: { k: 'x\uD800y' } }), 'SG_INVALID_UTF8', '/annotations/k');
  // A key with a lone surrogate has no UTF-8 form: reported at its object, as Python and text do.
  expectDiag(check({ ...base, annotations: { ['\uDC00']: 'v' } }), 'SG_INVALID_UTF8', '/annotations');
  assert.equal(check({ ...base, annotations: { k: 'emoji 🎉 \uFFFD ok' } }).diagnostics.some((d) => d.code === 'SG_INVALID_UTF8'), false);
});

// One value, one answer from text, Python and Node (issue 12): a NUL is noted and the value is still
// checked, as the loaders read past it; any other problem of a value stops its check, as text that
// does not load is not checked. The same cases are in the Python suite (test_hostile.py).
test('a NUL is noted and the rest is still checked', () => {
  for (const [sandbox, nulPath] of [[{ ...base, container_image: 'a\0b', tags: [5] }, '/container_image'],
    [{ ...base, annotations: { 'k\0': 'v' }, tags: [5] }, '/annotations/k\0']]) {
    const r = check(sandbox, { client: 'python' });
    expectDiag(r, 'SG_NUL_BYTE', nulPath);
    expectDiag(r, 'SG_TYPE_MISMATCH', '/tags/0');
  }
});

test('an unreadable value stops the check of its input', () => {
  const errors = (r) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.path]);
  for (const bad of [() => 1, Symbol('x'), new Date(0)]) {
    assert.deepEqual(errors(check({ ...base, tags: [bad, 'b', 5] }, { client: 'python' })), [['SG_VALUE_UNSUPPORTED', '/tags/0']]);
  }
  assert.deepEqual(errors(check({ ...base, tags: ['a\udc00', 'b', 5] }, { client: 'python' })), [['SG_INVALID_UTF8', '/tags/0']]);
  const p = Policy.fromObject({ constraints: { resources: { max_cpu: new Date(0) } }, foo: 1 });
  assert.equal(p.broken, true);
  assert.deepEqual(p.diagnostics.map((d) => [d.code, d.path]), [['SG_VALUE_UNSUPPORTED', '/constraints/resources/max_cpu']]);
});

test('binary file contents are data', () => {
  const r = check({ ...base, mountedFiles: [{ path: '/etc-app/x.bin', content: Buffer.from([0, 0xff, 0x41]) }] });
  assert.equal(r.diagnostics.some((d) => d.path.startsWith('/mountedFiles/0/content')), false, JSON.stringify(r.diagnostics));
});

test('hostile values in every input, and through every entry point', async () => {
  const evil = {};
  Object.defineProperty(evil, 'x', { enumerable: true, get() { throw new Error('evil'); } });
  const cyc = {};
  cyc.c = cyc;
  for (const key of ['policy', 'runners', 'org', 'defaults', 'overrides']) {
    const r = check(base, { [key]: evil });
    assert.ok(r.diagnostics.some((d) => d.code === 'SG_VALUE_READ_FAILED' && d.input === key && d.path === '/x'), `${key}: ${JSON.stringify(r.diagnostics)}`);
    assert.equal(r.ok, false);
    const c = check(base, { [key]: cyc });
    assert.ok(c.diagnostics.some((d) => d.code === 'SG_VALUE_CYCLE' && d.input === key), `${key} cycle`);
  }
  assert.equal(validatePolicy(evil).ok, false);
  assert.equal(validatePolicy(Symbol('p')).ok, false);
  expectDiag(normalizeResources(cyc), 'SG_VALUE_CYCLE', '/resources/c');
  expectDiag(normalizeResources(evil), 'SG_VALUE_READ_FAILED', '/resources/x');
  const trap = new Proxy({}, { getOwnPropertyDescriptor() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); } });
  const results = await checkMany([evil, cyc, { sandbox: base, policy: evil }, 7, trap]);
  assert.deepEqual(results.map((r) => r.ok), [false, false, false, false, false]);
});

test('toJSON is not consulted: values are read as they are', () => {
  const r = check({ ...base, container_image: { toJSON: () => 'x:1' } });
  assert.equal(r.ok, false);
});

// A value that cannot be read at all is a document that was not loaded, as text with a syntax
// error is: its read failure is the whole answer, never also "the policy is null" or "the document
// must be an object, not null" (the value was not null).
test('an input that cannot be read at all is reported once, not also as null', async () => {
  const unreadable = () => new Proxy({}, { ownKeys() { throw new Error('no keys'); } });
  const only = (r, input, what) => assert.deepEqual(r.diagnostics.map((d) => [d.code, d.input]), [['SG_VALUE_READ_FAILED', input]],
    `${what}: ${JSON.stringify(r.diagnostics.map((d) => [d.code, d.message]))}`);
  const p = Policy.fromObject(unreadable());
  only(p, 'policy', 'Policy.fromObject');
  assert.equal(p.broken, true);
  assert.equal(p.isNull, false);
  only(validatePolicy(unreadable()), 'policy', 'validatePolicy');
  for (const key of ['policy', 'runners', 'org']) {
    only(check(base, { [key]: unreadable() }), key, `check ${key}`);
    only(new Checker({ [key]: unreadable() }).check(base), key, `Checker ${key}`);
  }
  for (const key of ['defaults', 'overrides']) only(check(base, { [key]: unreadable() }), key, `check ${key}`);
  only(check(unreadable()), 'sandbox', 'check sandbox');
  only((await checkMany([unreadable()]))[0], 'sandbox', 'checkMany');
  assert.equal(normalizeResources(unreadable()).resolved, null);
  // A broken old policy, as a policy text with a syntax error: nothing to compare.
  const d = await diffPolicies(unreadable(), {});
  assert.equal(d.ok, false);
  assert.deepEqual(d.static_changes, []);
  assert.deepEqual(d.old_errors.map((e) => e.code), ['SG_VALUE_READ_FAILED']);
});

// A records-array item of diffPolicies is read as check() reads a value: one that cannot be read
// is an unreadable record whose one error is what check() reports for it, never "must be an object
// …, not null" about the null left in its place, nor a record that lost the `sandbox` or
// `defaults` that could not be read (checked as an empty sandbox, or without its defaults).
test('a diffPolicies record that cannot be read says why, as check() does', async () => {
  const noKeys = () => new Proxy({}, { ownKeys() { throw new Error('no keys'); } });
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const throwingSandbox = () => Object.defineProperty({ id: 'g' }, 'sandbox', { enumerable: true, get() { throw new Error('boom'); } });
  const deep = {};
  for (let o = deep, i = 0; i < 80; i++) o = o.a = {};
  const items = [noKeys(), revoked(), { id: 'a', sandbox: noKeys() }, { sandbox: base, defaults: noKeys() }, throwingSandbox(), deep];
  // What check() reports for each value: the value itself, or the layer as a property it reads.
  const want = [
    find(check(noKeys()), 'SG_VALUE_READ_FAILED', ''),
    find(check(revoked()), 'SG_VALUE_READ_FAILED', ''),
    { ...find(check({ ...base, annotations: noKeys() }), 'SG_VALUE_READ_FAILED', '/annotations'), path: '/sandbox' },
    { ...find(check({ ...base, annotations: noKeys() }), 'SG_VALUE_READ_FAILED', '/annotations'), path: '/defaults' },
    { ...find(check(throwingSandbox()), 'SG_VALUE_READ_FAILED', '/sandbox') },
    find(check(deep), 'SG_DOC_TOO_DEEP'),
  ];
  assert.deepEqual(check(deep).diagnostics.map((x) => x.code), ['SG_DOC_TOO_DEEP'], 'a walk that stopped is the whole answer');
  const d = await diffPolicies({}, { constraints: { resources: { max_cpu: '4' } } }, items);
  assert.equal(d.counts.unreadable, items.length, JSON.stringify(d.records));
  d.records.forEach((r, i) => {
    assert.deepEqual([r.record, r.class], [i + 1, 'unreadable']);
    assert.deepEqual(r.errors.map((e) => [e.code, e.path, e.message, e.input, e.source]),
      [[want[i].code, want[i].path, want[i].message, 'requests', { file: '<records>', line: i + 1, column: 1 }]], `item ${i}`);
  });
  assert.match(d.records[0].errors[0].message, /no keys/);
});
