import { addDays, endOfMonth, FIRST_YEAR, isLedgerYear, LAST_YEAR, startOfMonth } from './dates.ts';

/**
 * The period a question names, in English or Chinese: a month and year ("April 2011", "2011-04",
 * "2023年1月"), a month alone ("in March", "3月": the latest one not after today), "this/last
 * month", a quarter ("Q1 2024", "2024年第一季度"), a year ("in 2023", "2023年"), "this/last year",
 * "this/last quarter", "since January" (to today). A period that holds today ends today.
 */
export interface NamedPeriod {
  start: string;
  end: string;
  /** What the words said, for saying it back. */
  kind: 'month' | 'quarter' | 'year' | 'since';
  year: number;
  /** 1–12 for a month or the first month of "since"; 1–4 for a quarter. */
  part?: number;
  relative?: 'this' | 'last';
}

/** `period`: what the text names; `unreadable`: it seems to name one that cannot be used; null: none. */
export type PeriodReading = { period: NamedPeriod } | { unreadable: string } | null;

/** Questions are short; what lies past this is not read for a period. */
export const PERIOD_TEXT_LIMIT = 2000;

const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};
const MONTH = `(${Object.keys(MONTHS).join('|')})\\.?`;
const ORDINAL: Record<string, number> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
};
const ZH_NUMBER = '[一二三四五六七八九十]{1,3}|\\d{1,2}';

function zhNumber(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const digits = '一二三四五六七八九';
  if (text === '十') return 10;
  if (text.startsWith('十')) return 10 + digits.indexOf(text[1]!) + 1;
  if (text.endsWith('十')) return (digits.indexOf(text[0]!) + 1) * 10;
  if (text.includes('十')) return (digits.indexOf(text[0]!) + 1) * 10 + digits.indexOf(text[2]!) + 1;
  return digits.indexOf(text) + 1;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A period that holds today ends today; one wholly past or to come keeps its end. */
const until = (start: string, end: string, today: string) => (start <= today && today < end ? today : end);

function month(year: number, m: number, today: string, relative?: 'this' | 'last'): PeriodReading {
  if (m < 1 || m > 12) return { unreadable: `month ${m}` };
  if (!isLedgerYear(year)) return { unreadable: String(year) };
  const start = `${year}-${pad(m)}-01`;
  return {
    period: {
      kind: 'month',
      year,
      part: m,
      start,
      end: until(start, endOfMonth(start), today),
      ...(relative && { relative }),
    },
  };
}

function quarter(year: number, q: number, today: string, relative?: 'this' | 'last'): PeriodReading {
  if (q < 1 || q > 4) return { unreadable: `quarter ${q}` };
  if (!isLedgerYear(year)) return { unreadable: String(year) };
  const start = `${year}-${pad(q * 3 - 2)}-01`;
  const end = endOfMonth(`${year}-${pad(q * 3)}-01`);
  return {
    period: { kind: 'quarter', year, part: q, start, end: until(start, end, today), ...(relative && { relative }) },
  };
}

function year(y: number, today: string, relative?: 'this' | 'last'): PeriodReading {
  if (!isLedgerYear(y)) return { unreadable: String(y) };
  return {
    period: {
      kind: 'year',
      year: y,
      start: `${y}-01-01`,
      end: until(`${y}-01-01`, `${y}-12-31`, today),
      ...(relative && { relative }),
    },
  };
}

function since(y: number, m: number, today: string): PeriodReading {
  if (m < 1 || m > 12) return { unreadable: `month ${m}` };
  if (!isLedgerYear(y)) return { unreadable: String(y) };
  return { period: { kind: 'since', year: y, part: m, start: `${y}-${pad(m)}-01`, end: today } };
}

/** The year of the latest month `m` (or quarter's first month) not after today's. */
function latestYear(m: number, today: string): number {
  const [y, current] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  return m <= current ? y : y - 1;
}

export function readPeriod(message: string, today: string): PeriodReading {
  const text = message.slice(0, PERIOD_TEXT_LIMIT).toLowerCase();
  const [thisYear, thisMonth] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const thisQuarter = Math.ceil(thisMonth / 3);
  let m: RegExpExecArray | null;

  // "since …" first: it holds a month that would otherwise be read alone
  if ((m = new RegExp(`\\bsince\\s+${MONTH}(?:,?\\s+(\\d{4}))?\\b`).exec(text))) {
    const n = MONTHS[m[1]!]!;
    return since(m[2] ? Number(m[2]) : latestYear(n, today), n, today);
  }
  if ((m = /\bsince\s+(\d{4})-(\d{1,2})\b/.exec(text))) return since(Number(m[1]), Number(m[2]), today);
  if ((m = /\bsince\s+(\d{4})\b/.exec(text))) return since(Number(m[1]), 1, today);
  if (
    (m = new RegExp(`(?:自|从)?(?:(\\d{4})\\s*年\\s*)?(${ZH_NUMBER})\\s*月份?\\s*(?:以来|起|至今|开始)`).exec(text))
  ) {
    const n = zhNumber(m[2]!);
    return since(m[1] ? Number(m[1]) : latestYear(n, today), n, today);
  }

  // a month of a year
  if ((m = /\b(\d{4})-(\d{1,2})\b(?!-\d)/.exec(text))) return month(Number(m[1]), Number(m[2]), today);
  if ((m = /\b(\d{4})-(\d{2})-\d{2}\b/.exec(text))) return month(Number(m[1]), Number(m[2]), today);
  if ((m = new RegExp(`\\b${MONTH},?\\s+(?:of\\s+)?(\\d{4})\\b`).exec(text)))
    return month(Number(m[2]), MONTHS[m[1]!]!, today);
  if ((m = new RegExp(`\\b(\\d{4})\\s+${MONTH}\\b`).exec(text))) return month(Number(m[1]), MONTHS[m[2]!]!, today);
  if ((m = new RegExp(`(\\d{4})\\s*年\\s*(${ZH_NUMBER})\\s*月`).exec(text)))
    return month(Number(m[1]), zhNumber(m[2]!), today);

  // quarters
  if ((m = /\bq([0-9])\s*(?:of\s+)?(\d{4})\b/.exec(text)) || (m = /\b(\d{4})\s*-?\s*q([0-9])\b/.exec(text))) {
    const [q, y] = m[0].trim().startsWith('q') ? [m[1], m[2]] : [m[2], m[1]];
    return quarter(Number(y), Number(q), today);
  }
  if ((m = /\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter(?:\s+of)?(?:\s+(\d{4}))?\b/.exec(text))) {
    const q = ORDINAL[m[1]!]!;
    return quarter(m[2] ? Number(m[2]) : latestYear(q * 3 - 2, today), q, today);
  }
  if (
    (m = new RegExp(`(?:(\\d{4})\\s*年\\s*)?(?:第?\\s*(${ZH_NUMBER})\\s*季度|q([0-9]))`).exec(text)) &&
    (m[2] || m[1])
  ) {
    const q = m[2] ? zhNumber(m[2]) : Number(m[3]);
    return quarter(m[1] ? Number(m[1]) : latestYear(q * 3 - 2, today), q, today);
  }
  if ((m = /\bq([0-9])\b/.exec(text))) {
    const q = Number(m[1]);
    return q >= 1 && q <= 4 ? quarter(latestYear(q * 3 - 2, today), q, today) : { unreadable: `q${q}` };
  }

  // relative words
  if (/\b(last|previous|past) month\b|上个?月/.test(text)) {
    const start = startOfMonth(addDays(startOfMonth(today), -1));
    return month(Number(start.slice(0, 4)), Number(start.slice(5, 7)), today, 'last');
  }
  if (/\bthis month\b|本月|这个月|当月/.test(text)) return month(thisYear, thisMonth, today, 'this');
  if (/\b(last|previous|past) quarter\b|上个?季度/.test(text)) {
    return thisQuarter === 1
      ? quarter(thisYear - 1, 4, today, 'last')
      : quarter(thisYear, thisQuarter - 1, today, 'last');
  }
  if (/\bthis quarter\b|本季度|这个季度/.test(text)) return quarter(thisYear, thisQuarter, today, 'this');
  if (/\b(last|previous|past) year\b|去年|上一?年/.test(text)) return year(thisYear - 1, today, 'last');
  if (/\bthis year\b|\byear to date\b|\bytd\b|今年|本年/.test(text)) return year(thisYear, today, 'this');

  // a month alone ("may" only after a word that makes it a month)
  if ((m = new RegExp(`\\b(?:in|for|during|of|over)\\s+${MONTH}(?!\\w)`).exec(text))) {
    const n = MONTHS[m[1]!]!;
    return month(latestYear(n, today), n, today);
  }
  if (
    (m = new RegExp(
      `\\b(${Object.keys(MONTHS)
        .filter((k) => k.length > 3 && k !== 'march')
        .join('|')})\\b`,
    ).exec(text))
  ) {
    const n = MONTHS[m[1]!]!;
    return month(latestYear(n, today), n, today);
  }
  if ((m = new RegExp(`(?<![个\\d])(${ZH_NUMBER})\\s*月份?`).exec(text))) {
    const n = zhNumber(m[1]!);
    return month(latestYear(n, today), n, today);
  }

  // a year
  if ((m = /\b(?:in|for|during|of|over|year)\s+(\d{4})\b/.exec(text)) || (m = /(\d{4})\s*年/.exec(text))) {
    return year(Number(m[1]), today);
  }
  return null;
}

/** The period in words, for saying back which one an answer covers. */
export function periodWords(period: NamedPeriod, language: 'en' | 'zh'): string {
  const { kind, year: y, part = 1, relative } = period;
  if (language === 'zh') {
    if (relative) {
      const words = { month: ['本月', '上个月'], quarter: ['本季度', '上季度'], year: ['今年', '去年'] } as const;
      return words[kind as 'month' | 'quarter' | 'year'][relative === 'this' ? 0 : 1];
    }
    if (kind === 'month') return `${y}年${part}月`;
    if (kind === 'quarter') return `${y}年第${part}季度`;
    if (kind === 'year') return `${y}年`;
    return `${y}年${part}月以来`;
  }
  if (relative) return `${relative} ${kind}`;
  const name = new Date(Date.UTC(2000, part - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  if (kind === 'month') return `${name} ${y}`;
  if (kind === 'quarter') return `Q${part} ${y}`;
  if (kind === 'year') return String(y);
  return `since ${name} ${y}`;
}

/** The range of years a named period may lie in, for saying why one was not used. */
export const PERIOD_YEARS = `${FIRST_YEAR}–${LAST_YEAR}`;
