/**
 * The name an uploaded file is kept under: metadata only, never a path. The last segment of what
 * the client sent (either slash), without control characters (NUL included) or the characters
 * Windows refuses in names, at most `max` characters, and ending in the extension of the kind of
 * file the bytes are (a PNG sent as "scan.pdf" is kept as "scan.pdf.png"), so that a download
 * opens in the program its bytes need.
 */
export function attachmentName(sent: string | undefined, extensions: readonly string[], max: number): string {
  const lastSegment = (sent ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = Array.from(lastSegment.replace(/[\p{Cc}\p{Cf}<>:"|?*]/gu, ''))
    .join('')
    .trim()
    .replace(/^\.+/, '');
  const base = cleaned === '' ? 'attachment' : cleaned;
  const own = extensions.find((ext) => base.toLowerCase().endsWith(`.${ext}`));
  const extension = own === undefined ? extensions[0]! : base.slice(base.length - own.length);
  const stem = own === undefined ? base : base.slice(0, base.length - own.length - 1);
  const chars = Array.from(stem);
  const room = max - extension.length - 1;
  return `${chars.length > room ? chars.slice(0, room).join('').trimEnd() : stem}.${extension}`;
}

/** The ASCII stand-in of a name for the plain `filename=` of a Content-Disposition. */
export function asciiFallback(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
}
