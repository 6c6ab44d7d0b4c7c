import { expect, type Locator, type Page } from '@playwright/test';

/** The investments screen: holdings with their lots, the trade form, securities and how an account sells. */
export class InvestmentsPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  get tradeForm(): Locator {
    return this.page.getByRole('form', { name: /^(Book a trade|记一笔交易)$/ });
  }

  get holdings(): Locator {
    return this.page.getByRole('table', { name: /^(Holdings|持仓)$/ });
  }

  get preview(): Locator {
    return this.page.getByRole('region', { name: /^(What the trade books|这笔交易将记入的内容)$/ });
  }

  /** Declares a security in the securities panel. */
  async declare(symbol: string, name: string, currency: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Declare security' });
    await form.getByRole('textbox', { name: /^Symbol$/ }).fill(symbol);
    await form.getByRole('textbox', { name: /^Name$/ }).fill(name);
    await form.getByRole('textbox', { name: /^Price currency$/ }).fill(currency);
    await form.getByRole('button', { name: 'Declare security' }).click();
    await expect(this.page.getByRole('status').filter({ hasText: `${symbol} declared.` })).toBeVisible();
  }

  /** Sets how an account sells: its method and its gains account. */
  async settle(account: string, method: 'FIFO' | 'LIFO' | 'AVERAGE', gains: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'How an account sells' });
    await form.getByRole('combobox', { name: /^Account$/ }).selectOption({ label: account });
    await form.getByRole('combobox', { name: /^Booking method$/ }).selectOption(method);
    await form.getByRole('combobox', { name: /^Short-term gains account$/ }).selectOption({ label: gains });
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect(this.page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  }

  /** Fills a buy or sell in the trade form (labels in either language) and asks for its gain. */
  async fillTrade(
    kind: RegExp,
    t: { date: string; account: string; security: RegExp; units: string; price: string },
  ): Promise<void> {
    const form = this.tradeForm;
    const kindBox = form.getByRole('combobox', { name: /^(Trade|交易)$/ });
    const label = (await kindBox.locator('option').allTextContents()).find((text) => kind.test(text))!;
    await kindBox.selectOption({ label });
    await form.getByRole('textbox', { name: /^(Date|日期)$/ }).fill(t.date);
    await form.getByRole('combobox', { name: /^(Account|账户)$/ }).selectOption({ label: t.account });
    const security = form.getByRole('combobox', { name: /^(Security|证券)$/ });
    const option = (await security.locator('option').allTextContents()).find((text) => t.security.test(text))!;
    await security.selectOption({ label: option });
    await form.getByRole('textbox', { name: /^(Units|份额)$/ }).fill(t.units);
    await form.getByRole('textbox', { name: /^(Price per unit|单价)$/ }).fill(t.price);
  }

  async showGain(): Promise<void> {
    await this.tradeForm.getByRole('button', { name: /^(Show the gain|显示收益)$/ }).click();
    await expect(this.preview).toBeVisible();
  }

  async book(): Promise<void> {
    await this.tradeForm.getByRole('button', { name: /^(Book trade|记入交易)$/ }).click();
    await expect(this.page.getByRole('status').filter({ hasText: /Booked|已记入/ })).toBeVisible();
  }
}
