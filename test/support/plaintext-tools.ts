import { execFile, spawnSync } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { describe } from 'vitest';
import type { Api } from './server.ts';
import { currencyDigits } from '../../server/domain/currencies.ts';
import { isDebitNormal, type AccountType } from '../../server/domain/double-entry.ts';
import {
  accountPaths,
  SYMBOL_CURRENCIES,
  type BookAccount,
  type JournalFormat,
} from '../../server/domain/plaintext/index.ts';

/**
 * The real tools of plain-text accounting the export tests check against (hledger, ledger and
 * beancount): whether they are installed, running them, and the balances each reports, beside the
 * API's own.
 */
export function installed(tool: string): boolean {
  return spawnSync(tool, ['--version'], { encoding: 'utf8' }).status === 0;
}
export const TOOLS = {
  hledger: installed('hledger'),
  ledger: installed('ledger'),
  beancount: installed('bean-check') && installed('bean-query'),
};
export const missing = Object.entries(TOOLS)
  .filter(([, ok]) => !ok)
  .map(([tool]) => tool);
export const INSTALL = 'apt-get install hledger ledger beancount (.ci/run does)';
/**
 * Without the tools these checks are skipped on a developer's machine, saying so in their names; in
 * CI (CI=true) a missing tool fails them, naming it, for CI is where they must run.
 */
export const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
export const skipReason =
  missing.length > 0 && !inCi ? ` (skipped: ${missing.join(', ')} not installed; ${INSTALL})` : '';

export function requireTools(): void {
  if (missing.length > 0) throw new Error(`${missing.join(', ')} not installed on this machine: ${INSTALL}`);
}

/**
 * A tool's output. Run asynchronously: the server under test lives in this process, and a tool that
 * held its event loop for seconds (on a busy machine) would let its keep-alive connections expire
 * under the next request.
 */
export async function run(tool: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(tool, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C.UTF-8' },
  });
  return stdout;
}

/** `-1,234.50` in minor units of the currency, exactly (a tool's number, never a float). */
export function toMinor(text: string, currency: string): bigint {
  const clean = text.trim().replace(/,/g, '');
  const m = /^(-)?(\d*)(?:\.(\d*))?$/.exec(clean);
  if (!m) throw new Error(`not a number: ${text}`);
  const digits = currencyDigits(currency);
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) throw new Error(`${text} has more digits than ${currency}`);
  const minor = BigInt(`${m[2] || '0'}${fraction.padEnd(digits, '0')}`);
  return m[1] ? -minor : minor;
}

export type Balances = Map<string, bigint>; // "path|currency" -> debits minus credits, non-zero only

export function put(into: Balances, account: string, currency: string, minor: bigint): void {
  const key = `${account}|${currency}`;
  const sum = (into.get(key) ?? 0n) + minor;
  if (sum === 0n) into.delete(key);
  else into.set(key, sum);
}

export async function hledgerBalances(file: string): Promise<Balances> {
  const out: Balances = new Map();
  const csv = await run('hledger', ['-f', file, 'balance', '--flat', '-O', 'csv', '--layout=tidy']);
  for (const line of csv.trim().split('\n').slice(1)) {
    const cells = [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!);
    const [account, , , , commodity, value] = cells;
    if (account === 'total' || !commodity) continue;
    put(out, account!, commodity, toMinor(value!, commodity));
  }
  return out;
}

export function ledgerAmount(text: string): { currency: string; minor: bigint } {
  const t = text.trim();
  const suffix = /^(-?[\d,.]+)\s*(\S+)$/.exec(t);
  if (suffix) {
    const currency = SYMBOL_CURRENCIES[suffix[2]!] ?? suffix[2]!;
    return { currency, minor: toMinor(suffix[1]!, currency) };
  }
  const prefix = /^(-)?(\D+?)\s*(-?[\d,.]+)$/.exec(t)!;
  const currency = SYMBOL_CURRENCIES[prefix[2]!] ?? prefix[2]!;
  const minor = toMinor(prefix[3]!, currency);
  return { currency, minor: prefix[1] ? -minor : minor };
}

/** ledger's own (not rolled-up) amount of each account: `%(amount)` in a flat balance report. */
export async function ledgerBalances(file: string): Promise<Balances> {
  const out: Balances = new Map();
  const text = await run('ledger', [
    '--args-only',
    '-f',
    file,
    'balance',
    '--flat',
    '--empty',
    '--no-total',
    '--format',
    '%(account)|%(quoted(strip(amount)))\n',
  ]);
  for (const m of text.matchAll(/^(.+?)\|"([^"]*)"$/gms)) {
    for (const part of m[2]!.split('\n')) {
      if (part.trim() === '' || part.trim() === '0') continue;
      const { currency, minor } = ledgerAmount(part);
      put(out, m[1]!, currency, minor);
    }
  }
  return out;
}

export async function beancountBalances(file: string): Promise<Balances> {
  const out: Balances = new Map();
  const csv = await run('bean-query', [
    '-f',
    'csv',
    file,
    'SELECT account, currency, sum(number) AS total GROUP BY account, currency ORDER BY account, currency',
  ]);
  for (const line of csv.trim().split('\n').slice(1)) {
    const [account, currency, total] = line.split(',').map((c) => c.trim());
    put(out, account!, currency!, toMinor(total!, currency!));
  }
  return out;
}

export const TOOL_BALANCES: Record<JournalFormat, (file: string) => Promise<Balances>> = {
  hledger: hledgerBalances,
  ledger: ledgerBalances,
  beancount: beancountBalances,
};
export const EXTENSION: Record<JournalFormat, string> = {
  hledger: 'journal',
  ledger: 'ledger',
  beancount: 'beancount',
};

export interface BalanceRow {
  account_id: string;
  name: string;
  type: AccountType;
  balance: string;
  currency: string;
  parent_id: string | null;
  is_active: boolean;
}

/** /api/accounts/balances as the tools see it: by the account's path in the format, debits minus credits. */
export async function apiBalances(api: Api, token: string, format: JournalFormat): Promise<Balances> {
  const rows = (await api.get('/api/accounts/balances?as_of=2199-12-31', token)).body.balances as BalanceRow[];
  const accounts: BookAccount[] = rows.map((r) => ({
    id: r.account_id,
    name: r.name,
    type: r.type,
    currency: r.currency,
    parentId: r.parent_id,
    isActive: r.is_active,
  }));
  const paths = accountPaths(accounts, format);
  const out: Balances = new Map();
  for (const r of rows) {
    const normal = toMinor(r.balance, r.currency);
    put(out, paths.get(r.account_id)!.path, r.currency, isDebitNormal(r.type) ? normal : -normal);
  }
  return out;
}

export const sorted = (b: Balances) => [...b].map(([k, v]) => `${k} ${v}`).sort();

export const describeTools = describe.skipIf(missing.length > 0 && !inCi);
