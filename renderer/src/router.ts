import { useCallback, useEffect, useState } from 'react';

/** The screens, by path (the server answers index.html for any of them). */
export const ROUTES = ['/', '/accounts', '/journal', '/statements', '/prices', '/settings'] as const;
export type Route = (typeof ROUTES)[number];

function current(): Route {
  const path = window.location.pathname.replace(/\/+$/, '') || '/';
  return (ROUTES as readonly string[]).includes(path) ? (path as Route) : '/';
}

/** A tiny history router: six screens need no more. */
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
