import { createStatementBody } from '../../contract/statements.ts';
import { DomainError } from '../../domain/errors.ts';
import { validateConsuming } from '../../contract/validation.ts';
import { takeUtf8 } from '../../jobs/input.ts';
import { defineJob } from '../../jobs/job.ts';
import { rulesAreLinear } from '../rules/rules.service.ts';
import { createStatement } from './statements.service.ts';
import { importStatementFile, type ImportFileInput } from './statements.file-import.ts';

const malformedJson = () => new DomainError('MALFORMED_JSON', 'The request body is not valid JSON');

/** A JSON request body as body-parser reads it: no text is `{}`. */
function parseJsonText(text: string): unknown {
  if (text.length === 0) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw malformedJson();
  }
}

/** The items of an array, each let go by the array once given. */
function* consume<T>(items: T[]): Generator<T> {
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    (items as (T | undefined)[])[i] = undefined;
    yield item;
  }
}

/**
 * Statement imports as jobs (server/jobs): 100,000 rows take seconds to parse, check and store. A
 * small one runs on the server's thread unless the ledger has a regex rule: what its rows cost then
 * depends on the patterns too, and only the worker's budget can stop it.
 */
export const statementJobs = {
  /**
   * POST /api/statements: the JSON body (up to 100,000 transactions, ~12 MB) parsed and validated
   * here, off the event loop. Each form of it is let go as soon as the next is made (bytes, text,
   * parsed rows, checked rows), so that no two are held whole at once.
   */
  createStatement: defineJob({
    kind: 'writes',
    words: { what: 'This statement import', advice: 'Import the transactions in smaller parts.' },
    inline: rulesAreLinear,
    run: (db, input: { bytes: Uint8Array }) => {
      // No local holds the bytes, the text or the parsed body: each is garbage once the next is made.
      const checked = validateConsuming(
        createStatementBody,
        'transactions',
        parseJsonText(takeUtf8(input, malformedJson)),
        'body',
      );
      return createStatement(db, { ...checked, transactions: consume(checked.transactions) });
    },
  }),
  /** POST /api/statements/import: the file parsed, checked and stored. */
  importStatementFile: defineJob({
    kind: 'writes',
    words: { what: 'This statement import', advice: 'Split the file into smaller ones.' },
    inline: rulesAreLinear,
    run: (db, input: ImportFileInput) => importStatementFile(db, input),
  }),
};
