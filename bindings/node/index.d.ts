// Type declarations of the sandgate Node package, written by hand; the code unions and the error
// classes are generated into codes.d.ts from the engine's one table.
//
// Convention: inputs may be spelled as the TypeScript SDK spells them (camelCase) or as the Python
// SDK does (snake_case); results use the field names of the CLI's JSON output (snake_case, SPEC §3
// and §7), the same in every language.
import type { DiagnosticCode, GrpcCode, JsExceptionName, Reason, RuleId } from './codes';

export * from './codes';

// ---- values -------------------------------------------------------------------------------------

/** Any JSON value; integers beyond 2^53 come back as bigint, exactly. */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * A document as a whole input (docs/node.md, "Input kinds"): a string is a file path when it has
 * no line break and ends in .yaml/.yml/.json (any case) or names an existing file, else YAML or
 * JSON text; a `file:` URL is a path; bytes (a Buffer) are text.
 */
export type Text = string | Uint8Array | FileUrl;

/** A WHATWG `URL` (Node's global); only a `file:` URL is accepted, as a path. */
export interface FileUrl {
  readonly href: string;
  readonly protocol: string;
  readonly pathname: string;
}

export type Client = 'python' | 'typescript';
export type PlacementMode = 'serverless' | 'cks';
export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';
export type Severity = 'error' | 'warning' | 'info';
export type InputName = 'policy' | 'sandbox' | 'defaults' | 'overrides' | 'runners' | 'org';
export type Side = 'server' | 'python' | 'typescript' | 'python_server' | 'typescript_server' | 'runtime' | 'input' | 'lint';

// ---- inputs -------------------------------------------------------------------------------------

export interface ResourceValues {
  cpu?: string;
  memory?: string;
}
export interface GpuRequest {
  count?: number;
  type?: string;
  memory_gb?: number;
  memoryGb?: number;
}
/** The nested form ({requests, limits, gpu}) or the flat one ({cpu, memory, gpu}). */
export interface Resources extends ResourceValues {
  requests?: ResourceValues;
  limits?: ResourceValues;
  gpu?: GpuRequest | number;
}

/**
 * The TypeScript SDK's `SandboxRunOptions` (camelCase), the fields sandgate reads most; any other
 * key is checked too (an unknown one is a diagnostic, not a compile error: checking specs you do
 * not control is what sandgate is for).
 */
export interface SandboxRunOptions {
  containerImage?: string;
  command?: string;
  args?: string[];
  resources?: Resources;
  annotations?: Record<string, string>;
  environmentVariables?: Record<string, string>;
  tags?: string[];
  maxLifetimeSeconds?: number;
  timeoutMs?: number;
  placementMode?: PlacementMode;
  runnerIds?: string[];
  runtimeClass?: string;
  mountedFiles?: Array<{ path: string; content: string | Uint8Array }> | Record<string, string | Uint8Array>;
  volumes?: Array<{ name: string; mountPath: string; size?: string; medium?: string }>;
  services?: Array<{ port: number; name?: string; protocol?: string; visibility?: string }>;
  network?: { denyEgress?: boolean; denyIngress?: boolean; egress?: Array<{ dnsName?: string }> };
  [key: string]: unknown;
}

/** The Python SDK's `Sandbox.run()` keyword arguments (snake_case). */
export interface SandboxKwargs {
  container_image?: string;
  command?: string;
  args?: string[];
  resources?: Resources;
  annotations?: Record<string, string>;
  environment_variables?: Record<string, string>;
  tags?: string[];
  max_lifetime_seconds?: number;
  max_timeout_seconds?: number;
  placement_mode?: PlacementMode;
  runner_ids?: string[];
  runtime_class?: string;
  [key: string]: unknown;
}

/** A request layer: an object in either spelling, or YAML/JSON text. */
export type SandboxInput = SandboxRunOptions | SandboxKwargs | Text;

/** A runner policy (proto snake_case or REST camelCase), or a runner document {policy, etag, …}. */
export type PolicyInput = Record<string, unknown> | null | Text;

export interface RunnerSpec {
  runner_id: string;
  mode: PlacementMode;
  gpu_types?: Array<{ type: string; memory_gb: number }>;
  max_gpu_count?: number;
  runtime_classes?: { cpu?: string; gpu?: string };
  sunk?: { scheduler_name?: string; kill_wait_seconds?: number };
  policy?: Record<string, unknown> | null;
  [key: string]: unknown;
}
/** The runner inventory (SPEC §1.4), or the bare list of its runner entries. */
export type RunnersInput = { runners: RunnerSpec[]; [key: string]: unknown } | RunnerSpec[] | Record<string, unknown> | Text;

/** The organisation's entitlements (SPEC §1). */
export type OrgInput =
  | { gpu_allowed?: boolean; max_gpus_per_sandbox?: number; serverless_allowed?: boolean; [key: string]: unknown }
  | Text;

/** What a checker binds: the policy, inventory and org, and which SDK sends the request. */
export interface CheckerOptions {
  /** A compiled Policy, or one to compile for this call. Absent or null: no policy. */
  policy?: Policy | PolicyInput;
  runners?: RunnersInput | null;
  org?: OrgInput | null;
  /** Which SDK's client-side rules are errors (SPEC §1.3); default "typescript". */
  client?: Client;
  /** Overrides the request's placement mode. */
  placement?: PlacementMode | '';
}

/** The layers around the sandbox (SPEC §5.1): SandboxDefaults beneath, function overrides above. */
export interface LayerOptions {
  defaults?: SandboxInput | null;
  overrides?: SandboxInput | null;
}

export interface CheckOptions extends CheckerOptions, LayerOptions {}

/** One item of checkMany when it needs its own layers or options. */
export interface CheckItem extends CheckOptions {
  sandbox: SandboxInput;
}

// ---- results ------------------------------------------------------------------------------------

// generated by scripts/gen_result_shape.py from core/include/sandgate/result_shape.def; do not edit
/** A position in a text input. */
export interface SourceLocation {
  /** the file as given; for text passed directly, the input in angle brackets (`<sandbox>`, `<policy>`); the CLI names standard input `<stdin>` */
  file: string;
  /** 1-based line */
  line: number;
  /** 1-based column, in code points */
  column: number;
}

/** The other side of a problem (SPEC §3 `related`). */
export interface RelatedLocation {
  /** which input: policy, runners, org, sandbox, defaults, overrides */
  input: InputName;
  /** RFC 6901 JSON Pointer into that input */
  path: string;
  /** set when that input was text */
  source: SourceLocation | null;
  /** what is there, e.g. "the limit is set here" */
  message: string;
}

/** One problem or note (SPEC §3). */
export interface Diagnostic {
  /** the SPEC rule id, e.g. `R-GPU-3` */
  rule: RuleId;
  /** the stable code, e.g. `SG_GPU_TYPE_AND_MEMORY` */
  code: DiagnosticCode;
  /** `error`, `warning` or `info` */
  severity: Severity;
  /** the server's `CWSANDBOX_*` reason, when it has one */
  reason: Reason | null;
  /** what the server would answer; null for client-side problems */
  grpc_code: GrpcCode | null;
  /** the class the Python SDK would raise */
  python_exception: string | null;
  /** the class the TypeScript SDK would raise */
  js_exception: JsExceptionName | null;
  /** which input: sandbox, defaults, overrides, policy, runners, org; `requests` for a record of a request stream (a checkMany string item) that cannot be read */
  input: InputName | 'requests' | null;
  /** RFC 6901 JSON Pointer into that input */
  path: string;
  /** set when the input was text */
  source: SourceLocation | null;
  /** what is wrong, with the value seen */
  message: string;
  /** what would be accepted */
  hint: string | null;
  /** the other side of the problem: where the limit, the allowlist or the first occurrence is written */
  related: RelatedLocation[];
}

export interface ValidationResult {
  /** no diagnostic has severity `error` */
  ok: boolean;
  /** every problem, in reading order, each with the diagnostic fields */
  diagnostics: Diagnostic[];
  /** The diagnostics of severity `error` (non-enumerable; a new array on each read). */
  readonly errors: Diagnostic[];
  /** The diagnostics of severity `warning` (non-enumerable; a new array on each read). */
  readonly warnings: Diagnostic[];
  /** Throws the SDK-named error when there are errors (non-enumerable); returns the result. */
  raiseForErrors(): this;
}

/**
 * What `check` answers (SPEC §7). The fields after `ok` are absent when a layer could not be read
 * at all (then `diagnostics` says why).
 */
export interface CheckResult extends ValidationResult {
  /** `serverless` or `cks`, after N-PL */
  placement_mode?: PlacementMode;
  /** `Guaranteed`, `Burstable` or `BestEffort` (N-QOS) */
  qos_class?: QosClass;
  /** `{id, other_candidates}` of the primary candidate runner (SPEC §1.4), or null */
  runner?: { id: string; other_candidates: string[] } | null;
  /** the effective request in canonical snake_case, every default filled in */
  resolved?: { [field: string]: JsonValue };
  /** JSON Pointer into `resolved` → where the value came from (see below) */
  provenance?: Record<string, string>;
  /** JSON Pointer into `resolved` → the SPEC rule that decided the value (`N-PL`, `N-QOS`, `R-TIME-2`, …) */
  rules_applied?: Record<string, string>;
  /** `{count, type?, memory_gb?, eligible_types}` or null */
  gpu?: GpuResolution | null;
  /** `{value, from}`: `value` is the pinned or default class, or `<node-default>` */
  runtime_class?: RuntimeClassResolution | null;
  /** for a SUNK runner: `{scheduler, CPUsPerTask, MinMemoryNode, …job parameters}`, else null */
  slurm?: SlurmMapping | null;
}
// end of generated

export interface GpuResolution {
  count: number;
  type?: string;
  memory_gb?: number;
  eligible_types: string[];
}
export interface RuntimeClassResolution {
  value: string;
  from: string;
}
export interface SlurmMapping {
  scheduler: string;
  CPUsPerTask: number;
  MinMemoryNode: number;
  [parameter: string]: string | number;
}

export interface NormalizedResources extends ValidationResult {
  /** What the SDK would send, or null when the value could not be read. */
  resolved: { requests: ResourceValues | null; limits: ResourceValues | null; gpu: GpuRequest | null } | Record<string, never> | null;
  qos_class: QosClass | '';
}

// ---- API ----------------------------------------------------------------------------------------

export declare const version: string;

/** A runner policy, compiled once; always returned, valid or not. */
export declare class Policy {
  private constructor();
  /** Reads a policy file (YAML or JSON). I/O errors throw; bad content is diagnostics. */
  static load(path: string | FileUrl): Policy;
  static fromObject(value: unknown): Policy;
  static fromText(text: string | Uint8Array, options?: { file?: string; format?: 'auto' | 'yaml' | 'json' }): Policy;
  readonly ok: boolean;
  /** The text could not be read at all; checks against it return its errors. */
  readonly broken: boolean;
  /** An explicit null policy (P-15). */
  readonly isNull: boolean;
  readonly diagnostics: Diagnostic[];
  readonly errors: Diagnostic[];
  readonly warnings: Diagnostic[];
  /** The policy with canonical keys, or null when broken. */
  readonly document: { [field: string]: JsonValue } | null;
  raiseForErrors(): this;
  toJSON(): { ok: boolean; diagnostics: Diagnostic[] };
  /** `check(sandbox, { ...options, policy: this })`: the same result. */
  check(sandbox: SandboxInput, options?: Omit<CheckOptions, 'policy'>): CheckResult;
}

/** A policy, runners and org bound to a client, compiled once, for many checks. */
export declare class Checker {
  constructor(options?: CheckerOptions);
  readonly client: Client;
  check(sandbox: SandboxInput, layers?: LayerOptions): CheckResult;
  checkMany(items: ReadonlyArray<SandboxInput | CheckItem>, layers?: LayerOptions): Promise<CheckResult[]>;
}

/** What the server and the SDK would do with one request. */
export declare function check(sandbox: SandboxInput, options?: CheckOptions): CheckResult;
/**
 * Many requests, checked on a worker thread; one result per item, in order. A string item is one
 * JSON Lines record's text (a sandbox or `{id, sandbox, defaults, overrides}`, SPEC §10.1), never
 * a path or YAML text; give a sandbox's YAML text as `{sandbox: text}`.
 */
export declare function checkMany(items: ReadonlyArray<SandboxInput | CheckItem>, options?: CheckOptions): Promise<CheckResult[]>;
// ---- policy diff (SPEC §10.3) ---------------------------------------------------------------------

export type DiffClass = 'newly_rejected' | 'newly_accepted' | 'rejection_changed' | 'resolution_changed' | 'unchanged' | 'unreadable';

/** One difference between the two compiled policies. */
export interface StaticChange {
  /** "constraints.resources.max_cpu"; for a list item, the list's field. */
  field: string;
  /** JSON Pointer into the policy. */
  pointer: string;
  kind: 'changed' | 'added' | 'removed' | 'reordered';
  /** null when OLD lacks it. */
  old: unknown;
  /** null when NEW lacks it. */
  new: unknown;
  /** "file:line" in OLD (the nearest enclosing field when OLD lacks it). */
  old_source: string | null;
  new_source: string | null;
}

/** A diagnostic as the JSON Lines and diff outputs write it. */
export interface RecordError {
  rule: RuleId;
  code: DiagnosticCode;
  input: InputName | 'requests' | null;
  path: string;
  source: SourceLocation | null;
  message: string;
  /** what would be accepted, as the diagnostic's `hint`; on `old_errors` and `new_errors` Node adds to it when a policy given as a string was read as text whose document is a bare string (it was not taken for a path: docs/node.md, Input kinds) */
  hint: string | null;
  python_exception: string | null;
  js_exception: JsExceptionName | null;
}

/** A static change a newly rejected record is attributed to (an index into static_changes). */
export interface ChangeRef {
  change: number;
  field: string;
}

/** A record that is not unchanged. */
export interface RecordDiff {
  /** 1-based line of the record in a stream (its position in an array). */
  record: number;
  index: number;
  id?: string;
  class: DiffClass;
  /** NEW's errors (newly_rejected, rejection_changed); the problem of an unreadable record. */
  errors?: RecordError[];
  /** OLD's error codes (newly_accepted, rejection_changed). */
  old_codes?: DiagnosticCode[];
  /** resolution_changed: each changed value (a JSON Pointer, or qos_class, runtime_class, runner, placement_mode, slurm.<parameter>). */
  changes?: Array<{ pointer: string; old: unknown; new: unknown }>;
  caused_by?: ChangeRef[];
}

/** What `sandgate policy diff --format json` prints, with its text and Markdown renderings. */
export interface PolicyDiff {
  tool: 'sandgate';
  version: string;
  old: string;
  new: string;
  old_errors: RecordError[];
  new_errors: RecordError[];
  static_changes: StaticChange[];
  replayed: boolean;
  requests: string | null;
  /** Every record that is not unchanged, in input order. */
  records: RecordDiff[];
  /** Records per class; they add up to the number of records. */
  counts: Record<DiffClass, number>;
  newly_rejected_by_code: Array<{ code: DiagnosticCode; count: number; caused_by: ChangeRef[]; examples: number[] }>;
  resolution_changed_by_pointer: Array<{ pointer: string; count: number; examples: number[] }>;
  error: string | null;
  /** NEW is valid and no record is newly rejected. */
  ok: boolean;
  /** A summary fit for a pull-request comment. */
  toMarkdown(): string;
  toText(): string;
}

export interface DiffOptions {
  /** The same for both sides; runners or an org with errors are refused (the promise rejects). */
  runners?: RunnersInput | null;
  org?: OrgInput | null;
  client?: Client;
  placement?: PlacementMode | '';
  /** Example records kept per group in the summary (default 5). */
  examples?: number;
  /** Threads for the replay, 0 to 1024 as the CLI's --jobs; 0 (default) = every core. */
  jobs?: number;
}

/**
 * The diff of two policies (SPEC §10.3), replayed over `records` when given: an array of records
 * (sandboxes, `{id, sandbox, defaults, overrides}`, or JSON Lines lines as strings) or request stream
 * text (a string or bytes). Runs off the main thread.
 */
export declare function diffPolicies(
  oldPolicy: Policy | PolicyInput,
  newPolicy: Policy | PolicyInput,
  records?: ReadonlyArray<SandboxInput | CheckItem | string> | string | Uint8Array | FileUrl | null,
  options?: DiffOptions,
): Promise<PolicyDiff>;

/** Every problem of a policy at once (SPEC §4). */
export declare function validatePolicy(doc: Policy | PolicyInput): ValidationResult;
/** N-RES alone (SPEC §5.2). */
export declare function normalizeResources(resources: unknown, options?: { client?: Client }): NormalizedResources;

export type QuantityGrammar = 'sdk' | 'kubernetes';
export type QuantityErrorKind =
  | 'empty'
  | 'negative'
  | 'exponent_with_suffix'
  | 'format'
  | 'too_long'
  | 'exponent_too_large'
  | 'too_large';

/** An exact quantity (SPEC §2). */
export interface Quantity {
  /** As given. */
  readonly text: string;
  /** Exact, no exponent: "1.5Gi" → "1610612736". */
  readonly decimal: string;
  /** Kubernetes' canonical form: "1.5Gi" → "1536Mi". */
  readonly canonical: string;
  /** Milli-units rounded up, or null past 2^63 − 1. */
  readonly milli: bigint | null;
  /** White space was trimmed (the SDK grammar allows it; the server receives it raw). */
  readonly trimmed: boolean;
}

export declare class QuantityError extends Error {
  constructor(message: string, kind: QuantityErrorKind);
  readonly kind: QuantityErrorKind;
}

/** Throws QuantityError when `text` is not a quantity in `grammar` (default "sdk"). */
export declare function parseQuantity(text: string, grammar?: QuantityGrammar): Quantity;
export declare function compareQuantities(a: string, b: string, grammar?: QuantityGrammar): -1 | 0 | 1;

export interface ExceptionClasses {
  python: string;
  js: JsExceptionName;
}
/** The classes the SDKs raise for a server answer (SPEC §8). Reasons count only for "cwsandbox.com". */
export declare function exceptionFor(
  grpcCode: GrpcCode | (string & {}),
  reason?: Reason | (string & {}) | null,
  domain?: string | null,
  fieldViolations?: boolean,
): ExceptionClasses;
export declare function isSpillEligible(
  grpcCode: GrpcCode | (string & {}),
  reason?: Reason | (string & {}) | null,
  domain?: string | null,
): boolean;
/** `name` and its ancestors, nearest first. */
export declare function exceptionAncestors(name: string, sdk?: Client): string[];
export declare function knownReasons(): Reason[];
export declare function grpcCodes(): GrpcCode[];

export interface CodeInfo {
  code: DiagnosticCode;
  rule: RuleId;
  severity: Severity;
  reason: Reason | null;
  grpc_code: GrpcCode | null;
  python_exception: string | null;
  js_exception: JsExceptionName | null;
  side: Side;
  summary: string;
}
export declare function codes(): ReadonlyArray<Readonly<CodeInfo>>;

/** Throws the SDK-named error for a result's errors; returns the result when it has none. */
export declare function throwIfErrors<R extends { diagnostics: Diagnostic[] }>(result: R): R;
/** The error a result's errors amount to, or null. */
export declare function errorFor(result: { diagnostics: Diagnostic[] }): import('./codes').CWSandboxError | null;
