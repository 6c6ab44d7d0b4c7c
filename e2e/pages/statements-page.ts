import { expect, type Locator, type Page } from '@playwright/test';

export class StatementsPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  get wizard(): Locator {
    return this.page.getByRole('article', { name: 'Import a bank statement' });
  }

  async chooseFile(account: string, file: string): Promise<void> {
    await this.wizard.getByLabel('Bank account').selectOption({ label: account });
    await this.wizard.getByLabel('Statement file').setInputFiles(file);
  }

  async preview(): Promise<void> {
    await this.wizard.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect(this.wizard.getByTestId('preview-count')).toBeVisible();
  }

  async tab(name: 'Review queue' | 'Unmatched' | 'Rules' | 'Statistics'): Promise<Locator> {
    await this.page.getByRole('tab', { name }).click();
    return this.page.getByRole('tabpanel');
  }

  matchCard(description: string): Locator {
    return this.page.locator(`article.match-card[data-match="${description}"]`);
  }

  get reconcile(): Locator {
    return this.page.getByRole('article', { name: 'Reconcile account' });
  }

  unmatched(description: string): Locator {
    return this.page.locator(`article.unmatched-item[data-unmatched="${description}"]`);
  }
}
