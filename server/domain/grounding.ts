import { Decimal } from 'decimal.js';

/**
 * Whether the figures of an advisor's answer come from its tools. A figure is an amount, a
 * percentage or a date written in the answer; it is traced when it is, exactly:
 *
 * 1. a value the tools answered this turn (or one the user wrote, or today's date), its sign
 *    aside ("you spent 45.00" for a balance of -45.00);
 * 2. a sum or difference of two such values;
 * 3. a percentage: such a value followed by %, or 100·a/b of two of them, rounded to the
 *    decimals the answer shows;
 * 4. a date: a day the tools or the user named (ISO "2011-04-07", "2011年4月7日", "April 7, 2011"),
 *    a month or a year holding such a day ("April 2011", "2023年1月", "2011").
 *
 * Amounts are compared as exact decimals (decimal.js), never as binary floats; a float ratio only
 * picks the pairs worth dividing exactly. A whole number below 10 with no decimals, currency or %
 * is read as a count in prose ("your 3 largest expenses"), not as a figure. The work is bounded:
 * at most `MAX_SOURCES` values and `MAX_FIGURES` figures are compared, each figure with every
 * value and pair of values once.
 */

const MAX_SOURCES = 400;
const MAX_FIGURES = 100;
/** Characters of tool results read for values (a tool answers at most a few pages of rows). */
const MAX_SOURCE_TEXT = 200_000;

export interface Figure {
  /** the figure as written in the answer */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly kind: 'amount' | 'percent' | 'date';
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const MONTH_NAME =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

/** Dates first (their digits are not amounts), then numbers with their currency sign or percent. */
const FIGURE = new RegExp(
  [
    '(?<iso>\\b\\d{4}-\\d{2}(?:-\\d{2})?\\b)',
    '(?<zh>\\d{4}\\s*年\\s*\\d{1,2}\\s*月(?:\\s*\\d{1,2}\\s*[日号])?)',
    '(?<slash>\\b\\d{1,2}/\\d{1,2}/\\d{4}\\b)',
    `(?<en>\\b${MONTH_NAME}\\.?\\s+(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?\\d{4}\\b)`,
    `(?<enday>\\b\\d{1,2}\\s+${MONTH_NAME}\\.?\\s+\\d{4}\\b)`,
    '(?<number>[-−]?(?:[$€£¥]\\s?)?(?:\\d{1,3}(?:[,\\u00a0\\u202f]\\d{3})+|\\d+)(?:\\.\\d+)?%?)',
  ].join('|'),
  'giu',
);

/** The figures of a text, in order (at most `MAX_FIGURES`). */
export function figuresOf(text: string): Figure[] {
  const out: Figure[] = [];
  for (const m of text.matchAll(FIGURE)) {
    if (out.length === MAX_FIGURES) break;
    const g = m.groups!;
    const start = m.index;
    const written = m[0];
    if (g.iso || g.zh || g.slash || g.en || g.enday) {
      out.push({ text: written, start, end: start + written.length, kind: 'date' });
      continue;
    }
    const number = written.replace(/^[-−]?[$€£¥]?\s?/u, '');
    const currency = /[$€£¥]/u.test(written);
    const percent = written.endsWith('%');
    const plain = number.replace(/%$/, '');
    // a count in prose, a digit inside a word ("O2", "3M"), the last digits of a masked card are no figure
    if (!currency && !percent && /^\d$/.test(plain)) continue;
    if (/[\p{L}_•]/u.test(text[start - 1] ?? '') || /[\p{L}_]/u.test(text[start + written.length] ?? '')) continue;
    out.push({ text: written, start, end: start + written.length, kind: percent ? 'percent' : 'amount' });
  }
  return out;
}

/** A number as written ("1,234.56", "$45", "-3.5%", "−12") as an exact magnitude. */
function magnitude(written: string): Decimal | null {
  const digits = written.replace(/[-−$€£¥%\s,\u00a0\u202f]/gu, '');
  if (!/^\d+(?:\.\d+)?$/.test(digits)) return null;
  return new Decimal(digits);
}

function decimalsOf(written: string): number {
  const m = /\.(\d+)/.exec(written.replace(/%$/, ''));
  return m ? m[1]!.length : 0;
}

/** A day as `YYYY-MM-DD` or a month as `YYYY-MM` from a written date (two readings of 01/02/2011, joined by |); null if not one. */
function dateKey(written: string): string | null {
  const pad = (n: number) => String(n).padStart(2, '0');
  let m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(written);
  if (m) return m[3] ? `${m[1]}-${m[2]}-${m[3]}` : `${m[1]}-${m[2]}`;
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(written);
  // month first (US) or day first (most others): either reading may be the day meant
  if (m) return `${m[3]}-${pad(Number(m[1]))}-${pad(Number(m[2]))}|${m[3]}-${pad(Number(m[2]))}-${pad(Number(m[1]))}`;
  m = /^(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*[日号])?$/u.exec(written);
  if (m) return `${m[1]}-${pad(Number(m[2]))}${m[3] ? `-${pad(Number(m[3]))}` : ''}`;
  m = new RegExp(`^(${MONTH_NAME})\\.?\\s+(?:(\\d{1,2})(?:st|nd|rd|th)?,?\\s+)?(\\d{4})$`, 'iu').exec(written);
  if (m) return `${m[3]}-${pad(MONTHS[m[1]!.slice(0, 3).toLowerCase()]!)}${m[2] ? `-${pad(Number(m[2]))}` : ''}`;
  m = new RegExp(`^(\\d{1,2})\\s+(${MONTH_NAME})\\.?\\s+(\\d{4})$`, 'iu').exec(written);
  if (m) return `${m[3]}-${pad(MONTHS[m[2]!.slice(0, 3).toLowerCase()]!)}-${pad(Number(m[1]))}`;
  return null;
}

const SOURCE_NUMBER = /^-?\d+(?:\.\d+)?$/;
const SOURCE_DATE = /^\d{4}-\d{2}-\d{2}/;

/** The values a turn's figures may come from: its tool results, the user's message, today. */
export class GroundingSources {
  private readonly values = new Map<string, Decimal>();
  private readonly days = new Set<string>();
  private read = 0;

  /** Every decimal and date in a tool's result (its JSON walked with a stack, not recursion). */
  addResult(result: unknown): void {
    const stack: unknown[] = [result];
    while (stack.length > 0 && this.read < MAX_SOURCE_TEXT) {
      const value = stack.pop();
      if (typeof value === 'number' && Number.isFinite(value)) this.addNumber(String(value));
      else if (typeof value === 'string') {
        this.read += value.length;
        if (SOURCE_NUMBER.test(value)) this.addNumber(value);
        else if (SOURCE_DATE.test(value)) this.addDay(value.slice(0, 10));
        else this.addText(value);
      } else if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
      else if (value !== null && typeof value === 'object') stack.push(...Object.values(value).reverse());
    }
  }

  /** The figures someone wrote (the user's question, a tool's text): each may be repeated. */
  addText(text: string): void {
    for (const f of figuresOf(text)) {
      if (f.kind === 'date') {
        for (const key of dateKey(f.text)?.split('|') ?? []) this.addDay(key);
      } else {
        const v = magnitude(f.text);
        if (v) this.addNumber(v.toString());
      }
    }
  }

  addDay(day: string): void {
    this.days.add(day);
  }

  private addNumber(written: string): void {
    if (this.values.size >= MAX_SOURCES) return;
    const v = new Decimal(written).abs();
    this.values.set(v.toString(), v);
  }

  /** Whether a figure is traced (see the module comment). */
  traces(figure: Figure): boolean {
    if (figure.kind === 'date') return this.tracesDate(figure.text);
    const v = magnitude(figure.text);
    if (!v) return false;
    if (this.values.has(v.toString())) return true;
    if (figure.kind === 'percent') return this.isRatio(v, decimalsOf(figure.text));
    // a four-digit whole number may be a year the tools or the user named
    if (/^\d{4}$/.test(figure.text) && [...this.days].some((d) => d.startsWith(figure.text))) return true;
    return this.isSumOrDifference(v);
  }

  private tracesDate(written: string): boolean {
    const keys = dateKey(written)?.split('|') ?? [];
    for (const d of this.days) if (keys.some((key) => d.startsWith(key))) return true;
    return false;
  }

  private isSumOrDifference(v: Decimal): boolean {
    for (const a of this.values.values()) {
      if (this.values.has(v.minus(a).toString())) return true;
      if (this.values.has(a.minus(v).toString())) return true;
      if (this.values.has(a.plus(v).toString())) return true;
    }
    return false;
  }

  private isRatio(percent: Decimal, decimals: number): boolean {
    const target = percent.toNumber();
    const all = [...this.values.values()];
    const numbers = all.map((x) => x.toNumber());
    const tolerance = 10 ** -decimals;
    for (let i = 0; i < all.length; i++) {
      for (let j = 0; j < all.length; j++) {
        if (i === j || numbers[j] === 0) continue;
        if (Math.abs((100 * numbers[i]!) / numbers[j]! - target) > tolerance) continue;
        const exact = all[i]!.times(100).dividedBy(all[j]!).toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);
        if (exact.equals(percent)) return true;
      }
    }
    return false;
  }
}

/** The figures of a text its sources do not trace. */
export function untracedFigures(text: string, sources: GroundingSources): Figure[] {
  return figuresOf(text).filter((f) => !sources.traces(f));
}

/** Marks figures as not verified: each wrapped in ⟦ ⟧, the form the app's advisor panel shows as unverified. */
export function markUnverified(text: string, figures: readonly Figure[]): string {
  let out = '';
  let at = 0;
  for (const f of [...figures].sort((a, b) => a.start - b.start)) {
    out += `${text.slice(at, f.start)}⟦${f.text}⟧`;
    at = f.end;
  }
  return out + text.slice(at);
}
