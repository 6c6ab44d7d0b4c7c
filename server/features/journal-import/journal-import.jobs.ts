import { DomainError } from '../../domain/errors.ts';
import type { JournalFormat } from '../../domain/plaintext/index.ts';
import { takeUtf8 } from '../../jobs/input.ts';
import { defineJob } from '../../jobs/job.ts';
import { importJournal } from './journal-import.service.ts';

export const journalImportJobs = {
  /**
   * POST /api/import/journal: the journal (up to 20 MiB) decoded, parsed, checked and posted. Always
   * on the worker, however small: what a journal costs depends on the accounts it plans as well as
   * on its bytes, and only the worker's budget can stop a job.
   */
  importJournal: defineJob({
    kind: 'writes',
    words: { what: 'This journal import', advice: 'Split the journal into smaller files (by year, say).' },
    run: (db, input: { bytes: Uint8Array; format: JournalFormat }) => {
      const text = takeUtf8(
        input,
        () =>
          new DomainError('INVALID_JOURNAL', 'The journal is not UTF-8 text', [
            { field: 'file', message: 'is not UTF-8 text' },
          ]),
      );
      return importJournal(db, text, input.format);
    },
  }),
};
