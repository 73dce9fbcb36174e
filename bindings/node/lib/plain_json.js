'use strict';
// The fast input path (issue 12): a plain JS value as JSON text, made by ONE JSON.stringify, which
// the addon parses into the tree its property walk (src/js_to_node.cc) would build. Walking the
// properties through N-API cost ~90k instructions for a README sandbox; stringify plus a native
// parse costs a fraction of it.
//
// JSON.stringify reads a value differently from the walk in many corners: it drops functions and
// Symbols where the walk reports them, writes NaN and Infinity as null where the walk passes the
// number on, calls toJSON, reads Dates, Maps and class instances by their own rules, throws on a
// cycle or a BigInt. So the text is used only for values where both read the same, which this
// pre-walk decides cheaply; for anything else it answers undefined and the caller passes the value
// to the walk, which reports what it finds exactly as before. Accepted, at any depth:
//   - objects whose prototype is Object.prototype or null, with no own enumerable Symbol key and
//     no `__proto__` key (JSON.parse of a result would make it an own member, the walk's builder
//     meets the prototype setter); not a Proxy, nor one of the objects with a null prototype that
//     are not data (a native External such as a Policy's handle, a module namespace);
//   - arrays whose prototype is Array.prototype, without holes or undefined elements;
//   - strings, booleans, null, and numbers within ±(2^53 − 1) (which excludes NaN and ±Infinity;
//     an integer past 2^53 makes the addon hand the result over as an object, which the eager
//     path keeps doing);
//   - undefined as an object member (both leave it out: an option not given).
// Strings with NUL or lone surrogates, and values near the loader's limits, are refused by the
// native parse instead (it sees the bytes), and the addon then walks the value.
// A getter is read by this pre-walk and again by JSON.stringify: a getter that throws makes
// stringify throw, and the walk then reports it as before; one that answers differently each
// time is a value no path reads consistently.
const { isProxy, isExternal, isModuleNamespaceObject } = require('node:util').types;

const OBJECT_PROTO = Object.prototype;
const ARRAY_PROTO = Array.prototype;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
// Far inside the loader's limits (64 levels, 100,000 nodes): the walk would never stop at one.
const MAX_DEPTH = 32;
const MAX_ENTRIES = 20000;
const MAX_UNDEFINED_KEY_CHARS = 100000;

let entries = 0;
let undefinedKeyChars = 0;

function plainValue(v, depth) {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return v >= -MAX_SAFE && v <= MAX_SAFE; // false for NaN too
    case 'object':
      return v === null || plainContainer(v, depth + 1);
    default:
      return false;
  }
}

function plainContainer(v, depth) {
  if (depth > MAX_DEPTH || isProxy(v)) return false;
  const proto = Object.getPrototypeOf(v);
  if (proto === ARRAY_PROTO) {
    if (!Array.isArray(v)) return false;
    const n = v.length;
    if ((entries += n) > MAX_ENTRIES) return false;
    for (let i = 0; i < n; i++) {
      const item = v[i];
      if (item === undefined || !plainValue(item, depth)) return false; // a hole reads as undefined
    }
    return true;
  }
  if (proto !== OBJECT_PROTO && (proto !== null || isExternal(v) || isModuleNamespaceObject(v))) return false;
  for (const key in v) {
    if (++entries > MAX_ENTRIES || key === '__proto__') return false;
    const item = v[key];
    if (item === undefined) {
      if ((undefinedKeyChars += key.length) > MAX_UNDEFINED_KEY_CHARS) return false;
      continue;
    }
    if (!plainValue(item, depth)) return false;
  }
  // for-in lists no Symbol keys; the walk reports an enumerable one.
  return Object.getOwnPropertySymbols(v).length === 0;
}

/** JSON text of `value` when the addon's parse of it is the walk's tree, else undefined. */
function plainJson(value) {
  if (value === null || typeof value !== 'object') return undefined;
  // toJSON anywhere on the prototypes stringify consults would change what it writes.
  if (OBJECT_PROTO.toJSON !== undefined || ARRAY_PROTO.toJSON !== undefined) return undefined;
  entries = 0;
  undefinedKeyChars = 0;
  try {
    if (!plainContainer(value, 0)) return undefined;
    return JSON.stringify(value);
  } catch { // a getter or a trap that throws: the walk reports it where it is
    return undefined;
  }
}

module.exports = { plainJson };
