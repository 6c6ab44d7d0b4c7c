import { expect, type Locator, type Page } from '@playwright/test';

/** The sign-in screen; a person's password is the one the page was given unless they name another. */
export class SignInPage {
  readonly page: Page;
  private readonly password: string;
  constructor(page: Page, password: string) {
    this.page = page;
    this.password = password;
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
    await this.page.getByLabel('Password').fill(person.password ?? this.password);
    if (person.stay) await this.stay.check();
    await this.page.getByRole('button', { name: 'Create my ledger' }).click();
    await expect(this.page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  }

  async signIn(person: { email: string; password?: string; stay?: boolean }): Promise<void> {
    await this.page.getByRole('tab', { name: 'Sign in' }).click();
    await this.page.getByLabel('Email').fill(person.email);
    await this.page.getByLabel('Password').fill(person.password ?? this.password);
    if (person.stay) await this.stay.check();
    await this.page.locator('form').getByRole('button', { name: 'Sign in' }).click();
  }
}
