import { useCallback, useEffect, useState } from 'react';
import type { MessageKey } from './i18n/index.ts';

/** The screens, by path (the server answers index.html for any of them), in the navigation's order. */
export const ROUTES = [
  '/',
  '/accounts',
  '/journal',
  '/statements',
  '/budget',
  '/schedules',
  '/prices',
  '/settings',
] as const;
export type Route = (typeof ROUTES)[number];

/** Each screen's name in the navigation and the window title. */
export const ROUTE_TITLES: Record<Route, MessageKey> = {
  '/': 'nav.dashboard',
  '/accounts': 'nav.accounts',
  '/journal': 'nav.journal',
  '/statements': 'nav.statements',
  '/budget': 'nav.budget',
  '/schedules': 'nav.schedules',
  '/prices': 'nav.prices',
  '/settings': 'nav.settings',
};

function current(): Route {
  const path = window.location.pathname.replace(/\/+$/, '') || '/';
  return (ROUTES as readonly string[]).includes(path) ? (path as Route) : '/';
}

/** A tiny history router: a handful of screens need no more. */
export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState<Route>(current);
  useEffect(() => {
    const onPop = () => setRoute(current());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((next: Route) => {
    if (next !== current()) window.history.pushState(null, '', next);
    setRoute(next);
  }, []);
  return [route, navigate];
}
