// Writes report-type.ts: each report the CLI prints for the cases (tests/npm/cases.mjs), assigned
// to `Report` as a literal, so that tsc checks the package's types against real output: a key the
// types do not declare is an error, as well as a wrong or missing one. The full demo report is
// in once (on one line, `demo_compact`: its turn outcomes hold sets of acceptable tools), not
// twice (megabytes of literal); its summary is in too.
// Usage: node write-report-types.mjs CLI ROOT OUT
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

import { CASES, cliArgs } from './cases.mjs';

const [cli, root, out] = process.argv.slice(2);
const lines = [
  "import type { Report, InputFile, AnalyzeOptions } from 'toolscope-eval';",
  "import { analyze } from 'toolscope-eval';",
  "const options: AnalyzeOptions = { argsMatch: 'subset', minSupport: 3, summary: false };",
  "const file: InputFile = { name: 'calls.json', role: 'traces', data: new Uint8Array() };",
  'export const fromAnalyze: Report = analyze([file], options);',
];
for (const [name, testCase] of Object.entries(CASES)) {
  if (name === 'demo_subset') continue;
  const run = spawnSync(cli, cliArgs(testCase), { cwd: root, maxBuffer: 1 << 30 });
  if (run.error || run.stdout.length === 0) {
    throw new Error(`${name}: the CLI printed no report: ${run.error ?? run.stderr}`);
  }
  lines.push(`export const ${name}: Report = ${run.stdout.toString('utf8').trim()};`);
}
writeFileSync(out, `${lines.join('\n')}\n`);
