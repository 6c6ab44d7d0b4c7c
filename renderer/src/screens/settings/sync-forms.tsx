import { useId, useState, type FormEvent } from 'react';
import { createSyncGroup, joinSyncGroup, type SyncGroupCreated, type SyncStatusDto } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import { SYNC_ERROR_WORDS } from './sync-words.ts';

interface RelayAccount {
  username: string;
  password: string;
  register: boolean;
}

/** The relay's own account (not this app's login): name, password, and whether to make it first. */
function RelayAccountFields({ value, onChange }: { value: RelayAccount; onChange: (next: RelayAccount) => void }) {
  const { t } = useI18n();
  return (
    <>
      <label>
        {t('sync.relayUsername')}
        <input
          required
          minLength={3}
          maxLength={64}
          autoComplete="username"
          value={value.username}
          onChange={(e) => onChange({ ...value, username: e.target.value })}
        />
      </label>
      <label>
        {t('sync.relayPassword')}
        <input
          type="password"
          required
          minLength={8}
          maxLength={200}
          autoComplete={value.register ? 'new-password' : 'current-password'}
          value={value.password}
          onChange={(e) => onChange({ ...value, password: e.target.value })}
        />
      </label>
      <label className="checkbox span-2">
        <input
          type="checkbox"
          checked={value.register}
          onChange={(e) => onChange({ ...value, register: e.target.checked })}
        />
        {t('sync.register')}
      </label>
    </>
  );
}

function PassphraseField({ value, onChange }: { value: string; onChange: (next: string) => void }) {
  const { t } = useI18n();
  const hintId = useId();
  return (
    <>
      <label className="span-2">
        {t('sync.passphrase')}
        <input
          type="password"
          required
          minLength={8}
          maxLength={1000}
          autoComplete="off"
          aria-describedby={hintId}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      <p id={hintId} className="hint span-2">
        {t('sync.passphraseHint')}
      </p>
    </>
  );
}

const noAccount: RelayAccount = { username: '', password: '', register: false };

/** Makes a group on a relay and sends these books to it; a random key comes back as the recovery code. */
export function CreateGroupForm({ onCreated }: { onCreated: (created: SyncGroupCreated) => void }) {
  const { t } = useI18n();
  const headingId = useId();
  const [relayUrl, setRelayUrl] = useState('');
  const [account, setAccount] = useState(noAccount);
  const [randomKey, setRandomKey] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const create = useAction(async () => {
    const created = await createSyncGroup({
      relay_url: relayUrl.trim(),
      relay_username: account.username.trim(),
      relay_password: account.password,
      register: account.register,
      ...(randomKey ? {} : { passphrase }),
    });
    setPassphrase('');
    setAccount(noAccount);
    onCreated(created);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };
  return (
    <article className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('sync.create.title')}</h3>
      <form className="form-grid" aria-labelledby={headingId} onSubmit={submit}>
        <label className="span-2">
          {t('sync.relayUrl')}
          <input
            type="url"
            required
            maxLength={300}
            placeholder={t('sync.relayUrlHint')}
            value={relayUrl}
            onChange={(e) => setRelayUrl(e.target.value)}
          />
        </label>
        <RelayAccountFields value={account} onChange={setAccount} />
        <label className="checkbox span-2">
          <input type="checkbox" checked={randomKey} onChange={(e) => setRandomKey(e.target.checked)} />
          {t('sync.randomKey')}
        </label>
        {randomKey ? (
          <p className="hint span-2">{t('sync.randomKeyHint')}</p>
        ) : (
          <PassphraseField value={passphrase} onChange={setPassphrase} />
        )}
        <div className="form-actions span-2">
          <button type="submit" className="primary" disabled={create.busy}>
            {t('sync.create.submit')}
          </button>
        </div>
      </form>
      {create.busy && <Busy label={t('sync.create.working')} />}
      <ErrorNotice error={create.error} onDismiss={create.clearError} words={SYNC_ERROR_WORDS} />
    </article>
  );
}

/** Joins a group by another member's invite code, with the passphrase or the recovery code. */
export function JoinGroupForm({ onJoined }: { onJoined: (status: SyncStatusDto) => void }) {
  const { t } = useI18n();
  const headingId = useId();
  const [invite, setInvite] = useState('');
  const [account, setAccount] = useState(noAccount);
  const [byRecovery, setByRecovery] = useState(false);
  const [secret, setSecret] = useState('');
  const join = useAction(async () => {
    const status = await joinSyncGroup({
      invite_code: invite.trim(),
      relay_username: account.username.trim(),
      relay_password: account.password,
      register: account.register,
      ...(byRecovery ? { recovery_code: secret.trim() } : { passphrase: secret }),
    });
    setSecret('');
    setInvite('');
    setAccount(noAccount);
    onJoined(status);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void join.run();
  };
  return (
    <article className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('sync.join.title')}</h3>
      <p className="hint">{t('sync.join.hint')}</p>
      <form className="form-grid" aria-labelledby={headingId} onSubmit={submit}>
        <label className="span-2">
          {t('sync.join.invite')}
          <input
            required
            minLength={10}
            maxLength={2000}
            autoComplete="off"
            spellCheck={false}
            value={invite}
            onChange={(e) => setInvite(e.target.value)}
          />
        </label>
        <RelayAccountFields value={account} onChange={setAccount} />
        <fieldset className="span-2">
          <legend>{t('sync.join.keyKind')}</legend>
          <label className="checkbox">
            <input type="radio" name="sync-key-kind" checked={!byRecovery} onChange={() => setByRecovery(false)} />
            {t('sync.join.withPassphrase')}
          </label>
          <label className="checkbox">
            <input type="radio" name="sync-key-kind" checked={byRecovery} onChange={() => setByRecovery(true)} />
            {t('sync.join.withRecovery')}
          </label>
        </fieldset>
        {byRecovery ? (
          <label className="span-2">
            {t('sync.join.recoveryCode')}
            <input
              required
              maxLength={200}
              autoComplete="off"
              spellCheck={false}
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          </label>
        ) : (
          <PassphraseField value={secret} onChange={setSecret} />
        )}
        <div className="form-actions span-2">
          <button type="submit" className="primary" disabled={join.busy}>
            {t('sync.join.submit')}
          </button>
        </div>
      </form>
      {join.busy && <Busy label={t('sync.join.working')} />}
      <ErrorNotice error={join.error} onDismiss={join.clearError} words={SYNC_ERROR_WORDS} />
    </article>
  );
}
