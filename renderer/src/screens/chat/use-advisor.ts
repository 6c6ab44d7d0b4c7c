import { useCallback, useEffect, useRef, useState } from 'react';
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
import type { Language } from '../../i18n/index.ts';

export interface ChatMessage {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  stopped?: boolean;
}

let messageKey = 0;
const newKey = () => `m${++messageKey}`;

/**
 * The advisor panel's state and its calls to the server: the model's status, the suggested
 * questions (in the interface language), the kept sessions, and the conversation with the answer
 * streaming into its last message. Nothing is loaded before the panel is first opened; closing the
 * app stops an answer still streaming.
 */
export function useAdvisor({
  opened,
  language,
  onNewConversation,
}: {
  opened: boolean;
  language: Language;
  /** a new, empty conversation was started (the panel focuses the question box) */
  onNewConversation: () => void;
}) {
  const [status, setStatus] = useState<ModelStatus | null>(null);
  const [sessions, setSessions] = useState<ChatSession[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [streaming, setStreaming] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const abort = useRef<AbortController | null>(null);

  const refreshSessions = useCallback(() => chatSessions().then(setSessions, setError), []);

  useEffect(() => {
    if (!opened) return;
    chatStatus().then(setStatus, setError);
    void refreshSessions();
  }, [opened, refreshSessions]);

  useEffect(() => {
    if (!opened) return;
    chatSuggestions(language).then(setSuggestions, setError);
  }, [opened, language]);

  useEffect(() => () => abort.current?.abort(), []);

  const stream = async (message: string) => {
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

  /** Asks a question; false (and nothing asked) when it is blank or an answer is still streaming. */
  const ask = (question: string): boolean => {
    const message = question.trim();
    if (!message || streaming) return false;
    void stream(message);
    return true;
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
    onNewConversation();
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

  return {
    status,
    suggestions,
    sessions,
    sessionId,
    messages,
    streaming,
    error,
    clearError: () => setError(undefined),
    ask,
    stop,
    openSession,
    newConversation,
    removeSession,
  };
}
