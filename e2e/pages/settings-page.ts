import fs from 'node:fs';
import { expect, type Download, type Locator, type Page } from '@playwright/test';

/** The settings screen: export, journal import, backups. */
export class SettingsPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  get exportPanel(): Locator {
    return this.page.getByRole('article', { name: 'Export' });
  }

  get importPanel(): Locator {
    return this.page.getByRole('article', { name: 'Import a journal' });
  }

  get backupPanel(): Locator {
    return this.page.getByRole('article', { name: 'Backups' });
  }

  get accountPanel(): Locator {
    return this.page.getByRole('article', { name: 'Your account' });
  }

  /** Fills the change-password form (the new one twice, or `again` when given) and sends it with Enter. */
  async changePassword(current: string, next: string, again = next): Promise<void> {
    const form = this.accountPanel.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill(current);
    await form.getByLabel('New password', { exact: true }).fill(next);
    await form.getByLabel('New password again').fill(again);
    await form.getByLabel('New password again').press('Enter');
  }

  get backupTable(): Locator {
    return this.backupPanel.getByRole('table', { name: 'Backups, newest first' });
  }

  /** Exports in a format and returns the downloaded file with its text. */
  async export(
    format: 'Ledger' | 'hledger' | 'Beancount' | 'CSV (one row per line)',
  ): Promise<{ download: Download; text: string }> {
    await this.exportPanel.getByLabel('Export format').selectOption({ label: format });
    const downloading = this.page.waitForEvent('download');
    await this.exportPanel.getByRole('button', { name: 'Export and download' }).click();
    const download = await downloading;
    const file = await download.path();
    return { download, text: fs.readFileSync(file, 'utf8') };
  }

  async importJournal(format: 'Ledger' | 'hledger' | 'Beancount', file: string): Promise<void> {
    await this.importPanel.getByLabel('Journal format').selectOption({ label: format });
    await this.importPanel.getByLabel('Journal file').setInputFiles(file);
    await this.importPanel.getByRole('button', { name: 'Import journal' }).click();
  }

  backupRow(kind: 'Manual' | 'Daily' | 'Before a restore'): Locator {
    return this.backupTable.getByRole('row').filter({ hasText: kind });
  }

  async backUpNow(): Promise<void> {
    await this.backupPanel.getByRole('button', { name: 'Back up now' }).click();
    await expect(this.backupPanel.getByRole('status').filter({ hasText: 'Backed up' })).toBeVisible();
  }
}
