import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const USER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;
const TEMP_PREFIX = '.upload-';

/** A file written to a temporary name and synced, not yet under its hash. */
export interface StagedFile {
  userId: string;
  temp: string;
  sha256: string;
}

/**
 * The attachments' bytes, content-addressed: `<data>/attachments/<user id>/<sha256>` (folders 0700,
 * files 0600). Only a UUID and a hex hash ever become a path; a file's own name never does.
 * Writing is staged: the bytes go to a temporary name in the same folder and are synced, then
 * renamed to their hash, and only then does the ledger row commit; a crash in between leaves a
 * file no row names, which `sweep` removes, never a row without its file.
 */
export class AttachmentFiles {
  private readonly root: string;
  /** Temporary files of uploads in flight in this process: a sweep leaves them alone. */
  private readonly inFlight = new Set<string>();

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'attachments');
  }

  dirOf(userId: string): string {
    if (!USER_ID_PATTERN.test(userId)) throw new Error('invalid user id');
    return path.join(this.root, userId);
  }

  fileOf(userId: string, sha256: string): string {
    if (!SHA256_PATTERN.test(sha256)) throw new Error('invalid hash');
    return path.join(this.dirOf(userId), sha256);
  }

  has(userId: string, sha256: string): boolean {
    return fs.existsSync(this.fileOf(userId, sha256));
  }

  /** Writes `bytes` to a temporary name in the user's folder and syncs them to disk. */
  async stage(userId: string, bytes: Uint8Array): Promise<StagedFile> {
    const dir = this.dirOf(userId);
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    const temp = path.join(dir, `${TEMP_PREFIX}${crypto.randomUUID()}`);
    this.inFlight.add(temp);
    try {
      const handle = await fs.promises.open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      this.discard({ userId, temp, sha256 });
      throw error;
    }
    return { userId, temp, sha256 };
  }

  /**
   * Puts a staged file under its hash (synchronously, so that nothing of this process runs between
   * this and the row's commit). A file already there holds the same bytes: the copy is dropped.
   */
  place(staged: StagedFile): void {
    const target = this.fileOf(staged.userId, staged.sha256);
    if (fs.existsSync(target)) this.discard(staged);
    else {
      fs.renameSync(staged.temp, target);
      this.inFlight.delete(staged.temp);
      syncFolder(path.dirname(target));
    }
  }

  discard(staged: StagedFile): void {
    fs.rmSync(staged.temp, { force: true });
    this.inFlight.delete(staged.temp);
  }

  remove(userId: string, sha256: string): void {
    fs.rmSync(this.fileOf(userId, sha256), { force: true });
  }

  /**
   * Removes what no row names: files whose hash `isReferenced` denies, and temporary files left by
   * an upload that never finished (a crash). Answers how many it removed.
   */
  sweep(userId: string, isReferenced: (sha256: string) => boolean): number {
    const dir = this.dirOf(userId);
    if (!fs.existsSync(dir)) return 0;
    let removed = 0;
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      const orphan = SHA256_PATTERN.test(name)
        ? !isReferenced(name)
        : name.startsWith(TEMP_PREFIX) && !this.inFlight.has(file);
      if (orphan) {
        fs.rmSync(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  /** Copies one stored file to `to` (a backup's folder), unless a file of that name is there. */
  copyOut(userId: string, sha256: string, toDir: string): void {
    const to = path.join(toDir, sha256);
    if (!SHA256_PATTERN.test(sha256) || fs.existsSync(to)) return;
    fs.mkdirSync(toDir, { recursive: true, mode: 0o700 });
    const temp = `${to}.partial`;
    fs.copyFileSync(this.fileOf(userId, sha256), temp);
    fs.chmodSync(temp, 0o600);
    fs.renameSync(temp, to);
  }

  /** Puts a copy of `from` (whose hash is checked by the caller) under its hash, staged as an upload is. */
  adopt(userId: string, sha256: string, from: string): void {
    const dir = this.dirOf(userId);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = path.join(dir, `${TEMP_PREFIX}${crypto.randomUUID()}`);
    fs.copyFileSync(from, temp);
    fs.chmodSync(temp, 0o600);
    fs.renameSync(temp, this.fileOf(userId, sha256));
  }

  /** Whether the file at `file` holds bytes whose SHA-256 is `sha256`. */
  static holds(file: string, sha256: string): boolean {
    if (!fs.existsSync(file)) return false;
    return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex') === sha256;
  }
}

/** Makes a rename in `dir` durable (a no-op where folders cannot be opened, as on Windows). */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Windows cannot open a folder; its renames are durable once NTFS logs them.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
