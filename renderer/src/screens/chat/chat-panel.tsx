import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useI18n } from '../../i18n/index.ts';
import { ChatLog } from './chat-log.tsx';
import { SessionList } from './session-list.tsx';
import { useAdvisor } from './use-advisor.ts';
import { TEXT_LIMITS } from '../../../../server/contract/limits.ts';

/**
 * The advisor: answers stream in as they are written, Stop ends one, conversations are kept as
 * sessions, suggested questions follow the interface language, and a notice says when the local
 * model is not available (the built-in advisor answers then).
 */
export function ChatPanel({ id, open, onClose }: { id: string; open: boolean; onClose: () => void }) {
  const { t, language } = useI18n();
  const headingId = useId();
  const [text, setText] = useState('');
  const [opened, setOpened] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const advisor = useAdvisor({ opened, language, onNewConversation: () => input.current?.focus() });

  useEffect(() => {
    if (open && !opened) setOpened(true);
    if (open) input.current?.focus();
  }, [open, opened]);

  const send = (question: string) => {
    if (advisor.ask(question)) setText('');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(text);
  };

  const onInputKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send(text);
    }
  };

  const { status, suggestions, messages, streaming } = advisor;
  return (
    <aside id={id} className="chat-panel" aria-labelledby={headingId} hidden={!open}>
      <div className="panel-head">
        <h2 id={headingId}>{t('chat.title')}</h2>
        <button type="button" className="icon-button" aria-label={t('chat.close')} onClick={onClose}>
          ×
        </button>
      </div>
      {status && !status.available && (
        <div className="notice notice-warn" role="note" data-testid="model-unavailable">
          {t('chat.unavailable', { model: status.model })}
          <details className="error-details">
            <summary>{t('error.details')}</summary>
            <pre>{status.detail}</pre>
          </details>
        </div>
      )}
      <SessionList
        sessions={advisor.sessions}
        currentId={advisor.sessionId}
        disabled={streaming}
        onNew={advisor.newConversation}
        onOpen={(session) => void advisor.openSession(session)}
        onDelete={(session) => void advisor.removeSession(session)}
      />
      <ChatLog messages={messages} streaming={streaming} />
      {messages.length === 0 && suggestions.length > 0 && (
        <div className="suggestions" role="group" aria-label={t('chat.suggestions')}>
          {suggestions.map((s) => (
            <button key={s} type="button" className="chip" disabled={streaming} onClick={() => send(s)}>
              {s}
            </button>
          ))}
        </div>
      )}
      <ErrorNotice error={advisor.error} onDismiss={advisor.clearError} />
      <form className="chat-input" onSubmit={submit}>
        <textarea
          ref={input}
          rows={2}
          maxLength={TEXT_LIMITS.question}
          aria-label={t('chat.question')}
          placeholder={t('chat.placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onInputKeyDown}
        />
        {streaming ? (
          <button type="button" className="danger" onClick={advisor.stop}>
            {t('chat.stop')}
          </button>
        ) : (
          <button type="submit" className="primary" disabled={!text.trim()}>
            {t('chat.send')}
          </button>
        )}
      </form>
    </aside>
  );
}
