import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import type { ImportJournalResult } from '../../contract/export.ts';
import { MAX_ACCOUNTS } from '../../contract/accounts.ts';
import { MAX_LINES_PER_ENTRY } from '../../contract/journal.ts';
import { ACCOUNT_DEPTH_LIMIT, MAX_ACCOUNT_DEPTH } from '../../domain/account-tree.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import { DomainError } from '../../domain/errors.ts';
import { MAX_AMOUNT_UNITS } from '../../domain/money.ts';
import {
  accountPaths,
  atLine,
  journalError,
  JOURNAL_ERRORS,
  MAX_ACCOUNT_NAME,
  nameCandidates,
  parseJournal,
  rawSegment,
  resolvePostings,
  ROOT_OF_TYPE,
  typeOfRoot,
  type JournalFormat,
  type ParsedTransaction,
  type ParsedUnits,
  type ResolvedLine,
} from '../../domain/plaintext/index.ts';
import { allAccounts } from '../accounts/accounts.queries.ts';
import { closeAccount, storeAccount } from '../accounts/accounts.service.ts';
import { nameKey, type Account } from '../accounts/accounts.model.ts';
import { toBookAccount } from '../export/export.service.ts';
import { registeredTradingAccount, registerTradingAccounts, tradingAccountName } from '../exchange/trading-accounts.ts';
import { insertEntriesInBulk, type NewEntry } from '../journal/journal.service.ts';
import { assertPostable, assertWeightsBalance, tradingLinesOf, type CheckedLine } from '../journal/journal.service.ts';
import { rebuildImportedTrades } from '../investments/investments.import.ts';
import { upsertPrices } from '../prices/prices.service.ts';
import { applyPostings } from '../totals/totals.service.ts';
import type { PostedLine } from '../totals/totals.model.ts';
import { linkVoid } from './journal-import.repository.ts';

/**
 * Imports a journal atomically: creates the accounts its paths name (type from the root; missing
 * parents too), posts every transaction as an `import` entry, then deactivates the accounts it
 * closes. Each transaction is held to the same rules as any entry (amounts exact to the currency,
 * each account's own currency, active accounts, balanced per currency); the first that fails
 * refuses the whole file, naming its line.
 */
export function importJournal(
  db: LedgerDb,
  text: string,
  format: JournalFormat,
  now: Date = new Date(),
): ImportJournalResult {
  const journal = parseJournal(text, format);
  const resolved = journal.transactions.map((txn) => ({ txn, lines: resolvePostings(txn) }));
  return db.transaction(() => {
    const accounts = new AccountPlanner(db, format, journal.operatingCurrency);
    for (const decl of journal.accounts) accounts.declare(decl.path, decl.line, decl.name, decl.currencies[0] ?? null);
    for (const { lines } of resolved) for (const l of lines) accounts.use(l.account, l.line, l.currency);
    for (const decl of journal.accounts) accounts.ensure(decl.path, decl.line);

    const entries: (NewEntry & { checked: ImportLine[]; marks: ParsedTransaction['marks'] })[] = [];
    for (const { txn, lines } of resolved) {
      if (lines.length < 2)
        throw journalError('TOO_FEW_LINES', txn.line, 'a transaction needs at least 2 postings with an amount');
      if (lines.length > MAX_LINES_PER_ENTRY)
        throw journalError(
          JOURNAL_ERRORS.invalid,
          txn.line,
          `a transaction has at most ${MAX_LINES_PER_ENTRY} postings`,
        );
      const own = lines.filter((l) => !l.automatic).map((l) => checkedLine(l, accounts.ensure(l.account, l.line)));
      let checked: ImportLine[];
      try {
        assertWeightsBalance(own);
        const trading = tradingLinesOf(db, own, (currency) => accounts.trading(currency)).map((l) => ({
          ...l,
          accountType: l.account.type,
        }));
        assertSameAutomatic(lines, trading, txn.line);
        checked = [...own, ...trading];
        assertPostable(checked);
      } catch (error) {
        throw error instanceof DomainError && !error.message.startsWith('line ') ? atLine(error, txn.line) : error;
      }
      entries.push({ date: txn.date, memo: txn.memo, status: 'posted', lines: checked, checked, marks: txn.marks });
    }
    const closed = new Set<Account>();
    for (const close of journal.closes) closed.add(accounts.ensure(close.path, close.line));

    // History order: by date, the file's order within a day (most files are in order already).
    const inOrder = entries.every((e, i) => i === 0 || entries[i - 1]!.date <= e.date);
    const ordered = inOrder
      ? entries
      : entries
          .map((e, i) => ({ e, i }))
          .sort((x, y) => (x.e.date < y.e.date ? -1 : x.e.date > y.e.date ? 1 : x.i - y.i))
          .map((x) => x.e);
    const at = now.toISOString();
    for (const account of accounts.created) storeAccount(db, { ...account, createdAt: at, updatedAt: at });
    registerTradingAccounts(db, accounts.tradingAccounts);
    const prices = upsertPrices(db, journal.prices, at);
    const ids = insertEntriesInBulk(db, ordered, 'import', at);
    for (const [voided, reversal] of voidPairs(ordered)) linkVoid(db, ids[voided]!, ids[reversal]!, at);
    applyPostings(
      db,
      ordered.map((e) => ({ entryDate: e.date, lines: e.checked })),
    );
    rebuildImportedTrades(
      db,
      ordered.map((e, i) => ({
        entryId: ids[i]!,
        date: e.date,
        lines: e.checked.map((l) => ({ ...l, line: l.line ?? 0, units: l.units ?? null })),
      })),
      journal.securityPrices ?? [],
      at,
    );
    for (const account of closed) if (account.isActive) closeAccount(db, account, at);
    return {
      format,
      accounts_created: accounts.created.length,
      entries_imported: ordered.length,
      lines_imported: ordered.reduce((n, e) => n + e.lines.length, 0),
      accounts_closed: closed.size,
      prices_imported: prices.created + prices.replaced,
      first_date: ordered[0]?.date ?? null,
      last_date: ordered.at(-1)?.date ?? null,
    };
  });
}

/**
 * Our export marks a voided entry `voided-by: <reversal id>` and its reversal `reverses: <id>`; a
 * pair whose marks point at each other and whose lines are the same with directions swapped is
 * linked again (the voided entry's status is void), so that history stays faithful.
 */
function voidPairs(
  entries: readonly { checked: readonly CheckedLine[]; marks: ParsedTransaction['marks'] }[],
): [number, number][] {
  const byId = new Map<string, number>();
  entries.forEach((e, i) => {
    if (e.marks?.id) byId.set(e.marks.id, i);
  });
  const pairs: [number, number][] = [];
  entries.forEach((e, i) => {
    const reversalAt = e.marks?.voidedBy ? byId.get(e.marks.voidedBy) : undefined;
    if (reversalAt === undefined || !e.marks?.id) return;
    const reversal = entries[reversalAt]!;
    if (reversal.marks?.reverses !== e.marks.id || reversal.checked.length !== e.checked.length) return;
    const mirrored = e.checked.every((l, k) => {
      const r = reversal.checked[k]!;
      return (
        r.accountId === l.accountId &&
        r.amountMinor === l.amountMinor &&
        r.currency === l.currency &&
        r.direction !== l.direction
      );
    });
    if (mirrored) pairs.push([i, reversalAt]);
  });
  return pairs;
}

/**
 * Our export writes an exchange's automatic trading lines out; the import makes them anew from the
 * costs, so the file's own (marked `automatic: trading`) must be the very lines it makes.
 */
function assertSameAutomatic(lines: readonly ResolvedLine[], made: readonly CheckedLine[], line: number): void {
  const key = (l: {
    direction: string;
    amountMinor: bigint;
    currency: string;
    cost?: { amountMinor: bigint; currency: string } | null;
  }) => `${l.direction} ${l.amountMinor} ${l.currency} ${l.cost ? `${l.cost.amountMinor} ${l.cost.currency}` : ''}`;
  const inFile = lines
    .filter((l) => l.automatic)
    .map(key)
    .sort();
  if (inFile.length === 0) return;
  const expected = made.map(key).sort();
  if (inFile.length !== expected.length || inFile.some((k, i) => k !== expected[i]))
    throw journalError(
      JOURNAL_ERRORS.invalid,
      line,
      "the postings marked automatic: trading are not the currency trading lines of the transaction's prices",
    );
}

/** A line checked as any entry's, also in the shape the totals take, with its file line and a security's units. */
type ImportLine = CheckedLine & PostedLine & { line?: number; units?: ParsedUnits | null };

/** A resolved line on its account, held to the same amount and currency rules as any entry line. */
function checkedLine(l: ResolvedLine, account: Account): ImportLine {
  if (l.currency !== account.currency) {
    throw journalError(
      'CURRENCY_MISMATCH',
      l.line,
      `the account ${account.name} is in ${account.currency}, not ${l.currency} (an account holds one currency)`,
    );
  }
  if (l.amountMinor >= MAX_AMOUNT_UNITS * 10n ** BigInt(currencyDigits(l.currency))) {
    throw journalError('VALIDATION_ERROR', l.line, 'an amount must be less than one trillion');
  }
  return {
    accountId: account.id,
    accountType: account.type,
    direction: l.direction,
    amountMinor: l.amountMinor,
    currency: l.currency,
    cost: l.cost,
    account,
    line: l.line,
    units: l.units,
  };
}

/** The path with its root spelled as ours (`assets:bank` -> `Assets:bank`); unknown roots stay. */
function canonicalPath(path: string): string {
  const colon = path.indexOf(':');
  const first = colon === -1 ? path : path.slice(0, colon);
  const type = typeOfRoot(first);
  return type && ROOT_OF_TYPE[type] !== first ? ROOT_OF_TYPE[type] + path.slice(first.length) : path;
}

function tooManyAccounts(line: number): DomainError {
  return journalError(
    JOURNAL_ERRORS.invalid,
    line,
    `a ledger holds at most ${MAX_ACCOUNTS} accounts; this journal would make more`,
  );
}

interface PathInfo {
  line: number;
  name: string | null;
  currency: string | null;
}

/**
 * Finds or plans the account of each path. Existing accounts are found by the path the export
 * gives them in this format; a new account's name is its `name:` metadata or its last segment,
 * or, when that name is taken (names are unique ignoring case), its path without the root. A path
 * is read once, split once and walked from its root down: its depth is checked against
 * MAX_ACCOUNT_DEPTH as soon as it is seen, so no path costs more than its length times the limit.
 */
class AccountPlanner {
  readonly created: Account[] = [];
  /** trading accounts found by name or planned, to register once the accounts are inserted */
  readonly tradingAccounts: Account[] = [];
  private readonly db: LedgerDb;
  private readonly byPath = new Map<string, Account>();
  private readonly raw = new Map<string, string[]>();
  private readonly taken = new Set<string>();
  private readonly info = new Map<string, PathInfo>();
  /** Per path, the currency of the first account below it that has one (made once every path is known). */
  private belowCurrency: Map<string, string> | undefined;
  private readonly fallbackCurrency: string;
  private readonly existing: number;

  constructor(db: LedgerDb, format: JournalFormat, operatingCurrency: string | null) {
    this.db = db;
    this.fallbackCurrency = operatingCurrency ?? 'USD';
    const existing = allAccounts(db);
    this.existing = existing.length;
    const paths = accountPaths(existing.map(toBookAccount), format);
    for (const account of existing) {
      const p = paths.get(account.id)!;
      this.byPath.set(p.path, account);
      this.raw.set(account.id, p.raw);
      this.taken.add(nameKey(account.name));
    }
  }

  declare(path: string, line: number, name: string | null, currency: string | null): void {
    const info = this.infoOf(path, line);
    if (name !== null) info.name = name;
    if (currency !== null && info.currency === null) info.currency = currency;
  }

  use(path: string, line: number, currency: string): void {
    const info = this.infoOf(path, line);
    if (info.currency === null) info.currency = currency;
  }

  private infoOf(path: string, line: number): PathInfo {
    const key = canonicalPath(path);
    let info = this.info.get(key);
    if (!info) {
      // each path the file names is an account, of the ledger or new: the count stops a file of
      // endless paths before its plan grows
      if (this.info.size >= MAX_ACCOUNTS) throw tooManyAccounts(line);
      segmentsOf(path, line);
      this.info.set(key, (info = { line, name: null, currency: null }));
    }
    return info;
  }

  /** The account of a path, planning it (and its missing parents, from the root down) when there is none. */
  ensure(path: string, line: number): Account {
    const found = this.byPath.get(path);
    if (found) return found;
    const segments = segmentsOf(path, line);
    const type = typeOfRoot(segments[0]!);
    if (!type) {
      throw journalError(
        JOURNAL_ERRORS.invalid,
        line,
        `the account ${JSON.stringify(path)} does not start with ${Object.values(ROOT_OF_TYPE).join(', ')} (its type comes from its root)`,
      );
    }
    const root = ROOT_OF_TYPE[type];
    if (segments.length < 2)
      throw journalError(JOURNAL_ERRORS.invalid, line, `postings go to accounts below the root, not to ${root} itself`);
    if (segments.some((s) => s.trim() === ''))
      throw journalError(JOURNAL_ERRORS.invalid, line, `the account ${JSON.stringify(path)} has an empty segment`);
    // `assets:bank` is `Assets:bank`: the same account wherever the file spells the root so.
    let parent: Account | null = null;
    let prefix = root;
    for (let level = 1; level < segments.length; level++) {
      prefix = `${prefix}:${segments[level]!}`;
      parent = this.byPath.get(prefix) ?? this.plan(prefix, segments[level]!, type, root, parent, line);
    }
    this.byPath.set(path, parent!);
    return parent!;
  }

  /** A new account for `path` (whose parent, already found or planned, is `parent`). */
  private plan(
    path: string,
    segment: string,
    type: Account['type'],
    root: string,
    parent: Account | null,
    line: number,
  ) {
    if (this.existing + this.created.length >= MAX_ACCOUNTS) throw tooManyAccounts(line);
    const parentRaw = parent ? this.raw.get(parent.id)! : [];
    const info = this.info.get(path);
    const leaf = (info?.name ?? segment).trim();
    if (leaf.length === 0 || leaf.length > MAX_ACCOUNT_NAME) {
      throw journalError(
        JOURNAL_ERRORS.invalid,
        line,
        `an account name must be 1 to ${MAX_ACCOUNT_NAME} characters: ${JSON.stringify(leaf.slice(0, 120))}`,
      );
    }
    let name: string | undefined;
    for (const candidate of nameCandidates(leaf, root, parentRaw)) {
      if (candidate.length <= MAX_ACCOUNT_NAME && !this.taken.has(nameKey(candidate))) {
        name = candidate;
        break;
      }
    }
    if (name === undefined)
      throw journalError(JOURNAL_ERRORS.invalid, line, `no free name for the account ${JSON.stringify(path)}`);
    const account: Account = {
      id: newRowId(),
      name,
      type,
      currency: info?.currency ?? this.currencyBelow(path) ?? parent?.currency ?? this.fallbackCurrency,
      description: null,
      isActive: true,
      parentId: parent?.id ?? null,
      createdAt: '',
      updatedAt: '',
    };
    this.created.push(account);
    this.byPath.set(path, account);
    this.raw.set(account.id, [...parentRaw, rawSegment(name, root, parentRaw)]);
    this.taken.add(nameKey(name));
    return account;
  }

  /**
   * The trading account of a currency: the registered one, else an EQUITY account of that currency
   * named "Currency trading <code>" (ours from an export, already planned from its path), else a new one.
   */
  trading(currency: string): Account {
    const registered = registeredTradingAccount(this.db, currency);
    if (registered) return registered;
    const name = tradingAccountName(currency);
    const planned = this.tradingAccounts.find((a) => a.currency === currency);
    if (planned) return planned;
    const found = [...this.byPath.values()].find(
      (a) => nameKey(a.name) === nameKey(name) && a.type === 'EQUITY' && a.currency === currency,
    );
    if (found) {
      this.tradingAccounts.push(found);
      return found;
    }
    let free = name;
    for (let n = 2; this.taken.has(nameKey(free)); n++) free = `${name} (${n})`;
    const account: Account = {
      id: newRowId(),
      name: free,
      type: 'EQUITY',
      currency,
      description: `Takes the ${currency} side of exchanges between currencies (automatic lines)`,
      isActive: true,
      parentId: null,
      createdAt: '',
      updatedAt: '',
    };
    this.created.push(account);
    this.taken.add(nameKey(free));
    this.raw.set(account.id, [rawSegment(free, ROOT_OF_TYPE.EQUITY, [])]);
    this.tradingAccounts.push(account);
    return account;
  }

  /** The currency of the first account below a path that has one (a parent created for its children). */
  private currencyBelow(path: string): string | null {
    if (!this.belowCurrency) {
      this.belowCurrency = new Map();
      for (const [p, info] of this.info) {
        if (info.currency === null) continue;
        for (let at = p.lastIndexOf(':'); at > 0; at = p.lastIndexOf(':', at - 1)) {
          const above = p.slice(0, at);
          if (!this.belowCurrency.has(above)) this.belowCurrency.set(above, info.currency);
        }
      }
    }
    return this.belowCurrency.get(path) ?? null;
  }
}

/** A path's segments, refused with a 400 naming the line and the limit when it is deeper than MAX_ACCOUNT_DEPTH. */
function segmentsOf(path: string, line: number): string[] {
  let colons = 0;
  for (let at = path.indexOf(':'); at !== -1 && colons <= MAX_ACCOUNT_DEPTH; at = path.indexOf(':', at + 1)) colons++;
  if (colons > MAX_ACCOUNT_DEPTH)
    throw journalError(
      JOURNAL_ERRORS.invalid,
      line,
      `${ACCOUNT_DEPTH_LIMIT}; this account path has more (${JSON.stringify(path.slice(0, 80))}...)`,
    );
  return path.split(':');
}
