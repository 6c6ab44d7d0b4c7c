import { expect, type Locator, type Page } from '@playwright/test';
import { Words } from './words.ts';

/** A line of an entry as a person types it: the account's name and a debit or a credit. */
export type TypedLine = { account: string } & ({ debit: string } | { credit: string });

export class JournalPage {
  readonly page: Page;
  private readonly words: Words;
  constructor(page: Page, words = new Words()) {
    this.page = page;
    this.words = words;
  }

  get editor(): Locator {
    return this.page.getByRole('form', { name: /New entry|Edit draft|新建分录|编辑草稿/ });
  }

  get balanceHint(): Locator {
    return this.editor.getByRole('status').filter({ hasText: /balanced|needs at least two lines/i });
  }

  get postButton(): Locator {
    return this.editor.getByRole('button', { name: this.words.t('editor.post'), exact: true });
  }

  get register(): Locator {
    return this.page.getByRole('table', { name: this.words.t('journal.register') });
  }

  get details(): Locator {
    return this.page.locator('article.entry-details');
  }

  async newEntry(): Promise<void> {
    await this.page.getByRole('button', { name: this.words.t('journal.new') }).click();
    await expect(this.editor).toBeVisible();
  }

  /** The amount range of the filters: each bound typed, then Enter (an empty bound clears it). */
  async filterByAmount(from: string, to: string): Promise<void> {
    for (const [key, value] of [
      ['filter.amountMin', from],
      ['filter.amountMax', to],
    ] as const) {
      const field = this.page.getByRole('textbox', { name: this.words.t(key), exact: true });
      await field.fill(value);
      await field.press('Enter');
    }
  }

  /** The journal's search box (its accessible description is the hint of what it looks in). */
  get searchBox(): Locator {
    return this.page.getByRole('searchbox', { name: this.words.t('journal.search'), exact: true });
  }

  /** Types a search and waits for nothing: the list follows once typing pauses. */
  async search(text: string): Promise<void> {
    await this.searchBox.fill(text);
  }

  registerRow(memo: string): Locator {
    return this.register.getByRole('row').filter({ hasText: memo });
  }

  async open(memo: string): Promise<void> {
    await this.registerRow(memo).first().getByRole('button').click();
    await expect(this.details.getByRole('heading', { name: memo })).toBeVisible();
  }

  /**
   * Types a new entry from the keyboard as the editor invites: the date, Tab to the memo and the
   * first account, Enter from an account to its amount and from an amount to the next line; the
   * last line's amount is the balancing one the editor offers. Ctrl+Enter posts it.
   */
  async typeEntry(entry: { date: string; memo: string; lines: TypedLine[] }): Promise<void> {
    await this.newEntry();
    const t = this.words;
    const keys = this.page.keyboard;
    await this.editor.getByRole('textbox', { name: t.t('entry.date') }).fill(entry.date);
    await this.editor.getByLabel(t.t('entry.memo')).focus();
    await keys.type(entry.memo);
    await keys.press('Tab');
    for (const [i, line] of entry.lines.entries()) {
      const n = i + 1;
      await expect(this.editor.getByRole('combobox', { name: t.t('editor.accountOfLine', { n }) })).toBeFocused();
      await keys.type(line.account);
      await keys.press('Enter');
      const side = 'debit' in line ? 'editor.debitOfLine' : 'editor.creditOfLine';
      const amount = this.editor.getByRole('textbox', { name: t.t(side, { n }) });
      await expect(amount).toBeFocused();
      const value = 'debit' in line ? line.debit : line.credit;
      // the last line offers the balancing amount, grouped as figures are shown ("1,659.55")
      if (n === entry.lines.length)
        await expect(amount).toHaveValue(
          new RegExp(`^${value.replace(/\B(?=(\d{3})+\.)/g, ',?').replace('.', '\\.')}$`),
        );
      else {
        await keys.type(value);
        await keys.press('Enter');
      }
    }
    await keys.press('Control+Enter');
    await expect(this.details.getByTestId('entry-status')).toHaveText(t.t('status.posted'));
  }

  /** Edit on a posted entry, one line's amount changed (both sides of a two-line entry), saved as a correction. */
  async correctAmount(memo: string, amount: string): Promise<void> {
    const t = this.words;
    await this.open(memo);
    await this.details.getByRole('button', { name: t.t('journal.edit'), exact: true }).click();
    const editor = this.page.getByRole('form', { name: t.t('editor.correct') });
    await editor.getByRole('textbox', { name: t.t('editor.debitOfLine', { n: 1 }) }).fill(amount);
    await editor.getByRole('textbox', { name: t.t('editor.creditOfLine', { n: 2 }) }).fill(amount);
    await editor.getByRole('button', { name: t.t('editor.saveCorrection') }).click();
    await expect(this.details.getByTestId('entry-status')).toHaveText(t.t('status.posted'));
    await expect(this.details).toContainText(t.t('entry.corrects'));
  }
}
