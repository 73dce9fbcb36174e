// The CLI's SARIF output against the official SARIF 2.1.0 schema (shipped by the npm package
// @microsoft/jest-sarif), validated with ajv. The CLI comes from SANDGATE_CLI, else the default
// preset's build; without it the test is skipped and says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { codes } from 'sandgate';

const require = createRequire(import.meta.url);
const cli = process.env.SANDGATE_CLI || fileURLToPath(new URL('../../../build/default/sandgate', import.meta.url));
const skip = existsSync(cli) ? false : `the sandgate CLI is not built (${cli}); build it with \`cmake --preset default && cmake --build --preset default\` or set SANDGATE_CLI`;

// The file declares draft-04 only by its `$schema`/`id`; its keywords are all draft-07's too.
function sarifValidator() {
  const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
  delete schema.$schema;
  schema.$id = schema.id;
  delete schema.id;
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    unicodeRegExp: false, // one of its patterns (language tags) is valid only without the u flag
    formats: {
      uri: (s) => /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(s),
      'uri-reference': (s) => !/\s/.test(s),
      'date-time': (s) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s),
    },
  });
  return ajv.compile(schema);
}

const policyWithErrors = `display_name: broken
base:
  spec:
    affinity: {}
constraints:
  resources:
    max_cpu: 2
    min_cpu: "8"
  lifecycle:
    default_lifetime_seconds: 99999999
`;

test('policy validate --format sarif is valid SARIF 2.1.0', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandgate-sarif-'));
  const file = join(dir, 'policy.yaml');
  writeFileSync(file, policyWithErrors);
  const run = spawnSync(cli, ['policy', 'validate', file, '--format', 'sarif'], { encoding: 'utf8' });
  assert.equal(run.status, 1, `exit ${run.status}: ${run.stderr}`);
  const log = JSON.parse(run.stdout);
  const validate = sarifValidator();
  const valid = validate(log);
  assert.ok(valid, JSON.stringify(validate.errors, null, 2));
  assert.equal(log.version, '2.1.0');
  const results = log.runs[0].results;
  assert.ok(results.length >= 2, 'every error is a result');
  const known = new Set(codes().map((c) => c.code));
  for (const r of results) {
    assert.ok(known.has(r.ruleId), `unknown ruleId ${r.ruleId}`);
    assert.ok(r.locations[0].physicalLocation.region.startLine >= 1);
  }
});

test('the schema check catches a broken log', { skip }, () => {
  const validate = sarifValidator();
  assert.equal(validate({ version: '2.1.0', runs: [{ results: [] }] }), false, 'a run without a tool is not SARIF');
});

// SPEC §3 `related`: a request value checked against a policy bound names the policy's line too.
test('check --format sarif names the policy field as a related location', { skip }, () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const run = spawnSync(cli, ['check', 'examples/sandboxes/cpu-above-max.yaml', '--policy', 'examples/policies/production-cks.yaml',
                              '--runners', 'examples/runners.yaml', '--format', 'sarif'], { encoding: 'utf8', cwd: root });
  assert.equal(run.status, 1, `exit ${run.status}: ${run.stderr}`);
  const log = JSON.parse(run.stdout);
  const validate = sarifValidator();
  assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
  const above = log.runs[0].results.find((r) => r.ruleId === 'SG_RESOURCE_ABOVE_MAX');
  assert.ok(above, 'the bound is reported');
  assert.equal(above.locations[0].physicalLocation.artifactLocation.uri, 'examples/sandboxes/cpu-above-max.yaml');
  const [related] = above.relatedLocations;
  assert.equal(related.physicalLocation.artifactLocation.uri, 'examples/policies/production-cks.yaml');
  assert.equal(related.physicalLocation.region.startLine, 17);
  assert.equal(related.logicalLocations[0].fullyQualifiedName, 'policy:/constraints/resources/max_cpu');
  assert.equal(related.message.text, 'the limit is set here');
});
