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
  const [ok] = await native.checkTexts(context, ['', sandbox, ''].join('\n'), 1);
  assert.deepEqual({ ...(await new Checker().checkMany([spec(3)]))[0] }, { ...check(spec(3)) });
  assert.equal(typeof ok, 'string');
  for (const [text, count] of [[sandbox, 1], [`\n${sandbox}\n\n`, 1], [['', sandbox, ''].join('\n'), 2], ['\n\n', 1],
    [['', sandbox, '', '', '', ''].join('\n'), 2], [['', sandbox, ''].join('\n'), 0], [['', sandbox, ''].join('\n'), NaN]]) {
    assert.throws(() => native.checkTexts(context, text, count), TypeError, JSON.stringify([text.length, count]));
  }
  assert.throws(() => native.checkTexts({}, ['', sandbox, ''].join('\n'), 1), TypeError);
});
