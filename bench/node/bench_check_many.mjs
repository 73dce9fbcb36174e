// Checker.checkMany on 1 and on 2 worker threads (SPEC §10, issue 12 item 5): records/s and the
// ratio, as bench/python/bench_check_many.py measures Python's check_many.
//
//   node bench/node/bench_check_many.mjs [-n 100000] [--threads 1 2] [--repeat 3]   (after scripts/test-node.sh)
//
// The records come from examples/make_requests.py (the generator of examples/requests.jsonl),
// checked against examples/policies/production-cks.yaml with runners.yaml and org.yaml, compiled
// once in a Checker. Two sources, as in Python:
//   objects: each record as a JS value (`{sandbox, defaults, overrides}` or a sandbox), converted
//            on the main thread (V8 values may not be read elsewhere), checked on the pool;
//   lines:   each record's JSON Lines text (a string item), parsed and checked on the pool.
// Each thread count runs in a process of its own, since libuv sizes its pool once
// (UV_THREADPOOL_SIZE). Every result's `ok` is read, as a caller would. Times are the best of
// --repeat runs, wall time with the process's CPU time beside it (on a machine whose cores are busy
// a second thread may find no free core).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const records = Number(option('-n', '100000'));
const repeat = Number(option('--repeat', '3'));
const threadsAt = args.indexOf('--threads');
const threads = threadsAt >= 0 ? args.slice(threadsAt + 1).filter((a) => /^\d+$/.test(a)).map(Number) : [1, 2];

// One run of one source on one pool size, in this process (the child side).
const CHILD = `
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const [repo, file, source, repeat] = process.argv.slice(1);
const require2 = createRequire(repo + 'bindings/node/package.json');
const sandgate = require2('./index.js');
const ex = (p) => readFileSync(repo + 'examples/' + p, 'utf8');
const checker = new sandgate.Checker({ policy: sandgate.Policy.fromText(ex('policies/production-cks.yaml')),
  runners: ex('runners.yaml'), org: ex('org.yaml'), client: 'python' });
const lines = readFileSync(file, 'utf8').split('\\n').filter((l) => l.length > 0);
const items = source === 'lines' ? lines : lines.map((l) => {
  const r = JSON.parse(l);
  if (r === null || typeof r !== 'object' || !('sandbox' in r)) return r;
  const item = { sandbox: r.sandbox };
  if (r.defaults !== undefined) item.defaults = r.defaults;
  if (r.overrides !== undefined) item.overrides = r.overrides;
  return item;
});
(async () => {
  let best = null;
  for (let i = 0; i < Number(repeat); i++) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const results = await checker.checkMany(items);
    let ok = 0;
    for (const r of results) ok += r.ok ? 1 : 0;
    const wall = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpu);
    const run = { wall, cpu: (used.user + used.system) / 1e6, records: results.length, ok };
    if (best === null || run.wall < best.wall) best = run;
  }
  console.log(JSON.stringify(best));
})();
`;

const dir = mkdtempSync(join(tmpdir(), 'sandgate-many-'));
try {
  const file = join(dir, 'requests.jsonl');
  const made = spawnSync('python3', [`${repo}examples/make_requests.py`, '-n', String(records), '--seed', '7', '--no-broken', '--output', file],
    { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make_requests.py failed:\n${made.stderr}`);
  const n = readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0).length;
  console.log(`sandgate checkMany, Node ${process.version}, ${cpus().length} CPUs, load average ` +
    `${loadavg()[0].toFixed(2)} at the start, ${n} records, best of ${repeat}`);
  for (const source of ['objects', 'lines']) {
    const rates = new Map();
    for (const t of threads) {
      const run = spawnSync(process.execPath, ['-e', CHILD, repo, file, source, String(repeat)],
        { encoding: 'utf8', env: { ...process.env, UV_THREADPOOL_SIZE: String(t) }, maxBuffer: 1 << 24 });
      if (run.status !== 0) throw new Error(`the ${source} run on ${t} thread(s) failed:\n${run.stderr}`);
      const best = JSON.parse(run.stdout.trim().split('\n').pop());
      const rate = best.records / best.wall;
      rates.set(t, rate);
      console.log(`  ${source.padEnd(7)} threads=${t}: ${Math.round(rate).toLocaleString('en-US').padStart(9)} records/s  ` +
        `(${best.wall.toFixed(3)} s wall, ${best.cpu.toFixed(3)} s CPU, ${best.ok} accepted)`);
    }
    if (rates.has(1) && rates.has(2)) {
      console.log(`  ${source.padEnd(7)} ratio 2/1 threads: ${(rates.get(2) / rates.get(1)).toFixed(2)}x`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
