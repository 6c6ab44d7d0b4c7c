/**
 * Deterministic generator of realistic books for the benchmark (issue 7).
 *
 *   node bench/generate.ts --size 10k|100k|1m [--seed S] [--out DIR]
 *
 * Writes to DIR (default `<tmp>/personal-ledger-bench/<size>`):
 *   books.journal        the books as an hledger journal: the product's bulk path is its journal import
 *   books.beancount      the same books for bean-query, used only when the app's export is not available
 *   statement-checking.json   bank statement rows of the checking account, most matching an entry
 *   statement-card.json       100,000 rows of the Visa card account (the large-import case)
 *   statement-checking-recent.json   only when checking has more than 100,000 entries (1m): 10,000
 *                             rows of its last 100,000 entries, the reconciliation target's workload
 *   manifest.json        size, seed, counts, the account plan and the dates the runner queries
 *
 * Same size and seed, same bytes. The 1M size takes a few minutes and ~150 MB of disk.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  NOISE_DESCRIPTIONS,
  RANDOM_TEMPLATES,
  bankDescription,
  openingEntries,
  scheduled,
  settle,
  type Entry,
} from './lib/books.ts';
import { ACCOUNTS, DIGITS, type AccountKey } from './lib/plan.ts';
import { Random, WeightedPick } from './lib/random.ts';

export const SIZES = { '10k': 10_000, '100k': 100_000, '1m': 1_000_000 } as const;
export type SizeName = keyof typeof SIZES;

/** Six years of books; "today" in the app is later, so balances today cover everything. */
export const FIRST_DAY = '2020-01-01';
export const LAST_DAY = '2025-12-31';
/** The past date the runner asks balances for: mid-month, so both day and month totals are read. */
export const PAST_DATE = '2023-06-17';

export const STATEMENT_ROWS = 10_000;
export const LARGE_STATEMENT_ROWS = 100_000;
/** The reconciliation target: 10,000 bank rows against 100,000 entries. */
export const RECENT_STATEMENT_ENTRIES = 100_000;
/** Bumped when the generator writes other files or other bytes: cached books of another format are made again. */
const FORMAT = 2;

export interface Manifest {
  format: number;
  size: SizeName;
  seed: string;
  entries: number;
  lines: number;
  firstDay: string;
  lastDay: string;
  pastDate: string;
  accounts: { name: string; currency: string }[];
  /** The account names the runner needs by role. */
  roles: { checking: string; card: string; savings: string; amex: string; groceries: string };
  checkingEntries: number;
  statementMatched: number;
  /** `statement-checking-recent.json`, when written: its rows, and the checking entries (and their first day) it is drawn from */
  recentStatement?: { rows: number; checkingEntries: number; firstDay: string };
  journalSha256: string;
  generatedMs: number;
}

export interface BankRow {
  date: string;
  description: string;
  amount: string;
  type: 'debit' | 'credit';
  external_id: string;
}

export function defaultOutDir(size: SizeName): string {
  return path.join(os.tmpdir(), 'personal-ledger-bench', size);
}

function formatMinor(minor: number, digits: number): string {
  if (digits === 0) return String(minor);
  const negative = minor < 0;
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  return `${negative ? '-' : ''}${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function daysFrom(first: string, last: string): string[] {
  const out: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Appends text to a file through a large buffer: a 1M-entry journal is ~150 MB. */
class Writer {
  private readonly fd: number;
  private parts: string[] = [];
  private length = 0;
  readonly hash = crypto.createHash('sha256');
  constructor(file: string) {
    this.fd = fs.openSync(file, 'w');
  }
  write(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    if (this.length > 1 << 20) this.flush();
  }
  flush(): void {
    const chunk = this.parts.join('');
    this.hash.update(chunk);
    fs.writeSync(this.fd, chunk);
    this.parts = [];
    this.length = 0;
  }
  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

/** Beancount account names: each part starts with a capital or digit and holds no spaces. */
export function beancountName(name: string): string {
  return name
    .split(':')
    .map((part) => part.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, ''))
    .map((part) => (/^[A-Z0-9]/.test(part) ? part : `X${part}`))
    .join(':');
}

function hledgerEntry(e: Entry): string {
  let out = `${e.date} * ${e.memo}\n`;
  for (const l of e.lines) {
    const a = ACCOUNTS[l.account];
    out += `    ${a.name}  ${formatMinor(l.debit ? l.minor : -l.minor, DIGITS[a.currency])} ${a.currency}\n`;
  }
  return out + '\n';
}

function beancountEntry(e: Entry): string {
  let out = `${e.date} * ${JSON.stringify(e.memo)}\n`;
  for (const l of e.lines) {
    const a = ACCOUNTS[l.account];
    out += `  ${beancountName(a.name)}  ${formatMinor(l.debit ? l.minor : -l.minor, DIGITS[a.currency])} ${a.currency}\n`;
  }
  return out + '\n';
}

/** The checking account's side of each entry that touches it, kept compactly for the statements. */
interface Touches {
  day: Int32Array;
  minor: Float64Array;
  moneyIn: Uint8Array;
  memo: string[];
  count: number;
}

function touches(capacity: number): Touches {
  return {
    day: new Int32Array(capacity),
    minor: new Float64Array(capacity),
    moneyIn: new Uint8Array(capacity),
    memo: [],
    count: 0,
  };
}

function record(t: Touches, dayIndex: number, entry: Entry, account: AccountKey): void {
  let net = 0;
  for (const l of entry.lines) if (l.account === account) net += l.debit ? l.minor : -l.minor;
  if (net === 0) return;
  t.day[t.count] = dayIndex;
  t.minor[t.count] = Math.abs(net);
  // an asset's debit is money in; a card's (a liability's) debit is a payment to it: money in too
  t.moneyIn[t.count] = net > 0 ? 1 : 0;
  t.memo.push(entry.memo);
  t.count += 1;
}

/**
 * Bank rows for an account: `matched` of its entries from the `from`-th on (spread evenly over
 * their days, posted by the bank 0-3 days later under the bank's own description), then rows the
 * books do not have, dated from that entry's day on.
 */
function bankRows(
  random: Random,
  days: readonly string[],
  t: Touches,
  rows: number,
  matchedShare: number,
  prefix: string,
  from = 0,
): { rows: BankRow[]; matched: number } {
  const count = t.count - from;
  const matched = Math.min(count, Math.round(rows * matchedShare));
  const out: BankRow[] = [];
  for (let i = 0; i < matched; i++) {
    const k = from + Math.floor((i * count) / matched);
    const delay = random.chance(0.7) ? 0 : random.chance(0.7) ? 1 : random.int(2, 3);
    out.push({
      date: days[Math.min(days.length - 1, t.day[k]! + delay)]!,
      description: bankDescription(random, t.memo[k]!),
      amount: formatMinor(t.minor[k]!, 2),
      type: t.moneyIn[k] ? 'credit' : 'debit',
      external_id: `${prefix}-${String(i + 1).padStart(7, '0')}`,
    });
  }
  for (let i = matched; i < rows; i++) {
    out.push({
      date: days[random.int(from === 0 ? 0 : t.day[from]!, days.length - 1)]!,
      description: random.pick(NOISE_DESCRIPTIONS),
      amount: formatMinor(Math.round(random.logNormal(40, 0.9) * 100) || 1, 2),
      type: random.chance(0.85) ? 'debit' : 'credit',
      external_id: `${prefix}-${String(i + 1).padStart(7, '0')}`,
    });
  }
  out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { rows: out, matched };
}

export function generate(
  size: SizeName,
  seed: string,
  outDir: string,
  log: (line: string) => void = () => {},
): Manifest {
  const started = Date.now();
  const total = SIZES[size];
  const random = new Random(`${seed}/${size}`);
  fs.mkdirSync(outDir, { recursive: true });
  const journal = new Writer(path.join(outDir, 'books.journal'));
  const beancount = new Writer(path.join(outDir, 'books.beancount'));
  journal.write(
    `; Personal Ledger benchmark books: ${total} entries, seed ${seed}, generated by bench/generate.ts\n\n`,
  );
  beancount.write(`; the same books for bean-query\noption "operating_currency" "USD"\n\n`);
  for (const a of Object.values(ACCOUNTS)) beancount.write(`2019-12-31 open ${beancountName(a.name)} ${a.currency}\n`);
  beancount.write('\n');

  const days = daysFrom(FIRST_DAY, LAST_DAY);
  const templates = new WeightedPick(RANDOM_TEMPLATES);
  const checking = touches(total);
  const card = touches(total);
  let entries = 0;
  let lines = 0;
  const emit = (dayIndex: number, e: Entry) => {
    journal.write(hledgerEntry(e));
    beancount.write(beancountEntry(e));
    record(checking, dayIndex, e, 'checking');
    record(card, dayIndex, e, 'visa');
    entries += 1;
    lines += e.lines.length;
  };

  for (let i = 0; i < days.length; i++) {
    const date = days[i]!;
    // exactly `total` entries over the days, spread evenly; what falls due that day comes first
    const quota = Math.floor(((i + 1) * total) / days.length) - Math.floor((i * total) / days.length);
    const due = i === 0 ? [...openingEntries(date), ...scheduled(random, date)] : scheduled(random, date);
    let n = 0;
    for (const e of due.slice(0, quota)) {
      emit(i, e);
      n += 1;
    }
    for (; n < quota; n++) emit(i, settle(templates.pick(random)(random, date)));
    if (i % 365 === 364) log(`  ${date}: ${entries} entries`);
  }
  journal.close();
  beancount.close();

  const statement = bankRows(random, days, checking, STATEMENT_ROWS, 0.97, 'CHK');
  fs.writeFileSync(
    path.join(outDir, 'statement-checking.json'),
    JSON.stringify({ account: ACCOUNTS.checking.name, transactions: statement.rows }),
  );
  const large = bankRows(random, days, card, LARGE_STATEMENT_ROWS, 1, 'VISA');
  fs.writeFileSync(
    path.join(outDir, 'statement-card.json'),
    JSON.stringify({ account: ACCOUNTS.visa.name, transactions: large.rows }),
  );
  // Drawn last, so that the files above are the same bytes with or without it.
  let recentStatement: Manifest['recentStatement'];
  if (checking.count > RECENT_STATEMENT_ENTRIES) {
    const from = checking.count - RECENT_STATEMENT_ENTRIES;
    const recent = bankRows(random, days, checking, STATEMENT_ROWS, 0.97, 'CHKR', from);
    fs.writeFileSync(
      path.join(outDir, 'statement-checking-recent.json'),
      JSON.stringify({ account: ACCOUNTS.checking.name, transactions: recent.rows }),
    );
    recentStatement = {
      rows: recent.rows.length,
      checkingEntries: RECENT_STATEMENT_ENTRIES,
      firstDay: days[checking.day[from]!]!,
    };
  }

  const manifest: Manifest = {
    format: FORMAT,
    size,
    seed,
    entries,
    lines,
    firstDay: FIRST_DAY,
    lastDay: LAST_DAY,
    pastDate: PAST_DATE,
    accounts: Object.values(ACCOUNTS).map((a) => ({ name: a.name, currency: a.currency })),
    roles: {
      checking: ACCOUNTS.checking.name,
      card: ACCOUNTS.visa.name,
      savings: ACCOUNTS.savings.name,
      amex: ACCOUNTS.amex.name,
      groceries: ACCOUNTS.groceries.name,
    },
    checkingEntries: checking.count,
    statementMatched: statement.matched,
    ...(recentStatement ? { recentStatement } : {}),
    journalSha256: journal.hash.digest('hex'),
    generatedMs: Date.now() - started,
  };
  fs.writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/** The manifest of books already generated with this size and seed, or fresh ones. */
export function ensureBooks(size: SizeName, seed: string, outDir: string, log: (line: string) => void): Manifest {
  const file = path.join(outDir, 'manifest.json');
  if (fs.existsSync(file)) {
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    if (
      manifest.format === FORMAT &&
      manifest.size === size &&
      manifest.seed === seed &&
      fs.existsSync(path.join(outDir, 'books.journal'))
    )
      return manifest;
  }
  log(`Generating the ${size} books (seed ${seed}) in ${outDir}`);
  return generate(size, seed, outDir, log);
}

export function sizeArg(value: string | undefined): SizeName {
  const size = (value ?? '10k').toLowerCase();
  if (!(size in SIZES)) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}`);
  return size as SizeName;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { size: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' } },
  });
  const size = sizeArg(values.size);
  const seed = values.seed ?? 'ledger-bench-1';
  const out = values.out ?? defaultOutDir(size);
  const m = generate(size, seed, out, (line) => console.log(line));
  console.log(
    `${m.entries} entries, ${m.lines} lines, ${m.checkingEntries} on checking, ${m.statementMatched} statement rows matching; ${out} in ${(m.generatedMs / 1000).toFixed(1)} s`,
  );
}
