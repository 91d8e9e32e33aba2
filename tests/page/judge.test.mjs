// A judge's verdicts file dropped beside the traces: detected by content, shown in the Judge tab
// with the CLI's numbers (passes over scored verdicts, the unscored apart, per tool), with human
// calibration and its disagreements, each verdict one click from its call, shown there inline
// with its evidence marked in the events, and the model's words as text.

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

function verdict(session, criterion, outcome, reason, evidence = []) {
  return JSON.stringify({
    session_id: session, step: 1, tool: 'search_docs', criterion, verdict: outcome, reason, evidence,
    ...(outcome === 'unscored' ? { cause: 'truncated' } : {}),
    model: 'judge-model', template: { id: 'tool-call-v1', sha256: '00' }, prompt_sha256: '11',
  });
}

test('the Judge tab shows a verdicts file with the CLI numbers and its calibration', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-judge-'));
  copyFileSync(join(FIXTURES, 'seed', 'selection_sessions.jsonl'), join(dir, 'sessions.jsonl'));
  writeFileSync(join(dir, 'verdicts.jsonl'), [
    verdict('turn-2', 'args_grounded', 'pass', 'the query is the user\'s words'),
    verdict('turn-3', 'args_grounded', 'fail', '<img src=x onerror="window.__pwned=1">', [
      { quote: '"query":"Refund Policy"', event: 1 }, { quote: 'Request 3', event: 0 },
    ]),
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
  // The judge-vs-human confusion matrix, as the report counts it.
  const matrix = await page.locator('[data-testid="judge-confusion"] tr[data-criterion="args_grounded"] td').allInnerTexts();
  assert.deepEqual(matrix.slice(1), [
    grounded.confusion.both_pass, grounded.confusion.judge_fail_human_pass,
    grounded.confusion.judge_pass_human_fail, grounded.confusion.both_fail, grounded.judge_unscored,
  ].map(String));

  // Per tool: the CLI's rates, with their denominators.
  const docs = expected.judge.summary.by_tool.find((row) => row.tool === 'search_docs');
  const docsGrounded = docs.criteria.find((row) => row.criterion === 'args_grounded').pass_rate;
  assert.equal(
    await page.locator('[data-testid="judge-tools"] tr[data-name="search_docs"] td[data-criterion="args_grounded"]').innerText(),
    `${(docsGrounded.rate * 100).toFixed(1)} % (${docsGrounded.count} of ${docsGrounded.total})`,
  );
  // A clean call the judge failed, and the human's disagreement, each listed with its call.
  const clean = expected.judge.code_vs_judge.criteria.flatMap((row) => row.clean_but_judge_failed);
  assert.equal(await page.locator('[data-testid="judge-clean-failed"] tbody tr').count(), clean.length);
  assert.deepEqual(
    await page.locator('[data-testid="judge-disagreements"] tbody tr').first().locator('td').allInnerTexts(),
    ['turn-3 · call 1', 'args_grounded', 'fail', 'pass'],
  );

  // The model's words are text, and each verdict opens its call in its session.
  await page.getByText('<img src=x onerror="window.__pwned=1">').first().waitFor();
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  await page.getByTestId('judge-verdict').nth(1).getByRole('button', { name: 'turn-3 · call 1' }).click();
  assert.equal(await page.getByTestId('tab-session').getAttribute('aria-selected'), 'true');
  assert.match(page.url(), /session=turn-3&call=1/);
  const call = page.locator('[data-testid="call"][data-step="1"]');
  await call.waitFor();
  assert.match(await call.getAttribute('class'), /\bfocused\b/);
  // The verdict inline at the call, beside the code checks (none here, so the fail is flagged).
  const inline = call.locator('[data-testid="inline-verdict"][data-criterion="args_grounded"]');
  assert.equal(await inline.getAttribute('data-verdict'), 'fail');
  assert.match(await inline.innerText(), /^args_grounded: fail — <img src=x onerror="window.__pwned=1">/);
  assert.match(await inline.getByTestId('code-judge-split').innerText(), /the code checks passed this call/);
  // Its evidence marked where it is: across JSON whitespace and case, as text.
  assert.deepEqual(await page.getByTestId('evidence').allInnerTexts(), ['request 3', '"query": "refund policy"']);
  assert.match(await page.getByTestId('evidence').first().getAttribute('title'), /evidence for args_grounded of call 1/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(errors, []);
});

test('with several agents the Judge tab has a column of rates per agent, as the CLI counts them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-judge-agents-'));
  const session = (id, agent) => JSON.stringify({
    session_id: id, agent_id: agent, events: [
      { type: 'user', content: `question ${id}` },
      { type: 'tool_use', call_id: 'c1', name: 'search_docs', args: { query: id } },
      { type: 'tool_result', call_id: 'c1', status: 'ok', content: 'found' },
      { type: 'assistant', content: 'here it is' },
    ],
  });
  writeFileSync(join(dir, 'sessions.jsonl'),
    [session('a1', 'bot-v1'), session('a2', 'bot-v1'), session('b1', 'bot-v2')].join('\n') + '\n');
  writeFileSync(join(dir, 'verdicts.jsonl'), [
    verdict('a1', 'result_used', 'pass', 'used'),
    verdict('a2', 'result_used', 'fail', 'ignored'),
    verdict('b1', 'result_used', 'pass', 'used'),
    verdict('b1', 'call_decision', 'unscored', 'cut'),
  ].join('\n') + '\n');
  const expected = JSON.parse(cli(['report', '--json', '--verdicts', 'verdicts.jsonl', 'sessions.jsonl'], dir));
  const page = await open(browser, server.url, errors);
  await loadFiles(page, ['sessions.jsonl', 'verdicts.jsonl'].map((name) => join(dir, name)));
  await page.getByTestId('tab-judge').click();
  const agents = expected.judge.summary.by_agent;
  assert.deepEqual(agents.map((row) => row.agent_id), ['bot-v1', 'bot-v2']);
  for (const row of agents) {
    const cells = page.locator(`[data-testid="judge-agents"] tr[data-name="${row.agent_id}"] td`);
    const used = row.criteria.find((counts) => counts.criterion === 'result_used').pass_rate;
    const unscored = row.criteria.reduce((sum, counts) => sum + counts.unscored, 0);
    const texts = await cells.allInnerTexts();
    assert.equal(texts[0], row.agent_id);
    assert.ok(texts.includes(`${(used.rate * 100).toFixed(1)} % (${used.count} of ${used.total})`), texts.join(' | '));
    assert.equal(texts.at(-1), String(unscored));
  }
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
