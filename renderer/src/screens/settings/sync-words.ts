import type { MessageKey } from '../../i18n/index.ts';

/** The sync answers' codes in words (sync.error.*), for the Sync panel's error notices. */
export const SYNC_ERROR_WORDS: Readonly<Record<string, MessageKey>> = {
  SYNC_WRONG_KEY: 'sync.error.SYNC_WRONG_KEY',
  SYNC_BAD_RECOVERY_CODE: 'sync.error.SYNC_BAD_RECOVERY_CODE',
  SYNC_BAD_INVITE: 'sync.error.SYNC_BAD_INVITE',
  INVITE_INVALID: 'sync.error.INVITE_INVALID',
  SYNC_RELAY_LOGIN: 'sync.error.SYNC_RELAY_LOGIN',
  SYNC_RELAY_UNREACHABLE: 'sync.error.SYNC_RELAY_UNREACHABLE',
  SYNC_LEDGER_NOT_EMPTY: 'sync.error.SYNC_LEDGER_NOT_EMPTY',
  SYNC_ALREADY_SET_UP: 'sync.error.SYNC_ALREADY_SET_UP',
  SYNC_NOT_SET_UP: 'sync.error.SYNC_NOT_SET_UP',
  SYNC_CLOCK_DRIFT: 'sync.error.SYNC_CLOCK_DRIFT',
  SYNC_OUT_OF_SYNC: 'sync.error.SYNC_OUT_OF_SYNC',
  SYNC_TAMPERED: 'sync.error.SYNC_TAMPERED',
  SYNC_BAD_ANSWER: 'sync.error.SYNC_BAD_ANSWER',
  USERNAME_TAKEN: 'sync.error.USERNAME_TAKEN',
  LIMIT_REACHED: 'sync.error.LIMIT_REACHED',
};
