// Wrong uses of the API that the declarations must reject. Each line below has to be a compile
// error: if one compiled, tsc would report the @ts-expect-error above it as unused and fail.
import { check, Checker, codes, parseQuantity, Policy, validatePolicy, CWSandboxValidationError } from 'sandgate';
import type { DiagnosticCode } from 'sandgate';

// @ts-expect-error: no such client
check({}, { client: 'java' });
// @ts-expect-error: a misspelt option
check({}, { polciy: {} });
// @ts-expect-error: placement is a mode, not a boolean
check({}, { placement: true });
// @ts-expect-error: a sandbox is an object or text, not a number
check(42);
// @ts-expect-error: Policy has no public constructor
new Policy();
// @ts-expect-error: a Policy's check takes no other policy
Policy.fromText('{}').check({}, { policy: {} });
// @ts-expect-error: fromText wants text
Policy.fromText({ display_name: 'x' });
// @ts-expect-error: ok is a boolean
const s: string = check({}).ok;
// @ts-expect-error: results use the SPEC's snake_case names
check({}).placementMode;
// @ts-expect-error: not a diagnostic code
const code: DiagnosticCode = 'SG_NO_SUCH_CODE';
// @ts-expect-error: quantities are strings
parseQuantity(1.5);
// @ts-expect-error: only the sdk and kubernetes grammars exist
parseQuantity('1', 'k8s');
// @ts-expect-error: the codes table is read-only
codes().push(codes()[0]);
// @ts-expect-error: checkMany resolves to results, not one result
const one: { ok: boolean } = new Checker().checkMany([]);
// @ts-expect-error: validatePolicy takes one document
validatePolicy('a', 'b');
// @ts-expect-error: diagnostics are typed
new CWSandboxValidationError('x').diagnostics[0].severity = 'fatal';

export { s, code, one };
