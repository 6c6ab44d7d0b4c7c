import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { RandomLedgers, play } from '../../../test/support/random-journal.ts';
import { newRowId } from '../../db/ids.ts';
import { deleteAttachment, insertAttachment, insertFile, usage } from './attachments.repository.ts';

const ledgers = new RandomLedgers();
afterAll(() => ledgers.close());

/** Six files, each a hash and a size. */
const FILES = Array.from({ length: 6 }, (_, i) => ({ sha256: String(i).repeat(64), size: 1000 * (i + 1) + i }));

const actionArb = fc.oneof(
  fc.record({ kind: fc.constant('attach' as const), entry: fc.nat(4), file: fc.nat(FILES.length - 1) }),
  fc.record({ kind: fc.constant('delete' as const), which: fc.nat(50) }),
);

describe('the attachments usage kept by triggers', () => {
  it('when files are attached and deleted at random, then the usage equals a recount of the distinct files still named, and no file row outlives its last attachment', () => {
    fc.assert(
      fc.property(fc.array(actionArb, { maxLength: 40 }), (actions) => {
        const { db, accounts } = ledgers.fresh();
        const entries = play(
          db,
          accounts,
          Array.from({ length: 5 }, (_, i) => ({
            kind: 'create' as const,
            day: i,
            memo: null,
            lines: [{ account: 0, amount: i + 1 }],
            against: 1,
            post: true,
          })),
        );
        const live: { id: string; file: number }[] = [];
        for (const a of actions) {
          db.transaction(() => {
            if (a.kind === 'attach') {
              const file = FILES[a.file]!;
              const id = newRowId();
              insertFile(db, file.sha256, file.size, 'application/pdf', '2026-03-02T00:00:00Z');
              insertAttachment(db, {
                id,
                entryId: entries[a.entry]!,
                bankTransactionId: null,
                sha256: file.sha256,
                fileName: 'x.pdf',
                createdAt: '2026-03-02T00:00:00Z',
              });
              live.push({ id, file: a.file });
            } else if (live.length > 0) {
              const [gone] = live.splice(a.which % live.length, 1);
              deleteAttachment(db, gone!.id);
            }
          });
        }
        // the oracle: the distinct files the attachments still name, counted here
        const named = new Set(live.map((l) => l.file));
        const expected = {
          files: named.size,
          bytes: [...named].reduce((sum, i) => sum + FILES[i]!.size, 0),
        };
        expect(usage(db)).toEqual(expected);
        const rows = db.allSql<{ sha256: string }>('SELECT sha256 FROM attachment_files ORDER BY sha256');
        expect(rows.map((r) => r.sha256)).toEqual([...named].map((i) => FILES[i]!.sha256).sort());
      }),
      { numRuns: 60 },
    );
  });
});
