import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { assertNoCircle } from '../eslint/features.ts';

/**
 * The house's dependency rules (CONTRIBUTING.md) live in eslint/ (eslint.config.ts joins them), and
 * `npm run lint` holds the whole tree to them. This test holds the rules themselves: for each arrow, an import the wrong
 * way is refused and the right way is let through, so that no rule can quietly stop applying.
 */

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

/** The rules that refuse `code` at `file` (a path in the repository; the file need not exist). */
async function refusedBy(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.ruleId ?? `parse error: ${m.message}`);
}

const BOUNDARY = 'boundaries/dependencies';
const RESTRICTED = 'no-restricted-imports';

/** [file, import, the rule that refuses it or null when allowed] */
type Case = [string, string, string | null];

async function expectCases(cases: Case[]): Promise<void> {
  const outcomes = await Promise.all(cases.map(async ([file, code]) => (await refusedBy(file, code))[0] ?? null));
  expect(cases.map(([file, code], i) => [file, code, outcomes[i]])).toEqual(cases);
}

describe('architecture', () => {
  it('when domain code imports, then it is never I/O, a database, HTTP or another layer', async () => {
    await expectCases([
      ['server/domain/money.ts', "import { x } from './currencies.ts';", null],
      ['server/domain/statements/csv.ts', "import { x } from '../money.ts';", null],
      ['server/domain/statements/csv.ts', "import { x } from '../reconciliation/index.ts';", BOUNDARY],
      ['server/domain/money.ts', "import type { LedgerDb } from '../db/stores.ts';", BOUNDARY],
      ['server/domain/money.ts', "import { x } from '../http/route.ts';", BOUNDARY],
      ['server/domain/money.ts', "import { x } from '../contract/common.ts';", BOUNDARY],
      ['server/domain/money.ts', "import { x } from '../features/journal/journal.service.ts';", BOUNDARY],
      ['server/domain/money.ts', "import { x } from '../llm/model.ts';", BOUNDARY],
      ['server/domain/plaintext/names.ts', "import fs from 'node:fs';", RESTRICTED],
      ['server/domain/dates.ts', "import { Worker } from 'node:worker_threads';", RESTRICTED],
      ['server/domain/dates.ts', "import express from 'express';", RESTRICTED],
      ['server/domain/dates.ts', "import { Kysely } from 'kysely';", RESTRICTED],
      ['server/domain/dates.ts', "import Database from 'better-sqlite3';", RESTRICTED],
    ]);
  });

  it('when the contract imports, then only zod, the domain and itself', async () => {
    await expectCases([
      ['server/contract/money.ts', "export { x } from '../domain/money.ts';", null],
      ['server/contract/common.ts', "import { z } from 'zod';", null],
      ['server/contract/common.ts', "import { x } from '../http/route.ts';", BOUNDARY],
      ['server/contract/common.ts', "import { x } from '../db/stores.ts';", BOUNDARY],
      ['server/contract/common.ts', "import { Decimal } from 'decimal.js';", RESTRICTED],
    ]);
  });

  it('when the lower server layers import, then never a layer above them: http sees no db, jobs no feature or http', async () => {
    await expectCases([
      ['server/http/app.ts', "import { validate } from '../contract/validation.ts';", null],
      ['server/http/route.ts', "import type { LedgerDb } from '../db/stores.ts';", BOUNDARY],
      ['server/http/app.ts', "import { x } from '../features/journal/journal.router.ts';", BOUNDARY],
      ['server/http/app.ts', "import { x } from '../jobs/job-runner.ts';", BOUNDARY],
      ['server/http/app.ts', "import Database from 'better-sqlite3';", RESTRICTED],
      ['server/db/stores.ts', "import { x } from '../http/route.ts';", BOUNDARY],
      ['server/db/stores.ts', "import { appRoot } from '../app-root.ts';", null],
      ['server/db/stores.ts', "import { startServer } from '../index.ts';", BOUNDARY],
      ['server/jobs/job-runner.ts', "import { x } from '../contract/validation.ts';", null],
      ['server/jobs/job-runner.ts', "import { x } from '../http/route.ts';", BOUNDARY],
      ['server/jobs/job-runner.ts', "import { x } from '../features/journal/journal.service.ts';", BOUNDARY],
      ['server/llm/model.ts', "import { x } from '../db/stores.ts';", BOUNDARY],
    ]);
  });

  it('when the sync protocol and the relay import, then no feature, the relay no app entry, and sync no storage', async () => {
    await expectCases([
      ['server/sync/messages.ts', "import { DomainError } from '../domain/errors.ts';", null],
      ['server/sync/relay-contract.ts', "import { isoDateTime } from '../contract/common.ts';", null],
      ['server/sync/sync-client.ts', "import { x } from '../features/journal/journal.service.ts';", BOUNDARY],
      ['server/sync/sync-client.ts', "import { x } from '../relay/relay.service.ts';", BOUNDARY],
      ['server/sync/sync-client.ts', "import { x } from '../db/stores.ts';", BOUNDARY],
      ['server/sync/sync-client.ts', "import { x } from '../http/route.ts';", BOUNDARY],
      ['server/sync/sync-client.ts', "import { Kysely } from 'kysely';", RESTRICTED],
      ['server/sync/sync-client.ts', "import express from 'express';", RESTRICTED],
      ['server/relay/relay.service.ts', "import { x } from '../sync/clock.ts';", null],
      ['server/relay/relay-app.ts', "import { x } from '../http/errors.ts';", null],
      ['server/relay/relay-db.ts', "import { migrate } from '../db/migrate.ts';", null],
      ['server/relay/relay.service.ts', "import { x } from '../features/auth/auth.service.ts';", BOUNDARY],
      ['server/relay/index.ts', "import { startServer } from '../index.ts';", BOUNDARY],
      ['server/relay/index.ts', "import { x } from '../jobs/job-runner.ts';", BOUNDARY],
      ['server/features/journal/journal.service.ts', "import { x } from '../../sync/clock.ts';", null],
      ['server/features/journal/journal.service.ts', "import { x } from '../../relay/index.ts';", BOUNDARY],
      ['server/cli.ts', "import { runRelay } from './relay/relay-cli.ts';", null],
    ]);
  });

  it('when a feature imports, then the layers below it and only the features it uses, never in a circle', async () => {
    await expectCases([
      ['server/features/journal/journal.router.ts', "import { defineRoute } from '../define-route.ts';", null],
      ['server/features/journal/journal.service.ts', "import { x } from '../../db/stores.ts';", null],
      ['server/features/backup/backup.service.ts', "import type { JobRunner } from '../../jobs/job-runner.ts';", null],
      [
        'server/features/reconciliation/reconciliation.booking.service.ts',
        "import { x } from '../journal/journal.service.ts';",
        null,
      ],
      ['server/features/accounts/accounts.service.ts', "import { x } from '../journal/journal.service.ts';", BOUNDARY],
      [
        'server/features/journal/journal.service.ts',
        "import { x } from '../reconciliation/reconciliation.review.service.ts';",
        BOUNDARY,
      ],
      [
        'server/features/totals/totals.repository.ts',
        "import { x } from '../accounts/accounts.repository.ts';",
        BOUNDARY,
      ],
      ['server/features/accounts/accounts.service.ts', "import { x } from '../../index.ts';", BOUNDARY],
      ['server/features/define-route.ts', "import { x } from './journal/journal.service.ts';", BOUNDARY],
    ]);
    expect(() => assertNoCircle({ journal: ['accounts'], accounts: [] })).not.toThrow();
    expect(() =>
      assertNoCircle({ journal: ['reconciliation'], reconciliation: ['statements'], statements: ['journal'] }),
    ).toThrow('journal -> reconciliation -> statements -> journal');
  });

  it('when a feature uses another, then through its service, queries or model, never its repository', async () => {
    await expectCases([
      ['server/features/journal/journal.service.ts', "import { x } from '../accounts/accounts.queries.ts';", null],
      ['server/features/journal/journal.service.ts', "import type { x } from '../accounts/accounts.model.ts';", null],
      ['server/features/journal/journal.service.ts', "import { x } from '../totals/totals.service.ts';", null],
      ['server/features/journal/journal.service.ts', "import { x } from './journal.repository.ts';", null],
      [
        'server/features/journal/journal.service.ts',
        "import { x } from '../accounts/accounts.repository.ts';",
        BOUNDARY,
      ],
      [
        'server/features/reconciliation/reconciliation.run.repository.ts',
        "import { x } from '../statements/statements.repository.ts';",
        BOUNDARY,
      ],
      [
        'server/features/journal/journal.property.test.ts',
        "import { x } from '../totals/totals.repository.ts';",
        BOUNDARY,
      ],
    ]);
  });

  it('when a repository row type could leak, then no router imports a repository, and nothing imports a test', async () => {
    await expectCases([
      ['server/features/journal/journal.router.ts', "import { x } from './journal.service.ts';", null],
      ['server/features/journal/journal.router.ts', "import { x } from './journal.repository.ts';", BOUNDARY],
      [
        'server/features/journal/journal.router.ts',
        "import { x } from '../accounts/accounts.repository.ts';",
        BOUNDARY,
      ],
      ['server/features/journal/journal.service.ts', "import { x } from './journal.create.http.test.ts';", BOUNDARY],
    ]);
  });

  it('when server code imports, then it never imports Electron, main or the renderer, tests included', async () => {
    await expectCases([
      ['server/index.ts', "import { x } from './features/journal/journal.router.ts';", null],
      ['server/index.ts', "import { app } from 'electron';", RESTRICTED],
      ['server/features/chat/chat.http.test.ts', "import { app } from 'electron';", RESTRICTED],
      ['server/index.ts', "import { x } from '../main/settings.ts';", BOUNDARY],
      ['server/features/chat/chat.http.test.ts', "import { x } from '../../../main/settings.ts';", BOUNDARY],
      ['server/features/chat/chat.http.test.ts', "import { x } from '../../../test/support/server.ts';", null],
      ['server/contract/common.ts', "import { x } from '../../renderer/src/money.ts';", BOUNDARY],
    ]);
  });

  it('when main imports, then it reaches the server only through main/server.ts, and holds no SQL', async () => {
    await expectCases([
      ['main/server.ts', "export { startServer } from '../server/index.ts';", null],
      ['main/server.ts', "export { defaultDataDir } from '../server/config.ts';", null],
      ['main/server.ts', "export { Stores } from '../server/db/stores.ts';", BOUNDARY],
      ['main/launcher.ts', "import { defaultDataDir } from './server.ts';", null],
      ['main/launcher.ts', "import { defaultDataDir } from '../server/config.ts';", BOUNDARY],
      ['main/index.ts', "const server = await import('../server/index.ts');", BOUNDARY],
      ['main/settings.ts', "import Database from 'better-sqlite3';", RESTRICTED],
    ]);
  });

  it('when the renderer imports, then of the server only its contract, and screens sit above components', async () => {
    await expectCases([
      ['renderer/src/api.ts', "import type { UserDto } from '../../server/contract/auth.ts';", null],
      ['renderer/src/money.ts', "import { parseAmount } from '../../server/contract/money.ts';", null],
      ['renderer/src/money.ts', "import { parseAmount } from '../../server/domain/money.ts';", BOUNDARY],
      ['renderer/src/api.ts', "import { x } from '../../server/http/route.ts';", BOUNDARY],
      [
        'renderer/src/screens/journal/entry-summary.ts',
        "import { x } from '../../../../server/contract/money.ts';",
        null,
      ],
      ['renderer/src/screens/journal/journal-screen.tsx', "import { Pager } from '../../components/pager.tsx';", null],
      ['renderer/src/components/pager.tsx', "import { x } from '../screens/journal/entry-summary.ts';", BOUNDARY],
      [
        'renderer/src/screens/journal/journal-screen.tsx',
        "import { x } from '../accounts/accounts-screen.tsx';",
        BOUNDARY,
      ],
      ['renderer/src/app-shell.tsx', "import { x } from './screens/journal/journal-screen.tsx';", null],
      ['renderer/src/api.ts', "import { x } from './screens/journal/journal-screen.tsx';", BOUNDARY],
      ['renderer/src/api.ts', "import fs from 'node:fs';", RESTRICTED],
    ]);
  });

  it('when the renderer reaches the API, then only through its one client, typed by the generated paths', async () => {
    await expectCases([
      ['renderer/src/api/client.ts', "import type { paths } from '../../../client/generated/openapi.ts';", null],
      ['renderer/src/api/journal.ts', "import type { paths } from '../../../client/generated/openapi.ts';", BOUNDARY],
      ['renderer/src/screens/journal/journal-screen.tsx', "import { x } from '../../../../client/index.ts';", BOUNDARY],
      ['renderer/src/api/client.ts', 'const answer = await fetch(request);', null],
      ['renderer/src/api/journal.ts', "const answer = await fetch('/api/journal-entries');", 'no-restricted-globals'],
      ['renderer/src/screens/chat/chat-panel.tsx', "await window.fetch('/x');", 'no-restricted-syntax'],
      ['renderer/src/api/journal.ts', "api.GET('/api/journal-entries/{id}', { params: { path: { id } } });", null],
      ['renderer/src/api/journal.ts', "type Page = Answer<'/api/journal-entries', 'get'>;", null],
      ['renderer/src/api/journal.ts', "const base = '/api/journal-entries';", 'no-restricted-syntax'],
      ['renderer/src/api/journal.ts', 'const one = `/api/journal-entries/${id}`;', 'no-restricted-syntax'],
      [
        'renderer/src/screens/settings/settings-screen.tsx',
        "link.href = '/api/export?format=csv';",
        'no-restricted-syntax',
      ],
      ['renderer/src/money.test.ts', "it.only('runs alone', () => {});", 'no-restricted-syntax'],
    ]);
  });

  it('when the end-to-end tests import, then the support makes the page objects and the page objects import none of it', async () => {
    await expectCases([
      ['e2e/support/fixtures.ts', "import { LedgerApp } from '../pages/ledger-app.ts';", null],
      ['e2e/pages/sign-in-page.ts', "import { PASSWORD } from '../support/fixtures.ts';", BOUNDARY],
      ['e2e/journal-register.spec.ts', "import { test } from './support/fixtures.ts';", null],
    ]);
  });

  it('when a test is focused or skipped for good, then the lint refuses it; a skip on a condition of the machine passes', async () => {
    await expectCases([
      ['test/x.test.ts', "it.only('runs alone', () => {});", 'no-restricted-syntax'],
      ['test/x.test.ts', "describe.skip('never runs', () => {});", 'no-restricted-syntax'],
      ['test/x.test.ts', "it.skipIf(!mounted)('needs a small disk', () => {});", null],
    ]);
  });

  it('when server/jobs names a feature, in a name, a string or a template, then the lint refuses it; its own words and its tests pass', async () => {
    const SYNTAX = 'no-restricted-syntax';
    await expectCases([
      ['server/jobs/job-runner.ts', "const words = { what: 'This statement import' };", SYNTAX],
      ['server/jobs/job-runner.ts', 'export function runReconciliation() {}', SYNTAX],
      ['server/jobs/job-worker.ts', 'const what = `This ${kind} Journal import`;', SYNTAX],
      ['server/jobs/job-budget.ts', "const words = { what: 'This job', advice: 'Try again with less.' };", null],
      [
        'server/jobs/job-budget.ts',
        'const budget: JobBudget = { ms: 1, heapMb: 1 }; const total = heap.total_heap_size;',
        null,
      ],
      ['server/jobs/jobs.http.test.ts', "const name = 'importJournal';", null],
      ['server/features/journal-import/journal-import.jobs.ts', "const words = { what: 'This journal import' };", null],
    ]);
  });
});
