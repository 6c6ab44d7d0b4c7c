import type { LedgerDb } from '../../db/stores.ts';
import type { Attachment, AttachmentTarget } from './attachments.model.ts';

type Row = {
  id: string;
  entry_id: string | null;
  bank_transaction_id: string | null;
  sha256: string;
  file_name: string;
  content_type: string;
  size_bytes: bigint;
  created_at: string;
};

const SELECT = `SELECT a.id, a.entry_id, a.bank_transaction_id, a.sha256, a.file_name, f.content_type, f.size_bytes, a.created_at
FROM attachments a JOIN attachment_files f ON f.sha256 = a.sha256`;

function toAttachment(r: Row): Attachment {
  return {
    id: r.id,
    entryId: r.entry_id,
    bankTransactionId: r.bank_transaction_id,
    sha256: r.sha256,
    fileName: r.file_name,
    contentType: r.content_type,
    sizeBytes: Number(r.size_bytes),
    createdAt: r.created_at,
  };
}

const COLUMN = { entry: 'entry_id', bank_transaction: 'bank_transaction_id' } as const;

export function findAttachment(db: LedgerDb, id: string): Attachment | undefined {
  const [row] = db.allSql<Row>(`${SELECT} WHERE a.id = ?`, id);
  return row && toAttachment(row);
}

export function attachmentsOf(db: LedgerDb, target: AttachmentTarget): Attachment[] {
  const column = COLUMN[target.kind];
  return db.allSql<Row>(`${SELECT} WHERE a.${column} = ? ORDER BY a.created_at, a.id`, target.id).map(toAttachment);
}

export function countOf(db: LedgerDb, target: AttachmentTarget): number {
  const column = COLUMN[target.kind];
  const [row] = db.allSql<{ n: bigint }>(`SELECT COUNT(*) AS n FROM attachments WHERE ${column} = ?`, target.id);
  return Number(row?.n ?? 0n);
}

/** How many attachments each of `ids` holds (those with none are left out). */
export function countsOf(db: LedgerDb, kind: AttachmentTarget['kind'], ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  const column = COLUMN[kind];
  const rows = db.allSql<{ target: string; n: bigint }>(
    `SELECT ${column} AS target, COUNT(*) AS n FROM attachments WHERE ${column} IN (${ids.map(() => '?').join(', ')}) GROUP BY ${column}`,
    ...ids,
  );
  for (const row of rows) counts.set(row.target, Number(row.n));
  return counts;
}

export function usage(db: LedgerDb): { files: number; bytes: number } {
  const [row] = db.allSql<{ files: bigint; bytes: bigint }>('SELECT files, bytes FROM attachment_usage WHERE id = 1');
  return { files: Number(row?.files ?? 0n), bytes: Number(row?.bytes ?? 0n) };
}

export function fileIsKnown(db: LedgerDb, sha256: string): boolean {
  return db.existsSql('SELECT 1 FROM attachment_files WHERE sha256 = ?', sha256);
}

export function insertFile(db: LedgerDb, sha256: string, sizeBytes: number, contentType: string, at: string): void {
  db.runSql(
    'INSERT INTO attachment_files (sha256, size_bytes, content_type, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING',
    sha256,
    sizeBytes,
    contentType,
    at,
  );
}

export function insertAttachment(db: LedgerDb, a: Omit<Attachment, 'contentType' | 'sizeBytes'>): void {
  db.runSql(
    'INSERT INTO attachments (id, entry_id, bank_transaction_id, sha256, file_name, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    a.id,
    a.entryId,
    a.bankTransactionId,
    a.sha256,
    a.fileName,
    a.createdAt,
  );
}

export function deleteAttachment(db: LedgerDb, id: string): void {
  db.runSql('DELETE FROM attachments WHERE id = ?', id);
}

/** Every stored file the ledger names, with what its export and backup need. */
export function allFiles(db: LedgerDb): { sha256: string; contentType: string }[] {
  return db
    .allSql<{ sha256: string; content_type: string }>(
      'SELECT sha256, content_type FROM attachment_files ORDER BY sha256',
    )
    .map((r) => ({ sha256: r.sha256, contentType: r.content_type }));
}

/** The attachments of entries, by entry, for the export (entries with none are left out). */
export function attachmentsByEntry(db: LedgerDb): Map<string, Attachment[]> {
  const byEntry = new Map<string, Attachment[]>();
  for (const row of db.allSql<Row>(`${SELECT} WHERE a.entry_id IS NOT NULL ORDER BY a.entry_id, a.created_at, a.id`)) {
    const a = toAttachment(row);
    const list = byEntry.get(a.entryId!) ?? [];
    list.push(a);
    byEntry.set(a.entryId!, list);
  }
  return byEntry;
}
