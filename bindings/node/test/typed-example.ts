// Uses the whole API with its types; `tsc --noEmit -p test` must accept it (scripts/test-node.sh).
// It is type-checked, not run: the behaviour is tested by the *.test.mjs files.
import {
  check,
  checkMany,
  diffPolicies,
  Checker,
  codes,
  compareQuantities,
  CWSandboxError,
  CWSandboxUnavailableError,
  CWSandboxValidationError,
  errorFor,
  exceptionAncestors,
  exceptionFor,
  grpcCodes,
  isSpillEligible,
  knownReasons,
  normalizeResources,
  parseQuantity,
  Policy,
  QuantityError,
  throwIfErrors,
  validatePolicy,
  version,
} from 'sandgate';
import type {
  CheckItem,
  CheckResult,
  CodeInfo,
  Diagnostic,
  DiagnosticCode,
  ExceptionClasses,
  JsExceptionName,
  NormalizedResources,
  PolicyDiff,
  Quantity,
  RecordDiff,
  SandboxRunOptions,
  ValidationResult,
} from 'sandgate';

const v: string = version;

// Policies: three ways in, always a Policy back.
const fromFile: Policy = Policy.load('examples/policies/production-cks.yaml');
const fromObject = Policy.fromObject({ constraints: { resources: { maxCpu: '8' } } });
const fromText = Policy.fromText('display_name: x\n', { file: 'x.yaml', format: 'yaml' });
const valid: boolean = fromFile.ok && !fromObject.broken && !fromText.isNull;
const firstError: Diagnostic | undefined = fromText.errors[0];
const doc = fromFile.document;
const displayName = doc ? doc['display_name'] : null;
fromFile.raiseForErrors().warnings.forEach((d) => d.code);
const againstIt: CheckResult = fromFile.check({ containerImage: 'python:3.11' }, { client: 'python' });

// A request in the TypeScript SDK's spelling, and one in the Python SDK's.
const request: SandboxRunOptions = {
  containerImage: 'python:3.11',
  resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '4Gi' } },
  annotations: { team: 'ml' },
  tags: ['training'],
  maxLifetimeSeconds: 3600,
  placementMode: 'cks',
  runnerIds: ['prod-us-east-1'],
};
const result: CheckResult = check(request, {
  policy: fromFile,
  runners: { runners: [{ runner_id: 'prod-us-east-1', mode: 'cks' }] },
  org: { gpu_allowed: false },
  defaults: { container_image: 'python:3.12' },
  overrides: 'max_lifetime_seconds: 600\n',
  client: 'typescript',
  placement: 'cks',
});
const pyResult = check({ container_image: 'x', resources: { cpu: '1', memory: '1Gi', gpu: 1 } }, { client: 'python' });
const textResult = check('container_image: x\n', { policy: 'constraints: {}' });
// Runners as the bare list of their entries.
const bareRunners: CheckResult = check(request, { runners: [{ runner_id: 'prod-us-east-1', mode: 'cks' }] });

// errors and warnings, as Python's Result and a Policy have them.
const firstResultError: Diagnostic | undefined = result.errors[0];
const warningCount: number = result.warnings.length;
void [firstResultError, warningCount];

if (!result.ok) {
  for (const d of result.diagnostics) {
    const code: DiagnosticCode = d.code;
    const where: string = `${d.input ?? '?'}${d.path} ${d.source ? `${d.source.line}:${d.source.column}` : ''}`;
    const cls: JsExceptionName | null = d.js_exception;
    const hint: string | null = d.hint;
    void [code, where, cls, hint];
    // Every input a diagnostic can name, checkMany's 'requests' (a string item's record) too.
    switch (d.input) {
      case 'policy': case 'sandbox': case 'defaults': case 'overrides': case 'runners': case 'org': case null: break;
      case 'requests': break;
      default: { const never: never = d.input; void never; }
    }
  }
}
const qos = result.qos_class === 'Burstable';
const mode: 'serverless' | 'cks' | undefined = result.placement_mode;
const runner: string | undefined = result.runner?.id;
const image = result.resolved?.['container_image'];
const from: string | undefined = result.provenance?.['/container_image'];
const gpus: number | undefined = result.gpu?.count;
const runtimeClass: string | undefined = result.runtime_class?.value;
const cpus = result.slurm?.CPUsPerTask;

// Errors: SDK-named classes.
try {
  result.raiseForErrors();
  throwIfErrors(pyResult);
} catch (e) {
  if (e instanceof CWSandboxValidationError) {
    const c: string = e.code;
    const diags: Diagnostic[] = e.diagnostics;
    void [c, diags];
  } else if (e instanceof CWSandboxUnavailableError) {
    const reason = e.reason;
    const status = e.grpcCode;
    void [reason, status];
  }
}
const maybe: CWSandboxError | null = errorFor(textResult);
const custom = new CWSandboxValidationError('bad', { reason: null, diagnostics: [] });

// A checker for many requests, synchronously or on a worker thread.
const checker = new Checker({ policy: fromFile, client: 'python' });
const one: CheckResult = checker.check(request, { defaults: null });
const items: Array<SandboxRunOptions | CheckItem> = [request, { sandbox: request, client: 'typescript', overrides: { tags: [] } }];
async function batch(): Promise<number> {
  const many: CheckResult[] = await checker.checkMany(items);
  const more: CheckResult[] = await checkMany([request, 'container_image: y\n'], { policy: fromObject });
  return many.length + more.length;
}

// A policy diff replayed over today's requests.
async function diff(): Promise<string> {
  const d: PolicyDiff = await diffPolicies(fromFile, 'constraints: {resources: {max_cpu: "4"}}', [request, '{"sandbox": {}}'], { jobs: 2 });
  const causes: string[] = d.records.flatMap((r: RecordDiff) => (r.caused_by ?? []).map((c) => d.static_changes[c.change].field));
  const rejected: number = d.counts.newly_rejected;
  return `${d.ok} ${rejected} ${causes.join(',')} ${d.toMarkdown()}`;
}
void diff;

// Policy validation, N-RES, quantities.
const validation: ValidationResult = validatePolicy({ base: { spec: {} } });
const validation2: ValidationResult = validatePolicy(fromText);
const normalized: NormalizedResources = normalizeResources({ cpu: '1', memory: '1Gi' }, { client: 'python' });
const q: Quantity = parseQuantity('1.5Gi');
const milli: bigint | null = q.milli;
const k8s = parseQuantity('1E3', 'kubernetes').canonical;
const order: -1 | 0 | 1 = compareQuantities('1Gi', '1000Mi');
try {
  parseQuantity('abc');
} catch (e) {
  if (e instanceof QuantityError) {
    const kind: 'format' | 'empty' | string = e.kind;
    void kind;
  }
}

// The error mapping and the tables.
const classes: ExceptionClasses = exceptionFor('UNAVAILABLE', 'CWSANDBOX_RUNNER_UNAVAILABLE', 'cwsandbox.com', true);
const unknownReason = exceptionFor('INTERNAL', 'SOMETHING_NEW');
const spill: boolean = isSpillEligible('RESOURCE_EXHAUSTED', 'CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED');
const chain: string[] = exceptionAncestors('SandboxValidationError', 'python');
const table: ReadonlyArray<Readonly<CodeInfo>> = codes();
const reasons = knownReasons();
const statuses = grpcCodes();

export {
  v, valid, firstError, displayName, textResult, bareRunners, qos, mode, runner, image, from, gpus, runtimeClass, cpus, maybe, custom,
  one, batch, validation, validation2, normalized, milli, k8s, order, classes, unknownReason, spill, chain, table,
  reasons, statuses,
};
