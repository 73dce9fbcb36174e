// A lone UTF-16 surrogate is not Unicode text (SPEC §1.2): SG_INVALID_UTF8 whether the string is a
// JS value or YAML/JSON text, in every entry point that takes text, with the character's line and
// column when it is text. (V8's UTF-8 writes U+FFFD for it: text read as if it held U+FFFD.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, checkMany, Checker, diffPolicies, Policy, validatePolicy } from 'sandgate';

const invalid = (d, line, column, unit = 'U+D800') => {
  assert.equal(d?.code, 'SG_INVALID_UTF8', JSON.stringify(d));
  assert.deepEqual({ line: d.source.line, column: d.source.column }, { line, column });
  assert.equal(d.message, `the text holds an unpaired UTF-16 surrogate (${unit}), which is not Unicode text`);
  if ('hint' in d) assert.equal(d.hint, 'the server receives U+FFFD in its place; fix the string'); // the diff's errors have none
};
const first = (r) => r.diagnostics.find((d) => d.severity === 'error');

test('a sandbox, a layer, a policy, runners and org given as text', async () => {
  // The value already was SG_INVALID_UTF8; the same string as text is too.
  assert.equal(first(check({ container_image: 'a\uD800' })).code, 'SG_INVALID_UTF8');
  invalid(first(check('container_image: "a\uD800"')), 1, 20);
  invalid(first(check('display_name: x\ncontainer_image: "ab\uDC00"\n')), 2, 21, 'U+DC00');
  invalid(first(check('{"container_image": "a\uD800"}')), 1, 23);
  invalid(first(check({}, { defaults: 'container_image: "\uDBFF"' })), 1, 19, 'U+DBFF');
  invalid(first(new Checker().check({}, { overrides: 'container_image: "\uD800"' })), 1, 19);
  invalid(first(check({}, { policy: 'display_name: "a\uD800"' })), 1, 17);
  invalid(first(check({}, { runners: 'runners: []\n# \uD800' })), 2, 3);
  invalid(first(check({}, { org: '# \uD800\n{}' })), 1, 3);
  invalid(validatePolicy('display_name: "a\uD800"').diagnostics[0], 1, 17);
  invalid(Policy.fromText('display_name: "a\uDC00"').diagnostics[0], 1, 17, 'U+DC00');
  assert.equal(Policy.fromText('display_name: "a\uDC00"').document, null);
  invalid(first((await checkMany(['{}'], { defaults: 'container_image: "\uD800"' }))[0]), 1, 19);
  invalid(first((await checkMany([{ sandbox: 'container_image: "a\uD800"' }]))[0]), 1, 20);
  // A pair is one character; U+FFFD itself is text like any other.
  assert.equal(check('container_image: "a\uD83D\uDE00\uFFFD"').resolved.container_image, 'a\u{1F600}\uFFFD');
  assert.equal(validatePolicy('display_name: "\uFFFD\uD83D\uDE00"').ok, true);
});

test('checkMany string items and diffPolicies records and policies', async () => {
  const [line] = await checkMany(['{"container_image": "a\uD800"}']);
  invalid(first(line), 1, 23);
  const broken = await diffPolicies('display_name: "\uD800"', {}, []);
  invalid(broken.old_errors[0], 1, 16);
  const d = await diffPolicies({}, {}, [{}, '{"container_image": "a\uDC01"}']);
  assert.equal(d.records.length, 1, JSON.stringify(d.records));
  invalid(d.records[0].errors[0], 2, 23, 'U+DC01'); // an array's record: its position is its line
  assert.equal(d.records[0].record, 2);
  const s = await diffPolicies({}, {}, '{}\n{"container_image": "a\uD800"}\n');
  assert.deepEqual(s.records.map((r) => [r.record, r.class, r.errors[0].code]), [[2, 'unreadable', 'SG_INVALID_UTF8']]);
  assert.deepEqual(s.records[0].errors[0].source, { file: '<records>', line: 2, column: 23 });
  assert.equal(s.records[0].errors[0].message, 'the text holds an unpaired UTF-16 surrogate, which is not Unicode text');
});
