// The worker warms the engine up on built-in sessions once it is ready, until the first request
// (src/worker_warmup.rs). A file given while it does must get exactly the CLI's report: nothing of
// the warm-up's sessions in it, and no warm-up progress on the page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  serve, launch, watchPolicy, watchConsole, loadFiles, cliReport, card, downloadText,
  DEMO, DEMO_ROLES, DEMO_PATHS,
} from './support.mjs';

let server;
let browser;
let expected;

before(async () => {
  server = await serve();
  browser = await launch();
  expected = cliReport(DEMO, DEMO_ROLES);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * A new page whose worker's messages are watched: `window.__workerReady` is when it said it was
 * ready, `window.__workerReplies` every reply it posted.
 */
async function openWatchingWorker(errors) {
  const context = await browser.newContext({ acceptDownloads: true });
  await watchPolicy(context, errors);
  await context.addInitScript(() => {
    window.__workerReplies = [];
    const PageWorker = window.Worker;
    window.Worker = class extends PageWorker {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (event) => {
          const text = typeof event.data === 'string' ? event.data : String(event.data?.[0]);
          window.__workerReplies.push(text);
          if (text.includes('"type":"ready"') && window.__workerReady === undefined) {
            window.__workerReady = performance.now();
          }
        });
      }
    };
  });
  const page = await context.newPage();
  watchConsole(page, errors);
  await page.goto(server.url);
  await page.getByTestId('version').waitFor();
  return page;
}

/** The page's report equals the CLI's: its session count, and the downloaded JSON's bytes. */
async function assertCliReport(page) {
  const cliJson = JSON.parse(expected);
  assert.equal((await card(page, 'ov-sessions')).value, String(cliJson.summary.sessions));
  const { text } = await downloadText(page, () => page.getByTestId('download-report-json').click());
  assert.equal(text, expected);
  assert.ok(!text.includes('warm'), 'no warm-up session in the report');
}

/** Every progress reply the worker posted was for a job the page asked for (none is job 0). */
async function assertOnlyJobReplies(page) {
  const replies = await page.evaluate(() => window.__workerReplies);
  const progress = replies.filter((reply) => reply.includes('"type":"progress"'));
  assert.ok(progress.length > 0, 'the load showed progress');
  for (const reply of progress) assert.doesNotMatch(reply, /"job":0[,}]/, reply);
  assert.equal(replies.filter((reply) => reply.includes('"type":"ready"')).length, 1);
}

test('a file given as soon as the page opens gets exactly the CLI report, no warm-up in it', async () => {
  const errors = [];
  const page = await openWatchingWorker(errors);
  await loadFiles(page, DEMO_PATHS);
  await assertCliReport(page);
  await assertOnlyJobReplies(page);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a file given in the middle of the warm-up gets exactly the CLI report', async () => {
  const errors = [];
  const page = await openWatchingWorker(errors);
  await page.waitForFunction(() => window.__workerReady !== undefined, null, { polling: 5 });
  // The warm-up runs for a few hundred milliseconds of work in slices of about 20.
  await page.waitForTimeout(120);
  await loadFiles(page, DEMO_PATHS);
  await assertCliReport(page);
  await assertOnlyJobReplies(page);
  assert.deepEqual(errors, []);
  await page.context().close();
});
