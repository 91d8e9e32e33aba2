// The comparison view on the demo (three agents): one agent against another as toolscope diff
// compares runs, values checked against the CLI report's own turns; the confusion cells that
// changed; every metric per agent; the sides kept in the URL.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, loadFiles, cliReport, DEMO, DEMO_ROLES, DEMO_PATHS } from './support.mjs';

const shared = useBrowser(before, after);

/** Tool accuracy of one agent's labelled turns, from the CLI report. */
function accuracy(report, agent) {
  const turns = report.selection.outcomes.filter((outcome) => outcome.agent_id === agent);
  return { right: turns.filter((outcome) => outcome.is_correct).length, total: turns.length };
}

test('comparing two agents gives each its own numbers, unpaired, with a verdict', async () => {
  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  await loadFiles(page, DEMO_PATHS);
  const report = JSON.parse(cliReport(DEMO, DEMO_ROLES));
  const agents = [...new Set(report.sessions.map((session) => session.agent_id).filter(Boolean))].sort();
  assert.ok(agents.length >= 2, 'the demo has several agents');

  await page.getByTestId('tab-compare').click();
  await page.getByTestId('compare-base').selectOption(agents[0]);
  await page.getByTestId('compare-current').selectOption(agents[1]);
  assert.match(page.url(), new RegExp(`compare=${agents[0]}%7E${agents[1]}`));
  const row = page.locator('[data-testid="compare-metrics"] tr[data-metric="selection.tool_accuracy"]');
  await row.waitFor();
  const cells = await row.locator('td').allInnerTexts();
  const [base, current] = [accuracy(report, agents[0]), accuracy(report, agents[1])];
  const shown = ({ right, total }) => `${(right / total).toFixed(3)} (${right}/${total})`;
  assert.equal(cells[1], shown(base));
  assert.equal(cells[2], shown(current));
  const difference = current.right / current.total - base.right / base.total;
  assert.equal(cells[3], `${difference >= 0 ? '+' : ''}${difference.toFixed(3)}`);
  assert.match(cells[5], /^two_proportion p=/, 'different sessions: unpaired');
  assert.ok(['worse', 'better', 'no significant change', 'too few cases'].includes(cells[6]), cells[6]);

  // Every metric per agent: the same accuracy in each agent's column.
  const perAgent = page.locator('[data-testid="agent-metrics"] tr[data-metric="selection.tool_accuracy"] td');
  const values = await perAgent.allInnerTexts();
  agents.forEach((agent, index) => assert.equal(values[index + 1], shown(accuracy(report, agent))));

  // The confusion cells that changed: each side's share of the labelled tool's turns.
  const confusion = page.locator('[data-testid="compare-confusion"] tbody tr');
  assert.ok(await confusion.count() > 0, 'the agents confuse different tools');
  const share = (agent, expected, actual) => {
    const turns = report.selection.outcomes.filter((o) => o.agent_id === agent && o.counted_as === expected);
    const hits = turns.filter((o) => o.actual_tool === actual).length;
    return { text: `${(hits / turns.length * 100).toFixed(1)} % (${hits})`, value: hits / turns.length * 100 };
  };
  for (let index = 0; index < Math.min(3, await confusion.count()); index += 1) {
    const [expected, actual, before, after, change] = await confusion.nth(index).locator('td').allInnerTexts();
    const [b, a] = [share(agents[0], expected, actual), share(agents[1], expected, actual)];
    assert.equal(before, b.text);
    assert.equal(after, a.text);
    assert.equal(change, `${a.value - b.value >= 0 ? '+' : ''}${(a.value - b.value).toFixed(1)}`);
  }

  // A reload keeps the sides.
  await page.reload();
  await loadFiles(page, DEMO_PATHS);
  assert.equal(await page.getByTestId('compare-base').inputValue(), agents[0]);
  assert.equal(await page.getByTestId('compare-current').inputValue(), agents[1]);
  assert.deepEqual(errors, []);
});

/**
 * The demo as a baseline report (the summary report with `summary`) and a current run where every
 * third session calls search_docs for lookup_order, loaded in a page with the Compare tab open;
 * with what `toolscope diff --json` says of the same two.
 */
async function baselineAndRun(summary) {
  const { mkdtempSync, readFileSync, writeFileSync, copyFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { cli } = await import('./support.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-compare-'));
  for (const name of ['tools.json', 'rules.json', 'labels.jsonl', 'sessions.jsonl']) copyFileSync(join(DEMO, name), join(dir, name));
  const inputs = ['--tools', 'tools.json', '--rules', 'rules.json', '--labels', 'labels.jsonl'];
  const detail = summary ? ['--summary'] : [];
  writeFileSync(join(dir, 'base.json'), cli(['report', '--json', ...detail, ...inputs, 'sessions.jsonl'], dir));
  const lines = readFileSync(join(dir, 'sessions.jsonl'), 'utf8').split('\n');
  writeFileSync(join(dir, 'current.jsonl'), lines
    .map((line, index) => (index % 3 === 0 ? line.replaceAll('"lookup_order"', '"search_docs"') : line)).join('\n'));
  const expected = JSON.parse(cli(['diff', '--json', ...inputs, 'base.json', 'current.jsonl'], dir));

  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  await loadFiles(page, ['tools.json', 'rules.json', 'labels.jsonl', 'current.jsonl', 'base.json'].map((name) => join(dir, name)));
  const summaries = await page.getByTestId('file-summary').allInnerTexts();
  assert.match(summaries[4], /^baseline report/);
  await page.getByTestId('tab-compare').click();
  assert.equal(await page.getByTestId('compare-base').inputValue(), '+baseline');
  await page.locator('[data-testid="compare-metrics"] tbody tr').first().waitFor();
  return { page, errors, expected };
}

/** Every metric row of the Compare tab against toolscope diff's. */
async function assertRowsAsDiff(page, expected) {
  const value = (side) => (side === null ? '—'
    : side.value === null ? `— (0/${side.den})` : `${side.value.toFixed(3)} (${side.num}/${side.den})`);
  const verdicts = {
    worse: 'worse', better: 'better', no_significant_change: 'no significant change', too_few_cases: 'too few cases',
    not_in_both: 'not in both runs', not_tested: 'not tested (summary report)',
  };
  for (const metric of expected.metrics) {
    const cells = await page.locator(`[data-testid="compare-metrics"] tr[data-metric="${metric.metric}"] td`).allInnerTexts();
    assert.equal(cells[1], value(metric.base), metric.metric);
    assert.equal(cells[2], value(metric.current), metric.metric);
    if (metric.interval) {
      const [low, high] = metric.interval.map((bound) => `${bound >= 0 ? '+' : ''}${bound.toFixed(3)}`);
      assert.equal(cells[4], `[${low}, ${high}]`, metric.metric);
    }
    assert.equal(cells[6], verdicts[metric.verdict], metric.metric);
  }
}

test('a baseline report dropped beside the traces is compared as toolscope diff compares them', async () => {
  const { page, errors, expected } = await baselineAndRun(false);
  await assertRowsAsDiff(page, expected);
  const worse = expected.regressed.length;
  assert.ok(worse > 0, 'turns got worse');
  assert.match(await page.getByRole('heading', { name: /^Cases that got worse/ }).innerText(), new RegExp(`\\(${worse}\\)$`));
  assert.deepEqual(errors, []);
});

test('a summary report as the baseline is compared from its totals, as toolscope diff compares it', async () => {
  const { page, errors, expected } = await baselineAndRun(true);
  assert.ok(expected.metrics.some((metric) => metric.verdict === 'not_tested'), 'ratios are not tested');
  assert.ok(expected.metrics.some((metric) => metric.test === 'two_proportion'), 'yes/no metrics are');
  await assertRowsAsDiff(page, expected);
  assert.deepEqual(await page.getByTestId('compare-note').allInnerTexts(), expected.notes);
  assert.equal(expected.regressed.length, 0, 'nothing pairs');
  assert.equal(await page.getByRole('heading', { name: /^Cases that got worse/ }).count(), 0);
  assert.deepEqual(errors, []);
});
