/**
 * Trades rebuilt from an imported journal (docs/investments.md "Interop"): a transaction whose
 * postings carry a security's units at a cost becomes the trade the app would have booked, with its
 * lots, reductions and the holding's totals, on the entry the import posted.
 */
import { newRowId } from '../../db/ids.ts';
import type { LedgerDb } from '../../db/stores.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import type { AccountType, Direction } from '../../domain/double-entry.ts';
import { journalError, JOURNAL_ERRORS } from '../../domain/plaintext/errors.ts';
import { bookSale, formatUnits, MAX_HOLDING_ATOMS, parsePrice, formatPrice, type NamedLot } from '../../domain/lots.ts';
import { formatMinor } from '../../domain/money.ts';
import type { ParsedUnits } from '../../domain/plaintext/types.ts';
import { lotUnitCost } from '../../domain/plaintext/units.ts';
import {
  addToHolding,
  findSecurityBySymbol,
  findSettings,
  insertLot,
  insertSecurity,
  insertTrade,
  openLots,
  saveSettings,
  savePrice,
} from './investments.repository.ts';
import { applySale, saleRows } from './investments.trades.ts';
import { MAX_SECURITIES, settingsOf } from './investments.service.ts';
import type { Security } from './investments.model.ts';

export interface ImportedLine {
  /** the file's line of the posting */
  line: number;
  accountId: string;
  accountType: AccountType;
  direction: Direction;
  amountMinor: bigint;
  currency: string;
  units: ParsedUnits | null;
}

export interface ImportedEntry {
  entryId: string;
  date: string;
  lines: readonly ImportedLine[];
}

function refuse(line: number, why: string, code: string = JOURNAL_ERRORS.invalid): never {
  throw journalError(code, line, why);
}

/** A decimal's text without trailing zeros (`210.50` → `210.5`). */
function plain(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
}

/**
 * The securities the import names, found by symbol or made (their price currency the first cost or
 * price they are written in; their name the symbol), counted against MAX_SECURITIES.
 */
class SecurityBook {
  private readonly bySymbol = new Map<string, Security>();
  private readonly db: LedgerDb;
  private readonly at: string;
  constructor(db: LedgerDb, at: string) {
    this.db = db;
    this.at = at;
  }

  of(symbol: string, currency: string, line: number): Security {
    let s = this.bySymbol.get(symbol) ?? findSecurityBySymbol(this.db, symbol);
    if (!s) {
      const n = Number(this.db.allSql<{ n: bigint }>('SELECT COUNT(*) AS n FROM securities')[0]!.n);
      if (n >= MAX_SECURITIES)
        refuse(line, `the books hold at most ${MAX_SECURITIES} securities`, 'TOO_MANY_SECURITIES');
      s = { id: newRowId(), symbol, name: symbol, currency, createdAt: this.at };
      insertSecurity(this.db, s);
    }
    this.bySymbol.set(symbol, s);
    if (s.currency !== currency) refuse(line, `${symbol} is priced in ${s.currency}, not ${currency}`);
    return s;
  }
}

/**
 * Books the trades of imported entries (in date order, each entry already posted) and the file's
 * securities' prices. Returns how many trades it booked.
 */
export function rebuildImportedTrades(
  db: LedgerDb,
  entries: Iterable<ImportedEntry>,
  prices: readonly { line: number; date: string; symbol: string; price: string; currency: string }[],
  at: string,
): number {
  const securities = new SecurityBook(db, at);
  /** the accounts whose investment settings this import made: later sales may name their other gains account */
  const settingsMade = new Set<string>();
  let booked = 0;
  for (const entry of entries) {
    const unitLines = entry.lines.filter((l) => l.units !== null);
    if (unitLines.length === 0) continue;
    const first = unitLines[0]!;
    const units = first.units!;
    if (unitLines.some((l) => l.accountId !== first.accountId || l.units!.symbol !== units.symbol))
      refuse(first.line, 'a transaction books the units of one security in one account (one trade)');
    const buying = units.atoms > 0n;
    if (unitLines.some((l) => l.units!.atoms > 0n !== buying))
      refuse(first.line, `a transaction either buys or sells ${units.symbol}, not both`);
    if (first.accountType !== 'ASSET') refuse(first.line, `${units.symbol} is held in an ASSET account`);
    const sec = securities.of(units.symbol, first.currency, first.line);
    const others = entry.lines.filter((l) => l.units === null);
    if (buying) bookBuy(db, entry, unitLines, others, sec);
    else bookSold(db, entry, unitLines, others, sec, settingsMade);
    booked++;
  }
  for (const p of prices) {
    const sec = securities.of(p.symbol, p.currency, p.line);
    savePrice(db, sec.id, p.date, plain(p.price));
  }
  return booked;
}

function bookBuy(
  db: LedgerDb,
  entry: ImportedEntry,
  unitLines: readonly ImportedLine[],
  others: readonly ImportedLine[],
  sec: Security,
): void {
  const first = unitLines[0]!;
  if (unitLines.length > 1) refuse(unitLines[1]!.line, `a purchase of ${sec.symbol} is one lot: one posting`);
  const u = first.units!.atoms;
  const basis = first.amountMinor;
  const held = openLots(db, first.accountId, sec.id).reduce((s, l) => s + l.units, 0n);
  if (held + u > MAX_HOLDING_ATOMS) refuse(first.line, 'an account holds at most 10,000,000,000 units of a security');
  const cost = first.units!.unitCost;
  const price = cost !== null && parsePrice(plain(cost)) !== null ? plain(cost) : null;
  const id = newRowId();
  // a purchase paid by income alone is a reinvested dividend
  const dividend = others.length > 0 && others.every((l) => l.accountType === 'INCOME');
  insertTrade(
    db,
    {
      id,
      entryId: entry.entryId,
      accountId: first.accountId,
      securityId: sec.id,
      kind: dividend ? 'dividend' : 'buy',
      date: entry.date,
      unitsAtoms: u,
      price,
      amountMinor: basis,
      feesMinor: 0n,
      unitsDelta: u,
      basisDelta: basis,
      proceedsMinor: 0n,
      costMinor: 0n,
    },
    new Date().toISOString(),
  );
  const lot = { id: newRowId(), date: first.units!.lotDate ?? entry.date, seq: 0, units: u, basisMinor: basis };
  insertLot(db, lot, id, first.accountId, sec.id);
  addToHolding(db, first.accountId, sec.id, u, basis, 0n);
}

/** The lots a sale's postings name: by the lot's date and cost per unit where they are written, oldest first. */
function namedLots(held: ReturnType<typeof openLots>, unitLines: readonly ImportedLine[], sec: Security): NamedLot[] {
  const left = new Map(held.map((l) => [l.id, l.units] as const));
  const digits = currencyDigits(sec.currency);
  const taken = new Map<string, bigint>();
  for (const l of unitLines) {
    const u = l.units!;
    let need = -u.atoms;
    const cost = u.unitCost === null ? null : plain(u.unitCost);
    for (const lot of held) {
      if (need === 0n) break;
      if (left.get(lot.id)! === 0n || (u.lotDate !== null && lot.date !== u.lotDate)) continue;
      if (cost !== null && lotUnitCost(lot.basisBought, lot.unitsBought, digits).text !== cost) continue;
      const take = need < left.get(lot.id)! ? need : left.get(lot.id)!;
      left.set(lot.id, left.get(lot.id)! - take);
      taken.set(lot.id, (taken.get(lot.id) ?? 0n) + take);
      need -= take;
    }
    if (need > 0n) {
      const which = [cost && `at ${cost} ${sec.currency}`, u.lotDate && `bought ${u.lotDate}`]
        .filter(Boolean)
        .join(', ');
      refuse(
        l.line,
        `the open lots of ${sec.symbol}${which ? ` ${which}` : ''} in the account hold fewer than the ${formatUnits(-u.atoms)} units sold`,
        'INSUFFICIENT_UNITS',
      );
    }
  }
  return [...taken].map(([lotId, units]) => ({ lotId, units }));
}

function bookSold(
  db: LedgerDb,
  entry: ImportedEntry,
  unitLines: readonly ImportedLine[],
  others: readonly ImportedLine[],
  sec: Security,
  settingsMade: Set<string>,
): void {
  const first = unitLines[0]!;
  const accountId = first.accountId;
  const held = openLots(db, accountId, sec.id);
  const named = namedLots(held, unitLines, sec);
  const u = named.reduce((s, n) => s + n.units, 0n);
  const result = bookSale(held, u, named);
  if (!result.ok) return refuse(first.line, `the sale of ${sec.symbol} names lots it cannot take`, 'INVALID_LOT');
  const { costMinor } = result.booked;
  const fmt = (m: bigint) => `${formatMinor(m, sec.currency)} ${sec.currency}`;
  const written = unitLines.reduce((s, l) => s + (l.direction === 'CREDIT' ? l.amountMinor : -l.amountMinor), 0n);
  if (written !== costMinor)
    refuse(first.line, `the lots sold cost ${fmt(costMinor)}, but the postings take ${fmt(written)} off the account`);
  // the gain is what the income lines book; the proceeds are the cost and the gain
  const income = new Map<string, bigint>();
  for (const l of others)
    if (l.accountType === 'INCOME')
      income.set(
        l.accountId,
        (income.get(l.accountId) ?? 0n) + (l.direction === 'CREDIT' ? l.amountMinor : -l.amountMinor),
      );
  const gain = [...income.values()].reduce((s, g) => s + g, 0n);
  const proceeds = costMinor + gain;
  if (proceeds < 0n) refuse(first.line, `the sale of ${sec.symbol} loses more than its cost`);
  const settings = settingsOf(db, accountId);
  const { rows, shortGain } = saleRows(result.booked.reductions, proceeds, entry.date, settings.longTermDays);
  if ((settingsMade.has(accountId) || !findSettings(db, accountId)) && income.size > 0) {
    // an account without settings takes the sale's income accounts as its gains accounts: the one
    // with the short-term gain for short term, the other for long term (a sale all of one term
    // names that term's account only)
    const accounts = [...income.keys()];
    const allLong = rows.every((r) => r.longTerm);
    const allShort = rows.every((r) => !r.longTerm);
    let short = settings.shortTermAccountId;
    let long = settings.longTermAccountId;
    if (accounts.length === 1 && allLong) long = accounts[0]!;
    else if (accounts.length === 1 && allShort) short = accounts[0]!;
    else {
      short = accounts.find((a) => income.get(a) === shortGain) ?? accounts[0]!;
      long = accounts.find((a) => a !== short) ?? short;
    }
    saveSettings(db, { ...settings, shortTermAccountId: short ?? long, longTermAccountId: long ?? short });
    settingsMade.add(accountId);
  }
  const price = first.units!.price;
  const id = newRowId();
  insertTrade(
    db,
    {
      id,
      entryId: entry.entryId,
      accountId,
      securityId: sec.id,
      kind: 'sell',
      date: entry.date,
      unitsAtoms: u,
      price: price !== null && parsePrice(plain(price)) !== null ? formatPrice(parsePrice(plain(price))!) : null,
      amountMinor: proceeds,
      feesMinor: 0n,
      unitsDelta: -u,
      basisDelta: -costMinor,
      proceedsMinor: proceeds,
      costMinor,
    },
    new Date().toISOString(),
  );
  applySale(db, { accountId, securityId: sec.id, tradeId: id }, held, result.booked, rows);
}
