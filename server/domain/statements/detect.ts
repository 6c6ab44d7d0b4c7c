import { CSV_DELIMITERS } from './types.ts';
import type { StatementFormat } from './types.ts';

const SNIFF_CHARS = 16_384;

/**
 * Recognises the format from the decoded text:
 * - OFX/QFX: an OFXHEADER line, an `<?OFX` instruction, or a body that starts with `<OFX>`;
 * - CAMT.053: an XML document with a camt.053 namespace or a `BkToCstmrStmt` element;
 * - QIF: the first line that is not blank or a `#` comment starts with `!Type:`, `!Account`, `!Option` or `!Clear`;
 * - CSV: printable text whose first lines split into two or more fields on one delimiter.
 */
export function detectFormatFromText(text: string): StatementFormat | null {
  const head = text.slice(0, SNIFF_CHARS);
  if (looksBinary(head)) return null;
  const start = head.trimStart();
  if (/^OFXHEADER\s*:/i.test(start) || /^<OFX\b/i.test(start)) return 'ofx';
  if (start.startsWith('<')) {
    if (/<\?OFX\b/i.test(head) || /<OFX\s*>/i.test(head)) return 'ofx';
    if (/urn:iso:std:iso:20022:tech:xsd:camt\.053\./i.test(head) || /<(?:\w+:)?BkToCstmrStmt\b/.test(head))
      return 'camt053';
    return null;
  }
  const firstLine = head
    .split(/\r\n|\n|\r/)
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('#'));
  if (firstLine === undefined) return null;
  if (/^!(?:Type:|Account|Option:|Clear:)/i.test(firstLine)) return 'qif';
  return looksLikeCsv(head) ? 'csv' : null;
}

/** NUL bytes, or more than 1 % control or replacement characters (tab, CR, LF, FF excepted). */
function looksBinary(head: string): boolean {
  let control = 0;
  for (let i = 0; i < head.length; i += 1) {
    const c = head.charCodeAt(i);
    if (c === 0) return true;
    if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0x7f || c === 0xfffd) control += 1;
  }
  return control > head.length / 100;
}

/** Two or more non-blank lines, and some line splits into at least two fields on a delimiter. */
function looksLikeCsv(head: string): boolean {
  const lines = head
    .split(/\r\n|\n|\r/)
    .filter((line) => line.trim() !== '')
    .slice(0, 30);
  if (lines.length < 2) return false;
  return CSV_DELIMITERS.some((d) => lines.filter((line) => line.includes(d)).length >= 2);
}
