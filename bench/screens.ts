/**
 * What the user feels: each screen's time from navigation to its first page of rows drawn, in
 * Chromium (Playwright, Debian's build, as the e2e tests run it) against the bench's server over
 * the loaded books, beside the API time of the very reads the screen made. Each navigation, and
 * each replay of its reads, comes after a change to the ledger, so no kept answer serves it: the
 * screen as it opens after an edit, or first after a start. The browser's clock reads the books'
 * last day, so that the screens that open on this month (reports, budget) show the books' last
 * month.
 *
 *   node bench/screens.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser.ts';
import { runAlone, type Area, type Bench } from './lib/harness.ts';
import { REPO } from './lib/processes.ts';
import { besideRaw } from './lib/results.ts';
import { changeLedger, since, summarize } from './lib/stats.ts';
import { budgetsOf2025 } from './reads.ts';

/** A screen, and what on it is its first page of rows. */
interface Screen {
  id: string;
  label: string;
  /** the app's path it opens at */
  path: (bench: Bench) => string;
  /** a CSS selector that matches once a row of the first page is there */
  rows: string;
  /** a tab the screen is reached by, clicked once the screen at `path` has drawn `after` */
  tab?: { click: string; after: string };
}

const SCREENS: readonly Screen[] = [
  { id: 'screen_journal', label: 'journal', path: () => '/journal', rows: 'table.register tbody tr' },
  {
    id: 'screen_register',
    label: "an account's register (checking)",
    path: (bench) => `/accounts/${bench.ids.checking}`,
    rows: 'table.register-table tbody tr',
  },
  {
    id: 'screen_balance_sheet',
    label: 'reports, balance sheet (in USD)',
    path: () => '/reports',
    rows: '#report-panel-balance-sheet tbody tr',
  },
  {
    id: 'screen_income_statement',
    label: 'reports, income statement (in USD; from its tab)',
    path: () => '/reports',
    rows: '#report-panel-income-statement tbody tr',
    tab: { click: '#report-tab-income-statement', after: '#report-panel-balance-sheet tbody tr' },
  },
  {
    id: 'screen_statements',
    label: 'statements, the statement list',
    path: () => '/statements',
    rows: 'article[aria-labelledby="statements-heading"] tbody tr',
  },
  { id: 'screen_budget', label: "budget, the month's", path: () => '/budget', rows: '#budget-panel-month tbody tr' },
];

const rowLabel = (screen: Screen) => `screen: ${screen.label}, first page drawn`;

/**
 * In the page, before its own scripts: the clock at the books' last day (its time of day going on),
 * and a mark (`bench:rows`) at the first frame drawn once `selector` matches.
 */
function instrument({ today, selector }: { today: number; selector: string }): void {
  const RealDate = Date;
  const shift = today - RealDate.now();
  class BooksDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + shift);
      else super(...(args as [string]));
    }
    static override now(): number {
      return RealDate.now() + shift;
    }
  }
  globalThis.Date = BooksDate as DateConstructor;
  const observer = new MutationObserver(() => {
    if (!document.querySelector(selector)) return;
    observer.disconnect();
    requestAnimationFrame(() => performance.mark('bench:rows'));
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** One opening of a screen, as the page timed it. */
interface Opening {
  /** ms from the navigation (or the click on the tab) to the frame that drew the rows */
  ms: number;
  /** ms of that the page had a request to the API open */
  apiMs: number;
  /** ms from the navigation to the end of the page's own scripts' first run (DOMContentLoaded); 0 after a click */
  scriptMs: number;
  /** the API reads it made meanwhile (path and query) */
  reads: string[];
  rows: number;
}

/** Reads the page's marks and resource timings: the opening since `from` (0: the navigation). */
function timing({ from, selector }: { from: number; selector: string }): Omit<Opening, 'ms'> & { at: number } {
  const at = performance.getEntriesByName('bench:rows')[0]!.startTime;
  const api = performance
    .getEntriesByType('resource')
    .map((e) => ({ url: new URL(e.name), start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd }))
    .filter((e) => e.url.pathname.startsWith('/api/') && e.start >= from && e.end <= at)
    .sort((a, b) => a.start - b.start);
  let apiMs = 0;
  let reach = from;
  for (const e of api) {
    apiMs += Math.max(0, e.end - Math.max(e.start, reach));
    reach = Math.max(reach, e.end);
  }
  const reads = api.map((e) => e.url.pathname + e.url.search);
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const scriptMs = from === 0 ? (navigation?.domContentLoadedEventEnd ?? 0) : 0;
  return { at: at - from, apiMs, scriptMs, reads, rows: document.querySelectorAll(selector).length };
}

/** Opens `screen` once in `page` (navigating to it, or to its tab); the page's own timing of it. */
async function open(page: Page, url: string, screen: Screen): Promise<Opening> {
  await page.goto(url, { waitUntil: 'commit' });
  let from = 0;
  if (screen.tab) {
    await page.locator(screen.tab.after).first().waitFor({ state: 'visible', timeout: 120_000 });
    from = await page.evaluate((selector) => {
      const at = performance.now();
      (document.querySelector(selector) as HTMLElement).click();
      return at;
    }, screen.tab.click);
  }
  await page.locator(screen.rows).first().waitFor({ state: 'visible', timeout: 120_000 });
  await page.waitForFunction(() => performance.getEntriesByName('bench:rows').length > 0);
  const { at, ...rest } = await page.evaluate(timing, { from, selector: screen.rows });
  return { ms: at, ...rest };
}

/** The reads a screen made, through the API one after another, `n` times, each after a change to the ledger. */
async function replay(bench: Bench, reads: readonly string[], touch: readonly unknown[], n: number) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    await changeLedger(bench.client, touch, i);
    const start = process.hrtime.bigint();
    for (const read of reads) await bench.client.ok('GET', read);
    times.push(since(start));
  }
  return summarize(times);
}

/** A browser signed in as the bench's user through the sign-in screen, staying signed in. */
async function signedIn(bench: Bench, browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(bench.server.url);
  await page.getByRole('tab', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(bench.user.email);
  await page.getByLabel('Password').fill(bench.user.password);
  await page.getByLabel('Stay signed in').check();
  await page.locator('form').getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 120_000 });
  await page.close();
  return context;
}

const ms = (x: number) => x.toFixed(0);

/** A screen's row: one opening not counted, then `counts.screenRuns`, each after a change to the ledger. */
async function measureScreen(
  bench: Bench,
  context: BrowserContext,
  screen: Screen,
  touch: readonly unknown[],
): Promise<void> {
  const { client, counts, manifest } = bench;
  const page = await context.newPage();
  try {
    const today = Date.parse(`${manifest.lastDay}T12:00:00`);
    await page.addInitScript(instrument, { today, selector: screen.rows });
    const url = bench.server.url + screen.path(bench);
    await bench.attempt(screen.id, rowLabel(screen), 'ms', async () => {
      const first = await open(page, url, screen);
      const openings: Opening[] = [];
      for (let i = 0; i < counts.screenRuns; i++) {
        await changeLedger(client, touch, i);
        openings.push(await open(page, url, screen));
      }
      const drawn = summarize(openings.map((o) => o.ms));
      const waited = summarize(openings.map((o) => o.apiMs));
      const script = summarize(openings.map((o) => o.scriptMs));
      const loaded = screen.tab
        ? ''
        : `its scripts had loaded and run once by ${ms(script.p50)} ms (DOMContentLoaded), `;
      const api = await replay(bench, first.reads, touch, counts.screenRuns);
      const reads = first.reads.map((r) => r.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}')).join(', ');
      return {
        ...besideRaw(drawn, `its ${first.reads.length} API reads, one after another`, api, {
          text: '≤ 1000 ms',
          stat: 'p50',
          atMost: 1000,
        }),
        note: `${first.rows} rows; of its p50 the page waited ${ms(waited.p50)} ms on the API (open requests, Resource Timing; p99 ${ms(waited.p99)} of ${ms(drawn.p99)} ms), ${loaded}the rest is the app's own work and drawing; reads: ${reads}`,
      };
    });
  } finally {
    await page.close();
  }
}

/**
 * A statement on the statements screen: when the run imported none (the screens alone), the
 * checking statement, reconciled once; not timed.
 */
async function ensureStatement(bench: Bench): Promise<void> {
  const { client, ids } = bench;
  if ((await client.json<{ total: number }>('GET', '/api/statements?per_page=1')).total > 0) return;
  const file = path.join(bench.options.books, 'statement-checking.json');
  const { transactions } = JSON.parse(fs.readFileSync(file, 'utf8')) as { transactions: unknown[] };
  const body = { account_id: ids.checking, name: 'Bench statement', transactions };
  const statement = await client.json<{ id: string }>('POST', '/api/statements', body, 201);
  await client.json('POST', '/api/reconciliation/run', { statement_id: statement.id }, [200, 201]);
}

/** The renderer built, once a run; resolves to the failure if it fails (the screens' rows' error, not the run's). */
function buildOnce(bench: Bench): Promise<unknown> {
  return bench.once('renderer build', async () => {
    bench.log('  building the renderer');
    // loaded here, not with bench/run.ts: the other areas need neither Vite nor Playwright
    const { buildRenderer } = await import('../main/renderer-build.ts');
    try {
      await buildRenderer(REPO);
      return undefined;
    } catch (error) {
      return error;
    }
  });
}

/** The built renderer served: a server started before there was a build serves none until it starts again. */
async function ensureRenderer(bench: Bench): Promise<void> {
  const failed = await buildOnce(bench);
  if (failed) throw failed;
  const reply = await bench.client.request('GET', '/');
  if (reply.status === 200 && String(reply.headers['content-type']).startsWith('text/html')) return;
  bench.log('  the server started before the renderer was built: starting it again');
  await bench.stopServer();
  await bench.startServer();
}

export const screens: Area = {
  name: 'screens',
  // built before anything is measured, not while the server answers
  prepare: async (bench) => {
    await buildOnce(bench);
  },
  run: async (bench) => {
    bench.phase('screens');
    const touch = await budgetsOf2025(bench);
    await ensureStatement(bench);
    let browser: Browser;
    try {
      await ensureRenderer(bench);
      const { chromium } = await import('@playwright/test');
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      for (const screen of SCREENS)
        bench.results.record({ id: screen.id, label: rowLabel(screen), unit: 'ms', error: message });
      return;
    }
    try {
      const context = await signedIn(bench, browser);
      for (const screen of SCREENS) await measureScreen(bench, context, screen, touch);
    } finally {
      await browser.close();
    }
  },
};

runAlone(import.meta, [screens]);
