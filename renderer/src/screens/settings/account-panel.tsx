import { useId, useState, type FormEvent } from 'react';
import { changePassword, type SignedInUser } from '../../api/index.ts';
import { AuthError } from '../../components/auth-error.tsx';
import { Busy } from '../../components/busy.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';

/** The signed-in account: change the password (every other session ends), sign out (this session ends). */
export function AccountPanel({ user, onSignOut }: { user: SignedInUser; onSignOut: () => void }) {
  const { t } = useI18n();
  const headingId = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [changed, setChanged] = useState(false);
  const change = useAction(async () => {
    await changePassword({ current_password: current, new_password: next });
    setCurrent('');
    setNext('');
    setAgain('');
    setChanged(true);
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChanged(false);
    setMismatch(next !== again);
    // one notice at a time: the latest attempt's
    if (next === again) void change.run();
    else change.clearError();
  };

  return (
    <article className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('account.title')}</h2>
      <p>{t('account.signedInAs', { name: user.name, email: user.email })}</p>
      <form className="form-grid" aria-label={t('account.changePassword')} onSubmit={submit}>
        <label>
          {t('account.current')}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </label>
        <label>
          {t('account.new')}
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
        </label>
        <label>
          {t('account.again')}
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={again}
            onChange={(e) => setAgain(e.target.value)}
          />
        </label>
        <p className="hint span-2">{t('account.rule')}</p>
        <div className="form-actions span-2">
          <button type="submit" className="primary" disabled={change.busy}>
            {t('account.changePassword')}
          </button>
        </div>
      </form>
      {change.busy && <Busy label={t('account.changing')} />}
      {mismatch && (
        <div role="alert" className="notice notice-error">
          {t('account.mismatch')}
        </div>
      )}
      <AuthError error={change.error} kind="password" email={user.email} onDismiss={change.clearError} />
      {changed && (
        <p role="status" className="notice notice-ok">
          {t('account.changed')}
        </p>
      )}
      <div className="form-actions">
        <button type="button" onClick={onSignOut}>
          {t('account.signOut')}
        </button>
      </div>
      <p className="hint">{t('account.signOutHint')}</p>
    </article>
  );
}
