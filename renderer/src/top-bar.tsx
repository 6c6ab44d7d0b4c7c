import type { MouseEvent } from 'react';
import type { SignedInUser } from './api/index.ts';
import { LanguageSwitch } from './components/language-switch.tsx';
import { useI18n } from './i18n/index.ts';
import { ROUTES, ROUTE_TITLES, type Route } from './router.ts';

/** The header of the signed-in app: the name, the main navigation, the language, the advisor toggle, the user. */
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

  // a plain click moves within the app; a modified one (new tab, new window) is left to the browser
  const go = (event: MouseEvent<HTMLAnchorElement>, target: Route) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    onNavigate(target);
  };

  return (
    <header className="topbar">
      <a className="brand" href="/" onClick={(e) => go(e, '/')}>
        <span className="brand-mark" aria-hidden="true" />
        {t('app.name')}
      </a>
      <nav className="mainnav" aria-label={t('nav.label')}>
        {ROUTES.map((item) => (
          <a key={item} href={item} aria-current={item === route ? 'page' : undefined} onClick={(e) => go(e, item)}>
            {t(ROUTE_TITLES[item])}
          </a>
        ))}
      </nav>
      <div className="topbar-tools">
        <LanguageSwitch />
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
