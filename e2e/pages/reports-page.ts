import { expect, type Locator, type Page } from '@playwright/test';
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

  async show(kind: 'balance-sheet' | 'income-statement' | 'income-expenses' | 'net-worth'): Promise<ShownTable[]> {
    const tab = this.page.getByRole('tab', { name: this.words.t(`reports.kind.${kind}`), exact: true });
    await tab.click();
    // the tab is marked chosen in the same render that drops the previous report's tables
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(this.page.locator('table.report-table').first()).toBeVisible();
    return this.tables();
  }

  /** Chooses a period by its button ("This month", "Last 12 months"). */
  async choosePeriod(preset: 'this-month' | 'last-12-months'): Promise<void> {
    const button = this.page.getByRole('button', { name: this.words.t(`reports.preset.${preset}`), exact: true });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
  }

  /** The "Hide zero rows" checkbox. */
  get hideZeroRows(): Locator {
    return this.page.getByRole('checkbox', { name: this.words.t('reports.hideZeroRows'), exact: true });
  }

  /** A chart, found as an image by its accessible name. */
  chart(name: string): Locator {
    return this.page.getByRole('img', { name, exact: true });
  }

  /** The bars a chart draws (one per figure that is not zero). */
  bars(chart: Locator): Locator {
    return chart.locator('.recharts-bar-rectangle path');
  }

  /** A small table of a chart's figures (spending by category) as [label, figure] rows, found by its name. */
  async figures(tableName: string): Promise<string[][]> {
    const table = this.page.getByRole('table', { name: tableName, exact: true });
    await expect(table).toBeVisible();
    return table
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? '']),
      );
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
