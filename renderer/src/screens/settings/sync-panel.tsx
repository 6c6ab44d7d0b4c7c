import { useEffect, useId, useState } from 'react';
import {
  createSyncInvite,
  getSyncStatus,
  leaveSyncGroup,
  syncNow,
  type SyncGroupCreated,
  type SyncInvite,
  type SyncResult,
  type SyncStatusDto,
} from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Facts } from '../../components/facts.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';
import { formatMoment } from '../../dates.ts';
import { RestoreConfirm } from './restore-confirm.tsx';
import { ShownOnce } from './shown-once.tsx';
import { CreateGroupForm, JoinGroupForm } from './sync-forms.tsx';
import { SYNC_ERROR_WORDS } from './sync-words.ts';

/** How often the status is read again while the panel is open (the app syncs in the background). */
const STATUS_REFRESH_MS = 4000;

/**
 * Settings → Sync: outside a group, the forms to create or join one; in a group, its status
 * (read again every few seconds), Sync now, an invite code for a household member, and leaving.
 */
export function SyncPanel() {
  const { t } = useI18n();
  const headingId = useId();
  const status = useLoader(getSyncStatus, []);
  const { reload } = status;
  const [recovery, setRecovery] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const timer = window.setInterval(reload, STATUS_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [reload]);

  const created = (result: SyncGroupCreated) => {
    setRecovery(result.recovery_code);
    setNotice(t('sync.create.done'));
    reload();
  };
  const joined = () => {
    setNotice(t('sync.join.done'));
    reload();
  };
  const left = () => {
    setRecovery(null);
    setNotice(t('sync.leave.done'));
    reload();
  };

  return (
    <article className="panel sync-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('sync.title')}</h2>
      <p className="hint">{t('sync.hint')}</p>
      {notice && (
        <p role="status" className="notice notice-ok">
          {notice}
        </p>
      )}
      {recovery && (
        <ShownOnce
          title={t('sync.recovery.title')}
          code={recovery}
          copyLabel={t('sync.recovery.copy')}
          warning={t('sync.recovery.warning')}
          onDismiss={() => setRecovery(null)}
        />
      )}
      {status.loading && !status.data && <Busy label={t('sync.loading')} />}
      <ErrorNotice error={status.error} words={SYNC_ERROR_WORDS} />
      {status.data &&
        (status.data.in_group ? (
          <GroupStatus status={status.data} onChanged={reload} onLeft={left} onAction={() => setNotice(null)} />
        ) : (
          <div className="two-columns">
            <CreateGroupForm onCreated={created} />
            <JoinGroupForm onJoined={joined} />
          </div>
        ))}
    </article>
  );
}

function GroupStatus({
  status,
  onChanged,
  onLeft,
  onAction,
}: {
  status: SyncStatusDto;
  onChanged: () => void;
  onLeft: () => void;
  onAction: () => void;
}) {
  const { t, language } = useI18n();
  const [result, setResult] = useState<SyncResult | null>(null);
  const [invite, setInvite] = useState<SyncInvite | null>(null);
  const [confirming, setConfirming] = useState(false);
  const sync = useAction(async () => {
    onAction();
    setResult(await syncNow());
    onChanged();
  });
  const makeInvite = useAction(async () => {
    onAction();
    setInvite(await createSyncInvite());
  });
  const leave = useAction(async () => {
    await leaveSyncGroup();
    setConfirming(false);
    onLeft();
  });

  const reachable =
    status.relay_reachable === null
      ? t('sync.status.unknown')
      : status.relay_reachable
        ? t('sync.status.reached')
        : t('sync.status.failed', { error: status.last_error ?? '' });
  return (
    <div className="stack">
      <Facts
        label={t('sync.status.label')}
        facts={[
          { label: t('sync.status.relay'), value: status.relay_url ?? '', testId: 'sync-relay' },
          {
            label: t('sync.status.lastSync'),
            value: status.last_sync_at ? formatMoment(status.last_sync_at, language) : t('sync.status.never'),
            testId: 'sync-last',
          },
          { label: t('sync.status.waiting'), value: status.changes_waiting, testId: 'sync-waiting' },
          { label: t('sync.status.reachable'), value: reachable, testId: 'sync-reachable' },
        ]}
      />
      {status.last_error && status.relay_reachable !== false && (
        <p role="alert" className="notice notice-error">
          {t('sync.status.lastError', { error: status.last_error })}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="primary" disabled={sync.busy} onClick={() => void sync.run()}>
          {t('sync.now')}
        </button>
        <button type="button" disabled={makeInvite.busy} onClick={() => void makeInvite.run()}>
          {t('sync.invite.make')}
        </button>
        <button
          type="button"
          className="danger"
          disabled={leave.busy}
          onClick={() => {
            leave.clearError();
            setConfirming(true);
          }}
        >
          {t('sync.leave.start')}
        </button>
      </div>
      {sync.busy && <Busy label={t('sync.syncing')} />}
      <ErrorNotice error={sync.error} onDismiss={sync.clearError} words={SYNC_ERROR_WORDS} />
      {result && !sync.busy && (
        <p role="status" className="notice notice-ok">
          {t('sync.synced', { sent: result.sent, received: result.received })}
        </p>
      )}
      {makeInvite.busy && <Busy label={t('sync.invite.working')} />}
      <ErrorNotice error={makeInvite.error} onDismiss={makeInvite.clearError} words={SYNC_ERROR_WORDS} />
      {invite && (
        <ShownOnce
          title={t('sync.invite.code')}
          code={invite.invite_code}
          copyLabel={t('sync.invite.copy')}
          warning={t('sync.invite.hint')}
          onDismiss={() => setInvite(null)}
        />
      )}
      {confirming && (
        <RestoreConfirm
          label={t('sync.leave.confirmLabel')}
          question={t('sync.leave.confirm')}
          confirmText={t('sync.leave.confirmButton')}
          busy={leave.busy}
          onConfirm={() => void leave.run()}
          onCancel={() => setConfirming(false)}
        />
      )}
      {leave.busy && <Busy label={t('sync.leave.working')} />}
      <ErrorNotice error={leave.error} onDismiss={leave.clearError} words={SYNC_ERROR_WORDS} />
    </div>
  );
}
