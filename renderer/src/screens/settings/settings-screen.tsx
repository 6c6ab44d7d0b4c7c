import type { SignedInUser } from '../../api/index.ts';
import { useI18n } from '../../i18n/index.ts';
import type { Route } from '../../router.ts';
import { AccountPanel } from './account-panel.tsx';
import { BackupPanel } from './backup-panel.tsx';
import { ExportPanel } from './export-panel.tsx';
import { JournalImportPanel } from './journal-import-panel.tsx';
import { PreferencesPanel } from './preferences-panel.tsx';
import { SyncPanel } from './sync-panel.tsx';

/** Settings: the language and home currency, export the books, import a journal, back up and restore the ledger, sync the books with a household, and the account itself (the books' history has a screen of its own). */
export function SettingsScreen({
  user,
  onNavigate,
  onSignOut,
}: {
  user: SignedInUser;
  onNavigate: (route: Route) => void;
  onSignOut: () => void;
}) {
  const { t } = useI18n();
  return (
    <section className="screen" aria-labelledby="settings-title">
      <div className="screen-head">
        <h1 id="settings-title">{t('nav.settings')}</h1>
      </div>
      <p className="hint">{t('settings.intro')}</p>
      <PreferencesPanel />
      <div className="two-columns">
        <ExportPanel />
        <JournalImportPanel onNavigate={onNavigate} />
      </div>
      <BackupPanel />
      <SyncPanel />
      <AccountPanel user={user} onSignOut={onSignOut} />
    </section>
  );
}
