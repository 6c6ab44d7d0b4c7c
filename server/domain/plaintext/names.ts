import type { AccountType } from '../double-entry.ts';
import type { BookAccount, JournalFormat } from './types.ts';

/**
 * Account paths. An account's path is the root of its type, its ancestors' segments and its own
 * segment: `Assets:Bank:Checking`. A segment is the account's name without its parent's path in
 * front (an import names an account `Food:Other` when `Other` is taken elsewhere; its segment is
 * `Other` again), transliterated where the format does not allow the name. A transliterated
 * segment (or one that had to be told apart from another with the same path) carries the exact
 * name as `name:` metadata, so that an import restores it.
 */

export const ROOT_OF_TYPE: Readonly<Record<AccountType, string>> = {
  ASSET: 'Assets',
  LIABILITY: 'Liabilities',
  EQUITY: 'Equity',
  INCOME: 'Income',
  EXPENSE: 'Expenses',
};

/**
 * The type a root stands for: our five roots, and the other names hledger recognises for them
 * (any case, singular or plural, `Revenue(s)` for income, `Debt(s)` for liabilities), so that
 * an hledger journal written with `assets:checking` reads as Assets:checking.
 */
const TYPE_OF_ROOT = new Map<string, AccountType>([
  ['asset', 'ASSET'],
  ['assets', 'ASSET'],
  ['liability', 'LIABILITY'],
  ['liabilities', 'LIABILITY'],
  ['debt', 'LIABILITY'],
  ['debts', 'LIABILITY'],
  ['equity', 'EQUITY'],
  ['income', 'INCOME'],
  ['revenue', 'INCOME'],
  ['revenues', 'INCOME'],
  ['expense', 'EXPENSE'],
  ['expenses', 'EXPENSE'],
]);

export function typeOfRoot(root: string): AccountType | undefined {
  return TYPE_OF_ROOT.get(root.toLowerCase());
}

/**
 * ledger/hledger: `:` separates segments, two spaces or a tab end an account name, `;` starts a
 * comment; control characters cannot stand in a line.
 */
export function ledgerSegment(raw: string): string {
  const s = raw
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/:/g, '-')
    .replace(/;/g, ',')
    .replace(/\s{2,}/g, ' ')
    .trim();
  return s === '' ? '-' : s;
}

/**
 * beancount: a segment starts with a capital letter or a digit and holds letters, digits and
 * dashes. We write ASCII only (accents are dropped), which every beancount version reads.
 */
export function beancountSegment(raw: string): string {
  let s = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  if (s === '') return 'X';
  if (/^[a-z]/.test(s)) s = s[0]!.toUpperCase() + s.slice(1);
  return s;
}

function segmentFor(format: JournalFormat, raw: string): string {
  return format === 'beancount' ? beancountSegment(raw) : ledgerSegment(raw);
}

/** The account's own part of its path: its name without its parent's path (with or without the root) in front. */
export function rawSegment(name: string, root: string, parentRaw: readonly string[]): string {
  if (parentRaw.length > 0) {
    const prefix = `${parentRaw.join(':')}:`;
    if (name.length > prefix.length && name.startsWith(prefix)) return name.slice(prefix.length);
  }
  const rooted = `${[root, ...parentRaw].join(':')}:`;
  if (name.length > rooted.length && name.startsWith(rooted)) return name.slice(rooted.length);
  return name;
}

export interface AccountPath {
  /** The path as written in the format. */
  path: string;
  /** The untransliterated segments below the root (names with their parents' paths stripped). */
  raw: string[];
  /** False when the path does not give the name back: the writer adds `name:` metadata. */
  exact: boolean;
}

/**
 * Paths of every account in one format, deterministic and without two accounts on one path:
 * parents before children; among siblings, accounts whose segment needs no transliteration first,
 * then by name; a path already taken gets `-2`, `-3`, ... (with `name:` metadata).
 */
export function accountPaths(accounts: readonly BookAccount[], format: JournalFormat): Map<string, AccountPath> {
  const children = new Map<string | null, BookAccount[]>();
  const ids = new Set(accounts.map((a) => a.id));
  for (const account of accounts) {
    const parent = account.parentId !== null && ids.has(account.parentId) ? account.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(account);
    children.set(parent, list);
  }
  const out = new Map<string, AccountPath>();
  const taken = new Set<string>();
  let level: { account: BookAccount; parent: AccountPath | null }[] = (children.get(null) ?? []).map((account) => ({
    account,
    parent: null,
  }));
  while (level.length > 0) {
    const planned = level.map(({ account, parent }) => {
      const root = ROOT_OF_TYPE[account.type];
      const parentRaw = parent?.raw ?? [];
      const raw = rawSegment(account.name, root, parentRaw);
      const segment = segmentFor(format, raw);
      return { account, parent, root, raw, segment, clean: segment === raw };
    });
    planned.sort(
      (x, y) =>
        Number(y.clean) - Number(x.clean) ||
        compareNames(x.account.name, y.account.name) ||
        (x.account.id < y.account.id ? -1 : 1),
    );
    const next: typeof level = [];
    for (const p of planned) {
      const base = `${p.parent?.path ?? p.root}:`;
      let path = base + p.segment;
      let exact = p.clean;
      for (let n = 2; taken.has(path); n++) {
        path = `${base}${p.segment}-${n}`;
        exact = false;
      }
      taken.add(path);
      const entry: AccountPath = { path, raw: [...(p.parent?.raw ?? []), p.raw], exact };
      out.set(p.account.id, entry);
      for (const child of children.get(p.account.id) ?? []) next.push({ account: child, parent: entry });
    }
    level = next;
  }
  return out;
}

function compareNames(a: string, b: string): number {
  const ka = a.normalize('NFC').toLowerCase();
  const kb = b.normalize('NFC').toLowerCase();
  return ka < kb ? -1 : ka > kb ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

export const MAX_ACCOUNT_NAME = 100;

/**
 * Names to try, in order, for an imported account whose leaf name is `leaf`: the leaf itself, then
 * its path without the root (`Food:Other`), then with it (`Expenses:Food:Other`), then numbered.
 * Account names are unique per user ignoring case; the export strips the parent's path again.
 */
export function* nameCandidates(leaf: string, root: string, parentRaw: readonly string[]): Generator<string> {
  yield leaf;
  if (parentRaw.length > 0) yield [...parentRaw, leaf].join(':');
  const rooted = [root, ...parentRaw, leaf].join(':');
  yield rooted;
  for (let n = 2; n < 1000; n++) yield `${rooted} (${n})`;
}
