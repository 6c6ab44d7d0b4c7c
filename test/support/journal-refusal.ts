import { DomainError } from '../../server/domain/errors.ts';
import { parseJournal } from '../../server/domain/plaintext/index.ts';
import type { JournalFormat } from '../../server/domain/plaintext/types.ts';

/** The error a journal text is refused with; a journal that is read fails the test. */
export function refusal(text: string, format: JournalFormat): DomainError {
  try {
    parseJournal(text, format);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the journal to be refused');
}
