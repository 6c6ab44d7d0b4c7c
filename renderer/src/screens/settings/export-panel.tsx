import { useId, useState, type FormEvent } from 'react';
import { EXPORT_FORMAT_LIST, exportBooks, type ExportFormat } from '../../api/index.ts';
import { Busy } from '../../components/busy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';
import { FormatSelect } from './format-select.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { saveFile } from '../../components/save-file.ts';

/** Exporting the books as a journal or CSV file, optionally for a date range. */
export function ExportPanel() {
  const { t } = useI18n();
  const headingId = useId();
  const [format, setFormat] = useState<ExportFormat>('hledger');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const download = useAction(async () => {
    setSaved(null);
    const file = await exportBooks(format, { start_date: startDate || undefined, end_date: endDate || undefined });
    saveFile(file);
    setSaved(file.fileName);
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void download.run();
  };

  return (
    <article className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('export.title')}</h2>
      <p className="hint">{t('export.hint')}</p>
      <form className="form-grid" aria-labelledby={headingId} onSubmit={submit}>
        <FormatSelect
          className="span-2"
          label={t('export.format')}
          formats={EXPORT_FORMAT_LIST}
          value={format}
          onChange={setFormat}
        />
        <DateInput label={t('export.from')} value={startDate} onChange={setStartDate} />
        <DateInput label={t('export.to')} value={endDate} onChange={setEndDate} />
        <div className="form-actions span-2">
          <button type="submit" className="primary" disabled={download.busy}>
            {t('export.download')}
          </button>
        </div>
      </form>
      {download.busy && <Busy label={t('export.exporting')} />}
      {saved && (
        <p role="status" className="notice notice-ok">
          {t('export.saved', { name: saved })}
        </p>
      )}
      <ErrorNotice error={download.error} onDismiss={download.clearError} />
    </article>
  );
}
