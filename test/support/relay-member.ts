/** The relay the sync property tests share (a vitest helper, apart from relay.ts, which e2e imports too). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { RelayClient } from '../../server/sync/relay-client.ts';
import { relayAccount, startTestRelay, type TestRelay } from './relay.ts';

/**
 * For a describe block of property tests: a relay on loopback that takes as many groups as runs
 * (one a run), one member account of it, and a scratch folder for the devices' ledgers; all
 * started before its tests and stopped and removed after them.
 */
export function useRelayMember(folderPrefix: string): { dir: string; relay(): TestRelay; member(): RelayClient } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), folderPrefix));
  let relay: TestRelay | undefined;
  let member: RelayClient | undefined;
  beforeAll(async () => {
    relay = await startTestRelay({ limits: { groupsPerUser: 1000 } });
    member = await relayAccount(relay.url);
  });
  afterAll(async () => {
    await relay?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, relay: () => relay!, member: () => member! };
}
