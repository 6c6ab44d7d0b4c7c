import { answer, api, type Schemas } from './client.ts';

export type SettingsDto = Schemas['Settings'];

/** The user's settings: the home currency that the dashboard, reports and advisor convert into. */
export function getSettings(): Promise<SettingsDto> {
  return answer(api.GET('/api/settings'));
}

export function setHomeCurrency(currency: string): Promise<SettingsDto> {
  return answer(api.PUT('/api/settings', { body: { home_currency: currency } }));
}
