import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild, serveArguments } from '../../main/app-build.mjs';
import { since } from './stats.ts';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** A fixed secret, so that a token issued before a restart still works after it. */
export const BENCH_SECRET = 'bench-secret-key-long-enough-for-hs256-0123456789';

export interface Child {
  url: string;
  pid: number;
  /** ms from spawn to the ready line */
  readyMs: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `node <script>` and waits for the line matching `ready` on its stdout; its first group
 * is the URL. stderr is kept for the error message when the child dies early. With `stdin: 'pipe'`
 * the child's stdin is open for the caller (closing it is how bench/probe.ts is told to stop).
 */
export function startChild(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  timeoutMs = 120_000,
  nodeFlags: string[] = [],
  stdin: 'ignore' | 'pipe' = 'ignore',
): Promise<Child> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [...nodeFlags, script, ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready: ${stderr}`));
    };
    child.once('exit', onExit);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = ready.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      const readyMs = since(start);
      resolve({
        url: m[1]!,
        pid: child.pid!,
        readyMs,
        process: child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/**
 * The server as `npm run serve` runs it: its compiled build (made now if the sources changed, so that
 * no start below pays for it), started with that script's command. Returns the Node flags and the
 * entry point of that command.
 */
export function buildServer(): { entry: string; nodeFlags: string[] } {
  ensureBuild({ root: REPO, log: (line) => console.log(`  ${line}`) });
  const args = serveArguments(REPO);
  return { entry: path.join(REPO, args.at(-1)!), nodeFlags: args.slice(0, -1) };
}

/** The real server (`node [nodeFlags] <entry>`, see buildServer) on a free port over `dataDir`. */
export function startLedgerServer(
  server: { entry: string; nodeFlags: string[] },
  dataDir: string,
  extraFlags: string[] = [],
): Promise<Child> {
  return startChild(
    server.entry,
    [],
    { PORT: '0', LEDGER_DATA_DIR: dataDir, SECRET_KEY: BENCH_SECRET, OLLAMA_HOST: 'http://127.0.0.1:9' },
    /Ledger API listening on (http:\/\/127\.0\.0\.1:\d+)/,
    120_000,
    [...server.nodeFlags, ...extraFlags],
  );
}

/**
 * CPU time (user + system, ms) a process's main thread has used: the thread that runs its
 * JavaScript, without the thread pool's (Linux /proc; its clock ticks are 10 ms).
 */
export function mainThreadCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time (ms) the whole machine has spent busy, all cores, all processes (the server's threads,
 * the load generator, the kernel): /proc/stat without idle, I/O wait and steal (time the host gave
 * other machines).
 */
export function machineBusyMs(): number {
  const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq] = ticks.map(Number) as number[];
  return (user! + nice! + system! + irq! + softirq!) * 10;
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Samples a process's resident memory every `everyMs` and keeps the peak of each named phase. */
export class MemorySampler {
  private readonly pid: number;
  private timer: NodeJS.Timeout | undefined;
  private current = 'start';
  readonly peaks = new Map<string, number>();

  constructor(pid: number, everyMs = 50) {
    this.pid = pid;
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  private sample(): void {
    const m = memoryOf(this.pid);
    if (m) this.peaks.set(this.current, Math.max(this.peaks.get(this.current) ?? 0, m.rssMb));
  }

  phase(label: string): void {
    this.sample();
    this.current = label;
  }

  stop(): Record<string, number> {
    this.sample();
    clearInterval(this.timer);
    return Object.fromEntries([...this.peaks].map(([k, v]) => [k, Math.round(v)]));
  }
}

/**
 * ms from spawning `command args` (in its own process group, from the repository) to the first line
 * on its stdout; then the whole group is stopped with SIGTERM and waited for.
 */
export async function msToFirstLine(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn(command, args, {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ms = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(since(start));
    });
    void exited.then(() => reject(new Error(`${command} ${args.join(' ')} exited before a line: ${stderr}`)));
  });
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  return ms;
}

/** What bench/probe.ts saw: its requests, the slowest answer, and how many took over 50 ms. */
export interface ProbeStall {
  n: number;
  maxMs: number;
  over50: number;
}

/**
 * Requests to one path every 20 ms from another process (bench/probe.ts) while something long
 * runs: the longest answer is the longest the server stopped answering.
 */
export class Probe {
  private child: Child | undefined;
  private stopped: Promise<ProbeStall> | undefined;
  private readonly args: string[];

  constructor(url: string, token: string, probePath: string) {
    this.args = [url, token, probePath];
  }

  async start(): Promise<void> {
    this.child = await startChild(path.join(REPO, 'bench/probe.ts'), this.args, {}, /(probing)/, 30_000, [], 'pipe');
  }

  stop(): Promise<ProbeStall> {
    this.stopped ??= (async () => {
      const child = this.child!;
      let out = '';
      child.process.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise((resolve) => child.process.once('exit', resolve));
      child.process.stdin!.end();
      await exited;
      return JSON.parse(out.trim().split('\n').at(-1)!) as ProbeStall;
    })();
    return this.stopped;
  }
}
