import { expect, type Locator, type Page } from '@playwright/test';

export class ChatPanel {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  get panel(): Locator {
    return this.page.getByRole('complementary', { name: /Advisor|理财顾问/ });
  }

  get log(): Locator {
    return this.panel.getByRole('log');
  }

  get answers(): Locator {
    return this.log.locator('[data-role="assistant"]');
  }

  async open(): Promise<void> {
    await this.page.getByRole('button', { name: /^(Advisor|理财顾问)$/ }).click();
    await expect(this.panel).toBeVisible();
  }

  /** Asks in the interface's language, English or Chinese. */
  async ask(question: string): Promise<void> {
    await this.panel.getByRole('textbox', { name: /^(Your question|你的问题)$/ }).fill(question);
    await this.panel.getByRole('button', { name: /^(Send|发送)$/ }).click();
  }

  /** Asks how much was spent on an account in a month (YYYY-MM), naming the month as a person would. */
  async askAboutMonth(month: string, account: string, language: 'en' | 'zh'): Promise<void> {
    const [year, m] = month.split('-') as [string, string];
    const name = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(Number(year), Number(m) - 1, 1)),
    );
    await this.ask(
      language === 'zh'
        ? `我 ${year} 年 ${Number(m)} 月在${account}上花了多少钱？`
        : `How much did I spend on ${account} in ${name} ${year}?`,
    );
  }
}
