import { useI18n } from '../../i18n/index.ts';
import type { Route } from '../../router.ts';
import { BackupPanel } from './backup-panel.tsx';
import { ExportPanel } from './export-panel.tsx';
import { JournalImportPanel } from './journal-import-panel.tsx';

/** Settings: export the books, import a journal, back up and restore the ledger. */
export function SettingsScreen({ onNavigate }: { onNavigate: (route: Route) => void }) {
  const { t } = useI18n();
  return (
    <section className="screen" aria-labelledby="settings-title">
      <div className="screen-head">
        <h1 id="settings-title">{t('nav.settings')}</h1>
      </div>
      <p className="hint">{t('settings.intro')}</p>
      <div className="two-columns">
        <ExportPanel />
        <JournalImportPanel onNavigate={onNavigate} />
      </div>
      <BackupPanel />
    </section>
  );
}
