import { useI18n } from '../i18n/index.ts';
import type { Route } from '../router.ts';
import { EmptyState } from './empty-state.tsx';

/** A screen that needs accounts, shown before there are any: why, and the way to the Accounts screen. */
export function CreateAccountsFirst({ hint, onNavigate }: { hint: string; onNavigate: (route: Route) => void }) {
  const { t } = useI18n();
  return (
    <EmptyState
      title={t('journal.noAccountsTitle')}
      action={
        <button type="button" className="primary" onClick={() => onNavigate('/accounts')}>
          {t('dashboard.emptyAction')}
        </button>
      }
    >
      {hint}
    </EmptyState>
  );
}
