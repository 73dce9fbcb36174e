// Runs every shared conformance vector (tests/conformance/**/*.yaml) through the Node API, with
// the matching rules of tests/conformance/README.md exactly as conformance_cases.cpp applies them,
// so that the C++, Python and Node suites give one answer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { check, Policy, validatePolicy } from 'sandgate';

const root = fileURLToPath(new URL('../../../tests/conformance/', import.meta.url));

function yamlFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...yamlFiles(path));
    else if (name.endsWith('.yaml')) out.push(path);
  }
  return out;
}

const str = (v) => (typeof v === 'string' ? v : '');
const isInt = (v) => Number.isInteger(v);

// Reads a case file as the C++ runner does: YAML 1.1 typing (as its loader and PyYAML), every
// case needs a name and an `expect` object.
function loadCases(path) {
  const rel = relative(root, path).split(sep).join('/');
  const doc = YAML.parse(readFileSync(path, 'utf8'), { version: '1.1' });
  assert.ok(doc && Array.isArray(doc.cases), `${rel}: no \`cases\` list`);
  const kind = rel.startsWith('check') ? 'check' : 'policy';
  return doc.cases.map((c) => {
    assert.ok(str(c.name), `${rel}: a case has no name`);
    assert.ok(c.expect && typeof c.expect === 'object' && !Array.isArray(c.expect), `${c.name}: no \`expect\``);
    const expected = (Array.isArray(c.expect.diagnostics) ? c.expect.diagnostics : []).map((d) => {
      assert.ok(str(d.code), `${c.name}: an expected diagnostic has no code`);
      return {
        code: str(d.code),
        path: str(d.path),
        severity: d.severity === undefined ? undefined : String(d.severity),
        input: d.input === undefined ? undefined : String(d.input),
        line: isInt(d.line) ? d.line : undefined,
        column: isInt(d.column) ? d.column : undefined,
      };
    });
    return { rel, kind, spec: c, name: c.name, exit: isInt(c.expect.exit) ? c.expect.exit : 0, infos: c.infos === true, expected };
  });
}

const describeActual = (d) =>
  `${d.code} ${d.severity} ${d.input}:${d.path || '/'}${d.source ? ` @${d.source.line}:${d.source.column}` : ''} — ${d.message}`;
const describeExpected = (e) =>
  `${e.code} ${e.severity ?? '*'} ${e.input ?? '*'}:${e.path || '/'}${e.line !== undefined ? ` @${e.line}:${e.column ?? 0}` : ''}`;

function matches(e, d) {
  if (e.code !== d.code || e.path !== d.path) return false;
  if (e.severity !== undefined && e.severity !== d.severity) return false;
  if (e.input !== undefined && e.input !== d.input) return false;
  if (e.line !== undefined && (!d.source || d.source.line !== e.line)) return false;
  if (e.column !== undefined && (!d.source || d.source.column !== e.column)) return false;
  return true;
}

// Errors and warnings match one to one (infos only when the case asks); then the exit code.
function compareDiagnostics(c, result) {
  const failures = [];
  const actual = result.diagnostics.filter((d) => d.severity !== 'info' || c.infos);
  const used = actual.map(() => false);
  for (const e of c.expected) {
    const i = actual.findIndex((d, k) => !used[k] && matches(e, d));
    if (i < 0) failures.push(`missing: ${describeExpected(e)}`);
    else used[i] = true;
  }
  actual.forEach((d, k) => { if (!used[k]) failures.push(`unexpected: ${describeActual(d)}`); });
  const exit = result.ok ? 0 : 1;
  if (exit !== c.exit) failures.push(`exit ${exit}, expected ${c.exit}`);
  return failures;
}

// RFC 6901 lookup; undefined when absent.
function resolvePointer(value, pointer) {
  if (pointer === '') return value;
  let cur = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= cur.length) return undefined;
      cur = cur[Number(token)];
    } else if (cur !== null && typeof cur === 'object' && Object.hasOwn(cur, token)) {
      cur = cur[token];
    } else {
      return undefined;
    }
  }
  return cur;
}

// Node::operator== : 2 and 2.0 are one value; object members compare in order.
function same(a, b) {
  const num = (v) => typeof v === 'number' || typeof v === 'bigint';
  if (num(a) && num(b)) return a == b; // eslint-disable-line eqeqeq -- bigint vs number on purpose
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same(a[k], b[k]));
}

const show = (v) => (v === undefined ? 'absent' : JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x)));

function runCheck(c) {
  const s = c.spec;
  const text = (key) => (typeof s[key] === 'string' ? s[key] : undefined);
  const options = s.options && typeof s.options === 'object' ? s.options : {};
  const result = check(text('sandbox') ?? '{}', {
    policy: text('policy'),
    runners: text('runners'),
    org: text('org'),
    defaults: text('defaults'),
    overrides: text('overrides'),
    // As the C++ runner: the client only when the case names one, else the C++ default.
    client: options.client === undefined ? 'python' : String(options.client),
    placement: options.placement === undefined ? undefined : String(options.placement),
  });
  const failures = compareDiagnostics(c, result);
  const expect = s.expect;
  const expectText = (key, actual) => {
    if (typeof expect[key] === 'string' && expect[key] !== actual) failures.push(`${key} is "${actual}", expected "${expect[key]}"`);
  };
  expectText('placement_mode', result.placement_mode ?? '');
  expectText('qos_class', result.qos_class ?? '');
  expectText('runtime_class', result.runtime_class ? result.runtime_class.value : '');
  expectText('runner', result.runner ? result.runner.id : '');
  if (expect.resolved && typeof expect.resolved === 'object' && !Array.isArray(expect.resolved)) {
    for (const [pointer, want] of Object.entries(expect.resolved)) {
      const actual = resolvePointer(result.resolved ?? {}, pointer);
      const ok = want === null ? actual === undefined : actual !== undefined && same(actual, want);
      if (!ok) failures.push(`resolved ${pointer} is ${show(actual)}, expected ${show(want === null ? undefined : want)}`);
    }
  }
  return failures;
}

function runCase(c) {
  if (c.kind === 'policy') {
    if (typeof c.spec.policy !== 'string') return ['policy cases need `policy` text'];
    return compareDiagnostics(c, validatePolicy(Policy.fromText(c.spec.policy, { file: 'policy.yaml' })));
  }
  return runCheck(c);
}

// diff/ holds policy diff cases (SPEC §10.3), run through diffPolicies once the binding has it.
const files = yamlFiles(root).filter((f) => !relative(root, f).split(sep).join('/').startsWith('diff/'));
let count = 0;
for (const path of files) {
  const cases = loadCases(path);
  count += cases.length;
  describe(relative(root, path), () => {
    for (const c of cases) {
      test(c.name, () => {
        const failures = runCase(c);
        assert.deepEqual(failures, [], `${c.rel} :: ${c.name}\n${failures.join('\n')}`);
      });
    }
  });
}

test('the conformance directory holds cases for both kinds', () => {
  assert.ok(files.some((f) => relative(root, f).startsWith('check')), 'no check cases');
  assert.ok(files.some((f) => relative(root, f).startsWith('policy')), 'no policy cases');
  assert.ok(count > 0);
});
