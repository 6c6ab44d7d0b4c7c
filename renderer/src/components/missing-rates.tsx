import type { MissingRate } from '../api/index.ts';
import { useI18n } from '../i18n/index.ts';

/** The rates a converted figure lacked: those currencies are left out of it, never counted as zero. */
export function MissingRates({ missing, onAddRates }: { missing: readonly MissingRate[]; onAddRates?: () => void }) {
  const { t } = useI18n();
  if (missing.length === 0) return null;
  return (
    <div role="status" className="notice notice-warning missing-rates">
      <div className="notice-body">
        <ul>
          {missing.map((m) => (
            <li key={`${m.from}-${m.to}`}>{t('currency.missing', { from: m.from, to: m.to, date: m.date })}</li>
          ))}
        </ul>
        {onAddRates && (
          <button type="button" className="link-button" onClick={onAddRates}>
            {t('currency.addRates')}
          </button>
        )}
      </div>
    </div>
  );
}
