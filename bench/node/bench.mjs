// Node benchmark, side by side in one run:
//   1. check(obj) on README's example (examples/sandboxes/gpu-wrong-case.yaml against
//      policies/gpu-cks.yaml, runners.yaml, org.yaml), as check() with the options each call and
//      as a Checker compiled once;
//   2. policy validation of every examples/policies/*.yaml: sandgate's validatePolicy (object
//      and text) against ajv compiled from the same schema/policy.schema.json.
// ajv checks the JSON Schema alone; validatePolicy also runs rules P-1…P-15 (quantities,
// consistency, CIDRs, …) and reports every problem with its pointer, so the ratio prices those.
//
// Run: node bench/node/bench.mjs [--ms 1500]   (after scripts/test-node.sh has built the addon)
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(`${repo}bindings/node/package.json`);
const sandgate = require('./index.js');
const YAML = require('yaml');
const Ajv = require('ajv');

const msArg = process.argv.indexOf('--ms');
const budgetMs = msArg > 0 ? Number(process.argv[msArg + 1]) : 1500;

// Calls `fn` in rounds for about `budgetMs`; reports the median of the rounds' per-call times,
// which is steadier than the mean on a shared machine.
function measure(fn) {
  for (let i = 0; i < 50; i++) fn(); // warm up the JIT and the caches
  let perRound = 1;
  for (;;) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) fn();
    if (Number(process.hrtime.bigint() - t) > 20e6) break;
    perRound *= 2;
  }
  const rounds = [];
  const end = performance.now() + budgetMs;
  while (performance.now() < end || rounds.length < 5) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) fn();
    rounds.push(Number(process.hrtime.bigint() - t) / perRound / 1e3);
  }
  rounds.sort((a, b) => a - b);
  return { us: rounds[Math.floor(rounds.length / 2)], calls: rounds.length * perRound };
}

const read = (p) => readFileSync(`${repo}examples/${p}`, 'utf8');
const sandbox = YAML.parse(read('sandboxes/gpu-wrong-case.yaml'));
const policyObject = YAML.parse(read('policies/gpu-cks.yaml'));
const runners = YAML.parse(read('runners.yaml'));
const org = YAML.parse(read('org.yaml'));
const policy = sandgate.Policy.fromObject(policyObject);
const checker = new sandgate.Checker({ policy, runners, org, client: 'python' });

const expected = checker.check(sandbox);
if (expected.ok || !expected.diagnostics.some((d) => d.code === 'SG_GPU_TYPE_UNAVAILABLE')) {
  throw new Error('the README example no longer answers SG_GPU_TYPE_UNAVAILABLE: fix the benchmark inputs');
}

const rows = [];
const row = (group, name, fn) => {
  const m = measure(fn);
  rows.push({ group, name, ...m });
  return m;
};

row('check', 'check(obj, {policy, runners, org}) — compiles runners/org per call', () =>
  sandgate.check(sandbox, { policy, runners, org, client: 'python' }));
row('check', 'Checker.check(obj) — compiled once', () => checker.check(sandbox));
row('check', 'Checker.check(text) — YAML text', () => checker.check(read('sandboxes/gpu-wrong-case.yaml')));

const schema = JSON.parse(readFileSync(`${repo}schema/policy.schema.json`, 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true }); // strict off: the schema has x-sandgate-* keywords
const compileStart = performance.now();
const ajvValidate = ajv.compile(schema);
const ajvCompileMs = performance.now() - compileStart;

const policyFiles = readdirSync(`${repo}examples/policies`).filter((f) => f.endsWith('.yaml')).sort();
const policies = policyFiles.map((f) => ({ file: f, text: read(`policies/${f}`), object: YAML.parse(read(`policies/${f}`)) }));
for (const p of policies) {
  const sg = sandgate.validatePolicy(p.object).ok;
  const aj = ajvValidate(p.object);
  p.agree = sg === aj;
}
let k = 0;
const next = () => policies[k++ % policies.length];
const sgObject = row('validate', 'sandgate validatePolicy(obj)', () => sandgate.validatePolicy(next().object));
const sgText = row('validate', 'sandgate validatePolicy(text)', () => sandgate.validatePolicy(next().text));
const ajvRow = row('validate', 'ajv validate(obj) (compiled schema)', () => ajvValidate(next().object));

const pad = (s, n) => String(s).padEnd(n);
console.log(`command: node bench/node/bench.mjs --ms ${budgetMs}`);
console.log(`node ${process.version}, sandgate ${sandgate.version}, ajv ${require('ajv/package.json').version}, ${policies.length} policies (${policyFiles.join(', ')})`);
console.log(`ajv compile of schema/policy.schema.json: ${ajvCompileMs.toFixed(1)} ms (once)`);
console.log('');
console.log(`${pad('benchmark', 62)} ${pad('µs/call', 10)} calls`);
for (const r of rows) console.log(`${pad(r.name, 62)} ${pad(r.us.toFixed(2), 10)} ${r.calls}`);
console.log('');
const [viaCheck, compiled, text] = rows;
console.log(`ratio check(obj) / Checker.check(obj):          ${(viaCheck.us / compiled.us).toFixed(2)}x`);
console.log(`ratio Checker.check(text) / Checker.check(obj): ${(text.us / compiled.us).toFixed(2)}x`);
console.log(`ratio validatePolicy(obj) / ajv:                ${(sgObject.us / ajvRow.us).toFixed(1)}x`);
console.log(`ratio validatePolicy(text) / ajv:               ${(sgText.us / ajvRow.us).toFixed(1)}x`);
const disagree = policies.filter((p) => !p.agree).map((p) => p.file);
console.log(`sandgate and ajv agree on valid/invalid for ${policies.length - disagree.length}/${policies.length} policies${disagree.length ? ` (not: ${disagree.join(', ')}, where the P rules see more than the schema)` : ''}`);
