import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  askAdvisor,
  chatSession,
  chatSessions,
  chatStatus,
  chatSuggestions,
  deleteChatSession,
  type ChatSession,
  type ModelStatus,
} from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useI18n } from '../../i18n/index.ts';

interface Message {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  stopped?: boolean;
}

let messageKey = 0;
const newKey = () => `m${++messageKey}`;

/**
 * The advisor: answers stream in as they are written, Stop ends one, conversations are kept as
 * sessions, suggested questions follow the interface language, and a notice says when the local
 * model is not available (the built-in advisor answers then).
 */
export function ChatPanel({ id, open, onClose }: { id: string; open: boolean; onClose: () => void }) {
  const { t, language } = useI18n();
  const headingId = useId();
  const [status, setStatus] = useState<ModelStatus | null>(null);
  const [sessions, setSessions] = useState<ChatSession[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [streaming, setStreaming] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [opened, setOpened] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const log = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);

  const refreshSessions = useCallback(() => chatSessions().then(setSessions, setError), []);

  useEffect(() => {
    if (open && !opened) setOpened(true);
    if (open) input.current?.focus();
  }, [open, opened]);

  useEffect(() => {
    if (!opened) return;
    chatStatus().then(setStatus, setError);
    void refreshSessions();
  }, [opened, refreshSessions]);

  useEffect(() => {
    if (!opened) return;
    chatSuggestions(language).then(setSuggestions, setError);
  }, [opened, language]);

  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [messages]);

  useEffect(() => () => abort.current?.abort(), []);

  const send = async (question: string) => {
    const message = question.trim();
    if (!message || streaming) return;
    setText('');
    setError(undefined);
    setStreaming(true);
    setMessages((all) => [
      ...all,
      { key: newKey(), role: 'user', content: message },
      { key: newKey(), role: 'assistant', content: '' },
    ]);
    const controller = new AbortController();
    abort.current = controller;
    const appendToAnswer = (piece: string) =>
      setMessages((all) => {
        const last = all[all.length - 1];
        return last ? [...all.slice(0, -1), { ...last, content: last.content + piece }] : all;
      });
    try {
      const result = await askAdvisor(message, sessionId, appendToAnswer, controller.signal, setSessionId);
      if (result.stopped) {
        setMessages((all) => {
          const last = all[all.length - 1];
          return last ? [...all.slice(0, -1), { ...last, stopped: true }] : all;
        });
      }
    } catch (failure) {
      setError(failure);
    } finally {
      abort.current = null;
      setStreaming(false);
      void refreshSessions();
    }
  };

  const stop = () => abort.current?.abort();

  const openSession = async (session: ChatSession) => {
    if (streaming) return;
    setError(undefined);
    try {
      const full = await chatSession(session.id);
      setSessionId(session.id);
      setMessages((full?.messages ?? []).map((m) => ({ key: m.id, role: m.role, content: m.content })));
    } catch (failure) {
      setError(failure);
    }
  };

  const newConversation = () => {
    if (streaming) return;
    setSessionId(null);
    setMessages([]);
    input.current?.focus();
  };

  const removeSession = async (session: ChatSession) => {
    setError(undefined);
    try {
      await deleteChatSession(session.id);
      if (session.id === sessionId) newConversation();
      await refreshSessions();
    } catch (failure) {
      setError(failure);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(text);
  };

  const onInputKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send(text);
    }
  };

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
          {t('chat.unavailable', { model: status.model })} <span className="muted">{status.detail}</span>
        </div>
      )}
      <details className="sessions">
        <summary>{t('chat.sessions', { count: sessions.length })}</summary>
        <button type="button" className="link" onClick={newConversation} disabled={streaming}>
          {t('chat.newConversation')}
        </button>
        {sessions.length === 0 ? (
          <p className="hint">{t('chat.noSessions')}</p>
        ) : (
          <ul className="session-list">
            {sessions.map((s) => (
              <li key={s.id} className={s.id === sessionId ? 'current' : undefined}>
                <button
                  type="button"
                  className="link"
                  disabled={streaming}
                  aria-current={s.id === sessionId ? 'true' : undefined}
                  onClick={() => void openSession(s)}
                >
                  {s.title}
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('chat.deleteSession', { title: s.title })}
                  disabled={streaming}
                  onClick={() => void removeSession(s)}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
      </details>
      <div className="chat-log" ref={log} role="log" aria-live="polite" aria-label={t('chat.conversation')}>
        {messages.length === 0 && <p className="hint">{t('chat.intro')}</p>}
        {messages.map((m) => (
          <div key={m.key} className={`bubble bubble-${m.role}`} data-role={m.role}>
            <span className="visually-hidden">{m.role === 'user' ? t('chat.you') : t('chat.advisor')}: </span>
            {m.content}
            {m.role === 'assistant' && m.content === '' && streaming && <Busy inline label={t('chat.thinking')} />}
            {m.stopped && <span className="stopped-note">{t('chat.stopped')}</span>}
          </div>
        ))}
      </div>
      {messages.length === 0 && suggestions.length > 0 && (
        <div className="suggestions" role="group" aria-label={t('chat.suggestions')}>
          {suggestions.map((s) => (
            <button key={s} type="button" className="chip" disabled={streaming} onClick={() => void send(s)}>
              {s}
            </button>
          ))}
        </div>
      )}
      <ErrorNotice error={error} onDismiss={() => setError(undefined)} />
      <form className="chat-input" onSubmit={submit}>
        <textarea
          ref={input}
          rows={2}
          maxLength={4000}
          aria-label={t('chat.question')}
          placeholder={t('chat.placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onInputKeyDown}
        />
        {streaming ? (
          <button type="button" className="danger" onClick={stop}>
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
