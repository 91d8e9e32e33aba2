// Engine benchmark (not a test): the engine's wasm in Node (V8, as in Chromium) without the page,
// run several times in one process, to tell a cold run from a warm one (docs/performance.md, "The
// engine in Node, cold and warm").
//
//   node bench/engine-node.mjs PACKAGE RUNS OPTIONS_JSON DIR [DIR...]
//
// PACKAGE is a folder laid out as packages/npm (its index.js and a pkg/ that `wasm-bindgen
// --target nodejs` wrote for crates/toolscope-wasm); each DIR holds toolscope-gen's files
// (sessions.jsonl, tools.json, rules.json, labels.jsonl). The DIRs are read in turn, RUNS times
// each, all in this one process: a small set first and a large one after it shows how much of a
// first run is the engine's memory growing rather than V8 compiling. Prints one line per run:
// the folder, the run, milliseconds and the report's length.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [packageDir, runs, optionsJson, ...dirs] = process.argv.slice(2);
if (!packageDir || !runs || !optionsJson || dirs.length === 0) {
  console.error('usage: node bench/engine-node.mjs PACKAGE RUNS OPTIONS_JSON DIR [DIR...]');
  process.exit(2);
}
const engine = createRequire(import.meta.url)(resolve(packageDir, 'index.js'));
const options = JSON.parse(optionsJson);

for (const dir of dirs) {
  const files = ['sessions.jsonl', 'tools.json', 'rules.json', 'labels.jsonl'].map((name) => ({
    name,
    data: readFileSync(join(dir, name)),
  }));
  for (let run = 1; run <= Number(runs); run++) {
    const started = process.hrtime.bigint();
    const json = engine.analyzeJson(files, options);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(`${dir} run ${run}: ${ms.toFixed(0)} ms, ${json.length} characters`);
  }
}
