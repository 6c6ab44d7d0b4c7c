import { useCallback, useEffect, useState } from 'react';
import type { MessageKey } from './i18n/index.ts';

/** The screens, by path (the server answers index.html for any of them), in the navigation's order. */
export const ROUTES = [
  '/',
  '/accounts',
  '/journal',
  '/reports',
  '/statements',
  '/budget',
  '/schedules',
  '/investments',
  '/prices',
  '/history',
  '/settings',
] as const;
export type Route = (typeof ROUTES)[number];

/** Each screen's name in the navigation and the window title. */
export const ROUTE_TITLES: Record<Route, MessageKey> = {
  '/': 'nav.dashboard',
  '/accounts': 'nav.accounts',
  '/journal': 'nav.journal',
  '/reports': 'nav.reports',
  '/statements': 'nav.statements',
  '/budget': 'nav.budget',
  '/schedules': 'nav.schedules',
  '/investments': 'nav.investments',
  '/prices': 'nav.prices',
  '/history': 'nav.history',
  '/settings': 'nav.settings',
};

/**
 * Where the app is: a screen, and for an account's register (`/accounts/<id>`) the account; the
 * query (`?start_date=…`) carries what a screen opens with, such as a register's dates.
 */
export interface Place {
  route: Route;
  /** the account whose register is open */
  accountId: string | null;
  query: URLSearchParams;
}

/** A path within the app: a screen, an account's register, either with a query. */
export type AppPath = Route | `${Route}?${string}` | `/accounts/${string}`;
export type Navigate = (to: AppPath) => void;

/** The path of an account's register, opening on a date range when given. */
export function registerPath(accountId: string, range: { start?: string; end?: string } = {}): AppPath {
  const query = new URLSearchParams();
  if (range.start) query.set('start_date', range.start);
  if (range.end) query.set('end_date', range.end);
  const text = query.toString();
  return `/accounts/${encodeURIComponent(accountId)}${text ? `?${text}` : ''}`;
}

function current(): Place {
  const path = window.location.pathname.replace(/\/+$/, '') || '/';
  const query = new URLSearchParams(window.location.search);
  const register = /^\/accounts\/([^/]+)$/.exec(path);
  if (register) return { route: '/accounts', accountId: decodeURIComponent(register[1]!), query };
  const route = (ROUTES as readonly string[]).includes(path) ? (path as Route) : '/';
  return { route, accountId: null, query };
}

/** A tiny history router: a handful of screens and one with a parameter need no more. */
export function useRoute(): [Place, Navigate] {
  const [place, setPlace] = useState<Place>(current);
  useEffect(() => {
    const onPop = () => setPlace(current());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to: AppPath) => {
    if (to !== window.location.pathname + window.location.search) window.history.pushState(null, '', to);
    setPlace(current());
    window.scrollTo?.(0, 0);
  }, []);
  return [place, navigate];
}
