import { importSecurityPrices } from '../../api/index.ts';
import { CsvImportPanel } from '../../components/csv-import-panel.tsx';
import { useI18n } from '../../i18n/index.ts';

export function PriceImportPanel({ onImported }: { onImported: () => void }) {
  const { t } = useI18n();
  const upload = async (file: File) =>
    t('investments.pricesImported', { count: (await importSecurityPrices(file)).imported });
  return (
    <CsvImportPanel
      title={t('investments.importPrices')}
      hint={t('investments.importHint')}
      fileLabel={t('investments.file')}
      buttonLabel={t('investments.importButton')}
      busyLabel={t('loading')}
      upload={upload}
      onImported={onImported}
    />
  );
}
