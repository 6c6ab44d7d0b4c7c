import { changeLogOf } from '../../db/change-log.ts';
import type { LedgerDb } from '../../db/stores.ts';
import type { LedgerClock } from '../../sync/clock.ts';
import { crashPoint } from '../../sync/crash-point.ts';
import type { SyncMessage } from '../../sync/messages.ts';
import { syncOnce, type SyncGroup, type SyncResult, type SyncTransport } from '../../sync/sync-client.ts';
import { applyReceived } from './sync-apply.ts';
import { withoutBytes, type AttachmentTransfer } from './attachment-transfer.ts';

/** Logs every mark a job's connection left, a batch per transaction, so that no one waits long. */
export function takeAllMarks(db: LedgerDb): void {
  const log = changeLogOf(db);
  while (log.hasMarks()) db.transaction(() => log.take());
}

/**
 * This device's node id for the books: read when the books have one, made (a write) only the first
 * time, so that reading the status or the history is no write.
 */
export function thisDevice(db: LedgerDb): string {
  const [state] = db.allSql<{ node: string }>('SELECT node FROM sync_state WHERE id = 1');
  return state?.node ?? db.transaction(() => changeLogOf(db).node());
}

/** A ledger as the sync client sees it (server/sync/sync-client.ts SyncStore). */
export class LedgerSyncStore {
  private readonly db: LedgerDb;
  /** The user's files, whose bytes travel with their chunks' messages (none: chunks go without). */
  private readonly files: AttachmentTransfer | undefined;

  constructor(db: LedgerDb, files?: AttachmentTransfer) {
    this.db = db;
    this.files = files;
  }

  /** The ledger's clock, its trie covering the whole log. */
  get clock(): LedgerClock {
    return changeLogOf(this.db).foldTrie();
  }

  pending(since: string, limit: number): SyncMessage[] {
    takeAllMarks(this.db);
    const messages = this.db
      .allSql<{ timestamp: string; dataset: string; row_id: string; value: string | null }>(
        'SELECT timestamp, dataset, row_id, value FROM change_log WHERE timestamp > ? ORDER BY timestamp LIMIT ?',
        since,
        limit,
      )
      .map((m) => ({
        timestamp: m.timestamp,
        dataset: m.dataset,
        row: m.row_id,
        column: m.value === null ? 'deleted' : 'row',
        value: m.value ?? '',
      }));
    return this.files ? this.files.withBytes(messages) : messages;
  }

  /** Applies received changes; a file's chunks are written to the data folder first, their bytes never to the log. */
  apply(messages: SyncMessage[]): void {
    applyReceived(this.db, this.files ? this.files.receive(messages) : messages.map(withoutBytes));
    this.files?.assemble();
  }
}

/** One sync of a ledger with its group; the next sync's since and the trie kept with the books. */
export async function syncLedger(
  db: LedgerDb,
  transport: SyncTransport,
  group: SyncGroup,
  since: string | null,
  files?: AttachmentTransfer,
): Promise<SyncResult> {
  const result = await syncOnce({ store: new LedgerSyncStore(db, files), transport, group, since });
  crashPoint('sync-exchanged');
  db.transaction(() => changeLogOf(db).saveTrie());
  return result;
}
