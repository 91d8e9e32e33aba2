// The view and the filters live in the URL: a reload or a copied link returns to the same place,
// the filters apply to every view, and the site works under any base path.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  serve, launch, open, waitForReport, waitForText, cliReport, card, DEMO, DEMO_ROLES, DIST,
} from './support.mjs';

let browser;
let expected;

before(async () => {
  browser = await launch();
  expected = JSON.parse(cliReport(DEMO, DEMO_ROLES));
});

after(async () => {
  await browser?.close();
});

test('filters and view survive a reload and apply to every view', async () => {
  const server = await serve();
  try {
    const page = await open(browser, server.url);
    await page.getByTestId('demo-button').click();
    await waitForReport(page);
    const agent = 'research-v1';
    await page.getByTestId('filter-agent').selectOption(agent);
    const mine = expected.sessions.filter((row) => row.agent_id === agent);
    const calls = mine.reduce((sum, row) => sum + row.calls, 0);
    await waitForText(page.getByTestId('ov-sessions').getByTestId('value'), String(mine.length));
    assert.equal((await card(page, 'ov-calls')).value, String(calls));

    await page.getByTestId('tab-problems').click();
    const problems = mine.reduce((sum, row) => sum + row.problems, 0);
    assert.equal(await page.getByTestId('problem-count').innerText(), `${problems} problems`);
    assert.match(page.url(), /view=problems/);
    assert.match(page.url(), /agent=research-v1/);

    // A copied link (here: the same URL in a new tab) returns to the same place.
    const copy = await open(browser, page.url());
    await waitForReport(copy);
    assert.equal(await copy.getByTestId('problem-count').innerText(), `${problems} problems`);
    assert.equal(await copy.getByTestId('filter-agent').inputValue(), agent);

    await copy.getByTestId('filter-kind').selectOption('schema');
    const schema = mine.reduce((sum, row) => sum + (row.problems_by_kind.schema ?? 0), 0);
    await waitForText(copy.getByTestId('problem-count'), `${schema} problems`);
    const rows = await copy.getByTestId('problem-row').evaluateAll((rows) => rows.map((row) => row.dataset.kind));
    assert.ok(rows.length > 0 && rows.every((kind) => kind === 'schema'), rows.join());
    await copy.reload();
    await copy.getByTestId('version').waitFor();
    await waitForReport(copy);
    assert.equal(await copy.getByTestId('filter-kind').inputValue(), 'schema');
  } finally {
    await server.close();
  }
});

test('the static site works under a base path', async () => {
  const server = await serve(DIST, '/some/deep/base/');
  try {
    const errors = [];
    const page = await open(browser, server.url, errors);
    await page.getByTestId('demo-button').click();
    await waitForReport(page);
    assert.equal((await card(page, 'ov-sessions')).value, String(expected.summary.sessions));
    assert.deepEqual(errors, []);
  } finally {
    await server.close();
  }
});
