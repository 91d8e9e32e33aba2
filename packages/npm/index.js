'use strict';
// toolscope's engine in WebAssembly (crates/toolscope-wasm, built by `wasm-bindgen --target
// nodejs` into pkg/). docs/npm.md has the API; index.d.ts the types.

// The engine draws the seeds of its hash maps (and jsonschema its own) from Web Crypto's
// `crypto.getRandomValues`, which Node puts on globalThis from version 19 only (18 has it behind
// --experimental-global-webcrypto): without it the engine would stop at the first schema. Node's
// own Web Crypto is the same object, so it is lent to globalThis when nothing is there.
if (typeof globalThis.crypto?.getRandomValues !== 'function') {
  Object.defineProperty(globalThis, 'crypto', {
    value: require('node:crypto').webcrypto,
    configurable: true,
    writable: true,
  });
}

const native = require('./pkg/toolscope_wasm.js');

const encoder = new TextEncoder();

/** The report JSON, byte for byte what `toolscope report --json` prints for the same files. */
function analyzeJson(files, options = {}) {
  if (!Array.isArray(files)) {
    throw new TypeError('analyze: files must be an array of {name, data, role?}');
  }
  const analyzer = new native.Analyzer();
  let isDone = false;
  try {
    files.forEach((file, index) => {
      if (file === null || typeof file !== 'object' || typeof file.name !== 'string') {
        throw new TypeError(`analyze: files[${index}] must be {name: string, data, role?}`);
      }
      const data = typeof file.data === 'string' ? encoder.encode(file.data) : file.data;
      if (!(data instanceof Uint8Array)) {
        throw new TypeError(`analyze: files[${index}].data must be a string or a Uint8Array`);
      }
      analyzer.add(file.name, file.role ?? undefined, data);
    });
    const json = analyzer.reportJson(JSON.stringify(options ?? {}));
    isDone = true;
    return json;
  } finally {
    // After the engine stopped mid-call, wasm-bindgen still counts the analyzer as borrowed and
    // free() throws about that: the error that stopped the engine is the one to see.
    try {
      analyzer.free();
    } catch (error) {
      if (isDone) throw error;
    }
  }
}

/** The report `toolscope report --json` prints for the same files, as an object. */
function analyze(files, options = {}) {
  // Only parsed here: on one line the JSON is 60 % of the bytes, quicker to write and read.
  return JSON.parse(analyzeJson(files, { ...options, compact: true }));
}

/** Whether the CLI would exit with 2 for this report: an input diagnostic of severity error. */
function hasInputErrors(report) {
  return report.diagnostics.some((diagnostic) => diagnostic.severity === 'error');
}

module.exports = { analyze, analyzeJson, hasInputErrors };
