import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PERIOD_TEXT_LIMIT, periodWords, readPeriod, type NamedPeriod } from './periods.ts';

const TODAY = '2026-11-28';
const read = (text: string, today = TODAY) => {
  const r = readPeriod(text, today);
  return r && 'period' in r ? { start: r.period.start, end: r.period.end } : r;
};

describe('readPeriod', () => {
  it.each([
    ['How much did I spend on bank fees in April 2011?', '2011-04-01', '2011-04-30'],
    ['spending for 2011-04', '2011-04-01', '2011-04-30'],
    ['what did I pay on 2011-02-14', '2011-02-01', '2011-02-28'],
    ['Spending in Apr. 2011', '2011-04-01', '2011-04-30'],
    ['2012 february groceries', '2012-02-01', '2012-02-29'],
    ['2023年1月餐饮花了多少？', '2023-01-01', '2023-01-31'],
    ['2023年十二月的收入', '2023-12-01', '2023-12-31'],
    ['What did I spend last month?', '2026-10-01', '2026-10-31'],
    ['上个月花了多少', '2026-10-01', '2026-10-31'],
    ['本月支出', '2026-11-01', '2026-11-28'],
    ['spending this month', '2026-11-01', '2026-11-28'],
    ['How much in March?', '2026-03-01', '2026-03-31'],
    ['How much in December?', '2025-12-01', '2025-12-31'],
    ['groceries in November', '2026-11-01', '2026-11-28'],
    ['3月餐饮', '2026-03-01', '2026-03-31'],
    ['十二月份的支出', '2025-12-01', '2025-12-31'],
    ['income in Q1 2024', '2024-01-01', '2024-03-31'],
    ['income 2024 Q3', '2024-07-01', '2024-09-30'],
    ['the second quarter of 2020', '2020-04-01', '2020-06-30'],
    ['2024年第一季度收入', '2024-01-01', '2024-03-31'],
    ['2024年四季度收入', '2024-10-01', '2024-12-31'],
    ['spending in Q4', '2026-10-01', '2026-11-28'],
    ['spending in Q1', '2026-01-01', '2026-03-31'],
    ['last quarter', '2026-07-01', '2026-09-30'],
    ['本季度', '2026-10-01', '2026-11-28'],
    ['income in 2023', '2023-01-01', '2023-12-31'],
    ['2023年收入多少', '2023-01-01', '2023-12-31'],
    ['last year', '2025-01-01', '2025-12-31'],
    ['去年花了多少', '2025-01-01', '2025-12-31'],
    ['今年的收入', '2026-01-01', '2026-11-28'],
    ['year to date', '2026-01-01', '2026-11-28'],
    ['spending since January', '2026-01-01', '2026-11-28'],
    ['since December', '2025-12-01', '2026-11-28'],
    ['since March 2024', '2024-03-01', '2026-11-28'],
    ['1月以来的支出', '2026-01-01', '2026-11-28'],
    ['自2025年6月以来', '2025-06-01', '2026-11-28'],
  ])('when asked "%s", then the period is %s to %s', (text, start, end) => {
    expect(read(text)).toEqual({ start, end });
  });

  it.each([
    'What is my net worth?',
    'May I see my balances?',
    'Did I spend more than 2000 on food?',
    '我的净资产是多少？',
    '3个月',
  ])('when "%s" names no period, then none is read', (text) => {
    expect(read(text)).toBeNull();
  });

  it.each([
    ['spending in April 1850', '1850'],
    ['income in 2300', '2300'],
    ['spending in Q5 2024', 'quarter 5'],
    ['2023年13月', 'month 13'],
    ['spending for 2024-13', 'month 13'],
  ])('when "%s" names a period the books cannot hold, then it is unreadable (%s)', (text, what) => {
    expect(read(text)).toEqual({ unreadable: what });
  });

  it('when a message is longer than the limit, then a period after it is not read', () => {
    expect(read(`${'x '.repeat(PERIOD_TEXT_LIMIT)} in April 2011`)).toBeNull();
  });
});

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

describe('readPeriod, every month of every year the books keep', () => {
  it('when any month and year is named in any supported phrasing, then that month is read back', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 2199 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(
          (y: number, m: number) => `How much did I spend in ${MONTH_NAMES[m - 1]} ${y}?`,
          (y: number, m: number) => `income for ${MONTH_NAMES[m - 1]!.slice(0, 3)} ${y}`,
          (y: number, m: number) => `spending ${y}-${String(m).padStart(2, '0')}`,
          (y: number, m: number) => `${y}年${m}月花了多少？`,
        ),
        (y, m, phrase) => {
          const today = '2199-12-31';
          const r = readPeriod(phrase(y, m), today);
          const start = `${y}-${String(m).padStart(2, '0')}-01`;
          expect(r && 'period' in r && r.period.start).toBe(start);
          const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
          // the last day of the month: the day before the next month's first
          const last = new Date(Date.parse(`${next}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
          expect(r && 'period' in r && r.period.end).toBe(last);
        },
      ),
    );
  });

  it('when any text is read, then it answers a period inside the books, an unreadable one or none, and never throws', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }),
        (text, day) => {
          const today = day.toISOString().slice(0, 10);
          const r = readPeriod(text, today);
          if (r && 'period' in r) {
            expect(r.period.start <= r.period.end).toBe(true);
            // a period that holds today ends today
            if (r.period.start <= today) expect(r.period.end <= today || r.period.kind === 'since').toBe(true);
          }
        },
      ),
    );
  });
});

describe('periodWords', () => {
  const p = (period: Partial<NamedPeriod>): NamedPeriod => ({
    start: '',
    end: '',
    kind: 'month',
    year: 2011,
    ...period,
  });
  it('when a period is said back, then it is in the words of the question’s language', () => {
    expect(periodWords(p({ part: 4 }), 'en')).toBe('April 2011');
    expect(periodWords(p({ part: 4 }), 'zh')).toBe('2011年4月');
    expect(periodWords(p({ kind: 'quarter', part: 1 }), 'en')).toBe('Q1 2011');
    expect(periodWords(p({ kind: 'quarter', part: 1 }), 'zh')).toBe('2011年第1季度');
    expect(periodWords(p({ kind: 'year' }), 'en')).toBe('2011');
    expect(periodWords(p({ kind: 'since', part: 1 }), 'en')).toBe('since January 2011');
    expect(periodWords(p({ relative: 'last' }), 'en')).toBe('last month');
    expect(periodWords(p({ relative: 'last' }), 'zh')).toBe('上个月');
    expect(periodWords(p({ kind: 'year', relative: 'this' }), 'zh')).toBe('今年');
  });
});
