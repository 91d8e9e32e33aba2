// Findings on the overview: the CLI's findings in its order, each with its fix and evidence as
// text, and each example one click from its call in its session.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, loadFiles, cliReport, DEMO, DEMO_ROLES, DEMO_PATHS } from './support.mjs';

const shared = useBrowser(before, after);

test('the overview lists the CLI findings in order, and an example opens its call', async () => {
  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  await loadFiles(page, DEMO_PATHS);
  const expected = JSON.parse(cliReport(DEMO, DEMO_ROLES)).findings;
  assert.ok(expected.length > 0, 'the demo has findings');

  const items = page.getByTestId('finding');
  const shown = Math.min(expected.length, 8);
  assert.equal(await items.count(), shown);
  for (let index = 0; index < shown; index += 1) {
    const item = items.nth(index);
    const finding = expected[index];
    assert.equal(await item.getAttribute('data-id'), finding.id);
    assert.equal(await item.locator('.finding-title').innerText(), finding.title);
    assert.equal(await item.locator('.finding-fix').innerText(), `Fix: ${finding.fix_detail}`);
  }
  if (expected.length > 8) {
    await page.getByRole('button', { name: `Show all ${expected.length} findings` }).click();
    assert.equal(await items.count(), expected.length);
  }

  // The first finding seen at a call opens that call in its session.
  const index = expected.findIndex((finding) => finding.examples.some((example) => example.step));
  assert.ok(index >= 0, 'a finding about calls');
  const example = expected[index].examples.find((candidate) => candidate.step);
  await items.nth(index).getByTestId('finding-example').first().click();
  assert.equal(await page.getByTestId('tab-session').getAttribute('aria-selected'), 'true');
  assert.equal(await page.getByTestId('session-title').innerText(), example.session_id);
  const call = page.locator(`[data-testid="call"][data-step="${example.step}"]`);
  await call.waitFor();
  assert.match(await call.getAttribute('class'), /\bfocused\b/);
  assert.deepEqual(errors, []);
});
