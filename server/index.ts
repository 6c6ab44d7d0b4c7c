import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { appRoot } from './app-root.ts';
import { checkGivenSecretKey, resolveSecretKey, secureDataDir, settingsFromEnv, type Settings } from './config.ts';
import { Stores, DEFAULT_MIGRATIONS_DIR, type LedgerDb } from './db/stores.ts';
import { fileInSyncGroup } from './db/change-log.ts';
import { accountRoutes } from './features/accounts/accounts.router.ts';
import { AuthService } from './features/auth/auth.service.ts';
import { authRoutes } from './features/auth/auth.router.ts';
import { journalRoutes } from './features/journal/journal.router.ts';
import type { VoidGuard } from './features/journal/journal.service.ts';
import { reportRoutes } from './features/reports/reports.router.ts';
import { priceRoutes } from './features/prices/prices.router.ts';
import { settingsRoutes } from './features/settings/settings.router.ts';
import { statementRoutes } from './features/statements/statements.router.ts';
import { statementsKeepTheirAccount } from './features/statements/statements.service.ts';
import { ruleRoutes } from './features/rules/rules.router.ts';
import { reconciliationRoutes } from './features/reconciliation/reconciliation.router.ts';
import { clearedRoutes } from './features/reconciliation/reconciliation.cleared.router.ts';
import { matchedEntryVoidGuard } from './features/reconciliation/reconciliation.review.service.ts';
import { chatRoutes } from './features/chat/chat.router.ts';
import { exportRoutes } from './features/export/export.router.ts';
import { journalImportRoutes } from './features/journal-import/journal-import.router.ts';
import { attachmentRoutes } from './features/attachments/attachments.router.ts';
import { AttachmentBackups } from './features/attachments/attachments.backup.ts';
import { AttachmentFiles } from './features/attachments/attachments.files.ts';
import { AttachmentService } from './features/attachments/attachments.service.ts';
import { backupRoutes } from './features/backup/backup.router.ts';
import { BackupService, DailyBackups } from './features/backup/backup.service.ts';
import { budgetRoutes } from './features/budgets/budgets.router.ts';
import { scheduleRoutes } from './features/schedules/schedules.router.ts';
import { schedulesKeepTheirAccounts } from './features/schedules/schedules.service.ts';
import { SyncService } from './features/sync/sync.service.ts';
import { syncRoutes } from './features/sync/sync.router.ts';
import { historyRoutes } from './features/sync/history.router.ts';
import { registerRoutes } from './features/register/register.router.ts';
import { investmentRoutes } from './features/investments/investments.router.ts';
import { tradeEntryVoidGuard } from './features/investments/investments.service.ts';
import { dailyBooking, ScheduleBooking, type BookingTrigger } from './features/schedules/schedules.runner.ts';
import { OllamaModel, type ChatModel } from './llm/model.ts';
import { createApp } from './http/app.ts';
import { answerClientError } from './http/client-error.ts';
import { JobRunner, type JobBudget } from './jobs/job-runner.ts';
import { JOB_TABLE, JOB_TABLE_MODULE } from './job-table.ts';
import { heapForJobs, heapForServing } from './heap.ts';
import { openApiRoute } from './http/openapi.ts';
import { AttemptLimiter, LOGIN_LIMITS, LoginLimiter, type LoginLimits } from './http/rate-limit.ts';
import type { RouteDef } from './features/define-route.ts';

/** The data folder owner's way back into an account (npm run reset-password; the desktop app's --reset-password). */
export { runResetPassword } from './reset-password.ts';

export interface StartServerOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  secretKey?: string;
  /** The rest of the settings (token lifetime, TRUST_PROXY, thresholds, Ollama); defaults as CONTRACT §1. */
  env?: NodeJS.ProcessEnv;
  /** bcrypt cost; 12 unless a test needs speed. */
  bcryptCost?: number;
  migrationsDir?: string;
  rendererDir?: string | null;
  log?: (line: string) => void;
  /** Clock of the rate limits. */
  now?: () => number;
  /** The rate limits of CONTRACT §8 unless given (tests that register many users raise `registerPerHour`). */
  limits?: { registerPerHour?: number; login?: Partial<LoginLimits> };
  /** The advisor's model; the Ollama adapter on OLLAMA_HOST/OLLAMA_MODEL unless given. */
  model?: ChatModel;
  /** How often the daily backup looks for ledgers whose newest backup is a day old (ms; 0: never). Default an hour; clock `now`. */
  backupIntervalMs?: number;
  /** How often books in a sync group sync in the background (ms; default 5 s, 0: only when asked). */
  syncIntervalMs?: number;
  /** Each job's time and memory budget on the worker (default DEFAULT_JOB_BUDGET). */
  jobBudget?: Partial<JobBudget>;
  /** How many ledgers not in use stay open, and for how long (ms) at most (defaults: Stores). */
  ledgers?: { maxOpen?: number; idleMs?: number; groupCommit?: boolean };
  /** When scheduled entries are booked; by default at start and whenever the machine's calendar day changes. */
  scheduleTrigger?: BookingTrigger;
  /** How long (ms) requests in flight get to finish once closing begins; then the rest are cut. Default 5 s. */
  shutdownGraceMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  settings: Settings;
  /** Stops accepting, finishes requests in flight, closes the databases. */
  close(): Promise<void>;
}

/** How often ledgers idle past their time are looked for (Stores.closeIdle). */
const LEDGER_SWEEP_MS = 60_000;
/** How often books in a sync group sync while the relay answers (docs/sync.md). */
const SYNC_INTERVAL_MS = 5_000;

export const DEFAULT_RENDERER_DIR = path.join(appRoot(), 'renderer', 'dist');

/** How long an idle kept-alive connection stays open. */
const KEEP_ALIVE_MS = 65_000;

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  heapForServing();
  const settings = {
    ...settingsFromEnv(options.env ?? {}),
    dataDir: path.resolve(options.dataDir),
    port: options.port,
  };
  const log = options.log ?? ((line: string) => console.error(line));
  checkGivenSecretKey(options.secretKey);
  // Owner-only on every start, not only when created: a folder left loose is tightened, another user's refused.
  for (const loose of secureDataDir(settings.dataDir)) log(`data folder: tightened ${loose}`);
  const now = options.now ?? Date.now;
  const stores = new Stores(settings.dataDir, {
    migrationsDir: options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR,
    maxOpenLedgers: options.ledgers?.maxOpen,
    idleMs: options.ledgers?.idleMs,
    groupCommit: options.ledgers?.groupCommit,
    now,
  });
  let secret: string;
  try {
    secret = resolveSecretKey(options.secretKey, settings.dataDir);
  } catch (error) {
    stores.close();
    throw error;
  }
  const token = { secret, expireMinutes: settings.tokenExpireMinutes };
  const auth = new AuthService({ stores, token, bcryptCost: options.bcryptCost ?? 12 });
  const limits = {
    register: new AttemptLimiter(options.limits?.registerPerHour ?? 3, 60 * 60 * 1000, now),
    login: new LoginLimiter({ ...LOGIN_LIMITS, ...options.limits?.login }, now),
  };

  const jobs = new JobRunner({
    table: JOB_TABLE,
    tableModule: JOB_TABLE_MODULE,
    fileOf: (userId) => stores.ledgerFile(userId),
    leaseOf: (userId) => stores.lease(userId),
    budget: options.jobBudget,
    onBusyChange: (busy) => (busy ? heapForJobs() : heapForServing()),
  });
  const migrateOnWorker = (userId: string) =>
    jobs.run(userId, 'migrateLedger', { migrations: stores.ledgerMigrations });

  const attachmentFiles = new AttachmentFiles(settings.dataDir);
  const attachments = new AttachmentService(attachmentFiles);
  const backups = new BackupService(stores, jobs, settings.dataDir, now, new AttachmentBackups(attachmentFiles));
  const dailyBackups = new DailyBackups(backups, { now, intervalMs: options.backupIntervalMs, log });

  const sync = new SyncService({
    lease: async (userId) => stores.leaseOf(userId, await stores.ledgerWhenReady(userId, migrateOnWorker)),
    members: () => backups.usersWithLedgers().filter((userId) => fileInSyncGroup(stores.ledgerFile(userId))),
    intervalMs: options.syncIntervalMs ?? SYNC_INTERVAL_MS,
    log,
    attachmentsDir: (userId) => attachmentFiles.dirOf(userId),
  });

  // what voiding an entry asks of the features that hold entries (a reconciled line, a trade)
  const voidGuard: VoidGuard = {
    beforeVoid: (...a) => {
      matchedEntryVoidGuard.beforeVoid(...a);
      tradeEntryVoidGuard.beforeVoid(...a);
    },
  };

  let port = 0;
  const routes: RouteDef[] = [
    ...authRoutes(auth, limits),
    ...accountRoutes([statementsKeepTheirAccount, schedulesKeepTheirAccounts]),
    ...registerRoutes(),
    ...journalRoutes(voidGuard),
    ...reportRoutes(),
    ...priceRoutes(jobs),
    ...settingsRoutes(),
    ...statementRoutes(jobs),
    ...ruleRoutes(),
    ...reconciliationRoutes({ autoAccept: settings.autoAcceptThreshold, review: settings.reviewThreshold }, jobs),
    ...clearedRoutes(),
    ...chatRoutes(options.model ?? new OllamaModel(settings.ollamaHost, settings.ollamaModel)),
    ...exportRoutes(jobs, attachmentFiles),
    ...journalImportRoutes(jobs),
    ...backupRoutes(backups),
    ...attachmentRoutes(attachments),
    ...budgetRoutes(),
    ...investmentRoutes(),
    ...scheduleRoutes(),
    ...syncRoutes(sync),
    ...historyRoutes(voidGuard),
  ];
  routes.push(openApiRoute(routes));
  const app = createApp({
    routes,
    token,
    openSession: ({ userId, sessionId }) => {
      if (!auth.sessionIsLive(userId, sessionId)) return undefined;
      // The request keeps its ledger open until its answer is done (Stores closes ledgers not in use).
      const leased = (db: LedgerDb) => ({ userId, sessionId, ledger: db, release: stores.leaseOf(userId, db).release });
      const ledger = stores.ledgerWhenReady(userId, migrateOnWorker);
      return ledger instanceof Promise ? ledger.then(leased) : leased(ledger);
    },
    trustProxy: settings.trustProxy,
    port: () => port,
    rendererDir: options.rendererDir === undefined ? DEFAULT_RENDERER_DIR : options.rendererDir,
    log,
    jobs,
  });

  const server = http.createServer(app);
  // An idle kept-alive connection stays open well past a client's own idle limit (fetch keeps one
  // for the server's stated timeout less a second): with Node's 5 s, a client stalled for a moment
  // sends on a socket the server is closing and its request is reset.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.on('clientError', answerClientError);
  let shuttingDown = false;
  // A keep-alive connection whose request finishes during shutdown is closed right after its
  // response, instead of holding the shutdown until the client drops it.
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.once('finish', () => {
      if (shuttingDown) setImmediate(() => server.closeIdleConnections());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      stores.close();
      reject(error);
    });
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const serverFile = path.join(settings.dataDir, 'server.json');
  fs.writeFileSync(serverFile, JSON.stringify({ url, pid: process.pid }) + '\n', { mode: 0o600 });
  dailyBackups.start();
  sync.start();
  // Ledgers nobody has used for a while are closed (their file descriptors given back).
  const idleLedgers = setInterval(() => stores.closeIdle(), LEDGER_SWEEP_MS);
  idleLedgers.unref();
  const booking = new ScheduleBooking({
    users: () => backups.usersWithLedgers(),
    ledger: async (userId) => stores.leaseOf(userId, await stores.ledgerWhenReady(userId, migrateOnWorker)),
    idle: (userId) => jobs.idle(userId),
    now: Date.now,
    log,
  });
  // the machine's clock, not `now` (the rate limits' clock, which tests use to see a request arrive)
  const stopBooking = (options.scheduleTrigger ?? dailyBooking({ now: Date.now }))(() => booking.bookAll());

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      shuttingDown = true;
      clearInterval(idleLedgers);
      server.close(() => {
        clearTimeout(cutOff);
        void Promise.all([dailyBackups.stop(), stopBooking(), sync.stop(), jobs.close()]).finally(() => {
          stores.close();
          fs.rmSync(serverFile, { force: true });
          resolve();
        });
      });
      server.closeIdleConnections();
      // Requests in flight get a few seconds to finish; then the rest are cut.
      const cutOff = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 5000).unref();
    }));

  return { url, port, dataDir: settings.dataDir, settings: { ...settings, port }, close };
}
