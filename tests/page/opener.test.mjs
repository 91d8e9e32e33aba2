// Opening toolscope from another page: the documented postMessage handshake (docs/share.md).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  serve, launch, waitForReport, cliReport, downloadText, watchConsole, watchPolicy, FIXTURES,
} from './support.mjs';

const SEED = join(FIXTURES, 'seed');

// The opener, as a notebook or another viewer would write it: open toolscope, wait for
// "toolscope:ready", send the files.
const OPENER = `<!doctype html><meta charset="utf-8"><title>opener</title><script>
window.ready = [];
window.openToolscope = (url) => new Promise((resolve, reject) => {
  setTimeout(() => reject(new Error('no toolscope:ready within 30 s')), 30000);
  const opened = window.open(url);
  window.toolscope = opened;
  window.addEventListener('message', (event) => {
    if (event.source === opened && event.data && event.data.type === 'toolscope:ready') {
      window.ready.push(event.data);
      resolve(event.data.version);
    }
  });
});
window.send = (files, extra = {}) => {
  const encoded = files.map(({ name, text, role }) => ({ name, role, data: new TextEncoder().encode(text).buffer }));
  window.toolscope.postMessage({ type: 'toolscope:open', files: encoded, ...extra }, '*',
    encoded.map((file) => file.data));
};
window.sendRaw = (message) => window.toolscope.postMessage(message, '*');
</script>`;

let server;
let browser;
let openerHost;

before(async () => {
  server = await serve();
  browser = await launch();
  openerHost = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(OPENER);
  });
  await new Promise((ready) => openerHost.listen(0, '127.0.0.1', ready));
});

after(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((done) => openerHost?.close(done));
});

const seedFile = (name, role) => ({ name, role, text: readFileSync(join(SEED, name), 'utf8') });

test('another page opens a report in toolscope by postMessage, and is asked before replacing it', async () => {
  const errors = [];
  const context = await browser.newContext({ acceptDownloads: true });
  await watchPolicy(context, errors);
  const opener = await context.newPage();
  await opener.goto(`http://127.0.0.1:${openerHost.address().port}/`);
  const [popup, version] = await Promise.all([
    context.waitForEvent('page'),
    opener.evaluate((url) => window.openToolscope(url), server.url),
  ]);
  const warnings = [];
  watchConsole(popup, errors);
  popup.on('console', (message) => {
    if (message.type() === 'warning' && message.text().startsWith('toolscope:')) warnings.push(message.text());
  });
  assert.match(version, /^\d+\.\d+\.\d+/);

  const files = [
    seedFile('tools.json', 'catalog'), seedFile('rules.json', 'rules'),
    seedFile('selection_sessions.jsonl', 'traces'), seedFile('selection_labels.jsonl', 'labels'),
  ];
  await opener.evaluate((files) => window.send(files, { view: 'view=selection', title: 'Nightly run <b>42</b>' }), files);
  await waitForReport(popup);
  assert.equal(await popup.getByTestId('report-title').innerText(), 'Nightly run <b>42</b>');
  assert.equal(await popup.getByTestId('tab-selection').getAttribute('aria-selected'), 'true');
  const report = await downloadText(popup, () => popup.getByTestId('download-report-json').click());
  const expected = cliReport(SEED, {
    tools: ['tools.json'], rules: ['rules.json'],
    traces: ['selection_sessions.jsonl'], labels: ['selection_labels.jsonl'],
  });
  assert.deepEqual(JSON.parse(report.text), JSON.parse(expected));

  // Messages of other shapes are ignored with a warning.
  await opener.evaluate(() => window.sendRaw({ type: 'toolscope:open', files: 'nope' }));
  await opener.evaluate(() => window.sendRaw({ type: 'toolscope:open', files: [{ name: 'x', data: 42 }] }));
  await opener.evaluate(() => window.sendRaw({ hello: 'world' }));
  await popup.waitForFunction(() => true);
  const deadline = Date.now() + 5_000;
  while (warnings.length < 2 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
  assert.deepEqual(warnings, [
    'toolscope: ignored a toolscope:open message: `files` must be an array',
    'toolscope: ignored a toolscope:open message: files[0]: `data` must be an ArrayBuffer, a Uint8Array, a Blob or a string',
  ]);

  // With files loaded, the user is asked first: declining keeps them, accepting replaces them.
  const names = () => popup.getByTestId('file-name').allInnerTexts();
  const before = await names();
  popup.once('dialog', (dialog) => dialog.dismiss());
  const asked = popup.waitForEvent('dialog').catch(() => null);
  await opener.evaluate((file) => window.send([file]), seedFile('calls.json', 'traces'));
  await asked;
  await new Promise((done) => setTimeout(done, 300));
  assert.deepEqual(await names(), before);
  popup.once('dialog', (dialog) => dialog.accept());
  await opener.evaluate((file) => window.send([file]), seedFile('calls.json', 'traces'));
  await popup.waitForFunction(() => document.querySelectorAll('[data-testid="file-name"]').length === 1);
  await waitForReport(popup);
  assert.deepEqual(await names(), ['calls.json']);
  assert.equal(await popup.getByTestId('report-title').count(), 0, 'the new files came without a title');

  // Hostile text sent by another page is text too.
  const hostile = readFileSync(join(FIXTURES, 'hostile', 'markup.jsonl'), 'utf8');
  popup.once('dialog', (dialog) => dialog.accept());
  await opener.evaluate((files) => window.send(files, { title: '<img src=x onerror="window.__pwned=1">' }), [
    { name: '<script>window.__pwned=2</script>.jsonl', text: hostile },
    seedFile('tools.json', 'catalog'),
  ]);
  await popup.getByTestId('report-title').waitFor();
  await waitForReport(popup);
  assert.equal(await popup.getByTestId('report-title').innerText(), '<img src=x onerror="window.__pwned=1">');
  assert.deepEqual((await names()).sort(), ['<script>window.__pwned=2</script>.jsonl', 'tools.json'].sort());
  assert.equal(await popup.evaluate(() => window.__pwned), undefined);
  assert.equal(await popup.evaluate(() => document.querySelectorAll('[onerror], [onload], img').length), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
