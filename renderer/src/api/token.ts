/**
 * The bearer token: in localStorage when the user chose "stay signed in", else in sessionStorage
 * (gone when the window closes), and in memory when storage is disabled.
 */

const TOKEN_KEY = 'personal-ledger.token';

function storage(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null; // storage disabled: the token then lives in memory only
  }
}

let memoryToken: string | null = storage('local')?.getItem(TOKEN_KEY) ?? storage('session')?.getItem(TOKEN_KEY) ?? null;
let remembered = storage('local')?.getItem(TOKEN_KEY) != null;
const endedListeners = new Set<(reason: string) => void>();

/** Whether a token is kept (a session may be resumed). */
export function hasToken(): boolean {
  return memoryToken !== null;
}

export function currentToken(): string | null {
  return memoryToken;
}

/** Whether the kept token was meant to outlive the window ("stay signed in"). */
export function stayedSignedIn(): boolean {
  return remembered;
}

export function keepToken(token: string, stay: boolean): void {
  memoryToken = token;
  remembered = stay;
  storage(stay ? 'local' : 'session')?.setItem(TOKEN_KEY, token);
  storage(stay ? 'session' : 'local')?.removeItem(TOKEN_KEY);
}

export function dropToken(): void {
  memoryToken = null;
  storage('local')?.removeItem(TOKEN_KEY);
  storage('session')?.removeItem(TOKEN_KEY);
}

/** Called with the server's reason when the session ends on its side (a 401). Returns an unsubscribe. */
export function onSessionEnded(listener: (reason: string) => void): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

/** The server refused the token: it is dropped and the app is told why. */
export function sessionEnded(reason: string): void {
  dropToken();
  for (const listener of endedListeners) listener(reason);
}
