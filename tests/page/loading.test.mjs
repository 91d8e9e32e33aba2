// Getting files in: dropped files with broken records still load with every diagnostic listed
// (as the CLI reports them), roles are detected and can be changed, files can be removed and
// pasted, and trace text is shown as text, never as HTML.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  useBrowser, open, waitForReport, cliReport, card, dropFiles, FIXTURES,
} from './support.mjs';

const shared = useBrowser(before, after);

const fixture = async (dir, name) => ({ name, text: await readFile(join(FIXTURES, dir, name), 'utf8') });

test('a dropped broken file shows each diagnostic with its line while the rest loads', async () => {
  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  await dropFiles(page, [
    await fixture('seed', 'tools.json'),
    await fixture('bad', 'sessions.jsonl'),
    await fixture('bad', 'labels.jsonl'),
  ]);
  await waitForReport(page);
  const dir = join(FIXTURES, 'bad');
  const expected = JSON.parse(
    cliReport(dir, { tools: ['../seed/tools.json'], traces: ['sessions.jsonl'], labels: ['labels.jsonl'] })
      .replaceAll('../seed/tools.json', 'tools.json'),
  );
  assert.ok(expected.diagnostics.length >= 5, 'the fixture is broken in several ways');
  assert.equal((await card(page, 'ov-sessions')).value, String(expected.summary.sessions));
  assert.equal((await card(page, 'ov-calls')).value, String(expected.summary.calls));

  await page.getByTestId('diagnostics-link').click();
  const places = await page.getByTestId('diagnostic-place').allInnerTexts();
  const messages = await page.getByTestId('diagnostic-message').allInnerTexts();
  const place = (d) => (d.line == null ? d.file : d.column == null ? `${d.file}:${d.line}` : `${d.file}:${d.line}:${d.column}`);
  assert.deepEqual(places, expected.diagnostics.map(place));
  assert.deepEqual(messages, expected.diagnostics.map((d) => d.message));
  assert.ok(places.some((p) => p.startsWith('sessions.jsonl:2:')), `the non-JSON line is located: ${places}`);
  assert.deepEqual(errors, []);
});

test('roles are detected from content, shown with counts, and can be changed', async () => {
  const page = await open(shared.browser, shared.server.url);
  // Names that say nothing: detection must read the content.
  const tools = await fixture('seed', 'tools.json');
  const labels = await fixture('seed', 'selection_labels.jsonl');
  const sessions = await fixture('seed', 'selection_sessions.jsonl');
  await dropFiles(page, [
    { name: 'a.txt', text: tools.text },
    { name: 'b.txt', text: labels.text },
    { name: 'c.txt', text: sessions.text },
  ]);
  await waitForReport(page);
  const summaries = await page.getByTestId('file-summary').allInnerTexts();
  assert.match(summaries[0], /^tool catalog, 2 tools/);
  assert.match(summaries[1], /^labels, 6 turns/);
  assert.match(summaries[2], /^traces \(native\), 6 sessions/);
  await page.getByTestId('tab-selection').click();
  await page.getByTestId('per-tool').waitFor();

  // Declaring the labels file to be traces is obeyed (and then it holds no sessions).
  await page.getByTestId('role-select').nth(1).selectOption('traces');
  await waitForReport(page);
  const relabelled = await page.getByTestId('file-summary').nth(1).innerText();
  assert.match(relabelled, /^traces.*chosen by you$/);
  assert.equal(await page.getByTestId('no-labels').count(), 1);

  // Removing a file analyses the rest.
  await page.getByTestId('remove-file').nth(1).click();
  await waitForReport(page);
  assert.equal(await page.getByTestId('file-row').count(), 2);
});

test('pasted JSON is analysed like a file', async () => {
  const page = await open(shared.browser, shared.server.url);
  const calls = await fixture('seed', 'calls.json');
  await page.getByText('Paste JSON').click();
  await page.getByTestId('paste-input').fill(calls.text);
  await page.getByTestId('paste-add').click();
  await waitForReport(page);
  assert.deepEqual(await page.getByTestId('file-name').allInnerTexts(), ['pasted-1.json']);
  assert.equal((await card(page, 'ov-calls')).value, '2');
});

test('trace text that looks like HTML is shown as text and never becomes markup', async () => {
  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
  const session = {
    session_id: 'hostile',
    agent_id: '<b>agent</b>',
    events: [
      { type: 'user', content: hostile },
      { type: 'tool_use', name: '<svg onload=alert(1)>', args: { q: hostile } },
      { type: 'tool_result', status: 'error', content: hostile },
      { type: 'assistant', content: hostile },
    ],
  };
  await dropFiles(page, [{ name: 'hostile.jsonl', text: JSON.stringify(session) + '\n' }]);
  await waitForReport(page);
  for (const tab of ['tab-overview', 'tab-problems', 'tab-session', 'tab-inputs']) {
    await page.getByTestId(tab).click();
  }
  await page.getByTestId('tab-session').click();
  await page.getByTestId('session-list').getByRole('button', { name: 'hostile' }).click();
  await page.getByTestId('timeline').waitFor();
  const text = await page.getByTestId('timeline').innerText();
  assert.ok(text.includes(hostile), 'the text is shown verbatim');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('.timeline img, .timeline script, .timeline svg, .app b').count(), 0);
  assert.deepEqual(errors, []);
});

test('a trace format chosen in the page is used for the trace files', async () => {
  const page = await open(shared.browser, shared.server.url);
  await dropFiles(page, [await fixture('seed', 'selection_sessions.jsonl')]);
  await waitForReport(page);
  assert.match(await page.getByTestId('file-summary').innerText(), /^traces \(native\), 6 sessions/);
  await page.getByTestId('format-select').selectOption('openai_chat');
  await waitForReport(page);
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="file-summary"]')?.textContent.startsWith('traces (openai_chat)'),
  );
  await page.getByTestId('format-select').selectOption('');
  await waitForReport(page);
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="file-summary"]')?.textContent.startsWith('traces (native)'),
  );
});
