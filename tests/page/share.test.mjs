// Sharing: a link that carries the data, links to hosted files (plain, pinned, encrypted), and
// the reports they open, byte for byte the same as the report they were made from.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  serve, launch, open, loadFiles, waitForReport, cli, cliAsync, cliReport, downloadText, FIXTURES, DEMO,
} from './support.mjs';

const SEED = join(FIXTURES, 'seed');
const SEED_FILES = ['tools.json', 'rules.json', 'selection_sessions.jsonl', 'selection_labels.jsonl'];
const SEED_ROLES = {
  tools: ['tools.json'],
  rules: ['rules.json'],
  traces: ['selection_sessions.jsonl'],
  labels: ['selection_labels.jsonl'],
};

let server;
let browser;
let hosts;
const errors = [];

/**
 * A static host on another origin (so every fetch is cross-origin): serves `files` (path →
 * bytes), with `Access-Control-Allow-Origin: *` only under /cors/, and records each request.
 */
async function startHost() {
  const files = new Map();
  const requests = [];
  const host = createServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    requests.push({ path, headers: request.headers });
    const headers = path.startsWith('/cors/') ? { 'access-control-allow-origin': '*' } : {};
    const name = path.replace(/^\/(cors|plain)\//, '');
    if (!files.has(name)) {
      response.writeHead(404, headers).end();
      return;
    }
    response.writeHead(200, { ...headers, 'content-type': 'application/octet-stream' });
    response.end(files.get(name));
  });
  await new Promise((ready) => host.listen(0, '127.0.0.1', ready));
  const origin = `http://127.0.0.1:${host.address().port}`;
  return { files, requests, origin, close: () => new Promise((done) => host.close(done)) };
}

before(async () => {
  server = await serve();
  browser = await launch();
  hosts = await startHost();
  for (const name of SEED_FILES) hosts.files.set(name, readFileSync(join(SEED, name)));
});

after(async () => {
  await browser?.close();
  await server?.close();
  await hosts?.close();
});

async function reportJson(page) {
  return (await downloadText(page, () => page.getByTestId('download-report-json').click())).bytes;
}

/** Opens the share dialog and returns the data link it offers (waits for the worker). */
async function dataLink(page) {
  await page.getByTestId('share-button').click();
  const input = page.getByTestId('share-link');
  await input.waitFor({ timeout: 30_000 });
  return input.inputValue();
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

test('a data link reopens the same report, the same view, byte for byte', async () => {
  const page = await open(browser, server.url, errors);
  await loadFiles(page, SEED_FILES.map((name) => join(SEED, name)));
  await page.getByTestId('tab-selection').click();
  const before = await reportJson(page);
  assert.deepEqual(JSON.parse(before.toString()), JSON.parse(cliReport(SEED, SEED_ROLES)));

  const link = await dataLink(page);
  assert.match(link, /#data=1\.[A-Za-z0-9_-]+&view=selection$/);
  // The CLI opens the link the page made to the same report (`toolscope open`: the same code).
  assert.deepEqual(JSON.parse(cli(['open', '--json', link])), JSON.parse(before.toString()));
  const length = await page.getByTestId('share-length').getAttribute('data-length');
  assert.equal(Number(length), link.length);
  assert.match(await page.getByTestId('share-note').innerText(), /Short enough/);
  assert.match(await page.getByTestId('share-privacy').innerText(), /cannot be taken back/);

  const reopened = await open(browser, link, errors);
  await waitForReport(reopened);
  assert.equal(await reopened.getByTestId('tab-selection').getAttribute('aria-selected'), 'true');
  assert.deepEqual(
    await reopened.getByTestId('file-name').allInnerTexts(),
    await page.getByTestId('file-name').allInnerTexts(),
  );
  assert.ok((await reportJson(reopened)).equals(before), 'the report JSON is byte-identical');
  // The link's data stays in the address, so a reload opens it again.
  assert.equal(new URL(reopened.url()).hash, new URL(link).hash);
  assert.deepEqual(errors, []);
});

test('long links are copied with a note, and past the limit the hosted ways are offered', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-share-'));
  const demo = readFileSync(join(DEMO, 'sessions.jsonl'), 'utf8').split('\n');
  writeFileSync(join(dir, 'some.jsonl'), `${demo.slice(0, 12).join('\n')}\n`);
  // Random hex does not compress below half its size: about 130,000 characters of link.
  const noise = Array.from({ length: 1000 }, (_, index) =>
    JSON.stringify({ session_id: `s${index}`, events: [{ type: 'user', content: randomBytes(48).toString('hex') }] }),
  );
  writeFileSync(join(dir, 'noise.jsonl'), `${noise.join('\n')}\n`);

  const page = await open(browser, server.url, errors);
  await loadFiles(page, [join(dir, 'some.jsonl')]);
  const link = await dataLink(page);
  assert.ok(link.length > 4000 && link.length <= 60000, `a long link: ${link.length}`);
  assert.match(await page.getByTestId('share-note').innerText(), /Longer than 4000 characters: fine in a PR comment/);

  const large = await open(browser, server.url, errors);
  await loadFiles(large, [join(dir, 'noise.jsonl')]);
  await large.getByTestId('share-button').click();
  await large.getByText(/Longer than 60000 characters/).waitFor({ timeout: 30_000 });
  assert.equal(await large.getByTestId('share-link').count(), 0, 'no link past the limit');
  assert.equal(await large.getByTestId('share-encrypt').count(), 1, 'an encrypted file is offered');
  assert.deepEqual(errors, []);
});

test('#src loads files from another host that allows CORS, with no cookies or referrer', async () => {
  const sources = [
    ['tools.json', 'catalog'], ['rules.json', 'rules'],
    ['selection_sessions.jsonl', 'traces'], ['selection_labels.jsonl', 'labels'],
  ].map(([name, role]) => `src=${encodeURIComponent(`${hosts.origin}/cors/${name}`)}&role=${role}`);
  const page = await open(browser, `${server.url}#${sources.join('&')}&view=problems`, errors);
  await waitForReport(page);
  assert.equal(await page.getByTestId('tab-problems').getAttribute('aria-selected'), 'true');
  assert.deepEqual(JSON.parse((await reportJson(page)).toString()), JSON.parse(cliReport(SEED, SEED_ROLES)));
  const fetched = hosts.requests.filter((request) => request.path.startsWith('/cors/'));
  assert.ok(fetched.length >= 4);
  for (const { headers } of fetched) {
    assert.equal(headers.cookie, undefined);
    assert.equal(headers.authorization, undefined);
    assert.equal(headers.referer, undefined);
  }
  assert.deepEqual(errors, []);
});

test('#src failures say what happened, and the files that loaded still load', async () => {
  const good = encodeURIComponent(`${hosts.origin}/cors/selection_sessions.jsonl`);
  const noCors = encodeURIComponent(`${hosts.origin}/plain/tools.json`);
  const missing = encodeURIComponent(`${hosts.origin}/cors/nope.jsonl`);
  const pinned = encodeURIComponent(`${hosts.origin}/cors/rules.json`);
  const insecure = encodeURIComponent('http://example.com/x.jsonl');
  const fragment = `src=${good}&sha256=${sha256(hosts.files.get('selection_sessions.jsonl'))}`
    + `&src=${noCors}&src=${missing}&src=${pinned}&sha256=${'0'.repeat(64)}&src=${insecure}`;
  const loadErrors = [];
  const page = await open(browser, `${server.url}#${fragment}`, loadErrors);
  await waitForReport(page);
  const shown = await page.getByTestId('load-error').allInnerTexts();
  assert.equal(shown.length, 4, shown.join('\n'));
  assert.ok(shown.some((line) => line.includes('/plain/tools.json') && line.includes('(CORS)')
    && line.includes('Access-Control-Allow-Origin: *')), shown.join('\n'));
  assert.ok(shown.some((line) => line.includes('nope.jsonl: HTTP 404, not found')), shown.join('\n'));
  assert.ok(shown.some((line) => line.includes('rules.json: its SHA-256 is')
    && line.includes(`expects ${'0'.repeat(64)}`)), shown.join('\n'));
  assert.ok(shown.some((line) => line.includes('example.com/x.jsonl: not https')), shown.join('\n'));
  // The pinned, matching file loaded: the report is the CLI's for it alone.
  assert.deepEqual(await page.getByTestId('file-name').allInnerTexts(), ['selection_sessions.jsonl']);
  const expected = cliReport(SEED, { traces: ['selection_sessions.jsonl'] });
  assert.deepEqual(JSON.parse((await reportJson(page)).toString()), JSON.parse(expected));
});

test('a relative #src loads data published next to the page', async () => {
  const page = await open(browser, `${server.url}#src=demo/tools.json&src=demo/sessions.jsonl`, errors);
  await waitForReport(page);
  assert.deepEqual(await page.getByTestId('file-name').allInnerTexts(), ['tools.json', 'sessions.jsonl']);
  const expected = cliReport(DEMO, { tools: ['tools.json'], traces: ['sessions.jsonl'] });
  assert.deepEqual(JSON.parse((await reportJson(page)).toString()), JSON.parse(expected));
  assert.deepEqual(errors, []);
});

test('an encrypted file opens with its key, and a wrong key or a flipped byte shows nothing', async () => {
  const page = await open(browser, server.url, errors);
  await loadFiles(page, SEED_FILES.map((name) => join(SEED, name)));
  const before = await reportJson(page);
  await page.getByTestId('share-button').click();
  const sealed = await downloadText(page, () => page.getByTestId('share-encrypt').click());
  assert.equal(sealed.name, 'toolscope-report.tsenc');
  hosts.files.set('run.tsenc', sealed.bytes);
  await page.getByTestId('share-host-url').fill(`${hosts.origin}/cors/run.tsenc`);
  const link = await page.getByTestId('share-encrypted-link').inputValue();
  const key = new URL(link).hash.match(/key=([A-Za-z0-9_-]{43})/)[1];
  assert.ok(!sealed.bytes.includes(Buffer.from(key)), 'the key is not in the file');
  for (const name of SEED_FILES) {
    assert.ok(!sealed.bytes.includes(readFileSync(join(SEED, name)).subarray(0, 40)), `${name} is not readable in the file`);
  }

  const reopened = await open(browser, link, errors);
  await waitForReport(reopened);
  assert.ok((await reportJson(reopened)).equals(before), 'the report JSON is byte-identical');
  // The CLI fetches and opens the same hosted file with the link's key.
  assert.deepEqual(JSON.parse(await cliAsync(['open', '--json', link])), JSON.parse(before.toString()));

  const wrongKey = link.replace(key, `${key.slice(0, 5)}${key[5] === 'A' ? 'B' : 'A'}${key.slice(6)}`);
  const flipped = Buffer.from(sealed.bytes);
  flipped[flipped.length - 20] ^= 1;
  hosts.files.set('flipped.tsenc', flipped);
  const flippedLink = link.replace('run.tsenc', 'flipped.tsenc');
  for (const refused of [wrongKey, flippedLink]) {
    const failed = await open(browser, refused, []);
    await failed.getByTestId('load-error').first().waitFor({ timeout: 30_000 });
    assert.match(await failed.getByTestId('load-error').innerText(), /cannot decrypt: wrong key or damaged file/);
    assert.equal(await failed.getByTestId('tab-overview').count(), 0, 'nothing partial is shown');
  }
  assert.deepEqual(errors, []);
});

test('hostile text through a data link and #src is shown as text, and a damaged link says so', async () => {
  const hostile = [
    JSON.stringify({ session_id: '<img src=x onerror="window.__pwned=1">', events: [
      { type: 'user', content: '<script>window.__pwned=2</script>' },
      { type: 'tool_use', call_id: 'c', name: '<svg onload="window.__pwned=3">', args: {} },
    ] }),
  ].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-hostile-share-'));
  writeFileSync(join(dir, 'hostile.jsonl'), `${hostile}\n`);
  hosts.files.set('hostile.jsonl', Buffer.from(`${hostile}\n`));
  const page = await open(browser, server.url, errors);
  // With a catalog, the hostile tool name is an unknown tool: a problem row shows it.
  await loadFiles(page, [join(SEED, 'tools.json'), join(dir, 'hostile.jsonl')]);
  const link = await dataLink(page);
  const hosted = ['tools.json', 'hostile.jsonl']
    .map((name) => `src=${encodeURIComponent(`${hosts.origin}/cors/${name}`)}`).join('&');
  // And sealed: the same files through an encrypted hosted file.
  const sealed = await downloadText(page, () => page.getByTestId('share-encrypt').click());
  hosts.files.set('hostile.tsenc', sealed.bytes);
  await page.getByTestId('share-host-url').fill(`${hosts.origin}/cors/hostile.tsenc`);
  const sealedLink = `${await page.getByTestId('share-encrypted-link').inputValue()}&view=problems`;
  for (const url of [link, `${server.url}#${hosted}&view=problems`, sealedLink]) {
    const opened = await open(browser, url, errors);
    await waitForReport(opened);
    await opened.getByTestId('tab-problems').click();
    await opened.locator('td', { hasText: '<svg onload="window.__pwned=3">' }).first().waitFor();
    assert.equal(await opened.evaluate(() => window.__pwned), undefined);
    assert.equal(await opened.evaluate(() => document.querySelectorAll('[onerror], [onload]').length), 0);
  }
  const damaged = await open(browser, `${server.url}#data=1.AAAAAAAA`, []);
  await damaged.getByTestId('load-error').waitFor();
  assert.match(await damaged.getByTestId('load-error').innerText(), /^The link's data: the shared data is damaged/);
  const future = await open(browser, `${server.url}#data=9.AAAA`, []);
  await future.getByTestId('load-error').waitFor();
  assert.match(await future.getByTestId('load-error').innerText(), /version 9 links; open it with a newer toolscope/);
  assert.deepEqual(errors, []);
});
