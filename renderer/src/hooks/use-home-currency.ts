import { useCallback, useEffect, useState } from 'react';
import { getSettings, setHomeCurrency } from '../api/index.ts';
import { localeCurrency } from '../currencies.ts';

export interface HomeCurrency {
  /** the home currency (GET /api/settings); undefined while it loads */
  home: string | undefined;
  /** whether the user chose it (else the server's default: the currency most accounts are in) */
  confirmed: boolean;
  change: (currency: string) => Promise<void>;
}

/** The user's home currency and a way to change it. */
export function useHomeCurrency(): HomeCurrency {
  const [home, setHome] = useState<string | undefined>(undefined);
  const [confirmed, setConfirmed] = useState(true);
  useEffect(() => {
    let live = true;
    getSettings().then(
      (s) => {
        if (!live) return;
        setHome(s.home_currency);
        setConfirmed(s.home_currency_set);
      },
      () => live && setHome('USD'),
    );
    return () => {
      live = false;
    };
  }, []);
  const change = useCallback(async (currency: string) => {
    const s = await setHomeCurrency(currency);
    setHome(s.home_currency);
    setConfirmed(s.home_currency_set);
  }, []);
  return { home, confirmed, change };
}

/** A new ledger's currency before the user chose one: their browser's region's (zh-CN → CNY). */
export function browserCurrency(): string {
  return localeCurrency(navigator.language);
}

/**
 * A report as shown in the home currency: its `converted` group as the one group, so that the
 * screens built for per-currency groups show it unchanged.
 */
export function inHomeCurrency<G, R extends { currencies: G[]; converted?: G | undefined }>(report: R): R {
  return { ...report, currencies: report.converted ? [report.converted] : [] };
}
