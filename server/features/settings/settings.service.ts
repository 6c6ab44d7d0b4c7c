import type { LedgerDb } from '../../db/stores.ts';
import type { SettingsDto, UpdateSettingsInput } from '../../contract/settings.ts';
import { commonestAccountCurrency, readSetting, writeSetting } from './settings.repository.ts';

const HOME_CURRENCY = 'home_currency';

/** The currency reports convert into by default: the one set, else the one most accounts are in, else USD. */
export function homeCurrency(db: LedgerDb): string {
  return readSetting(db, HOME_CURRENCY) ?? commonestAccountCurrency(db) ?? 'USD';
}

export function getSettings(db: LedgerDb): SettingsDto {
  const set = readSetting(db, HOME_CURRENCY);
  return { home_currency: set ?? homeCurrency(db), home_currency_set: set !== undefined };
}

export function updateSettings(db: LedgerDb, input: UpdateSettingsInput): SettingsDto {
  return db.transaction(() => {
    writeSetting(db, HOME_CURRENCY, input.home_currency);
    return getSettings(db);
  });
}
