import { expect, type Locator, type Page } from '@playwright/test';

/** The password a person signs up and in with unless the test gives another. */
export const PASSWORD = 'correct horse battery';

export class SignInPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  get submit(): Locator {
    return this.page.locator('form').getByRole('button', { name: /^(Sign in|Create my ledger)$/ });
  }

  get stay(): Locator {
    return this.page.getByLabel('Stay signed in');
  }

  async signUp(person: { email: string; name: string; password?: string; stay?: boolean }): Promise<void> {
    await this.page.getByRole('tab', { name: 'Create account' }).click();
    await this.page.getByLabel('Email').fill(person.email);
    await this.page.getByLabel('Your name').fill(person.name);
    await this.page.getByLabel('Password').fill(person.password ?? PASSWORD);
    if (person.stay) await this.stay.check();
    await this.page.getByRole('button', { name: 'Create my ledger' }).click();
    await expect(this.page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  }

  async signIn(person: { email: string; password?: string; stay?: boolean }): Promise<void> {
    await this.page.getByRole('tab', { name: 'Sign in' }).click();
    await this.page.getByLabel('Email').fill(person.email);
    await this.page.getByLabel('Password').fill(person.password ?? PASSWORD);
    if (person.stay) await this.stay.check();
    await this.page.locator('form').getByRole('button', { name: 'Sign in' }).click();
  }
}
