import type { ExportedFile } from '../api/index.ts';

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
