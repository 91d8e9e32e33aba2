// Page benchmark (not a test): time from files chosen to report rendered in headless Chromium,
// for generated trace files, beside the CLI's `report --json` on the same files.
//
//   bash bench/page.sh            (builds the release site and the CLI, generates the files)
//
// Each size is measured REPEAT times in a fresh page; the fastest and the median are printed,
// with the main thread's longest task (PerformanceObserver 'longtask', which reports tasks over
// 50 ms) and longest gap between animation frames while the file loads, worst over the runs,
// and how much the browser's processes' resident memory grew while it loaded (sampled every
// 25 ms from /proc, so Linux only; the median over the runs).

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch } from '../tests/page/support.mjs';

const [site, cli, ...files] = process.argv.slice(2);
const REPEAT = Number(process.env.REPEAT ?? 3);

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
const server = await serve(site);
const browser = await launch();
console.log(
  'file | size | page: fastest / median | CLI report --json: fastest / median | page ÷ CLI | ' +
    'main thread: tasks over 50 ms / longest task / longest frame gap | browser memory grown (median) | × the file',
);
console.log('---|---|---|---|---|---|---|---');
for (const file of files) {
  const pageTimes = [];
  const blocking = { tasks: 0, longestTask: 0, longestGap: 0 };
  const runs = [];
  const grown = [];
  for (let run = 0; run < REPEAT; run += 1) {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.getByTestId('version').waitFor();
    // The worker is started with the page; wait until it has loaded its wasm.
    await page.waitForTimeout(1000);
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
    // The browser's memory sampled while the file loads: the most it grew over what it held.
    const before = browserRss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, browserRss())), 25);
    await page.getByTestId('file-input').setInputFiles([file]);
    await page.waitForFunction(() => window.__bench.end, null, { timeout: 600_000, polling: 100 });
    clearInterval(sampler);
    grown.push(Math.max(peak, browserRss()) - before);
    // Tasks are reported when they end: the one that shows the report, a moment later.
    await page.waitForTimeout(300);
    const { start, end, longTasks, longestGap, stages } = await page.evaluate(() => window.__bench);
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
      `${(median(grown) / 1e6).toFixed(0)} MB | ${(median(grown) / statSync(file).size).toFixed(1)}×`,
  );
  const middle = runs.find((run) => run.shown === median(pageTimes));
  stageLines.push(
    `${file.split('/').slice(-2).join('/')} (median run): ` +
      Object.entries(middle).map(([stage, at]) => `${stage} at ${at.toFixed(2)} s`).join(', '),
  );
}
console.log('');
for (const line of stageLines) console.log(line);
await browser.close();
await server.close();
