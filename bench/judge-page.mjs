// Judge benchmark, the page's half (not a test): the release site in headless Chromium judges
// CALLS calls of the trace against the fake provider (bench/judge-fake.mjs, already running), at
// concurrency 4 (the page's default) and 8, then once more from the worker's cache. Measured
// inside the page: the time from the click on Run to the run's summary shown, and the main
// thread meanwhile: every task over 50 ms (PerformanceObserver 'longtask') and every gap over
// 50 ms between animation frames, while judging and while the verdicts are applied. Outside it:
// the CPU of the browser's processes (less what they use idle) and the most requests the fake
// saw at once.
//
//   bash bench/judge.sh   (builds the site and the data, starts the fake, runs this)
//   node bench/judge-page.mjs SITE DATA_DIR FAKE_ORIGIN CALLS LATENCY_MS [--no-header]

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, loadFiles } from '../tests/page/support.mjs';

const [site, data, origin, calls, latency, noHeader] = process.argv.slice(2);
const PROTOCOL = origin.startsWith('https:') ? 'HTTP/2' : 'HTTP/1.1';
/** The engine's worker thread, as Linux names it in the renderer process. */
const WORKER = 'renderer: DedicatedWorker';
const CONCURRENCIES = (process.env.PAGE_CONCURRENCIES ?? '4 8').split(' ').map(Number);

/** CPU seconds (user+sys) used so far by this process's descendants: the browser's processes. */
function browserCpu() {
  const stats = new Map();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // Fields after the command's closing parenthesis: state, ppid, …, utime (14th), stime (15th).
      const after = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
      stats.set(Number(pid), { ppid: Number(after[1]), ticks: Number(after[11]) + Number(after[12]) });
    } catch {
      // The process has ended.
    }
  }
  const isOurs = (pid) => {
    for (let at = stats.get(pid)?.ppid; at; at = stats.get(at)?.ppid) if (at === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, stat] of stats) if (isOurs(pid)) ticks += stat.ticks;
  return ticks / 100; // USER_HZ, 100 on Linux
}

/** CPU seconds of the browser's threads so far, by process type and thread name. */
function browserThreads() {
  const byName = new Map();
  const parents = new Map();
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  for (const pid of pids) {
    try {
      parents.set(pid, Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ')[1]));
    } catch {
      // The process has ended.
    }
  }
  const isOurs = (pid) => {
    for (let at = parents.get(pid); at; at = parents.get(at)) if (at === process.pid) return true;
    return false;
  };
  for (const pid of pids.filter(isOurs)) {
    try {
      const type = (readFileSync(`/proc/${pid}/cmdline`, 'utf8').match(/--type=([a-z-]+)/) ?? [null, 'browser'])[1];
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = `${type}: ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`;
        const after = stat.split(') ').pop().split(' ');
        byName.set(name, (byName.get(name) ?? 0) + (Number(after[11]) + Number(after[12])) / 100);
      }
    } catch {
      // The process or thread has ended.
    }
  }
  return byName;
}

/** The threads that used 0.1 s or more between two looks, busiest first. */
function threadDelta(before, after) {
  return [...after].map(([name, cpu]) => [name, cpu - (before.get(name) ?? 0)])
    .filter(([, cpu]) => cpu >= 0.1).sort((a, b) => b[1] - a[1])
    .map(([name, cpu]) => `${name} ${cpu.toFixed(2)} s`).join(', ');
}

/**
 * The browser's CPU per second while `page` is idle (the probe's frames included), measured over
 * 2 s after a run, to subtract from the run's.
 */
async function idleCpu(page) {
  const from = browserCpu();
  await page.waitForTimeout(2000);
  return (browserCpu() - from) / 2;
}

/** The requests the fake has answered so far, and the most at once since the last look. */
async function fakeCounts() {
  const counts = await (await fetch(`${origin}/fake/requests`)).json();
  return [counts.requests, counts.max_in_flight];
}

/**
 * Installs the probes; `window.__bench` gets the run's start and end (the summary shown), every
 * task over 50 ms and every gap over 50 ms between animation frames, until 1 s after the end.
 */
function probe() {
  const bench = (window.__bench = { longTasks: [], frameGaps: [] });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  }).observe({ type: 'longtask' });
  let last = performance.now();
  const frame = (now) => {
    if (bench.start && !bench.settled && now - last > 50) bench.frameGaps.push({ start: last, end: now });
    last = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  document.querySelector('[data-testid="judge-start"]').addEventListener('click', () => {
    bench.start = performance.now();
    bench.previousSummary = document.querySelector('[data-testid="judge-run-summary"]');
  }, { capture: true });
  new MutationObserver(() => {
    const summary = document.querySelector('[data-testid="judge-run-summary"]');
    if (bench.start && !bench.end && summary && summary !== bench.previousSummary) {
      bench.end = performance.now();
      setTimeout(() => (bench.settled = performance.now()), 1000);
    }
  }).observe(document.body, { childList: true, subtree: true });
}

/**
 * One run in `page`; returns the table row. The task that shows the summary is the one that
 * applies the worker's whole report (with the verdicts) to the page: it and the second after it
 * are counted apart from the tasks while the calls are being judged.
 */
async function measure(page, label, concurrency) {
  await page.evaluate(probe);
  const [before] = await fakeCounts();
  const cpuBefore = browserCpu();
  const threadsBefore = browserThreads();
  await page.getByTestId('judge-start').click();
  await page.waitForFunction(() => window.__bench.end, null, { timeout: 600_000, polling: 200 });
  const cpu = browserCpu() - cpuBefore;
  const threads = browserThreads();
  const workerCpu = (threads.get(WORKER) ?? 0) - (threadsBefore.get(WORKER) ?? 0);
  console.error(`page ${label} concurrency ${concurrency} latency ${latency}, threads: ${threadDelta(threadsBefore, threads)}`);
  const [after, mostInFlight] = await fakeCounts();
  await page.waitForFunction(() => window.__bench.settled, null, { timeout: 600_000, polling: 200 });
  const idlePerSecond = await idleCpu(page);
  const summary = await page.getByTestId('judge-run-summary').innerText();
  const bench = await page.evaluate(() => ({ ...window.__bench, previousSummary: undefined }));
  const wall = (bench.end - bench.start) / 1000;
  const isJudging = (span) => span.end > bench.start && span.end < bench.end - 1;
  const isApplying = (span) => span.end >= bench.end - 1 && span.start <= bench.settled;
  const longest = (spans) => {
    const most = Math.max(0, ...spans.map((span) => span.end - span.start));
    return most ? `${most.toFixed(0)} ms` : 'none';
  };
  const judging = bench.longTasks.filter(isJudging);
  const ideal = Number(latency) > 0 ? String(Math.floor((concurrency * 1000) / Number(latency))) : '–';
  const cpuOfRun = cpu - idlePerSecond * wall;
  console.error(`page ${label} concurrency ${concurrency} latency ${latency}: ${summary}; ` +
    `idle browser CPU ${idlePerSecond.toFixed(3)} s/s; long tasks ${JSON.stringify(bench.longTasks.map(
      (task) => [Math.round(task.start - bench.start), Math.round(task.end - task.start)]))}`);
  return `${label} | ${PROTOCOL} | ${concurrency} | ${latency} ms | ${calls} | ${after - before} | ${mostInFlight} | ` +
    `${wall.toFixed(2)} s | ${(Number(calls) / wall).toFixed(0)} | ${ideal} | ` +
    `${cpuOfRun.toFixed(2)} s | ${(cpuOfRun * 1000 / Number(calls)).toFixed(2)} ms | ${workerCpu.toFixed(2)} s | ` +
    `${judging.length} | ${longest(judging)} | ${longest(bench.frameGaps.filter(isJudging))} | ` +
    `${longest(bench.longTasks.filter(isApplying))} | ${longest(bench.frameGaps.filter(isApplying))}`;
}

/**
 * The floor under the page's run: the same number of requests, as the worker sends them (a
 * 10 kB JSON body, the auth header, CORS, an abort signal, the body read whole), from a plain
 * JavaScript worker with no engine, at the same concurrency. Returns the table row.
 */
async function fetchFloor(concurrency) {
  const page = await (await browser.newContext()).newPage();
  // A page of its own on http://127.0.0.1 (from about:blank, a worker's fetch to 127.0.0.1 fails).
  await page.goto(`${blank.url}blank.html`);
  const [before] = await fakeCounts();
  const cpuBefore = browserCpu();
  const threadsBefore = browserThreads();
  const wall = await page.evaluate(async ({ url, calls, concurrency }) => {
    const source = `onmessage = async ({ data: { url, calls, concurrency } }) => {
      const content = 'THE CALL TO JUDGE: event 1, lookup_order (call c1)\\n' + 'x'.repeat(10000);
      const body = new TextEncoder().encode(JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content }] }));
      let next = 0;
      const started = performance.now();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < calls) {
          next += 1;
          const controller = new AbortController();
          const timer = setTimeout(() => controller.abort(), 120000);
          const response = await fetch(url, {
            method: 'POST', body, mode: 'cors', credentials: 'omit', redirect: 'error',
            referrerPolicy: 'no-referrer', signal: controller.signal,
            headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
          });
          await response.arrayBuffer();
          [...response.headers];
          clearTimeout(timer);
        }
      }));
      postMessage(performance.now() - started);
    };`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    return new Promise((done) => {
      worker.onmessage = ({ data }) => done(data / 1000);
      worker.postMessage({ url, calls, concurrency });
    });
  }, { url: `${origin}/v1/chat/completions`, calls: Number(calls), concurrency });
  const threads = browserThreads();
  const cpu = browserCpu() - cpuBefore - (await idleCpu(page)) * wall;
  const workerCpu = (threads.get(WORKER) ?? 0) - (threadsBefore.get(WORKER) ?? 0);
  console.error(`plain fetch concurrency ${concurrency} latency ${latency}, threads: ${threadDelta(threadsBefore, threads)}`);
  const [after, mostInFlight] = await fakeCounts();
  await page.context().close();
  const ideal = Number(latency) > 0 ? String(Math.floor((concurrency * 1000) / Number(latency))) : '–';
  return `plain fetch, no engine | ${PROTOCOL} | ${concurrency} | ${latency} ms | ${calls} | ${after - before} | ` +
    `${mostInFlight} | ${wall.toFixed(2)} s | ${(Number(calls) / wall).toFixed(0)} | ${ideal} | ` +
    `${cpu.toFixed(2)} s | ${(cpu * 1000 / Number(calls)).toFixed(2)} ms | ${workerCpu.toFixed(2)} s | | | | |`;
}

const server = await serve(site);
const blankDir = mkdtempSync(join(tmpdir(), 'judge-page-'));
writeFileSync(join(blankDir, 'blank.html'), '<!doctype html><title>blank</title>');
const blank = await serve(blankDir);
// The fake's HTTPS (HTTP/2) certificate is self-signed.
const browser = await launch(origin.startsWith('https:') ? ['--ignore-certificate-errors'] : []);
if (noHeader === undefined) {
  console.log(`Page: the Judge tab, ${calls} calls (sample of ${calls}, seed 1)`);
  console.log();
  console.log('run | protocol | concurrency | latency | calls | requests | most in flight | wall (click to summary) | ' +
    'calls/s | ideal calls/s | browser CPU | per call | the worker thread\'s CPU | judging: tasks > 50 ms | judging: longest task | ' +
    'judging: longest frame gap | applying the verdicts: longest task | applying: longest frame gap');
  console.log(Array(18).fill('---').join('|'));
}
for (const concurrency of CONCURRENCIES) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(server.url);
  await page.getByTestId('version').waitFor();
  await loadFiles(page, [join(data, 'sessions.jsonl'), join(data, 'tools.json')]);
  await page.getByTestId('tab-judge').click();
  await page.getByTestId('judge-provider').selectOption('openai_compatible');
  await page.getByTestId('judge-model').fill('fake-model');
  await page.getByTestId('judge-base-url').fill(`${origin}/v1`);
  await page.getByTestId('judge-key').fill('sk-bench');
  await page.getByTestId('judge-what').selectOption('sample');
  await page.getByTestId('judge-sample-n').fill(calls);
  await page.getByTestId('judge-seed').fill('1');
  await page.getByTestId('judge-concurrency').fill(String(concurrency));
  console.log(await measure(page, 'no cache', concurrency));
  if (concurrency === CONCURRENCIES[0]) console.log(await measure(page, 'from the cache', concurrency));
  await page.context().close();
  console.log(await fetchFloor(concurrency));
}
await browser.close();
await server.close();
await blank.close();
rmSync(blankDir, { recursive: true });
