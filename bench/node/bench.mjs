// Node benchmark, side by side in one run:
//   1. each README example (bench/examples.h: six sandbox + policy pairs, with runners.yaml and
//      org.yaml), its sandbox a JS object: Checker.check(obj) with everything compiled once, and
//      the free function check(obj, {policy: Policy, runners, org}) with the policy compiled once
//      (runners and org are objects, read per call);
//   2. the input conversion alone, both ways the addon has (issue 12: "measure both and keep the
//      faster"): the property walk, and one JSON.stringify plus the native parse, on prod-ok and on
//      a large object, each as a whole eager check;
//   3. policy validation of every examples/policies/*.yaml: sandgate's validatePolicy (object
//      and text) against ajv compiled from the same schema/policy.schema.json, per policy, and the
//      geometric mean of the ratios (issue 12 asks validatePolicy(obj) within 10x of ajv).
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
const native = require('./lib/native.js');
const YAML = require('yaml');
const Ajv = require('ajv');
// The fast input path's pre-walk, when this checkout has it (the walk-only rows need neither).
let plainJson = null;
try {
  ({ plainJson } = require('./lib/plain_json.js'));
} catch { /* an older checkout: the walk only */ }

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
// bench/examples.h: the README examples and the policy each is checked against.
const EXAMPLES = [
  ['prod-ok', 'policies/production-cks.yaml'],
  ['sunk-ok', 'policies/sunk-slurm.yaml'],
  ['sunk-partition-override', 'policies/sunk-slurm.yaml'],
  ['gpu-wrong-case', 'policies/gpu-cks.yaml'],
  ['memory-volume-80', 'policies/production-cks.yaml'],
  ['cpu-above-max', 'policies/production-cks.yaml'],
];
const runners = YAML.parse(read('runners.yaml'));
const org = YAML.parse(read('org.yaml'));

const gpu = sandgate.check(YAML.parse(read('sandboxes/gpu-wrong-case.yaml')),
  { policy: sandgate.Policy.fromText(read('policies/gpu-cks.yaml')), runners, org, client: 'python' });
if (gpu.ok || !gpu.diagnostics.some((d) => d.code === 'SG_GPU_TYPE_UNAVAILABLE')) {
  throw new Error('the README example no longer answers SG_GPU_TYPE_UNAVAILABLE: fix the benchmark inputs');
}

const rows = [];
const row = (group, name, fn) => {
  const m = measure(fn);
  rows.push({ group, name, ...m });
  return m;
};

const checks = [];
for (const [name, policyFile] of EXAMPLES) {
  const sandbox = YAML.parse(read(`sandboxes/${name}.yaml`));
  const policy = sandgate.Policy.fromText(read(policyFile));
  const checker = new sandgate.Checker({ policy, runners, org, client: 'python' });
  const compiled = row('check', `${name}: Checker.check(obj)`, () => checker.check(sandbox).ok);
  const free = row('check', `${name}: check(obj, {policy: Policy, runners, org})`,
    () => sandgate.check(sandbox, { policy, runners, org, client: 'python' }).ok);
  checks.push({ name, compiled, free });
}

// The conversion both ways, as whole eager checks of the same object (native.check without and
// with the JSON text; the pre-walk and JSON.stringify are in the timed call).
const conversions = [];
if (plainJson) {
  const context = native.makeContext(undefined, undefined, undefined, 'python', '');
  const big = { containerImage: 'python:3.11', annotations: {}, environmentVariables: {}, tags: [] };
  for (let i = 0; i < 1000; i++) {
    big.annotations[`example.com/key-${i}`] = `value ${i}`;
    big.environmentVariables[`VAR_${i}`] = `${i}`.repeat(8);
    big.tags.push(`tag-${i}`);
  }
  for (const [name, value] of [['prod-ok', YAML.parse(read('sandboxes/prod-ok.yaml'))], ['3,000-member object', big]]) {
    if (typeof plainJson(value) !== 'string') throw new Error(`${name}: not plain JSON`);
    const walk = row('convert', `${name}: property walk (js_to_node)`, () => native.check(context, value));
    const text = row('convert', `${name}: JSON.stringify + native parse`,
      () => native.check(context, value, undefined, undefined, plainJson(value), undefined, undefined, false));
    conversions.push({ name, walk, text });
  }
}

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
const sgObject = row('validate', 'sandgate validatePolicy(obj), all policies in turn', () => sandgate.validatePolicy(next().object));
const sgText = row('validate', 'sandgate validatePolicy(text), all policies in turn', () => sandgate.validatePolicy(next().text));
const ajvRow = row('validate', 'ajv validate(obj) (compiled schema), all in turn', () => ajvValidate(next().object));
for (const p of policies) {
  p.sg = row('validate', `${p.file}: validatePolicy(obj)`, () => sandgate.validatePolicy(p.object).ok);
  p.ajv = row('validate', `${p.file}: ajv validate(obj)`, () => ajvValidate(p.object));
}

const pad = (s, n) => String(s).padEnd(n);
console.log(`command: node bench/node/bench.mjs --ms ${budgetMs}`);
console.log(`node ${process.version}, sandgate ${sandgate.version}, ajv ${require('ajv/package.json').version}, ${policies.length} policies (${policyFiles.join(', ')})`);
console.log(`ajv compile of schema/policy.schema.json: ${ajvCompileMs.toFixed(1)} ms (once)`);
console.log('');
console.log(`${pad('benchmark', 66)} ${pad('µs/call', 10)} calls`);
for (const r of rows) console.log(`${pad(r.name, 66)} ${pad(r.us.toFixed(2), 10)} ${r.calls}`);
console.log('');
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
console.log(`Checker.check(obj): ${checks.map((c) => `${c.name} ${c.compiled.us.toFixed(1)}`).join(', ')} µs; ` +
  `geometric mean ${geo(checks.map((c) => c.compiled.us)).toFixed(2)} µs, slowest ${Math.max(...checks.map((c) => c.compiled.us)).toFixed(1)} µs (issue 12: ≤ 10 µs each)`);
console.log(`check(obj, {policy: Policy, runners, org}): geometric mean ${geo(checks.map((c) => c.free.us)).toFixed(2)} µs`);
for (const c of conversions) {
  console.log(`conversion, ${c.name}: walk ${c.walk.us.toFixed(2)} µs, JSON text ${c.text.us.toFixed(2)} µs (${(c.walk.us / c.text.us).toFixed(2)}x)`);
}
for (const p of policies) console.log(`validatePolicy(obj) / ajv, ${pad(p.file, 26)} ${(p.sg.us / p.ajv.us).toFixed(1)}x`);
console.log(`validatePolicy(obj) / ajv, geometric mean over ${policies.length} policies: ${geo(policies.map((p) => p.sg.us / p.ajv.us)).toFixed(1)}x (issue 12: within 10x)`);
console.log(`ratio validatePolicy(obj) / ajv, all in turn:  ${(sgObject.us / ajvRow.us).toFixed(1)}x`);
console.log(`ratio validatePolicy(text) / ajv, all in turn: ${(sgText.us / ajvRow.us).toFixed(1)}x`);
const disagree = policies.filter((p) => !p.agree).map((p) => p.file);
console.log(`sandgate and ajv agree on valid/invalid for ${policies.length - disagree.length}/${policies.length} policies${disagree.length ? ` (not: ${disagree.join(', ')}, where the P rules see more than the schema)` : ''}`);
