import type { RequestHandler } from 'express';
import { sendError } from './errors.ts';

/** The loopback names the server answers to: `127.0.0.1:<port>` and `localhost:<port>`. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

/** The interface's policy: scripts only from the app itself; inline styles for the charts' computed style attributes. */
const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
/** API answers are data, never a page: nothing may load from them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Every answer's headers (a Content-Security-Policy on each, whatever serves it: a static file such
 * as /index.html, the interface's fallback, an error), then the loopback checks: refuses a foreign Host (a DNS-rebinding page
 * reaching us under its own name) everywhere, and a foreign Origin on the API (another site's page
 * in the user's browser; scripts send no Origin). API answers are never stored by caches. One
 * middleware, not three: it runs before every request.
 */
export function loopbackGuard(port: () => number): RequestHandler {
  // made once per port (known only once listening), not per request
  let hosts = { port: -1, names: new Set<string>(), origins: new Set<string>() };
  return (req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    // Routing ignores letter case (`/API/auth/me` reaches the API), so these checks must too.
    const api = req.path.toLowerCase().startsWith('/api');
    res.setHeader('Content-Security-Policy', api ? API_CSP : RENDERER_CSP);
    if (api) res.setHeader('Cache-Control', 'no-store');
    if (hosts.port !== port()) hosts = { port: port(), names: allowedHosts(port()), origins: allowedOrigins(port()) };
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hosts.names.has(host)) {
      sendError(res, 'FORBIDDEN_HOST', 'This server only answers requests addressed to its own loopback address');
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && api && !hosts.origins.has(origin.toLowerCase())) {
      sendError(res, 'FORBIDDEN_ORIGIN', 'Requests from other web origins are not allowed');
      return;
    }
    next();
  };
}
