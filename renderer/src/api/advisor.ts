import { ApiError } from './api-error.ts';
import { answer, api, type Answer, type Schemas } from './client.ts';

export type ChatSession = Schemas['ChatSession'];
export type ModelStatus = Answer<'/api/chat/status', 'get'>;

export function chatStatus(): Promise<ModelStatus> {
  return answer(api.GET('/api/chat/status'));
}

export async function chatSessions(): Promise<ChatSession[]> {
  return (await answer(api.GET('/api/chat/history'))).sessions;
}

export async function chatSession(id: string): Promise<ChatSession | undefined> {
  return (await answer(api.GET('/api/chat/history', { params: { query: { session_id: id } } }))).sessions[0];
}

export async function deleteChatSession(id: string): Promise<void> {
  await api.DELETE('/api/chat/session/{id}', { params: { path: { id } } });
}

export async function chatSuggestions(language: 'en' | 'zh'): Promise<string[]> {
  return (await answer(api.GET('/api/chat/suggestions', { params: { query: { language } } }))).suggestions;
}

export interface ChatStreamResult {
  sessionId: string | null;
  /** true when the reader stopped it (the signal aborted) before the server finished */
  stopped: boolean;
}

/**
 * Asks the advisor and hands each piece of the answer to `onText` as it arrives. Aborting `signal`
 * (the Stop button) closes the stream; the server then stops the model and keeps what was said.
 */
export async function askAdvisor(
  message: string,
  sessionId: string | null,
  onText: (text: string) => void,
  signal: AbortSignal,
  onSession?: (sessionId: string) => void,
): Promise<ChatStreamResult> {
  let answered: { data?: ReadableStream<Uint8Array> | null; response: Response };
  try {
    answered = await api.POST('/api/chat', {
      body: sessionId ? { message, session_id: sessionId } : { message },
      parseAs: 'stream',
      signal,
    });
  } catch (error) {
    if (signal.aborted) return { sessionId, stopped: true };
    throw error;
  }
  const newSessionId = answered.response.headers.get('X-Session-Id') ?? sessionId;
  if (newSessionId) onSession?.(newSessionId);
  const reader = answered.data?.getReader();
  if (!reader) return { sessionId: newSessionId, stopped: false };
  const decoder = new TextDecoder('utf-8');
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text) onText(text);
    }
    const rest = decoder.decode();
    if (rest) onText(rest);
    return { sessionId: newSessionId, stopped: false };
  } catch (error) {
    if (signal.aborted) return { sessionId: newSessionId, stopped: true };
    throw new ApiError(
      0,
      `The answer was cut off (${error instanceof Error ? error.message : String(error)}).`,
      'NETWORK',
    );
  } finally {
    reader.releaseLock();
  }
}
