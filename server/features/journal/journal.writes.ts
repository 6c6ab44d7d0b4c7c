import type { CreateEntryInput, UpdateEntryInput } from '../../contract/journal.ts';
import { defineWrite } from '../../writer/write.ts';
import { createEntry, postEntry, storeEntries, updateDraft, voidEntry, type VoidGuard } from './journal.service.ts';

/**
 * The journal's writes as requests make them, run on the ledger writer's thread (server/writer):
 * each shares a transaction, and so one sync to disk, with the writes of the other requests that
 * arrive with it, and is answered once that is durable; a write that fails is undone alone. A batch
 * heads a group of its own, without a savepoint. `voidGuard`: what voiding asks of the features that
 * hold on to entries, wired by the composition (server/write-table.ts).
 */
export function journalWrites(voidGuard: VoidGuard) {
  return {
    createEntry: defineWrite({ run: (db, input: CreateEntryInput) => createEntry(db, input) }),
    createEntries: defineWrite({
      head: true,
      run: (db, inputs: readonly CreateEntryInput[]) => storeEntries(db, inputs),
    }),
    updateDraft: defineWrite({
      run: (db, input: { id: string; changes: UpdateEntryInput }) => updateDraft(db, input.id, input.changes),
    }),
    postEntry: defineWrite({ run: (db, id: string) => postEntry(db, id) }),
    voidEntry: defineWrite({
      run: (db, input: { id: string; reason: string | null }) => voidEntry(db, input.id, input.reason, voidGuard),
    }),
  };
}

export type JournalWrites = ReturnType<typeof journalWrites>;
