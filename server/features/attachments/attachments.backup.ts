import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { LedgerDb } from '../../db/stores.ts';
import { DomainError } from '../../domain/errors.ts';
import { AttachmentFiles, SHA256_PATTERN } from './attachments.files.ts';
import { allFiles, fileIsKnown } from './attachments.repository.ts';

/** The folder, beside a user's backups, that holds the files their backups name, each once by hash. */
const BACKUP_FILES_FOLDER = 'attachments';

/**
 * The hashes of the files a ledger file (a backup, a staged restore) names. A ledger made before
 * attachments existed names none.
 */
function filesNamedBy(ledgerFile: string): string[] {
  // Opened read-write but made query-only: a read-only connection to a WAL file leaves its -wal
  // and -shm behind when it closes, where the last read-write one removes them.
  const db = new Database(ledgerFile, { fileMustExist: true });
  try {
    db.pragma('query_only = 1');
    const known = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'attachment_files'").get();
    if (!known) return [];
    return (db.prepare('SELECT sha256 FROM attachment_files ORDER BY sha256').pluck().all() as string[]).filter(
      (sha256) => SHA256_PATTERN.test(sha256),
    );
  } finally {
    db.close();
  }
}

/**
 * What a backup and a restore do with the attached files. A backup's files go into
 * `<backups>/<user>/attachments/<sha256>`, shared by all of the user's backups (a file kept by ten
 * backups is stored once); a restore brings back each file its ledger names, checking each one's
 * hash, before the ledger is swapped in.
 */
export class AttachmentBackups {
  private readonly files: AttachmentFiles;

  constructor(files: AttachmentFiles) {
    this.files = files;
  }

  /** Copies the files the live ledger names now into the backups' folder (before its snapshot is taken). */
  copyKnown(db: LedgerDb, userId: string, backupDir: string): void {
    this.copy(
      userId,
      allFiles(db).map((f) => f.sha256),
      backupDir,
    );
  }

  /** Copies the files a backup names into the backups' folder (those already there are kept). */
  copyNamedBy(userId: string, backupFile: string, backupDir: string): void {
    this.copy(userId, filesNamedBy(backupFile), backupDir);
  }

  private copy(userId: string, hashes: readonly string[], backupDir: string): void {
    const into = path.join(backupDir, BACKUP_FILES_FOLDER);
    for (const sha256 of hashes) if (this.files.has(userId, sha256)) this.files.copyOut(userId, sha256, into);
  }

  /**
   * The files a staged ledger names that the live folder lacks (or holds damaged), each checked
   * whole in the backups' folder; a file found nowhere whole is INVALID_BACKUP. Changes nothing.
   */
  missingFiles(userId: string, stagedLedger: string, backupDir: string): string[] {
    const from = path.join(backupDir, BACKUP_FILES_FOLDER);
    const wanted = filesNamedBy(stagedLedger).filter(
      (sha256) => !AttachmentFiles.holds(this.files.fileOf(userId, sha256), sha256),
    );
    const bad = wanted.filter((sha256) => !AttachmentFiles.holds(path.join(from, sha256), sha256));
    if (bad.length > 0)
      throw new DomainError(
        'INVALID_BACKUP',
        `The backup cannot be restored: ${bad.length} of its attached files are missing or damaged; the ledger is unchanged`,
      );
    return wanted;
  }

  /**
   * Copies the files `missingFiles` found into the live folder. Synchronous, so that it, the swap
   * of the ledger and `collect` run with nothing of this process between them (a sweep meanwhile
   * would take files the live ledger does not name yet).
   */
  bringBack(userId: string, wanted: readonly string[], backupDir: string): void {
    const from = path.join(backupDir, BACKUP_FILES_FOLDER);
    for (const sha256 of wanted) this.files.adopt(userId, sha256, path.join(from, sha256));
  }

  /** After a restore: the live files the restored ledger does not name go. */
  collect(db: LedgerDb, userId: string): number {
    return this.files.sweep(userId, (sha256) => fileIsKnown(db, sha256));
  }

  /** Removes the backups' files that none of `backupFiles` names any more (after old backups are pruned). */
  prune(backupFiles: readonly string[], backupDir: string): void {
    const into = path.join(backupDir, BACKUP_FILES_FOLDER);
    if (!fs.existsSync(into)) return;
    const named = new Set(backupFiles.flatMap((file) => filesNamedBy(file)));
    for (const name of fs.readdirSync(into)) if (!named.has(name)) fs.rmSync(path.join(into, name), { force: true });
  }
}
