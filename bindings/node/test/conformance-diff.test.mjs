// Runs the policy diff cases (tests/conformance/diff/*.yaml) through diffPolicies, with the matching
// rules of tests/conformance/README.md ("Policy diff cases") as tests/conformance/diff_cases.cpp
// applies them, so that the C++, Python and Node suites give one answer. A case with records runs
// twice: from the stream's text (`record` is its line), and from the JS values its lines decode to,
// as an array (`record` is then the position, mapped back to the line here). Replays use 2 threads.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { diffPolicies, Policy } from 'sandgate';

const dir = fileURLToPath(new URL('../../../tests/conformance/diff/', import.meta.url));

function same(a, b) {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same(a[k], b[k]));
}

// "old.yaml:3" → 3 (the JSON's sources are `file:line`); null when absent.
const lineOf = (source) => (typeof source === 'string' && /:(\d+)$/.test(source) ? Number(source.match(/:(\d+)$/)[1]) : null);
const describeChange = (c) => `${c.field} ${c.kind} ${JSON.stringify(c.old)} -> ${JSON.stringify(c.new)} old@${lineOf(c.old_source)} new@${lineOf(c.new_source)}`;

// `null` in a case means absent, which the JSON writes as null.
function matches(e, c) {
  if (typeof e === 'string') return e === c.field;
  if (e.field !== c.field) return false;
  if ('kind' in e && e.kind !== c.kind) return false;
  if ('old' in e && !same(e.old, c.old)) return false;
  if ('new' in e && !same(e.new, c.new)) return false;
  if ('old_line' in e && lineOf(c.old_source) !== e.old_line) return false;
  if ('new_line' in e && lineOf(c.new_source) !== e.new_line) return false;
  return true;
}

function oneToOne(wanted, actual, what, f) {
  const used = actual.map(() => false);
  for (const w of wanted) {
    const i = actual.findIndex((c, k) => !used[k] && matches(w, c));
    if (i < 0) f.push(`${what}missing ${JSON.stringify(w)}`);
    else used[i] = true;
  }
  actual.forEach((c, k) => { if (!used[k]) f.push(`${what}unexpected ${describeChange(c)}`); });
}

const sorted = (a) => [...a].sort();

function compareRecord(e, r, line, changes, throughValues, f) {
  const at = `record ${line}: `;
  if ('class' in e && e.class !== r.class) f.push(`${at}class ${r.class}, expected ${e.class}`);
  if ('id' in e && r.id !== e.id) f.push(`${at}id ${r.id}, expected ${e.id}`);
  const errors = r.errors ?? [];
  if ('codes' in e) {
    const actual = sorted(new Set(errors.map((d) => d.code)));
    if (!same(actual, sorted(e.codes))) f.push(`${at}codes ${actual}, expected ${sorted(e.codes)}`);
  }
  if ('old_codes' in e && !same(sorted(r.old_codes ?? []), sorted(e.old_codes))) {
    f.push(`${at}old_codes ${sorted(r.old_codes ?? [])}, expected ${sorted(e.old_codes)}`);
  }
  // records given as JS values have no source lines (only text does)
  const positionsUnknown = throughValues && errors.every((d) => d.source === null);
  if ('error_line' in e && !positionsUnknown && errors[0]?.source?.line !== e.error_line) {
    f.push(`${at}the first error is not at line ${e.error_line}`);
  }
  if (Array.isArray(e.caused_by)) oneToOne(e.caused_by, (r.caused_by ?? []).map((ref) => changes[ref.change]), `${at}caused_by: `, f);
  if (e.changes && typeof e.changes === 'object') {
    const actual = new Map((r.changes ?? []).map((c) => [c.pointer, c]));
    for (const [pointer, pair] of Object.entries(e.changes)) {
      const c = actual.get(pointer);
      if (!c) f.push(`${at}no change at ${pointer}`);
      else if (!(Array.isArray(pair) && pair.length === 2 && same(pair[0], c.old) && same(pair[1], c.new))) {
        f.push(`${at}${pointer} is ${JSON.stringify(c.old)} -> ${JSON.stringify(c.new)}, expected ${JSON.stringify(pair)}`);
      }
    }
    for (const p of actual.keys()) if (!(p in e.changes)) f.push(`${at}unexpected change at ${p}`);
  }
}

// The stream's non-blank lines as JS values (a line that does not decode stays a string), and each
// position's line.
function asValues(text) {
  const values = [];
  const lines = new Map();
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try { values.push(JSON.parse(line)); } catch { values.push(line); }
    lines.set(values.length, i + 1);
  });
  return { values, lines };
}

async function runCase(spec, throughValues) {
  const options = spec.options && typeof spec.options === 'object' ? spec.options : {};
  let records;
  let lineOfRecord = (n) => n;
  if (typeof spec.records === 'string') {
    if (throughValues) {
      const { values, lines } = asValues(spec.records);
      records = values;
      lineOfRecord = (n) => lines.get(n);
    } else {
      records = Buffer.from(spec.records, 'utf8');
    }
  }
  const d = await diffPolicies(
    Policy.fromText(spec.old, { file: 'old.yaml' }),
    Policy.fromText(spec.new, { file: 'new.yaml' }),
    records,
    {
      runners: typeof spec.runners === 'string' ? Buffer.from(spec.runners) : undefined,
      org: typeof spec.org === 'string' ? Buffer.from(spec.org) : undefined,
      client: options.client ?? 'python',
      placement: options.placement || undefined,
      jobs: 2, // the order of the answers must not depend on the threads
    },
  );
  const f = [];
  const expect = spec.expect;
  const exit = d.ok ? 0 : 1;
  if (exit !== (expect.exit ?? 0)) f.push(`exit ${exit}, expected ${expect.exit ?? 0}`);
  if (Array.isArray(expect.static_changes)) oneToOne(expect.static_changes, d.static_changes, 'static change: ', f);
  if (expect.counts && typeof expect.counts === 'object') {
    for (const [name, n] of Object.entries(d.counts)) {
      const want = expect.counts[name] ?? 0;
      if (n !== want) f.push(`count ${name} ${n}, expected ${want}`);
    }
    for (const k of Object.keys(expect.counts)) if (!(k in d.counts)) f.push(`counts: unknown class ${k}`);
  }
  if (Array.isArray(expect.records)) {
    const byLine = new Map(d.records.map((r) => [lineOfRecord(r.record), r]));
    const seen = new Set();
    for (const e of expect.records) {
      const r = byLine.get(e.record);
      if (!r) {
        f.push(`record ${e.record} is unchanged or missing`);
        continue;
      }
      seen.add(e.record);
      compareRecord(e, r, e.record, d.static_changes, throughValues, f);
    }
    for (const [line, r] of byLine) if (!seen.has(line)) f.push(`unexpected record ${line} ${r.class}`);
  }
  return f;
}

let count = 0;
for (const name of readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort()) {
  const doc = YAML.parse(readFileSync(dir + name, 'utf8'), { version: '1.1' });
  assert.ok(doc && Array.isArray(doc.cases), `diff/${name}: no \`cases\` list`);
  count += doc.cases.length;
  describe(`diff/${name}`, () => {
    for (const c of doc.cases) {
      test(c.name, async () => {
        const failures = await runCase(c, false);
        assert.deepEqual(failures, [], `diff/${name} :: ${c.name}\n${failures.join('\n')}`);
      });
      if (typeof c.records === 'string') {
        test(`${c.name} (records as JS values)`, async () => {
          const failures = await runCase(c, true);
          assert.deepEqual(failures, [], `diff/${name} :: ${c.name} (records as JS values)\n${failures.join('\n')}`);
        });
      }
    }
  });
}

test('there are diff cases', () => assert.ok(count >= 10, `${count} diff cases`));
