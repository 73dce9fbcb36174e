// Native memory over many calls of each public Node function (issue 12: "1,000,000 calls of each
// public function leave native memory flat"), through the loop that test/native-memory.test.mjs
// runs at 45,000 calls in CI (bindings/node/test/fixtures/native-growth.mjs): one process per case,
// a third of the calls to warm up, then the RSS growth of two windows of a third each with V8's
// heap collected; bytes per call is the smaller window's growth over its calls (negative when the
// allocator gave memory back in that window: flat, not a gain to report).
//
// Run: node bench/node/native_memory.mjs [--calls 1000000] [case …]   (after scripts/test-node.sh)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { V8_FLAGS } from '../../bindings/node/test/fixtures/native-growth-flags.mjs';

const fixture = fileURLToPath(new URL('../../bindings/node/test/fixtures/native-growth.mjs', import.meta.url));
const args = process.argv.slice(2);
const at = args.indexOf('--calls');
const calls = at >= 0 ? Number(args.splice(at, 2)[1]) : 1_000_000;
// The case names, read from the fixture's `cases` object (the functions before the fix are left out).
const source = readFileSync(fixture, 'utf8');
const all = [...source.slice(source.indexOf('const cases = {')).matchAll(/^  '([^']+)':/gm)].map((m) => m[1]);
const cases = args.length ? args : all.filter((c) => !c.startsWith('new Checker'));

const pad = (s, n) => String(s).padEnd(n);  // wider values push the row along; the columns are for reading, not parsing
const lpad = (s, n) => String(s).padStart(n);
const W = Math.max(4, ...cases.map((c) => c.length)); // the case column fits the longest name asked for
console.log(`${pad('case', W)} ${lpad('calls', 10)} ${lpad('seconds', 8)} ${lpad('RSS growth per window', 26)} ${lpad('bytes/call', 10)}`);
for (const c of cases) {
  // Objects that own native memory (a Policy) are freed by finalizers that Node runs from the
  // event loop: their loops let it turn every 1,000 calls, as a program does between requests.
  const mode = /^Policy\./.test(c) ? ['yield'] : [];
  const run = spawnSync(process.execPath, [...V8_FLAGS, fixture, c, String(calls), ...mode], { encoding: 'utf8' });
  if (run.status !== 0) {
    console.log(`${pad(c, W)} failed: ${run.stderr.trim().split('\n').pop()}`);
    continue;
  }
  const r = JSON.parse(run.stdout.trim().split('\n').pop());
  const growth = r.window_growth_bytes.map((g) => g.toLocaleString('en-US')).join(' / ');
  console.log(`${pad(r.case, W)} ${lpad(r.calls.toLocaleString('en-US'), 10)} ${lpad(r.seconds.toFixed(1), 8)} ${lpad(growth, 26)} ${lpad(r.bytes_per_call.toFixed(2), 10)}`);
}
