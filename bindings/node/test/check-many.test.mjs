// checkMany runs the engine off the main thread: the event loop keeps turning meanwhile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { check, checkMany, Checker, Policy } from 'sandgate';

const policy = Policy.fromText(`
constraints:
  resources: {max_cpu: "4", max_memory: 8Gi, default_cpu: "1", default_memory: 1Gi}
  lifecycle: {default_lifetime_seconds: 3600}
  metadata: {denied_annotation_prefixes: ["kubernetes.io/"]}
`);

function spec(i) {
  return {
    containerImage: `ghcr.io/acme/job:${i}`,
    resources: { requests: { cpu: `${(i % 8) + 1}`, memory: '1Gi' }, limits: { cpu: `${(i % 8) + 1}`, memory: '2Gi' } },
    annotations: { team: 'ml', [`run-${i}`]: 'x', ...(i % 50 === 0 ? { 'kubernetes.io/hack': 'y' } : {}) },
    tags: ['batch', `n${i}`],
    placementMode: 'cks',
    maxLifetimeSeconds: 600 + i,
  };
}

test('a timer fires while 10,000 checks run, and the answers equal check()', async () => {
  const items = Array.from({ length: 10_000 }, (_, i) => spec(i));
  let ticks = 0;
  let lastTick = performance.now();
  let longestGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - lastTick);
    lastTick = now;
    ticks++;
  }, 1);
  const started = performance.now();
  let results;
  try {
    results = await checkMany(items, { policy });
  } finally {
    clearInterval(timer);
  }
  const elapsed = performance.now() - started;
  assert.equal(results.length, items.length);
  assert.ok(ticks >= 3, `the timer fired ${ticks} times in ${elapsed.toFixed(0)} ms`);
  // Each turn converts one batch of 256 on this thread; no single stall should take long.
  assert.ok(longestGap < 1000, `the event loop stalled for ${longestGap.toFixed(0)} ms`);
  for (const i of [0, 1, 49, 50, 4999, 9999]) {
    assert.deepEqual(results[i], check(items[i], { policy }), `item ${i}`);
  }
  assert.equal(results.filter((r) => !r.ok).length, items.filter((_, i) => (i % 8) + 1 > 4 || i % 50 === 0).length);
});

test('the promise settles before a pending timer when the batch is small', async () => {
  const r = await new Checker({ policy }).checkMany([spec(1)]);
  assert.equal(r[0].ok, true, JSON.stringify(r[0].diagnostics));
  assert.equal(typeof r[0].raiseForErrors, 'function');
});

test('a batch of plain items crosses as one text, and a malformed one is refused', async () => {
  const native = createRequire(import.meta.url)('../lib/native.js');
  const context = native.makeContext(undefined, undefined, undefined, 'typescript', '');
  const sandbox = JSON.stringify(spec(3));
  const [ok] = await native.checkTexts(context, ['', sandbox, ''].join('\n'), 1, 0);
  assert.deepEqual({ ...(await new Checker().checkMany([spec(3)]))[0] }, { ...check(spec(3)) });
  assert.equal(typeof ok, 'string');
  for (const [text, count] of [[sandbox, 1], [`\n${sandbox}\n\n`, 1], [['', sandbox, ''].join('\n'), 2], ['\n\n', 1],
    [['', sandbox, '', '', '', ''].join('\n'), 2], [['', sandbox, ''].join('\n'), 0], [['', sandbox, ''].join('\n'), NaN]]) {
    assert.throws(() => native.checkTexts(context, text, count, 0), TypeError, JSON.stringify([text.length, count]));
  }
  assert.throws(() => native.checkTexts({}, ['', sandbox, ''].join('\n'), 1, 0), TypeError);
  for (const firstRecord of [undefined, -1, 0.5, NaN, 2 ** 53]) {
    assert.throws(() => native.checkTexts(context, ['', sandbox, ''].join('\n'), 1, firstRecord), TypeError, String(firstRecord));
  }
});

// String items (records' texts, SPEC §10.1) cross as one text too, each its batch's middle
// segment; a record that text cannot carry (a newline, a lone surrogate) sends its batch the old
// way. Both ways must answer alike, record for record.
test('a batch of string items crosses as one text and answers as checkBatch does', async () => {
  const native = createRequire(import.meta.url)('../lib/native.js');
  const context = native.makeContext(undefined, undefined, undefined, 'python', '');
  const records = [
    JSON.stringify({ id: 'a', sandbox: spec(1), defaults: { max_lifetime_seconds: 9 } }),
    JSON.stringify(spec(5)),
    '',                                   // a blank record
    '   ',
    '{"container_image": "a\\u0000b"}',  // a NUL by a JSON escape
    '{"container_image": "b\0"}',         // a raw NUL
    '{"container_image": "é\\u00e9", "tags": ["\u00ff"]}\r',
    'container_image: python:3.11',       // YAML is not a record
    '[1]',
    '{"sandbox": 5}',
    '{"id": 7, "sandbox": {}}',
    `{"tags": [${'1,'.repeat(2000)}1]}`,
  ];
  const defaults = JSON.stringify({ max_lifetime_seconds: 77 });
  for (const first of [1, 257]) {
    const text = records.flatMap((r) => [defaults, r, '']).join('\n');
    const asText = await native.checkTexts(context, text, records.length, first);
    const asItems = await native.checkBatch(records.map((r, i) => [context, r, {}, undefined, undefined, defaults, undefined, first + i, true]));
    assert.equal(asText.length, records.length);
    asText.forEach((r, i) => assert.deepEqual(r, asItems[i], `record ${first + i}: ${records[i].slice(0, 40)}`));
  }
  // Through checkMany: the batch of plain records goes as text, one with a newline does not, and
  // both answer as the items' own check would.
  let texts = 0;
  const checkTexts = native.checkTexts;
  native.checkTexts = (...args) => {
    texts++;
    return checkTexts(...args);
  };
  try {
    const checker = new Checker({ policy, client: 'python' });
    const plain = await checker.checkMany(records);
    assert.equal(texts, 1);
    const multiline = await checker.checkMany([...records, JSON.stringify(spec(2), null, 1)]);
    assert.equal(texts, 1, 'a record with a newline sends its batch by checkBatch');
    const surrogate = await checker.checkMany([...records, '{"container_image": "\ud800"}']);
    assert.equal(texts, 1, 'a record with a lone surrogate sends its batch by checkBatch');
    assert.deepEqual(plain.map((r) => ({ ...r })), multiline.slice(0, records.length).map((r) => ({ ...r })));
    assert.deepEqual(plain.map((r) => ({ ...r })), surrogate.slice(0, records.length).map((r) => ({ ...r })));
    assert.equal(surrogate.at(-1).diagnostics[0].code, 'SG_INVALID_UTF8');
    assert.deepEqual(plain[1].diagnostics.map((d) => d.code), checker.check(spec(5)).diagnostics.map((d) => d.code));
    // Batches after the first keep their records' positions.
    const many = await checker.checkMany(Array.from({ length: 600 }, (_, i) => (i === 599 ? '[1]' : JSON.stringify(spec(i)))));
    assert.equal(texts, 1 + 3);
    assert.deepEqual(many[599].diagnostics.map((d) => [d.code, d.source.line]), [['SG_NOT_AN_OBJECT', 600]]);
  } finally {
    native.checkTexts = checkTexts;
  }
});
