// Shared by the page tests: a static server for dist/, headless Chromium, the CLI, fixtures.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { extname, join, normalize, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = process.env.TOOLSCOPE_DIST ?? join(ROOT, 'dist');
export const FIXTURES = join(ROOT, 'tests', 'fixtures');
export const DEMO = join(ROOT, 'public', 'demo');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.jsonl': 'application/jsonl',
};

/** Serves `dir` under `prefix` (e.g. "/some/base/") on a free loopback port. */
export async function serve(dir = DIST, prefix = '/') {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    if (!path.startsWith(prefix)) {
      response.writeHead(404).end();
      return;
    }
    let file = normalize(join(dir, path.slice(prefix.length)));
    if (!file.startsWith(dir)) {
      response.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${server.address().port}${prefix}`;
  return { url, close: () => new Promise((done) => server.close(done)) };
}

/** Headless Debian Chromium with the flags this closed network needs. */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/** A new page on `url`, failing the test on any page error or console error. */
export async function open(browser, url, errors = []) {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  await page.getByTestId('version').waitFor();
  return page;
}

/** Gives files to the page through its file input and waits for the report. */
export async function loadFiles(page, paths) {
  await page.getByTestId('file-input').setInputFiles(paths);
  await waitForReport(page);
}

/** Waits until no job is running and the report's tabs are shown. */
export async function waitForReport(page, timeout = 60_000) {
  await page.getByTestId('tab-overview').waitFor({ timeout });
  await page.waitForFunction(() => !document.querySelector('[data-testid="progress"]'), null, { timeout });
}

/** The `toolscope` binary built for the tests (tests/run-page-tests builds it). */
export const CLI = process.env.TOOLSCOPE_BIN ?? join(ROOT, 'target', 'debug', 'toolscope');

/** Runs the CLI in `cwd` and returns stdout (exit status 1, "findings", is not an error). */
export function cli(args, cwd) {
  try {
    return execFileSync(CLI, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  } catch (error) {
    if (error.status === 1) return error.stdout;
    throw error;
  }
}
