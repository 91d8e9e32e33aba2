// What the CLI makes for sharing opens in the page: a hosted report folder (`toolscope bundle`)
// under a deep base path, a data link (`toolscope share`), and the one-file HTML report, which
// the page saves byte for byte as the CLI writes it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  serve, launch, open, loadFiles, waitForReport, cli, cliReport, downloadText, DIST, FIXTURES,
} from './support.mjs';

const SEED = join(FIXTURES, 'seed');
const HOSTILE = join(FIXTURES, 'hostile');
const ROLE_ARGS = ['--tools', 'tools.json', '--rules', 'rules.json', '--labels', 'selection_labels.jsonl', 'selection_sessions.jsonl'];
const SEED_ROLES = {
  tools: ['tools.json'], rules: ['rules.json'],
  traces: ['selection_sessions.jsonl'], labels: ['selection_labels.jsonl'],
};

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

const reportJson = async (page) =>
  JSON.parse((await downloadText(page, () => page.getByTestId('download-report-json').click())).text);

test('a bundle served under a deep base path shows its report at once', async () => {
  const site = join(mkdtempSync(join(tmpdir(), 'toolscope-bundle-')), 'site');
  cli(['bundle', '--out', site, '--page-dir', DIST, '--title', 'Nightly run 42', ...ROLE_ARGS], SEED);
  const host = await serve(site, '/org/project/runs/42/');
  try {
    const page = await open(browser, host.url, errors);
    await waitForReport(page);
    assert.equal(await page.getByTestId('report-title').innerText(), 'Nightly run 42');
    assert.deepEqual(await reportJson(page), JSON.parse(cliReport(SEED, SEED_ROLES)));
    assert.equal(new URL(page.url()).hash, '', 'the folder needs no fragment');
    const robots = await (await fetch(`${host.url}robots.txt`)).text();
    assert.match(robots, /^User-agent: \*$/m);
    assert.match(robots, /^Disallow: \/$/m);
    assert.equal(await page.locator('meta[name="robots"]').getAttribute('content'), 'noindex, nofollow');
  } finally {
    await host.close();
  }
  assert.deepEqual(errors, []);
});

test('a link made by toolscope share opens the report toolscope report prints', async () => {
  const link = cli(['share', '--page', server.url, ...ROLE_ARGS], SEED).trim();
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/#data=1\./);
  const page = await open(browser, link, errors);
  await waitForReport(page);
  assert.deepEqual(await reportJson(page), JSON.parse(cliReport(SEED, SEED_ROLES)));
  assert.deepEqual(errors, []);
});

test('the page saves the HTML report byte for byte as toolscope report --html writes it', async () => {
  const out = mkdtempSync(join(tmpdir(), 'toolscope-html-'));
  const cases = [
    { dir: SEED, files: ['tools.json', 'rules.json', 'selection_sessions.jsonl', 'selection_labels.jsonl'], args: ROLE_ARGS },
    {
      dir: HOSTILE,
      files: ['markup_tools.json', 'markup.jsonl', 'markup_labels.jsonl'],
      args: ['--tools', 'markup_tools.json', '--labels', 'markup_labels.jsonl', 'markup.jsonl'],
    },
  ];
  for (const [index, { dir, files, args }] of cases.entries()) {
    const page = await open(browser, server.url, errors);
    await loadFiles(page, files.map((name) => join(dir, name)));
    const saved = await downloadText(page, () => page.getByTestId('download-report-html').click());
    assert.equal(saved.name, 'toolscope-report.html');
    // Run from the files' folder, so the names in the report are the page's.
    const written = join(out, `${index}.html`);
    cli(['report', '--html', written, ...args], dir);
    assert.ok(saved.bytes.equals(readFileSync(written)), `the page's HTML equals the CLI's for ${files[0]}`);
    // Read as a browser reads it: no script, no image, no event handler; the names are text.
    const viewer = await browser.newPage();
    await viewer.setContent(saved.text);
    const found = await viewer.evaluate(() => ({
      active: document.querySelectorAll('script, img, iframe, object, embed').length,
      handlers: [...document.querySelectorAll('*')]
        .filter((element) => [...element.attributes].some((attribute) => attribute.name.startsWith('on'))).length,
      svg: document.querySelectorAll('svg').length,
      text: document.body.textContent,
    }));
    await viewer.close();
    assert.equal(found.active, 0);
    assert.equal(found.handlers, 0);
    assert.ok(found.svg >= 2, 'the heatmap and the precision/recall chart');
    if (dir === HOSTILE) assert.ok(found.text.includes('lookup<script>alert(1)</script>'));
  }
  assert.deepEqual(errors, []);
});
