// Acceptable-value labels (BFCL's possible answers) on the page: a wrong argument is explained
// in the session's turn label with the CLI's words.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  useBrowser, open, dropFiles, waitForReport, cliReport, loadFiles, downloadText, ROOT,
} from './support.mjs';

const shared = useBrowser(before, after);

const tools = [{
  name: 'get_weather',
  input_schema: {
    type: 'object',
    required: ['city'],
    properties: { city: { type: 'string' }, days: { type: 'integer' } },
  },
}];

function session(id, args) {
  return JSON.stringify({
    session_id: id,
    tools,
    events: [
      { type: 'user', content: 'Weather in New York for 3 days?' },
      { type: 'tool_use', call_id: 'c1', name: 'get_weather', args },
      { type: 'tool_result', call_id: 'c1', content: 'sunny' },
    ],
  });
}

const FILES = {
  'sessions.jsonl': [
    session('right', { city: 'new york, ny', days: 3 }),
    session('wrong', { city: 'Boston', days: 3 }),
  ].join('\n') + '\n',
  'labels.jsonl': ['right', 'wrong']
    .map((id) => JSON.stringify({
      session_id: id,
      expected_tool: 'get_weather',
      acceptable_args: { city: ['New York, NY', 'NYC'], days: ['', 3] },
    }))
    .join('\n') + '\n',
};

test('acceptable values: the turn label says which argument is wrong, as the CLI does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-args-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  const expected = JSON.parse(cliReport(dir, { traces: ['sessions.jsonl'], labels: ['labels.jsonl'] }));
  const byId = Object.fromEntries(expected.selection.outcomes.map((o) => [o.session_id, o]));
  assert.equal(byId.right.args_exact, true, 'BFCL standardises "new york, ny"');
  assert.equal(byId.wrong.args_exact, false);
  assert.match(byId.wrong.args_mismatch, /"city": "Boston" is not an acceptable value/);

  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  await dropFiles(page, Object.entries(FILES).map(([name, text]) => ({ name, text })));
  await waitForReport(page);
  await page.getByTestId('tab-session').click();
  await page.getByTestId('session-list').getByRole('button', { name: 'wrong' }).click();
  const label = page.getByTestId('turn-label');
  await label.waitFor();
  assert.equal(
    await label.innerText(),
    `label: expected get_weather, called get_weather (correct); arguments: ${byId.wrong.args_mismatch}`,
  );
  assert.deepEqual(errors, []);
});

test('a BFCL run (questions, a result file, possible answers) gives the CLI report', async () => {
  const dir = join(ROOT, 'crates', 'toolscope-core', 'tests', 'fixtures', 'formats', 'bfcl');
  const files = [
    'BFCL_v4_simple_python.head3.json',
    'BFCL_v4_simple_python_result.sample.json',
    'possible_answer.BFCL_v4_simple_python.head3.json',
  ];
  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  await loadFiles(page, files.map((name) => join(dir, name)));
  const { text } = await downloadText(page, () => page.getByTestId('download-report-json').click());
  const expected = JSON.parse(cliReport(dir, { traces: files }));
  assert.deepEqual(JSON.parse(text), expected);
  const verdicts = expected.selection.outcomes.map((o) => [o.session_id, o.args_exact]);
  assert.deepEqual(verdicts, [['simple_python_0', true], ['simple_python_1', true], ['simple_python_2', false]]);
  assert.deepEqual(errors, []);
});
