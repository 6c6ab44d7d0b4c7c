import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildsDir, pruneBuilds, serveArguments } from '../main/app-build.mjs';
import { Api, registerUser, startTestServer, TEST_SECRET } from './support/server.ts';

/**
 * `npm run serve` as a user runs it, on a checkout of its own (a copy of the sources, with this
 * repository's node_modules and migrations): the server bundled into dist/builds/<id>/ (what only
 * exists in that form, such as the job worker's file, is checked here), built once and atomically,
 * and two servers from one checkout that never break each other, even while the sources change.
 */
const root = path.resolve(import.meta.dirname, '..');
const READY = /^Ledger API listening on (http:\/\/127\.0\.0\.1:\d+)\n$/;
let checkout: string;
const running: ChildProcess[] = [];

interface Served {
  child: ChildProcess;
  api: Api;
  stdout: () => string;
  stderr: () => string;
}

/** `npm run serve`'s command in the copy, on a free port over a data folder of its own. */
function serve(name: string): Promise<Served> {
  const child = spawn(process.execPath, serveArguments(checkout), {
    cwd: checkout,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: checkout,
      PORT: '0',
      LEDGER_DATA_DIR: path.join(checkout, `data-${name}`),
      SECRET_KEY: TEST_SECRET,
      OLLAMA_HOST: 'http://127.0.0.1:9',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('\n'))
        resolve({ child, api: new Api(READY.exec(stdout)?.[1] ?? ''), stdout: () => stdout, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`serve ${name} exited with ${code}: ${stderr}`)));
  });
}

async function stop(served: Served): Promise<void> {
  if (served.child.exitCode !== null) return;
  const exited = new Promise((resolve) => served.child.once('exit', resolve));
  served.child.kill('SIGTERM');
  await exited;
}

function builds(): string[] {
  return fs.readdirSync(buildsDir(checkout)).sort();
}

/** A statement over the size a job runs inline (64 KiB): the job worker imports it. */
function bigStatement(accountId: string, name: string) {
  const transactions = Array.from({ length: 2000 }, (_, i) => ({
    date: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    description: `${name}: card purchase number ${i} at a shop with a long name`,
    amount: `${(i % 500) + 1}.25`,
    type: i % 3 === 0 ? 'credit' : 'debit',
  }));
  const body = { account_id: accountId, name, transactions };
  expect(JSON.stringify(body).length).toBeGreaterThan(64 * 1024);
  return body;
}

/** Import, reconciliation run and export: each one a job on the worker thread. */
async function jobRound(api: Api, token: string, accountId: string, name: string): Promise<number[]> {
  const imported = await api.post('/api/statements', bigStatement(accountId, name), token);
  expect(imported.status, imported.text).toBe(201);
  expect(imported.body.imported_count).toBe(2000);
  const run = await api.post('/api/reconciliation/run', { statement_id: imported.body.id }, token);
  expect(run.status, run.text).toBe(200);
  expect(run.body.summary.unmatched).toBe(2000);
  const exported = await api.get('/api/export?format=ledger', token);
  expect(exported.status, exported.text.slice(0, 200)).toBe(200);
  return [imported.status, run.status, exported.status];
}

beforeAll(() => {
  checkout = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-serve-'));
  for (const name of ['server', 'main', 'scripts'])
    fs.cpSync(path.join(root, name), path.join(checkout, name), {
      recursive: true,
      filter: (source) => !source.endsWith('.test.ts'),
    });
  for (const name of ['package.json', 'package-lock.json', 'tsconfig.json'])
    fs.copyFileSync(path.join(root, name), path.join(checkout, name));
  for (const name of ['node_modules', 'migrations']) fs.symlinkSync(path.join(root, name), path.join(checkout, name));
});

afterAll(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(checkout, { recursive: true, force: true });
});

describe('npm run serve from one checkout', () => {
  let first: Served;
  let second: Served;

  it('when two servers start at once on a checkout not built yet, then both come up on one complete build, and stdout holds only the ready line', async () => {
    [first, second] = await Promise.all([serve('first'), serve('second')]);
    for (const served of [first, second]) {
      expect(served.stdout()).toMatch(READY);
      expect(served.stderr()).toMatch(/^build: bundling the server into dist\/builds\/[0-9a-f]{16} /);
    }
    expect(first.api.baseUrl).not.toBe(second.api.baseUrl);
    const [only, ...others] = builds();
    expect(others, 'one build, no half-made folder left').toEqual([]);
    expect(fs.readdirSync(path.join(buildsDir(checkout), only!, '.users')).sort()).toEqual(
      [String(first.child.pid), String(second.child.pid)].sort(),
    );
  });

  it('when the bundled server is given statements too big to import on its own thread, then its job worker imports, reconciles and exports them, on both servers', async () => {
    for (const served of [first, second]) {
      const { token } = await registerUser(served.api);
      const bank = (await served.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, token)).body.id;
      expect(await jobRound(served.api, token, bank, 'Big statement')).toEqual([201, 200, 200]);
    }
  });

  it('when every real bank file is uploaded to the bundled server, then each is answered as the sources answer it (its parsers and encodings came along), and every export format answers', async () => {
    const fixtures = path.join(root, 'test', 'fixtures', 'statements');
    const names = fs.readdirSync(fixtures).filter((name) => name !== 'README.md');
    const uploadAll = async (api: Api) => {
      const { token } = await registerUser(api);
      const bank = (await api.post('/api/accounts', { name: 'Bank', type: 'ASSET', currency: 'EUR' }, token)).body.id;
      const answers: Record<string, string> = {};
      for (const name of names) {
        const res = await api.request('POST', `/api/statements/import?account_id=${bank}`, {
          rawBody: fs.readFileSync(path.join(fixtures, name)),
          token,
          headers: { 'content-type': 'application/octet-stream' },
        });
        answers[name] = `${res.status} ${res.body?.code ?? ''}`;
      }
      for (const format of ['ledger', 'hledger', 'beancount']) {
        const exported = await api.get(`/api/export?format=${format}`, token);
        answers[format] = `${exported.status}`;
      }
      return answers;
    };
    const fromSources = await startTestServer();
    try {
      const expected = await uploadAll(fromSources.api);
      expect(Object.values(expected).filter((answer) => answer.startsWith('201')).length).toBeGreaterThan(10);
      expect(await uploadAll(first.api)).toEqual(expected);
    } finally {
      await fromSources.stop();
    }
  });

  it('when the sources change and a third server starts while the first serves jobs, then the third builds beside it and every job of the first still answers', async () => {
    const { token } = await registerUser(first.api);
    const bank = (await first.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, token)).body.id;
    const before = builds();
    fs.appendFileSync(path.join(checkout, 'server', 'cli.ts'), '\n// changed after the first build\n');

    let starting = true;
    const third = serve('third').finally(() => (starting = false));
    const rounds: number[][] = [];
    do rounds.push(await jobRound(first.api, token, bank, `Statement ${rounds.length}`));
    while (starting && rounds.length < 100);
    const started = await third;

    expect(rounds.flat().every((status) => status < 300)).toBe(true);
    expect(started.stderr()).toMatch(/^build: bundling the server/);
    const after = builds();
    expect(after).toHaveLength(2);
    expect(after).toEqual(expect.arrayContaining(before));
    // the new server runs its own build, and the second server, on the old one, still runs jobs too
    const { token: thirdToken } = await registerUser(started.api);
    const thirdBank = (await started.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, thirdToken)).body.id;
    expect(await jobRound(started.api, thirdToken, thirdBank, 'On the new build')).toEqual([201, 200, 200]);
    const { token: secondToken } = await registerUser(second.api);
    const secondBank = (await second.api.post('/api/accounts', { name: 'Bank', type: 'ASSET' }, secondToken)).body.id;
    expect(await jobRound(second.api, secondToken, secondBank, 'On the old build')).toEqual([201, 200, 200]);
    await stop(started);
  });

  it('when the checkout is built, then a server starts without building and prints nothing on stderr', async () => {
    const again = await serve('again');
    expect(again.stdout()).toMatch(READY);
    await stop(again);
    expect(again.stderr()).toBe('');
  });

  it('when old builds are no longer run by any live process, then pruning removes them and keeps those still running', async () => {
    const [oldBuild] = builds().filter((name) =>
      fs.readdirSync(path.join(buildsDir(checkout), name, '.users')).includes(String(first.child.pid)),
    );
    const newBuild = builds().find((name) => name !== oldBuild)!;
    const anHourOn = Date.now() + 2 * 60 * 60 * 1000;
    pruneBuilds(checkout, newBuild, anHourOn);
    expect(builds(), 'the first and second servers still run on the old build').toEqual([oldBuild, newBuild].sort());
    await stop(first);
    await stop(second);
    expect(fs.readdirSync(path.join(buildsDir(checkout), oldBuild!, '.users'))).toEqual([]);
    pruneBuilds(checkout, newBuild, anHourOn);
    expect(builds()).toEqual([newBuild]);
  });
});
