import { expect, type Locator, type Page } from '@playwright/test';
import { Words } from './words.ts';

type AccountType = 'Asset' | 'Liability' | 'Equity' | 'Income' | 'Expense';
const TYPES = {
  Asset: 'ASSET',
  Liability: 'LIABILITY',
  Equity: 'EQUITY',
  Income: 'INCOME',
  Expense: 'EXPENSE',
} as const;

export class AccountsPage {
  readonly page: Page;
  private readonly words: Words;
  constructor(page: Page, words = new Words()) {
    this.page = page;
    this.words = words;
  }

  async create(
    name: string,
    type: AccountType,
    options: { currency?: string; /** as the list shows it: "Food (USD)" */ parent?: string } = {},
  ): Promise<void> {
    const t = (key: Parameters<Words['t']>[0]) => this.words.t(key);
    await this.page
      .getByRole('button', { name: t('accounts.new') })
      .first()
      .click();
    const form = this.page.getByRole('form', { name: t('accounts.new') });
    await form.getByLabel(t('accounts.name')).fill(name);
    await form.getByLabel(t('accounts.type')).selectOption({ label: t(`type.${TYPES[type]}`) });
    if (options.currency) await form.getByLabel(t('accounts.currency')).fill(options.currency);
    if (options.parent) await form.getByLabel('Parent account').selectOption({ label: options.parent });
    await form.getByRole('button', { name: t('accounts.create') }).click();
    await expect(form).toBeHidden();
    await expect(this.row(name)).toBeVisible();
  }

  /** Adds the ready-made chart of accounts, named in the interface's language. */
  async addStarterSet(): Promise<void> {
    await this.page.getByRole('button', { name: this.words.t('accounts.starter') }).click();
    await expect(this.row(this.words.t('starter.opening'))).toBeVisible();
  }

  /** Opens an account's register from its name. */
  async openRegister(name: string): Promise<Locator> {
    await this.page.getByRole('link', { name: this.words.t('accounts.openRegister', { name }) }).click();
    const register = this.page.getByRole('table', { name: this.words.t('register.tableLabel', { name }) });
    await expect(register).toBeVisible();
    return register;
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
