// Ending a worker thread that uses the addon ends that worker only (SPEC §1.2: never a crash).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('worker.terminate() and process.exit() in a worker mid-call leave the process running', () => {
  const script = fileURLToPath(new URL('./fixtures/worker-teardown.cjs', import.meta.url));
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.signal, null, `killed by ${run.signal}: ${run.stderr}`);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), 'ok');
});
