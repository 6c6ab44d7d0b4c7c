import { expect, type Page } from '@playwright/test';
import { Words } from './words.ts';

export interface ShownRow {
  label: string;
  /** How far the row is indented: 0 for a top-level account. */
  depth: number;
  kind: 'account' | 'total' | 'derived';
  cells: string[];
}

export interface ShownTable {
  name: string;
  sections: { heading: string | null; rows: ShownRow[] }[];
}

/** The Reports screen, read as the person sees it: each table's sections, rows and printed figures. */
export class ReportsPage {
  readonly page: Page;
  private readonly words: Words;
  constructor(page: Page, words = new Words()) {
    this.page = page;
    this.words = words;
  }

  async show(kind: 'balance-sheet'): Promise<ShownTable[]> {
    await this.page.getByRole('tab', { name: this.words.t(`reports.kind.${kind}`) }).click();
    await expect(this.page.locator('table.report-table').first()).toBeVisible();
    return this.tables();
  }

  /** Every report table on the screen as text: sections, rows with their level and kind, figures. */
  tables(): Promise<ShownTable[]> {
    return this.page.locator('table.report-table').evaluateAll((tables) =>
      tables.map((table) => ({
        name: table.getAttribute('aria-label') ?? '',
        sections: [...table.querySelectorAll('tbody')].map((body) => ({
          heading: body.querySelector('tr.section-row th')?.textContent ?? null,
          rows: [...body.querySelectorAll('tr:not(.section-row)')].map((tr) => {
            const span = tr.querySelector('th span') as HTMLElement | null;
            return {
              label: span?.textContent ?? '',
              depth: Math.round(Number((span?.style.paddingInlineStart || '0rem').replace('rem', '')) / 1.25),
              kind: tr.classList.contains('total-row')
                ? 'total'
                : tr.classList.contains('derived-row')
                  ? 'derived'
                  : 'account',
              cells: [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
            } as const;
          }),
        })),
      })),
    );
  }
}
