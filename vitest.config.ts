import { defineConfig } from 'vitest/config';

/**
 * Two projects that run side by side: `slow` (the hardening suite, the property tests and the
 * start-up test, each file tens of seconds of servers, files and processes) and `unit` (the rest).
 * Vitest starts `slow`'s files first (projects in name order), so the longest files do not end the
 * run alone. Its default on a two-core machine is one worker; most of these tests wait on child
 * processes, sockets and fsync rather than compute, so three share the two cores.
 *
 * Every file shares its worker process with the files run before it (`isolate: false`): a fresh
 * process per file spent a third of the unit suite's CPU loading the server's modules again. No file
 * leaves state behind (fake timers and spies are restored; each file starts its own servers over its
 * own folders; the hardening results are written under a lock).
 */
const SLOW = ['test/hardening/**/*.test.ts', '**/*.property.test.ts', 'test/serve.test.ts'];

export default defineConfig({
  test: {
    // A hang guard, not a speed bound: no test comes near it, however busy the machine. Time is
    // measured in `npm run bench`; the tests bound work (counts, sizes, steps).
    testTimeout: 10 * 60_000,
    hookTimeout: 10 * 60_000,
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 3,
    // A test that fails once is a failure.
    retry: 0,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['server/**/*.test.ts', 'main/**/*.test.ts', 'test/**/*.test.ts', 'renderer/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...SLOW],
        },
      },
      { extends: true, test: { name: 'slow', include: SLOW, exclude: ['**/node_modules/**'] } },
    ],
    // CI asks for a JSON report beside the console one, to count passed and failed tests.
    reporters: process.env.VITEST_JSON_REPORT ? ['default', 'json'] : ['default'],
    outputFile: process.env.VITEST_JSON_REPORT ? { json: process.env.VITEST_JSON_REPORT } : undefined,
  },
});
