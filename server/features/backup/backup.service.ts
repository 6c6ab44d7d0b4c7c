import fs from 'node:fs';
import path from 'node:path';
import { removeStaged, type Stores } from '../../db/stores.ts';
import { BACKUP_NAME_PATTERN, type BackupDto } from '../../contract/export.ts';
import { DomainError } from '../../domain/errors.ts';
import type { JobQueue } from '../../jobs/job.ts';
import type { backupJobs } from './backup.jobs.ts';
import type { AttachmentBackups } from '../attachments/attachments.backup.ts';
import { ledgerSummary } from './backup.repository.ts';

/** How many backups each user keeps; older ones are removed after each new one. */
export const BACKUPS_KEPT = 10;
export const DAY_MS = 24 * 60 * 60 * 1000;

export type BackupReason = BackupDto['reason'];

function stamp(ms: number): string {
  // 2026-01-31T12:34:56.789Z -> 20260131T123456789Z
  return new Date(ms).toISOString().replace(/[-:.]/g, '');
}

function parseStamp(name: string): number {
  const m = /^ledger-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z-/.exec(name)!;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!);
}

/**
 * Backups of each user's own ledger file, in `<data>/backups/<user id>/` (0700, files 0600), made
 * with SQLite's online backup API so they are consistent while the app runs, on the job worker (a
 * GB-sized copy and its sync would stop the server for a while). Names are generated
 * here (`ledger-<UTC time>-<reason>.sqlite`) and every name from outside must match that pattern
 * and be a file in the user's own folder, else it is NOT_FOUND: no path ever comes from a client.
 */
export class BackupService {
  private readonly stores: Stores;
  private readonly jobs: JobQueue<typeof backupJobs>;
  private readonly root: string;
  private readonly ledgersDir: string;
  private readonly now: () => number;
  /** One backup or restore at a time per user (a restore closes the connection a backup reads). */
  private readonly busy = new Map<string, Promise<unknown>>();
  /** The attached files: each backup keeps those its ledger names, a restore brings them back. */
  private readonly attachments: AttachmentBackups | undefined;

  constructor(
    stores: Stores,
    jobs: JobQueue<typeof backupJobs>,
    dataDir: string,
    now: () => number = Date.now,
    attachments?: AttachmentBackups,
  ) {
    this.stores = stores;
    this.attachments = attachments;
    this.jobs = jobs;
    this.root = path.join(dataDir, 'backups');
    this.ledgersDir = path.join(dataDir, 'ledgers');
    this.now = now;
  }

  /** The user's backup folder; created (0700) only when a backup is written. */
  private dirOf(userId: string, create = false): string {
    // ledgerFile validates the id as a UUID, so it never becomes a path of its own.
    this.stores.ledgerFile(userId);
    const dir = path.join(this.root, userId);
    if (create) {
      fs.mkdirSync(this.root, { recursive: true, mode: 0o700 });
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    }
    return dir;
  }

  private serially<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.busy.get(userId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.busy.set(userId, next);
    const clear = () => {
      if (this.busy.get(userId) === next) this.busy.delete(userId);
    };
    next.then(clear, clear);
    return next;
  }

  private describe(dir: string, name: string): BackupDto {
    const reason = /-(manual|daily|pre-restore)\.sqlite$/.exec(name)![1] as BackupReason;
    return {
      name,
      size_bytes: fs.statSync(path.join(dir, name)).size,
      created_at: new Date(parseStamp(name)).toISOString(),
      reason,
    };
  }

  /** The user's backups, newest first. */
  list(userId: string): BackupDto[] {
    const dir = this.dirOf(userId);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((name) => BACKUP_NAME_PATTERN.test(name))
      .sort()
      .reverse()
      .map((name) => this.describe(dir, name));
  }

  /** Takes a consistent copy of the user's ledger now; then keeps only the newest BACKUPS_KEPT. */
  create(userId: string, reason: BackupReason = 'manual'): Promise<BackupDto> {
    return this.serially(userId, async () => {
      const backup = await this.copy(userId, reason);
      this.prune(userId);
      return backup;
    });
  }

  /**
   * `onThisThread`: the copy a restore takes first is made through the server's own connection, as
   * before: its backup steps take in the writes made through it meanwhile, and the swap follows at
   * once, so no write falls between the copy and the swap (the restore's checks hold this thread
   * for seconds on a big ledger anyway).
   */
  private async copy(userId: string, reason: BackupReason, onThisThread = false): Promise<BackupDto> {
    const dir = this.dirOf(userId, true);
    let ms = this.now();
    let name = `ledger-${stamp(ms)}-${reason}.sqlite`;
    while (fs.existsSync(path.join(dir, name))) name = `ledger-${stamp(++ms)}-${reason}.sqlite`;
    const partial = path.join(dir, `.${name}.partial`);
    // the files known now, before the snapshot: one deleted while the copy is made is kept all the same
    this.attachments?.copyKnown(this.stores.ledger(userId), userId, dir);
    try {
      if (onThisThread) {
        const lease = this.stores.lease(userId);
        try {
          await lease.db.sqlite.backup(partial);
        } finally {
          lease.release();
        }
      } else await this.jobs.run(userId, 'backupLedger', { to: partial });
      fs.chmodSync(partial, 0o600);
      // and those attached while it was made
      this.attachments?.copyNamedBy(userId, partial, dir);
      fs.renameSync(partial, path.join(dir, name));
    } finally {
      fs.rmSync(partial, { force: true });
    }
    return this.describe(dir, name);
  }

  private prune(userId: string): void {
    const dir = this.dirOf(userId);
    const names = fs
      .readdirSync(dir)
      .filter((n) => BACKUP_NAME_PATTERN.test(n))
      .sort();
    const gone = names.slice(0, Math.max(0, names.length - BACKUPS_KEPT));
    for (const name of gone) fs.rmSync(path.join(dir, name), { force: true });
    if (gone.length > 0)
      this.attachments?.prune(
        names.slice(gone.length).map((n) => path.join(dir, n)),
        dir,
      );
  }

  /** When the user's newest backup was taken, or null. */
  latest(userId: string): number | null {
    const newest = this.list(userId)[0];
    return newest ? parseStamp(newest.name) : null;
  }

  /**
   * Restores a backup: first backs up the current ledger (reason pre-restore), then replaces the
   * ledger with the chosen backup once it has passed the integrity check and the migrations.
   */
  restore(
    userId: string,
    name: string,
  ): Promise<{ restored: BackupDto; safety: BackupDto; summary: { accounts: number; entries: number } }> {
    const dir = this.dirOf(userId);
    const file = path.join(dir, name);
    if (!BACKUP_NAME_PATTERN.test(name) || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
      return Promise.reject(new DomainError('NOT_FOUND', 'Backup not found'));
    }
    // The user's queue is held from before the staging until the swap is done (JobRunner.hold): no
    // job of the user has the file open across the swap, and a write or job sent meanwhile waits
    // and goes to the restored ledger, not to the replaced one (nor, half, to the safety copy).
    return this.serially(userId, () =>
      this.jobs.hold(userId, async (own) => {
        const restored = this.describe(dir, name);
        const staged = this.stores.stagedFileFor(userId);
        try {
          try {
            await own.run('stageRestore', { from: file, to: staged, migrations: this.stores.ledgerMigrations });
          } catch (error) {
            if (error instanceof DomainError && ['SERVICE_UNAVAILABLE', 'JOB_BUDGET_EXCEEDED'].includes(error.code))
              throw error;
            throw new DomainError(
              'INVALID_BACKUP',
              `The backup cannot be restored: ${error instanceof Error ? error.message : String(error)}; the ledger is unchanged`,
            );
          }
          const missing = this.attachments?.missingFiles(userId, staged, dir) ?? [];
          const safety = await this.copy(userId, 'pre-restore', true);
          // one synchronous stretch: the files, the swap, and the removal of files no longer named
          this.attachments?.bringBack(userId, missing, dir);
          this.stores.swapInLedger(userId, staged);
          this.attachments?.collect(this.stores.ledger(userId), userId);
          this.prune(userId);
          return { restored, safety, summary: ledgerSummary(this.stores.ledger(userId)) };
        } finally {
          removeStaged(staged);
        }
      }),
    );
  }

  /** Users that have a ledger file. */
  usersWithLedgers(): string[] {
    return fs
      .readdirSync(this.ledgersDir)
      .map((f) => /^([0-9a-f-]{36})\.sqlite$/.exec(f)?.[1])
      .filter((id): id is string => id !== undefined);
  }
}

/**
 * The automatic daily backup while the server runs: a minute after start and then every
 * `intervalMs` (an hour by default), each user whose newest backup is a day old or older (or who has
 * none) gets one. The timer is unref'd,
 * so it never keeps the process alive, and stop() clears it and waits for a backup in progress.
 */
export class DailyBackups {
  private readonly backups: BackupService;
  private readonly now: () => number;
  private readonly intervalMs: number;
  private readonly log: (line: string) => void;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    backups: BackupService,
    options: { now?: () => number; intervalMs?: number; log?: (line: string) => void } = {},
  ) {
    this.backups = backups;
    this.now = options.now ?? Date.now;
    this.intervalMs = options.intervalMs ?? 60 * 60 * 1000;
    this.log = options.log ?? (() => {});
  }

  /** The first round a minute after start (or after one interval, if shorter), then every interval. */
  start(): void {
    if (this.intervalMs <= 0 || this.timer || this.stopped) return;
    const schedule = (delay: number) => {
      this.timer = setTimeout(() => {
        void this.runOnce().finally(() => {
          if (!this.stopped) schedule(this.intervalMs);
        });
      }, delay);
      this.timer.unref();
    };
    schedule(Math.min(this.intervalMs, 60_000));
  }

  /** One round: a daily backup for each user who needs one (failures are logged, never thrown). */
  runOnce(): Promise<void> {
    if (this.running || this.stopped) return this.running ?? Promise.resolve();
    this.running = (async () => {
      for (const userId of this.backups.usersWithLedgers()) {
        if (this.stopped) break;
        try {
          const latest = this.backups.latest(userId);
          if (latest === null || this.now() - latest >= DAY_MS) await this.backups.create(userId, 'daily');
        } catch (error) {
          this.log(`daily backup of ${userId} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
