// Task actions on the page: τ-bench runs carry their tasks' actions; the overview's card and
// table give the CLI's numbers, and a session lists each action with the call that matched it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useBrowser, open, loadFiles, cliReport, card, percent, ROOT } from './support.mjs';

const DIR = join(ROOT, 'crates', 'toolscope-core', 'tests', 'fixtures', 'formats', 'tau_bench');
const RUNS = 'gpt-4o-airline.subset3.json';

const shared = useBrowser(before, after);

test('task actions: the card and table give the CLI numbers, each row opens its session', async () => {
  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  await loadFiles(page, [join(DIR, RUNS)]);
  const expected = JSON.parse(cliReport(DIR, { traces: [RUNS] })).tasks;
  assert.ok(expected.actions.total > 0, 'the runs carry task actions');

  const shown = await card(page, 'ov-task-actions');
  assert.equal(shown.value, percent(expected.actions.rate));
  assert.equal(
    shown.detail,
    `${expected.actions.count} of ${expected.actions.total} actions matched; ` +
      `${expected.sessions_all_matched.count} of ${expected.sessions_all_matched.total} sessions with every action`,
  );

  const rows = page.getByTestId('task-actions').locator('tbody tr');
  assert.equal(await rows.count(), expected.outcomes.length);
  // Sessions that missed an action come first.
  const firstId = await rows.first().getAttribute('data-session');
  const first = expected.outcomes.find((outcome) => outcome.session_id === firstId);
  assert.ok(first.actions.some((check) => !check.matched), `${firstId} missed an action`);

  // The complete session: its row opens it, and its action names the call that matched it.
  const complete = expected.outcomes.find((outcome) => outcome.actions.every((check) => check.matched));
  await page.getByTestId('task-actions').locator(`tr[data-session="${complete.session_id}"] button`).click();
  await page.getByTestId('session-title').waitFor();
  assert.equal(await page.getByTestId('session-title').innerText(), complete.session_id);
  const items = page.getByTestId('session-task').getByTestId('task-action');
  await items.first().waitFor();
  assert.equal(await items.count(), complete.actions.length);
  const action = complete.actions[0];
  assert.equal(await items.first().innerText(), `${action.name} — matched by call ${action.step}`);
  const call = page.locator(`[data-testid="call"][data-step="${action.step}"] .tool-name`);
  assert.equal(await call.innerText(), action.name);
  assert.deepEqual(errors, []);
});

test('repeated trials: pass^k, pass@k and τ-bench\'s own pass^k as the CLI gives them', async () => {
  const errors = [];
  const dir = join(ROOT, 'crates', 'toolscope-core', 'tests', 'fixtures', 'trials');
  const runs = 'gpt-4o-airline.subset12.json';
  const page = await open(shared.browser, shared.server.url, errors);
  await loadFiles(page, [join(dir, runs)]);
  const expected = JSON.parse(cliReport(dir, { traces: [runs] })).trials;
  assert.match(await page.getByTestId('trials-summary').innerText(),
    new RegExp(`^${expected.trials} trials of ${expected.tasks} tasks, ${expected.successes} succeeded`));
  const rows = page.getByTestId('trials').locator('tbody tr');
  assert.equal(await rows.count(), expected.pass_hat_k.length);
  for (const [index, hat] of expected.pass_hat_k.entries()) {
    const cells = await rows.nth(index).locator('td').allInnerTexts();
    assert.deepEqual(cells, [
      String(hat.k), hat.value.toFixed(3), expected.pass_at_k[index].value.toFixed(3), String(hat.tasks),
      expected.tau_bench_pass_hat_k[index].value.toFixed(3),
    ]);
  }
  assert.deepEqual(errors, []);
});
