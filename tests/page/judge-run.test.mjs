// Running the judge from the page: the worker asks a fake provider on another origin (CORS as the
// real services answer it) and the Judge tab shows the CLI's numbers for the same answers; the
// worker's cache makes a second run free; Anthropic and Gemini wire shapes; Estimate sends nothing; Cancel and the budget leave the
// rest not_run; and the key goes nowhere but the provider's auth header.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  serve, launch, open, loadFiles, cli, CLI, FIXTURES, downloadText, watchConsole, watchPolicy,
} from './support.mjs';
import { startFakeProvider } from './fake_provider.mjs';

const KEY = 'sk-test-DO-NOT-LEAK-1234';
const SEED = join(FIXTURES, 'seed');
const FILES = ['selection_sessions.jsonl', 'tools.json'].map((name) => join(SEED, name));
// The seed sessions' tool calls (one session has none), and their verdicts.
const CALLS = 5;
const VERDICTS = CALLS * 4;

let server;
let browser;
let fake;
const errors = [];

before(async () => {
  server = await serve();
  browser = await launch();
  fake = await startFakeProvider();
});

after(async () => {
  await browser?.close();
  await server?.close();
  await fake?.close();
});

/** A page with the seed fixtures loaded, on the Judge tab, the controls set for the fake. */
async function judgePage(controls = {}) {
  const page = await open(browser, server.url, errors);
  await setUpJudge(page, controls);
  return page;
}

/** Loads the seed fixtures into `page`, opens the Judge tab and sets its controls for the fake. */
async function setUpJudge(page, { provider = 'openai_compatible', model = 'fake-model', base = '/v1', key = KEY } = {}) {
  await loadFiles(page, FILES);
  await page.getByTestId('tab-judge').click();
  await page.getByTestId('judge-provider').selectOption(provider);
  await page.getByTestId('judge-model').fill(model);
  await page.getByTestId('judge-base-url').fill(`${fake.origin}${base}`);
  if (key) await page.getByTestId('judge-key').fill(key);
}

/** Clicks Run and waits for the run's summary. */
async function run(page) {
  await page.getByTestId('judge-start').click();
  await page.getByTestId('judge-run-summary').waitFor({ timeout: 60_000 });
  return page.getByTestId('judge-run-summary').innerText();
}

function reset() {
  fake.requests.length = 0;
  fake.preflights.length = 0;
  fake.seen.clear();
  fake.fault = () => undefined;
}

test('a run against an OpenAI-compatible server gives the numbers the CLI gives for the same answers', async () => {
  reset();
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-judge-run-'));
  for (const file of FILES) copyFileSync(file, join(dir, file.split('/').pop()));
  // Not execFileSync: the fake answers from this process's event loop.
  await promisify(execFile)(CLI, [
    'judge', '--provider', 'openai-compatible', '--model', 'fake-model', '--base-url', `${fake.origin}/v1`,
    '--no-cache', '--out', 'verdicts.jsonl', '--tools', 'tools.json', 'selection_sessions.jsonl',
  ], { cwd: dir, env: { ...process.env, OPENAI_API_KEY: KEY } });
  const expected = JSON.parse(cli(
    ['report', '--json', '--verdicts', 'verdicts.jsonl', '--tools', 'tools.json', 'selection_sessions.jsonl'], dir,
  ));
  const calls = fake.requests.length;
  assert.equal(calls, CALLS, 'the CLI asked the fake once per call');
  reset();

  const page = await judgePage();
  const summary = await run(page);
  assert.match(summary, new RegExp(`^judged ${calls} calls: ${calls} sent, 0 from cache`));
  assert.equal(fake.requests.length, calls, 'one request per call');
  assert.deepEqual(fake.violations, []);
  assert.ok(fake.preflights.length > 0, 'the browser asked the fake for CORS first');

  for (const row of expected.judge.summary.criteria) {
    const cells = page.locator(`[data-testid="judge-criteria"] tr[data-criterion="${row.criterion}"] td`);
    assert.equal(await cells.nth(4).innerText(), String(row.pass), `${row.criterion} pass`);
    assert.equal(await cells.nth(5).innerText(), String(row.fail), `${row.criterion} fail`);
    assert.equal(await cells.nth(6).innerText(), String(row.unscored), `${row.criterion} unscored`);
  }
  const byCriterion = Object.fromEntries(expected.judge.summary.criteria.map((row) => [row.criterion, row]));
  assert.equal(byCriterion.call_decision.pass, calls);
  assert.equal(byCriterion.result_used.fail, calls);

  const { text } = await downloadText(page, () => page.getByTestId('download-report-json').click());
  const report = JSON.parse(text);
  assert.equal(report.judge.verdicts.length, calls * 4);
  assert.deepEqual(report.judge.summary, expected.judge.summary);

  // The same calls again: all from the worker's cache, no request.
  reset();
  const again = await run(page);
  assert.match(again, new RegExp(`^judged ${calls} calls: 0 sent, ${calls} from cache`));
  assert.equal(fake.requests.length, 0);
  const rerun = JSON.parse((await downloadText(page, () => page.getByTestId('download-report-json').click())).text);
  assert.deepEqual(rerun.judge.summary, expected.judge.summary, 'the same verdicts replace, not add');
  assert.deepEqual(errors, []);
});

test('the run\'s end sends the page the report\'s aggregates, the verdicts only a page of rows at a time', async () => {
  reset();
  // The page's own worker, each judged reply it posts recorded as it arrives.
  const context = await browser.newContext({ acceptDownloads: true });
  await watchPolicy(context, errors);
  await context.addInitScript(() => {
    const Original = window.Worker;
    window.judgedReplies = [];
    window.Worker = class extends Original {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (event) => {
          const text = Array.isArray(event.data) ? event.data[0] : event.data;
          if (typeof text === 'string' && text.startsWith('{"type":"judged"')) window.judgedReplies.push(text);
        });
      }
    };
  });
  const page = await context.newPage();
  watchConsole(page, errors);
  await page.goto(server.url);
  await page.getByTestId('version').waitFor();
  await setUpJudge(page);
  assert.match(await run(page), new RegExp(`^judged ${CALLS} calls`));
  const replies = await page.evaluate(() => window.judgedReplies);
  assert.equal(replies.length, 1);
  const report = JSON.parse(JSON.parse(replies[0]).report);
  assert.deepEqual(report.judge.verdicts, [], 'no verdict travels with the report');
  assert.equal(report.omitted.verdicts, VERDICTS, 'they are counted instead');
  assert.equal(report.judge.summary.criteria.length, 4);
  // The verdicts table asked the worker for its rows: all of them here, fewer than a page.
  await page.getByTestId('judge-verdict').nth(VERDICTS - 1).waitFor();
  assert.equal(await page.getByTestId('judge-verdict').count(), VERDICTS);
  // The download, made in the worker, has every verdict.
  const { text } = await downloadText(page, () => page.getByTestId('download-report-json').click());
  assert.equal(JSON.parse(text).judge.verdicts.length, VERDICTS);
  await context.close();
  assert.deepEqual(errors, []);
});

test('a share link made after a run carries its verdicts: the link reopens the same judge report', async () => {
  reset();
  const page = await judgePage({ model: 'share-model' });
  await run(page);
  const before = JSON.parse((await downloadText(page, () => page.getByTestId('download-report-json').click())).text);
  assert.equal(before.judge.verdicts.length, VERDICTS);

  await page.getByTestId('share-button').click();
  assert.match(await page.getByTestId('share-run-verdicts').innerText(), /judge-run-verdicts\.jsonl.*never the API key/);
  const input = page.getByTestId('share-link');
  await input.waitFor({ timeout: 30_000 });
  const link = await input.inputValue();
  assert.ok(!link.includes(KEY));

  reset();
  const reopened = await browser.newPage();
  reopened.on('pageerror', (error) => errors.push(String(error)));
  await reopened.goto(link);
  await reopened.getByTestId('tab-overview').waitFor({ timeout: 60_000 });
  const names = await reopened.getByTestId('file-name').allInnerTexts();
  assert.deepEqual(names.slice(-1), ['judge-run-verdicts.jsonl']);
  const after = JSON.parse((await downloadText(reopened, () => reopened.getByTestId('download-report-json').click())).text);
  assert.deepEqual(after.judge, before.judge);
  assert.equal(fake.requests.length, 0, 'reopening asks no model');
  await reopened.close();
  assert.deepEqual(errors, []);
});

test('Estimate shows the plan and sends nothing', async () => {
  reset();
  const page = await judgePage({ model: 'estimate-model' });
  await page.getByTestId('judge-estimate').click();
  const plan = page.getByTestId('judge-plan');
  await plan.waitFor();
  assert.match(await plan.innerText(), /^5 calls: 0 from cache, 5 requests, about [\d,]+ input tokens and at most 10,240 output tokens; no price for estimate-model$/);
  await page.getByTestId('judge-provider').selectOption('openai');
  await page.getByTestId('judge-model').fill('gpt-4o-mini');
  await page.getByTestId('judge-estimate').click();
  await page.waitForFunction(() => /about \$/.test(document.querySelector('[data-testid="judge-plan"]')?.innerText ?? ''));
  assert.equal(await page.getByTestId('judge-price-output').getAttribute('placeholder'), '0.6', 'the built-in price');
  assert.equal(fake.requests.length + fake.preflights.length, 0, 'no request at all');
  assert.deepEqual(errors, []);
});

test('prices typed for a model the table lacks give its cost and let a budget stop the run', async () => {
  reset();
  const page = await judgePage({ model: 'local-model' });
  assert.equal(await page.getByTestId('judge-price-input').getAttribute('placeholder'), 'no built-in price');
  // $1,000 / $1,000 per million tokens: each request's estimate is about a dollar or two.
  await page.getByTestId('judge-price-input').fill('1000');
  await page.getByTestId('judge-estimate').click();
  assert.match(await page.getByTestId('judge-error').innerText(), /give both prices/);
  await page.getByTestId('judge-price-output').fill('1000');
  await page.getByTestId('judge-estimate').click();
  await page.waitForFunction(() => /about \$\d/.test(document.querySelector('[data-testid="judge-plan"]')?.innerText ?? ''));
  const plan = await page.getByTestId('judge-plan').innerText();
  const [, input, output, cost] = plan.match(/about ([\d,]+) input tokens and at most ([\d,]+) output tokens; about \$([\d.]+)/);
  const expected = (Number(input.replaceAll(',', '')) + Number(output.replaceAll(',', ''))) * 1000 / 1e6;
  assert.ok(Math.abs(Number(cost) - expected) <= 0.01 + expected * 0.001, `${cost} vs ${expected}`);
  // A budget below one request's estimate: nothing is sent.
  await page.getByTestId('judge-budget').fill('1');
  const summary = await run(page);
  assert.match(summary, /0 sent, 0 from cache, 5 not run; .*the budget stopped the run$/);
  assert.equal(fake.requests.length, 0);
  assert.deepEqual(errors, []);
});

test('the calls of the current filter are the ones judged', async () => {
  reset();
  const page = await judgePage({ model: 'filter-model' });
  await page.getByTestId('filter-tool').selectOption('search_docs');
  await page.getByTestId('judge-what').selectOption('filter');
  await page.getByTestId('judge-estimate').click();
  await page.getByTestId('judge-plan').waitFor();
  const planned = Number((await page.getByTestId('judge-plan').innerText()).split(' ')[0]);
  assert.ok(planned > 0 && planned < CALLS, `${planned} calls planned`);
  await run(page);
  assert.equal(fake.requests.length, planned);
  for (const request of fake.requests) {
    assert.match(JSON.parse(request.body).messages.at(-1).content, /THE CALL TO JUDGE: event \d+, search_docs /);
  }
  assert.deepEqual(errors, []);
});

test('a filter after a run on streamed traces, its report read again from the file, keeps the run\'s verdicts on its calls', async () => {
  reset();
  const page = await judgePage({ model: 'streamed-filter-model' });
  await run(page);
  /** Waits until every criterion's row counts `total` verdicts (pass, fail and unscored). */
  const criteriaCount = (total) => page.waitForFunction((total) => {
    const rows = [...document.querySelectorAll('[data-testid="judge-criteria"] tr[data-criterion]')];
    return rows.length === 4 && rows.every((row) => {
      const cells = row.querySelectorAll('td');
      return Number(cells[4].textContent) + Number(cells[5].textContent) + Number(cells[6].textContent) === total;
    });
  }, total, { timeout: 30_000 });
  await criteriaCount(CALLS);
  // The seed's traces stream: the filter's report is made by reading the file again, and the
  // run's verdicts on the calls it keeps are added to it.
  await page.getByTestId('filter-tool').selectOption('search_docs');
  await page.getByTestId('judge-what').selectOption('filter');
  await page.getByTestId('judge-estimate').click();
  await page.getByTestId('judge-plan').waitFor();
  const planned = Number((await page.getByTestId('judge-plan').innerText()).split(' ')[0]);
  assert.ok(planned > 0 && planned < CALLS, `${planned} calls planned`);
  await criteriaCount(planned);
  await page.getByTestId('clear-filters').click();
  await criteriaCount(CALLS);
  assert.deepEqual(errors, []);
});

test('a heatmap cell\'s turns are judged from the cell: only the calls made in them', async () => {
  reset();
  const page = await open(browser, server.url, errors);
  await loadFiles(page, [...FILES, join(SEED, 'selection_labels.jsonl')]);
  await page.getByTestId('tab-selection').click();
  await page.locator('summary', { hasText: 'Cells as a list' }).click();
  await page.locator('[data-testid="cell"][data-expected="none"][data-actual="search_docs"]').click();
  const turns = await page.getByTestId('cell-turn').count();
  await page.getByTestId('judge-cell').click();
  assert.equal(await page.getByTestId('tab-judge').getAttribute('aria-selected'), 'true');
  assert.equal(await page.getByTestId('judge-what').inputValue(), 'cell');
  assert.equal(await page.getByTestId('judge-cell-chosen').innerText(), 'The open cell: expected none, called search_docs.');
  await page.getByTestId('judge-provider').selectOption('openai_compatible');
  await page.getByTestId('judge-model').fill('cell-model');
  await page.getByTestId('judge-base-url').fill(`${fake.origin}/v1`);
  const summary = await run(page);
  // The seed's one turn labelled none that called search_docs: turn-3, one call.
  assert.equal(turns, 1);
  assert.match(summary, /^judged 1 calls?: 1 sent/);
  assert.equal(fake.requests.length, 1);
  assert.match(JSON.parse(fake.requests[0].body).messages.at(-1).content, /THE CALL TO JUDGE: event \d+, search_docs /);
  const sessions = await page.locator('[data-testid="judge-verdict"] [data-testid="call-link"]').allInnerTexts();
  assert.deepEqual([...new Set(sessions)], ['turn-3 · call 1']);
  assert.deepEqual(errors, []);
});

test('a rate limit is waited out and a refusal is an unscored verdict', async () => {
  reset();
  let first;
  fake.fault = (prompt, seen) => {
    first ??= prompt;
    if (prompt === first) return seen === 1 ? 'rate_limit' : undefined;
    return /THE CALL TO JUDGE: event \d+, search_docs /.test(prompt) ? 'refusal' : undefined;
  };
  const page = await judgePage({ model: 'faults-model' });
  const summary = await run(page);
  assert.match(summary, /5 sent/);
  const { text } = await downloadText(page, () => page.getByTestId('download-report-json').click());
  const causes = JSON.parse(text).judge.verdicts.filter((v) => v.verdict === 'unscored').map((v) => v.cause);
  assert.ok(causes.length > 0 && causes.every((cause) => cause === 'refusal'), causes.join(','));
  assert.ok(!causes.includes('rate_limited'), 'the 429 was retried');
  assert.deepEqual(errors, []);
});

test('Cancel stops the run and leaves the calls not judged not_run', async () => {
  reset();
  fake.fault = () => 'hang';
  fake.hangMs = 2000;
  const page = await judgePage({ model: 'cancel-model' });
  await page.getByTestId('judge-concurrency').fill('1');
  await page.getByTestId('judge-start').click();
  await page.getByTestId('judge-cancel').click();
  await page.getByTestId('judge-run-summary').waitFor({ timeout: 30_000 });
  const summary = await page.getByTestId('judge-run-summary').innerText();
  assert.match(summary, /5 not run; 0 of 20 verdicts scored.*; cancelled$/);
  assert.ok(fake.requests.length <= 1, 'nothing sent after the cancel');
  const causes = await page.locator('[data-testid="judge-criteria"] [data-testid="causes"]').allInnerTexts();
  assert.ok(causes.every((cause) => cause === 'not_run 5'), causes.join('|'));
  fake.hangMs = 3000;
  assert.deepEqual(errors, []);
});

test('new traces analysed during a run stop it; its answers are cached for the next run', async () => {
  reset();
  // Two answers, then every request hangs until the run is stopped.
  fake.fault = () => (fake.requests.length > 2 ? 'hang' : undefined);
  fake.hangMs = 8_000;
  const page = await judgePage({ model: 'restart-model' });
  await page.getByTestId('judge-concurrency').fill('1');
  await page.getByTestId('judge-start').click();
  await waitUntil(() => fake.requests.length === 3);
  // A labels file joins the traces: a new analysis, the same calls.
  await page.getByTestId('file-input').setInputFiles([join(SEED, 'selection_labels.jsonl')]);
  await page.getByTestId('judge-error').waitFor({ timeout: 30_000 });
  assert.match(await page.getByTestId('judge-error').innerText(),
    /^the run stopped because new traces were analysed; the answers it got are cached/);
  assert.equal(await page.getByTestId('judge-start').isEnabled(), true);
  await new Promise((wait) => setTimeout(wait, 500));
  assert.equal(fake.requests.length, 3, 'nothing sent after the new analysis');

  fake.fault = () => undefined;
  fake.hangMs = 3000;
  fake.requests.length = 0;
  const summary = await run(page);
  assert.match(summary, /^judged 5 calls: 3 sent, 2 from cache, 0 not run/);
  assert.equal(fake.requests.length, 3);
  assert.deepEqual(errors, []);
});

async function waitUntil(condition, timeout = 30_000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeout) throw new Error('timed out waiting');
    await new Promise((wait) => setTimeout(wait, 20));
  }
}

test('an answer larger than 16 MiB is not read: an http_error verdict, the others judged', async () => {
  reset();
  fake.fault = (prompt) => (/THE CALL TO JUDGE: event \d+, search_docs /.test(prompt) ? 'huge' : undefined);
  const page = await judgePage({ model: 'huge-model' });
  const summary = await run(page);
  assert.match(summary, /^judged 5 calls: 5 sent/);
  const { text } = await downloadText(page, () => page.getByTestId('download-report-json').click());
  const verdicts = JSON.parse(text).judge.verdicts;
  const docs = verdicts.filter((verdict) => verdict.tool === 'search_docs');
  assert.ok(docs.length > 0);
  for (const verdict of docs) {
    assert.equal(verdict.cause, 'http_error');
    assert.match(verdict.reason, /the answer is larger than 16 MiB, the most toolscope reads/);
  }
  assert.ok(verdicts.filter((verdict) => verdict.tool !== 'search_docs').every((verdict) => verdict.verdict !== 'unscored'));
  assert.deepEqual(errors, []);
});

test('the budget stops the run: the calls not sent are not_run', async () => {
  reset();
  const page = await judgePage({ provider: 'openai', model: 'gpt-4o-mini' });
  await page.getByTestId('judge-budget').fill('0.000001');
  const summary = await run(page);
  assert.match(summary, /0 sent, 0 from cache, 5 not run; .*the budget stopped the run$/);
  assert.equal(fake.requests.length, 0);
  const causes = await page.locator('[data-testid="judge-criteria"] [data-testid="causes"]').allInnerTexts();
  assert.ok(causes.every((cause) => cause === 'not_run 5'), causes.join('|'));
  assert.deepEqual(errors, []);
});

test('a server that refuses the page by CORS gives verdicts that say how to let the page in', async () => {
  reset();
  fake.isCorsOpen = false;
  // The browser reports each refused request on the console: expected here, and only here.
  const own = [];
  const page = await open(browser, server.url, own);
  await setUpJudge(page, { model: 'cors-model', key: '' });
  await page.getByTestId('judge-concurrency').fill('8');
  const summary = await run(page);
  fake.isCorsOpen = true;
  assert.match(summary, /0 of 20 verdicts scored/);
  const { text } = await downloadText(page, () => page.getByTestId('download-report-json').click());
  const origin = new URL(server.url).origin;
  for (const verdict of JSON.parse(text).judge.verdicts) {
    assert.equal(verdict.cause, 'http_error');
    assert.match(verdict.reason, /^the browser got no response from http:\/\/127\.0\.0\.1:\d+\/v1 /);
    assert.ok(verdict.reason.includes(`OLLAMA_ORIGINS=${origin}`), verdict.reason);
    assert.ok(verdict.reason.includes(`--cors-origins ${origin}`), verdict.reason);
  }
  assert.deepEqual(own.filter((error) => !/CORS policy|Failed to load resource|net::ERR_FAILED/.test(error)), []);
});

test('an Anthropic run sends the browser header and reads the forced tool call', async () => {
  reset();
  const page = await judgePage({ provider: 'anthropic', model: 'claude-fake', base: '' });
  const summary = await run(page);
  assert.match(summary, /5 sent, 0 from cache, 0 not run; 20 of 20 verdicts scored/);
  assert.deepEqual(fake.violations, []);
  assert.ok(fake.requests.every((request) => request.headers['x-api-key'] === KEY));
  assert.deepEqual(errors, []);
});

test('a Gemini run sends the key in x-goog-api-key, never in the URL, and reads the JSON text', async () => {
  reset();
  const page = await judgePage({ provider: 'gemini', model: 'gemini-fake', base: '/v1beta' });
  const summary = await run(page);
  assert.match(summary, /5 sent, 0 from cache, 0 not run; 20 of 20 verdicts scored/);
  assert.deepEqual(fake.violations, []);
  assert.equal(fake.requests.length, 5);
  for (const request of fake.requests) {
    assert.equal(request.path, '/v1beta/models/gemini-fake:generateContent');
    assert.equal(request.headers['x-goog-api-key'], KEY);
    assert.equal(request.headers.authorization, undefined);
  }
  // A refusal (finishReason SAFETY) is an unscored verdict, not a fail.
  reset();
  fake.fault = () => 'refusal';
  const refused = await judgePage({ provider: 'gemini', model: 'gemini-refusing', base: '/v1beta' });
  assert.match(await run(refused), /0 of 20 verdicts scored/);
  const causes = await refused.locator('[data-testid="judge-criteria"] [data-testid="causes"]').allInnerTexts();
  assert.ok(causes.every((cause) => cause === 'refusal 5'), causes.join('|'));
  assert.deepEqual(errors, []);
});

test('the key goes only into the provider requests auth header, unless remembered', async () => {
  reset();
  const consoleText = [];
  const elsewhere = [];
  const context = await browser.newContext({ acceptDownloads: true });
  await watchPolicy(context, errors);
  // Every request of the page and its worker, from the first.
  context.on('request', (request) => {
    if (!request.url().startsWith(fake.origin)) {
      elsewhere.push({ url: request.url(), headers: JSON.stringify(request.headers()), body: request.postData() ?? '' });
    }
  });
  const page = await context.newPage();
  watchConsole(page, errors);
  page.on('console', (message) => consoleText.push(message.text()));
  await page.goto(server.url);
  await page.getByTestId('version').waitFor();
  await setUpJudge(page, { model: 'key-model' });
  assert.equal(await page.getByTestId('judge-key').getAttribute('type'), 'password');
  assert.equal(await page.getByTestId('judge-key').getAttribute('autocomplete'), 'off');
  await run(page);

  assert.ok(fake.requests.length > 0);
  for (const request of fake.requests) {
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    const { authorization, ...others } = request.headers;
    assert.ok(!JSON.stringify(others).includes(KEY), 'only in the auth header');
    assert.ok(!request.body.includes(KEY), 'not in the body');
    assert.ok(!request.path.includes(KEY), 'not in the URL');
  }
  assert.ok(!page.url().includes(KEY), 'not in the URL');
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  assert.ok(!stored.includes(KEY), 'not in storage without the opt-in');
  const json = await downloadText(page, () => page.getByTestId('download-report-json').click());
  assert.ok(!json.text.includes(KEY), 'not in the report JSON');
  const html = await downloadText(page, () => page.getByTestId('download-report-html').click());
  assert.ok(!html.text.includes(KEY), 'not in the HTML report');
  await page.getByTestId('share-button').click();
  const link = page.getByTestId('share-link');
  await link.waitFor({ timeout: 30_000 });
  assert.ok(!(await link.inputValue()).includes(KEY), 'not in the share link');
  await page.getByTestId('share-close').click();
  assert.ok(!consoleText.join('\n').includes(KEY), 'not in the console');
  assert.ok(elsewhere.length > 0, 'the page made its own requests');
  for (const request of elsewhere) {
    assert.ok(!`${request.url} ${request.headers} ${request.body}`.includes(KEY), `not sent to ${request.url}`);
  }

  // Remembered on this device only when asked, and forgotten on request.
  await page.getByTestId('tab-judge').click();
  await page.getByTestId('judge-remember').check();
  await page.getByTestId('judge-remember-warning').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('toolscope.judge.api_key')), KEY);
  await page.getByTestId('judge-forget').click();
  assert.equal(await page.evaluate(() => localStorage.getItem('toolscope.judge.api_key')), null);
  assert.equal(await page.getByTestId('judge-remember').isChecked(), false);
  assert.deepEqual(errors, []);
});
