import { ApiError } from '../api/index.ts';
import { useI18n } from '../i18n/index.ts';
import { waitInWords } from '../wait-in-words.ts';
import { ErrorNotice } from './error-notice.tsx';

/** The owner's command that sets a new password: the desktop app's own, or the headless server's. */
function resetCommand(email: string): string {
  const who = email.trim() || 'you@example.com';
  return 'ledgerDesktop' in window ? `personal-ledger --reset-password ${who}` : `npm run reset-password -- ${who}`;
}

/**
 * What went wrong when signing in, signing up or changing the password, phrased as what to do: a
 * wrong password, and a lock-out with how long it lasts (in words) and the owner's way back in.
 * Anything else is the server's own words (ErrorNotice).
 */
export function AuthError({
  error,
  kind,
  email = '',
  onDismiss,
}: {
  error: unknown;
  kind: 'sign-in' | 'sign-up' | 'password';
  email?: string;
  onDismiss?: () => void;
}) {
  const { t } = useI18n();
  if (!(error instanceof ApiError)) return <ErrorNotice error={error} onDismiss={onDismiss} />;
  if (error.status === 401 && error.detail === 'Invalid email or password') {
    return (
      <div role="alert" className="notice notice-error">
        {kind === 'password' ? t('account.wrongCurrent') : t('auth.wrongLogin')}
      </div>
    );
  }
  if (error.status === 429) {
    const wait = waitInWords(error.retryAfterSeconds ?? 60, t);
    return (
      <div role="alert" className="notice notice-error stack">
        <p>{kind === 'sign-up' ? t('auth.tooManySignUps', { wait }) : t('auth.tooMany', { wait })}</p>
        {kind !== 'sign-up' && <p className="hint">{t('auth.lockedOutHelp', { command: resetCommand(email) })}</p>}
      </div>
    );
  }
  return <ErrorNotice error={error} onDismiss={onDismiss} />;
}
