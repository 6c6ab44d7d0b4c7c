import type { z } from 'zod';
import type { chatSession as chatSessionSchema, modelStatus } from '../../../server/contract/chat.ts';
import { ApiError } from './api-error.ts';
import { json, send } from './http.ts';

export type ChatSession = z.infer<typeof chatSessionSchema>;
export type ModelStatus = z.infer<typeof modelStatus>;

export function chatStatus(): Promise<ModelStatus> {
  return json('GET', '/api/chat/status');
}

export async function chatSessions(): Promise<ChatSession[]> {
  return (await json<{ sessions: ChatSession[] }>('GET', '/api/chat/history')).sessions;
}

export async function chatSession(id: string): Promise<ChatSession | undefined> {
  return (await json<{ sessions: ChatSession[] }>('GET', '/api/chat/history', { query: { session_id: id } }))
    .sessions[0];
}

export function deleteChatSession(id: string): Promise<void> {
  return json('DELETE', `/api/chat/session/${encodeURIComponent(id)}`);
}

export async function chatSuggestions(language: 'en' | 'zh'): Promise<string[]> {
  return (await json<{ suggestions: string[] }>('GET', '/api/chat/suggestions', { query: { language } })).suggestions;
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
  let response: Response;
  try {
    response = await send('POST', '/api/chat', {
      json: sessionId ? { message, session_id: sessionId } : { message },
      signal,
    });
  } catch (error) {
    if (signal.aborted) return { sessionId, stopped: true };
    throw error;
  }
  const newSessionId = response.headers.get('X-Session-Id') ?? sessionId;
  if (newSessionId) onSession?.(newSessionId);
  const reader = response.body?.getReader();
  if (!reader) {
    onText(await response.text());
    return { sessionId: newSessionId, stopped: false };
  }
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
