import type { Locator, Page } from '@playwright/test';
import { Words } from './words.ts';

/** The History screen: the changes to the books, newest first, and Undo of this computer's last one. */
export class HistoryPage {
  readonly page: Page;
  private readonly words: Words;
  constructor(page: Page, words = new Words()) {
    this.page = page;
    this.words = words;
  }

  get screen(): Locator {
    return this.page.getByRole('region', { name: this.words.t('history.title'), exact: true });
  }

  get table(): Locator {
    return this.screen.getByRole('table', { name: this.words.t('history.list') });
  }

  get undoButton(): Locator {
    return this.screen.getByRole('button', { name: this.words.t('history.undo') });
  }

  /** What the screen says it undid. */
  get notice(): Locator {
    return this.screen.getByRole('status');
  }

  async undo(): Promise<void> {
    await this.undoButton.click();
  }
}
