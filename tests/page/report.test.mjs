// The report the page computes equals the CLI's for the same files: the overview's numbers, the
// downloaded report JSON, and the turns behind a heatmap cell.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  serve, launch, open, loadFiles, cliReport, card, downloadText, percent,
  DEMO, DEMO_ROLES, DEMO_PATHS,
} from './support.mjs';

let server;
let browser;
let page;
let expected;
const errors = [];

before(async () => {
  server = await serve();
  browser = await launch();
  page = await open(browser, server.url, errors);
  await loadFiles(page, DEMO_PATHS);
  expected = JSON.parse(cliReport(DEMO, DEMO_ROLES));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('the overview shows the same numbers as the CLI for the same files', async () => {
  const summary = expected.summary;
  assert.equal((await card(page, 'ov-sessions')).value, String(summary.sessions));
  assert.equal((await card(page, 'ov-calls')).value, String(summary.calls));
  const withProblems = await card(page, 'ov-calls-with-problems');
  assert.equal(withProblems.value, percent(summary.calls_with_problems.rate));
  assert.equal(withProblems.detail, `${summary.calls_with_problems.count} of ${summary.calls}`);
  const sessions = await card(page, 'ov-sessions-with-problems');
  assert.match(sessions.detail, new RegExp(`^${summary.sessions_with_problems.count} of ${summary.sessions};`));
  const errorsCard = await card(page, 'ov-tool-errors');
  const counts = summary.tool_errors;
  assert.match(
    errorsCard.detail,
    new RegExp(`^${counts.errors} of ${counts.results} results: agent ${counts.agent}, environment ${counts.environment}, unattributed ${counts.unattributed}`),
  );
  const unhandled = await card(page, 'ov-unhandled');
  assert.equal(unhandled.detail, `${summary.by_kind.unhandled_error.calls} of ${summary.calls} calls`);
  const retries = await card(page, 'ov-retries');
  assert.equal(retries.detail, `${summary.by_kind.retry_after_error.calls} of ${summary.calls} calls`);
  const accuracy = await card(page, 'ov-selection-accuracy');
  const rate = expected.selection.tool_accuracy;
  assert.equal(accuracy.value, percent(rate.rate));
  assert.equal(accuracy.detail, `${rate.count} of ${rate.total} labelled turns`);
  for (const [kind, count] of Object.entries(summary.by_kind)) {
    const cells = await page.locator(`[data-testid="by-kind"] tr[data-kind="${kind}"] td`).allInnerTexts();
    assert.deepEqual(cells.slice(1), [count.problems, count.calls, count.sessions].map(String), kind);
  }
  assert.deepEqual(errors, []);
});

test('the downloaded report JSON is exactly what toolscope report --json prints', async () => {
  const { name, text } = await downloadText(page, () => page.getByTestId('download-report-json').click());
  assert.equal(name, 'toolscope-report.json');
  const cliText = cliReport(DEMO, DEMO_ROLES);
  assert.deepEqual(JSON.parse(text), JSON.parse(cliText));
  // One serialiser on both sides: even the bytes agree.
  assert.equal(text, cliText);
});

test('clicking a heatmap cell lists exactly the turns behind it', async () => {
  await page.getByTestId('tab-selection').click();
  const canvas = page.getByTestId('heatmap');
  await canvas.waitFor();
  const { labels } = expected.selection.confusion;
  const pair = expected.selection.confused_pairs[0];
  const row = labels.indexOf(pair.expected);
  const column = labels.indexOf(pair.actual);
  const originX = Number(await canvas.getAttribute('data-origin-x'));
  const originY = Number(await canvas.getAttribute('data-origin-y'));
  const size = Number(await canvas.getAttribute('data-cell-size'));
  await canvas.click({ position: { x: originX + size * (column + 0.5), y: originY + size * (row + 0.5) } });
  const title = await page.getByTestId('cell-title').innerText();
  assert.equal(title, `Expected ${pair.expected}, called ${pair.actual}: ${pair.count} turn${pair.count === 1 ? '' : 's'}`);
  const shown = await page.locator('[data-testid="cell-turn"] td:first-child').allInnerTexts();
  const behind = expected.selection.outcomes
    .filter((outcome) => outcome.counted_as === pair.expected && outcome.actual_tool === pair.actual)
    .map((outcome) => outcome.session_id);
  assert.deepEqual(shown.sort(), behind.sort());
  assert.match(page.url(), /[#&]cell=/);

  // The keyboard reaches the cells too: one step right opens the neighbouring cell.
  await canvas.focus();
  await page.keyboard.press(column + 1 < labels.length ? 'ArrowRight' : 'ArrowLeft');
  const next = column + 1 < labels.length ? column + 1 : column - 1;
  const nextTitle = await page.getByTestId('cell-title').innerText();
  assert.ok(nextTitle.startsWith(`Expected ${pair.expected}, called ${labels[next]}:`), nextTitle);
  // Focus stays on the heatmap, so the arrows keep moving through it.
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'heatmap');
  await page.keyboard.press(row + 1 < labels.length ? 'ArrowDown' : 'ArrowUp');
  const below = row + 1 < labels.length ? row + 1 : row - 1;
  const belowTitle = await page.getByTestId('cell-title').innerText();
  assert.ok(belowTitle.startsWith(`Expected ${labels[below]}, called ${labels[next]}:`), belowTitle);
});

test('the per-tool table shows the CLI precision and recall', async () => {
  for (const row of expected.selection.per_tool) {
    const cells = page.locator(`[data-testid="per-tool-row"][data-tool="${row.tool}"]`);
    const format = (value) => (value === null ? '–' : value.toFixed(3));
    assert.equal(await cells.getByTestId('precision').innerText(), format(row.precision), row.tool);
    assert.equal(await cells.getByTestId('recall').innerText(), format(row.recall), row.tool);
  }
});

test('a session opens as a timeline with its problems at their calls and its labels', async () => {
  const problem = expected.problems[0];
  await page.getByTestId('tab-problems').click();
  await page.locator('[data-testid="problem-row"] button.link').first().click();
  assert.equal(await page.getByTestId('session-title').innerText(), problem.session_id);
  const call = page.locator(`[data-testid="call"][data-step="${problem.step}"]`);
  await call.waitFor();
  const inline = await call.getByTestId('inline-problem').allInnerTexts();
  assert.ok(inline.some((text) => text.includes(problem.message)), inline.join('\n'));
  const labelled = expected.selection.outcomes.filter((o) => o.session_id === problem.session_id);
  assert.equal(await page.getByTestId('turn-label').count(), labelled.length);
  assert.deepEqual(errors, []);
});

test('the per-tool CSV and the chart SVGs carry the CLI numbers and every tool', async () => {
  await page.getByTestId('tab-selection').click();
  const csv = await downloadText(page, () => page.getByTestId('export-per-tool-csv').click());
  assert.equal(csv.name, 'per-tool.csv');
  const [header, ...lines] = csv.text.trim().split('\n').map((line) => line.split(','));
  assert.deepEqual(header.slice(0, 4), ['tool', 'tp', 'fp', 'fn']);
  const rows = expected.selection.per_tool;
  assert.equal(lines.length, rows.length);
  for (const [index, row] of rows.entries()) {
    const line = lines[index];
    assert.deepEqual(line.slice(0, 4), [row.tool, String(row.tp), String(row.fp), String(row.fn)]);
    assert.equal(line[4] === '' ? null : Number(line[4]), row.precision);
    assert.equal(line[7] === '' ? null : Number(line[7]), row.recall);
  }
  const heatmap = await downloadText(page, () => page.getByTestId('export-heatmap-svg').click());
  assert.ok(heatmap.text.startsWith('<svg'));
  const pr = await downloadText(page, () => page.getByTestId('export-pr-svg').click());
  for (const label of expected.selection.confusion.labels) {
    assert.match(heatmap.text, new RegExp(`>\\s*${label}\\s*<`), `heatmap SVG names ${label}`);
    assert.ok(pr.text.includes(label), `precision/recall SVG names ${label}`);
  }
  const png = await downloadText(page, () => page.getByTestId('export-heatmap-png').click());
  assert.equal(png.name, 'confusion.png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');

  await page.getByTestId('tab-problems').click();
  const problems = await downloadText(page, () => page.getByTestId('export-problems-csv').click());
  const problemLines = problems.text.trim().split('\n');
  assert.equal(problemLines[0], 'session_id,step,tool,kind,message,pointer,suggestion,related_step');
  assert.ok(problemLines.length - 1 >= expected.problems.length, 'a row per problem (messages may span lines)');
});
