import { ensureBuild } from '../main/app-build.mjs';

/**
 * Builds the server from the current sources once before the run, when no build of them exists yet
 * (a clean clone builds at `npm ci`; an edit since then builds here): the tests that need a real
 * process start it as `npm run serve` does, from that build (test/hardening/support.ts).
 */
export default function globalSetup(): void {
  ensureBuild();
}
