import { useId, useState } from 'react';
import { useAction } from '../hooks/use-action.ts';
import { Busy } from './busy.tsx';
import { ErrorNotice } from './error-notice.tsx';
import { FileField } from './file-field.tsx';

/**
 * A panel that imports one CSV file: choose it, send it, and say what was kept (the words come from
 * `upload`'s answer), or why the file was refused. The rates and the security prices use it.
 */
export function CsvImportPanel({
  title,
  hint,
  fileLabel,
  buttonLabel,
  busyLabel,
  primary = false,
  upload,
  onImported,
}: {
  title: string;
  hint: string;
  fileLabel: string;
  buttonLabel: string;
  busyLabel: string;
  primary?: boolean;
  /** sends the file; answers what to say once it is imported */
  upload: (file: File) => Promise<string>;
  onImported: () => void;
}) {
  const headingId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const [said, setSaid] = useState<string | null>(null);
  const send = useAction(async (chosen: File) => {
    setSaid(null);
    setSaid(await upload(chosen));
    setFile(null);
    setInputKey((k) => k + 1);
    onImported();
  });
  return (
    <article className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p className="hint">{hint}</p>
      <form
        className="form-grid"
        aria-labelledby={headingId}
        onSubmit={(e) => {
          e.preventDefault();
          if (file) void send.run(file);
        }}
      >
        <FileField
          className="span-2"
          label={fileLabel}
          accept=".csv,text/csv"
          resetKey={inputKey}
          onFile={(chosen) => {
            setFile(chosen);
            send.clearError();
          }}
        />
        <div className="form-actions span-2">
          <button type="submit" className={primary ? 'primary' : undefined} disabled={!file || send.busy}>
            {buttonLabel}
          </button>
        </div>
      </form>
      {send.busy && <Busy label={busyLabel} />}
      <ErrorNotice error={send.error} onDismiss={send.clearError} />
      {said && (
        <p role="status" className="notice notice-ok">
          {said}
        </p>
      )}
    </article>
  );
}
