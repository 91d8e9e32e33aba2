// Shared by the page tests: a static server for dist/, headless Chromium, the CLI, fixtures.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { execFile, execFileSync } from 'node:child_process';
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

/** Headless Debian Chromium with the flags this closed network needs, and `extraArgs`. */
export async function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ...extraArgs,
    ],
  });
}

/**
 * A new page on `url`, failing the test on any page error, console error or breach of the page's
 * Content-Security-Policy (each lands in `errors`, which every test asserts empty).
 */
export async function open(browser, url, errors = []) {
  const context = await browser.newContext({ acceptDownloads: true });
  await watchPolicy(context, errors);
  const page = await context.newPage();
  watchConsole(page, errors);
  await page.goto(url);
  await page.getByTestId('version').waitFor();
  return page;
}

/** Adds `page`'s uncaught errors, console errors and any console word of the policy to `errors`. */
export function watchConsole(page, errors) {
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) {
      errors.push(`console: ${message.text()}`);
    }
  });
}

/**
 * Reports every `securitypolicyviolation` in the context's pages (popups too) as a `csp: …`
 * error. Playwright's init scripts and evaluations are not subject to the page's policy, so the
 * listener is in place before the page's own first script runs.
 */
export async function watchPolicy(context, errors) {
  await context.exposeBinding('__toolscopePolicyViolation', (_source, text) => errors.push(`csp: ${text}`));
  await context.addInitScript(() => {
    addEventListener('securitypolicyviolation', (event) => {
      const where = event.sourceFile ? ` (${event.sourceFile}:${event.lineNumber})` : '';
      window.__toolscopePolicyViolation(
        `${event.effectiveDirective} refused ${event.blockedURI || 'inline'}${where}`,
      );
    });
  });
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

/**
 * Runs the CLI in `cwd` and returns stdout. Exit status 1 (findings) and 2 with a report on
 * stdout (input with diagnostics) are answers, not failures.
 */
export function cli(args, cwd) {
  try {
    return execFileSync(CLI, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if (error.status === 1 || (error.status === 2 && error.stdout)) return error.stdout;
    throw error;
  }
}

/**
 * `cli`, without blocking this process: for commands that fetch from a server these tests host,
 * which cannot answer while `execFileSync` holds the event loop.
 */
export function cliAsync(args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(CLI, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 }, (error, stdout, stderr) => {
      if (!error || error.code === 1 || (error.code === 2 && stdout)) resolve(stdout);
      else reject(Object.assign(error, { stdout, stderr }));
    });
  });
}

/** Waits until `locator`'s text is `text` (the page updates after the worker answers). */
export async function waitForText(locator, text, timeout = 30_000) {
  const started = Date.now();
  let last;
  while (Date.now() - started < timeout) {
    last = await locator.innerText().catch(() => undefined);
    if (last === text) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`expected ${JSON.stringify(text)}, still ${JSON.stringify(last)}`);
}

/** The CLI's report JSON for files in `dir` given by role, run from `dir` so names match. */
export function cliReport(dir, { tools = [], rules = [], traces = [], labels = [] }) {
  const args = ['report', '--json'];
  for (const file of tools) args.push('--tools', file);
  for (const file of rules) args.push('--rules', file);
  for (const file of labels) args.push('--labels', file);
  args.push(...traces);
  return cli(args, dir);
}

/** The four demo files, by role, as the CLI takes them. */
export const DEMO_ROLES = {
  tools: ['tools.json'],
  rules: ['rules.json'],
  traces: ['sessions.jsonl'],
  labels: ['labels.jsonl'],
};

/** Paths of the demo files, for the file input. */
export const DEMO_PATHS = ['tools.json', 'rules.json', 'sessions.jsonl', 'labels.jsonl'].map((name) =>
  join(DEMO, name),
);

/** The value and detail text of an overview or selection card. */
export async function card(page, id) {
  const element = page.getByTestId(id);
  return {
    value: await element.getByTestId('value').innerText(),
    detail: await element.getByTestId('detail').innerText(),
  };
}

/** Starts a download with `click` and returns its content as text. */
export async function downloadText(page, click) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const stream = await download.createReadStream();
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  return { name: download.suggestedFilename(), text: bytes.toString('utf8'), bytes };
}

/** Drops files on the page as a user would: a drop event carrying a DataTransfer. */
export async function dropFiles(page, files) {
  await page.evaluate((files) => {
    const transfer = new DataTransfer();
    for (const { name, text } of files) transfer.items.add(new File([text], name));
    const target = document.querySelector('[data-testid="version"]');
    target.dispatchEvent(new DragEvent('dragenter', { bubbles: true, dataTransfer: transfer }));
    target.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
  }, files);
}

/** "14.3 %" from a rate, as the page writes it. */
export function percent(rate) {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)} %`;
}

/** Starts the static server and Chromium before the file's tests and stops them after. */
export function useBrowser(before, after) {
  const shared = {};
  before(async () => {
    shared.server = await serve();
    shared.browser = await launch();
  });
  after(async () => {
    await shared.browser?.close();
    await shared.server?.close();
  });
  return shared;
}
