import { expect, type Locator, type Page } from '@playwright/test';

export class JournalPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  get editor(): Locator {
    return this.page.getByRole('form', { name: /New entry|Edit draft/ });
  }

  get balanceHint(): Locator {
    return this.editor.getByRole('status').filter({ hasText: /balanced|needs at least two lines/i });
  }

  get postButton(): Locator {
    return this.editor.getByRole('button', { name: 'Post', exact: true });
  }

  get register(): Locator {
    return this.page.getByRole('table', { name: 'Journal entries' });
  }

  get details(): Locator {
    return this.page.locator('article.entry-details');
  }

  async newEntry(): Promise<void> {
    await this.page.getByRole('button', { name: 'New entry' }).click();
    await expect(this.editor).toBeVisible();
  }

  registerRow(memo: string): Locator {
    return this.register.getByRole('row').filter({ hasText: memo });
  }

  async open(memo: string): Promise<void> {
    await this.registerRow(memo).first().getByRole('button').click();
    await expect(this.details.getByRole('heading', { name: memo })).toBeVisible();
  }
}
