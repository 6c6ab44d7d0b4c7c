import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { linesOfFolder, measureAccuracy, type Accuracy } from './support/suggestion-accuracy.ts';

/**
 * The suggested accounts' top-1 accuracy on real bank lines with a generated history
 * (test/support/suggestion-accuracy.ts; the figures are in docs/reconciling.md, made by
 * `node test/suggestion-accuracy-report.ts`). Floors a little under the figures measured, so that a
 * change that makes suggestions worse fails here.
 */

const REPO_FIXTURES = fileURLToPath(new URL('./fixtures/statements/', import.meta.url));
const SHARED_CORPUS = fileURLToPath(new URL('../../shared/fixtures/statements/', import.meta.url));

const rate = (figures: Accuracy[], group: string, of: 'before' | 'after' | 'preselectedRight') => {
  const g = figures.find((f) => f.group === group)!;
  return g[of] / (of === 'preselectedRight' ? g.preselected : g.lines);
};

describe('suggested accounts, top-1 accuracy', () => {
  it('when the repository’s statement lines are suggested accounts from their payees’ past bookings, then the first is right at least 97 % of the time, and more often than before', () => {
    const figures = measureAccuracy(linesOfFolder(REPO_FIXTURES));
    expect(figures.find((f) => f.group === 'all')!.lines).toBeGreaterThan(100);
    expect(rate(figures, 'all', 'after')).toBeGreaterThanOrEqual(0.97);
    expect(rate(figures, '1 past bookings', 'after')).toBeGreaterThanOrEqual(0.95);
    expect(rate(figures, '3 past bookings', 'after')).toBeGreaterThanOrEqual(0.97);
    expect(rate(figures, '10 past bookings', 'after')).toBeGreaterThanOrEqual(0.97);
    expect(rate(figures, 'all', 'preselectedRight')).toBeGreaterThanOrEqual(0.97);
    expect(rate(figures, 'all', 'after')).toBeGreaterThan(rate(figures, 'all', 'before') + 0.04);
  });

  it.skipIf(!existsSync(SHARED_CORPUS))(
    'when the shared corpus’s statement lines are suggested accounts, then the first is right at least 95 % of the time, and more often than before',
    () => {
      const figures = measureAccuracy(linesOfFolder(SHARED_CORPUS));
      expect(rate(figures, 'all', 'after')).toBeGreaterThanOrEqual(0.95);
      expect(rate(figures, '1 past bookings', 'after')).toBeGreaterThanOrEqual(0.93);
      expect(rate(figures, 'all', 'preselectedRight')).toBeGreaterThanOrEqual(0.95);
      expect(rate(figures, 'all', 'after')).toBeGreaterThan(rate(figures, 'all', 'before') + 0.08);
    },
  );
});
