// The npm package, installed from its tarball into a temporary project (tests/run-npm-tests),
// against the workspace's CLI on the same files: the same bytes from analyzeJson, the same
// object from analyze.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';

import { analyze, analyzeJson, hasInputErrors } from 'toolscope-eval';

import { CASES, cliArgs } from './cases.mjs';

const ROOT = process.env.TOOLSCOPE_ROOT;
const CLI = process.env.TOOLSCOPE_WORKSPACE_CLI;

function cli(testCase) {
  const run = spawnSync(CLI, cliArgs(testCase), { cwd: ROOT, maxBuffer: 1 << 30 });
  assert.equal(run.error, undefined);
  return run;
}

function files(testCase, asText = false) {
  return testCase.files.map(([role, name]) => {
    const bytes = readFileSync(join(ROOT, name));
    return { name, role, data: asText ? bytes.toString('utf8') : new Uint8Array(bytes) };
  });
}

test('the package is the installed tarball, not the source tree', () => {
  const resolved = createRequire(import.meta.url).resolve('toolscope-eval');
  assert.match(resolved, /node_modules[/\\]toolscope-eval[/\\]index\.js$/);
  assert.ok(!resolved.startsWith(ROOT), resolved);
});

for (const [name, testCase] of Object.entries(CASES)) {
  test(`${name}: analyzeJson prints the CLI's bytes and analyze its object`, () => {
    const expected = cli(testCase);
    if (testCase.exitCode !== undefined) {
      assert.equal(expected.status, testCase.exitCode, expected.stderr.toString());
    }
    const json = analyzeJson(files(testCase), testCase.options);
    assert.equal(json, expected.stdout.toString('utf8'));
    const report = analyze(files(testCase), testCase.options);
    assert.deepEqual(report, JSON.parse(json));
    assert.equal(hasInputErrors(report), expected.status === 2);
  });
}

test('text and bytes give the same report', () => {
  assert.equal(analyzeJson(files(CASES.selection, true)), analyzeJson(files(CASES.selection)));
});

test('a role left out is detected from the content, as the page detects it', () => {
  const detected = files(CASES.selection).map(({ name, data }) => ({ name, data }));
  const report = analyze(detected);
  assert.deepEqual(report.inputs.map((input) => input.role), ['catalog', 'traces', 'labels']);
  assert.ok(report.selection.turns > 0);
});

test('bad input comes back as diagnostics with file and line, never as a throw', () => {
  const report = analyze(files(CASES.bad));
  const notJson = report.diagnostics.find((d) => d.severity === 'error' && d.line === 2);
  assert.equal(notJson.file, 'tests/fixtures/bad/sessions.jsonl');
  assert.ok(hasInputErrors(report));
});

test('an unknown role or option is refused with a message naming it', () => {
  assert.throws(() => analyze([{ name: 'x', role: 'tools', data: '[]' }]), /unknown role "tools"/);
  assert.throws(() => analyze(files(CASES.seed), { min_support: 3 }), /min_support/);
  assert.throws(() => analyze([{ name: 'x', data: 42 }]), /files\[0\]\.data/);
});

test('on a Node without a global Web Crypto (Node 18) schemas are still checked', () => {
  // Node 18 has no globalThis.crypto unless flagged; the engine's hash seeds and jsonschema's
  // need crypto.getRandomValues, so the package lends it Node's own.
  const script = `
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    const { analyze } = require('toolscope-eval');
    const tools = [{ name: 'lookup', parameters: { type: 'object',
      properties: { id: { type: 'string', pattern: '^[a-z]+$' } }, required: ['id'] } }];
    const calls = [{ id: 7 }, { id: 'abc' }, { id: 'ABC' }, {}];
    const traces = calls.map((args, i) => JSON.stringify({ session_id: 's' + i,
      events: [{ type: 'tool_use', name: 'lookup', args }] })).join('\\n');
    const report = analyze([{ name: 'tools.json', role: 'catalog', data: JSON.stringify(tools) },
      { name: 't.jsonl', role: 'traces', data: traces }]);
    process.stdout.write(JSON.stringify(report.problems.map((p) => [p.session_id, p.message])));
  `;
  const run = spawnSync(process.execPath, ['-e', script], { cwd: process.cwd() });
  assert.equal(run.status, 0, run.stderr.toString());
  const problems = JSON.parse(run.stdout.toString()).sort();
  assert.deepEqual(problems, [
    ['s0', 'lookup: 7 is not of type "string"'],
    ['s2', 'lookup: "ABC" does not match "^[a-z]+$"'],
    ['s3', 'lookup: "id" is a required property'],
  ]);
});
