import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Api, registerUser, TEST_SECRET } from './support/server.ts';

/**
 * The desktop app and `npm run serve` run the server compiled to JavaScript in dist/
 * (main/tsconfig.build.json), not the TypeScript sources the other tests run: what only exists in
 * that form (the job worker's file, the folders found from dist/) is checked here, on a compiled copy
 * laid out as the app is (package.json, migrations/ and node_modules/ beside dist/).
 */
const root = path.resolve(import.meta.dirname, '..');
let app: string;
let child: ChildProcess | undefined;
let api: Api;

beforeAll(async () => {
  app = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-compiled-'));
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const compiled = spawnSync(
    process.execPath,
    [tsc, '-p', path.join(root, 'main/tsconfig.build.json'), '--outDir', path.join(app, 'dist')],
    { cwd: root, encoding: 'utf8' },
  );
  expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);
  for (const name of ['node_modules', 'migrations', 'package.json'])
    fs.symlinkSync(path.join(root, name), path.join(app, name));
  const dataDir = path.join(app, 'data');
  child = spawn(process.execPath, [path.join(app, 'dist/server/cli.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: app,
      PORT: '0',
      LEDGER_DATA_DIR: dataDir,
      SECRET_KEY: TEST_SECRET,
      OLLAMA_HOST: 'http://127.0.0.1:9',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child!.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      const m = /listening on (http:\S+)/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    child!.once('exit', (code) => reject(new Error(`the compiled server exited with ${code}: ${stderr}`)));
  });
  api = new Api(url);
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(app, { recursive: true, force: true });
});

it('when the compiled server is given a statement too big to import on its own thread, then its job worker imports it and reconciles it', async () => {
  const { token } = await registerUser(api);
  const bank = (await api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, token)).body.id;
  const transactions = Array.from({ length: 2000 }, (_, i) => ({
    date: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    description: `Card purchase number ${i} at a shop with a long name`,
    amount: `${(i % 500) + 1}.25`,
    type: i % 3 === 0 ? 'credit' : 'debit',
  }));
  const body = { account_id: bank, name: 'Big statement', transactions };
  // over the size a job runs inline (INLINE_BYTES, 64 KiB): this one goes to the worker
  expect(JSON.stringify(body).length).toBeGreaterThan(64 * 1024);
  const imported = await api.post('/api/statements', body, token);
  expect(imported.status, imported.text).toBe(201);
  expect(imported.body.imported_count).toBe(2000);
  const run = await api.post('/api/reconciliation/run', { statement_id: imported.body.id }, token);
  expect(run.status, run.text).toBe(200);
  expect(run.body.summary.unmatched).toBe(2000);
}, 60_000);
