/**
 * Registers and search, each beside the raw reads of the same page on the same file: pages of the
 * checking account's entries (first and any), its register lines with their running balance, the
 * journal searched for memo words and an amount, and pages of a year's entries.
 *
 *   node bench/register.ts [--size 10k|100k|1m] [--data DIR] (the harness's options, bench/README.md)
 */
import { runAlone, type Area, type Bench } from './lib/harness.ts';
import { Random } from './lib/random.ts';
import { measureReads, PAGE_TARGET, type ReadRow, type RowsOf } from './lib/read-rows.ts';

const PER_PAGE = 50;
const YEAR = 'start_date=2024-01-01&end_date=2024-12-31';
const COUNTED = 'month and day counts + page + lines';

export interface Pages {
  perPage: number;
  /** pages of the checking account's entries */
  accountPages: number;
  /** pages of 2024's entries */
  rangePages: number;
}

/** The register's page counts, read once a run (the read throughput asks for any page too). */
export function registerPages(bench: Bench): Promise<Pages> {
  return bench.once('register pages', async () => {
    const { client, ids } = bench;
    const total = async (query: string) =>
      (await client.json<{ total: number }>('GET', `/api/journal-entries?${query}&per_page=${PER_PAGE}`)).total;
    const accountTotal = await total(`account_id=${ids.checking}`);
    const rangeTotal = await total(YEAR);
    const pages = {
      perPage: PER_PAGE,
      accountPages: Math.max(1, Math.ceil(accountTotal / PER_PAGE)),
      rangePages: Math.max(1, Math.ceil(rangeTotal / PER_PAGE)),
    };
    bench.info.register = {
      checkingEntries: accountTotal,
      checkingPages: pages.accountPages,
      yearEntries: rangeTotal,
      yearPages: pages.rangePages,
    };
    return pages;
  });
}

/** `n` + 5 page numbers: random ones, every tenth the last. */
function anyPages(random: Random, n: number, last: number): number[] {
  return Array.from({ length: n + 5 }, (_, i) => (i % 10 === 9 ? last : random.int(1, last)));
}

/** Pages of the checking account's entries, first and any. */
function entryPageRows(bench: Bench, pages: Pages, random: Random): RowsOf {
  const { counts, ids } = bench;
  const { accountPages } = pages;
  const any = anyPages(random, counts.page, accountPages);
  const entries = `/api/journal-entries?account_id=${ids.checking}&per_page=${PER_PAGE}`;
  return (raw) => [
    {
      id: 'register_account_first',
      label: 'register by account (checking), first page',
      n: counts.page,
      path: () => entries,
      raw: { label: COUNTED, read: () => raw.register({ accountId: ids.checking }, 1, PER_PAGE) },
      target: PAGE_TARGET,
    },
    {
      id: 'register_account_any',
      label: `register by account, any page (of ${accountPages})`,
      n: counts.page,
      path: (i) => `${entries}&page=${any[i]}`,
      raw: { label: COUNTED, read: (i) => raw.register({ accountId: ids.checking }, any[i]!, PER_PAGE) },
      target: PAGE_TARGET,
    },
  ];
}

/**
 * The account register screen's reads (CONTRACT §15): lines with their running balance and other
 * accounts, first and any page; and searches (q=): a common memo word, two words, an amount. The
 * same page or search asked again is the answer kept for an unchanged ledger: these are computed.
 */
function uncachedRows(bench: Bench, linePages: number, random: Random): RowsOf {
  const { counts, ids } = bench;
  const any = anyPages(random, counts.page, linePages);
  const registerPath = (page: number) => `/api/accounts/${ids.checking}/register?per_page=${PER_PAGE}&page=${page}`;
  const touchLines = ids.all
    .filter((a) => a.type === 'EXPENSE' && a.currency === 'USD')
    .slice(0, 2)
    .map((a) => ({ account_id: a.id, amount: '1.00' }));
  const lines = 'month and day counts + lines + balance + other accounts';
  const search = 'matches counted to 1,000 past the page + page + lines';
  const searchRow = (id: string, label: string, q: string, read: () => unknown): ReadRow => ({
    id,
    label,
    n: counts.page,
    uncached: touchLines,
    path: () => `/api/journal-entries?q=${encodeURIComponent(q)}&per_page=${PER_PAGE}`,
    raw: { label: search, read },
    target: { text: 'p99 ≤ 50 ms', stat: 'p99', atMost: 50 },
  });
  return (raw) => [
    {
      id: 'account_register_first',
      label: 'account register (checking), first page, uncached',
      n: counts.page,
      uncached: touchLines,
      path: () => registerPath(1),
      raw: { label: lines, read: () => raw.accountRegister(ids.checking, 1, PER_PAGE) },
      target: PAGE_TARGET,
    },
    {
      id: 'account_register_any',
      label: `account register, any page (of ${linePages}), uncached`,
      n: counts.page,
      uncached: touchLines,
      path: (i) => registerPath(any[i]!),
      raw: { label: lines, read: (i) => raw.accountRegister(ids.checking, any[i]!, PER_PAGE) },
      target: PAGE_TARGET,
    },
    searchRow('search_word', 'search a common memo word ("kroger"), uncached', 'kroger', () =>
      raw.searchWords('"kroger"*', PER_PAGE),
    ),
    searchRow('search_words', 'search two memo words ("dividend vti"), uncached', 'dividend vti', () =>
      raw.searchWords('"dividend"* "vti"*', PER_PAGE),
    ),
    searchRow('search_amount', 'search an amount (79.99), uncached', '79.99', () =>
      raw.searchAmount(7999n, 'USD', '"79.99"', PER_PAGE),
    ),
  ];
}

/** Pages of a year's entries (a date range), first and any. */
function rangeRows(bench: Bench, pages: Pages, random: Random): RowsOf {
  const { counts } = bench;
  const { rangePages } = pages;
  const any = anyPages(random, counts.page, rangePages);
  const range = { start: '2024-01-01', end: '2024-12-31' };
  return (raw) => [
    {
      id: 'register_range_first',
      label: 'entries of a year (date range), first page',
      n: counts.page,
      path: () => `/api/journal-entries?${YEAR}&per_page=${PER_PAGE}`,
      raw: { label: COUNTED, read: () => raw.register(range, 1, PER_PAGE) },
    },
    {
      id: 'register_range_any',
      label: `entries of a year, any page (of ${rangePages})`,
      n: counts.page,
      path: (i) => `/api/journal-entries?${YEAR}&per_page=${PER_PAGE}&page=${any[i]}`,
      raw: { label: COUNTED, read: (i) => raw.register(range, any[i]!, PER_PAGE) },
    },
  ];
}

/** Pages of the checking account's register lines (GET /api/accounts/{id}/register). */
async function linePages(bench: Bench): Promise<number> {
  const path = `/api/accounts/${bench.ids.checking}/register?per_page=${PER_PAGE}`;
  const lineTotal = (await bench.client.json<{ total: number }>('GET', path)).total;
  const pages = Math.max(1, Math.ceil(lineTotal / PER_PAGE));
  bench.info.registerLines = { checkingLines: lineTotal, checkingLinePages: pages };
  return pages;
}

export const register: Area = {
  name: 'register',
  run: async (bench) => {
    bench.phase('reads');
    const pages = await registerPages(bench);
    const lines = await linePages(bench);
    // one sequence of random pages for the three kinds of page, drawn in this order
    const random = new Random('pages');
    const entryRows = entryPageRows(bench, pages, random);
    const yearRows = rangeRows(bench, pages, random);
    const lineRows = uncachedRows(bench, lines, random);
    await measureReads(bench, (raw) => [...entryRows(raw), ...lineRows(raw), ...yearRows(raw)]);
  },
};

runAlone(import.meta, [register]);
