import type { Translate } from '../../i18n/index.ts';
import { isZero } from '../../money.ts';
import type { ReportBlock, ReportRow } from './report-model.ts';

// What the screen does with a report's blocks once built: hides the rows of zeros, downloads them as CSV.

/**
 * The block without the rows whose every figure is zero: an account's, a month's, a date's.
 * Totals and derived rows (retained earnings) stay, and so does a zero account whose sub-accounts
 * are shown, so that they keep their place in the tree.
 */
export function withoutZeroRows(block: ReportBlock): ReportBlock {
  const allZero = (row: ReportRow) => row.cells.every((cell) => cell === null || isZero(cell.value));
  return {
    ...block,
    sections: block.sections.map((section) => {
      const rows = section.rows;
      const kept = new Array<boolean>(rows.length).fill(true);
      for (let i = rows.length - 1; i >= 0; i--) {
        const row = rows[i]!;
        if (row.kind !== 'account' || !allZero(row)) continue;
        // the rows right below it that are deeper are its sub-accounts
        let childShown = false;
        for (let j = i + 1; j < rows.length && rows[j]!.kind === 'account' && rows[j]!.depth > row.depth; j++)
          if (kept[j]) {
            childShown = true;
            break;
          }
        kept[i] = childShown;
      }
      return { ...section, rows: rows.filter((_, i) => kept[i]) };
    }),
  };
}

/** A spreadsheet cell: figures as they are; text quoted, and never read as a formula (= + - @). */
function csvCell(text: string): string {
  if (/^-?\d+(\.\d+)?$/.test(text)) return text;
  const safe = /^\s*[=+\-@]/.test(text) || /^[\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The blocks as CSV: a header row per currency block, then its rows; figures exact, ungrouped. */
export function reportCsv(title: string, blocks: readonly ReportBlock[], t: Translate): string {
  const lines: string[][] = [[title]];
  for (const block of blocks) {
    lines.push(
      [],
      [t('reports.currency'), t('reports.section'), block.labelHeading ?? t('accounts.name'), ...block.columns],
    );
    for (const section of block.sections)
      for (const row of section.rows)
        lines.push([
          block.currency,
          section.heading ?? '',
          `${'  '.repeat(row.depth)}${row.label}`,
          ...row.cells.map((c) => c?.value ?? ''),
        ]);
  }
  return `${lines.map((l) => l.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
