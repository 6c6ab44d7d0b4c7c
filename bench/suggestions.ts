/**
 * The suggested accounts as a user meets them: `node bench/suggestions.ts [--split held-out] [--seed S]`
 * (also the last part of `npm run bench`).
 *
 * Twelve households (bench/lib/bank-lines.ts), each with its own user and ledger on the real server
 * (in-process, on loopback), book eighteen months of bank lines month by month through the API:
 * the month's statement is imported, the unmatched list is read with its suggested and
 * preselected accounts, and every line is booked to the account its owner books it to (one
 * `create-entries` call), so the app learns each month before the next, as a user's app does.
 * Three baselines get the same lines in the same order, learning from the same bookings:
 *
 * - `merchant lookup`: the account last booked for the same merchant key (the description's first
 *   two words, digits removed), with the key's other accounts after it;
 * - `naive Bayes`: multinomial naive Bayes over the description's words (digits removed, Laplace
 *   smoothing);
 * - `lookup, else Bayes`: the first for a key booked before, else the second (issue 34's baseline).
 *
 * Figures from the second month on (the first has no history for anyone): top-1 and top-3, over
 * all lines, lines of a merchant booked before and of a merchant never booked; preselection
 * (lines with an account chosen, and how many of those are right); calibration (reliability bins of
 * every shown suggestion's confidence, and the expected calibration error); and what the app must
 * never offer (an equity account, an account in another currency, 0 %).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ledgerClient, type LedgerClient } from '../client/index.ts';
import { startServer } from '../server/index.ts';
import { CHART, households, type BankLine, type Split, type UserBooks } from './lib/bank-lines.ts';

const SECRET = 'bench-secret-key-that-is-long-enough-0123456789';

/** One method's answer for a line: accounts (chart keys) best first, each with its confidence; the preselected one. */
interface Answer {
  ranked: { account: string; confidence: number }[];
  preselected: string | null;
}

interface Tally {
  lines: number;
  top1: number;
  top3: number;
  knownLines: number;
  knownTop1: number;
  newLines: number;
  newTop1: number;
  preselected: number;
  preselectedRight: number;
  /** reliability bins of shown confidences: [count, sum of confidences, hits] by tenths */
  bins: [number, number, number][];
  /** the app only: suggestions it must never make */
  equity: number;
  otherCurrency: number;
  zero: number;
}

const emptyTally = (): Tally => ({
  lines: 0,
  top1: 0,
  top3: 0,
  knownLines: 0,
  knownTop1: 0,
  newLines: 0,
  newTop1: 0,
  preselected: 0,
  preselectedRight: 0,
  bins: Array.from({ length: 10 }, () => [0, 0, 0] as [number, number, number]),
  equity: 0,
  otherCurrency: 0,
  zero: 0,
});

function count(t: Tally, answer: Answer, line: BankLine, known: boolean): void {
  const right = answer.ranked[0]?.account === line.account;
  t.lines += 1;
  if (right) t.top1 += 1;
  if (answer.ranked.slice(0, 3).some((s) => s.account === line.account)) t.top3 += 1;
  if (known) {
    t.knownLines += 1;
    if (right) t.knownTop1 += 1;
  } else {
    t.newLines += 1;
    if (right) t.newTop1 += 1;
  }
  if (answer.preselected !== null) {
    t.preselected += 1;
    if (answer.preselected === line.account) t.preselectedRight += 1;
  }
  for (const s of answer.ranked.slice(0, 3)) {
    const bin = t.bins[Math.min(9, Math.floor(s.confidence * 10))]!;
    bin[0] += 1;
    bin[1] += s.confidence;
    if (s.account === line.account) bin[2] += 1;
  }
}

function add(into: Tally, t: Tally): void {
  for (const k of Object.keys(t) as (keyof Tally)[]) {
    if (k === 'bins') t.bins.forEach((b, i) => b.forEach((v, j) => (into.bins[i]![j]! += v)));
    else (into[k] as number) += t[k] as number;
  }
}

/** Expected calibration error: the gap between confidence and hit rate, weighted by each bin's share. */
function calibrationError(t: Tally): number {
  const n = t.bins.reduce((s, b) => s + b[0], 0);
  return n === 0 ? 0 : t.bins.reduce((s, [c, sum, hits]) => s + (c === 0 ? 0 : Math.abs(sum - hits) / n), 0);
}

// ---------------------------------------------------------------------------------------------
// The baselines: a few lines each, learning from the same bookings the app learns from.
// ---------------------------------------------------------------------------------------------

const words = (description: string) =>
  description
    .toLowerCase()
    .replace(/\d+/g, ' ')
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
const merchantKey = (description: string) => words(description).slice(0, 2).join(' ');

class Baselines {
  /** key → accounts, latest booking last */
  private readonly lookup = new Map<string, string[]>();
  private readonly classes = new Map<string, { docs: number; words: Map<string, number>; total: number }>();
  private readonly vocabulary = new Set<string>();
  private docs = 0;

  learn(line: BankLine): void {
    const key = merchantKey(line.description);
    const list = this.lookup.get(key) ?? [];
    list.push(line.account);
    this.lookup.set(key, list);
    let c = this.classes.get(line.account);
    if (!c) this.classes.set(line.account, (c = { docs: 0, words: new Map(), total: 0 }));
    c.docs += 1;
    this.docs += 1;
    for (const w of words(line.description)) {
      c.words.set(w, (c.words.get(w) ?? 0) + 1);
      c.total += 1;
      this.vocabulary.add(w);
    }
  }

  merchantLookup(description: string): Answer {
    const list = this.lookup.get(merchantKey(description));
    if (!list) return { ranked: [], preselected: null };
    const ranked: { account: string; confidence: number }[] = [];
    for (let i = list.length - 1; i >= 0; i--) {
      if (ranked.some((r) => r.account === list[i])) continue;
      ranked.push({ account: list[i]!, confidence: list.filter((a) => a === list[i]).length / list.length });
    }
    return { ranked, preselected: ranked[0]!.account };
  }

  naiveBayes(description: string): Answer {
    if (this.docs === 0) return { ranked: [], preselected: null };
    const v = this.vocabulary.size;
    const logs = [...this.classes].map(([account, c]) => {
      let lp = Math.log(c.docs / this.docs);
      for (const w of words(description)) lp += Math.log(((c.words.get(w) ?? 0) + 1) / (c.total + v));
      return { account, lp };
    });
    const max = Math.max(...logs.map((l) => l.lp));
    const z = logs.reduce((s, l) => s + Math.exp(l.lp - max), 0);
    const ranked = logs
      .map((l) => ({ account: l.account, confidence: Math.exp(l.lp - max) / z }))
      .sort((a, b) => b.confidence - a.confidence);
    return { ranked, preselected: ranked[0]!.confidence >= 0.9 ? ranked[0]!.account : null };
  }

  lookupElseBayes(description: string): Answer {
    const lookup = this.merchantLookup(description);
    if (lookup.ranked.length === 0) return this.naiveBayes(description);
    const rest = this.naiveBayes(description).ranked.filter((r) => !lookup.ranked.some((l) => l.account === r.account));
    return { ranked: [...lookup.ranked, ...rest], preselected: lookup.preselected };
  }
}

const METHODS = ['app', 'merchant lookup', 'naive Bayes', 'lookup, else Bayes'] as const;
type Method = (typeof METHODS)[number];

// ---------------------------------------------------------------------------------------------
// One household through the API.
// ---------------------------------------------------------------------------------------------

async function must<T>(what: string, call: Promise<{ data?: T; error?: unknown }>): Promise<T> {
  const { data, error } = await call;
  if (error !== undefined || data === undefined) throw new Error(`${what}: ${JSON.stringify(error)}`);
  return data;
}

async function register(url: string, id: string): Promise<LedgerClient> {
  const anonymous = ledgerClient(url);
  const user = await must(
    'register',
    anonymous.POST('/api/auth/register', {
      body: { email: `${id}@bench.example`, name: id, password: 'correct horse battery staple' },
    }),
  );
  return ledgerClient(url, user.access_token);
}

/** The household's chart, and one account in another currency (which no suggestion may offer unlearnt). */
async function chartOf(ledger: LedgerClient, books: UserBooks) {
  const byKey = new Map<string, string>();
  const keyOf = new Map<string, string>();
  for (const a of CHART) {
    const made = await must(
      `account ${a.key}`,
      ledger.POST('/api/accounts', {
        body: { name: books.language === 'zh' ? a.zh : a.en, type: a.type, currency: books.currency },
      }),
    );
    byKey.set(a.key, made.id);
    keyOf.set(made.id, a.key);
  }
  const foreign = books.currency === 'USD' ? 'EUR' : 'USD';
  const other = await must(
    'foreign account',
    ledger.POST('/api/accounts', { body: { name: `Travel ${foreign}`, type: 'EXPENSE', currency: foreign } }),
  );
  keyOf.set(other.id, `other currency ${foreign}`);
  const equity = new Set([byKey.get('opening')!]);
  return { byKey, keyOf, otherCurrency: other.id, equity };
}

async function pages<T>(fetchPage: (page: number) => Promise<{ items: T[]; total: number; per_page: number }>) {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const p = await fetchPage(page);
    out.push(...p.items);
    if (page * p.per_page >= p.total || p.items.length === 0) return out;
  }
}

async function runHousehold(url: string, books: UserBooks, tallies: Map<Method, Tally>): Promise<void> {
  const ledger = await register(url, books.id);
  const chart = await chartOf(ledger, books);
  const statementAccount = chart.byKey.get(books.statementAccount)!;
  const baselines = new Baselines();
  const booked = new Set<string>();
  for (const [m, { month, lines }] of books.months.entries()) {
    const statement = await must(
      `statement ${month}`,
      ledger.POST('/api/statements', {
        body: {
          account_id: statementAccount,
          name: `${books.bank} ${month}`,
          transactions: lines.map((l, i) => ({
            date: l.date,
            description: l.description,
            amount: l.amount,
            type: l.type,
            external_id: `${month}-${i}`,
          })),
        },
      }),
    );
    const txns = await pages((page) =>
      must(
        'transactions',
        ledger.GET('/api/statements/{id}/transactions', {
          params: { path: { id: statement.id! }, query: { page, per_page: 100 } },
        }),
      ),
    );
    const lineOf = new Map(txns.map((t) => [t.id, lines[Number(t.external_id!.split('-').at(-1))]!]));
    const unmatched = await pages((page) =>
      must(
        'unmatched',
        ledger.GET('/api/reconciliation/unmatched', {
          params: { query: { account_id: statementAccount, type: 'bank_transaction', page, per_page: 100 } },
        }),
      ),
    );
    const items: { bank_transaction_id: string; account_id: string }[] = [];
    for (const item of unmatched) {
      const line = lineOf.get(item.transaction.id);
      if (!line) continue;
      if (m > 0) {
        const known = booked.has(line.merchant);
        const app: Answer = {
          ranked: item.suggested_accounts.map((s) => ({ account: chart.keyOf.get(s.id)!, confidence: s.confidence })),
          preselected: item.preselected_account_id === null ? null : chart.keyOf.get(item.preselected_account_id)!,
        };
        const appTally = tallies.get('app')!;
        count(appTally, app, line, known);
        for (const s of item.suggested_accounts) {
          if (chart.equity.has(s.id)) appTally.equity += 1;
          if (s.id === chart.otherCurrency) appTally.otherCurrency += 1;
          if (s.confidence === 0) appTally.zero += 1;
        }
        count(tallies.get('merchant lookup')!, baselines.merchantLookup(line.description), line, known);
        count(tallies.get('naive Bayes')!, baselines.naiveBayes(line.description), line, known);
        count(tallies.get('lookup, else Bayes')!, baselines.lookupElseBayes(line.description), line, known);
      }
      items.push({ bank_transaction_id: item.transaction.id, account_id: chart.byKey.get(line.account)! });
    }
    if (items.length !== lines.length)
      throw new Error(`${books.id} ${month}: ${items.length} of ${lines.length} lines listed`);
    for (let i = 0; i < items.length; i += 500)
      await must(
        `book ${month}`,
        ledger.POST('/api/reconciliation/unmatched/create-entries', { body: { items: items.slice(i, i + 500) } }),
      );
    for (const line of lines) {
      baselines.learn(line);
      booked.add(line.merchant);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The run and its tables.
// ---------------------------------------------------------------------------------------------

export interface SuggestionFigures {
  split: Split;
  households: number;
  tallies: Record<Method, Tally>;
}

export async function measureSuggestions(
  options: { seed?: string; splits?: readonly Split[]; log?: (line: string) => void } = {},
): Promise<SuggestionFigures[]> {
  const log = options.log ?? (() => {});
  const splits = options.splits ?? ['development', 'held-out'];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-suggestions-bench-'));
  const server = await startServer({
    dataDir,
    port: 0,
    secretKey: SECRET,
    rendererDir: null,
    backupIntervalMs: 0,
    bcryptCost: 4,
    limits: { registerPerHour: 1000 },
    log: () => {},
  });
  try {
    const out: SuggestionFigures[] = [];
    const all = households(options.seed);
    for (const split of splits) {
      const tallies = Object.fromEntries(METHODS.map((m) => [m, emptyTally()])) as Record<Method, Tally>;
      const mine = all.filter((h) => h.split === split);
      for (const books of mine) {
        const own = new Map(METHODS.map((m) => [m, emptyTally()]));
        await runHousehold(server.url, books, own);
        for (const m of METHODS) add(tallies[m], own.get(m)!);
        const app = own.get('app')!;
        log(
          `  ${split} ${books.id}: ${app.lines} lines, app top-1 ${pct(app.top1, app.lines)}, lookup-else-Bayes ${pct(own.get('lookup, else Bayes')!.top1, app.lines)}`,
        );
      }
      out.push({ split, households: mine.length, tallies });
    }
    return out;
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);

/** The figures as Markdown: one table of the methods per split, then the app's reliability bins. */
export function suggestionTables(figures: readonly SuggestionFigures[]): string {
  const out: string[] = [];
  for (const f of figures) {
    const app = f.tallies.app;
    out.push(
      `**${f.split}** (${f.households} households, ${app.lines} lines from the second month on; ${app.knownLines} of a merchant booked before, ${app.newLines} of one never booked)`,
      '',
      '| method | top-1 | top-3 | top-1, merchant booked before | top-1, merchant never booked | preselected | preselection right | calibration error |',
      '|---|---|---|---|---|---|---|---|',
      ...METHODS.map((m) => {
        const t = f.tallies[m];
        return `| ${m} | ${pct(t.top1, t.lines)} | ${pct(t.top3, t.lines)} | ${pct(t.knownTop1, t.knownLines)} | ${pct(t.newTop1, t.newLines)} | ${pct(t.preselected, t.lines)} | ${pct(t.preselectedRight, t.preselected)} | ${(100 * calibrationError(t)).toFixed(1)} pts |`;
      }),
      '',
      `The app's shown confidences (top 3 of each line) against how often they were right; offered: equity ${app.equity}, another currency ${app.otherCurrency}, 0 % ${app.zero}:`,
      '',
      '| confidence | suggestions | mean confidence | right |',
      '|---|---|---|---|',
      ...app.bins.flatMap(([n, sum, hits], i) =>
        n === 0 ? [] : [`| ${i * 10}–${i * 10 + 10} % | ${n} | ${pct(sum, n)} | ${pct(hits, n)} |`],
      ),
      '',
    );
  }
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { split: { type: 'string' }, seed: { type: 'string', default: 'suggestions-1' } },
  });
  const splits: Split[] = values.split === undefined ? ['development', 'held-out'] : [values.split as Split];
  if (!splits.every((s) => s === 'development' || s === 'held-out'))
    throw new Error('--split takes development or held-out');
  const figures = await measureSuggestions({ seed: values.seed, splits, log: console.log });
  console.log(`\n${suggestionTables(figures)}`);
}
