// Analysis runs in the Web Worker: while a large file is analysed the page keeps painting and
// answering, shows progress, and the job can be cancelled.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, open, ROOT } from './support.mjs';

let server;
let browser;
let dir;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolscope-page-'));
  const generator = process.env.TOOLSCOPE_GEN ?? join(ROOT, 'target', 'debug', 'toolscope-gen');
  // Large enough that the debug build is still at work after the half second measured below.
  execFileSync(generator, ['--target-bytes', '100M', '--out-dir', dir], { stdio: 'ignore' });
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a large file is analysed off the UI thread with progress, and can be cancelled', async () => {
  const errors = [];
  const page = await open(browser, server.url, errors);
  await page.getByTestId('file-input').setInputFiles([join(dir, 'sessions.jsonl')]);
  await page.getByTestId('progress').waitFor();
  // The UI thread is free: animation frames keep coming while the engine works.
  const frames = await page.evaluate(
    () =>
      new Promise((done) => {
        let count = 0;
        const started = performance.now();
        const tick = () => {
          count += 1;
          if (performance.now() - started < 500) requestAnimationFrame(tick);
          else done(count);
        };
        requestAnimationFrame(tick);
      }),
  );
  assert.ok(frames >= 10, `only ${frames} frames in half a second while analysing`);
  assert.equal(await page.getByTestId('progress').count(), 1, 'still running after half a second');
  const label = await page.locator('.progress-label').innerText();
  assert.match(label, /^(Loading files|Reading traces|Checking sessions|Scoring|Preparing the report)/);
  await page.getByTestId('cancel').click();
  await page.getByTestId('cancelled').waitFor();
  assert.equal(await page.getByTestId('progress').count(), 0);
  assert.equal(await page.getByTestId('tab-overview').count(), 0, 'no half-made report');
  assert.deepEqual(errors, []);
});
