'use strict';
// The TypeScript SDK's error classes, made at load time from the engine's table
// (js_exception_classes() in core/include/sandgate/errors.h), so the names and the hierarchy are
// the SDK's: `catch (e) { if (e instanceof CWSandboxValidationError) … }` reads as it would there.
const native = require('./native');

// The SDK's `code` string of each class (cwsandbox-js errors.ts; reference/sdk-behaviour.md §2.1).
// The engine's table does not carry these yet; a class not listed inherits its parent's.
const SDK_CODES = {
  CWSandboxError: 'sandbox_error',
  CWSandboxConfigurationError: 'configuration_error',
  CWSandboxValidationError: 'validation_error',
  CWSandboxNotImplementedError: 'not_implemented',
  CWSandboxExecutionError: 'execution_error',
  CWSandboxFailedError: 'sandbox_failed',
  CWSandboxTerminatedError: 'sandbox_terminated',
  CWSandboxTransportError: 'transport_error',
  CWSandboxAuthenticationError: 'authentication_error',
  CWSandboxNotFoundError: 'not_found',
  CWSandboxTerminalStateUnavailableError: 'terminal_state_unavailable',
  CWSandboxTimeoutError: 'timeout_error',
  CWSandboxUnavailableError: 'unavailable',
  CWSandboxResourceExhaustedError: 'resource_exhausted',
};

const classes = Object.create(null);

function define(name, Parent) {
  // A computed key gives the class its own name (for stack traces and `e.constructor.name`).
  const C = {
    [name]: class extends Parent {
      /**
       * @param {string} message
       * @param {{code?: string, reason?: string|null, grpcCode?: string|null, diagnostics?: object[], cause?: unknown}} [options]
       */
      constructor(message, options = {}) {
        super(message, options.cause === undefined ? undefined : { cause: options.cause });
        this.code = options.code ?? new.target.sdkCode;
        this.reason = options.reason ?? null;
        this.grpcCode = options.grpcCode ?? null;
        this.diagnostics = options.diagnostics ?? [];
      }
    },
  }[name];
  Object.defineProperty(C.prototype, 'name', { value: name, writable: true, configurable: true });
  C.sdkCode = SDK_CODES[name] ?? Parent.sdkCode;
  return C;
}

for (const { name, bases } of native.jsExceptionClasses()) {
  if (name === 'Error') continue; // JavaScript's own
  const parent = bases[0] === 'Error' || bases.length === 0 ? Error : classes[bases[0]];
  if (!parent) throw new Error(`sandgate: the class table lists ${name} before its base ${bases[0]}`);
  classes[name] = define(name, parent);
}

/** The error a result's errors amount to, or null when it has none. */
function errorFor(result) {
  const errors = (result.diagnostics || []).filter((d) => d.severity === 'error');
  if (errors.length === 0) return null;
  // The first error that names a class decides it; a python-only rule names none in JS.
  const lead = errors.find((d) => d.js_exception && classes[d.js_exception]) ?? errors[0];
  const C = classes[lead.js_exception] ?? classes.CWSandboxError;
  const where = `${lead.input || 'input'} ${lead.path || '/'}`;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''})` : '';
  return new C(`${lead.code} at ${where}: ${lead.message}${more}`, {
    reason: lead.reason,
    grpcCode: lead.grpc_code,
    diagnostics: errors,
  });
}

/** Throws the SDK-named error for a result's errors; returns the result when it has none. */
function throwIfErrors(result) {
  const e = errorFor(result);
  if (e) throw e;
  return result;
}

/** A quantity that does not parse (SPEC §2); `kind` says why. */
class QuantityError extends Error {
  constructor(message, kind) {
    super(message);
    this.kind = kind;
  }
}
Object.defineProperty(QuantityError.prototype, 'name', { value: 'QuantityError', writable: true, configurable: true });

module.exports = { classes, errorFor, throwIfErrors, QuantityError };
