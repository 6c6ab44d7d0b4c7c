import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '../../server/domain/errors.ts';
import {
  normaliseDescription,
  PayeeModel,
  suggestCounterAccounts,
  type SuggestableAccount,
} from '../../server/domain/reconciliation/index.ts';
import type { AccountType } from '../../server/domain/double-entry.ts';
import { parseStatementFile } from '../../server/domain/statements/index.ts';

/**
 * A regression floor for the suggested accounts on the bank lines of real statement files, with a
 * generated history of past bookings (the published figures are `npm run bench`'s, on lines the
 * code was not written against: bench/suggestions.ts).
 *
 * Each distinct payee of the files (its description, numbers left out) gets a true account drawn
 * from a seed among those whose type fits its direction (money out: mostly an expense, else a
 * transfer to savings or the card; money in: mostly income, else savings), and 1, 3 or 10 past
 * bookings: its description as its bank writes it through the payee's channel (card purchase, ACH,
 * direct debit: the channel's words around it, and new card, reference and ACH numbers and dates
 * each time). Regular payees of every history (salary by ACH "PPD ID", utilities, a café by card)
 * share those channel words, as a real history does. Each line of the files, written once more
 * through its payee's channel, is then suggested accounts from the whole history, and the first
 * suggestion is compared with its payee's true account.
 */

export interface Line {
  description: string;
  type: 'debit' | 'credit';
}

/** The bank lines of every file in a folder that the parsers read (broken files left out). */
export function linesOfFolder(dir: string): Line[] {
  const out: Line[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith('.md') || name.endsWith('.json')) continue;
    try {
      const parsed = parseStatementFile(new Uint8Array(readFileSync(join(dir, name))));
      for (const s of parsed.statements)
        for (const t of s.transactions) out.push({ description: t.description, type: t.type });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return out;
}

const CHART: [string, AccountType][] = [
  ['bank', 'ASSET'],
  ['savings', 'ASSET'],
  ['card', 'LIABILITY'],
  ['groceries', 'EXPENSE'],
  ['dining', 'EXPENSE'],
  ['fuel', 'EXPENSE'],
  ['utilities', 'EXPENSE'],
  ['shopping', 'EXPENSE'],
  ['fees', 'EXPENSE'],
  ['travel', 'EXPENSE'],
  ['salary', 'INCOME'],
  ['interest', 'INCOME'],
  ['gifts', 'INCOME'],
];
const ACCOUNTS = new Map<string, SuggestableAccount>(
  CHART.map(([id, type]) => [id, { id, name: id, type, isActive: true, currency: 'USD' }]),
);

/** mulberry32: a small seeded generator, so that the history is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const digits = (r: () => number, n: number) => Array.from({ length: n }, () => Math.floor(r() * 10)).join('');

/**
 * How a bank writes a payment, by its channel: a card purchase, an ACH debit or credit, a direct
 * debit. A payee is paid through one channel, so its lines share the channel's words and differ in
 * their numbers (card, reference and ACH ids, dates).
 */
const CHANNELS: [string, string][] = [
  ['', ''],
  ['POS {4} ', ''],
  ['DEBIT CARD PURCHASE XXXX{4} ', ' {2}/{2}'],
  ['CHECKCARD {4} ', ' XXXX{4}'],
  ['', ' PPD ID: {10}'],
  ['', ' WEB ID: {10}'],
  ['', ' ACH DES:PMT ID:{6} INDN:HOLDER'],
  ['SEPA LASTSCHRIFT ', ' REF {8}'],
  ['PAIEMENT CB {4} ', ''],
];

/** A line of a payee as its bank writes it once more: its channel's words, new numbers. */
function vary(r: () => number, description: string, channel: [string, string]): string {
  const fill = (t: string) => t.replace(/\{(\d+)\}/g, (_m, n: string) => digits(r, Number(n)));
  const body = description.replace(/\d/g, () => digits(r, 1));
  return `${fill(channel[0])}${body}${fill(channel[1])}`;
}

/** Payees every history has, booked often, through the channels the lines above use too. */
const REGULARS: [string, string, number][] = [
  ['ACME CORP PAYROLL', 'salary', 4],
  ['INTEREST EARNED', 'interest', 0],
  ['CITY POWER AND WATER', 'utilities', 5],
  ['CORNER CAFE', 'dining', 1],
  ['BANK SERVICE FEE', 'fees', 0],
  ['FRESHMART', 'groceries', 2],
  ['DIRECT ENERGY', 'utilities', 7],
];

export interface Accuracy {
  group: string;
  lines: number;
  /** lines whose first suggestion is their payee's account */
  right: number;
  /** lines the new suggestions preselect, and how many of those are right */
  preselected: number;
  preselectedRight: number;
}

/** Top-1 accuracy, by the number of past bookings of a line's payee, and over all. */
export function measureAccuracy(lines: readonly Line[], seed = 19): Accuracy[] {
  const payee = (l: Line) =>
    `${l.type} ${normaliseDescription(l.description).replace(/\d+/g, ' ').replace(/\s+/g, ' ').trim()}`;
  const truth = new Map<string, { account: string; bookings: number }>();
  for (const l of lines) {
    const key = payee(l);
    if (truth.has(key)) continue;
    const r = random(hash(key) ^ seed);
    const account =
      l.type === 'debit'
        ? pick(
            r,
            r() < 0.8
              ? ['groceries', 'dining', 'fuel', 'utilities', 'shopping', 'fees', 'travel']
              : ['savings', 'card'],
          )
        : pick(r, r() < 0.7 ? ['salary', 'interest', 'gifts'] : ['savings']);
    truth.set(key, { account, bookings: [1, 3, 10][truth.size % 3]! });
  }
  const r = random(seed);
  const history: { description: string; accountId: string; type: 'debit' | 'credit' }[] = [];
  const sample = new Map<string, Line>();
  for (const l of lines) if (!sample.has(payee(l))) sample.set(payee(l), l);
  const channelOf = (key: string) => CHANNELS[hash(`channel ${key}`) % CHANNELS.length]!;
  for (const [key, t] of truth) {
    const l = sample.get(key)!;
    for (let i = 0; i < t.bookings; i++)
      history.push({ description: vary(r, l.description, channelOf(key)), accountId: t.account, type: l.type });
  }
  for (const [description, accountId, channel] of REGULARS)
    for (let i = 0; i < 10; i++)
      history.push({
        description: vary(r, description, CHANNELS[channel]!),
        accountId,
        type: accountId === 'salary' || accountId === 'interest' ? 'credit' : 'debit',
      });
  const model = PayeeModel.fromExamples(history);

  const groups = new Map<string, Accuracy>();
  const count = (group: string, right: boolean, preselected: string | null, truth: string) => {
    const g = groups.get(group) ?? { group, lines: 0, right: 0, preselected: 0, preselectedRight: 0 };
    g.lines += 1;
    if (right) g.right += 1;
    if (preselected !== null) g.preselected += 1;
    if (preselected === truth) g.preselectedRight += 1;
    groups.set(group, g);
  };
  for (const l of lines) {
    const t = truth.get(payee(l))!;
    // the payee's next line, through its channel
    const txn = {
      description: vary(r, l.description, channelOf(payee(l))),
      type: l.type,
      accountId: 'bank',
      amountMinor: 1_000n,
    };
    const { suggested, preselected } = suggestCounterAccounts(model, ACCOUNTS, txn);
    count(`${t.bookings} past bookings`, suggested[0]?.id === t.account, preselected, t.account);
    count('all', suggested[0]?.id === t.account, preselected, t.account);
  }
  return ['1 past bookings', '3 past bookings', '10 past bookings', 'all'].flatMap((g) =>
    groups.has(g) ? [groups.get(g)!] : [],
  );
}

/** The figures as a Markdown table. */
export function accuracyTable(figures: readonly Accuracy[]): string {
  const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
  return [
    '| payee’s past bookings | lines | top-1 | preselected | preselection right |',
    '|---|---|---|---|---|',
    ...figures.map(
      (f) =>
        `| ${f.group.replace(' past bookings', '')} | ${f.lines} | ${pct(f.right, f.lines)} | ${pct(f.preselected, f.lines)} | ${pct(f.preselectedRight, f.preselected)} |`,
    ),
  ].join('\n');
}
