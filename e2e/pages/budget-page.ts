import { expect, type Locator, type Page } from '@playwright/test';
import { Words } from './words.ts';

/** The Budget screen: a month chosen by its name and year, amounts added from the keyboard. */
export class BudgetPage {
  readonly page: Page;
  private readonly words: Words;
  constructor(page: Page, words = new Words()) {
    this.page = page;
    this.words = words;
  }

  /** Chooses a month (YYYY-MM): the year typed, the month's name picked. */
  async chooseMonth(month: string): Promise<void> {
    const [year, m] = month.split('-') as [string, string];
    await this.page.getByRole('spinbutton', { name: this.words.t('budget.year') }).fill(year);
    await this.page.getByRole('combobox', { name: this.words.t('budget.month'), exact: true }).selectOption(m);
  }

  /** Adds an account to the month's budget: its name typed, Enter, the amount, Enter. */
  async add(account: string, amount: string): Promise<void> {
    const box = this.page.getByRole('combobox', { name: this.words.t('budget.addAccount') });
    await box.fill(account);
    await box.press('Enter');
    const field = this.page.getByLabel(this.words.t('budget.addAmount'));
    await expect(field).toBeFocused();
    await field.fill(amount);
    await field.press('Enter');
    await expect(this.page.getByLabel(this.words.t('budget.amountLabel', { name: account }))).toBeVisible();
  }

  /** How much of an account's budget is left, as its meter tells a screen reader. */
  meter(account: string): Locator {
    return this.page
      .getByRole('table', { name: this.words.t('budget.title') })
      .getByRole('row', { name: new RegExp(account) })
      .getByRole('meter');
  }

  leftOf(left: string, budgeted: string): string {
    return this.words.t('budget.leftOf', { left, budgeted });
  }
}
