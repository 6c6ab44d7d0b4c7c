import { useEffect, useRef } from 'react';
import { Busy } from '../../components/busy.tsx';
import { useI18n } from '../../i18n/index.ts';
import type { ChatMessage } from './use-advisor.ts';

/** A figure the server could not trace to the books comes wrapped in ⟦ ⟧ (server/features/chat/chat.grounding.ts). */
const UNVERIFIED = /(⟦[^⟦⟧\s][^⟦⟧]{0,59}⟧)/;

/** An answer's text with its unverified figures marked, each named as such for screen readers and on hover. */
function AnswerText({ text, label }: { text: string; label: string }) {
  return text.split(UNVERIFIED).map((part, i) =>
    i % 2 === 1 ? (
      <mark key={i} className="unverified" title={label}>
        {part.slice(1, -1)}
        <span className="visually-hidden"> ({label})</span>
      </mark>
    ) : (
      part
    ),
  );
}

/** The conversation, scrolled to its newest line; the answer being written shows "Thinking…" until it starts. */
export function ChatLog({ messages, streaming }: { messages: ChatMessage[]; streaming: boolean }) {
  const { t } = useI18n();
  const log = useRef<HTMLDivElement>(null);
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [messages]);
  return (
    <div className="chat-log" ref={log} role="log" aria-live="polite" aria-label={t('chat.conversation')}>
      {messages.length === 0 && <p className="hint">{t('chat.intro')}</p>}
      {messages.map((m) => (
        <div key={m.key} className={`bubble bubble-${m.role}`} data-role={m.role}>
          <span className="visually-hidden">{m.role === 'user' ? t('chat.you') : t('chat.advisor')}: </span>
          {m.role === 'assistant' ? <AnswerText text={m.content} label={t('chat.unverified')} /> : m.content}
          {m.role === 'assistant' && m.content === '' && streaming && <Busy inline label={t('chat.thinking')} />}
          {m.stopped && <span className="stopped-note">{t('chat.stopped')}</span>}
        </div>
      ))}
    </div>
  );
}
