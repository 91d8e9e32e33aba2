// A judge's verdicts file dropped beside the traces: detected by content, shown in the Judge tab
// with the CLI's numbers (passes over scored verdicts, the unscored apart), with human
// calibration, each verdict one click from its session, and the model's words as text.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, open, loadFiles, cli, FIXTURES } from './support.mjs';

let server;
let browser;
const errors = [];

before(async () => {
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

function verdict(session, criterion, outcome, reason) {
  return JSON.stringify({
    session_id: session, step: 1, tool: 'search_docs', criterion, verdict: outcome, reason,
    ...(outcome === 'unscored' ? { cause: 'truncated' } : {}),
    model: 'judge-model', template: { id: 'tool-call-v1', sha256: '00' }, prompt_sha256: '11',
  });
}

test('the Judge tab shows a verdicts file with the CLI numbers and its calibration', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-judge-'));
  copyFileSync(join(FIXTURES, 'seed', 'selection_sessions.jsonl'), join(dir, 'sessions.jsonl'));
  writeFileSync(join(dir, 'verdicts.jsonl'), [
    verdict('turn-2', 'args_grounded', 'pass', 'the query is the user\'s words'),
    verdict('turn-3', 'args_grounded', 'fail', '<img src=x onerror="window.__pwned=1">'),
    verdict('turn-4', 'args_grounded', 'unscored', 'cut'),
    verdict('turn-2', 'result_used', 'pass', 'ok'),
  ].join('\n') + '\n');
  writeFileSync(join(dir, 'humans.jsonl'), [
    { session_id: 'turn-2', step: 1, criterion: 'args_grounded', verdict: 'pass' },
    { session_id: 'turn-3', step: 1, criterion: 'args_grounded', verdict: 'pass' },
  ].map((line) => JSON.stringify(line)).join('\n') + '\n');
  const expected = JSON.parse(cli(
    ['report', '--json', '--verdicts', 'verdicts.jsonl', '--human-verdicts', 'humans.jsonl', 'sessions.jsonl'], dir,
  ));

  const page = await open(browser, server.url, errors);
  await loadFiles(page, ['sessions.jsonl', 'verdicts.jsonl', 'humans.jsonl'].map((name) => join(dir, name)));
  const summaries = await page.getByTestId('file-summary').allInnerTexts();
  assert.match(summaries[1], /^judge verdicts, 4 verdicts/);
  assert.match(summaries[2], /^human verdicts, 2 human verdicts/);

  await page.getByTestId('tab-judge').click();
  for (const row of expected.judge.summary.criteria) {
    const cells = page.locator(`[data-testid="judge-criteria"] tr[data-criterion="${row.criterion}"]`);
    const rate = row.pass_rate.rate === null ? 'n/a' : `${(row.pass_rate.rate * 100).toFixed(1)} %`;
    assert.equal(await cells.getByTestId('pass-rate').innerText(), rate, row.criterion);
    assert.equal(await cells.getByTestId('unscored').innerText(), String(row.unscored));
  }
  const grounded = expected.judge.calibration.criteria.find((row) => row.criterion === 'args_grounded');
  const kappa = grounded.kappa === null ? '–' : grounded.kappa.toFixed(3);
  assert.equal(await page.locator('[data-testid="judge-calibration"] tr[data-criterion="args_grounded"]')
    .getByTestId('kappa').innerText(), kappa);
  assert.match(await page.getByTestId('judge-warnings').innerText(), /fewer than 50/);

  // The model's words are text, and each verdict opens its session.
  await page.getByText('<img src=x onerror="window.__pwned=1">').waitFor();
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  await page.getByTestId('judge-verdict').nth(1).getByRole('button', { name: 'turn-3' }).click();
  assert.equal(await page.getByTestId('tab-session').getAttribute('aria-selected'), 'true');
  assert.deepEqual(errors, []);
});

test('without verdicts the Judge tab offers to run the judge', async () => {
  const page = await open(browser, server.url, errors);
  await loadFiles(page, [join(FIXTURES, 'seed', 'selection_sessions.jsonl')]);
  await page.getByTestId('tab-judge').click();
  await page.getByTestId('judge-run').waitFor();
  assert.match(await page.getByTestId('judge-empty').innerText(), /^No judge verdicts: run the judge above/);
  assert.deepEqual(errors, []);
});
