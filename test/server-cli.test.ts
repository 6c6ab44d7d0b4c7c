import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import jwt from 'jsonwebtoken';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, serveArguments } from '../main/app-build.mjs';
import { databaseDigest } from './support/server.ts';

const READY = /^Ledger API listening on http:\/\/127\.0\.0\.1:(\d+)$/;
const PASSWORD = 'correct horse battery';

interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The first stdout line; rejects if the process exits before printing one. */
  ready: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: ChildProcess[] = [];
const tempDirs: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-cli-'));
  tempDirs.push(dir);
  return dir;
}

/** `npm run serve`'s node command with only the environment given (nothing inherited but PATH). */
function runCli(env: Record<string, string>): Run {
  const child = spawn(process.execPath, serveArguments(), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => (err += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: string) => {
      out += c;
      const end = out.indexOf('\n');
      if (end >= 0) resolve(out.slice(0, end));
    });
    void exited.then(({ code }) => reject(new Error(`exited with ${code} before the ready line; stderr: ${err}`)));
  });
  ready.catch(() => {});
  return { child, stdout: () => out, stderr: () => err, ready, exited };
}

async function stop(run: Run, signal: NodeJS.Signals = 'SIGTERM') {
  run.child.kill(signal);
  return run.exited;
}

function mode(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

function expectOneLineMessage(text: string, mentions: RegExp): void {
  const lines = text.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(mentions);
  expect(text).not.toMatch(/\n\s+at |node:internal|\.ts:\d+/);
}

afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run serve (server/cli.ts)', () => {
  it('when started with PORT=0, then it prints one ready line, writes server.json, keeps its files owner-only, and exits 0 on SIGTERM', async () => {
    const dataDir = path.join(tempDir(), 'not', 'yet', 'there');
    const run = runCli({ PORT: '0', LEDGER_DATA_DIR: dataDir });
    const line = await run.ready;
    const port = Number(READY.exec(line)?.[1]);
    expect(line).toMatch(READY);
    expect(port).toBeGreaterThan(0);
    const url = `http://127.0.0.1:${port}`;

    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'server.json'), 'utf8'))).toEqual({ url, pid: run.child.pid });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, 'secret.key'))).toBe(0o600);
    expect(fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8').trim().length).toBeGreaterThanOrEqual(32);

    const reg = await fetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cli@example.com', name: 'Cli', password: PASSWORD }),
    });
    expect(reg.status).toBe(201);
    const { id } = (await reg.json()) as { id: string };
    const files = [path.join(dataDir, 'identity.sqlite'), path.join(dataDir, 'ledgers', `${id}.sqlite`)];
    for (const base of files) {
      for (const file of [base, `${base}-wal`, `${base}-shm`].filter((f) => fs.existsSync(f)))
        expect([file, mode(file)]).toEqual([file, 0o600]);
    }
    expect(mode(path.join(dataDir, 'ledgers'))).toBe(0o700);

    expect(await stop(run)).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    expect(run.stdout()).toBe(`${line}\n`);
    expect(run.stderr()).toBe('');
  });

  it('when restarted on the same data folder, then secret.key is reused and a token from the first run still works', async () => {
    const dataDir = tempDir();
    const first = runCli({ PORT: '0', LEDGER_DATA_DIR: dataDir });
    const url1 = READY.exec(await first.ready)![0].replace('Ledger API listening on ', '');
    const reg = await fetch(`${url1}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'restart@example.com', name: 'Restart', password: PASSWORD }),
    });
    const { access_token: token, id } = (await reg.json()) as { access_token: string; id: string };
    const secret = fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8');
    expect(await stop(first)).toEqual({ code: 0, signal: null });

    const second = runCli({ PORT: '0', LEDGER_DATA_DIR: dataDir });
    const url2 = (await second.ready).replace('Ledger API listening on ', '');
    expect(fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8')).toBe(secret);
    expect(mode(path.join(dataDir, 'secret.key'))).toBe(0o600);
    const me = await fetch(`${url2}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: string }).id).toBe(id);
    expect(await stop(second, 'SIGINT')).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
  });

  it('when SECRET_KEY is given with 32 bytes or more, then tokens are signed with it and no secret.key is written', async () => {
    const dataDir = tempDir();
    const secretKey = 'k'.repeat(32);
    const run = runCli({ PORT: '0', LEDGER_DATA_DIR: dataDir, SECRET_KEY: secretKey });
    const url = (await run.ready).replace('Ledger API listening on ', '');
    const reg = await fetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'keyed@example.com', name: 'Keyed', password: PASSWORD }),
    });
    const { access_token: token } = (await reg.json()) as { access_token: string };
    expect(jwt.verify(token, secretKey, { algorithms: ['HS256'] })).toMatchObject({ sub: expect.any(String) });
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    expect(await stop(run)).toEqual({ code: 0, signal: null });
  });

  it('when SECRET_KEY is shorter than 32 bytes, then it exits 1 with one line naming SECRET_KEY and no stack trace', async () => {
    const dataDir = tempDir();
    const run = runCli({ PORT: '0', LEDGER_DATA_DIR: dataDir, SECRET_KEY: 'k'.repeat(31) });
    expect(await run.exited).toEqual({ code: 1, signal: null });
    expectOneLineMessage(run.stderr(), /SECRET_KEY.*32 bytes/);
    expect(run.stdout()).toBe('');
    expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
  });

  it.each(['abc', '70000', '-1', '80.5'])(
    'when PORT is %j, then it exits 1 with one line naming PORT',
    async (value) => {
      const dataDir = tempDir();
      const run = runCli({ PORT: value, LEDGER_DATA_DIR: dataDir });
      expect(await run.exited).toEqual({ code: 1, signal: null });
      expectOneLineMessage(run.stderr(), new RegExp(`PORT.*${value.replace('.', '\\.')}`));
      expect(run.stdout()).toBe('');
    },
  );

  it('when the port is already in use, then it exits 1 with one line saying so', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    try {
      const port = (blocker.address() as AddressInfo).port;
      const dataDir = tempDir();
      const run = runCli({ PORT: String(port), LEDGER_DATA_DIR: dataDir });
      expect(await run.exited).toEqual({ code: 1, signal: null });
      expectOneLineMessage(run.stderr(), /port is already in use/);
      expect(run.stdout()).toBe('');
      expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('when the identity database was written by a newer version, then it exits 1 naming "newer version" and leaves the file as it was', async () => {
    const dataDir = tempDir();
    const first = runCli({ PORT: '0', LEDGER_DATA_DIR: dataDir });
    await first.ready;
    expect(await stop(first)).toEqual({ code: 0, signal: null });
    const identity = path.join(dataDir, 'identity.sqlite');
    const db = new Database(identity);
    db.prepare(
      "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (99, 'from_the_future', 'x', '2030-01-01T00:00:00Z')",
    ).run();
    db.close();
    const digest = databaseDigest(identity);
    const bytes = fs.readFileSync(identity);

    const run = runCli({ PORT: '0', LEDGER_DATA_DIR: dataDir });
    expect(await run.exited).toEqual({ code: 1, signal: null });
    expectOneLineMessage(run.stderr(), /newer version/);
    expect(databaseDigest(identity)).toBe(digest);
    expect(fs.readFileSync(identity).equals(bytes)).toBe(true);
  });
});
