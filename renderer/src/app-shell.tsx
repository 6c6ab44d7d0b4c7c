import { useEffect, useState, type ReactNode } from 'react';
import type { SignedInUser } from './api/index.ts';
import { useI18n } from './i18n/index.ts';
import { ROUTE_TITLES, useRoute, type Navigate, type Place, type Route } from './router.ts';
import { AccountsScreen } from './screens/accounts/accounts-screen.tsx';
import { RegisterScreen } from './screens/register/register-screen.tsx';
import { ReportsScreen } from './screens/reports/reports-screen.tsx';
import { ChatPanel } from './screens/chat/chat-panel.tsx';
import { DashboardScreen } from './screens/dashboard/dashboard-screen.tsx';
import { HistoryScreen } from './screens/history/history-screen.tsx';
import { JournalScreen } from './screens/journal/journal-screen.tsx';
import { PricesScreen } from './screens/prices/prices-screen.tsx';
import { InvestmentsScreen } from './screens/investments/investments-screen.tsx';
import { SettingsScreen } from './screens/settings/settings-screen.tsx';
import { StatementsScreen } from './screens/statements/statements-screen.tsx';
import { BudgetScreen } from './screens/budget/budget-screen.tsx';
import { SchedulesScreen } from './screens/schedules/schedules-screen.tsx';
import { NEW_ENTRY_KEY, typing } from './shortcuts.ts';
import { TopBar } from './top-bar.tsx';

/** What a screen may need from the shell: where the app is, where to go, and the signed-in person. */
interface ScreenContext {
  place: Place;
  navigate: Navigate;
  user: SignedInUser;
  onSignOut: () => void;
  /** the New entry shortcut was pressed: the journal opens the editor, then calls `onNewEntryOpened` */
  newEntryAsked: boolean;
  onNewEntryOpened: () => void;
}

/** The screen each route shows. */
const SCREENS: Record<Route, (context: ScreenContext) => ReactNode> = {
  '/': ({ navigate }) => <DashboardScreen onNavigate={navigate} />,
  '/accounts': ({ place, navigate }) =>
    place.accountId ? (
      <RegisterScreen
        key={place.accountId}
        accountId={place.accountId}
        start={place.query.get('start_date')}
        end={place.query.get('end_date')}
        onNavigate={navigate}
      />
    ) : (
      <AccountsScreen onNavigate={navigate} />
    ),
  '/journal': ({ place, navigate, newEntryAsked, onNewEntryOpened }) => (
    <JournalScreen
      onNavigate={navigate}
      search={place.query.get('q') ?? ''}
      newEntryAsked={newEntryAsked}
      onNewEntryOpened={onNewEntryOpened}
    />
  ),
  '/reports': ({ navigate }) => <ReportsScreen onNavigate={navigate} />,
  '/statements': ({ navigate }) => <StatementsScreen onNavigate={navigate} />,
  '/budget': () => <BudgetScreen />,
  '/schedules': () => <SchedulesScreen />,
  '/investments': () => <InvestmentsScreen />,
  '/prices': () => <PricesScreen />,
  '/history': () => <HistoryScreen />,
  '/settings': ({ navigate, user, onSignOut }) => (
    <SettingsScreen user={user} onNavigate={navigate} onSignOut={onSignOut} />
  ),
};

/** The signed-in app: the top bar, the current screen, the advisor panel. */
export function AppShell({ user, onSignOut }: { user: SignedInUser; onSignOut: () => void }) {
  const { t } = useI18n();
  const [place, navigate] = useRoute();
  const route = place.route;
  const [chatOpen, setChatOpen] = useState(false);
  const [newEntryAsked, setNewEntryAsked] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toUpperCase() !== NEW_ENTRY_KEY || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || typing(event.target)) return;
      event.preventDefault();
      setNewEntryAsked(true);
      navigate('/journal');
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [navigate]);

  useEffect(() => {
    document.title = `${t(ROUTE_TITLES[route])} · ${t('app.name')}`;
  }, [route, t]);

  return (
    <div className={chatOpen ? 'shell shell-with-chat' : 'shell'}>
      <TopBar
        route={route}
        onNavigate={navigate}
        chatOpen={chatOpen}
        onToggleChat={() => setChatOpen((o) => !o)}
        user={user}
        onSignOut={onSignOut}
      />
      <main className="content" id="main">
        {SCREENS[route]({
          place,
          navigate,
          user,
          onSignOut,
          newEntryAsked,
          onNewEntryOpened: () => setNewEntryAsked(false),
        })}
      </main>
      {/* kept mounted while closed, so that an answer keeps streaming and the conversation stays */}
      <ChatPanel id="advisor-panel" open={chatOpen} onClose={() => setChatOpen(false)} />
    </div>
  );
}
