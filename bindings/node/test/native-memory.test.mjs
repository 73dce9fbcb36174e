// Native memory stays flat over many calls of each public function (issue 12, item 7: the free
// function check() kept a native context per call, ~390 bytes, until a finalizer ran). Each case
// runs in its own process (test/fixtures/native-growth.mjs): a synchronous loop, RSS measured after
// a warm-up with V8's heap collected, so the growth is native memory that was not given back.
// The bound is far below the leak's 390 bytes/call and far above the noise (a few bytes/call).
// SANDGATE_LEAK_CALLS sets the number of calls (default 45,000; the figures used 1,000,000).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { V8_FLAGS } from './fixtures/native-growth-flags.mjs';

const script = fileURLToPath(new URL('./fixtures/native-growth.mjs', import.meta.url));
const calls = Number(process.env.SANDGATE_LEAK_CALLS || 45000);
const BOUND = 100; // bytes per call

function growth(name, n = calls, ...mode) {
  const run = spawnSync(process.execPath, [...V8_FLAGS, script, name, String(n), ...mode], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').pop());
}

for (const name of ['check(obj)', 'check(obj, {policy: Policy})', 'check(obj, {policy: obj})', 'Checker.check(obj)',
  'Checker.check(obj), read whole', 'validatePolicy(obj)', 'normalizeResources(obj)', 'parseQuantity(text)',
  // Asynchronous, each call awaited: a batch's jobs, texts and results live on libuv's pool.
  'Checker.checkMany(4 objs)', 'Checker.checkMany(4 lines)', 'Checker.checkMany(4 lines), read whole',
  'diffPolicies(Policy, Policy)']) {
  test(`${name}: native memory flat over ${calls} calls`, () => {
    const r = growth(name);
    assert.ok(r.bytes_per_call < BOUND, `${name}: RSS grew ${r.window_growth_bytes.join(' and ')} bytes over two windows of ${r.window_calls} calls ` +
      `(${r.bytes_per_call} bytes/call, bound ${BOUND})`);
  });
}

// A Policy owns its compiled form until its finalizer runs, which Node does from the event loop:
// this loop lets it turn every 1,000 calls, as a program does between requests. (Fewer calls make
// the two windows too short for the bound: one step of the allocator, ~1 MB, is 200 bytes a call
// over 5,000. Policy.load and check(path) run for a million calls in bench/node/native_memory.mjs.)
test('Policy.fromObject(obj): native memory flat when the event loop turns', () => {
  const r = growth('Policy.fromObject(obj)', calls, 'yield');
  assert.ok(r.bytes_per_call < BOUND, JSON.stringify(r));
});

test('the measurement catches a handle per call (the leak it guards against)', () => {
  // A context External per call, as check() made before the fix: the same loop must see it.
  const r = growth('new Checker().check(obj)', 15000);
  assert.ok(r.bytes_per_call >= BOUND, `expected the per-call handle to show, got ${JSON.stringify(r)}`);
});
