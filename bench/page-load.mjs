// Page benchmark (not a test): time from files chosen to report rendered in headless Chromium,
// for generated trace files, beside the CLI's `report --json` on the same files.
//
//   bash bench/page.sh            (builds the release site and the CLI, generates the files)
//
// Each size is measured REPEAT times in a fresh page, the file given once the page's worker has
// said it is ready and the page has been open DELAY_MS milliseconds (default 0: as soon as the
// worker is ready; DELAY_MS=1500 is closer to a user, who takes a moment to pick a file, and gives
// the worker's warm-up time to finish); the fastest and the median are printed,
// with the main thread's longest task (PerformanceObserver 'longtask', which reports tasks over
// 50 ms) and longest gap between animation frames while the file loads, worst over the runs,
// and how much the browser's processes' resident memory grew while it loaded (sampled every
// 25 ms from /proc, so Linux only; the median over the runs).
// RESULTS_JSON=path also writes those figures as JSON (bench/overview.py reads them).

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { serve, launch } from '../tests/page/support.mjs';

const [site, cli, ...files] = process.argv.slice(2);
const REPEAT = Number(process.env.REPEAT ?? 3);
// Milliseconds from the page's navigation to the file given (at least until the worker is ready).
const DELAY_MS = Number(process.env.DELAY_MS ?? 0);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Resident memory, in bytes, of every process this one started, and theirs: the browser. */
function browserRss() {
  const parents = new Map();
  const rss = new Map();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      parents.set(Number(name), Number(status.match(/^PPid:\s+(\d+)/m)[1]));
      rss.set(Number(name), Number(status.match(/^VmRSS:\s+(\d+)/m)?.[1] ?? 0) * 1024);
    } catch {
      // The process has ended.
    }
  }
  const isOurs = (pid) => {
    for (let at = parents.get(pid); at; at = parents.get(at)) if (at === process.pid) return true;
    return false;
  };
  return [...rss].filter(([pid]) => isOurs(pid)).reduce((sum, [, bytes]) => sum + bytes, 0);
}

const stageLines = [];
const results = [];
const server = await serve(site);
const loadAverage = () => loadavg().map((load) => load.toFixed(2)).join(', ');
console.log(`DELAY_MS=${DELAY_MS}, REPEAT=${REPEAT}, load average ${loadAverage()}`);
console.log('');
const browser = await launch();
console.log(
  'file | size | page: fastest / median | CLI report --json: fastest / median | page ÷ CLI | ' +
    'main thread: tasks over 50 ms / longest task / longest frame gap | browser memory grown (median) | × the file | ' +
    'page times (s) | worker ready / file given (s after navigation, median) | before the file: tasks over 50 ms / longest',
);
console.log('---|---|---|---|---|---|---|---|---|---|---');
for (const file of files) {
  const pageTimes = [];
  const blocking = { tasks: 0, longestTask: 0, longestGap: 0, beforeTasks: 0, beforeLongest: 0 };
  const readyAt = [];
  const givenAt = [];
  const runs = [];
  const grown = [];
  for (let run = 0; run < REPEAT; run += 1) {
    const page = await browser.newPage();
    // When the worker first says it is ready (its wasm loaded and started), for DELAY_MS.
    // And every main-thread task over 50 ms from the page's start, to see what comes before the file.
    await page.addInitScript(() => {
      window.__longTasksFromStart = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasksFromStart.push([entry.startTime, entry.duration]);
      }).observe({ type: 'longtask' });
      const PageWorker = window.Worker;
      window.Worker = class extends PageWorker {
        constructor(...args) {
          super(...args);
          this.addEventListener('message', (event) => {
            const isReady = typeof event.data === 'string' && event.data.includes('"type":"ready"');
            if (isReady && window.__workerReady === undefined) window.__workerReady = performance.now();
          });
        }
      };
    });
    await page.goto(server.url);
    await page.getByTestId('version').waitFor();
    // Timed inside the page, from the input's change event to the DOM mutation that shows the
    // report, so the harness's polling does not count.
    await page.evaluate(() => {
      const bench = (window.__bench = { longTasks: [], longestGap: 0 });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) bench.longTasks.push([entry.startTime, entry.duration]);
      }).observe({ type: 'longtask' });
      let last = performance.now();
      const frame = (now) => {
        if (bench.start && !bench.end) bench.longestGap = Math.max(bench.longestGap, now - last);
        last = now;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      document
        .querySelector('[data-testid="file-input"]')
        .addEventListener('change', () => (bench.start = performance.now()), { capture: true });
      // When each stage the progress bar names first shows.
      bench.stages = {};
      new MutationObserver(() => {
        const progress = document.querySelector('[data-testid="progress"]');
        const label = progress?.textContent ?? '';
        for (const stage of ['Loading files', 'Reading traces', 'Checking sessions', 'Scoring', 'Preparing the report']) {
          if (bench.start && label.includes(stage) && !(stage in bench.stages)) bench.stages[stage] = performance.now();
        }
        const isShown = document.querySelector('[data-testid="ov-calls"]');
        const isRunning = document.querySelector('[data-testid="progress"]');
        if (bench.start && !bench.end && isShown && !isRunning) bench.end = performance.now();
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    // The worker is started with the page: the file is given once it is ready and the page has
    // been open DELAY_MS (0: as soon as it is ready; a user takes a second or more to pick one).
    // Found beforehand, so giving the file takes one round trip to the browser.
    const input = await page.$('[data-testid="file-input"]');
    await page.waitForFunction(() => window.__workerReady !== undefined, null, { polling: 5 });
    const opened = await page.evaluate(() => performance.now());
    if (DELAY_MS > opened) await page.waitForTimeout(DELAY_MS - opened);
    // The browser's memory sampled while the file loads: the most it grew over what it held.
    const before = browserRss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, browserRss())), 25);
    await input.setInputFiles([file]);
    await page.waitForFunction(() => window.__bench.end, null, { timeout: 600_000, polling: 100 });
    clearInterval(sampler);
    grown.push(Math.max(peak, browserRss()) - before);
    // Tasks are reported when they end: the one that shows the report, a moment later.
    await page.waitForTimeout(300);
    const { start, end, longTasks, longestGap, stages } = await page.evaluate(() => window.__bench);
    const fromStart = await page.evaluate(() => window.__longTasksFromStart);
    const beforeFile = fromStart.filter(([taskStart]) => taskStart < start).map(([, duration]) => duration);
    blocking.beforeTasks = Math.max(blocking.beforeTasks, beforeFile.length);
    blocking.beforeLongest = Math.max(blocking.beforeLongest, ...beforeFile, 0);
    readyAt.push((await page.evaluate(() => window.__workerReady)) / 1000);
    givenAt.push(start / 1000);
    pageTimes.push((end - start) / 1000);
    // Seconds from the change event to each stage, and to the report shown.
    runs.push({ ...Object.fromEntries(Object.entries(stages).map(([stage, at]) => [stage, (at - start) / 1000])), shown: (end - start) / 1000 });
    // The tasks that overlap the load, from the change event to the report shown.
    const during = longTasks
      .filter(([taskStart, duration]) => taskStart + duration >= start && taskStart <= end)
      .map(([, duration]) => duration);
    blocking.tasks = Math.max(blocking.tasks, during.length);
    blocking.longestTask = Math.max(blocking.longestTask, ...during, 0);
    blocking.longestGap = Math.max(blocking.longestGap, longestGap);
    await page.close();
  }
  const cliTimes = [];
  for (let run = 0; run < REPEAT; run += 1) {
    const started = process.hrtime.bigint();
    try {
      execFileSync(cli, ['report', '--json', file], { stdio: ['ignore', 'ignore', 'ignore'] });
    } catch (error) {
      if (error.status !== 1) throw error;
    }
    cliTimes.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  const size = (statSync(file).size / 1e6).toFixed(1);
  const ratio = median(pageTimes) / median(cliTimes);
  console.log(
    `${join('…', file.split('/').slice(-2).join('/'))} | ${size} MB | ` +
      `${Math.min(...pageTimes).toFixed(2)} s / ${median(pageTimes).toFixed(2)} s | ` +
      `${Math.min(...cliTimes).toFixed(2)} s / ${median(cliTimes).toFixed(2)} s | ${ratio.toFixed(2)}× | ` +
      `${blocking.tasks} / ${blocking.longestTask.toFixed(0)} ms / ${blocking.longestGap.toFixed(0)} ms | ` +
      `${(median(grown) / 1e6).toFixed(0)} MB | ${(median(grown) / statSync(file).size).toFixed(1)}× | ` +
      `${pageTimes.map((time) => time.toFixed(2)).join(' ')} | ` +
      `${median(readyAt).toFixed(2)} / ${median(givenAt).toFixed(2)} | ` +
      `${blocking.beforeTasks} / ${blocking.beforeLongest.toFixed(0)} ms`,
  );
  results.push({
    file,
    bytes: statSync(file).size,
    page_s: pageTimes,
    cli_s: cliTimes,
    page_median_s: median(pageTimes),
    cli_median_s: median(cliTimes),
    tasks_over_50ms: blocking.tasks,
    longest_task_ms: blocking.longestTask,
    longest_frame_gap_ms: blocking.longestGap,
    memory_grown_bytes: median(grown),
  });
  const middle = runs.find((run) => run.shown === median(pageTimes));
  stageLines.push(
    `${file.split('/').slice(-2).join('/')} (median run): ` +
      Object.entries(middle).map(([stage, at]) => `${stage} at ${at.toFixed(2)} s`).join(', '),
  );
}
console.log('');
for (const line of stageLines) console.log(line);
console.log(`load average after: ${loadAverage()}`);
if (process.env.RESULTS_JSON) {
  writeFileSync(process.env.RESULTS_JSON, JSON.stringify({ delay_ms: DELAY_MS, repeat: REPEAT, results }, null, 2));
}
await browser.close();
await server.close();
