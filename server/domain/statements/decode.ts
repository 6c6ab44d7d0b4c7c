import chardet from 'chardet';
import iconv from 'iconv-lite';
import { chardet as distribution } from 'jschardet';
import { fail, quote } from './fail.ts';

export interface Decoded {
  text: string;
  /** Canonical lower-case name of what was decoded, e.g. 'utf-8', 'windows-1252'. */
  encoding: string;
}

/** Single-byte encodings chardet may pick; anything else (CJK, RTL, UTF-32 guesses) falls back to windows-1252. */
const GUESSABLE = new Map<string, string>([
  ['ISO-8859-1', 'iso-8859-1'],
  ['ISO-8859-2', 'iso-8859-2'],
  ['ISO-8859-5', 'iso-8859-5'],
  ['ISO-8859-7', 'iso-8859-7'],
  ['ISO-8859-9', 'iso-8859-9'],
  ['windows-1250', 'windows-1250'],
  ['windows-1251', 'windows-1251'],
  ['windows-1252', 'windows-1252'],
  ['windows-1253', 'windows-1253'],
  ['windows-1254', 'windows-1254'],
  ['windows-1257', 'windows-1257'],
  ['KOI8-R', 'koi8-r'],
]);
const MIN_CONFIDENCE = 10;
const FALLBACK = 'windows-1252';

/** The multi-byte East Asian encodings jschardet's character distribution tells apart, as iconv-lite names them. */
const CJK = new Map<string, string>([
  ['SHIFT_JIS', 'shift_jis'],
  ['CP932', 'shift_jis'],
  ['EUC-JP', 'euc-jp'],
  ['EUC-KR', 'euc-kr'],
  ['CP949', 'euc-kr'],
  ['GB18030', 'gb18030'],
  ['GB2312', 'gb18030'],
  ['BIG5', 'big5'],
]);
/**
 * jschardet's confidence below which a CJK guess is not taken. Two-line bank files in these
 * encodings score 0.06 and more; Latin text in a single-byte encoding scores 0.012 at most, as
 * decode.test.ts shows on both kinds.
 */
const CJK_MIN_CONFIDENCE = 0.04;

/**
 * The encodings a person may choose for a statement file (the preview re-reads the file with the
 * one chosen), in the order offered: Unicode, Western and Central European, Cyrillic, Greek,
 * Turkish, Baltic, Japanese, Korean, Chinese. Detection may also name another that iconv-lite knows.
 */
export const STATEMENT_ENCODINGS = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  'iso-8859-1',
  'iso-8859-15',
  'windows-1250',
  'iso-8859-2',
  'windows-1251',
  'koi8-r',
  'iso-8859-5',
  'windows-1253',
  'iso-8859-7',
  'windows-1254',
  'iso-8859-9',
  'windows-1257',
  'shift_jis',
  'euc-jp',
  'euc-kr',
  'gb18030',
  'big5',
] as const;

/** Whether `name` is an encoding statement files can be decoded with. */
export function isKnownEncoding(name: string): boolean {
  return name.length <= 40 && iconv.encodingExists(name);
}

/**
 * Decodes statement bytes. Order: a byte-order mark; else the encoding the file declares (OFX 1
 * ENCODING/CHARSET header, XML declaration) when it is usable; else UTF-8 when the bytes are valid
 * UTF-8; else chardet's guess among single-byte encodings (unless its best guesses tie); else
 * windows-1252.
 * `forced` (any iconv-lite name) skips detection.
 */
export function decodeBytes(bytes: Uint8Array, forced?: string): Decoded {
  if (forced !== undefined) {
    if (!iconv.encodingExists(forced)) fail(`unknown encoding ${quote(forced)}`);
    return { text: stripBom(iconv.decode(bytes, forced)), encoding: forced.toLowerCase() };
  }
  const bom = bomEncoding(bytes);
  if (bom) return { text: stripBom(iconv.decode(bytes.subarray(bom.length), bom.encoding)), encoding: bom.encoding };

  const declared = declaredEncoding(bytes);
  const utf8 = validUtf8(bytes);
  if (declared === 'utf-8' && utf8 !== null) return { text: stripBom(utf8), encoding: 'utf-8' };
  if (declared !== null && declared !== 'utf-8')
    return { text: stripBom(iconv.decode(bytes, declared)), encoding: declared };
  if (utf8 !== null) return { text: stripBom(utf8), encoding: 'utf-8' };

  const guessed = guessCjk(bytes) ?? guessSingleByte(bytes);
  return { text: stripBom(iconv.decode(bytes, guessed)), encoding: guessed };
}

function bomEncoding(bytes: Uint8Array): { encoding: string; length: number } | null {
  const [a, b, c] = [bytes[0], bytes[1], bytes[2]];
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (a === 0xff && b === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function validUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The encoding named in an OFX 1 header (ENCODING:UTF-8, or CHARSET:1252 / 8859-1 with
 * ENCODING:USASCII) or an XML declaration. US-ASCII declarations say nothing useful (real files
 * declare it and still carry accented bytes), so they return null.
 */
function declaredEncoding(bytes: Uint8Array): string | null {
  const head = iconv.decode(bytes.subarray(0, 2048), 'latin1');
  const xml = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})["']/i.exec(head);
  if (xml?.[1]) return usable(xml[1]);
  if (!/^\s*OFXHEADER\s*:/i.test(head)) return null;
  const header = head.slice(0, head.search(/<|$/));
  const encoding = /^\s*ENCODING\s*:\s*(\S+)/im.exec(header)?.[1] ?? '';
  if (/^UTF-?8$/i.test(encoding)) return 'utf-8';
  const charset = (/^\s*CHARSET\s*:\s*(\S+)/im.exec(header)?.[1] ?? '').toUpperCase();
  if (/^(?:ISO-?)?8859-1$/.test(charset) || charset === 'LATIN1') return 'iso-8859-1';
  const cp = /^(?:WINDOWS-|CP)?(125\d)$/.exec(charset);
  if (cp) return usable(`windows-${cp[1]}`);
  const iso = /^(?:ISO-?)?8859-(\d{1,2})$/.exec(charset);
  if (iso) return usable(`iso-8859-${iso[1]}`);
  return null;
}

function usable(name: string): string | null {
  const lower = name.toLowerCase();
  if (/^(?:us-?)?ascii$/.test(lower)) return null;
  if (/^utf-?8$/.test(lower)) return 'utf-8';
  if (/^utf-?(16|32)/.test(lower)) return null;
  return iconv.encodingExists(lower) ? lower : null;
}

function guessCjk(bytes: Uint8Array): string | null {
  const sample = bytes.subarray(0, 65_536);
  const [top] = distribution.detectAll(sample, {
    includeEncodings: ['ascii', ...CJK.keys()].map((name) => name.toLowerCase()),
    ignoreThreshold: true,
    noMatchEncoding: 'ascii',
  });
  const name = top?.encoding ? CJK.get(top.encoding.toUpperCase()) : undefined;
  if (name === undefined || top === undefined || top.confidence < CJK_MIN_CONFIDENCE) return null;
  // A guess whose decoding has characters it cannot map is no guess.
  return iconv.decode(sample, name).includes('\ufffd') ? null : name;
}

function guessSingleByte(bytes: Uint8Array): string {
  const sample = bytes.subarray(0, 65_536);
  const matches = chardet.analyse(sample);
  const top = matches[0];
  // A tie between the best guesses (tiny samples) says nothing: fall back.
  if (!top || top.confidence < MIN_CONFIDENCE || matches[1]?.confidence === top.confidence) return FALLBACK;
  for (const match of matches) {
    if (match.confidence < MIN_CONFIDENCE) break;
    const name = GUESSABLE.get(match.name);
    if (name === undefined) continue;
    // Latin-1 text with bytes 0x80–0x9F is windows-1252 (€, „, “ …), not C1 control characters.
    if (name === 'iso-8859-1' && sample.some((b) => b >= 0x80 && b <= 0x9f)) return 'windows-1252';
    return name;
  }
  return FALLBACK;
}
