// Real exports of each trace family, dropped on the page, give the CLI's report for the same file.
// The files are the engine's reader fixtures (public samples; sources and licences beside them).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import {
  useBrowser, open, loadFiles, cliReport, downloadText, ROOT,
} from './support.mjs';

const FORMATS = join(ROOT, 'crates', 'toolscope-core', 'tests', 'fixtures', 'formats');

/**
 * One real sample per family (the first data file of each fixture directory that is not one of
 * toolscope's hand-made files, `*_toolscope.*`; the first of all when every one is), and every
 * binary `.eval` archive (Inspect), which the page reads as bytes like any other file.
 */
function samples() {
  if (!existsSync(FORMATS)) return [];
  return readdirSync(FORMATS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('same_conversation'))
    .flatMap((entry) => {
      const files = readdirSync(join(FORMATS, entry.name))
        .filter((name) => /\.(json|jsonl|eval|traj)$/.test(name))
        .sort();
      const first = files.find((name) => !name.includes('_toolscope')) ?? files[0];
      const archives = files.filter((name) => name.endsWith('.eval') && name !== first);
      return [first, ...archives].filter(Boolean).map((name) => join(FORMATS, entry.name, name));
    });
}

const shared = useBrowser(before, after);

test('there is a real sample for each family', () => {
  assert.ok(samples().length >= 5, `samples: ${samples().join(', ')}`);
});

for (const path of samples()) {
  test(`the ${basename(dirname(path))} sample gives the CLI's report (${basename(path)})`, async () => {
    const errors = [];
    const page = await open(shared.browser, shared.server.url, errors);
    await loadFiles(page, [path]);
    const { text } = await downloadText(page, () => page.getByTestId('download-report-json').click());
    const expected = JSON.parse(cliReport(dirname(path), { traces: [basename(path)] }));
    const actual = JSON.parse(text);
    assert.ok(expected.summary.sessions > 0, 'the sample holds sessions');
    assert.deepEqual(actual, expected);
    assert.equal(actual.inputs[0].format, expected.inputs[0].format);
    assert.deepEqual(errors, []);
  });
}
