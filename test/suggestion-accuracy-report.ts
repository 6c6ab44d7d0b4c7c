/**
 * Prints the regression figures of the suggested accounts (test/support/suggestion-accuracy.ts) on
 * the repository's statement fixtures and, when it is there, the shared corpus beside the
 * repository. Run: node test/suggestion-accuracy-report.ts [corpus-dir]. The published figures are
 * `node bench/suggestions.ts`'s.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { accuracyTable, linesOfFolder, measureAccuracy } from './support/suggestion-accuracy.ts';

const folders: [string, string][] = [
  ['test/fixtures/statements', fileURLToPath(new URL('./fixtures/statements/', import.meta.url))],
  ['shared corpus', process.argv[2] ?? fileURLToPath(new URL('../../shared/fixtures/statements/', import.meta.url))],
];
for (const [label, dir] of folders) {
  if (!existsSync(dir)) {
    console.log(`${label}: not found (${dir})`);
    continue;
  }
  const lines = linesOfFolder(dir);
  console.log(`\n${label}: ${lines.length} bank lines\n`);
  console.log(accuracyTable(measureAccuracy(lines)));
}
