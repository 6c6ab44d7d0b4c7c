import { fileTypeFromBuffer } from 'file-type';
import type { LedgerDb } from '../../db/stores.ts';
import { newRowId } from '../../db/ids.ts';
import {
  ATTACHMENT_CONTENT_TYPES,
  ATTACHMENT_FILE_LIMIT_BYTES,
  ATTACHMENT_NAME_MAX,
  ATTACHMENT_QUOTA_BYTES,
  ATTACHMENT_QUOTA_FILES,
  ATTACHMENTS_PER_TARGET,
  type AttachmentContentType,
  type AttachmentDto,
} from '../../contract/attachments.ts';
import { attachmentName } from '../../domain/attachment-names.ts';
import { DomainError } from '../../domain/errors.ts';
import { findEntry } from '../journal/journal.queries.ts';
import { findBankTransaction } from '../statements/statements.queries.ts';
import type { AttachmentFiles } from './attachments.files.ts';
import {
  attachmentsByEntry,
  attachmentsOf,
  countOf,
  countsOf,
  deleteAttachment,
  fileIsKnown,
  findAttachment,
  insertAttachment,
  insertFile,
  usage,
} from './attachments.repository.ts';
import type { Attachment, AttachmentTarget } from './attachments.model.ts';

export type { AttachmentTarget } from './attachments.model.ts';

/** The extensions of each kind of file, the usual one first. */
const EXTENSIONS: Readonly<Record<AttachmentContentType, readonly string[]>> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/heic': ['heic'],
  'image/heif': ['heif', 'heic'],
};

/**
 * The kind of file the bytes are, read from their magic numbers by file-type (PDF's `%PDF-`, JPEG's
 * FF D8 FF, PNG's signature, the HEIC/HEIF `ftyp` brands); anything else is UNSUPPORTED_MEDIA_TYPE,
 * whatever the name or the header say.
 */
async function sniff(bytes: Uint8Array): Promise<AttachmentContentType> {
  const found = bytes.byteLength > 0 ? await fileTypeFromBuffer(bytes) : undefined;
  const mime = found?.mime as string | undefined;
  if (mime !== undefined && (ATTACHMENT_CONTENT_TYPES as readonly string[]).includes(mime))
    return mime as AttachmentContentType;
  throw new DomainError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Attach a PDF, JPEG, PNG or HEIC/HEIF file; this file's bytes are ${found ? `${found.mime}` : 'none of these'}`,
  );
}

/** Where an export puts a file, beside its journal: by hash, never by the name it was sent under. */
function documentPath(sha256: string, contentType: string): string {
  return `attachments/${sha256}.${EXTENSIONS[contentType as AttachmentContentType]?.[0] ?? 'bin'}`;
}

/** Each entry's files as export paths (entries with none are left out). */
export function entryDocuments(db: LedgerDb): Map<string, string[]> {
  const byEntry = new Map<string, string[]>();
  for (const [entryId, list] of attachmentsByEntry(db))
    byEntry.set(entryId, [...new Set(list.map((a) => documentPath(a.sha256, a.contentType)))]);
  return byEntry;
}

/** The distinct files attached to entries, with their export paths. */
export function entryFiles(db: LedgerDb): { sha256: string; path: string }[] {
  const files = new Map<string, string>();
  for (const list of attachmentsByEntry(db).values())
    for (const a of list) files.set(a.sha256, documentPath(a.sha256, a.contentType));
  return [...files].map(([sha256, path]) => ({ sha256, path }));
}

function toDto(a: Attachment, stored: boolean): AttachmentDto {
  return {
    id: a.id,
    entry_id: a.entryId,
    bank_transaction_id: a.bankTransactionId,
    file_name: a.fileName,
    content_type: a.contentType as AttachmentContentType,
    size_bytes: a.sizeBytes,
    sha256: a.sha256,
    created_at: a.createdAt,
    waiting_for_sync: !stored,
  };
}

function assertTarget(db: LedgerDb, target: AttachmentTarget): void {
  const exists = target.kind === 'entry' ? findEntry(db, target.id) : findBankTransaction(db, target.id);
  if (!exists)
    throw new DomainError('NOT_FOUND', target.kind === 'entry' ? 'Entry not found' : 'Bank transaction not found');
}

/**
 * The use cases of attachments over one data folder's files. A user's folder is swept once per
 * process on first use (files of an upload a crash cut short), and again after a restore.
 */
export class AttachmentService {
  readonly files: AttachmentFiles;
  private readonly swept = new Set<string>();

  constructor(files: AttachmentFiles) {
    this.files = files;
  }

  private sweepOnce(db: LedgerDb, userId: string): void {
    if (this.swept.has(userId)) return;
    this.swept.add(userId);
    this.collect(db, userId);
  }

  /** Removes the user's files the ledger no longer names; answers how many went. */
  collect(db: LedgerDb, userId: string): number {
    return this.files.sweep(userId, (sha256) => fileIsKnown(db, sha256));
  }

  list(db: LedgerDb, userId: string, target: AttachmentTarget): AttachmentDto[] {
    this.sweepOnce(db, userId);
    assertTarget(db, target);
    return attachmentsOf(db, target).map((a) => toDto(a, this.files.has(userId, a.sha256)));
  }

  counts(db: LedgerDb, entryIds: readonly string[], bankTransactionIds: readonly string[]) {
    return {
      entries: Object.fromEntries(countsOf(db, 'entry', entryIds)),
      bank_transactions: Object.fromEntries(countsOf(db, 'bank_transaction', bankTransactionIds)),
    };
  }

  usage(db: LedgerDb) {
    return { ...usage(db), quota_files: ATTACHMENT_QUOTA_FILES, quota_bytes: ATTACHMENT_QUOTA_BYTES };
  }

  get(db: LedgerDb, id: string): Attachment {
    const found = findAttachment(db, id);
    if (!found) throw new DomainError('NOT_FOUND', 'Attachment not found');
    return found;
  }

  /** Checks the rules that hold before any byte is written: the target, its count, the quota. */
  private assertRoom(db: LedgerDb, target: AttachmentTarget, sha256: string, size: number): void {
    assertTarget(db, target);
    if (countOf(db, target) >= ATTACHMENTS_PER_TARGET)
      throw new DomainError(
        'LIMIT_REACHED',
        `An ${target.kind === 'entry' ? 'entry' : 'bank line'} holds at most ${ATTACHMENTS_PER_TARGET} files`,
      );
    if (fileIsKnown(db, sha256)) return;
    const used = usage(db);
    if (used.files + 1 > ATTACHMENT_QUOTA_FILES)
      throw new DomainError('LIMIT_REACHED', `Your attachments hold at most ${ATTACHMENT_QUOTA_FILES} files`);
    if (used.bytes + size > ATTACHMENT_QUOTA_BYTES)
      throw new DomainError(
        'LIMIT_REACHED',
        `Your attachments take at most ${ATTACHMENT_QUOTA_BYTES / 1024 / 1024 / 1024} GiB; delete some first`,
      );
  }

  /**
   * Attaches a file: sniffed, written to a temporary name and synced (the only await), then, in one
   * synchronous stretch, renamed to its hash and its row committed. The rules are checked again in
   * that stretch, since other requests ran during the write.
   */
  async attach(
    db: LedgerDb,
    userId: string,
    target: AttachmentTarget,
    bytes: Uint8Array,
    sentName: string | undefined,
  ): Promise<AttachmentDto> {
    this.sweepOnce(db, userId);
    if (bytes.byteLength > ATTACHMENT_FILE_LIMIT_BYTES)
      throw new DomainError('PAYLOAD_TOO_LARGE', `A file is at most ${ATTACHMENT_FILE_LIMIT_BYTES / 1024 / 1024} MiB`);
    const contentType = await sniff(bytes);
    const fileName = attachmentName(sentName, EXTENSIONS[contentType], ATTACHMENT_NAME_MAX);
    const staged = await this.files.stage(userId, bytes);
    try {
      this.assertRoom(db, target, staged.sha256, bytes.byteLength);
    } catch (error) {
      this.files.discard(staged);
      throw error;
    }
    this.files.place(staged);
    const id = newRowId();
    const at = new Date().toISOString();
    try {
      db.transaction(() => {
        this.assertRoom(db, target, staged.sha256, bytes.byteLength);
        insertFile(db, staged.sha256, bytes.byteLength, contentType, at);
        insertAttachment(db, {
          id,
          entryId: target.kind === 'entry' ? target.id : null,
          bankTransactionId: target.kind === 'bank_transaction' ? target.id : null,
          sha256: staged.sha256,
          fileName,
          createdAt: at,
        });
      });
    } catch (error) {
      if (!fileIsKnown(db, staged.sha256)) this.files.remove(userId, staged.sha256);
      throw error;
    }
    return toDto(this.get(db, id), true);
  }

  /**
   * The path of an attachment's file to read: ATTACHMENT_WAITING_FOR_SYNC while its bytes have not
   * arrived from the sync group (attached on another computer).
   */
  fileToRead(userId: string, found: Attachment): string {
    if (!this.files.has(userId, found.sha256))
      throw new DomainError(
        'ATTACHMENT_WAITING_FOR_SYNC',
        'This file was attached on another computer and is waiting for sync: its bytes have not arrived yet',
      );
    return this.files.fileOf(userId, found.sha256);
  }

  /** Deletes an attachment; its file goes from the disk once no attachment names it. */
  remove(db: LedgerDb, userId: string, id: string): void {
    const found = this.get(db, id);
    db.transaction(() => deleteAttachment(db, id));
    if (!fileIsKnown(db, found.sha256)) this.files.remove(userId, found.sha256);
  }
}
