import type { ExportedFile } from '../../api/index.ts';

/**
 * Hands an exported file to the browser as a download: a Blob, an object URL and a temporary
 * `<a download>` clicked once (no inline script, so the CSP `default-src 'self'` allows it).
 */
export function saveFile(file: ExportedFile): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.contentType }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = file.fileName;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // the download has started reading the blob by now; give it time before letting go
  window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** "2.4 MB", "180 KB": a backup's size. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** A backup's moment in the interface language, to the second (backups are often minutes apart). */
export function formatMoment(iso: string, language: 'en' | 'zh'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(language === 'zh' ? 'zh-CN' : 'en-US', { dateStyle: 'medium', timeStyle: 'medium' });
}
