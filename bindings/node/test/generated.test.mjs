// The files made from the engine's tables (codes.d.ts, lib/errors.mjs) must match the tables the
// addon was built from: when the codes table grows, `npm run gen-codes` has to be run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { render } from '../scripts/gen-codes.mjs';
import { codes } from 'sandgate';

test('the generated files are fresh', () => {
  for (const [file, text] of Object.entries(render())) {
    const committed = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
    assert.ok(committed === text, `${file} is stale: run \`npm run gen-codes\` in bindings/node`);
  }
});

test('codes.d.ts names every code of the table', () => {
  const dts = readFileSync(new URL('../codes.d.ts', import.meta.url), 'utf8');
  for (const { code } of codes()) assert.ok(dts.includes(`"${code}"`), code);
});
