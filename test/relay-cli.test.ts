import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, scriptArguments } from '../main/app-build.mjs';
import { spawnRelay, type ChildRelay } from './support/relay.ts';

const running: ChildRelay[] = [];
const folders: string[] = [];
afterEach(() => {
  for (const relay of running.splice(0)) relay.child.kill('SIGKILL');
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-relay-cli-'));
  folders.push(dir);
  return dir;
}

describe('npm run relay', () => {
  it('when started, then it prints its ready line, keeps its file owner-only and stops cleanly on SIGTERM', async () => {
    const dataDir = path.join(folder(), 'relay');
    const relay = await spawnRelay(dataDir);
    running.push(relay);
    expect(relay.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${relay.url}/relay/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, 'relay.sqlite')).mode & 0o777).toBe(0o600);
    relay.child.kill('SIGTERM');
    expect(await relay.exited).toEqual({ code: 0, signal: null });
  });

  it('when --host names another address, then it listens there', async () => {
    const relay = await spawnRelay(folder(), ['--host', '127.0.0.2', '--port', '0']);
    running.push(relay);
    expect(relay.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
  });

  it('when an argument is malformed, then it says so in one line and exits 1', () => {
    for (const args of [['--port', 'x'], ['--port', '70000'], ['--nothing'], ['--host', 'a b']]) {
      const run = spawnSync(process.execPath, [...scriptArguments('relay'), ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), RELAY_DATA_DIR: folder() },
        encoding: 'utf8',
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^Cannot start: /);
    }
  });
});
