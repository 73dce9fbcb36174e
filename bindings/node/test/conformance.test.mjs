// Runs every shared conformance vector (tests/conformance/**/*.yaml) through the Node API, with
// the matching rules of tests/conformance/README.md exactly as conformance_cases.cpp applies them,
// so that the C++, Python and Node suites give one answer.
//
// Every case runs twice (issue 12, item 4): from its text, and from the JS values its text decodes
// to (the `yaml` package's YAML 1.1 typing, as the C++ loader reads scalars, but timestamps kept as
// strings; integers as numbers, and as BigInt past Number.MAX_SAFE_INTEGER), so the converter from
// JS values is tested by the same cases. Through values, `line` and `column` are not compared
// (values have no source) but the order is, against the text's (readingOrderFailures), and a case stays text-only when its text does not decode, an input
// decodes to a string (which the API reads as text), or it expects a diagnostic only text can cause
// (rules L-*, but for the depth, size and integer checks, which values meet too).
//
// A check case through values runs a third time through `Checker.checkMany` (one item with its own
// defaults and overrides), which hands plain values to the addon as one batch text
// (`native.checkTexts`): the engine's answer must not depend on how an item got there.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { yamlFiles } from './fixtures/yaml-files.mjs';
import { safeIntegers } from './fixtures/safe-integers.mjs';
import { check, Checker, codes, Policy, validatePolicy } from 'sandgate';

const native = createRequire(import.meta.url)('../lib/native.js');

const root = fileURLToPath(new URL('../../../tests/conformance/', import.meta.url));

const str = (v) => (typeof v === 'string' ? v : '');
// What an expected diagnostic may say; a misspelt key would be an expectation that is never checked.
const EXPECTED_KEYS = new Set(['code', 'path', 'severity', 'input', 'line', 'column', 'hint', 'message', 'message_contains', 'related', 'python_exception']);
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
      const unknown = Object.keys(d).filter((k) => !EXPECTED_KEYS.has(k));
      assert.deepEqual(unknown, [], `${c.name}: an expected diagnostic has the unknown keys ${unknown.join(', ')}`);
      return {
        code: str(d.code),
        path: str(d.path),
        severity: d.severity === undefined ? undefined : String(d.severity),
        input: d.input === undefined ? undefined : String(d.input),
        line: isInt(d.line) ? d.line : undefined,
        column: isInt(d.column) ? d.column : undefined,
        hint: d.hint === undefined ? undefined : String(d.hint),
        message: d.message === undefined ? undefined : String(d.message),
        messageContains: d.message_contains === undefined ? undefined : String(d.message_contains),
        pythonException: d.python_exception === undefined ? undefined : String(d.python_exception),
        related: d.related && typeof d.related === 'object'
          ? { input: str(d.related.input), path: str(d.related.path), line: isInt(d.related.line) ? d.related.line : undefined, column: isInt(d.related.column) ? d.related.column : undefined }
          : undefined,
      };
    });
    return { rel, kind, spec: c, name: c.name, exit: isInt(c.expect.exit) ? c.expect.exit : 0, infos: c.infos === true, expected };
  });
}

const describeActual = (d) =>
  `${d.code} ${d.severity} ${d.input}:${d.path || '/'}${d.source ? ` @${d.source.line}:${d.source.column}` : ''} — ${d.message}${d.hint ? ` (hint: ${d.hint})` : ''}${d.related.map((r) => ` [related: ${r.input}:${r.path || '/'}${r.source ? ` @${r.source.line}:${r.source.column}` : ''}]`).join('')}`;
const describeExpected = (e) =>
  `${e.code} ${e.severity ?? '*'} ${e.input ?? '*'}:${e.path || '/'}${e.line !== undefined ? ` @${e.line}:${e.column ?? 0}` : ''}${e.hint !== undefined ? ` hint: ${e.hint}` : ''}${e.message !== undefined ? ` message: ${e.message}` : ''}${e.messageContains !== undefined ? ` message containing: ${e.messageContains}` : ''}${e.pythonException !== undefined ? ` python_exception: ${e.pythonException}` : ''}${e.related !== undefined ? ` related: ${e.related.input}:${e.related.path}${e.related.line !== undefined ? ` @${e.related.line}:${e.related.column ?? 0}` : ''}` : ''}`;

function relatedMatches(e, r, positions) {
  if (e.input !== r.input || e.path !== r.path) return false;
  if (!positions) return true;
  if (e.line !== undefined && (!r.source || r.source.line !== e.line)) return false;
  if (e.column !== undefined && (!r.source || r.source.column !== e.column)) return false;
  return true;
}

function matches(e, d, positions = true) {
  if (e.code !== d.code || e.path !== d.path) return false;
  if (e.severity !== undefined && e.severity !== d.severity) return false;
  if (e.input !== undefined && e.input !== d.input) return false;
  if (e.hint !== undefined && e.hint !== (d.hint ?? '')) return false;
  if (e.message !== undefined && e.message !== d.message) return false;
  if (e.messageContains !== undefined && !d.message.includes(e.messageContains)) return false;
  if (e.pythonException !== undefined && e.pythonException !== (d.python_exception ?? '')) return false;
  if (e.related !== undefined && !d.related.some((r) => relatedMatches(e.related, r, positions))) return false;
  if (!positions) return true;
  if (e.line !== undefined && (!d.source || d.source.line !== e.line)) return false;
  if (e.column !== undefined && (!d.source || d.source.column !== e.column)) return false;
  return true;
}

// Errors and warnings match one to one (infos only when the case asks); then the exit code.
function compareDiagnostics(c, result, positions = true) {
  const failures = [];
  const actual = result.diagnostics.filter((d) => d.severity !== 'info' || c.infos);
  const used = actual.map(() => false);
  for (const e of c.expected) {
    const i = actual.findIndex((d, k) => !used[k] && matches(e, d, positions));
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

const INPUTS = ['sandbox', 'policy', 'defaults', 'overrides', 'runners', 'org'];
const VALUE_CODES = new Set(['SG_DOC_TOO_DEEP', 'SG_DOC_TOO_MANY_NODES', 'SG_INTEGER_RANGE', 'SG_NOT_AN_INTEGER']);
const TEXT_ONLY_CODES = new Set(codes().filter((r) => r.rule.startsWith('L-') && !VALUE_CODES.has(r.code)).map((r) => r.code));
const withoutTimestamps = (tags) => tags.filter((t) => t.tag !== 'tag:yaml.org,2002:timestamp');


// Cases whose text the `yaml` package decodes to other values than the C++ loader (and PyYAML) read,
// or where the converter answers differently from the text loader: from text only, each with why.
const TEXT_ONLY_CASES = new Map([
  ['check/r_annotations.yaml :: name_part_longer_than_63_is_invalid', 'the yaml package reads the value `y` as true (YAML 1.1); C++ and PyYAML read the string "y"'],
  ['check/r_volumes.yaml :: mounted_file_beside_a_volume_with_a_similar_name_passes', 'the yaml package reads a `y` value as true (YAML 1.1); C++ and PyYAML read a string'],
  ['policy/quantities.yaml :: unquoted_1e3_is_a_string_under_yaml_1_1', 'the yaml package reads 1e3 as the number 1000; YAML 1.1 (C++, PyYAML) has no float without a dot'],
  ['policy/quantities.yaml :: huge_exponent_is_rejected_without_hanging', 'the yaml package reads 2E6024865272343 as Infinity; YAML 1.1 (C++, PyYAML) reads a string'],
  ['policy/quantities.yaml :: milli_and_whole_units_are_equal', 'the yaml package reads 1e0 as the number 1; YAML 1.1 (C++, PyYAML) reads a string'],
  ['policy/spelling.yaml :: an_integer_written_as_a_float_is_told_the_integer', 'JavaScript has one number type: 3600.0 is the integer 3600, which is accepted'],
  ['policy/spelling.yaml :: an_integer_written_with_an_exponent_is_told_the_integer', 'the yaml package reads 36e2 as the number 3600; YAML 1.1 (C++, PyYAML) reads a string'],
  ['check/hints.yaml :: an_integer_written_with_an_exponent_is_told_the_integer', 'the yaml package reads 36e2 as the number 3600; YAML 1.1 (C++, PyYAML) reads a string'],
  ['check/l_yaml_values.yaml :: a_sexagesimal_float_is_read_as_pyyaml_reads_it', 'JavaScript has one number type: the sexagesimal float 1:0. is the integer 60, which is accepted'],
  ['policy/yaml_readers.yaml :: an_anchored_null_word_key_keeps_its_name', 'the yaml package turns the key null (a YAML null) into the property ""; C++ and PyYAML keep the key as written, "null"'],
  ['check/l_yaml_values.yaml :: a_folded_block_kept_whole_at_the_end_of_the_text_without_a_line_break_has_none', 'the yaml package gives a `>+` block that ends the text without a line break one ("folded\\ntext\\n"); C++ and PyYAML read "folded\\ntext"'],
]);

// The case's inputs decoded to JS values, or (a string) why the case runs from text only.
function asValues(c) {
  const known = TEXT_ONLY_CASES.get(`${c.rel} :: ${c.name}`);
  if (known) return known;
  const textOnly = [...new Set(c.expected.map((e) => e.code).filter((code) => TEXT_ONLY_CODES.has(code)))].sort();
  if (textOnly.length) return `expects a diagnostic of the text loader (${textOnly.join(', ')})`;
  const out = {};
  for (const key of INPUTS) {
    if (typeof c.spec[key] !== 'string') continue;
    const docs = YAML.parseAllDocuments(c.spec[key], { version: '1.1', intAsBigInt: true, customTags: withoutTimestamps });
    if (!Array.isArray(docs) || docs.length !== 1) return `its ${key} text holds ${Array.isArray(docs) ? docs.length : 0} documents`;
    if (docs[0].errors.length) return `its ${key} text does not decode (${docs[0].errors[0].code})`;
    // `!RegisteredVolumeOptions {…}`: the Python SDK class a value stands for, which a JS value cannot
    // carry; or a core tag on a form the yaml package does not construct (`!!float 0777`).
    if (docs[0].warnings.some((w) => w.code === 'TAG_RESOLVE_FAILED')) return `its ${key} text has a tag the yaml package does not resolve (an SDK option class, or a core tag on a form it does not read)`;
    const value = safeIntegers(docs[0].toJS({ maxAliasCount: -1 }));
    if (typeof value === 'string' && key !== 'policy') return `its ${key} text decodes to a string, which check() reads as text`;
    out[key] = value;
  }
  return out;
}

// The sandbox and the check() options of a check case, from its text or from its values.
function checkInputs(c, values) {
  const s = c.spec;
  const text = (key) => (typeof s[key] === 'string' ? s[key] : undefined);
  const input = values ? (key) => values[key] : text;
  const options = s.options && typeof s.options === 'object' ? s.options : {};
  const policy = values && typeof values.policy === 'string' ? Policy.fromObject(values.policy) : input('policy');
  return [input('sandbox') ?? (values ? {} : '{}'), {
    policy,
    runners: input('runners'),
    org: input('org'),
    defaults: input('defaults'),
    overrides: input('overrides'),
    // As the C++ runner: the client only when the case names one, else the C++ default.
    client: options.client === undefined ? 'python' : String(options.client),
    placement: options.placement === undefined ? undefined : String(options.placement),
  }];
}

// The case's result, from its text or (given) from the JS values its text decodes to.
function resultOf(c, values) {
  if (c.kind !== 'policy') return check(...checkInputs(c, values));
  if (values) return validatePolicy(Policy.fromObject(values.policy));
  return validatePolicy(Policy.fromText(c.spec.policy, { file: 'policy.yaml' }));
}

// A value's diagnostics must come in its text's reading order (inputs by first mention, then line
// and column). Where the text puts two at one place (a YAML block mapping stands where its first
// key does) either order is that order; and the result leads with the same error, so the same
// exception is thrown.
function readingOrderFailures(fromText, fromValues) {
  const inputs = [];
  const places = new Map();
  for (const d of fromText.diagnostics) {
    if (!inputs.includes(d.input)) inputs.push(d.input);
    const key = `${d.code} ${d.input} ${d.path}`;
    if (!places.has(key)) places.set(key, []);
    places.get(key).push([inputs.indexOf(d.input), d.source?.line ?? 0, d.source?.column ?? 0]);
  }
  const order = [];
  for (const d of fromValues.diagnostics) {
    const found = places.get(`${d.code} ${d.input} ${d.path}`);
    if (!found?.length) return []; // not the same diagnostics: compareDiagnostics says how
    order.push([found.shift(), d]);
  }
  const before = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  for (let i = 1; i < order.length; i++) {
    const [[a, da], [b, db]] = [order[i - 1], order[i]];
    if (before(b, a) < 0) {
      return [`out of the text's reading order: ${describeActual(db)} (text at ${b}) after ${describeActual(da)} (text at ${a})`];
    }
  }
  return [];
}

function runCheck(c, values) {
  return judgeCheck(c, resultOf(c, values), !values);
}

async function runCheckMany(c, values) {
  const [sandbox, { defaults, overrides, ...context }] = checkInputs(c, values);
  const [result] = await new Checker(context).checkMany([{ sandbox, defaults, overrides }]);
  const failures = judgeCheck(c, result, false);
  return failures.length ? failures : readingOrderFailures(resultOf(c), result);
}

function judgeCheck(c, result, positions) {
  const s = c.spec;
  const failures = compareDiagnostics(c, result, positions);
  const expect = s.expect;
  const expectText = (key, actual) => {
    if (typeof expect[key] === 'string' && expect[key] !== actual) failures.push(`${key} is "${actual}", expected "${expect[key]}"`);
  };
  expectText('placement_mode', result.placement_mode ?? '');
  expectText('qos_class', result.qos_class ?? '');
  expectText('runtime_class', result.runtime_class ? result.runtime_class.value : '');
  expectText('runtime_class_from', result.runtime_class ? result.runtime_class.from : '');
  expectText('runner', result.runner ? result.runner.id : '');
  // `provenance` and `rules_applied`: pointer → the note expected there (null: no note).
  for (const key of ['provenance', 'rules_applied']) {
    const wantNotes = expect[key];
    if (!wantNotes || typeof wantNotes !== 'object' || Array.isArray(wantNotes)) continue;
    const notes = result[key] ?? {};
    for (const [pointer, want] of Object.entries(wantNotes)) {
      const got = Object.prototype.hasOwnProperty.call(notes, pointer) ? notes[pointer] : null;
      if (got !== want) {
        const shown = (v) => (v === null ? 'absent' : `"${v}"`);
        failures.push(`${key} ${pointer} is ${shown(got)}, expected ${shown(want)}`);
      }
    }
  }
  if (expect.resolved && typeof expect.resolved === 'object' && !Array.isArray(expect.resolved)) {
    for (const [pointer, want] of Object.entries(expect.resolved)) {
      const actual = resolvePointer(result.resolved ?? {}, pointer);
      const ok = want === null ? actual === undefined : actual !== undefined && same(actual, want);
      if (!ok) failures.push(`resolved ${pointer} is ${show(actual)}, expected ${show(want === null ? undefined : want)}`);
    }
  }
  return failures;
}

function runCase(c, values) {
  if (c.kind === 'policy') {
    if (typeof c.spec.policy !== 'string') return ['policy cases need `policy` text'];
    return compareDiagnostics(c, resultOf(c, values), !values);
  }
  return runCheck(c, values);
}

// diff/ holds policy diff cases (SPEC §10.3): conformance-diff.test.mjs runs them through diffPolicies.
const files = yamlFiles(root).filter((f) => !relative(root, f).split(sep).join('/').startsWith('diff/'));
let count = 0;
// checkMany hands a batch of plain items over as one text; count the batches that went that way.
let manyCases = 0;
let textBatches = 0;
const checkTexts = native.checkTexts;
native.checkTexts = (...args) => {
  textBatches++;
  return checkTexts(...args);
};
after(() => {
  native.checkTexts = checkTexts;
  assert.ok(manyCases > 500, `only ${manyCases} check cases ran through checkMany`);
  // A few items go the other way (a value JSON cannot carry, e.g. a BigInt past 2^53).
  assert.ok(textBatches > manyCases * 0.9, `${textBatches} of ${manyCases} checkMany calls went as one text`);
});
for (const path of files) {
  const cases = loadCases(path);
  count += cases.length;
  describe(relative(root, path), () => {
    for (const c of cases) {
      test(c.name, () => {
        const failures = runCase(c);
        assert.deepEqual(failures, [], `${c.rel} :: ${c.name}\n${failures.join('\n')}`);
      });
      const values = asValues(c);
      test(`${c.name} (through JS values)`, { skip: typeof values === 'string' ? `from text only: ${values}` : false }, () => {
        const failures = runCase(c, values);
        if (!failures.length) failures.push(...readingOrderFailures(resultOf(c), resultOf(c, values)));
        assert.deepEqual(failures, [], `${c.rel} :: ${c.name} (through JS values)\n${failures.join('\n')}`);
      });
      if (c.kind !== 'check' || typeof values === 'string') continue;
      manyCases++;
      test(`${c.name} (through JS values, checkMany)`, async () => {
        const failures = await runCheckMany(c, values);
        assert.deepEqual(failures, [], `${c.rel} :: ${c.name} (through JS values, checkMany)\n${failures.join('\n')}`);
      });
    }
  });
}

test('every case listed as text-only exists', () => {
  const names = new Set(files.flatMap((f) => loadCases(f).map((c) => `${c.rel} :: ${c.name}`)));
  for (const name of TEXT_ONLY_CASES.keys()) assert.ok(names.has(name), `TEXT_ONLY_CASES names no case: ${name}`);
});

test('the conformance directory holds cases for both kinds', () => {
  assert.ok(files.some((f) => relative(root, f).startsWith('check')), 'no check cases');
  assert.ok(files.some((f) => relative(root, f).startsWith('policy')), 'no policy cases');
  assert.ok(count > 0);
});
