/**
 * Quitting without losing writes: Electron's `will-quit` does not wait for promises, so the first
 * `will-quit` is cancelled, the server is closed (in-flight requests finish, databases close), and
 * then the app quits for real. A close that hangs is given up after a timeout so the app never
 * refuses to quit.
 */
export interface QuitCoordinatorDeps {
  /** Closes the server; resolves immediately when it never started. */
  close(): Promise<void>;
  /** Asks the app to quit again (emits `will-quit` a second time, which then passes). */
  quit(): void;
  log(message: string): void;
  timeoutMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
}

export type QuitState = 'running' | 'closing' | 'closed';

export interface QuitCoordinator {
  /** Handler for `will-quit` (and `before-quit` if wanted): cancels the quit until the server is closed. */
  onQuitRequested(event: { preventDefault(): void }): void;
  readonly state: QuitState;
}

export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;

export function createQuitCoordinator(deps: QuitCoordinatorDeps): QuitCoordinator {
  let state: QuitState = 'running';
  const setTimer = deps.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms).unref());
  const finish = (): void => {
    if (state === 'closed') return;
    state = 'closed';
    deps.quit();
  };
  return {
    get state() {
      return state;
    },
    onQuitRequested(event) {
      if (state === 'closed') return; // the server is closed: let this quit through
      event.preventDefault();
      if (state === 'closing') return;
      state = 'closing';
      setTimer(() => {
        if (state !== 'closing') return;
        deps.log('The ledger server did not close in time; quitting anyway.');
        finish();
      }, deps.timeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
      let closing: Promise<void>;
      try {
        closing = deps.close();
      } catch (error) {
        closing = Promise.reject(error);
      }
      closing.then(finish, (error: unknown) => {
        deps.log(`Error while closing the ledger server: ${error instanceof Error ? error.message : String(error)}`);
        finish();
      });
    },
  };
}
