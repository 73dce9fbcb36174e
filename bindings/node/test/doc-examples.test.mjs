// Every documented JS/TS example runs: the ```js and ```ts blocks of README.md and docs/*.md, as
// bindings/python/tests/test_doc_examples.py does for Python. The blocks of one document run in
// order in one scope, in a scratch directory holding the files they name (examples/, and the
// policies, runners and requests the diff example reads by bare name). Imports of 'sandgate' and
// node: modules become declarations, so a later block may use an earlier one's names; the names
// the prose leaves to the reader (`spec`, `report`, …) are given, and so is every export of
// sandgate (the Errors example uses CWSandboxValidationError without importing it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as sandgate from 'sandgate';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DOCS = [path.join(REPO, 'README.md'), ...fs.readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join(REPO, 'docs', f))];
const FENCE = /^```(?:js|ts|javascript|typescript|mjs)(?!\w)[^\n]*\n([\s\S]*?)^```/gm;
const require = createRequire(import.meta.url);

const GIVEN = `
var spec = { resources: { cpu: '1', memory: '1Gi' } }, other = { resources: { cpu: '2', memory: '2Gi' } };
var specs = [spec, other], defaults = { annotations: { team: 'ml' } };
var path = 'examples/policies/production-cks.yaml', obj = { constraints: {} }, text = 'constraints: {}\\n', file = 'policy.yaml';
var runners = 'runners.yaml', org = { gpu_allowed: true };
var textOrObjectOrPolicy = text, reported = [], report = (x) => reported.push(x), postComment = (x) => reported.push(x);
`;

// `import { a, b as c } from 'm'` → `var { a, b: c } = await __import('m')`; const/let → var.
function toScript(block) {
  return block
    .replace(/^import\s+\{([^}]*)\}\s+from\s+('[^']+'|"[^"]+");?/gm, (_, names, from) => `var {${names.replace(/\bas\b/g, ':')}} = await __import(${from});`)
    .replace(/^import\s+(\w+)\s+from\s+('[^']+'|"[^"]+");?/gm, (_, name, from) => `var ${name} = (await __import(${from})).default;`)
    .replace(/^(\s*)(?:const|let)\s/gm, '$1var ');
}

const AsyncFunction = (async () => {}).constructor;

for (const doc of DOCS) {
  const blocks = [...fs.readFileSync(doc, 'utf8').matchAll(FENCE)].map((m) => m[1]);
  if (blocks.length === 0) continue;
  test(`the JS examples of ${path.relative(REPO, doc)} run`, async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sandgate-doc-'));
    fs.cpSync(path.join(REPO, 'examples'), path.join(scratch, 'examples'), { recursive: true });
    for (const f of ['policies/production-cks.yaml', 'policies/production-cks-v2.yaml', 'runners.yaml', 'requests.jsonl']) {
      fs.copyFileSync(path.join(REPO, 'examples', f), path.join(scratch, path.basename(f)));
    }
    const cwd = process.cwd();
    process.chdir(scratch);
    try {
      const prelude = `var {${Object.keys(sandgate).filter((k) => k !== 'default').join(', ')}} = __sandgate;\n${GIVEN}`;
      const body = prelude + blocks.map((b, i) => `// ---- block ${i + 1}\n${toScript(b)}`).join('\n');
      const imports = (m) => (m === 'sandgate' ? Promise.resolve(sandgate) : import(m));
      await new AsyncFunction('__sandgate', '__import', 'require', body)(sandgate, imports, require);
    } finally {
      process.chdir(cwd);
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
}

test('the documents hold JS examples', () => {
  const count = DOCS.reduce((n, d) => n + [...fs.readFileSync(d, 'utf8').matchAll(FENCE)].length, 0);
  assert.ok(count >= 5, `only ${count} blocks found`);
});
