import { useCallback, useEffect, useId, useRef, useState, type DragEvent } from 'react';
import {
  ATTACHMENTS_PER_TARGET,
  attachmentBlob,
  deleteAttachment,
  listAttachments,
  uploadAttachment,
  type AttachmentDto,
  type AttachmentTarget,
} from '../api/index.ts';
import { useAction } from '../hooks/use-action.ts';
import { useI18n } from '../i18n/index.ts';
import { Busy } from './busy.tsx';
import { ErrorNotice } from './error-notice.tsx';

const ACCEPT = 'application/pdf,image/jpeg,image/png,image/heic,image/heif,.pdf,.jpg,.jpeg,.png,.heic,.heif';
/** Images the window can draw (HEIC it cannot: it gets an icon, like a PDF). */
const DRAWN = new Set(['image/jpeg', 'image/png']);

/** The refusals an upload meets, said for this place. */
const UPLOAD_WORDS = {
  UNSUPPORTED_MEDIA_TYPE: 'attachments.unsupported',
  PAYLOAD_TOO_LARGE: 'attachments.tooLarge',
  LIMIT_REACHED: 'attachments.limit',
} as const;

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(blob);
  });
}

/** Saves (or opens, by the system's viewer) a file through a temporary `<a download>`. */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** An image's thumbnail, as a data URL (the window's CSP draws data: images, not blob: ones). */
function Thumbnail({ attachment }: { attachment: AttachmentDto }) {
  const { t } = useI18n();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!DRAWN.has(attachment.content_type)) return;
    let live = true;
    void attachmentBlob(attachment.id)
      .then(readAsDataUrl)
      .then((url) => live && setSrc(url))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [attachment.id, attachment.content_type]);
  if (src)
    return (
      <img className="attachment-thumb" src={src} alt={t('attachments.preview', { name: attachment.file_name })} />
    );
  return (
    <span className="attachment-icon" role="img" aria-label={t('attachments.kind', { kind: kindOf(attachment) })}>
      {attachment.content_type === 'application/pdf' ? 'PDF' : 'HEIC'}
    </span>
  );
}

function kindOf(a: AttachmentDto): string {
  return a.content_type === 'application/pdf' ? 'PDF' : a.content_type.replace('image/', '').toUpperCase();
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The files attached to an entry or a bank line: each with a thumbnail (an image) or its kind (a
 * PDF, a HEIC), to open or save, and to delete after a confirmation; more attached by the file
 * picker or by dropping files on the panel.
 */
export function AttachmentsPanel({
  target,
  label,
  onCount,
}: {
  target: AttachmentTarget;
  /** what the files belong to, for the panel's accessible name */
  label: string;
  /** the number of files changed */
  onCount?: (count: number) => void;
}) {
  const { t } = useI18n();
  const inputId = useId();
  const [items, setItems] = useState<AttachmentDto[] | null>(null);
  const [dragging, setDragging] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const reportCount = useRef(onCount);
  reportCount.current = onCount;
  const show = useCallback((list: AttachmentDto[]) => {
    setItems(list);
    reportCount.current?.(list.length);
  }, []);
  const load = useAction(useCallback(async () => show(await listAttachments(target)), [target.kind, target.id, show]));
  const { run: reload } = load;
  useEffect(() => {
    void reload();
  }, [reload]);
  const add = useAction(
    useCallback(
      async (files: File[]) => {
        for (const file of files) await uploadAttachment(target, file);
        show(await listAttachments(target));
      },
      [target.kind, target.id, show],
    ),
  );
  const remove = useAction(
    useCallback(
      async (id: string) => {
        await deleteAttachment(id);
        setConfirming(null);
        show(await listAttachments(target));
      },
      [target.kind, target.id, show],
    ),
  );
  const save = useAction(
    useCallback(async (a: AttachmentDto) => saveBlob(await attachmentBlob(a.id), a.file_name), []),
  );

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) void add.run(files);
  };
  const full = (items?.length ?? 0) >= ATTACHMENTS_PER_TARGET;

  return (
    <section
      className={dragging ? 'attachments dragging' : 'attachments'}
      aria-label={t('attachments.listOf', { name: label })}
      data-testid="attachments"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h3>
        {t('attachments.title')}
        {items && <span className="muted"> ({items.length})</span>}
      </h3>
      {items && items.length > 0 && (
        <ul className="attachment-list">
          {items.map((a) => (
            <li key={a.id} className="attachment">
              {a.waiting_for_sync ? (
                <span className="attachment-icon" role="img" aria-label={t('attachments.kind', { kind: kindOf(a) })}>
                  {kindOf(a)}
                </span>
              ) : (
                <Thumbnail attachment={a} />
              )}
              <span className="attachment-name">{a.file_name}</span>
              <span className="muted nowrap">{size(a.size_bytes)}</span>
              {a.waiting_for_sync ? (
                <span className="muted nowrap" title={t('attachments.waitingHint', { name: a.file_name })}>
                  {t('attachments.waiting')}
                </span>
              ) : (
                <button
                  type="button"
                  aria-label={t('attachments.download', { name: a.file_name })}
                  onClick={() => void save.run(a)}
                >
                  {t(a.content_type === 'application/pdf' ? 'attachments.open' : 'attachments.save')}
                </button>
              )}
              {confirming === a.id ? (
                <span role="group" aria-label={t('attachments.confirmDelete', { name: a.file_name })}>
                  <span>{t('attachments.confirmDelete', { name: a.file_name })}</span>{' '}
                  <button type="button" className="danger" autoFocus onClick={() => void remove.run(a.id)}>
                    {t('attachments.delete')}
                  </button>
                  <button type="button" onClick={() => setConfirming(null)}>
                    {t('action.cancel')}
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  className="danger"
                  aria-label={t('attachments.deleteLabel', { name: a.file_name })}
                  onClick={() => setConfirming(a.id)}
                >
                  {t('attachments.delete')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {items && items.length === 0 && <p className="hint">{t('attachments.none')}</p>}
      {!full && (
        <div className="attachment-drop">
          <input
            ref={input}
            id={inputId}
            type="file"
            multiple
            accept={ACCEPT}
            className="visually-hidden"
            aria-label={t('attachments.attachTo', { name: label })}
            onChange={(event) => {
              const files = Array.from(event.target.files ?? []);
              event.target.value = '';
              if (files.length > 0) void add.run(files);
            }}
          />
          <label htmlFor={inputId} className="button-like" aria-hidden="true">
            {t('attachments.attach')}
          </label>
          <span className="hint">{t('attachments.dropHint', { n: ATTACHMENTS_PER_TARGET })}</span>
        </div>
      )}
      {(add.busy || load.busy) && <Busy inline label={t('attachments.working')} />}
      <ErrorNotice
        error={add.error ?? load.error}
        onDismiss={add.error ? add.clearError : load.clearError}
        words={UPLOAD_WORDS}
      />
      <ErrorNotice error={remove.error ?? save.error} onDismiss={remove.error ? remove.clearError : save.clearError} />
    </section>
  );
}
