'use strict';
// sandgate for Node: check a CoreWeave sandbox request against a runner policy before it is sent.
// Everything that decides an answer is the C++ engine; this file only shapes arguments and results.
//
// Results are plain objects with the field names of the CLI's JSON output (SPEC §3 and §7:
// `placement_mode`, `qos_class`, `grpc_code`, …), so one result reads the same from the CLI, Python
// and Node. Each carries a non-enumerable `raiseForErrors()`. A check's result is filled on first
// use (see "Lazy results" below).
const fs = require('node:fs');
const nodePath = require('node:path');
const { Stream } = require('node:stream');
const { fileURLToPath } = require('node:url');
const native = require('./lib/native');
const { isExternal } = require('node:util').types;
const { plainJson } = require('./lib/plain_json');
const { classes, errorFor, throwIfErrors, QuantityError } = require('./lib/errors');

const CLIENTS = new Set(['python', 'typescript']);
const PLACEMENTS = new Set(['', 'serverless', 'cks']);
const CHECKER_OPTIONS = new Set(['policy', 'runners', 'org', 'client', 'placement']);
const LAYER_OPTIONS = new Set(['defaults', 'overrides']);
const CHECK_OPTIONS = new Set([...CHECKER_OPTIONS, ...LAYER_OPTIONS]);
// An option of the Checker given to one of its calls.
const ON_CHECKER = (key) => (CHECKER_OPTIONS.has(key) ? `; ${key} is the Checker's: new Checker({ ${key} }), or check(sandbox, { ${key} })` : '');
const ITEM_KEYS = new Set([...CHECK_OPTIONS, 'sandbox']);
const BATCH = 256; // items converted per turn of the event loop in checkMany

function raiseForErrors() {
  return throwIfErrors(this);
}

// `errors` and `warnings`, as a Policy and Python's Result have them: the diagnostics of that
// severity, a new array on each read.
const ofSeverity = (diagnostics, severity) => diagnostics.filter((d) => d.severity === severity);
const SEVERITY_LISTS = {
  errors: { get() { return ofSeverity(this.diagnostics, 'error'); }, enumerable: false },
  warnings: { get() { return ofSeverity(this.diagnostics, 'warning'); }, enumerable: false },
};

// Results stay plain (JSON.stringify, deepEqual and spread see only the data).
function finish(result) {
  Object.defineProperty(result, 'raiseForErrors', { value: raiseForErrors, enumerable: false });
  Object.defineProperties(result, SEVERITY_LISTS);
  return result;
}

// ---- Lazy results (issue 12, item 2) ----
// A check hands its result over as JSON text (src/result_json.h): building the same objects member
// by member through N-API was most of a call. The result is a plain object behind a Proxy: `ok` is
// there at once; the first read of any other field (`diagnostics`, `resolved`, …, the fields after
// `ok` of core/include/sandgate/result_shape.def, which the addon lists), or anything that looks at
// the object as a whole (Object.keys, spread, JSON.stringify, deepEqual, `in`, assignment), parses
// the text into the target once; from then on the target is the plain result, member for member
// what a check built before, with its non-enumerable raiseForErrors, and the Proxy only forwards.
// The handler is a class defined once: one small instance per result holds the text, its
// prototype holds the traps. (Accessors defined on each result, tried before, cost what they saved.)
// When JSON cannot carry a result (a bigint, a non-finite number, a `__proto__` key), the addon
// builds the object itself and it is returned plain.
const LAZY_FIELDS = Object.freeze(native.resultFields());
const LAZY = Object.create(null);
for (const name of LAZY_FIELDS) LAZY[name] = true;
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

// Kept results (src/kept_results.h): when the sandbox went by the fast input path (the JSON text
// of a plain value, lib/plain_json.js) and every other input is unchanging (`unchanging` below),
// the addon keeps the native result and hands over only `ok` and the result's id. The first read
// of a field asks for the head (src/result_head.h: the diagnostics and the small fields, with 0 in
// place of the DEFERRED fields below), the first read of one of those, or of the object as a
// whole, for the whole result; then the native result is freed. The addon keeps the last
// `native.keptResults` results of this thread only (a handle per result would be freed only by a
// finalizer after an event-loop turn: a synchronous loop of checks piled them up); a result read
// after that calls `redo`, the same native call without keeping, from the same strings
// (immutable: mutating the input object afterwards changes nothing). A sandbox given as text keeps
// the eager result: a value JSON cannot carry (.nan in YAML) then still comes as the plain object
// the addon builds.
const DEFERRED = ['resolved', 'provenance', 'rules_applied'];
const IS_DEFERRED = Object.create(null);
for (const name of DEFERRED) IS_DEFERRED[name] = true;

// util.inspect looks at a Proxy's target without its traps: until the target is filled, it carries
// this hook, which fills it (through the Proxy, `this`: its ownKeys trap fills every field) and
// lets inspect show the target as it would any plain object (returning `this` tells inspect to go
// on with the target).
function inspectResult() {
  Reflect.ownKeys(this);
  return this;
}

class LazyResult {
  constructor(text, kept, redo, hints) {
    // JSON text not read yet: the whole result, or its head (src/result_head.h: 0 in place of
    // DEFERRED) when `redo` is given; or null.
    this.text = text;
    // The id of the native result kept for this one (src/kept_results.h), or 0; whether its head
    // (every field but DEFERRED) is still to be read from it; null or () => the whole result again
    // (text or object), for the deferred fields of a head, or when the kept result is gone.
    this.kept = kept;
    this.head = kept !== 0;
    this.redo = redo;
    this.hints = hints; // textHints(): added to the diagnostics when they are filled
    this.open = true; // some field is still to be filled
  }

  // Every field but the deferred ones: from the text, or from the kept result's head.
  fill(target) {
    let data;
    if (this.text !== null) {
      data = JSON.parse(this.text);
      this.text = null;
    } else if (this.head) {
      this.head = false;
      const head = native.resultHead(this.kept) ?? this.redo();
      data = typeof head === 'string' ? JSON.parse(head) : head;
    } else {
      return;
    }
    for (const key of Object.keys(data)) if (key !== 'ok') target[key] = data[key];
    if (this.hints !== null) addTextHints(target.diagnostics, this.hints);
    this.hints = null;
    if (data.resolved !== 0) this.close(target); // nothing was deferred (or it came whole)
  }

  fillDeferred(target) {
    this.fill(target);
    if (!this.open) return;
    const raw = (this.kept !== 0 ? native.resultWhole(this.kept) : null) ?? this.redo();
    const data = typeof raw === 'string' ? JSON.parse(raw) : raw;
    for (const key of DEFERRED) target[key] = data[key]; // assigned in place: the order stays
    this.close(target);
  }

  close(target) {
    this.kept = 0;
    this.redo = null;
    this.open = false;
    this.done(target);
  }

  done(target) {
    delete target[INSPECT]; // the last member added: the target keeps its fast shape
    finish(target);
  }

  get(target, key) {
    if (this.open) {
      if (LAZY[key] === true) {
        if (IS_DEFERRED[key] === true) this.fillDeferred(target);
        else this.fill(target);
      } else if (key === 'raiseForErrors') {
        return raiseForErrors;
      } else if (key === 'errors' || key === 'warnings') {
        this.fill(target);
        return ofSeverity(target.diagnostics, key === 'errors' ? 'error' : 'warning');
      } else if (key === INSPECT) {
        return undefined;
      }
    }
    return target[key];
  }

  has(target, key) {
    if (key !== 'ok') this.fillDeferred(target);
    return Reflect.has(target, key);
  }

  set(target, key, value) {
    this.fillDeferred(target);
    return Reflect.set(target, key, value);
  }

  ownKeys(target) {
    this.fillDeferred(target);
    return Reflect.ownKeys(target);
  }

  getOwnPropertyDescriptor(target, key) {
    this.fillDeferred(target);
    return Reflect.getOwnPropertyDescriptor(target, key);
  }

  defineProperty(target, key, descriptor) {
    this.fillDeferred(target);
    return Reflect.defineProperty(target, key, descriptor);
  }

  deleteProperty(target, key) {
    this.fillDeferred(target);
    return Reflect.deleteProperty(target, key);
  }

  preventExtensions(target) {
    this.fillDeferred(target);
    return Reflect.preventExtensions(target);
  }
}

// A native call's result: the id of a kept result (negative when not ok; see "Kept results") or
// JSON text (`{"ok":true…` or `{"ok":false…`), made lazy; or an object, as it is.
// `redo`, for a kept result or a head: the call again, answering the whole result.
// `hints`: textHints() of the call's inputs, or null.
function result(raw, redo = null, hints = null) {
  if (typeof raw === 'number') return new Proxy({ ok: raw > 0, [INSPECT]: inspectResult }, new LazyResult(null, Math.abs(raw), redo, hints));
  if (typeof raw !== 'string') {
    if (hints !== null) addTextHints(raw.diagnostics, hints);
    return finish(raw);
  }
  return new Proxy({ ok: raw.charCodeAt(6) === 116, [INSPECT]: inspectResult }, new LazyResult(raw, 0, redo, hints));
}

// A check's result through `call(lazy)`: when the call can be made again with the same answer
// (`deferrable`), the native result kept and read when first used (the call again once it is no
// longer kept); otherwise the whole result at once.
function answer(deferrable, call, hints = null) {
  return deferrable ? result(call(true), () => call(false), hints) : result(call(false), null, hints);
}

// An input that a later call reads as it was: absent, text (a string), the JSON text of a value,
// a Policy's handle, or a file's bytes read here (`fileTexts`; no caller holds them).
const fileTexts = new WeakSet();
function unchanging(value, json) {
  return value === undefined || value === null || typeof value === 'string' || json !== undefined ||
    isExternal(value) || fileTexts.has(value);
}

// Options are checked here, not in C++: a misspelt option is a programming error (TypeError),
// whereas anything wrong inside an input is a diagnostic.
// An options object (null and undefined: none); an unknown key or another kind of value throws a
// TypeError naming what is accepted. `elsewhere(key)`: a note for an unknown key that belongs to
// another call.
function optionsObject(options, allowed, what, elsewhere = () => '') {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${what} must be an object with ${[...allowed].join(', ')}, not ${Array.isArray(options) ? 'an array' : describe(options)}`);
  }
  // A Policy (or a Map, or another class's instance) has no own keys: read as options it was "no
  // options", and `check(sandbox, policy)` checked against no policy and answered ok.
  const proto = Object.getPrototypeOf(options);
  if (proto !== Object.prototype && proto !== null) {
    const given = options instanceof Policy ? 'a Policy; pass it as { policy }' : describe(options);
    throw new TypeError(`${what} must be a plain object with ${[...allowed].join(', ')}, not ${given}`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.has(key)) throw new TypeError(`${what}: unknown option "${key}" (known: ${[...allowed].join(', ')})${elsewhere(key)}`);
  }
  return options;
}

// '; did you mean "cks"?' for a string that is an accepted value but for case and spaces (as the
// CLI says it for --placement CKS), else ''.
function meant(value, accepted) {
  const wanted = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  return wanted && accepted.has(wanted) ? `; did you mean ${JSON.stringify(wanted)}?` : '';
}

function readOptions(options, allowed, what) {
  options = optionsObject(options, allowed, what);
  const client = options.client ?? 'typescript';
  if (!CLIENTS.has(client)) throw new TypeError(`${what}: client must be "python" or "typescript", not ${JSON.stringify(client)}${meant(client, CLIENTS)}`);
  const placement = options.placement ?? '';
  if (!PLACEMENTS.has(placement)) throw new TypeError(`${what}: placement must be "serverless" or "cks", not ${JSON.stringify(placement)}${meant(placement, PLACEMENTS)}`);
  return { ...options, client, placement };
}

// ---- The one rule for a document input (docs/node.md, "Input kinds"), as Python's _inputs.py ----
// A string is a file path when it has no line break and ends in .yaml/.yml/.json (any case) or
// names an existing file; any other string is YAML/JSON text. A `file:` URL is a path; a Buffer,
// typed array or ArrayBuffer is text; null and undefined are "not given"; a plain value is read as
// a tree. What is clearly not a document (a Policy where something else goes, a class, a function,
// a stream, an open FileHandle, a URL of another protocol) throws a TypeError naming the right call.
const FILE_SUFFIX = /\.(?:ya?ml|json)$/i;

function strIsPath(value) {
  if (value === '' || value.includes('\n') || value.includes('\r')) return false;
  if (FILE_SUFFIX.test(value)) return true;
  try {
    return fs.statSync(value, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch { // NUL bytes, names too long: not a file
    return false;
  }
}

// ---- A string the rule read as text whose document is one bare string ----
// Most often a path the rule did not take for one (`policy.yaml ` with a space, `gpu-cks` with its
// extension left off): the engine's "must be an object …, not a string" then gets a hint saying so,
// and whether a file of that name exists. Only for a string given where the rule applies (not
// Policy.fromText, not a Buffer) and without a line break (text of more lines is not a path gone
// wrong); the file system is looked at only when the diagnostic is there.
const NOT_OBJECT_CODES = new Set(['SG_NOT_AN_OBJECT', 'SG_POLICY_NOT_OBJECT', 'SG_TYPE_MISMATCH']);
const BARE_STRING = /\bnot a string\b/;

// [{input, value, dir}] for each of `inputs` ([input name, the value given, documentInput's answer])
// that is a string read as text, or null when there is none.
function textHints(inputs) {
  let hints = null;
  for (const [input, given, read] of inputs) {
    if (typeof given !== 'string' || read !== given || given.trim() === '' || /[\n\r]/.test(given)) continue;
    (hints ??= []).push({ input, value: given, dir: process.cwd() });
  }
  return hints;
}

function statOf(path) {
  try {
    return fs.statSync(path, { throwIfNoEntry: false });
  } catch { // NUL bytes, names too long: no such file
    return undefined;
  }
}

function bareStringHint({ value, dir }) {
  const name = JSON.stringify(value);
  const at = (p) => statOf(nodePath.resolve(dir, p));
  const hint = 'this string was read as YAML text, not as a path (docs/node.md, Input kinds: a string without a line break ' +
    'is a path when it ends in .yaml, .yml or .json or names an existing file)';
  const trimmed = value.trim();
  if (trimmed !== value && at(trimmed)?.isFile()) {
    return `${hint}; the file ${JSON.stringify(trimmed)} exists: remove the white space around its name`;
  }
  const stat = at(value);
  if (stat === undefined) {
    const near = ['.yaml', '.yml', '.json'].map((ext) => value + ext).find((p) => at(p)?.isFile());
    return `${hint}; no file named ${name} exists${near ? ` (${JSON.stringify(near)} does: was its extension left off?)` : ''}` +
      ': for a file, pass a file: URL (pathToFileURL(path); a missing one throws ENOENT)';
  }
  if (stat.isDirectory()) return `${hint}; ${name} is a directory, not a file`;
  return `${hint}; ${name} is not a regular file: to read it, pass a file: URL (pathToFileURL(path))`;
}

// Puts the hint of each input in `hints` on that input's "must be an object …, not a string".
// `diagnostics` may be RecordErrors (diffPolicies' old_errors and new_errors), which hold errors only
// and so carry no severity.
function addTextHints(diagnostics, hints) {
  for (const d of diagnostics) {
    if (d.path !== '' || (d.severity ?? 'error') !== 'error' || !NOT_OBJECT_CODES.has(d.code) || !BARE_STRING.test(d.message)) continue;
    const h = hints.find((x) => x.input === d.input);
    if (h !== undefined) d.hint = d.hint ? `${d.hint}; ${bareStringHint(h)}` : bareStringHint(h);
  }
}

const DOCUMENT = 'a document (a path, a file: URL, YAML/JSON text as a string or Buffer, a plain object, or null for not given)';

// The document size limit (SPEC §1.2, 4 MiB), the one the engine and the CLI apply.
const MAX_DOCUMENT_BYTES = native.maxDocumentBytes;

// At most `cap` bytes of a file (by default the size limit + 1 byte: enough for the engine to
// report SG_DOC_TOO_LARGE, as the CLI does, without reading an endless file such as /dev/zero, or a
// huge one, into memory). Bytes, so the engine sees invalid UTF-8 as it is.
function readFile(path, cap = MAX_DOCUMENT_BYTES + 1) {
  const fd = fs.openSync(path, 'r');
  try {
    const { size } = fs.fstatSync(fd); // 0 for a device or a FIFO
    let bytes = Buffer.allocUnsafe(Math.min(Math.max(size + 1, 1), cap));
    let n = 0;
    while (n < cap) {
      if (n === bytes.length) {
        const bigger = Buffer.allocUnsafe(Math.min(Math.max(bytes.length * 2, 64 * 1024), cap));
        bytes.copy(bigger, 0, 0, n);
        bytes = bigger;
      }
      const got = fs.readSync(fd, bytes, n, bytes.length - n, null);
      if (got === 0) break;
      n += got;
    }
    return bytes.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

// A file input's bytes; an error names the input and the path. `guessed`: the string was taken
// for a path by the Input kinds rule (a missing file then says how to pass text instead).
function readPath(path, label, cap = undefined, guessed = true) {
  try {
    return readFile(path, cap);
  } catch (e) {
    throw pathError(e, path, label, guessed);
  }
}

// The existing path a missing one most likely meant (the core's rules, as the CLI says them), or ''.
function pathMeant(path) {
  if (path instanceof URL) {
    try { path = fileURLToPath(path); } catch { return ''; }
  }
  return typeof path === 'string' ? native.pathMeant(path) : '';
}

function pathError(e, path, label, guessed) {
  const meant = e && e.code === 'ENOENT' ? pathMeant(path) : '';
  if (meant) { // a path meant says the string was meant as a path: the Input kinds rule is no news
    e.message += ` (did you mean ${JSON.stringify(meant)}?)`;
  } else if (e && e.code === 'ENOENT' && guessed) {
    e.message += ` (${label}: a string without line breaks that ends in .yaml, .yml or .json is read as a file path;` +
      ' pass YAML/JSON text as a Buffer, or a policy with Policy.fromText(text))';
  } else if (e && e.code === 'EISDIR') { // read(2)'s error: Node names no path
    e.path = path;
    e.message = `EISDIR: ${label}: ${JSON.stringify(path)} is a directory; a path must name a file`;
  }
  return e;
}

// The path of a records file (diffPolicies), for the addon to read as the CLI reads --requests:
// a stream may be longer than the document size limit, so it is not read here (whole) but record
// by record on the worker, in bounded memory. Errors as readPath's, found now by stat(2) (opening a
// FIFO here would wait for its writer on the main thread).
function recordsPath(path, label, guessed) {
  let stat;
  try {
    stat = fs.statSync(path);
  } catch (e) {
    throw pathError(e, path, label, guessed);
  }
  if (stat.isDirectory()) {
    throw pathError(Object.assign(new Error('EISDIR'), { code: 'EISDIR', syscall: 'read' }), path, label, guessed);
  }
  return path;
}

// "a string", "an Object", "null": the kind of a value, for a message.
function describe(value) {
  if (value === null || value === undefined) return String(value);
  const name = typeof value === 'object' ? value.constructor?.name || 'object' : typeof value;
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

function wrongKind(value, label) {
  if (value instanceof Policy) {
    return new TypeError(`${label}: got a sandgate Policy; pass it as the policy option ({ policy }), and ${DOCUMENT} here`);
  }
  if (typeof value === 'function') {
    const isClass = /^class\b/.test(Function.prototype.toString.call(value));
    return new TypeError(`${label}: got ${isClass ? `the class ${value.name || '(anonymous)'}` : `a function${value.name ? ` (${value.name})` : ''}`};` +
      ` pass ${isClass ? 'an instance or ' : 'its result or '}${DOCUMENT}`);
  }
  if (value instanceof Stream || (typeof value.pipe === 'function' && typeof value.on === 'function')) {
    return new TypeError(`${label}: got a stream; pass its path, or its text (a string or Buffer: fs.readFileSync(path), or the chunks read to the end)`);
  }
  if (typeof value.fd === 'number' && typeof value.readFile === 'function') {
    return new TypeError(`${label}: got an open FileHandle; pass its path, or its text (await handle.readFile())`);
  }
  if (value instanceof URL) {
    return new TypeError(`${label}: only a file: URL names a file, not a ${value.protocol} URL; fetch it and pass its text`);
  }
  return null;
}

// A document input as the native side takes it: the value itself, or a file's bytes labelled with
// its name. `policyOk`: a Policy is the right kind here (the `policy` input, validatePolicy).
function documentInput(value, label, policyOk = false) {
  if (value === undefined || value === null) return value;
  const t = typeof value;
  if (t === 'string') return strIsPath(value) ? fileText(readPath(value, label), value) : value;
  if (t !== 'object' && t !== 'function') return value;
  let kind;
  try {
    kind = value instanceof Uint8Array ? 'bytes' : value instanceof Policy ? 'policy'
      : value instanceof URL && value.protocol === 'file:' ? 'file' : wrongKind(value, label);
  } catch { // a Proxy whose traps throw: the converter reports what reading it throws
    return value;
  }
  if (kind === 'bytes') return value;
  if (kind === 'policy') {
    if (policyOk) return policyHandle(value);
    kind = wrongKind(value, label);
  }
  if (kind === 'file') {
    const path = fileURLToPath(value);
    return fileText(readPath(path, label, undefined, false), path);
  }
  if (kind) throw kind;
  return value;
}

function fileText(bytes, path) {
  const text = native.fileText(bytes, path);
  fileTexts.add(text);
  return text;
}

const FROM_TEXT_OPTIONS = new Set(['file', 'format']);

let policyHandle; // (Policy) → native handle; set inside the class, so the field stays private

/** A runner policy, loaded and compiled once (SPEC §4); always returned, valid or not. */
class Policy {
  #handle;
  #info;

  constructor(handle, token) {
    if (token !== Policy.#token) throw new TypeError('use Policy.load, Policy.fromObject or Policy.fromText');
    this.#handle = handle;
  }

  static #token = Symbol('Policy');
  static {
    policyHandle = (p) => p.#handle;
  }

  /**
   * Reads a policy file (YAML or JSON by its extension, else detected; a runner document's
   * `policy` is taken). I/O errors throw; anything wrong in the content is a diagnostic.
   */
  static load(path) {
    if (path instanceof URL && path.protocol === 'file:') path = fileURLToPath(path);
    if (typeof path !== 'string') throw new TypeError(`Policy.load expects a path (a string or a file: URL), not ${describe(path)}; for text use Policy.fromText, for an object Policy.fromObject`);
    const bytes = readPath(path, 'Policy.load', undefined, false);
    const name = path;
    const format = /\.json$/.test(name) ? 'json' : /\.ya?ml$/.test(name) ? 'yaml' : 'auto';
    return new Policy(native.loadPolicy(bytes, name, false, format), Policy.#token);
  }

  /** A policy from a JS value: an object in proto snake_case or REST camelCase. */
  static fromObject(value) {
    return new Policy(native.loadPolicy(value, '', true), Policy.#token);
  }

  /** A policy from YAML or JSON text (a string or bytes); `file` only labels diagnostics. */
  static fromText(text, options = undefined) {
    const { file = '', format = 'auto' } = optionsObject(options, FROM_TEXT_OPTIONS, 'Policy.fromText options');
    if (typeof text !== 'string' && !(text instanceof Uint8Array)) throw new TypeError('Policy.fromText expects a string or a Uint8Array');
    return new Policy(native.loadPolicy(text, String(file), false, format), Policy.#token);
  }

  #get() {
    this.#info ??= native.policyInfo(this.#handle);
    return this.#info;
  }

  /** No errors: the policy can be checked against. */
  get ok() { return this.#get().ok; }
  /** The text could not be read at all; every check against this policy returns its errors. */
  get broken() { return this.#get().broken; }
  /** An explicit `null` policy (P-15: the runner was never configured). */
  get isNull() { return this.#get().is_null; }
  get diagnostics() { return this.#get().diagnostics; }
  get errors() { return this.diagnostics.filter((d) => d.severity === 'error'); }
  get warnings() { return this.diagnostics.filter((d) => d.severity === 'warning'); }
  /** The policy object with canonical (snake_case) keys, or null when broken. */
  get document() { return this.#get().document; }
  raiseForErrors() {
    throwIfErrors(this);
    return this;
  }
  toJSON() { return { ok: this.ok, diagnostics: this.diagnostics }; }

  /** `check(sandbox, { ...options, policy: this })`: the same result, for code that holds a policy. */
  check(sandbox, options = undefined) {
    if (options !== undefined && (options === null || typeof options !== 'object')) {
      throw new TypeError(`Policy.check options must be an object, not ${describe(options)}`);
    }
    if (options !== undefined && Object.hasOwn(options, 'policy')) {
      throw new TypeError('Policy.check options take no policy: the policy is the one check is called on');
    }
    return check(sandbox, { ...options, policy: this });
  }
}

/** A policy, runners and org bound to a client, compiled once, for many checks. */
class Checker {
  #context;
  #hints; // textHints() of the policy, runners and org

  constructor(options = {}) {
    const o = readOptions(options, CHECKER_OPTIONS, 'Checker options');
    this.client = o.client;
    [this.#context, this.#hints] = makeContext(o);
  }

  /** What the server and the SDK would do with one request (SPEC §7). */
  check(sandbox, layers = undefined) {
    const { defaults, overrides } = optionsObject(layers, LAYER_OPTIONS, 'Checker.check options', ON_CHECKER);
    const context = this.#context;
    const s = documentInput(sandbox, 'sandbox');
    const d = documentInput(defaults, 'defaults');
    const o = documentInput(overrides, 'overrides');
    const sj = plainJson(s);
    const dj = plainJson(d);
    const oj = plainJson(o);
    // (Most checks take values, not text: no hint list to build for them.)
    const hints = typeof sandbox !== 'string' && typeof defaults !== 'string' && typeof overrides !== 'string' ? this.#hints
      : joinHints(this.#hints, textHints([['sandbox', sandbox, s], ['defaults', defaults, d], ['overrides', overrides, o]]));
    return answer(sj !== undefined && unchanging(d, dj) && unchanging(o, oj),
      (lazy) => native.check(context, s, d, o, sj, dj, oj, lazy), hints);
  }

  /**
   * Many requests on a worker thread. Each item is a sandbox, or `{sandbox, defaults, overrides,
   * policy, runners, org, client, placement}` where the options given replace this checker's.
   */
  async checkMany(items, layers = undefined) {
    const given = optionsObject(layers, LAYER_OPTIONS, 'Checker.checkMany options', ON_CHECKER);
    if (!Array.isArray(items)) throw new TypeError('checkMany expects an array');
    const defaults = documentInput(given.defaults, 'defaults');
    const overrides = documentInput(given.overrides, 'overrides');
    const shared = [plainJson(defaults), plainJson(overrides),
      textHints([['defaults', given.defaults, defaults], ['overrides', given.overrides, overrides]])];
    const out = new Array(items.length);
    const pending = [];
    for (let start = 0; start < items.length; start += BATCH) {
      const batch = [];
      const end = Math.min(start + BATCH, items.length);
      for (let i = start; i < end; i++) batch.push(this.#item(items[i], defaults, overrides, shared, i));
      const text = batchText(batch, this.#context);
      const checked = text === undefined ? native.checkBatch(batch)
        : native.checkTexts(this.#context, text, batch.length, batch[0][7] === undefined ? 0 : start + 1);
      pending.push(checked.then((results) => {
        for (let k = 0; k < results.length; k++) {
          // null: the core refused a layer's JSON text on the worker (src/check_many.cc); the
          // value is checked here instead, walked as check() walks it.
          const item = batch[k];
          const [context, s, d, o] = item;
          out[start + k] = results[k] !== null ? result(results[k], item[8] ? () => native.checkItem(item) : null, item[9])
            : result(native.check(context, s, d, o, undefined, undefined, undefined, false), null, item[9]);
        }
      }));
      // Converting JS values must happen on this thread: yield between batches, so timers and
      // I/O run while the worker threads check what is already converted.
      if (end < items.length) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(pending);
    return out;
  }

  // [context, sandbox, defaults, overrides, their JSON texts (lib/plain_json.js), the record's
  // position for a string item, and whether the item can be checked again with the same answer
  // (every layer `unchanging`: the worker then writes only the head of its result, and a deferred
  // field is read from native.checkItem of the same item)] for checkBatch, and the item's
  // textHints() (read here only).
  #item(item, defaults, overrides, shared, index) {
    const [context, s, d, o, sj, dj, oj, record, hints] = this.#layers(item, defaults, overrides, shared, index);
    return [context, s, d, o, sj, dj, oj, record, unchanging(s, sj) && unchanging(d, dj) && unchanging(o, oj), hints];
  }

  // `shared` also holds the textHints() of the call's defaults and overrides.
  #layers(item, defaults, overrides, [defaultsJson, overridesJson, layerHints], index) {
    // A string item is a record's text (a JSON Lines line: a sandbox or {id, sandbox, defaults,
    // overrides}), read on a worker as Python's check_many and diffPolicies read theirs; never a path.
    const hints = joinHints(this.#hints, layerHints);
    if (typeof item === 'string') return [this.#context, item, defaults, overrides, undefined, defaultsJson, overridesJson, index + 1, hints];
    if (!isCheckItem(item)) {
      const sandbox = documentInput(item, `checkMany item ${index}`);
      return [this.#context, sandbox, defaults, overrides, plainJson(sandbox), defaultsJson, overridesJson, undefined, hints];
    }
    for (const key of Object.keys(item)) {
      if (!ITEM_KEYS.has(key)) throw new TypeError(`checkMany item ${index}: unknown key "${key}"`);
    }
    let context = this.#context;
    let itemHints = this.#hints;
    if (['policy', 'runners', 'org', 'client', 'placement'].some((k) => item[k] !== undefined)) {
      const own = readOptions(pick(item, CHECKER_OPTIONS), CHECKER_OPTIONS, `checkMany item ${index}`);
      [context, itemHints] = makeContext(own);
    }
    const sandbox = documentInput(item.sandbox, `checkMany item ${index}: sandbox`);
    const ownDefaults = documentInput(item.defaults, `checkMany item ${index}: defaults`);
    const ownOverrides = documentInput(item.overrides, `checkMany item ${index}: overrides`);
    const ownHints = textHints([['sandbox', item.sandbox, sandbox], ['defaults', item.defaults, ownDefaults], ['overrides', item.overrides, ownOverrides]]);
    const layerHintsLeft = layerHints?.filter((h) => !(h.input === 'defaults' && ownDefaults != null) && !(h.input === 'overrides' && ownOverrides != null));
    return [context, sandbox, ownDefaults ?? defaults, ownOverrides ?? overrides, plainJson(sandbox),
      ownDefaults == null ? defaultsJson : plainJson(ownDefaults), ownOverrides == null ? overridesJson : plainJson(ownOverrides),
      undefined, joinHints(itemHints, joinHints(layerHintsLeft?.length ? layerHintsLeft : null, ownHints))];
  }
}

// A checkBatch batch as checkTexts takes it, when every item is checked with `context` and each of
// its layers is absent or given as its JSON text (lib/plain_json.js), and either every item is a
// sandbox or every item is a string (a record's text, SPEC §10.1): three segments an item
// (defaults, sandbox or record, overrides; an absent layer empty) joined by newlines, which
// JSON.stringify never writes. One string then crosses into the addon for the batch instead of
// an array and a string per item (src/check_many.cc). A record's text goes as it is, so a record
// with a newline, or with a lone surrogate (which checkBatch names: UTF-8 cannot carry it), sends
// its batch by checkBatch. undefined for any other batch.
function batchText(batch, context) {
  const records = batch[0][7] !== undefined;
  const segments = [];
  for (const [c, s, d, o, sj, dj, oj, record] of batch) {
    if (c !== context || (d != null && dj === undefined) || (o != null && oj === undefined)) return undefined;
    if (records) {
      if (record === undefined || s.includes('\n') || !s.isWellFormed()) return undefined;
      segments.push(dj ?? '', s, oj ?? '');
    } else {
      if (sj === undefined || record !== undefined) return undefined;
      segments.push(dj ?? '', sj, oj ?? '');
    }
  }
  return segments.join('\n');
}

// `{sandbox, …}` rather than a sandbox itself (no sandbox has a `sandbox` key). A hostile value
// (a Proxy whose traps throw) is a sandbox: the conversion reports what is wrong with it.
function isCheckItem(item) {
  try {
    return item !== null && typeof item === 'object' && !Array.isArray(item) && Object.hasOwn(item, 'sandbox');
  } catch {
    return false;
  }
}

function pick(object, keys) {
  const out = {};
  for (const k of keys) if (object[k] !== undefined) out[k] = object[k];
  return out;
}

function contextInputs(o) {
  return [documentInput(o.policy, 'policy', true), documentInput(o.runners, 'runners'), documentInput(o.org, 'org')];
}

// textHints() of the policy, runners and org as given (`o`) and as read (`inputs`).
function contextHints(o, [policy, runners, org]) {
  return textHints([['policy', o.policy, policy], ['runners', o.runners, runners], ['org', o.org, org]]);
}

function joinHints(a, b) {
  return a === null || a === undefined ? b ?? null : b === null || b === undefined ? a : [...a, ...b];
}

// [a native context, the textHints() of its inputs]
function makeContext(o) {
  const inputs = contextInputs(o);
  return [native.makeContext(...inputs, o.client, o.placement), contextHints(o, inputs)];
}

/** Checks one sandbox request (SPEC §7). Inputs are JS values or YAML/JSON text. */
function check(sandbox, options = {}) {
  const o = readOptions(options, CHECK_OPTIONS, 'check options');
  // What `new Checker(…).check(…)` answers, without a context handle per call: the native side
  // builds the context on its stack (a handle is freed only by a finalizer after a GC and an event
  // loop turn, so a synchronous loop of check() calls grew without bound).
  // Every input that is a plain value goes as its JSON text (lib/plain_json.js); when all of them
  // are then unchanging, the result's deferred fields come from the same call again.
  const policy = documentInput(o.policy, 'policy', true);
  const runners = documentInput(o.runners, 'runners');
  const org = documentInput(o.org, 'org');
  const s = documentInput(sandbox, 'sandbox');
  const d = documentInput(o.defaults, 'defaults');
  const ov = documentInput(o.overrides, 'overrides');
  const pj = plainJson(policy);
  const rj = plainJson(runners);
  const oj = plainJson(org);
  const sj = plainJson(s);
  const dj = plainJson(d);
  const ovj = plainJson(ov);
  const { client, placement } = o;
  const deferrable = sj !== undefined && unchanging(policy, pj) && unchanging(runners, rj) && unchanging(org, oj) &&
    unchanging(d, dj) && unchanging(ov, ovj);
  const hints = textHints([['policy', o.policy, policy], ['runners', o.runners, runners], ['org', o.org, org],
    ['sandbox', sandbox, s], ['defaults', o.defaults, d], ['overrides', o.overrides, ov]]);
  return answer(deferrable,
    (lazy) => native.checkOnce(policy, runners, org, client, placement, s, d, ov, pj, rj, oj, sj, dj, ovj, lazy), hints);
}

/** Checks many sandbox requests on a worker thread; resolves to one result per item, in order. */
function checkMany(items, options = {}) {
  try {
    const o = readOptions(options, CHECK_OPTIONS, 'checkMany options');
    return new Checker(pick(o, CHECKER_OPTIONS)).checkMany(items, pick(o, LAYER_OPTIONS));
  } catch (e) {
    return Promise.reject(e);
  }
}

const DIFF_OPTIONS = new Set(['runners', 'org', 'client', 'placement', 'examples', 'jobs']);
const MAX_JOBS = 1024; // the CLI's --jobs range (core/cli/diff_command.cpp)

// A number option's value as a message shows it: the number, or the kind of value.
function numberSeen(value) {
  return typeof value === 'number' ? String(value) : describe(value);
}

function renderings(markdown, text) {
  return {
    toMarkdown: { value: () => markdown, enumerable: false },
    toText: { value: () => text, enumerable: false },
  };
}

// The stop() of each diff running over a FIFO or device (src/diff_policies.cc), called at process exit: it ends the read
// of a records file that may never end (a FIFO whose writer never closes it, /dev/zero; see
// src/records_feed.h) and waits for the diff's thread, which must not run on while the process ends.
const readsToStop = new Set();
let stopsAtExit = false;
function stopAtExit(stop) {
  readsToStop.add(stop);
  if (stopsAtExit) return;
  stopsAtExit = true;
  process.on('exit', () => {
    for (const s of readsToStop) s();
  });
}

/**
 * The diff of two runner policies (SPEC §10.3), replayed over `records` when given: an array of
 * records (sandboxes, `{id, sandbox, defaults, overrides}`, or JSON Lines lines as strings) or
 * request stream text (JSON Lines or a YAML/JSON list; a string or bytes). Resolves to the object
 * `sandgate policy diff --format json` prints (`ok`, `static_changes`, `counts`, `records`, …), with
 * non-enumerable `toMarkdown()` and `toText()`. Runs on a worker thread (the replay on every core,
 * or `jobs` threads).
 */
async function diffPolicies(oldPolicy, newPolicy, records, options = {}) {
  options = optionsObject(options, DIFF_OPTIONS, 'diffPolicies options');
  const o = readOptions(pick(options, CHECKER_OPTIONS), CHECKER_OPTIONS, 'diffPolicies options');
  const examples = options.examples ?? 5;
  const jobs = options.jobs ?? 0;
  if (!Number.isSafeInteger(examples) || examples < 0) {
    throw new TypeError(`diffPolicies options: examples must be a non-negative integer, not ${numberSeen(examples)}`);
  }
  // As the CLI's --jobs (1 to 1024), and 0 for every core: more threads than that only cost.
  if (!Number.isInteger(jobs) || jobs < 0 || jobs > MAX_JOBS) {
    throw new TypeError(`diffPolicies options: jobs must be an integer from 0 (every core) to ${MAX_JOBS}, as the CLI's --jobs, not ${numberSeen(jobs)}`);
  }
  let recordsFile; // a path, read by the addon
  if (records !== undefined && records !== null && !Array.isArray(records)) {
    if (typeof records !== 'string' && !(records instanceof Uint8Array) && !(records instanceof URL)) {
      throw wrongKind(records, 'diffPolicies: records') ??
        new TypeError(`diffPolicies: records must be an array of records, a path, or request stream text (a string or bytes), not ${describe(records)}`);
    }
    if (typeof records === 'string' && strIsPath(records)) {
      recordsFile = recordsPath(records, 'diffPolicies: records', true);
      records = undefined;
    } else if (records instanceof URL && records.protocol === 'file:') {
      recordsFile = recordsPath(fileURLToPath(records), 'diffPolicies: records', false);
      records = undefined;
    } else {
      records = documentInput(records, 'diffPolicies: records');
    }
  }
  const [, runners, org] = contextInputs(o);
  const oldInput = documentInput(oldPolicy, 'oldPolicy', true);
  const newInput = documentInput(newPolicy, 'newPolicy', true);
  let raw;
  let stop;
  try {
    let pending;
    [pending, stop] = native.diffPolicies(oldInput, newInput, records ?? undefined, runners, org, o.client, o.placement,
      Math.min(examples, 0xFFFFFFFF), jobs, recordsFile);
    if (stop !== undefined) stopAtExit(stop);
    raw = await pending;
  } catch (e) { // runners or an org with errors: the first one is in the message
    const hints = textHints([['runners', o.runners, runners], ['org', o.org, org]]);
    const m = hints !== null && e instanceof Error ? /^diffPolicies: the (runners|org) [^:]*: (SG_[A-Z0-9_]+): (.*)$/s.exec(e.message) : null;
    const h = m && NOT_OBJECT_CODES.has(m[2]) && BARE_STRING.test(m[3]) ? hints.find((x) => x.input === m[1]) : undefined;
    if (h !== undefined) e.message += ` (${bareStringHint(h)})`;
    throw e;
  } finally {
    if (stop !== undefined) readsToStop.delete(stop);
  }
  const diff = JSON.parse(raw.json);
  // Each policy's errors get the hint its own string gets from check() (both are the `policy` input).
  for (const [errors, given, read] of [[diff.old_errors, oldPolicy, oldInput], [diff.new_errors, newPolicy, newInput]]) {
    const hints = textHints([['policy', given, read]]);
    if (hints !== null) addTextHints(errors, hints);
  }
  return Object.defineProperties(diff, renderings(raw.markdown, raw.text));
}

/** Validates a policy (text, a JS value, or a Policy): `{ok, diagnostics}`. */
function validatePolicy(doc) {
  const input = documentInput(doc, 'policy', true);
  return result(native.validatePolicy(input, '', plainJson(input)), null, textHints([['policy', doc, input]]));
}

const NORMALIZE_OPTIONS = new Set(['client']);

/** N-RES alone (SPEC §5.2): the requests/limits/gpu an SDK would send for a `resources` value. */
function normalizeResources(resources, options = undefined) {
  const { client = 'typescript' } = optionsObject(options, NORMALIZE_OPTIONS, 'normalizeResources options');
  if (!CLIENTS.has(client)) throw new TypeError('client must be "python" or "typescript"');
  return finish(native.normalizeResources(resources, client));
}

/** Parses a quantity exactly (SPEC §2); throws QuantityError when it is not one. */
function parseQuantity(text, grammar = 'sdk') {
  if (typeof text !== 'string') throw new TypeError('a quantity must be a string');
  const q = native.parseQuantity(text, grammar);
  if (!q.ok) throw new QuantityError(q.message, q.kind);
  return Object.freeze({ text, decimal: q.decimal, canonical: q.canonical, milli: q.milli, trimmed: q.trimmed });
}

/** -1, 0 or 1 as quantity `a` is less than, equal to or greater than `b` (exactly: 1Gi > 1000Mi). */
function compareQuantities(a, b, grammar = 'sdk') {
  parseQuantity(a, grammar);
  parseQuantity(b, grammar);
  return native.compareQuantities(a, b, grammar);
}

/** The Python and JS classes the SDKs raise for a server answer (SPEC §8). */
function exceptionFor(grpcCode, reason = '', domain = 'cwsandbox.com', fieldViolations = true) {
  return native.exceptionFor(grpcCode, reason ?? '', domain ?? 'cwsandbox.com', fieldViolations);
}

/** Whether the Python SDK's placement spill-over retries a failed create in the other mode. */
function isSpillEligible(grpcCode, reason = '', domain = 'cwsandbox.com') {
  return native.isSpillEligible(grpcCode, reason ?? '', domain ?? 'cwsandbox.com');
}

/** A class and its ancestors, nearest first, in the TypeScript (default) or the Python SDK. */
function exceptionAncestors(name, sdk = 'typescript') {
  if (!CLIENTS.has(sdk)) throw new TypeError('sdk must be "python" or "typescript"');
  return native.exceptionAncestors(name, sdk === 'typescript');
}

let codeTable;
/** The diagnostic codes table (as `sandgate codes --format json`). */
function codes() {
  codeTable ??= Object.freeze(native.codes().map((row) => Object.freeze(row)));
  return codeTable;
}

module.exports = {
  version: native.version(),
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
  knownReasons: () => native.knownReasons(),
  grpcCodes: () => native.grpcCodes(),
  codes,
  throwIfErrors,
  errorFor,
  ...classes,
};
