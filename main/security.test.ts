import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import {
  MIN_WINDOW_SIZE,
  contentSecurityPolicy,
  externalUrlToOpen,
  installContentsGuards,
  isAppUrl,
  navigationGuard,
  openExternalRequest,
  permissionDecision,
  windowOpenHandler,
  windowOptions,
  withContentSecurityPolicy,
  type GuardableContents,
} from './security.ts';

const APP = 'http://127.0.0.1:47615';

const HOSTILE_URLS = [
  'javascript:alert(1)',
  'JavaScript:alert(document.cookie)',
  'file:///etc/passwd',
  'file://C:/Windows/System32/calc.exe',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'ftp://example.com/file',
  'smb://attacker/share',
  'ms-msdt:/id PCWDiagnostic',
  'chrome://settings',
  'https://user:pass@example.com/',
  'https://user@example.com/',
  'not a url',
  'https://',
  '',
  ' https://example.com',
  'https://exa\nmple.com',
  `https://example.com/${'a'.repeat(3000)}`,
];

/** [readable label, URL] pairs, so a 3000-character URL does not become a 3000-character test name. */
const HOSTILE = HOSTILE_URLS.map(
  (url) => [url.length > 60 ? `${url.slice(0, 30)}… (${url.length} characters)` : JSON.stringify(url), url] as const,
);

describe('isAppUrl', () => {
  it('when the URL is on the app origin with any path, query or hash, then it is an app URL', () => {
    expect(isAppUrl(`${APP}/`, APP)).toBe(true);
    expect(isAppUrl(`${APP}/accounts/42?tab=ledger#row-3`, APP)).toBe(true);
    expect(isAppUrl(APP, `${APP}/`)).toBe(true);
  });

  it('when scheme, host or port differ, then it is not an app URL', () => {
    expect(isAppUrl('http://127.0.0.1:47616/', APP)).toBe(false);
    expect(isAppUrl('https://127.0.0.1:47615/', APP)).toBe(false);
    expect(isAppUrl('http://localhost:47615/', APP)).toBe(false);
    expect(isAppUrl('http://127.0.0.1/', APP)).toBe(false);
    expect(isAppUrl('http://127.0.0.1:47615.evil.com/', APP)).toBe(false);
  });

  it('when the URL carries credentials, is malformed or not http(s), then it is not an app URL', () => {
    expect(isAppUrl('http://me:secret@127.0.0.1:47615/', APP)).toBe(false);
    expect(isAppUrl('not a url', APP)).toBe(false);
    expect(isAppUrl(undefined, APP)).toBe(false);
    expect(isAppUrl('file:///tmp/x.html', 'file:///tmp')).toBe(false);
  });
});

describe('navigationGuard', () => {
  const guard = navigationGuard(APP);

  it('when navigating within the app origin, then navigation is allowed', () => {
    expect(guard(`${APP}/reports`)).toEqual({ action: 'allow' });
  });

  it('when navigating to another origin, then navigation is denied and a safe web link is offered to the OS browser', () => {
    expect(guard('https://example.com/help')).toEqual({ action: 'deny', openExternally: 'https://example.com/help' });
    expect(guard('http://127.0.0.1:8080/')).toEqual({ action: 'deny', openExternally: 'http://127.0.0.1:8080/' });
  });

  it.each(HOSTILE)('when navigating to %s, then navigation is denied and nothing is opened', (_label, url) => {
    expect(guard(url)).toEqual({ action: 'deny', openExternally: null });
  });
});

describe('externalUrlToOpen', () => {
  it('when the link is an external http(s) or mailto URL, then its normalised form is returned', () => {
    expect(externalUrlToOpen('https://example.com/a b'.replace(' ', '%20'), APP)).toBe('https://example.com/a%20b');
    expect(externalUrlToOpen('HTTP://Example.COM', APP)).toBe('http://example.com/');
    expect(externalUrlToOpen('mailto:support@example.com?subject=Ledger', APP)).toBe(
      'mailto:support@example.com?subject=Ledger',
    );
  });

  it('when the link points back at the app, then it is not opened externally', () => {
    expect(externalUrlToOpen(`${APP}/accounts`, APP)).toBeNull();
  });

  it('when the value is not a string or is an empty mailto, then it is refused', () => {
    expect(externalUrlToOpen(42, APP)).toBeNull();
    expect(externalUrlToOpen({ href: 'https://example.com' }, APP)).toBeNull();
    expect(externalUrlToOpen('mailto:', APP)).toBeNull();
  });

  it.each(HOSTILE)('when the link is %s, then it is refused', (_label, url) => {
    expect(externalUrlToOpen(url, APP)).toBeNull();
  });
});

describe('windowOpenHandler', () => {
  it('when a page opens an external https link, then no window is created and the OS browser gets the link', () => {
    const openExternal = vi.fn();
    expect(windowOpenHandler(APP, openExternal)({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/docs');
  });

  it('when a page opens a mailto link, then no window is created and the mail client gets the link', () => {
    const openExternal = vi.fn();
    expect(windowOpenHandler(APP, openExternal)({ url: 'mailto:me@example.com' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledExactlyOnceWith('mailto:me@example.com');
  });

  it('when a page opens an app URL in a new window, then it is denied and nothing is opened', () => {
    const openExternal = vi.fn();
    expect(windowOpenHandler(APP, openExternal)({ url: `${APP}/print` })).toEqual({ action: 'deny' });
    expect(openExternal).not.toHaveBeenCalled();
  });

  it.each(HOSTILE)('when a page opens %s, then it is denied and nothing is opened', (_label, url) => {
    const openExternal = vi.fn();
    expect(windowOpenHandler(APP, openExternal)({ url })).toEqual({ action: 'deny' });
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('when opening externally throws or rejects, then the handler still denies and reports the error', async () => {
    const onError = vi.fn();
    const throwing = windowOpenHandler(
      APP,
      () => {
        throw new Error('no browser');
      },
      onError,
    );
    expect(throwing({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    const rejecting = windowOpenHandler(APP, () => Promise.reject(new Error('no browser')), onError);
    expect(rejecting({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(2));
  });
});

describe('openExternalRequest (IPC)', () => {
  it('when the app page asks to open an external link, then the link is returned for opening', () => {
    expect(openExternalRequest(`${APP}/settings`, 'https://example.com', APP)).toBe('https://example.com/');
  });

  it('when the sender is not on the app origin or unknown, then nothing is opened', () => {
    expect(openExternalRequest('https://evil.example/', 'https://example.com', APP)).toBeNull();
    expect(openExternalRequest(null, 'https://example.com', APP)).toBeNull();
    expect(openExternalRequest(undefined, 'https://example.com', APP)).toBeNull();
  });

  it('when the argument is not a safe URL, then nothing is opened', () => {
    expect(openExternalRequest(`${APP}/`, 'file:///etc/passwd', APP)).toBeNull();
    expect(openExternalRequest(`${APP}/`, ['https://example.com'], APP)).toBeNull();
  });
});

describe('contentSecurityPolicy', () => {
  const directives = new Map(
    contentSecurityPolicy(APP)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values] as const),
  );

  it('when built, then scripts, connections and everything else come from the app origin only', () => {
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('form-action')).toEqual(["'self'"]);
  });

  it('when built, then only styles may be inline and images may be data: URLs', () => {
    expect(directives.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives.get('img-src')).toEqual(["'self'", 'data:']);
  });

  it('when built, then plugins, base rewriting and framing are forbidden', () => {
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('when built, then no directive allows eval, wildcards or remote hosts', () => {
    const policy = contentSecurityPolicy(APP);
    expect(policy).not.toMatch(/unsafe-eval|\*|https?:/);
  });

  it('when the origin is not an http(s) origin, then building the policy fails loudly', () => {
    expect(() => contentSecurityPolicy('file:///tmp')).toThrow(TypeError);
  });
});

describe('withContentSecurityPolicy', () => {
  const policy = contentSecurityPolicy(APP);

  it('when a response has no CSP, then ours is added and other headers are kept', () => {
    expect(withContentSecurityPolicy({ 'Content-Type': ['text/html'] }, policy)).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': [policy],
    });
    expect(withContentSecurityPolicy(undefined, policy)).toEqual({ 'Content-Security-Policy': [policy] });
  });

  it('when the server already sent a CSP, then both are kept (policies only add restrictions)', () => {
    const headers = withContentSecurityPolicy({ 'content-security-policy': ["default-src 'none'"] }, policy);
    expect(headers['Content-Security-Policy']).toEqual(["default-src 'none'", policy]);
    expect(headers['content-security-policy']).toBeUndefined();
  });

  it('when the same policy is already present, then it is not duplicated', () => {
    expect(
      withContentSecurityPolicy({ 'Content-Security-Policy': [policy] }, policy)['Content-Security-Policy'],
    ).toEqual([policy]);
  });
});

describe('permissionDecision', () => {
  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'hid', 'fullscreen', 'unknown'])(
    'when the app page requests %s, then it is denied',
    (permission) => {
      expect(permissionDecision(permission, `${APP}/`)).toBe(false);
    },
  );
});

describe('windowOptions', () => {
  const options = windowOptions('/app/dist/main/preload.cjs', { appVersion: '0.1.0' });
  const prefs = options.webPreferences ?? {};

  it('when built, then the renderer is sandboxed, isolated and has no Node', () => {
    expect(prefs.sandbox).toBe(true);
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });

  it('when built, then web security stays on and webviews are off', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
  });

  it('when built, then the preload is the given file and the version travels as an argument', () => {
    expect(prefs.preload).toBe('/app/dist/main/preload.cjs');
    expect(prefs.additionalArguments).toEqual(['--ledger-version=0.1.0']);
    expect(prefs.spellcheck).toBe(false);
  });

  it('when the version looks like an injection, then it is not passed on', () => {
    const prefsWithBadVersion = windowOptions('/p.cjs', { appVersion: '1 --inspect' }).webPreferences;
    expect(prefsWithBadVersion?.additionalArguments).toEqual([]);
  });

  it('when the screen is 1280×800, then the window fits it and may shrink to a phone-narrow width', () => {
    const fitted = windowOptions('/p.cjs', { workArea: { width: 1280, height: 770 } });
    expect(fitted.width).toBeLessThanOrEqual(1280);
    expect(fitted.height).toBeLessThanOrEqual(770);
    expect(fitted.minWidth).toBeLessThanOrEqual(400);
    expect(fitted.minHeight).toBeLessThanOrEqual(600);
    expect(fitted.show).toBe(false);
  });

  it('when the screen is tiny, then the window is never smaller than its minimum size', () => {
    const tiny = windowOptions('/p.cjs', { workArea: { width: 200, height: 100 } });
    expect(tiny.width).toBe(MIN_WINDOW_SIZE.width);
    expect(tiny.height).toBe(MIN_WINDOW_SIZE.height);
  });
});

class FakeContents extends EventEmitter implements GuardableContents {
  openHandler: ((details: { url: string }) => { action: 'deny' } | { action: 'allow' }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void {
    this.openHandler = handler;
  }
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    let prevented = false;
    this.emit(event, { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

describe('installContentsGuards', () => {
  it('when the server has not started yet, then every navigation and window.open is denied', () => {
    const contents = new FakeContents();
    const openExternal = vi.fn();
    installContentsGuards(contents, () => null, openExternal);
    expect(contents.navigate('will-navigate', `${APP}/`)).toBe(true);
    expect(contents.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('when a link navigates inside the app, then it proceeds; outside, it is stopped and handed to the OS browser', () => {
    const contents = new FakeContents();
    const openExternal = vi.fn();
    installContentsGuards(contents, () => APP, openExternal);
    expect(contents.navigate('will-navigate', `${APP}/journal`)).toBe(false);
    expect(contents.navigate('will-navigate', 'https://example.com/')).toBe(true);
    expect(openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/');
    expect(contents.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(openExternal).toHaveBeenCalledOnce();
  });

  it('when a response redirects away from the app, then it is stopped and nothing is opened', () => {
    const contents = new FakeContents();
    const openExternal = vi.fn();
    installContentsGuards(contents, () => APP, openExternal);
    expect(contents.navigate('will-redirect', 'https://example.com/')).toBe(true);
    expect(contents.navigate('will-redirect', `${APP}/login`)).toBe(false);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('when a page tries to attach a webview, then it is prevented', () => {
    const contents = new FakeContents();
    installContentsGuards(contents, () => APP, vi.fn());
    let prevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
  });
});

describe('purity of the policy modules', () => {
  it.each(['security.ts', 'settings.ts', 'launcher.ts', 'shutdown.ts', 'electron-binary.ts'])(
    'when %s is loaded in plain Node, then it does not import Electron at runtime (type imports only)',
    async (file) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(new URL(`./${file}`, import.meta.url), 'utf8');
      expect(source).not.toMatch(/^import(?!\s+type\b)[^;]*from\s+['"]electron['"]/m);
      expect(source).not.toMatch(/require\(\s*['"]electron['"]\s*\)/);
    },
  );
});
