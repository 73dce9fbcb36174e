// Every public function that takes an options object: an unknown or misspelt key, or options that
// are not an object, throw a TypeError naming the key and what is accepted (docs/node.md,
// "Errors"); null and undefined are no options.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, checkMany, Checker, diffPolicies, normalizeResources, Policy } from 'sandgate';

const unknown = (what, key, known) => (e) => e instanceof TypeError &&
  e.message.startsWith(`${what} options: unknown option "${key}" (known: ${known})`);

test('Checker.check and Checker.checkMany: unknown options throw, naming the known ones', async () => {
  const c = new Checker({ policy: {} });
  assert.throws(() => c.check({}, { defualts: { max_lifetime_seconds: 5 } }), unknown('Checker.check', 'defualts', 'defaults, overrides'));
  // An option of the Checker says where it goes: it was checked against the other SDK's rules.
  assert.throws(() => c.check({ resources: { gpu: 1, cpu: '1', memory: '1Gi' } }, { client: 'python' }),
    (e) => unknown('Checker.check', 'client', 'defaults, overrides')(e) && e.message.endsWith("client is the Checker's: new Checker({ client }), or check(sandbox, { client })"));
  assert.throws(() => c.check({}, { policy: {} }), unknown('Checker.check', 'policy', 'defaults, overrides'));
  assert.throws(() => c.check({}, 'max_lifetime_seconds: 5'), { name: 'TypeError', message: 'Checker.check options must be an object with defaults, overrides, not a string' });
  assert.throws(() => c.check({}, []), /Checker.check options must be an object with defaults, overrides, not an array/);
  await assert.rejects(c.checkMany([{}], { defualts: {} }), unknown('Checker.checkMany', 'defualts', 'defaults, overrides'));
  await assert.rejects(c.checkMany([{}], { org: {} }), unknown('Checker.checkMany', 'org', 'defaults, overrides'));
  // null is no options, as for check().
  assert.equal(c.check({}, null).resolved.max_lifetime_seconds, c.check({}).resolved.max_lifetime_seconds);
  assert.equal(c.check({}, { defaults: { max_lifetime_seconds: 5 } }).resolved.max_lifetime_seconds, 5);
  assert.equal((await c.checkMany([{}], null))[0].ok, true);
  assert.equal((await c.checkMany([{}], { overrides: { max_lifetime_seconds: 7 } }))[0].resolved.max_lifetime_seconds, 7);
});

test('normalizeResources and Policy.fromText: unknown options throw; null is none', () => {
  assert.throws(() => normalizeResources({ cpu: '1' }, { clinet: 'python' }), unknown('normalizeResources', 'clinet', 'client'));
  assert.throws(() => normalizeResources({ cpu: '1' }, 'python'), /normalizeResources options must be an object with client, not a string/);
  assert.equal(normalizeResources({ cpu: '1' }, null).ok, true);
  assert.throws(() => Policy.fromText('a: 1', { fiel: 'x.yaml' }), unknown('Policy.fromText', 'fiel', 'file, format'));
  assert.equal(Policy.fromText('{}', null).ok, true);
  assert.equal(Policy.fromText('constraints: 1', { file: 'x.yaml' }).diagnostics[0].source.file, 'x.yaml');
});

test('check, checkMany and diffPolicies: null options are none; the wrong kind names what is accepted', async () => {
  assert.equal(check({}, null).ok, true);
  assert.equal((await checkMany([{}], null))[0].ok, true);
  assert.equal((await diffPolicies({}, {}, [{}], null)).ok, true);
  assert.throws(() => check({}, 5), /check options must be an object with policy, runners, org, client, placement, defaults, overrides, not a number/);
  await assert.rejects(diffPolicies({}, {}, [], 'fast'), /diffPolicies options must be an object with runners, org, client, placement, examples, jobs, not a string/);
  await assert.rejects(diffPolicies({}, {}, [], { job: 2 }), unknown('diffPolicies', 'job', 'runners, org, client, placement, examples, jobs'));
});

test('a value is described with its article ("an Object", not "a Object")', () => {
  assert.throws(() => Policy.load({}), /not an Object;/);
  assert.throws(() => Policy.load(5), /not a number;/);
});

test('a client or placement that is an accepted one but for case is told the one meant, as the CLI tells it', async () => {
  assert.throws(() => check({}, { placement: 'CKS' }), { name: 'TypeError', message: 'check options: placement must be "serverless" or "cks", not "CKS"; did you mean "cks"?' });
  assert.throws(() => new Checker({ client: ' Python' }), /client must be "python" or "typescript", not " Python"; did you mean "python"\?$/);
  assert.throws(() => check({}, { placement: 'edge' }), (e) => e.message.endsWith('not "edge"'));
  await assert.rejects(checkMany([{}], { client: 'TypeScript' }), /did you mean "typescript"\?$/);
});
