// The page's Content-Security-Policy (docs/page.md#content-security-policy): the built page
// carries it, script injected as data runs nothing and is reported, and the page works under it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { card, cliReport, open, useBrowser, waitForReport, DEMO, DEMO_ROLES } from './support.mjs';

const shared = useBrowser(before, after);

/** The policy as a map from directive name to its sources, as the browser splits it. */
function parse(policy) {
  const directives = new Map();
  for (const directive of policy.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

test('the page carries the policy, before anything it governs, with a hash for each inline script only', async () => {
  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  const found = await page.evaluate(() => {
    const metas = document.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]');
    const head = [...document.head.children];
    const at = head.indexOf(metas[0]);
    return {
      count: metas.length,
      policy: metas[0]?.content ?? '',
      before: head.slice(0, at).map((element) => element.outerHTML),
      inline: [...document.querySelectorAll('script:not([src])')].map((script) => script.text),
    };
  });
  assert.equal(found.count, 1, 'one policy');
  assert.deepEqual(found.before, ['<meta charset="utf-8">'], 'only the charset comes before it');

  const policy = parse(found.policy);
  const expected = {
    'default-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    // No http://[::1]:*: Chromium refuses IPv6 literals in a policy (and says so in the console).
    'connect-src': ["'self'", 'https:', 'http://127.0.0.1:*', 'http://localhost:*'],
    'img-src': ["'self'"],
    'style-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'none'"],
  };
  for (const [name, sources] of Object.entries(expected)) assert.deepEqual(policy.get(name), sources, name);
  assert.deepEqual(
    [...policy.keys()].sort(),
    [...Object.keys(expected), 'script-src'].sort(),
    'no other directive',
  );

  // script-src: the page itself, WebAssembly, and exactly the inline scripts Trunk wrote.
  const script = policy.get('script-src');
  assert.deepEqual(script.slice(0, 2), ["'self'", "'wasm-unsafe-eval'"]);
  const hashes = found.inline.map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
  assert.ok(hashes.length >= 1, "Trunk's module script that starts the app");
  assert.deepEqual(script.slice(2).sort(), [...new Set(hashes)].sort());
  assert.deepEqual(errors, []);
});

test('script injected as data runs nothing and is reported; the worker starts and the demo loads', async () => {
  const errors = [];
  const page = await open(shared.browser, shared.server.url, errors);
  const ran = await page.evaluate(async () => {
    // What file content written as markup could try: a script element, an inline handler, an
    // image from elsewhere, an inline style, code from strings.
    const script = document.createElement('script');
    script.textContent = 'window.__injected = "script"';
    document.body.append(script);
    const image = document.createElement('img');
    image.setAttribute('onerror', 'window.__injected = "handler"');
    image.src = 'data:,not-an-image';
    document.body.append(image);
    const styled = document.createElement('p');
    styled.setAttribute('style', 'display: none');
    document.body.append(styled);
    setTimeout('window.__injected = "timer"');
    // Playwright's own evaluation may compile strings; code the page runs later may not.
    const compiled = await new Promise((done) => setTimeout(() => {
      const attempt = (compile) => {
        try {
          return compile();
        } catch (error) {
          return error.name;
        }
      };
      done([attempt(() => (0, eval)('"ran"')), attempt(() => new Function('return "ran"')())]);
    }, 0));
    await new Promise((done) => setTimeout(done, 500));
    const display = getComputedStyle(styled).display;
    script.remove();
    image.remove();
    styled.remove();
    return { injected: window.__injected ?? null, compiled, display };
  });
  assert.deepEqual(ran, { injected: null, compiled: ['EvalError', 'EvalError'], display: 'block' });
  // Each refusal is reported, so the error list every page test asserts empty catches them.
  const refused = errors.filter((error) => error.startsWith('csp: '));
  assert.ok(refused.some((error) => error.startsWith('csp: script-src-elem refused inline')), errors.join('\n'));
  assert.ok(refused.some((error) => error.startsWith('csp: script-src-attr refused inline')), errors.join('\n'));
  assert.ok(refused.some((error) => error.startsWith('csp: script-src refused eval')), errors.join('\n'));
  assert.ok(refused.some((error) => error.startsWith('csp: img-src refused data')), errors.join('\n'));
  assert.ok(refused.some((error) => error.startsWith('csp: style-src-attr refused inline')), errors.join('\n'));
  errors.length = 0;

  // The worker (a blob: loader that imports worker.js and fetches its wasm) runs under the
  // page's policy, and the demo's files are fetched from the page's own origin.
  await page.getByTestId('demo-button').click();
  await waitForReport(page);
  const expected = JSON.parse(cliReport(DEMO, DEMO_ROLES));
  assert.equal((await card(page, 'ov-sessions')).value, String(expected.summary.sessions));
  assert.deepEqual(errors, []);
});
