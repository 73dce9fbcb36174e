// Instructions per `Checker.check(obj)` call from Node, on each README example, counted by
// callgrind: steadier than bench.mjs's times, which move by ±40 % on a shared 2-core machine.
//
//   node bench/node/check_instructions.mjs [--calls 1000] [--read] [sandboxes/x.yaml …]   (after scripts/test-node.sh)
//
// Each example runs in its own process under `valgrind --tool=callgrind` twice, with 0 and with
// `--calls` calls after the same set-up (the checker compiled once, the request read with `yaml`,
// 500 calls to warm up the JIT); the difference over the calls is one call's instructions: the JS
// wrapper, the conversion of the object, compiling and checking, and handing the result over. A
// third run counts only inside the native `check` function (callgrind's --toggle-collect), so
// `whole - native` is what JS costs (the wrapper, the result object, the JIT's and GC's share).
// --read also reads every field of each result (`JSON.stringify(result)`), the cost of a result
// read in full. --validate counts `validatePolicy(obj)` instead, on each examples/policies/*.yaml
// read with `yaml` (the objects and calls of bench.mjs's validation rows). Under valgrind V8's JIT and GC add some noise: about ±1 % between runs.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const at = args.indexOf('--calls');
const calls = at >= 0 ? Number(args[at + 1]) : 1000;
const readAll = args.includes('--read');
const validate = args.includes('--validate');
const only = args.filter((a) => a.endsWith('.yaml'));

// bench/examples.h: the README examples and the policy each is checked against.
const EXAMPLES = [
  ['sandboxes/prod-ok.yaml', 'policies/production-cks.yaml'],
  ['sandboxes/sunk-ok.yaml', 'policies/sunk-slurm.yaml'],
  ['sandboxes/sunk-partition-override.yaml', 'policies/sunk-slurm.yaml'],
  ['sandboxes/gpu-wrong-case.yaml', 'policies/gpu-cks.yaml'],
  ['sandboxes/memory-volume-80.yaml', 'policies/production-cks.yaml'],
  ['sandboxes/cpu-above-max.yaml', 'policies/production-cks.yaml'],
];

const PROGRAM = `
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const [repo, sandboxFile, policyFile, n, readAll] = process.argv.slice(1);
const require2 = createRequire(repo + 'bindings/node/package.json');
const sandgate = require2('./index.js');
const YAML = require2('yaml');
const read = (p) => readFileSync(repo + 'examples/' + p, 'utf8');
const policy = sandgate.Policy.fromText(read(policyFile));
const checker = new sandgate.Checker({ policy, runners: YAML.parse(read('runners.yaml')), org: YAML.parse(read('org.yaml')), client: 'python' });
const sandbox = YAML.parse(read(sandboxFile));
const call = readAll === '1' ? () => JSON.stringify(checker.check(sandbox)).length : () => checker.check(sandbox).ok;
for (let i = 0; i < 500; i++) call();
for (let i = 0; i < Number(n); i++) call();
console.log(checker.check(sandbox).ok ? 'passes' : 'fails');
`;

const VALIDATE_PROGRAM = `
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const [repo, policyFile, n] = process.argv.slice(1);
const require2 = createRequire(repo + 'bindings/node/package.json');
const sandgate = require2('./index.js');
const YAML = require2('yaml');
const policy = YAML.parse(readFileSync(repo + 'examples/' + policyFile, 'utf8'));
for (let i = 0; i < 500; i++) sandgate.validatePolicy(policy);
for (let i = 0; i < Number(n); i++) sandgate.validatePolicy(policy);
console.log(sandgate.validatePolicy(policy).ok ? 'valid' : 'invalid');
`;

function callgrind(program, programArgs, extra) {
  const run = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', ...extra, process.execPath,
    '-e', program, repo, ...programArgs], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const m = /Collected : (\d+)/.exec(run.stderr);
  if (run.status !== 0 || !m) throw new Error(`valgrind failed:\n${run.stderr.slice(-2000)}`);
  return { total: Number(m[1]), verdict: run.stdout.trim() };
}

function collected(sandbox, policy, n, ...extra) {
  return callgrind(PROGRAM, [sandbox, policy, String(n), readAll ? '1' : '0'], extra);
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const fmt = (x) => Math.round(x).toLocaleString('en-US');
console.log(`command: node bench/node/check_instructions.mjs --calls ${calls}${readAll ? ' --read' : ''}${validate ? ' --validate' : ''}`);
if (validate) {
  console.log(`${pad('policy', 28)} ${pad('verdict', 7)} ${lpad('whole call', 12)} ${lpad('native', 10)} ${lpad('JS', 10)}`);
  for (const name of readdirSync(`${repo}examples/policies`).filter((f) => f.endsWith('.yaml')).sort()) {
    const file = `policies/${name}`;
    const base = callgrind(VALIDATE_PROGRAM, [file, '0'], []);
    const full = callgrind(VALIDATE_PROGRAM, [file, String(calls)], []);
    const whole = (full.total - base.total) / calls;
    const native = callgrind(VALIDATE_PROGRAM, [file, String(calls)], ['--toggle-collect=*validate_policy_js*']).total / (calls + 501);
    console.log(`${pad(name, 28)} ${pad(full.verdict, 7)} ${lpad(fmt(whole), 12)} ${lpad(fmt(native), 10)} ${lpad(fmt(whole - native), 10)}`);
  }
  process.exit(0);
}
console.log(`${pad('example', 40)} ${pad('verdict', 7)} ${lpad('whole call', 12)} ${lpad('native check', 13)} ${lpad('JS', 10)}`);
for (const [sandbox, policy] of EXAMPLES.filter(([s]) => only.length === 0 || only.includes(s))) {
  const base = collected(sandbox, policy, 0);
  const full = collected(sandbox, policy, calls);
  const whole = (full.total - base.total) / calls;
  // Only inside the native check (the Checker's calls): the warm-up's and the last call's too.
  const native = collected(sandbox, policy, calls, '--toggle-collect=*check_js*').total / (calls + 501);
  console.log(`${pad(sandbox, 40)} ${pad(full.verdict, 7)} ${lpad(fmt(whole), 12)} ${lpad(fmt(native), 13)} ${lpad(fmt(whole - native), 10)}`);
}
