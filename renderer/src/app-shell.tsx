import { useEffect, useState, type MouseEvent } from 'react';
import type { SignedInUser } from './api.ts';
import { LanguageSwitch } from './components/language-switch.tsx';
import { useI18n, type MessageKey } from './i18n.tsx';
import { useRoute, type Route } from './router.ts';
import { AccountsScreen } from './screens/accounts/accounts-screen.tsx';
import { ChatPanel } from './screens/chat/chat-panel.tsx';
import { DashboardScreen } from './screens/dashboard/dashboard-screen.tsx';
import { JournalScreen } from './screens/journal/journal-screen.tsx';
import { PricesScreen } from './screens/prices/prices-screen.tsx';
import { SettingsScreen } from './screens/settings/settings-screen.tsx';
import { StatementsScreen } from './screens/statements/statements-screen.tsx';

const NAV: { route: Route; label: MessageKey }[] = [
  { route: '/', label: 'nav.dashboard' },
  { route: '/accounts', label: 'nav.accounts' },
  { route: '/journal', label: 'nav.journal' },
  { route: '/statements', label: 'nav.statements' },
  { route: '/prices', label: 'prices.nav' },
  { route: '/settings', label: 'nav.settings' },
];

/** The signed-in app: header with navigation, the current screen, the advisor panel. */
export function AppShell({ user, onSignOut }: { user: SignedInUser; onSignOut: () => void }) {
  const { t } = useI18n();
  const [route, navigate] = useRoute();
  const [chatOpen, setChatOpen] = useState(false);
  const current = NAV.find((n) => n.route === route) ?? NAV[0]!;

  useEffect(() => {
    document.title = `${t(current.label)} · ${t('app.name')}`;
  }, [current, t]);

  const go = (event: MouseEvent<HTMLAnchorElement>, target: Route) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(target);
  };

  return (
    <div className={chatOpen ? 'shell shell-with-chat' : 'shell'}>
      <header className="topbar">
        <a className="brand" href="/" onClick={(e) => go(e, '/')}>
          <span className="brand-mark" aria-hidden="true" />
          {t('app.name')}
        </a>
        <nav className="mainnav" aria-label={t('nav.label')}>
          {NAV.map((item) => (
            <a
              key={item.route}
              href={item.route}
              aria-current={item.route === route ? 'page' : undefined}
              onClick={(e) => go(e, item.route)}
            >
              {t(item.label)}
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
            onClick={() => setChatOpen((o) => !o)}
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
      <main className="content" id="main">
        {route === '/' && <DashboardScreen onNavigate={navigate} />}
        {route === '/accounts' && <AccountsScreen />}
        {route === '/journal' && <JournalScreen onNavigate={navigate} />}
        {route === '/statements' && <StatementsScreen onNavigate={navigate} />}
        {route === '/prices' && <PricesScreen />}
        {route === '/settings' && <SettingsScreen onNavigate={navigate} />}
      </main>
      {/* kept mounted while closed, so that an answer keeps streaming and the conversation stays */}
      <ChatPanel id="advisor-panel" open={chatOpen} onClose={() => setChatOpen(false)} />
    </div>
  );
}
