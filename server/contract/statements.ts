import { z } from 'zod';
import { CSV_DATE_FORMATS, CSV_DELIMITERS, STATEMENT_ENCODINGS, isKnownEncoding } from '../domain/statements/index.ts';
import {
  amountString,
  filePart,
  isoDate,
  isoDateTime,
  nameText,
  pageOf,
  pagination,
  queryBool,
  resourceId,
  signedAmountString,
  uuid,
} from './common.ts';
import { TEXT_LIMITS } from './limits.ts';

export const STATEMENT_SOURCES = ['json', 'csv', 'ofx', 'qif', 'camt053'] as const;
export const FILE_FORMATS = ['csv', 'ofx', 'qif', 'camt053'] as const;
export const BANK_TYPES = ['debit', 'credit'] as const;
export const MAX_STATEMENT_TRANSACTIONS = 100_000;
/** The encodings the import offers a person, in the order offered. */
export { STATEMENT_ENCODINGS };
export const STATEMENT_FILE_LIMIT = '20mb';
/** A JSON statement of MAX_STATEMENT_TRANSACTIONS rows is about 12 MB. */
export const STATEMENT_JSON_LIMIT = '32mb';

export const bankTransactionInput = z.strictObject({
  date: isoDate,
  description: z.string().trim().min(1).max(1000),
  amount: amountString,
  type: z.enum(BANK_TYPES),
  // bank ids can be long opaque strings (DCU's are 235 characters)
  external_id: z.string().trim().min(1).max(1000).nullable().optional(),
});

export const createStatementBody = z.strictObject({
  account_id: resourceId,
  name: nameText(TEXT_LIMITS.statementName).optional(),
  transactions: z.array(bankTransactionInput).max(MAX_STATEMENT_TRANSACTIONS),
  /** The bank's closing balance, signed as the account's balance (a card's amount owed is positive). */
  closing_balance: signedAmountString.optional(),
  /** The day the closing balance is the balance at the end of; default the statement's last day. */
  closing_date: isoDate.optional(),
});

/** Sets (or, with null, clears) a statement's closing balance by hand. */
export const patchStatementBody = z.strictObject({
  closing_balance: signedAmountString.nullable(),
  closing_date: isoDate.optional(),
});

const column = z
  .union([z.string().min(1).max(200), z.number().int().min(0).max(199)])
  .meta({ description: 'A column: its header text as in the file, or its 0-based position (an integer)' });
const optionalColumn = column.nullable().default(null);
const values = z.array(z.string().max(100)).max(50).default([]);

/** A CSV column mapping: flat, JSON-serialisable, remembered per account. */
export const csvMapping = z
  .strictObject({
    delimiter: z.enum(CSV_DELIMITERS),
    header_row: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .meta({ description: '0-based line of the header (of the first data row when `has_header` is false)' }),
    has_header: z
      .boolean()
      .default(true)
      .meta({ description: 'false: the file has no header line ("the first row is data"); columns are positions' }),
    date_column: column,
    date_format: z.enum(CSV_DATE_FORMATS),
    description_columns: z.array(column).min(1).max(20),
    amount_column: optionalColumn,
    debit_column: optionalColumn,
    credit_column: optionalColumn,
    decimal_mark: z.enum(['.', ',']).default('.'),
    external_id_column: optionalColumn,
    status_column: optionalColumn,
    skip_status_values: values,
    direction_column: optionalColumn,
    balance_column: column.nullable().optional().meta({
      description: 'a running balance after each row: the balance of the row last by date is the closing balance',
    }),
    direction_debit_values: values,
    direction_credit_values: values,
    fee_column: optionalColumn,
    account_column: optionalColumn,
    currency_column: optionalColumn,
  })
  .refine((m) => (m.amount_column !== null) !== (m.debit_column !== null || m.credit_column !== null), {
    message: 'give either amount_column or debit_column and credit_column',
    path: ['amount_column'],
  })
  .meta({
    id: 'CsvMapping',
    description: 'How the columns of a CSV file map to transactions; the import preview shows the guessed one',
  });

/** At most this many accounts in one file can be told apart by `account_ids`. */
export const MAX_FILE_ACCOUNTS = 100;

const encodingParam = z
  .string()
  .max(40)
  .refine(isKnownEncoding, { message: 'is not an encoding this server can read' })
  .optional()
  .meta({
    description: `Read the file in this encoding instead of detecting it; the preview answers the one used. Offered: ${STATEMENT_ENCODINGS.join(', ')} (any name iconv-lite knows is accepted)`,
    example: 'euc-jp',
  });

const accountIdsParam = z.string().max(10_000).optional().meta({
  description:
    "JSON array with one entry per account in the file, in the order of the preview's `accounts`: the id of the account to import it into, or null to skip it. Needed when a file holds several accounts with transactions",
  example: '["3f1c…", null]',
});

/** `account_ids` once parsed: one entry per account in the file. */
export const accountIds = z.array(resourceId.nullable()).min(1).max(MAX_FILE_ACCOUNTS);

export const importQuery = z.strictObject({
  account_id: resourceId,
  format: z.enum(FILE_FORMATS).optional(),
  name: nameText(TEXT_LIMITS.statementName).optional(),
  /** JSON text of a CsvMapping, for raw-body uploads; multipart uploads may send it as a field */
  mapping: z.string().max(10_000).optional(),
  encoding: encodingParam,
  account_ids: accountIdsParam,
  dry_run: queryBool.optional(),
});

/** A statement file sent as multipart/form-data: the file, and any of the query's text fields as parts. */
export const statementUploadParts = z.object({
  file: filePart,
  name: importQuery.shape.name,
  mapping: importQuery.shape.mapping.meta({ description: 'JSON text of a CsvMapping' }),
  encoding: encodingParam,
  account_ids: accountIdsParam,
  dry_run: z.enum(['true', 'false']).optional().meta({ description: '`true`: store nothing, answer a preview' }),
});

export const statement = z
  .object({
    id: resourceId,
    account_id: resourceId,
    name: z.string(),
    source: z.enum(STATEMENT_SOURCES),
    imported_count: z.number().int(),
    duplicate_count: z.number().int(),
    start_date: isoDate.nullable(),
    end_date: isoDate.nullable(),
    /** Balances signed as the account's balance (CONTRACT §5), null where the file states none. */
    opening_balance: z.string().nullable(),
    closing_balance: z.string().nullable(),
    closing_date: isoDate.nullable(),
    created_at: isoDateTime,
  })
  .meta({ id: 'Statement' });

export const RECONCILIATION_STATUSES = ['unmatched', 'pending_review', 'auto_accepted', 'accepted'] as const;

export const bankTransaction = z
  .object({
    id: resourceId,
    statement_id: resourceId,
    date: isoDate,
    description: z.string(),
    amount: z.string(),
    type: z.enum(BANK_TYPES),
    external_id: z.string().nullable(),
    reconciliation_status: z.enum(RECONCILIATION_STATUSES),
    match_id: resourceId.nullable(),
  })
  .meta({ id: 'BankTransaction' });

export const listStatementsQuery = z.strictObject({ account_id: uuid.optional(), ...pagination });
export const listTransactionsQuery = z.strictObject({ ...pagination });
export const statementPage = pageOf(statement);
export const bankTransactionPage = pageOf(bankTransaction);

const skippedLine = z.object({ line: z.number().int(), reason: z.string() });
const ignoredCells = z
  .array(z.object({ line: z.number().int(), cells: z.array(z.string()) }))
  .meta({ description: 'CSV rows with cells beyond the header, and those cells (not read)' });

/** One account the file speaks of, as the preview shows it. */
export const fileAccountPreview = z
  .object({
    account_ref: z.string().nullable().meta({ description: 'The account number in the file (ACCTID, IBAN…)' }),
    currency: z.string().nullable(),
    transaction_count: z.number().int(),
    start_date: isoDate.nullable(),
    end_date: isoDate.nullable(),
    /** As the bank signs it ('-': overdrawn, or owed on a card). */
    closing_balance: z.string().nullable(),
    closing_date: isoDate.nullable(),
    /** The account it goes to (given, or suggested when not given); null: skipped. */
    account_id: resourceId.nullable(),
    duplicate_count: z.number().int(),
  })
  .meta({ id: 'StatementFileAccount' });

export const importPreview = z
  .object({
    format: z.enum(FILE_FORMATS),
    encoding: z.string(),
    transaction_count: z.number().int(),
    duplicate_count: z.number().int(),
    start_date: isoDate.nullable(),
    end_date: isoDate.nullable(),
    opening_balance: z.string().nullable(),
    closing_balance: z.string().nullable(),
    closing_date: isoDate.nullable(),
    csv_mapping: csvMapping.nullable(),
    csv_columns: z.array(z.string()).nullable(),
    /** The first data row's cells, to name columns by what they hold (a file without a header). */
    csv_first_row: z.array(z.string()).nullable(),
    skipped: z.array(skippedLine),
    ignored_cells: ignoredCells,
    /** Every account in the file, in file order; the counts above are those of the accounts not skipped. */
    accounts: z.array(fileAccountPreview),
    /** New transactions (not duplicates) that a rule would book. */
    rule_matched_count: z.number().int(),
    transactions: z.array(
      z.object({
        date: isoDate,
        description: z.string(),
        amount: z.string(),
        type: z.enum(BANK_TYPES),
        external_id: z.string().nullable(),
        duplicate: z.boolean(),
        /** The rule that would book it (the first that matches), if any. */
        rule_id: resourceId.nullable(),
      }),
    ),
  })
  .meta({ id: 'StatementImportPreview' });

/** What an import answers: the stored statement, or with `id: null` when every transaction was already there. */
export const statementResult = statement.extend({
  id: resourceId.nullable(),
  created_at: isoDateTime.nullable(),
  /** Of the transactions stored, how many a rule would book (CONTRACT §13). */
  rule_matched_count: z.number().int(),
});

export const importResult = statementResult
  .extend({
    format: z.enum(FILE_FORMATS),
    skipped: z.array(skippedLine),
    ignored_cells: ignoredCells,
    csv_mapping: csvMapping.nullable(),
    /** Every account in the file and what became of it; the fields above are the first stored statement's. */
    accounts: z.array(
      z.object({
        account_ref: z.string().nullable(),
        currency: z.string().nullable(),
        /** null: skipped */
        account_id: resourceId.nullable(),
        /** null: skipped, or nothing new to store */
        statement_id: resourceId.nullable(),
        imported_count: z.number().int(),
        duplicate_count: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'StatementImportResult' });

/** What an import answers with 200: a dry run's preview, or (`id` null) a re-import that added nothing. */
export const importNothingStored = z.union([importPreview, importResult]);

export type CreateStatementInput = z.infer<typeof createStatementBody>;
export type PatchStatementInput = z.infer<typeof patchStatementBody>;
export type StatementDto = z.infer<typeof statement>;
export type StatementResultDto = z.infer<typeof statementResult>;
export type BankTransactionDto = z.infer<typeof bankTransaction>;
