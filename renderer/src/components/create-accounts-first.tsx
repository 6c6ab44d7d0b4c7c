import { useI18n } from '../i18n/index.ts';
import type { Route } from '../router.ts';
import { EmptyState } from './empty-state.tsx';

/** What a screen shows before there are any accounts: why they are needed, and the way to the Accounts screen. */
export function CreateAccountsFirst({
  title,
  hint,
  onNavigate,
}: {
  title: string;
  hint: string;
  onNavigate: (route: Route) => void;
}) {
  const { t } = useI18n();
  return (
    <EmptyState
      title={title}
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
