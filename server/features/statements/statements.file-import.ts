import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import {
  accountIds as accountIdsSchema,
  csvMapping as csvMappingSchema,
  MAX_STATEMENT_TRANSACTIONS,
} from '../../contract/statements.ts';
import { DomainError, type FieldError } from '../../domain/errors.ts';
import { currencyDigits } from '../../domain/currencies.ts';
import { formatMinor, parseSignedAmount, type Minor } from '../../domain/money.ts';
import {
  closingBalanceOf as fileClosingBalance,
  describeNoTransactions,
  fileAccounts,
  parseStatementFile,
  transactionCount,
  type CsvMapping,
  type FileAccount,
  type ParsedStatement,
  type StatementFormat,
} from '../../domain/statements/index.ts';
import type { Account } from '../accounts/accounts.model.ts';
import { ruleSetOf } from '../rules/rules.service.ts';
import { defaultStatementName } from '../../contract/names.ts';
import { loadCsvMapping, saveCsvMapping } from './statements.repository.ts';
import {
  amountOrFail,
  NO_BALANCES,
  plan,
  PREVIEW_ROWS,
  ruleMatches,
  statementAccount,
  store,
  type Balances,
  type IncomingTransaction,
  type Planned,
} from './statements.intake.ts';

/**
 * The balances a file states, as the account's balance: the bank writes what the holder has, so a
 * LIABILITY account's balance (what is owed) is its negation. A file of several statements states
 * balances only when they are all of one bank account: the first statement's opening, and the
 * closing balance of the latest day. A balance with more decimals than the currency has is none.
 */
function statedBalances(statements: readonly ParsedStatement[], account: Account, endDate: string | null): Balances {
  const refs = new Set(statements.map((s) => s.account_ref));
  if (statements.length === 0 || (statements.length > 1 && (refs.size > 1 || refs.has(null)))) return NO_BALANCES;
  const sign = account.type === 'LIABILITY' ? -1n : 1n;
  const minor = (amount: string | undefined): Minor | null => {
    if (amount === undefined) return null;
    const parsed = parseSignedAmount(amount, account.currency);
    return 'minor' in parsed ? parsed.minor * sign : null;
  };
  let closing: { minor: Minor; date: string | null } | null = null;
  for (const s of statements) {
    const m = minor(s.closing_balance?.amount);
    const date = s.closing_balance?.date ?? s.end_date;
    if (m !== null && (closing === null || (date ?? '') >= (closing.date ?? ''))) closing = { minor: m, date };
  }
  return {
    openingMinor: minor(statements[0]!.opening_balance?.amount),
    closingMinor: closing?.minor ?? null,
    closingDate: closing === null ? null : (closing.date ?? endDate),
  };
}

export interface ImportFileInput {
  accountId: string;
  bytes: Uint8Array;
  format?: StatementFormat | undefined;
  name?: string | undefined;
  fileName?: string | undefined;
  /** A mapping given with the upload, as parsed JSON. */
  mapping?: unknown;
  /** Read the file in this encoding instead of detecting it. */
  encoding?: string | undefined;
  /** Per account in the file, as parsed JSON: the account to import it into, or null to skip it. */
  accountIds?: unknown;
  dryRun?: boolean | undefined;
}

function parseMapping(raw: unknown): CsvMapping {
  const result = csvMappingSchema.safeParse(raw);
  if (!result.success) {
    const errors = result.error.issues.map((i) => ({
      field: ['mapping', ...i.path.map(String)].join('.'),
      message: i.message,
    }));
    throw new DomainError('VALIDATION_ERROR', `Invalid CSV mapping: ${errors[0]!.field} ${errors[0]!.message}`, errors);
  }
  return result.data as CsvMapping;
}

/** One account of the file, the ledger account it goes to (null: skipped), and its rows in that account's units. */
interface FilePart {
  found: FileAccount;
  target: Account | null;
  incoming: IncomingTransaction[];
}

/**
 * Imports a bank file: parsed, each account in it checked against the ledger account it goes to,
 * de-duplicated against what that account already has, and stored as one statement per account,
 * all in one transaction; with `dryRun`, answers what would be imported and stores nothing. A file
 * that yields no transaction to store is refused (NO_TRANSACTIONS, saying what it holds), so that
 * it never looks like a re-import.
 */
export function importStatementFile(db: LedgerDb, input: ImportFileInput) {
  const account = statementAccount(db, input.accountId);
  const parsed = parseBankFile(db, account, input);
  const found = fileAccounts(parsed.statements);
  const targets = chooseTargets(db, found, account, input);
  let offset = 0;
  const parts: FilePart[] = found.map((f, i) => {
    const target = targets[i] ?? null;
    const incoming = target === null ? [] : checkedRows(f, target, offset);
    offset += incoming.length;
    return { found: f, target, incoming };
  });
  return db.transaction(() => {
    const planned = parts.map((p) => (p.target === null ? null : plan(db, p.target, p.incoming)));
    const balances = parts.map((p, i) =>
      p.target === null ? NO_BALANCES : statedBalances(p.found.statements, p.target, planned[i]!.endDate),
    );
    if (input.dryRun) return preview(db, parsed, parts, planned, balances);
    if (offset === 0) {
      const chosen = parts.filter((p) => p.target !== null);
      const detail =
        chosen.length === 0
          ? `Every account in the file is skipped (account_ids): nothing was stored.`
          : describeNoTransactions(parsed.format, found, parsed.skipped);
      throw new DomainError('NO_TRANSACTIONS', detail);
    }
    const baseName =
      input.name ?? input.fileName ?? defaultStatementName(parsed.format, planned.find((p) => p)?.startDate ?? null);
    const several = parts.filter((p) => p.target !== null && p.incoming.length > 0).length > 1;
    const results = parts.map((p, i) => {
      if (p.target === null || p.incoming.length === 0) return null;
      const name = several && p.found.account_ref ? `${baseName} (${p.found.account_ref})`.slice(0, 200) : baseName;
      return store(db, p.target, newRowId(), name, parsed.format, planned[i]!, balances[i]!);
    });
    const first = results.find((r) => r !== null && r.id !== null) ?? results.find((r) => r !== null)!;
    if (first.id !== null && parsed.format === 'csv' && parsed.csv_mapping)
      saveCsvMapping(db, account.id, parsed.csv_mapping, first.created_at!);
    return {
      preview: false as const,
      ...first,
      format: parsed.format,
      skipped: parsed.skipped,
      ignored_cells: parsed.ignored_cells,
      csv_mapping: parsed.csv_mapping,
      accounts: parts.map((p, i) => ({
        account_ref: p.found.account_ref,
        currency: p.found.currency,
        account_id: p.target?.id ?? null,
        statement_id: results[i]?.id ?? null,
        imported_count: results[i]?.imported_count ?? 0,
        duplicate_count: results[i]?.duplicate_count ?? 0,
      })),
    };
  });
}

type ParsedFile = ReturnType<typeof parseStatementFile>;

/**
 * The file parsed, a CSV with the mapping given, else with the account's remembered one; a
 * remembered mapping that no longer fits (the bank changed its export) is dropped for a fresh guess.
 */
function parseBankFile(db: LedgerDb, account: Account, input: ImportFileInput): ParsedFile {
  const given = input.mapping !== undefined ? parseMapping(input.mapping) : undefined;
  const remembered =
    given ?? (input.format === undefined || input.format === 'csv' ? rememberedMapping(db, account.id) : undefined);
  const options = { format: input.format, encoding: input.encoding, maxTransactions: MAX_STATEMENT_TRANSACTIONS };
  try {
    return parseStatementFile(input.bytes, { ...options, csvMapping: remembered });
  } catch (error) {
    if (given || !remembered) throw error;
    return parseStatementFile(input.bytes, options);
  }
}

/**
 * Which ledger account each account in the file goes to. Given (`account_ids`): one entry per
 * account in the file, each an ASSET or LIABILITY account or null. Not given: a file of one account
 * goes to the chosen account; so does a file where only one account has transactions. A file with
 * several accounts that have transactions needs `account_ids` to be stored; its preview suggests
 * the chosen account for the first of them in its currency (or without one) and skips the others.
 */
function chooseTargets(
  db: LedgerDb,
  found: FileAccount[],
  account: Account,
  input: ImportFileInput,
): (Account | null)[] {
  if (input.accountIds !== undefined) {
    const result = accountIdsSchema.safeParse(input.accountIds);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      const field = ['account_ids', ...issue.path.map(String)].join('.');
      throw new DomainError('VALIDATION_ERROR', `Invalid account_ids: ${field} ${issue.message}`, [
        { field, message: issue.message },
      ]);
    }
    if (result.data.length !== found.length) {
      const message = `the file holds ${found.length} ${found.length === 1 ? 'account' : 'accounts'}: give one entry for each (an account id, or null to skip it)`;
      throw new DomainError('VALIDATION_ERROR', `Invalid account_ids: ${message}`, [{ field: 'account_ids', message }]);
    }
    return result.data.map((id, i) => {
      if (id === null) return null;
      try {
        return statementAccount(db, id);
      } catch (error) {
        if (error instanceof DomainError)
          throw new DomainError(error.code, error.message, [
            { field: `account_ids.${i}`, message: error.errors?.[0]?.message ?? error.message },
          ]);
        throw error;
      }
    });
  }
  if (found.length === 1) return [account];
  const withRows = found.filter((f) => transactionCount(f) > 0);
  if (withRows.length <= 1) {
    const only = withRows[0] ?? found[0];
    return found.map((f) => (f === only ? account : null));
  }
  if (!input.dryRun) {
    const list = withRows
      .map((f) => `${f.account_ref ?? 'no account number'} (${f.currency ?? 'no currency'})`)
      .join(', ');
    const message = `the file holds ${withRows.length} accounts with transactions (${list}): say which account each goes to, or null to skip it`;
    throw new DomainError('VALIDATION_ERROR', `account_ids is needed: ${message}`, [{ field: 'account_ids', message }]);
  }
  const fits = (f: FileAccount) => f.currency === null || f.currency === 'XXX' || f.currency === account.currency;
  const suggested = withRows.find(fits);
  return found.map((f) => (f === suggested ? account : null));
}

/** One file account's rows in its ledger account's minor units; another currency, or any bad amount, is refused whole. */
function checkedRows(found: FileAccount, account: Account, offset: number): IncomingTransaction[] {
  const errors: FieldError[] = [];
  const incoming: IncomingTransaction[] = [];
  if (found.currency && found.currency !== 'XXX' && found.currency !== account.currency) {
    const which = found.account_ref === null ? 'The file' : `The file's account ${found.account_ref}`;
    throw new DomainError(
      'CURRENCY_MISMATCH',
      `${which} is in ${found.currency}, the account ${account.name} in ${account.currency}`,
    );
  }
  let index = offset;
  for (const statement of found.statements) {
    for (const t of statement.transactions) {
      index += 1;
      const minor = amountOrFail(
        t.amount,
        account.currency,
        `transactions.${index - 1}.amount`,
        `transaction ${index}: `,
        errors,
      );
      if (minor !== null)
        incoming.push({
          date: t.date,
          description: t.description,
          amountMinor: minor,
          type: t.type,
          externalId: t.external_id,
        });
    }
  }
  if (errors.length > 0) throw new DomainError('INVALID_STATEMENT_FILE', errors[0]!.message, errors);
  return incoming;
}

/**
 * A dry run's answer: what the file holds and what of it is new, with its first 50 rows. The
 * counts, dates and balances are those of the accounts not skipped (balances only when that is one).
 */
function preview(
  db: LedgerDb,
  parsed: ParsedFile,
  parts: readonly FilePart[],
  planned: readonly (Planned | null)[],
  balances: readonly Balances[],
) {
  const rules = ruleSetOf(db);
  const chosen = parts.flatMap((p, i) =>
    p.target === null ? [] : [{ ...p, target: p.target, planned: planned[i]!, balances: balances[i]! }],
  );
  const rows: ReturnType<typeof previewRows> = [];
  let matched = 0;
  for (const p of chosen) {
    const ruled = ruleMatches(
      rules,
      p.incoming,
      currencyDigits(p.target.currency),
      (i) => p.planned.duplicates[i] === 0,
    );
    matched += ruled.matched;
    if (rows.length < PREVIEW_ROWS)
      rows.push(...previewRows(p.planned, p.target, ruled.ids).slice(0, PREVIEW_ROWS - rows.length));
  }
  const total = chosen.reduce((n, p) => n + p.incoming.length, 0);
  const dates = chosen
    .flatMap((p) => [p.planned.startDate, p.planned.endDate])
    .filter((d): d is string => d !== null)
    .sort();
  const single = chosen.length === 1 ? chosen[0]! : null;
  const money = (minor: Minor | null) =>
    minor === null || single === null ? null : formatMinor(minor, single.target.currency);
  return {
    preview: true as const,
    format: parsed.format,
    encoding: parsed.encoding,
    transaction_count: total,
    duplicate_count: chosen.reduce((n, p) => n + p.incoming.length - p.planned.newCount, 0),
    start_date: dates[0] ?? null,
    end_date: dates[dates.length - 1] ?? null,
    opening_balance: money(single?.balances.openingMinor ?? null),
    closing_balance: money(single?.balances.closingMinor ?? null),
    closing_date: single?.balances.closingDate ?? null,
    csv_mapping: parsed.csv_mapping,
    csv_columns: parsed.csv_columns,
    csv_first_row: parsed.csv_first_row,
    skipped: parsed.skipped,
    ignored_cells: parsed.ignored_cells,
    accounts: parts.map((p, i) => {
      const closing = fileClosingBalance(p.found);
      const days = p.found.statements
        .flatMap((s) => [s.start_date, s.end_date, ...s.transactions.map((t) => t.date)])
        .filter((d): d is string => d !== null)
        .sort();
      return {
        account_ref: p.found.account_ref,
        currency: p.found.currency,
        transaction_count: transactionCount(p.found),
        start_date: days[0] ?? null,
        end_date: days[days.length - 1] ?? null,
        closing_balance: closing?.amount ?? null,
        closing_date: closing?.date ?? null,
        account_id: p.target?.id ?? null,
        duplicate_count: planned[i] ? p.incoming.length - planned[i].newCount : 0,
      };
    }),
    rule_matched_count: matched,
    transactions: rows,
  };
}

/** The first PREVIEW_ROWS rows of one account, each marked as a duplicate or not, with the rule that would book it. */
function previewRows(planned: Planned, account: Account, ruleIds: readonly (string | null)[]) {
  return planned.incoming.slice(0, PREVIEW_ROWS).map((t, i) => ({
    date: t.date,
    description: t.description,
    amount: formatMinor(t.amountMinor, account.currency),
    type: t.type,
    external_id: t.externalId,
    duplicate: planned.duplicates[i] === 1,
    rule_id: ruleIds[i] ?? null,
  }));
}

function rememberedMapping(db: LedgerDb, accountId: string): CsvMapping | undefined {
  const stored = loadCsvMapping(db, accountId);
  if (stored === undefined) return undefined;
  const result = csvMappingSchema.safeParse(stored);
  return result.success ? (result.data as CsvMapping) : undefined;
}
