// Subagents on the page: a Claude Code session and its subagent's own file, dropped together,
// give the CLI's report, and the session view links the two sessions both ways (the subagent
// to its parent, the parent to its subagent at the call that started it).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  useBrowser, open, loadFiles, waitForReport, waitForText, card, cliReport, downloadText, ROOT,
} from './support.mjs';

const DIR = join(ROOT, 'crates', 'toolscope-core', 'tests', 'fixtures', 'formats', 'claude_code');
const MAIN = 'showcase.55550000-0000-4000-8000-000000000001.jsonl';
const AGENT = 'showcase.agent-showcol1.jsonl';
const PARENT_ID = '55550000-0000-4000-8000-000000000001';
const CHILD_ID = `${PARENT_ID}/agent-showcol1`;

const shared = useBrowser(before, after);

test('a subagent and its parent link to each other, as the CLI reports them', async () => {
  const expected = JSON.parse(cliReport(DIR, { traces: [MAIN, AGENT] }));
  const child = expected.sessions.find((row) => row.session_id === CHILD_ID);
  assert.deepEqual(child.parent, { session_id: PARENT_ID, call_id: 'toolu_sc_showcol1' });

  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  await loadFiles(page, [join(DIR, MAIN), join(DIR, AGENT)]);
  await waitForReport(page);
  const { text } = await downloadText(page, () => page.getByTestId('download-report-json').click());
  assert.deepEqual(JSON.parse(text), expected);

  await page.getByTestId('tab-session').click();
  await page.getByTestId('session-list').getByRole('button', { name: CHILD_ID }).click();
  const parentLink = page.getByTestId('parent-link');
  await parentLink.waitFor();
  assert.match(await parentLink.innerText(), /started by session 55550000-0000-4000-8000-000000000001 \(its call toolu_sc_showcol1\)/);

  await parentLink.getByRole('button', { name: PARENT_ID }).click();
  await page.getByTestId('subagents').waitFor();
  assert.equal(await page.getByTestId('session-title').innerText(), PARENT_ID);
  // Listed once under the title, and once more at the Agent call that started it.
  const atCall = page.locator('[data-testid="call"] [data-testid="subagent-link"]');
  assert.equal(await atCall.count(), 1);
  const call = page.locator('[data-testid="call"]:has([data-testid="subagent-link"])');
  assert.match(await call.innerText(), /Survey src\/web/);
  await atCall.click();
  await parentLink.waitFor();
  assert.equal(await page.getByTestId('session-title').innerText(), CHILD_ID);
  assert.deepEqual(errors, []);
});

test('the agent filter separates the main agent from its subagents', async () => {
  const expected = JSON.parse(cliReport(DIR, { traces: [MAIN, AGENT] }));
  const agents = [...new Set(expected.sessions.map((row) => row.agent_id))].sort();
  assert.deepEqual(agents, ['claude-code', 'claude-code/general-purpose']);
  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  await loadFiles(page, [join(DIR, MAIN), join(DIR, AGENT)]);
  await waitForReport(page);
  for (const agent of agents) {
    await page.getByTestId('filter-agent').selectOption(agent);
    const mine = expected.sessions.filter((row) => row.agent_id === agent);
    const calls = mine.reduce((sum, row) => sum + row.calls, 0);
    await waitForText(page.getByTestId('ov-sessions').getByTestId('value'), String(mine.length));
    assert.equal((await card(page, 'ov-calls')).value, String(calls), agent);
  }
  assert.deepEqual(errors, []);
});
