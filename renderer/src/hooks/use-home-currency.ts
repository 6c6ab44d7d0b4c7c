import { useCallback, useEffect, useState } from 'react';
import { getSettings, setHomeCurrency } from '../api/index.ts';

/** The user's home currency (GET /api/settings) and a way to change it. */
export function useHomeCurrency(): { home: string | undefined; change: (currency: string) => Promise<void> } {
  const [home, setHome] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    getSettings().then(
      (s) => live && setHome(s.home_currency),
      () => live && setHome('USD'),
    );
    return () => {
      live = false;
    };
  }, []);
  const change = useCallback(async (currency: string) => {
    const s = await setHomeCurrency(currency);
    setHome(s.home_currency);
  }, []);
  return { home, change };
}

/**
 * A report as shown in the home currency: its `converted` group as the one group, so that the
 * screens built for per-currency groups show it unchanged.
 */
export function inHomeCurrency<G, R extends { currencies: G[]; converted?: G | undefined }>(report: R): R {
  return { ...report, currencies: report.converted ? [report.converted] : [] };
}
