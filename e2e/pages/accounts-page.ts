import { expect, type Locator, type Page } from '@playwright/test';

type AccountType = 'Asset' | 'Liability' | 'Equity' | 'Income' | 'Expense';

export class AccountsPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async create(
    name: string,
    type: AccountType,
    options: { currency?: string; /** as the list shows it: "Food (USD)" */ parent?: string } = {},
  ): Promise<void> {
    await this.page.getByRole('button', { name: 'New account' }).first().click();
    const form = this.page.getByRole('form', { name: 'New account' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Type').selectOption({ label: type });
    if (options.currency) await form.getByLabel('Currency').fill(options.currency);
    if (options.parent) await form.getByLabel('Parent account').selectOption({ label: options.parent });
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(form).toBeHidden();
    await expect(this.row(name)).toBeVisible();
  }

  row(name: string): Locator {
    return this.page.locator(`tr[data-account="${name}"]`);
  }

  /** [own balance, balance with sub-accounts] as shown. */
  async balances(name: string): Promise<[string, string]> {
    const cells = this.row(name).locator('td.num');
    return [(await cells.nth(0).innerText()).trim(), (await cells.nth(1).innerText()).trim()];
  }

  async expectBalances(name: string, own: string, total: string): Promise<void> {
    const cells = this.row(name).locator('td.num');
    await expect(cells.nth(0)).toHaveText(own);
    await expect(cells.nth(1)).toHaveText(total);
  }
}
