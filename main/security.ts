/**
 * Security policy of the desktop shell, as pure functions.
 *
 * Nothing here imports Electron at runtime (type-only imports are erased), so every
 * guard is unit-tested in plain Node with injected side effects. `main/index.ts` only
 * wires these decisions to Electron's events.
 */
import type { BrowserWindowConstructorOptions, WindowOpenHandlerResponse } from 'electron';

/** The one IPC channel the preload may invoke; `main/preload.ts` repeats it (sandboxed preloads cannot import). */
export const OPEN_EXTERNAL_CHANNEL = 'ledger:open-external';

/** Prefix of the renderer command-line argument that carries the app version to the preload. */
export const VERSION_ARGUMENT_PREFIX = '--ledger-version=';

const MAX_EXTERNAL_URL_LENGTH = 2048;

function parseUrl(raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length === 0) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** The origin (`scheme://host:port`) of an http(s) URL, or null when it is not one. */
function httpOrigin(raw: string): string | null {
  const url = parseUrl(raw);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  return url.origin;
}

/** True when `url` is an http(s) URL on exactly the app's origin (scheme, host and port) without credentials. */
export function isAppUrl(url: unknown, appOrigin: string): boolean {
  const parsed = parseUrl(url);
  const origin = httpOrigin(appOrigin);
  if (parsed === null || origin === null) return false;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  return parsed.origin === origin;
}

/**
 * The normalised URL to hand to the OS browser/mail client, or null when the URL must not be opened:
 * not a string, too long, containing whitespace or control characters, malformed, a scheme other than
 * http, https or mailto (so never javascript:, file:, data:, custom protocols), with credentials,
 * without a host, or pointing back at the app itself.
 */
export function externalUrlToOpen(raw: unknown, appOrigin: string): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_EXTERNAL_URL_LENGTH) return null;
  // The URL parser silently drops tabs/newlines and trims spaces; a link that needs that is not one we open.
  if (/[\s\u0000-\u001f\u007f]/u.test(raw)) return null;
  const url = parseUrl(raw);
  if (url === null) return null;
  if (url.protocol === 'mailto:') {
    return url.pathname.length > 0 ? url.href : null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  if (url.hostname === '') return null;
  if (isAppUrl(url.href, appOrigin)) return null;
  return url.href;
}

export type NavigationDecision = { action: 'allow' } | { action: 'deny'; openExternally: string | null };

/**
 * Decides `will-navigate` / `will-redirect`: the window only ever shows the app origin. A plain link to
 * an external http(s)/mailto address is denied in the window and reported as `openExternally`, so the
 * caller can hand it to the OS browser; everything else is simply denied.
 */
export function navigationGuard(appOrigin: string): (url: string) => NavigationDecision {
  return (url) => {
    if (isAppUrl(url, appOrigin)) return { action: 'allow' };
    return { action: 'deny', openExternally: externalUrlToOpen(url, appOrigin) };
  };
}

export type OpenExternal = (url: string) => unknown;

/** Calls `openExternal` and swallows (reports) both a throw and a rejected promise: a guard never crashes main. */
function callOpenExternal(openExternal: OpenExternal, url: string, onError?: (error: unknown) => void): void {
  try {
    const result = openExternal(url);
    if (result instanceof Promise) result.catch((error: unknown) => onError?.(error));
  } catch (error) {
    onError?.(error);
  }
}

/**
 * `setWindowOpenHandler`: never opens an Electron window. Valid external http(s)/mailto links go to the
 * injected `openExternal` (the OS browser); everything else is dropped.
 */
export function windowOpenHandler(
  appOrigin: string,
  openExternal: OpenExternal,
  onError?: (error: unknown) => void,
): (details: { url: string }) => WindowOpenHandlerResponse {
  return ({ url }) => {
    const target = externalUrlToOpen(url, appOrigin);
    if (target !== null) callOpenExternal(openExternal, target, onError);
    return { action: 'deny' };
  };
}

/**
 * Decides an `openExternal(url)` call coming over IPC: the sender must be a frame on the app origin and the
 * URL must pass the same guard as links. Returns the URL to open, or null.
 */
export function openExternalRequest(
  senderUrl: string | null | undefined,
  url: unknown,
  appOrigin: string,
): string | null {
  if (typeof senderUrl !== 'string' || !isAppUrl(senderUrl, appOrigin)) return null;
  return externalUrlToOpen(url, appOrigin);
}

/** The Content-Security-Policy for every response shown in the window. `appOrigin` must be an http(s) origin. */
export function contentSecurityPolicy(appOrigin: string): string {
  if (httpOrigin(appOrigin) === null) throw new TypeError(`Not an http(s) origin: ${appOrigin}`);
  // 'self' is the app origin (the local server). Inline styles are allowed for the chart library's
  // computed style attributes; scripts stay strictly 'self'.
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Response headers with our CSP added. A CSP the server already sent is kept: several policies are all
 * enforced, so adding ours can only tighten, never loosen.
 */
export function withContentSecurityPolicy(
  responseHeaders: Record<string, string[] | string> | undefined,
  policy: string,
): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  const existing: string[] = [];
  for (const [name, value] of Object.entries(responseHeaders ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    if (name.toLowerCase() === 'content-security-policy') existing.push(...values);
    else headers[name] = values;
  }
  headers['Content-Security-Policy'] = existing.includes(policy) ? existing : [...existing, policy];
  return headers;
}

/**
 * Every permission request or check (camera, notifications, geolocation, clipboard read, HID, …) is
 * denied, whatever the origin: a bookkeeping window needs none of them.
 */
export function permissionDecision(_permission: string, _requestingUrl?: string): boolean {
  return false;
}

export interface WorkArea {
  width: number;
  height: number;
}

export interface WindowOptionsExtras {
  /** Exposed to the renderer as `ledgerDesktop.version` through the preload's command line. */
  appVersion?: string;
  /** The primary display's work area, so the first window fits a 1280×800 screen. */
  workArea?: WorkArea;
}

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 800 } as const;
export const MIN_WINDOW_SIZE = { width: 360, height: 480 } as const;

function fit(preferred: number, available: number | undefined, minimum: number): number {
  if (available === undefined || !Number.isFinite(available) || available <= 0) return preferred;
  return Math.max(minimum, Math.min(preferred, Math.floor(available)));
}

/** BrowserWindow options: sandboxed, isolated renderer without Node, sized for 1280×800 down to phone-narrow. */
export function windowOptions(preloadPath: string, extras: WindowOptionsExtras = {}): BrowserWindowConstructorOptions {
  const additionalArguments =
    extras.appVersion !== undefined && /^[0-9A-Za-z.+-]{1,64}$/.test(extras.appVersion)
      ? [`${VERSION_ARGUMENT_PREFIX}${extras.appVersion}`]
      : [];
  return {
    title: 'Personal Ledger',
    width: fit(DEFAULT_WINDOW_SIZE.width, extras.workArea?.width, MIN_WINDOW_SIZE.width),
    height: fit(DEFAULT_WINDOW_SIZE.height, extras.workArea?.height, MIN_WINDOW_SIZE.height),
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Chromium's spellchecker downloads Hunspell dictionaries from a Google CDN on Windows and Linux;
      // a local-first ledger makes no network requests of its own, so it stays off.
      spellcheck: false,
      additionalArguments,
    },
  };
}

/** The parts of Electron's WebContents that the guards attach to (structural, so tests pass a fake). */
export interface GuardableContents {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { url: string; preventDefault(): void }) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenHandlerResponse): void;
}

/**
 * Attaches the navigation, redirect, window.open and webview guards to one webContents. `appOrigin`
 * is read at event time (the server's port is only known once it listens); until then all navigation
 * is denied.
 */
export function installContentsGuards(
  contents: GuardableContents,
  getAppOrigin: () => string | null,
  openExternal: OpenExternal,
  onError?: (error: unknown) => void,
): void {
  const onNavigate = (event: { url: string; preventDefault(): void }): void => {
    const origin = getAppOrigin();
    const decision: NavigationDecision =
      origin === null ? { action: 'deny', openExternally: null } : navigationGuard(origin)(event.url);
    if (decision.action === 'allow') return;
    event.preventDefault();
    if (decision.openExternally !== null) callOpenExternal(openExternal, decision.openExternally, onError);
  };
  contents.on('will-navigate', onNavigate);
  contents.on('will-redirect', (event) => {
    const origin = getAppOrigin();
    // A redirect is never a user's click: deny it without opening anything.
    if (origin === null || !isAppUrl(event.url, origin)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler((details) => {
    const origin = getAppOrigin();
    if (origin === null) return { action: 'deny' };
    return windowOpenHandler(origin, openExternal, onError)(details);
  });
}
