import { useState, type FormEvent } from 'react';
import { signIn, signUp, type SignedInUser } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { AuthError } from '../../components/auth-error.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { TabList } from '../../components/tab-list.tsx';
import { useI18n } from '../../i18n/index.ts';
import { TEXT_LIMITS } from '../../../../server/contract/limits.ts';

type Mode = 'sign-in' | 'sign-up';

/** Sign in, or create an account; "stay signed in" keeps the token across restarts. */
export function SignInScreen({
  endedReason,
  startError,
  onSignedIn,
}: {
  endedReason: string | null;
  startError?: unknown;
  onSignedIn: (user: SignedInUser) => void;
}) {
  const { t } = useI18n();
  const [mode, setMode] = useState<Mode>('sign-in');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [stay, setStay] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const user =
        mode === 'sign-in' ? await signIn({ email, password }, stay) : await signUp({ email, name, password }, stay);
      onSignedIn(user);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  const switchTo = (next: Mode) => {
    setMode(next);
    setError(undefined);
  };

  return (
    <main className="signin">
      <div className="signin-card">
        <div className="signin-top">
          <h1>
            <span className="brand-mark" aria-hidden="true" />
            {t('app.name')}
          </h1>
          <LanguageSwitch standalone />
        </div>
        <p className="muted">{t('auth.tagline')}</p>
        {endedReason !== null && (
          <div role="alert" className="notice notice-warn">
            {t('auth.sessionEnded', { reason: endedReason })}
          </div>
        )}
        <ErrorNotice error={startError} />
        <TabList
          className="segmented"
          items={[
            { id: 'sign-in', label: t('auth.signIn') },
            { id: 'sign-up', label: t('auth.signUp') },
          ]}
          selected={mode}
          onSelect={switchTo}
          label={t('auth.modeLabel')}
          idPrefix="auth"
        />
        <div role="tabpanel" id={`auth-panel-${mode}`} aria-labelledby={`auth-tab-${mode}`}>
          <form
            onSubmit={submit}
            className="stack"
            aria-label={mode === 'sign-in' ? t('auth.signIn') : t('auth.signUp')}
          >
            <label>
              {t('auth.email')}
              <input
                type="email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </label>
            {mode === 'sign-up' && (
              <label>
                {t('auth.name')}
                <input
                  type="text"
                  autoComplete="name"
                  required
                  maxLength={TEXT_LIMITS.personName}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                />
              </label>
            )}
            <label>
              {t('auth.password')}
              <input
                type="password"
                autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
                required
                minLength={mode === 'sign-up' ? 8 : undefined}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            {mode === 'sign-up' && <p className="hint">{t('auth.passwordRule')}</p>}
            <label className="checkbox">
              <input type="checkbox" checked={stay} onChange={(e) => setStay(e.target.checked)} />
              {t('auth.stay')}
            </label>
            <p className="hint">{stay ? t('auth.stayOn') : t('auth.stayOff')}</p>
            <AuthError error={error} kind={mode} email={email} />
            <button type="submit" className="primary" disabled={busy}>
              {mode === 'sign-in' ? t('auth.signIn') : t('auth.createAccount')}
            </button>
            {busy && <Busy label={mode === 'sign-in' ? t('auth.signingIn') : t('auth.creating')} />}
          </form>
        </div>
      </div>
    </main>
  );
}
