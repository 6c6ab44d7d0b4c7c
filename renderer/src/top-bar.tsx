import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { SignedInUser } from './api/index.ts';
import { useI18n } from './i18n/index.ts';
import { ROUTES, ROUTE_TITLES, type Route } from './router.ts';

/**
 * The header of the signed-in app: the name, the main navigation, the advisor toggle, the user.
 * Below 1000 px the navigation folds behind a "Menu" button that opens all of it at once.
 */
export function TopBar({
  route,
  onNavigate,
  chatOpen,
  onToggleChat,
  user,
  onSignOut,
}: {
  route: Route;
  onNavigate: (route: Route) => void;
  chatOpen: boolean;
  onToggleChat: () => void;
  user: SignedInUser;
  onSignOut: () => void;
}) {
  const { t } = useI18n();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  // the menu closes when the screen changes, whichever way it changed
  useEffect(() => setMenuOpen(false), [route]);

  // a plain click moves within the app; a modified one (new tab, new window) is left to the browser
  const go = (event: MouseEvent<HTMLAnchorElement>, target: Route) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    setMenuOpen(false);
    onNavigate(target);
  };

  const onNavKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && menuOpen) {
      setMenuOpen(false);
      menuButton.current?.focus();
    }
  };

  return (
    <header className="topbar">
      <a className="brand" href="/" onClick={(e) => go(e, '/')}>
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">{t('app.name')}</span>
      </a>
      <button
        ref={menuButton}
        type="button"
        className="menu-button"
        aria-expanded={menuOpen}
        aria-controls="main-nav"
        onClick={() => setMenuOpen((open) => !open)}
      >
        <span aria-hidden="true">☰</span> {t('nav.menu')}
      </button>
      <nav
        id="main-nav"
        className={menuOpen ? 'mainnav open' : 'mainnav'}
        aria-label={t('nav.label')}
        onKeyDown={onNavKeyDown}
      >
        {ROUTES.map((item) => (
          <a key={item} href={item} aria-current={item === route ? 'page' : undefined} onClick={(e) => go(e, item)}>
            {t(ROUTE_TITLES[item])}
          </a>
        ))}
      </nav>
      <div className="topbar-tools">
        <button
          type="button"
          className={chatOpen ? 'toggle on' : 'toggle'}
          aria-expanded={chatOpen}
          aria-controls="advisor-panel"
          onClick={onToggleChat}
        >
          {t('chat.toggle')}
        </button>
        <span className="user-name" title={user.email}>
          {user.name}
        </span>
        <button type="button" onClick={onSignOut}>
          {t('auth.signOut')}
        </button>
      </div>
    </header>
  );
}
