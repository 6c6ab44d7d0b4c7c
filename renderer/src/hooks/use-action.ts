import { useCallback, useState } from 'react';

export interface Action<A extends unknown[]> {
  run: (...args: A) => Promise<boolean>;
  busy: boolean;
  error: unknown;
  clearError: () => void;
}

/** A user action that calls the server: busy while it runs, its error kept for the screen to show. */
export function useAction<A extends unknown[]>(act: (...args: A) => Promise<unknown>): Action<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(undefined);
      try {
        await act(...args);
        return true;
      } catch (failure) {
        setError(failure);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [act],
  );
  const clearError = useCallback(() => setError(undefined), []);
  return { run, busy, error, clearError };
}
