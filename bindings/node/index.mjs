// ESM entry: the CommonJS module's API as named exports (and as the default export).
import sandgate from './index.js';

export const {
  version,
  Policy,
  Checker,
  check,
  checkMany,
  diffPolicies,
  validatePolicy,
  normalizeResources,
  parseQuantity,
  compareQuantities,
  QuantityError,
  exceptionFor,
  isSpillEligible,
  exceptionAncestors,
  knownReasons,
  grpcCodes,
  codes,
  throwIfErrors,
  errorFor,
} = sandgate;
// The SDK-named error classes, generated from the engine's table.
export * from './lib/errors.mjs';
export default sandgate;
