import { isLedgerYear } from '../dates.ts';
import type { CsvDateFormat } from './types.ts';

/** Two-digit years: 00–69 → 2000–2069, 70–99 → 1970–1999. */
export function expandTwoDigitYear(yy: number): number {
  return yy < 70 ? 2000 + yy : 1900 + yy;
}

/** 'YYYY-MM-DD' when y-m-d is a real calendar date of the ledger's years (others are typos, not dates), else null. */
export function isoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (!isLedgerYear(year) || month < 1 || month > 12 || day < 1) return null;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  if (day > days) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

type Order = 'ymd' | 'dmy' | 'mdy';

interface Layout {
  order: Order;
  separator: string;
  /** 2 = two-digit year, 4 = four-digit year. */
  yearDigits: 2 | 4;
}

const LAYOUTS: Record<CsvDateFormat, Layout> = {
  'YYYY-MM-DD': { order: 'ymd', separator: '-', yearDigits: 4 },
  'YYYY/MM/DD': { order: 'ymd', separator: '/', yearDigits: 4 },
  'YYYY.MM.DD': { order: 'ymd', separator: '.', yearDigits: 4 },
  'YYYY:MM:DD': { order: 'ymd', separator: ':', yearDigits: 4 },
  YYYYMMDD: { order: 'ymd', separator: '', yearDigits: 4 },
  'DD.MM.YYYY': { order: 'dmy', separator: '.', yearDigits: 4 },
  'DD.MM.YY': { order: 'dmy', separator: '.', yearDigits: 2 },
  'DD/MM/YYYY': { order: 'dmy', separator: '/', yearDigits: 4 },
  'DD/MM/YY': { order: 'dmy', separator: '/', yearDigits: 2 },
  'DD-MM-YYYY': { order: 'dmy', separator: '-', yearDigits: 4 },
  'DD-MM-YY': { order: 'dmy', separator: '-', yearDigits: 2 },
  'MM/DD/YYYY': { order: 'mdy', separator: '/', yearDigits: 4 },
  'MM/DD/YY': { order: 'mdy', separator: '/', yearDigits: 2 },
  'MM-DD-YYYY': { order: 'mdy', separator: '-', yearDigits: 4 },
  'M/D/YYYY': { order: 'mdy', separator: '/', yearDigits: 4 },
};

const TIME_SUFFIX = /^(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s?(?:Z|[+-]\d{2}:?\d{2}|[AaPp][Mm]))?)?$/;

/** Parses a CSV date cell in the given layout; null when it does not fit or is not a real date. */
export function parseDateWithFormat(value: string, format: CsvDateFormat): string | null {
  const layout = LAYOUTS[format];
  const text = value.trim();
  if (text.length > 40) return null;
  let a: number;
  let b: number;
  let c: number;
  let rest: string;
  if (layout.separator === '') {
    const m = /^(\d{4})(\d{2})(\d{2})(.*)$/.exec(text);
    if (!m) return null;
    [a, b, c, rest] = [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''];
  } else {
    const sep = layout.separator.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    const first = layout.order === 'ymd' ? '(\\d{4})' : '(\\d{1,2})';
    const last = layout.order === 'ymd' ? '(\\d{1,2})' : layout.yearDigits === 4 ? '(\\d{4})' : '(\\d{2})';
    const m = new RegExp(`^${first}${sep}(\\d{1,2})${sep}${last}(.*)$`).exec(text);
    if (!m) return null;
    [a, b, c, rest] = [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''];
  }
  if (!TIME_SUFFIX.test(rest)) return null;
  switch (layout.order) {
    case 'ymd':
      return isoDate(a, b, c);
    case 'dmy':
      return isoDate(layout.yearDigits === 2 ? expandTwoDigitYear(c) : c, b, a);
    case 'mdy':
      return isoDate(layout.yearDigits === 2 ? expandTwoDigitYear(c) : c, a, b);
  }
}

/**
 * OFX date-time: YYYYMMDD[HHMMSS[.XXX]][[gmt offset[:tz name]]]. Only the calendar date as written
 * is used (no time-zone shift); the time part is not validated because real files carry
 * impossible times such as minute 82.
 */
export function parseOfxDate(value: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:[\d.:]*)?(?:\s*\[[^\]]*\])?$/.exec(value.trim());
  if (!m) return null;
  return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** ISO 8601 date or date-time as used by CAMT (xs:date may carry an offset: 2017-04-01+02:00). */
export function parseIsoDate(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|T|Z|[+-]\d{2}:\d{2}$)/.exec(value.trim());
  if (!m) return null;
  return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
}
