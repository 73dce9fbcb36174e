// The SDK-named error classes: made from the engine's table, thrown by raiseForErrors().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as sandgate from 'sandgate';

const { check, codes, errorFor, exceptionAncestors, throwIfErrors } = sandgate;
const tableClasses = () => [...new Set(codes().map((c) => c.js_exception).filter(Boolean))];

test('every JS class the codes table names is exported, with the SDK hierarchy', () => {
  for (const name of tableClasses()) {
    const C = sandgate[name];
    assert.equal(typeof C, 'function', `${name} is not exported`);
    assert.equal(C.name, name);
    const chain = [];
    for (let p = C; p && p !== Function.prototype; p = Object.getPrototypeOf(p)) chain.push(p.name);
    assert.deepEqual(chain, exceptionAncestors(name), `${name}'s prototype chain is not the SDK's`);
  }
});

test('the classes carry the SDK code strings', () => {
  const cases = {
    CWSandboxValidationError: 'validation_error',
    CWSandboxUnavailableError: 'unavailable',
    CWSandboxResourceExhaustedError: 'resource_exhausted',
    CWSandboxTransportError: 'transport_error',
    CWSandboxFileError: 'transport_error',
    CWSandboxNotFoundError: 'not_found',
    CWSandboxAuthenticationError: 'authentication_error',
  };
  for (const [name, code] of Object.entries(cases)) {
    const e = new sandgate[name]('x');
    assert.equal(e.code, code, name);
    assert.equal(e.name, name);
    assert.equal(e.reason, null);
    assert.deepEqual(e.diagnostics, []);
    assert.ok(e instanceof sandgate.CWSandboxError && e instanceof Error);
    assert.match(String(e), new RegExp(`^${name}: x$`));
  }
  const withCause = new sandgate.CWSandboxError('y', { code: 'custom', cause: 'why' });
  assert.equal(withCause.code, 'custom');
  assert.equal(withCause.cause, 'why');
});

test('raiseForErrors throws the class of the first error, with code, reason and diagnostics', () => {
  const policy = 'constraints: {resources: {max_cpu: "1"}}\n';
  const r = check({ placement_mode: 'cks', resources: { cpu: '2', memory: '1Gi' } }, { policy });
  assert.equal(r.ok, false);
  const lead = r.diagnostics.find((d) => d.severity === 'error');
  assert.equal(lead.code, 'SG_RESOURCE_ABOVE_MAX');
  assert.throws(() => r.raiseForErrors(), (e) => {
    assert.ok(e instanceof sandgate.CWSandboxTransportError, e.name);
    assert.equal(e.name, lead.js_exception);
    assert.equal(e.code, 'transport_error');
    assert.equal(e.reason, 'CWSANDBOX_RESOURCE_CEILING_EXCEEDED');
    assert.equal(e.grpcCode, 'INVALID_ARGUMENT');
    assert.deepEqual(e.diagnostics, r.diagnostics.filter((d) => d.severity === 'error'));
    assert.match(e.message, /^SG_RESOURCE_ABOVE_MAX at sandbox \/resources/);
    return true;
  });
});

test('client-side rules raise CWSandboxValidationError', () => {
  const r = check({ resources: { cpu: '1', memory: '1Gi' }, tags: ['ok', 'ok'] });
  assert.throws(() => throwIfErrors(r), sandgate.CWSandboxValidationError);
  assert.throws(() => r.raiseForErrors(), { code: 'validation_error' });
});

test('a result without errors is returned, warnings or not', () => {
  const r = check({ resources: { cpu: '1', memory: '1Gi' }, tags: ['ok', 'ok'] }, { client: 'python' });
  assert.equal(r.ok, true);
  assert.ok(r.diagnostics.some((d) => d.severity === 'warning'));
  assert.equal(r.raiseForErrors(), r);
  assert.equal(throwIfErrors(r), r);
  assert.equal(errorFor(r), null);
});

test('an error that names no JS class falls back to CWSandboxError', () => {
  const e = errorFor({ diagnostics: [{ severity: 'error', code: 'SG_X', js_exception: null, reason: null, grpc_code: null, input: 'sandbox', path: '', message: 'm' }] });
  assert.equal(e.constructor, sandgate.CWSandboxError);
  assert.equal(e.code, 'sandbox_error');
});
