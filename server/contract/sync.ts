import { z } from 'zod';
import { isoDateTime, oneOfFields } from './common.ts';

/**
 * Sync of the books through a household's relay (docs/sync.md). The relay account is the
 * relay's own (not this app's login); the passphrase or recovery code never leaves this computer.
 */
const relayUrl = z
  .url({ protocol: /^https?$/ })
  .max(300)
  .meta({ description: 'The relay, e.g. http://192.168.1.20:4600', example: 'http://127.0.0.1:4600' });
const relayLogin = {
  relay_url: relayUrl,
  relay_username: z.string().min(3).max(64).meta({ description: "Your account on the relay (the relay's own)" }),
  relay_password: z.string().min(8).max(200),
  register: z.boolean().default(false).meta({ description: 'Make the relay account first' }),
};
const passphrase = z
  .string()
  .min(8)
  .max(1000)
  .meta({ description: 'The group passphrase: the key is made from it on this computer (scrypt)' });

export const createGroupBody = z.strictObject({
  ...relayLogin,
  passphrase: passphrase
    .optional()
    .meta({ description: 'Omit to have a random key made, shown once as a recovery code' }),
});

export const joinGroupBody = oneOfFields(
  z.strictObject({
    invite_code: z.string().min(10).max(2000).meta({ description: 'The invite code another member made' }),
    relay_username: relayLogin.relay_username,
    relay_password: relayLogin.relay_password,
    register: relayLogin.register,
    passphrase: passphrase.optional(),
    recovery_code: z.string().max(200).optional(),
  }),
  'exactly',
  ['passphrase', 'recovery_code'],
  'give the passphrase or the recovery code, one of them',
);

export const createInviteBody = z.strictObject({
  expires_in_hours: z.number().int().min(1).max(720).default(168),
  uses: z.number().int().min(1).max(20).default(1),
});

export const syncStatus = z
  .object({
    in_group: z.boolean(),
    relay_url: z.string().nullable(),
    group_id: z.string().meta({ format: 'uuid' }).nullable(),
    device: z.string().meta({ description: "This computer's node id for these books" }),
    last_sync_at: isoDateTime.nullable(),
    last_error: z.string().nullable().meta({ description: 'Why the last sync failed, or null' }),
    relay_reachable: z
      .boolean()
      .nullable()
      .meta({ description: 'Whether the last sync reached the relay; null before any' }),
    changes_waiting: z.number().int().meta({ description: "This computer's changes the relay has not had yet" }),
  })
  .meta({ id: 'SyncStatus' });

export const groupCreated = z
  .object({
    status: syncStatus,
    recovery_code: z
      .string()
      .nullable()
      .meta({ description: 'The random key, shown this once (null when a passphrase was given): keep it safe' }),
  })
  .meta({ id: 'SyncGroupCreated' });

export const syncInvite = z
  .object({
    invite_code: z.string().meta({ description: 'Holds the relay and the group; the passphrase is not in it' }),
    expires_at: isoDateTime,
    uses: z.number().int(),
  })
  .meta({ id: 'SyncInviteCode' });

export const syncResult = z
  .object({ sent: z.number().int(), received: z.number().int(), status: syncStatus })
  .meta({ id: 'SyncResult' });

export type CreateGroupInput = z.infer<typeof createGroupBody>;
export type JoinGroupInput = z.infer<typeof joinGroupBody>;
export type CreateInviteInput = z.infer<typeof createInviteBody>;
export type SyncStatusDto = z.infer<typeof syncStatus>;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z-[0-9A-F]{4}-[0-9A-Fa-f]{16}$/;

export const historyQuery = z.strictObject({
  before: z
    .string()
    .regex(TIMESTAMP)
    .optional()
    .meta({ description: "A change's timestamp: the page holds the changes before it (next_before of the last page)" }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const historyItem = z
  .object({
    timestamp: z.string().meta({ description: "The change's clock timestamp (its id in the log)" }),
    at: isoDateTime.meta({ description: 'When it was made, on the clock of the device that made it' }),
    device: z.string().meta({ description: 'The node id of the device that made it' }),
    this_device: z.boolean(),
    kind: z
      .string()
      .meta({
        description: 'What kind of row: journal_entries, accounts, rules, schedules, budget_lines, prices, settings …',
      }),
    row: z.string().meta({ description: "The row's key: its id, or a setting's name, a budget line's month and account" }),
    action: z.enum(['created', 'changed', 'deleted', 'posted', 'voided', 'deactivated']),
    label: z
      .string()
      .meta({ description: "The row in its owner's words: an entry's date, memo and amount; an account's name" }),
    summary: z.string().meta({ description: 'The change in English words' }),
    by_undo: z.boolean().meta({ description: 'Made by an Undo' }),
    undone: z.boolean().meta({ description: 'Undone since (on this device)' }),
  })
  .meta({ id: 'HistoryItem' });

export const historyPage = z
  .object({ items: z.array(historyItem), next_before: z.string().nullable() })
  .meta({ id: 'HistoryPage' });

export const undoResult = z.object({ undone: z.array(historyItem) }).meta({ id: 'UndoResult' });

export type HistoryItem = z.infer<typeof historyItem>;
export type HistoryPage = z.infer<typeof historyPage>;
export type HistoryQuery = z.infer<typeof historyQuery>;
