import type { ChatSession } from '../../api/index.ts';
import { useI18n } from '../../i18n/index.ts';

/** The kept conversations, folded: start a new one, reopen one, delete one (not while an answer streams). */
export function SessionList({
  sessions,
  currentId,
  disabled,
  onNew,
  onOpen,
  onDelete,
}: {
  sessions: ChatSession[];
  currentId: string | null;
  disabled: boolean;
  onNew: () => void;
  onOpen: (session: ChatSession) => void;
  onDelete: (session: ChatSession) => void;
}) {
  const { t } = useI18n();
  return (
    <details className="sessions">
      <summary>{t('chat.sessions', { count: sessions.length })}</summary>
      <button type="button" className="link" onClick={onNew} disabled={disabled}>
        {t('chat.newConversation')}
      </button>
      {sessions.length === 0 ? (
        <p className="hint">{t('chat.noSessions')}</p>
      ) : (
        <ul className="session-list">
          {sessions.map((s) => (
            <li key={s.id} className={s.id === currentId ? 'current' : undefined}>
              <button
                type="button"
                className="link"
                disabled={disabled}
                aria-current={s.id === currentId ? 'true' : undefined}
                onClick={() => onOpen(s)}
              >
                {s.title}
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={t('chat.deleteSession', { title: s.title })}
                disabled={disabled}
                onClick={() => onDelete(s)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
