import { describe, expect, it } from 'vitest';
import { expandTwoDigitYear, isoDate, parseDateWithFormat, parseIsoDate, parseOfxDate } from './dates.ts';

describe('dates', () => {
  it('when a date does not exist in the calendar, then it is refused', () => {
    expect(isoDate(2023, 2, 30)).toBeNull();
    expect(isoDate(2023, 2, 29)).toBeNull();
    expect(isoDate(2024, 2, 29)).toBe('2024-02-29');
    expect(isoDate(1900, 2, 29)).toBeNull();
    expect(isoDate(2000, 2, 29)).toBe('2000-02-29');
    expect(isoDate(2023, 13, 1)).toBeNull();
    expect(isoDate(2023, 4, 31)).toBeNull();
    expect(isoDate(1899, 12, 31)).toBeNull();
  });

  it('when a year has two digits, then 00–69 are 20xx and 70–99 are 19xx', () => {
    expect(expandTwoDigitYear(0)).toBe(2000);
    expect(expandTwoDigitYear(69)).toBe(2069);
    expect(expandTwoDigitYear(70)).toBe(1970);
    expect(expandTwoDigitYear(99)).toBe(1999);
    expect(parseDateWithFormat('25.08.23', 'DD.MM.YY')).toBe('2023-08-25');
    expect(parseDateWithFormat('01.01.75', 'DD.MM.YY')).toBe('1975-01-01');
  });

  it('when CSV dates come in each layout, then they read as the calendar date', () => {
    expect(parseDateWithFormat('28.12.2018', 'DD.MM.YYYY')).toBe('2018-12-28');
    expect(parseDateWithFormat('01/12/2023', 'DD/MM/YYYY')).toBe('2023-12-01');
    expect(parseDateWithFormat('12/31/2021', 'MM/DD/YYYY')).toBe('2021-12-31');
    expect(parseDateWithFormat('3/4/2016', 'M/D/YYYY')).toBe('2016-03-04');
    expect(parseDateWithFormat('21-06-2019', 'DD-MM-YYYY')).toBe('2019-06-21');
    expect(parseDateWithFormat('2012:03:01', 'YYYY:MM:DD')).toBe('2012-03-01');
    expect(parseDateWithFormat('20230105', 'YYYYMMDD')).toBe('2023-01-05');
    expect(parseDateWithFormat('2022-01-02 12:16:54', 'YYYY-MM-DD')).toBe('2022-01-02');
  });

  it('when a CSV date is in another layout or impossible, then it is null', () => {
    expect(parseDateWithFormat('2023-02-30', 'YYYY-MM-DD')).toBeNull();
    expect(parseDateWithFormat('12/31/2021', 'DD/MM/YYYY')).toBeNull();
    expect(parseDateWithFormat('28.12.18', 'DD.MM.YYYY')).toBeNull();
    expect(parseDateWithFormat('2022-01-02 junk', 'YYYY-MM-DD')).toBeNull();
    expect(parseDateWithFormat('', 'YYYY-MM-DD')).toBeNull();
  });

  it('when OFX dates carry times, fractions and time zones, then the written calendar date is kept', () => {
    expect(parseOfxDate('20090401122017.000[-5:EST]')).toBe('2009-04-01');
    expect(parseOfxDate('20240323000000[-3:GMT]')).toBe('2024-03-23');
    expect(parseOfxDate('20170220 ')).toBe('2017-02-20');
    expect(parseOfxDate('20180804093914:014')).toBe('2018-08-04');
    expect(parseOfxDate('20230310048208.39')).toBe('2023-03-10');
    expect(parseOfxDate('20120231')).toBeNull();
    expect(parseOfxDate('2012-02-01')).toBeNull();
  });

  it('when CAMT dates carry offsets or times, then the written calendar date is kept', () => {
    expect(parseIsoDate('2017-04-01+02:00')).toBe('2017-04-01');
    expect(parseIsoDate('2014-12-31T13:15:00+01:00')).toBe('2014-12-31');
    expect(parseIsoDate('2014-12-31')).toBe('2014-12-31');
    expect(parseIsoDate('2014-02-31')).toBeNull();
  });
});
