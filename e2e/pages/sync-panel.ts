import { expect, type Locator, type Page } from '@playwright/test';
import { Words } from './words.ts';

/** A panel of Settings: the article named by its title. */
class SettingsArticle {
  readonly page: Page;
  protected readonly words: Words;
  private readonly title: Parameters<Words['t']>[0];
  constructor(page: Page, words: Words, title: Parameters<Words['t']>[0]) {
    this.page = page;
    this.words = words;
    this.title = title;
  }

  get panel(): Locator {
    return this.page.getByRole('article', { name: this.words.t(this.title), exact: true });
  }
}

/** Settings → Sync: creating or joining a group, its status, Sync now, invites, leaving. */
export class SyncPanel extends SettingsArticle {
  constructor(page: Page, words = new Words()) {
    super(page, words, 'sync.title');
  }

  get createForm(): Locator {
    return this.panel.getByRole('form', { name: this.words.t('sync.create.title') });
  }

  get joinForm(): Locator {
    return this.panel.getByRole('form', { name: this.words.t('sync.join.title') });
  }

  /** The figures of the group's status, read by their test ids (sync-relay, sync-last, sync-waiting, sync-reachable). */
  fact(name: 'relay' | 'last' | 'waiting' | 'reachable'): Locator {
    return this.panel.getByTestId(`sync-${name}`);
  }

  private async fillRelayAccount(form: Locator, account: { username: string; password: string; register: boolean }) {
    const t = this.words;
    await form.getByLabel(t.t('sync.relayUsername')).fill(account.username);
    await form.getByLabel(t.t('sync.relayPassword')).fill(account.password);
    await form.getByRole('checkbox', { name: t.t('sync.register') }).setChecked(account.register);
  }

  /** Fills "Create a sync group" and sends it with Enter; no passphrase: a random key. */
  async create(group: {
    relayUrl: string;
    username: string;
    password: string;
    register: boolean;
    passphrase?: string;
  }): Promise<void> {
    const t = this.words;
    const form = this.createForm;
    await form.getByLabel(t.t('sync.relayUrl')).fill(group.relayUrl);
    await this.fillRelayAccount(form, group);
    const randomKey = form.getByRole('checkbox', { name: t.t('sync.randomKey') });
    await randomKey.setChecked(group.passphrase === undefined);
    if (group.passphrase !== undefined) await form.getByLabel(t.t('sync.passphrase')).fill(group.passphrase);
    await form.getByLabel(t.t('sync.relayUrl')).press('Enter');
  }

  /** Fills "Join a group" with the passphrase (or a recovery code) and sends it. */
  async join(j: {
    invite: string;
    username: string;
    password: string;
    register: boolean;
    passphrase?: string;
    recoveryCode?: string;
  }): Promise<void> {
    const t = this.words;
    const form = this.joinForm;
    await form.getByLabel(t.t('sync.join.invite')).fill(j.invite);
    await this.fillRelayAccount(form, j);
    if (j.recoveryCode !== undefined) {
      await form.getByRole('radio', { name: t.t('sync.join.withRecovery') }).check();
      await form.getByLabel(t.t('sync.join.recoveryCode'), { exact: true }).fill(j.recoveryCode);
    } else {
      await form.getByLabel(t.t('sync.passphrase')).fill(j.passphrase ?? '');
    }
    await form.getByRole('button', { name: t.t('sync.join.submit') }).click();
  }

  /** "Invite a household member": the code shown once. */
  async invite(): Promise<string> {
    await this.panel.getByRole('button', { name: this.words.t('sync.invite.make') }).click();
    const code = this.panel.getByRole('textbox', { name: this.words.t('sync.invite.code') });
    await expect(code).toHaveValue(/.{10,}/);
    return code.inputValue();
  }

  async recoveryCode(): Promise<string> {
    const code = this.panel.getByRole('textbox', { name: this.words.t('sync.recovery.title') });
    await expect(code).toHaveValue(/.{8,}/);
    return code.inputValue();
  }

  async syncNow(): Promise<void> {
    await this.panel.getByRole('button', { name: this.words.t('sync.now') }).click();
  }

  /** "Leave the group…", then the confirmation. */
  async leave(): Promise<void> {
    await this.panel.getByRole('button', { name: this.words.t('sync.leave.start') }).click();
    await this.panel.getByRole('button', { name: this.words.t('sync.leave.confirmButton'), exact: true }).click();
  }
}
