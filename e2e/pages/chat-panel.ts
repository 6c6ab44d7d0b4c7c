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

  /**
   * Asks how much was spent in a month named by its dates (YYYY-MM): the model looks the month up
   * with its tools, as the questions the advisor answers today (this month, last month) do not name it.
   */
  // With the advisor answering a named month itself (issue 33.3), this asks "in May 2024" / "2024 年 5 月"
  // and the built-in advisor answers it without a model.
  async askAboutMonth(month: string, language: 'en' | 'zh'): Promise<void> {
    const [year, m] = month.split('-') as [string, string];
    const name = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(Number(year), Number(m) - 1, 1)),
    );
    await this.ask(
      language === 'zh' ? `我 ${year} 年 ${Number(m)} 月花了多少钱？` : `How much did I spend in ${name} ${year}?`,
    );
  }
}
