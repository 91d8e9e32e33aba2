// Input built to cost too much: the page stays bounded and says so, with the CLI's numbers.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, open, loadFiles, cliReport, waitForText } from './support.mjs';

let server;
let browser;
let page;
const errors = [];

before(async () => {
  server = await serve();
  browser = await launch();
  page = await open(browser, server.url, errors);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('forty tools draw thirty in the heatmap and one row for the rest, whose cell lists its turns', async () => {
  // t00..t29 are called right 5 times each, t30..t39 once each: the ten quiet ones are grouped.
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-many-tools-'));
  const sessions = [];
  const labels = [];
  for (let tool = 0; tool < 40; tool += 1) {
    const name = `t${String(tool).padStart(2, '0')}`;
    for (let repeat = 0; repeat < (tool < 30 ? 5 : 1); repeat += 1) {
      const id = `${name}-${repeat}`;
      sessions.push(JSON.stringify({
        session_id: id,
        events: [
          { type: 'user', content: 'go' },
          { type: 'tool_use', call_id: 'c', name, args: {} },
        ],
      }));
      labels.push(JSON.stringify({ session_id: id, turn: 0, expected_tool: name }));
    }
  }
  writeFileSync(join(dir, 'sessions.jsonl'), `${sessions.join('\n')}\n`);
  writeFileSync(join(dir, 'labels.jsonl'), `${labels.join('\n')}\n`);
  const expected = JSON.parse(cliReport(dir, { traces: ['sessions.jsonl'], labels: ['labels.jsonl'] }));
  assert.equal(expected.selection.confusion.labels.length, 40, 'the report keeps every tool');

  // Room for a grid of 31 cells of at least 28 pixels.
  await page.setViewportSize({ width: 1600, height: 1600 });
  await loadFiles(page, [join(dir, 'sessions.jsonl'), join(dir, 'labels.jsonl')]);
  await page.getByTestId('tab-selection').click();
  const canvas = page.getByTestId('heatmap');
  await canvas.waitFor();
  assert.match(
    await page.getByTestId('heatmap-grouped').innerText(),
    /^10 tools with the fewest turns share the last row and column/,
  );
  // Every cell is still in the list, grouped or not.
  assert.equal(await page.getByTestId('cell').count(), expected.selection.confusion.cells.length);

  // The last cell of the grid: other → other, the ten quiet tools' turns.
  const originX = Number(await canvas.getAttribute('data-origin-x'));
  const originY = Number(await canvas.getAttribute('data-origin-y'));
  const size = Number(await canvas.getAttribute('data-cell-size'));
  await canvas.click({ position: { x: originX + size * 30.5, y: originY + size * 30.5 } });
  await waitForText(page.getByTestId('cell-title'), 'Expected other (10 tools), called other (10 tools): 10 turns');
  const shown = await page.locator('[data-testid="cell-turn"] td:first-child').allInnerTexts();
  const behind = expected.selection.outcomes
    .filter((outcome) => Number(outcome.counted_as.slice(1)) >= 30)
    .map((outcome) => outcome.session_id);
  assert.deepEqual(shown.sort(), behind.sort());
  assert.deepEqual(errors, []);
});
