// The fast input path (issue 12): a plain JS value goes to the addon as the text of one
// JSON.stringify (lib/plain_json.js decides when), which the core parses into the tree the
// property walk (src/js_to_node.cc) builds. These tests hold that the two give one answer: the
// addon is called with and without the JSON text over every conformance case decoded to values
// and over a set of awkward values, and the pre-walk is held to what it must refuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { yamlFiles } from './fixtures/yaml-files.mjs';
import { safeIntegers } from './fixtures/safe-integers.mjs';
import { check, Checker } from 'sandgate';

const require = createRequire(import.meta.url);
const native = require('../lib/native.js');
const { plainJson } = require('../lib/plain_json.js');
const repo = fileURLToPath(new URL('../../../', import.meta.url));

// A native answer as comparable text (an object when JSON cannot carry it: bigints spelled out).
const show = (v) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x));
const text = (raw) => (typeof raw === 'string' ? raw : show(raw));
const object = (raw) => (typeof raw === 'string' ? JSON.parse(raw) : raw);


function decode(yamlText) {
  if (typeof yamlText !== 'string') return undefined;
  const docs = YAML.parseAllDocuments(yamlText, { version: '1.1', intAsBigInt: true,
    customTags: (tags) => tags.filter((t) => t.tag !== 'tag:yaml.org,2002:timestamp') });
  if (!Array.isArray(docs) || docs.length !== 1 || docs[0].errors.length) return undefined;
  try {
    return safeIntegers(docs[0].toJS({ maxAliasCount: -1 }));
  } catch {
    return undefined; // an alias the yaml package leaves unresolved (`*r:`): the case stays text
  }
}

// Every check case of tests/conformance, its inputs decoded to values where they decode.
function* checkCases() {
  for (const file of yamlFiles(join(repo, 'tests/conformance'))) {
    if (file.includes('/diff/')) continue;
    const doc = YAML.parse(readFileSync(file, 'utf8'), { version: '1.1' });
    for (const c of doc.cases ?? []) {
      const v = {};
      for (const key of ['sandbox', 'policy', 'runners', 'org', 'defaults', 'overrides']) {
        const d = decode(c[key]);
        v[key] = d !== null && typeof d === 'object' ? d : c[key]; // text where it does not decode to a tree
      }
      const options = c.options && typeof c.options === 'object' ? c.options : {};
      yield { name: `${file} :: ${c.name}`, kind: file.includes('/policy/') ? 'policy' : 'check', v,
        client: options.client === undefined ? 'python' : String(options.client),
        placement: options.placement === undefined ? '' : String(options.placement) };
    }
  }
}

test('every conformance case: the JSON text of its values checks as the walk of them', () => {
  let fast = 0;
  let n = 0;
  for (const c of checkCases()) {
    const { sandbox = {}, policy, runners, org, defaults, overrides } = c.v;
    const j = (v) => plainJson(v);
    if (c.kind === 'policy') {
      if (policy === null || typeof policy !== 'object') continue;
      assert.equal(text(native.validatePolicy(policy, '', j(policy))), text(native.validatePolicy(policy, '')), c.name);
      fast += j(policy) !== undefined;
      n++;
      continue;
    }
    const walked = native.checkOnce(policy, runners, org, c.client, c.placement, sandbox, defaults, overrides);
    const parsed = native.checkOnce(policy, runners, org, c.client, c.placement, sandbox, defaults, overrides,
      j(policy), j(runners), j(org), j(sandbox), j(defaults), j(overrides), false);
    assert.equal(text(parsed), text(walked), c.name);
    // The head of a lazy result is the whole result's text with its deferred fields left out.
    const head = native.checkOnce(policy, runners, org, c.client, c.placement, sandbox, defaults, overrides,
      j(policy), j(runners), j(org), j(sandbox), j(defaults), j(overrides), true);
    if (typeof head === 'string' && typeof walked === 'string') {
      const [h, w] = [JSON.parse(head), JSON.parse(walked)];
      if (h.resolved === 0) {
        h.resolved = w.resolved;
        h.provenance = w.provenance;
      }
      assert.deepStrictEqual(h, w, `${c.name} (head)`);
    }
    fast += j(sandbox) !== undefined;
    n++;
  }
  assert.ok(n > 500, `only ${n} cases`);
  assert.ok(fast > 400, `only ${fast} of ${n} cases went by the fast path`);
});

// Values JSON.stringify reads differently from the walk, or that the walk reports: each must give
// the walk's answer through check(), whichever path the pre-walk and the native parse choose.
class Point {
  constructor() {
    this.x = 1;
  }
}
const cyclic = { a: 1 };
cyclic.self = cyclic;
const withGetter = { get cpu() { return '1'; } };
const throwingGetter = { get cpu() { throw new Error('no'); } };
const symbolKey = { team: 'a', [Symbol('s')]: 'b' };
const nullProto = Object.assign(Object.create(null), { team: 'x' });
const deep = (n) => { let v = 'leaf'; for (let i = 0; i < n; i++) v = { k: v }; return v; };
const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
const AWKWARD = {
  'NUL in a string': 'a\0b',
  'NUL in a key': { 'a\0b': 'x' },
  'a lone high surrogate': 'a\ud800b',
  'a lone low surrogate': '\udc00',
  'a surrogate pair': '\ud83d\ude00',
  'U+FFFD itself': '\ufffd',
  'escapes': '"\\\n\t\u0001\u001f\u007f\u2028',
  '-0': -0,
  0.1: 0.1,
  'the smallest double': 5e-324,
  'MAX_SAFE_INTEGER': Number.MAX_SAFE_INTEGER,
  '2^53': 2 ** 53,
  '1e21': 1e21,
  '2^63': 2 ** 63,
  '-2^63': -(2 ** 63),
  NaN,
  Infinity,
  '-Infinity': -Infinity,
  'a BigInt': 12n,
  'a huge BigInt': 10n ** 30n,
  'undefined member': { a: undefined, b: 1 },
  'undefined element': [1, undefined],
  'a sparse array': sparse,
  'a function': () => 1,
  'a function member': { f() {} },
  'a Symbol': Symbol('x'),
  'a Symbol key': symbolKey,
  'a Date': new Date(0),
  'a Map': new Map([['a', 1]]),
  'a Set': new Set([1]),
  'a class instance': new Point(),
  'a boxed string': Object('s'),
  'toJSON': { toJSON() { return 'swapped'; }, real: 1 },
  'a getter': withGetter,
  'a getter that throws': throwingGetter,
  'a Proxy': new Proxy({ a: 1 }, {}),
  'a Proxy whose traps throw': new Proxy({}, { ownKeys() { throw new Error('trap'); } }),
  'a prototype-less object': nullProto,
  'a __proto__ key': JSON.parse('{"__proto__": "p", "a": "b"}'),
  'a cycle': cyclic,
  'nested 31 deep': deep(31),
  'nested 40 deep': deep(40),
  'nested 70 deep': deep(70),
  'a Buffer': Buffer.from('bytes'),
  'a Uint8Array': new Uint8Array([104, 105]),
  'a frozen object': Object.freeze({ a: [1, 2] }),
  'an array subclass': new (class extends Array {})(),
  'numeric keys': { 10: 'a', 2: 'b', x: 'c', 1: 'd' },
  'an empty key': { '': 1 },
  'a long string': 'x'.repeat(100000),
};

test('awkward values give the walk\'s answer through check() and Checker.check()', () => {
  const context = native.makeContext(undefined, undefined, undefined, 'typescript', '');
  const checker = new Checker();
  for (const [what, v] of Object.entries(AWKWARD)) {
    for (const sandbox of [{ containerImage: 'x:1', annotations: { a: v } }, { containerImage: 'x:1', requestTimeoutSeconds: v },
      { containerImage: 'x:1', tags: [v, 'b'] }, { containerImage: 'x:1', environmentVariables: v }]) {
      const walked = show(object(native.check(context, sandbox)));
      assert.equal(show(check(sandbox)), walked, what);
      assert.equal(show(checker.check(sandbox)), walked, `${what} (Checker)`);
    }
  }
});

test('the pre-walk refuses what JSON.stringify reads differently, and takes plain data', () => {
  const refused = ['a function', 'a function member', 'a Symbol key', 'a Date', 'a Map', 'a Set', 'a class instance',
    'a boxed string', 'toJSON', 'a Proxy', 'a Proxy whose traps throw', 'a __proto__ key', 'a cycle', 'nested 40 deep',
    'nested 70 deep', 'a Buffer', 'a Uint8Array', 'an array subclass', 'NaN', 'Infinity', '-Infinity', 'a BigInt',
    'a huge BigInt', '2^53', '1e21', '2^63', '-2^63', 'undefined element', 'a sparse array', 'a getter that throws'];
  for (const what of refused) {
    assert.equal(plainJson({ v: AWKWARD[what] }), undefined, what);
    assert.equal(plainJson([AWKWARD[what]]), undefined, `${what} in an array`);
  }
  const taken = ['NUL in a string', 'a lone high surrogate', 'a surrogate pair', 'escapes', '-0', '0.1', 'MAX_SAFE_INTEGER',
    'undefined member', 'a prototype-less object', 'a frozen object', 'numeric keys', 'nested 31 deep', 'a getter'];
  for (const what of taken) assert.equal(plainJson({ v: AWKWARD[what] }), JSON.stringify({ v: AWKWARD[what] }), what);
  // Only containers go as JSON text: a string is YAML text, null and undefined are "not given".
  for (const v of ['a: 1', null, undefined, 1, true]) assert.equal(plainJson(v), undefined, String(v));
  // A native handle (a Policy's) has a null prototype and no properties: it is not the value {}.
  const handle = native.loadPolicy('{}', '', false);
  assert.equal(plainJson(handle), undefined);
  assert.equal(plainJson({ h: handle }), undefined);
});

test('toJSON on Object.prototype or Array.prototype turns the fast path off', () => {
  const sandbox = { containerImage: 'x:1', tags: ['a'] };
  const walked = JSON.parse(text(native.check(native.makeContext(undefined, undefined, undefined, 'typescript', ''), sandbox)));
  for (const proto of [Object.prototype, Array.prototype]) {
    Object.defineProperty(proto, 'toJSON', { value() { return 'polluted'; }, configurable: true, writable: true });
    let copy;
    try {
      assert.equal(plainJson(sandbox), undefined);
      copy = { ...check(sandbox) }; // (JSON.stringify is not to be trusted here)
    } finally {
      delete proto.toJSON;
    }
    assert.deepEqual(JSON.parse(JSON.stringify(copy)), walked);
  }
  assert.equal(typeof plainJson(sandbox), 'string');
});

test('the native parse refuses what the walk reports, and the walk then reports it', () => {
  // The pre-walk takes these (it does not look inside strings); the core refuses the text.
  const context = native.makeContext(undefined, undefined, undefined, 'typescript', '');
  for (const [sandbox, code] of [[{ containerImage: 'x\0y' }, 'SG_NUL_BYTE'], [{ containerImage: 'x:1', annotations: { 'k\0': 'v' } }, 'SG_NUL_BYTE'],
    [{ containerImage: 'x:1', annotations: { k: '\ud800' } }, 'SG_INVALID_UTF8'], [{ containerImage: 'x:1', annotations: { '\udfff': 'v' } }, 'SG_INVALID_UTF8']]) {
    const json = plainJson(sandbox);
    assert.equal(typeof json, 'string');
    const r = JSON.parse(text(native.check(context, sandbox, undefined, undefined, json, undefined, undefined, false)));
    assert.ok(r.diagnostics.some((d) => d.code === code && d.source === null), `${json}: ${code}`);
    // Given the JSON text alone (no value to walk), a refused text is no sandbox at all.
    const alone = JSON.parse(text(native.check(context, undefined, undefined, undefined, json, undefined, undefined, false)));
    assert.ok(!alone.diagnostics.some((d) => d.code === code), `${json}: refused, not read`);
  }
});

test('numbers keep the walk\'s kinds: fractions, integers, and the doubles JSON writes with an exponent', () => {
  const context = native.makeContext(undefined, undefined, undefined, 'typescript', '');
  for (const v of [0, -0, 1, -1, 0.5, 1e-7, 1.5e-300, 123456789012345, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER,
    2 ** 31, 2 ** 32 + 0.5, 4294967296, -4294967297, 1 / 3]) {
    const sandbox = { containerImage: 'x:1', requestTimeoutSeconds: v, resources: { gpu: { count: v } } };
    const json = plainJson(sandbox);
    assert.equal(typeof json, 'string', String(v));
    assert.equal(text(native.check(context, sandbox, undefined, undefined, json, undefined, undefined, false)),
      text(native.check(context, sandbox)), String(v));
  }
});

test('checkMany takes the same path and gives the same answers', async () => {
  const checker = new Checker();
  const items = Object.values(AWKWARD).map((v) => ({ containerImage: 'x:1', annotations: { a: v } }));
  const many = await checker.checkMany(items);
  items.forEach((item, i) => assert.deepStrictEqual({ ...many[i] }, { ...checker.check(item) }, String(i)));
});
