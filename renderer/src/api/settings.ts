import type { SettingsDto } from '../../../server/contract/settings.ts';
import { json } from './http.ts';

export type { SettingsDto };

/** The user's settings: the home currency that the dashboard, reports and advisor convert into. */
export function getSettings(): Promise<SettingsDto> {
  return json('GET', '/api/settings');
}

export function setHomeCurrency(currency: string): Promise<SettingsDto> {
  return json('PUT', '/api/settings', { json: { home_currency: currency } });
}
