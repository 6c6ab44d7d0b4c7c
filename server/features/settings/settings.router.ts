import { errorBody } from '../../contract/common.ts';
import { settings, updateSettingsBody } from '../../contract/settings.ts';
import { defineRoute, type RouteDef } from '../define-route.ts';
import { getSettings, updateSettings } from './settings.service.ts';

export function settingsRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/settings',
      tag: 'settings',
      summary: "The user's settings: the home currency that the dashboard, reports and advisor convert into by default",
      auth: true,
      cacheable: true,
      responses: [{ status: 200, description: 'The settings', schema: settings }],
      handler: ({ session }) => ({ status: 200, body: getSettings(session.ledger) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/settings',
      tag: 'settings',
      summary: 'Set the home currency',
      auth: true,
      body: updateSettingsBody,
      responses: [
        { status: 200, description: 'The settings', schema: settings },
        { status: 400, description: 'VALIDATION_ERROR', schema: errorBody },
      ],
      handler: ({ session, body }) => ({ status: 200, body: updateSettings(session.ledger, body) }),
    }),
  ];
}
